#!/usr/bin/env bash
# Assembles the reference wallet extension (examples/wallet-extension) for one browser into
# OUT_DIR (default: .build/wallet-extension-BROWSER): its manifest, the background, content,
# page and popup scripts, config.js, the icons, and the JS modules they load from js/src
# (wallet-bridge/ and wallet-bridge/provider/; an extension can only load its own files).
# OUT_DIR is replaced on every run: a folder that holds the checkout, lies in
# examples/wallet-extension or js/src, or was not written by this script is refused
# (scripts/extension-build-lib.sh).
#   scripts/build-wallet-extension.sh chromium|firefox [OUT_DIR]
# WALLET_BRIDGE_HOST_NAME, when set, replaces the native host's name in the assembled config.js
# (default com.walletbridge.host, the name `wallet-bridge install` gives the wallet).
set -euo pipefail
usage="usage: scripts/build-wallet-extension.sh chromium|firefox [OUT_DIR]"
browser=${1:?$usage}
[ $# -le 2 ] || { echo "$usage" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
case "$browser" in chromium|firefox) ;; *) echo "unknown browser: $browser (chromium or firefox)" >&2; exit 2 ;; esac
host_name=${WALLET_BRIDGE_HOST_NAME-}
# The name must equal the host manifest's file name: lowercase letters, digits, _ and . (as both browsers take it).
if [ -n "$host_name" ] && ! [[ $host_name =~ ^[a-z0-9_]+(\.[a-z0-9_]+)*$ ]]; then
  echo "build-wallet-extension.sh: WALLET_BRIDGE_HOST_NAME is not a native host name (lowercase letters, digits, _ and ., dot-separated): $host_name" >&2
  exit 2
fi
out=${2:-$root/.build/wallet-extension-$browser}
source "$root/scripts/extension-build-lib.sh"
src=$root/examples/wallet-extension

extension_output_prepare build-wallet-extension.sh "$out" "$root" "$src" "$root/js/src"
cp "$src/$browser/manifest.json" "$src/background.js" "$src/content.js" "$src/page.js" "$src/config.js" \
  "$src/popup.html" "$src/popup.js" "$out/"
mkdir "$out/icons"
cp "$src"/icons/*.png "$out/icons/"
extension_copy_js_runtime "$root/js/src" "$out/wallet-bridge"
extension_copy_js_runtime "$root/js/src/provider" "$out/wallet-bridge/provider"
if [ -n "$host_name" ]; then
  sed -i "s/^export const HOST_NAME = '[^']*';$/export const HOST_NAME = '$host_name';/" "$out/config.js"
  grep -q "^export const HOST_NAME = '$host_name';$" "$out/config.js" \
    || { echo "build-wallet-extension.sh: could not set the host name in config.js" >&2; exit 1; }
fi
