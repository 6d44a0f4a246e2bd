#!/usr/bin/env bash
# Writes scripts/link-order.txt: the functions the shipped binary runs for a browser's cold
# GetAccounts call, in the order callgrind first meets them, then the variables it reads or
# writes (valgrind's lackey), for scripts/build-release.sh to place together: code, and the
# pages of data and `.bss` a start-up touches, each of which costs a page fault of its own
# (BENCHMARKS.md). Each way a cold call goes is profiled: a connected extension's,
# read from the agent's files (the usual one); the same through the running agent (a sessions
# file too large to read); and with {"agent": false} (the host reads the keystore itself).
# Needs valgrind.
#
#   scripts/make-link-order.sh           rewrite the list (after changes to the start-up path)
#   scripts/make-link-order.sh --check   fail when the list has gone stale: more than 5 % of
#                                        the functions and variables a cold call uses are not
#                                        in it
#
# A stale list does not break anything, it only costs speed, silently: code added to the cold
# path lands among the megabytes of code no cold call runs, and each such function can cost a
# page fault. A list that fell behind the sessions, Ethereum and agent work made cold calls
# measurably slower (BENCHMARKS.md); the test command runs the check so that it cannot
# happen unnoticed again.
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
case "${1-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: scripts/make-link-order.sh [--check]" >&2; exit 64 ;;
esac

command -v valgrind >/dev/null || { echo "make-link-order: needs valgrind (scripts/install-deps.sh --test)" >&2; exit 1; }
work=$(mktemp -d)
binary=
trap '[[ -z "$binary" ]] || "$binary" agent stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
binary=$(scripts/build-release.sh)
# Nothing of the person running it: their configuration, pinentry or passphrase file would
# change the path profiled (a policy, {"agent": false}).
for variable in $(compgen -e | grep '^WALLET_BRIDGE_' || true); do unset "$variable"; done
export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state" XDG_CONFIG_HOME="$work/config"
# A folder of its own, as a person's keystore has (0700: one other users can change is refused,
# docs/wallet.md).
export WALLET_BRIDGE_KEYSTORE="$work/keys/keystore.json" WALLET_BRIDGE_LOG=error
mkdir -p "$HOME" "$XDG_STATE_HOME"
mkdir -m 700 "$work/keys"
mkdir -m 700 "$XDG_RUNTIME_DIR"
origin=chrome-extension://linkorderlinkorderlinkorderlink/
printf 'link order\n' > "$work/passphrase"
head -c 32 /dev/zero | tr '\0' '\1' > "$work/seed"
"$binary" keys import --keystore "$WALLET_BRIDGE_KEYSTORE" --format raw --type solana --file "$work/seed" \
  --passphrase-file "$work/passphrase" >/dev/null 2>"$work/import.log" || { cat "$work/import.log" >&2; exit 1; }
printf '{"agent": false}\n' > "$work/direct.json"
chmod 600 "$work/direct.json"
# The extension is connected, as after the person approved it once (docs/sessions.md), so that
# GetAccounts asks no one: the path of every later call. sessions-many.json adds other
# extensions' sessions, past what a host reads itself. Written before any agent starts, which
# then loads the file in place.
python3 - "$work" "$origin" <<'PY'
import json, struct, sys, time
work, origin = sys.argv[1:]
body = b'{"jsonrpc":"2.0","method":"NATIVE_GET_ACCOUNTS_METHOD","id":1}'
open(f"{work}/request", "wb").write(struct.pack("=I", len(body)) + body)
now = int(time.time())
namespaces = {"solana": {"chains": ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"], "methods": ["solana_signMessage"],
                         "events": ["accountsChanged"]}}
session = {"topic": "11" * 32, "caller": {"kind": "chrome-extension", "id": origin},
           "metadata": {"name": "link order", "description": "", "url": "", "icons": []},
           "requiredNamespaces": namespaces, "optionalNamespaces": {}, "namespaces": namespaces,
           "created": now, "expiry": now + 3600}
with open(f"{work}/sessions-one.json", "w") as f:
    json.dump({"version": 1, "sessions": [session]}, f)
others = [dict(session, topic="%02x" % (n + 2) * 32, caller={"kind": "chrome-extension", "id": "chrome-extension://%s/" % (chr(97 + n) * 32)})
          for n in range(15)]
with open(f"{work}/sessions-many.json", "w") as f:
    json.dump({"version": 1, "sessions": [session] + others}, f)
PY
chmod 600 "$work/sessions-one.json" "$work/sessions-many.json"
get_accounts() {  # PROFILE [VAR=VALUE ...]: one cold GetAccounts under callgrind (*.profile)
  local profile=$1 tool=(--tool=callgrind --demangle=no --callgrind-out-file="$work/$1")
  # or lackey (*.trace), which logs every address the call reads or writes
  [[ $profile == *.trace ]] && tool=(--tool=lackey --trace-mem=yes --log-file="$work/$profile")
  shift
  if ! env "$@" valgrind "${tool[@]}" \
    "$binary" "$origin" < "$work/request" > "$work/reply" 2>"$work/$profile.log" || ! grep -q '"addresses"' "$work/reply"; then
    echo "make-link-order: GetAccounts ($profile) failed: $(cat "$work/reply")" >&2
    tail -20 "$work/$profile.log" >&2
    [[ $profile != *.trace ]] || grep '^==' "$work/$profile" | tail -20 >&2  # lackey's own messages
    exit 1
  fi
}

cp "$work/sessions-one.json" "$work/keys/keystore.sessions.json"
# Each way is taken twice, under callgrind and under lackey.
get_accounts connected.profile
get_accounts connected.trace
get_accounts direct.profile WALLET_BRIDGE_CONFIG="$work/direct.json"
get_accounts direct.trace WALLET_BRIDGE_CONFIG="$work/direct.json"
cp "$work/sessions-many.json" "$work/keys/keystore.sessions.json"
# One untimed call starts the agent; the profiled one finds it running, as nearly every call does.
"$binary" "$origin" < "$work/request" > /dev/null
get_accounts agent.profile
get_accounts agent.trace

python3 - "$check" scripts/link-order.txt "$binary" "$work"/{connected,agent,direct}.profile \
  "$work"/{connected,agent,direct}.trace <<'PY'
import bisect, re, subprocess, sys
check, listed, binary, files = sys.argv[1] == "1", sys.argv[2], sys.argv[3], sys.argv[4:]
seen, names = set(), []
def add(name):
    if name not in seen:
        seen.add(name)
        names.append(name)
for profile in (f for f in files if f.endswith(".profile")):
    for line in open(profile):
        match = re.match(r"c?fn=\(\d+\) (.*)", line)
        if match:
            name = re.sub(r"'\d+$", "", match.group(1).strip())
            if not name.startswith("0x") and name != "(below main)":
                add(name)
functions = len(names)
# The variables: every address a trace loads, stores or modifies, named by the binary's symbol
# table (data, read-only data and .bss symbols), in the order first touched.
variables = sorted((int(address, 16), int(size, 16), name) for address, size, kind, name in
                   (line.split() for line in subprocess.run(["nm", "-nS", binary], capture_output=True, text=True,
                                                            check=True).stdout.splitlines() if line.count(" ") == 3)
                   if kind in "bBdDrRgGsSvV" and int(size, 16) > 0)  # sized: a zero-size label would hide its enclosing symbol
starts = [start for start, _, _ in variables]
for trace in (f for f in files if f.endswith(".trace")):
    for line in open(trace):
        if line[:1] != " " or line[1:2] not in ("L", "S", "M"):
            continue
        address = int(line[3:].split(",", 1)[0], 16)
        index = bisect.bisect_right(starts, address) - 1
        if index >= 0 and address < variables[index][0] + variables[index][1]:
            add(variables[index][2])
if len(names) - functions < functions // 10:
    # The traces' addresses are not the symbol table's (a position-independent binary, say):
    # the list would silently lose its variables.
    sys.exit(f"make-link-order: only {len(names) - functions} variables named from the traces")
if not check:
    open(listed, "w").write("\n".join(names) + "\n")
    print(f"{listed}: {functions} functions, {len(names) - functions} variables", file=sys.stderr)
    sys.exit(0)
known = set(line.strip() for line in open(listed))
stale = False
for kind, group in (("functions", names[:functions]), ("variables", names[functions:])):
    missing = [name for name in group if name not in known]
    share = len(missing) / len(group)
    print(f"link order: {len(missing)} of the {len(group)} {kind} a cold call uses are not in {listed} ({share:.1%})",
          file=sys.stderr)
    if share > 0.05:
        stale = True
        print("the list is stale: run scripts/make-link-order.sh and commit it (first missing: %s)" % ", ".join(missing[:5]),
              file=sys.stderr)
if stale:
    sys.exit(1)
PY
