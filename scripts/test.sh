#!/usr/bin/env bash
# Runs every test of wallet-bridge on a fresh Debian machine: the README's test command, and
# what .ci/run calls. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --test

echo "== swift build" >&2
swift build
echo "== swift test" >&2
swift test --disable-swift-testing  # XCTest only: no empty Swift Testing run

if [[ -d js/test ]]; then
  echo "== js: type check and node --test" >&2
  tsc -p js/tsconfig.json
  node --test js/test/
fi

if [[ -d Tests/system ]]; then
  echo "== system tests (pytest)" >&2
  python3 -m pytest -q Tests/system
fi

if [[ -x bench/run.sh ]]; then
  echo "== benchmarks, quick: every benchmark end to end, replies checked, no timing asserted" >&2
  bench/run.sh --quick
fi

if [[ -x scripts/e2e.sh ]]; then
  echo "== end to end in headless Chromium and Firefox ESR" >&2
  scripts/e2e.sh
fi
