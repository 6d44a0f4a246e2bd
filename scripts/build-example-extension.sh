#!/usr/bin/env bash
# Assembles the example extension for one browser into OUT_DIR: its manifest, the shared
# background script, and the JS package from js/src (an extension can only load its own files).
#   scripts/build-example-extension.sh chromium|firefox OUT_DIR
set -euo pipefail
browser=${1:?usage: build-example-extension.sh chromium|firefox OUT_DIR}
out=${2:?usage: build-example-extension.sh chromium|firefox OUT_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
case "$browser" in chromium|firefox) ;; *) echo "unknown browser: $browser" >&2; exit 2 ;; esac

rm -rf "$out"
mkdir -p "$out/wallet-bridge"
cp "$root/examples/extension/$browser/manifest.json" "$root/examples/extension/background.js" "$out/"
cp "$root"/js/src/*.js "$out/wallet-bridge/"
