#!/usr/bin/env bash
# End-to-end tests in headless Chromium and Firefox ESR (see scripts/e2e.py).
#   scripts/e2e.sh                   both browsers, plus the broken-extension self-test
#   scripts/e2e.sh chromium|firefox  one browser
set -euo pipefail
cd "$(dirname "$0")/.."
if (($#)); then
  exec python3 scripts/e2e.py "$@"
fi
exec python3 scripts/e2e.py chromium firefox --self-test
