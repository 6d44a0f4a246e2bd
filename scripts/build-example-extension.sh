#!/usr/bin/env bash
# Assembles the example extension for one browser into OUT_DIR (default:
# .build/example-extension-BROWSER): its manifest, the shared background script, and the JS
# modules it loads from js/src (an extension can only load its own files). OUT_DIR is replaced
# on every run: a folder that holds the checkout, lies in examples/extension or js/src, or was not
# written by this script is refused (scripts/extension-build-lib.sh).
#   scripts/build-example-extension.sh chromium|firefox [OUT_DIR]
set -euo pipefail
usage="usage: scripts/build-example-extension.sh chromium|firefox [OUT_DIR]"
browser=${1:?$usage}
[ $# -le 2 ] || { echo "$usage" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
case "$browser" in chromium|firefox) ;; *) echo "unknown browser: $browser (chromium or firefox)" >&2; exit 2 ;; esac
out=${2:-$root/.build/example-extension-$browser}
source "$root/scripts/extension-build-lib.sh"

extension_output_prepare build-example-extension.sh "$out" "$root" "$root/examples/extension" "$root/js/src"
cp "$root/examples/extension/$browser/manifest.json" "$root/examples/extension/background.js" "$out/"
extension_copy_js_runtime "$root/js/src" "$out/wallet-bridge"
