#!/usr/bin/env bash
# Writes scripts/link-order.txt: the functions the shipped binary runs for a browser's cold
# GetAccounts call, in the order callgrind first meets them, for scripts/build-release.sh to
# place together. Run it after changes to the host's start-up path; needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
binary=$(scripts/build-release.sh --scratch-path "$work/build")
export HOME="$work/home" WALLET_BRIDGE_KEYSTORE="$work/keystore.json" WALLET_BRIDGE_LOG=error
mkdir -p "$HOME"
printf 'link order\n' > "$work/passphrase"
head -c 32 /dev/zero | tr '\0' '\1' > "$work/seed"
"$binary" keys import --keystore "$WALLET_BRIDGE_KEYSTORE" --format raw --file "$work/seed" \
  --passphrase-file "$work/passphrase" >/dev/null
python3 - "$work/request" <<'PY'
import struct, sys
body = b'{"jsonrpc":"2.0","method":"NATIVE_GET_ACCOUNTS_METHOD","id":1}'
open(sys.argv[1], "wb").write(struct.pack("=I", len(body)) + body)
PY
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/profile" \
  "$binary" chrome-extension://linkorderlinkorderlinkorderlink/ < "$work/request" > /dev/null 2>&1
python3 - "$work/profile" scripts/link-order.txt <<'PY'
import re, sys
seen, names = set(), []
for line in open(sys.argv[1]):
    match = re.match(r"c?fn=\(\d+\) (.*)", line)
    if match:
        name = re.sub(r"'\d+$", "", match.group(1).strip())
        if name not in seen and not name.startswith("0x") and name != "(below main)":
            seen.add(name)
            names.append(name)
open(sys.argv[2], "w").write("\n".join(names) + "\n")
print(f"{sys.argv[2]}: {len(names)} functions", file=sys.stderr)
PY
