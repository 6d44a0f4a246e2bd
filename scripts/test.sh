#!/usr/bin/env bash
# Runs every test of wallet-bridge on a fresh Debian machine: the README's test command, and
# what .ci/run calls. Installs what it needs first.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1-}" in
  "") ;;
  -h | --help)
    echo "usage: bash scripts/test.sh   (no arguments: every test, about 30 minutes on two cores; installs packages with apt)"
    exit 0
    ;;
  *)
    echo "test.sh: unknown argument '$1' (it takes none; --help says what it does)" >&2
    exit 2
    ;;
esac

scripts/install-deps.sh --test

echo "== swift format: the sources are formatted (scripts/format.sh fixes them)" >&2
scripts/format.sh --check

echo "== swift build" >&2
swift build
echo "== swift test" >&2
swift test  # XCTest, then Swift Testing (each fixture case is its own test case)

echo "== js: type check and node --test" >&2
# The README's custom-method example, Swift side: the JS suite calls it. It depends on this
# package by path, and SwiftPM's cached build manifest misses source files added to a path
# dependency since the last build ("cannot find ... in scope"): build without that cache.
swift build --package-path examples/custom-method --disable-build-manifest-caching
tsc -p js/tsconfig.json
node --test js/test/

echo "== the example's own methods: its fixture files through all three runners" >&2
# What a developer with methods of their own runs (README.md, "Your own methods"): the Swift
# side with WalletBridgeTesting (over a process and in process), the extension's side with
# wallet-bridge/testing, and `wallet-bridge conform` against the built host (every file in Fixtures/:
# ping.json, and notes.json, whose cases keep state in files).
swift test --package-path examples/custom-method --disable-build-manifest-caching
node --test examples/custom-method/test/
.build/debug/wallet-bridge conform --host examples/custom-method/.build/debug/ping-host examples/custom-method/Fixtures/
# Each notes.json case alone, after the file's setup only (docs/fixtures.md, "State": a case must
# not need the cases before it), as `conform --filter` runs one.
# (An assignment, not a for-list, so that a node failure stops the script instead of looping zero times.)
notes_cases=$(node -e 'for (const c of require("./examples/custom-method/Fixtures/notes.json").cases) console.log(c.name)')
[ -n "$notes_cases" ] || { echo "examples/custom-method/Fixtures/notes.json has no cases" >&2; exit 1; }
for name in $notes_cases; do
  .build/debug/wallet-bridge conform --host examples/custom-method/.build/debug/ping-host examples/custom-method/Fixtures/notes.json --filter "notes.json#$name"
done

echo "== system tests (pytest)" >&2
# Debian's python3 with Debian's cryptography and pytest (scripts/install-deps.sh), whatever
# python3 comes first on PATH, and the PyPI packages the key tests check against.
"$(scripts/python-env.sh)" -m pytest -q Tests/system

echo "== fuzzing, short mode" >&2
scripts/fuzz.sh --short

echo "== benchmarks, quick: every benchmark end to end, replies checked, no timing asserted" >&2
bench/run.sh --quick

echo "== the shipped binary's link order is not stale (a cold call's code laid out together)" >&2
scripts/make-link-order.sh --check

echo "== end to end in headless Chromium and Firefox ESR" >&2
scripts/e2e.sh

echo "== docs/your-own-host.md, followed literally: new project, tests, both browsers, .deb and lintian" >&2
# About 3 minutes on 2 cores: the new project's builds (debug, the tools through its dependency, static release) are most of it.
scripts/test-guide.sh

echo "== the Debian package: build, lintian, install, use in both browsers, purge" >&2
scripts/test-deb.sh
