#!/usr/bin/env bash
# Sets wallet-bridge up on a fresh Debian machine and shows it answering:
#   1. installs the Debian packages it needs (libsodium, a graphical pinentry),
#   2. builds the release binary fully static (Swift's libraries, glibc and libsodium linked in):
#      a browser may start it for every message, and no dynamic loading shortens its start-up
#      (BENCHMARKS.md); it also runs without the Swift toolchain,
#   3. installs it as $PREFIX/bin/wallet-bridge (PREFIX defaults to ~/.local), with its bash
#      completion in ${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions/,
#   4. only when asked (below): writes the native-messaging manifests for Chromium and Firefox
#      and checks them with `wallet-bridge doctor`, and assembles the reference wallet extension
#      (examples/wallet-extension) for both browsers, ready to load (README.md, "A wallet for
#      web pages"),
#   5. sends a real GetAccounts request to the installed binary. Once a key exists, that request
#      needs your consent in a dialog: on a machine without a display the host answers with an
#      error (-1, no_prompt), which is still the host answering. If the request started the
#      wallet's agent (docs/agent.md), it is stopped again: setup leaves nothing running.
#
#   scripts/setup.sh [--manifests] [--binary PATH]
#
# --manifests writes the manifests for the reference wallet extension (examples/wallet-extension)
# and the example extension (examples/extension), or for your own wallet extension when you name
# it (naming one is asking too; then nothing is assembled):
#   WALLET_BRIDGE_CHROME_EXTENSION=<32-letter ID>  WALLET_BRIDGE_FIREFOX_ADDON=<add-on ID>
# Without, no browser folder is touched: a developer of another host (docs/your-own-host.md)
# gets the tools without the wallet's manifests.
# --binary PATH installs that wallet-bridge binary instead of building the release one (steps 1
# and 2 are skipped: for a binary you built yourself, and for the test of this script); a
# relative PATH is taken from the folder you run the script in.
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."

manifests=false
binary=
while [ $# -gt 0 ]; do
  case "$1" in
    --manifests) manifests=true ;;
    --binary) binary=${2:?--binary needs the path of a wallet-bridge binary}; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown option $1 (--manifests, --binary PATH, --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "${WALLET_BRIDGE_CHROME_EXTENSION:-}${WALLET_BRIDGE_FIREFOX_ADDON:-}" ]; then manifests=true; fi

prefix=${PREFIX:-$HOME/.local}
# The reference wallet extension: its Chromium ID comes from the fixed `key` in its manifest
# (the first 32 hex digits of the key's SHA-256, 0-f written a-p); its Firefox ID is its gecko
# id. It connects to the wallet under install's default name (its config.js), as the example does.
wallet_extension=examples/wallet-extension
wallet_chrome_id() {
  local key
  key=$(sed -n 's/^ *"key": *"\([A-Za-z0-9+\/=]*\)".*/\1/p' "$wallet_extension/chromium/manifest.json")
  [ -n "$key" ] || return 1
  printf %s "$key" | base64 -d | sha256sum | cut -c1-32 | tr 0-9a-f a-p
}
wallet_firefox_id=wallet@wallet-bridge.dev
wallet_chrome=
extensions_home=${XDG_DATA_HOME:-$HOME/.local/share}/wallet-bridge
own_extension=false
if [ -n "${WALLET_BRIDGE_CHROME_EXTENSION:-}${WALLET_BRIDGE_FIREFOX_ADDON:-}" ]; then own_extension=true; fi
chrome_extensions=(oeloogpinfhebldicgpgcpochgkpponn)
firefox_addons=(example@wallet-bridge.dev)
if $own_extension; then
  chrome_extensions=(${WALLET_BRIDGE_CHROME_EXTENSION:+"$WALLET_BRIDGE_CHROME_EXTENSION"})
  firefox_addons=(${WALLET_BRIDGE_FIREFOX_ADDON:+"$WALLET_BRIDGE_FIREFOX_ADDON"})
  [ ${#chrome_extensions[@]} -gt 0 ] || chrome_extensions=(oeloogpinfhebldicgpgcpochgkpponn)
  [ ${#firefox_addons[@]} -gt 0 ] || firefox_addons=(example@wallet-bridge.dev)
elif [ -f "$wallet_extension/chromium/manifest.json" ]; then
  wallet_chrome=$(wallet_chrome_id) \
    || { echo "setup.sh: $wallet_extension/chromium/manifest.json has no key" >&2; exit 1; }
  chrome_extensions+=("$wallet_chrome")
  firefox_addons+=("$wallet_firefox_id")
fi
chrome_extension=${chrome_extensions[0]}

if [ -n "$binary" ]; then
  case "$binary" in /*) ;; *) binary=$caller/$binary ;; esac
  [ -f "$binary" ] && [ -x "$binary" ] || { echo "setup.sh: --binary $binary is not an executable file" >&2; exit 2; }
  echo "== 1/5, 2/5 skipped: installing $binary" >&2
  built=$binary
else
  echo "== 1/5 system packages" >&2
  scripts/install-deps.sh

  echo "== 2/5 release build" >&2
  built=$(scripts/build-release.sh)
fi

echo "== 3/5 install $prefix/bin/wallet-bridge" >&2
install -d "$prefix/bin"
# The binary already installed there (`--binary ~/.local/bin/wallet-bridge`) is kept as it is:
# install(1) refuses to copy a file onto itself.
[ "$built" -ef "$prefix/bin/wallet-bridge" ] || install -m 0755 "$built" "$prefix/bin/wallet-bridge"
bin="$prefix/bin/wallet-bridge"
# Where bash-completion looks for a user's own completions, loaded the first time the command
# is completed: nothing to add to ~/.bashrc.
completions=${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions
install -d "$completions"
"$bin" --generate-completion-script bash > "$completions/wallet-bridge.tmp"
mv "$completions/wallet-bridge.tmp" "$completions/wallet-bridge"
echo "bash completion: $completions/wallet-bridge (open a new shell)" >&2

if $manifests; then
  echo "== 4/5 native-messaging manifests" >&2
  allowed=()
  for id in "${chrome_extensions[@]}"; do allowed+=(--chrome-extension "$id"); done
  for id in "${firefox_addons[@]}"; do allowed+=(--firefox-addon "$id"); done
  "$bin" install --binary "$bin" --browser chromium --browser firefox "${allowed[@]}"
  # doctor starts the host through each manifest exactly as the browser would; a browser that is
  # not installed on this machine is reported as such, which is not a failure of the host.
  "$bin" doctor || true
  if [ -n "$wallet_chrome" ]; then
    # Assembled out of the checkout, where a browser that loaded it keeps finding it. That folder
    # is also the keystore's, which the wallet wants closed to other users: made 0700 whatever
    # the umask, and one already there is left as it is.
    if [ ! -d "$extensions_home" ]; then
      mkdir -p "${extensions_home%/*}"
      mkdir -m 0700 "$extensions_home"
    fi
    for browser in chromium firefox; do
      scripts/build-wallet-extension.sh "$browser" "$extensions_home/wallet-extension-$browser" >/dev/null
    done
    echo "the reference wallet extension: $extensions_home/wallet-extension-chromium and -firefox" \
      "(README.md, \"A wallet for web pages\")" >&2
  fi
else
  echo "== 4/5 native-messaging manifests: not asked for (--manifests), none written" >&2
fi

echo "== 5/5 the host answering" >&2
# The installed binary, started as Chromium would start it for the example extension. The
# request may start the agent (with a key, the host asks it for your consent); stop it again
# unless one was already running, so that setup leaves no process behind.
agent_before=0
"$bin" agent status >/dev/null 2>&1 || agent_before=$?
answered=0
"$bin" call --host "$bin" --as chrome --origin "chrome-extension://$chrome_extension/" NATIVE_GET_ACCOUNTS_METHOD || answered=$?
if [ "$agent_before" -eq 3 ] && "$bin" agent status >/dev/null 2>&1; then
  "$bin" agent stop >/dev/null || echo "setup.sh: could not stop the agent the request started (wallet-bridge agent stop)" >&2
fi
# call's exit status (docs/install.md): 0 a result, 1 a JSON-RPC error reply (the host answered
# all the same), anything else no usable reply.
case $answered in
  0) ;;
  1) cat >&2 <<'ERROR'
The host answered with an error (above). With a key in the keystore, GetAccounts asks you in a
dialog whether the extension may see your accounts: on a machine without a display it answers
-1 (no_prompt) instead, as above; in a graphical session the dialog appears (docs/sessions.md).
ERROR
     ;;
  *) echo "setup.sh: the installed wallet-bridge did not answer (call exited $answered)" >&2; exit 1 ;;
esac

# The hint to write the manifests only when this run did not.
manifest_hint=""
if ! $manifests; then
  manifest_hint="; \`scripts/setup.sh --manifests\` (or
\`wallet-bridge install\`) writes the browsers' manifests for it"
fi
cat >&2 <<NEXT

wallet-bridge is installed as $bin.
Next: create a key with \`wallet-bridge keys create --label main\` (and one with \`--type
ethereum\` for Ethereum's dApps), then load the reference wallet extension (README.md, "A wallet
for web pages": ordinary dApps find it) or your own$manifest_hint. A host of your own instead:
docs/your-own-host.md. Once a key exists, an extension's first
GetAccounts asks you, in a dialog, whether it may see your accounts: the GetAccounts request of
step 5/5 then gets -1 (no_prompt) on a machine without a display (docs/sessions.md).
NEXT
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "Note: $prefix/bin is not on your PATH." >&2 ;; esac
