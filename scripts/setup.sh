#!/usr/bin/env bash
# Sets wallet-bridge up on a fresh Debian machine and shows it answering:
#   1. installs the Debian packages it needs (libsodium, a graphical pinentry),
#   2. builds the release binary fully static (Swift's libraries, glibc and libsodium linked in):
#      a browser may start it for every message, and no dynamic loading halves its start-up
#      (BENCHMARKS.md); it also runs without the Swift toolchain,
#   3. installs it as $PREFIX/bin/wallet-bridge (PREFIX defaults to ~/.local), with its bash
#      completion in ${XDG_DATA_HOME:-~/.local/share}/bash-completion/completions/,
#   4. writes the native-messaging manifests for Chromium and Firefox,
#   5. checks them with `wallet-bridge doctor` and sends a real GetAccounts request.
#
# The manifests allow the example extension (examples/extension) unless you name your own:
#   WALLET_BRIDGE_CHROME_EXTENSION=<32-letter ID>  WALLET_BRIDGE_FIREFOX_ADDON=<add-on ID>
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${PREFIX:-$HOME/.local}
chrome_extension=${WALLET_BRIDGE_CHROME_EXTENSION:-oeloogpinfhebldicgpgcpochgkpponn}
firefox_addon=${WALLET_BRIDGE_FIREFOX_ADDON:-example@wallet-bridge.dev}

echo "== 1/5 system packages" >&2
scripts/install-deps.sh

echo "== 2/5 release build" >&2
built=$(scripts/build-release.sh)

echo "== 3/5 install $prefix/bin/wallet-bridge" >&2
install -d "$prefix/bin"
install -m 0755 "$built" "$prefix/bin/wallet-bridge"
bin="$prefix/bin/wallet-bridge"
# Where bash-completion looks for a user's own completions, loaded the first time the command
# is completed: nothing to add to ~/.bashrc.
completions=${XDG_DATA_HOME:-$HOME/.local/share}/bash-completion/completions
install -d "$completions"
"$bin" --generate-completion-script bash > "$completions/wallet-bridge.tmp"
mv "$completions/wallet-bridge.tmp" "$completions/wallet-bridge"
echo "bash completion: $completions/wallet-bridge (open a new shell)" >&2

echo "== 4/5 native-messaging manifests" >&2
"$bin" install --binary "$bin" --browser chromium --browser firefox \
  --chrome-extension "$chrome_extension" --firefox-addon "$firefox_addon"

echo "== 5/5 the host answering" >&2
# doctor starts the host through each manifest exactly as the browser would; a browser that is
# not installed on this machine is reported as such, which is not a failure of the host.
"$bin" doctor || true
"$bin" call --as chrome --origin "chrome-extension://$chrome_extension/" NATIVE_GET_ACCOUNTS_METHOD

cat >&2 <<NEXT

wallet-bridge is installed as $bin.
Next: create a key with \`wallet-bridge keys create --label main\`, then load the example
extension (examples/extension/README.md) or your own. Once a key exists, an extension's first
GetAccounts asks you, in a dialog, whether it may see your accounts: the \`call\` above then
answers -1 (no_prompt) on a machine without a display (docs/sessions.md).
NEXT
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "Note: $prefix/bin is not on your PATH." >&2 ;; esac
