#!/usr/bin/env bash
# End-to-end tests in headless Chromium and Firefox ESR (see scripts/e2e.py). Runs alone on a
# fresh machine: installs the browsers and builds the host first (both are no-ops when done).
#   scripts/e2e.sh                   both browsers, both at once through the agent, sessions
#                                    in each, and the broken-extension self-test
#   scripts/e2e.sh chromium|firefox  one browser
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
swift build --product wallet-bridge >&2
swift build --product wallet-bridge-conformance-host >&2
if (($#)); then
  exec python3 scripts/e2e.py "$@"
fi
exec python3 scripts/e2e.py chromium firefox --together --sessions --self-test
