#!/usr/bin/env bash
# The Debian package as a user meets it, on this machine: build it, check it with lintian,
# install it with apt, use it (doctor on the system-wide manifests, the man page, the bash
# completion, the end-to-end runs in Chromium and Firefox through those manifests), purge it,
# and check that nothing it wrote remains. Part of the README's test command (scripts/test.sh).
# Needs root or sudo, as installing any package does.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
package=wallet-bridge
out=.build/deb

# What the package may touch, as paths: everything under /usr, /etc, /opt and /var/lib but
# dpkg's and apt's own records (which change with any install: dpkg's are checked apart below)
# and caches that triggers refresh (man-db's index).
snapshot() {
  find /usr /etc /opt /var/lib -xdev \
    \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/lib/man-db -o -path /var/lib/ucf \
       -o -path /var/lib/systemd -o -path /etc/ld.so.cache \) -prune -o -print 2>/dev/null | LC_ALL=C sort
}

scripts/install-deps.sh --test
swift build --product wallet-bridge-conformance-host >&2  # the end-to-end runs' report host

# A package already there may be the user's own, with their configuration: never purge it.
if dpkg-query -W "$package" >/dev/null 2>&1; then
  echo "test-deb: $package is installed on this machine; this test installs and purges its own build." >&2
  echo "  Remove it first (sudo apt-get purge $package), e.g. after a run that stopped half way." >&2
  exit 1
fi

echo "== package: build" >&2
rm -rf "$out"
scripts/package-deb.sh --output "$out" >&2
deb=$(ls "$out"/${package}_*_amd64.deb)

echo "== package: lintian" >&2
# Every remaining tag is overridden in packaging/lintian-overrides, each with its reason;
# --fail-on makes a warning fail the run as an error would.
lintian --fail-on error,warning --info "$deb" >&2

before=$(mktemp)
after=$(mktemp)
adopted=$(mktemp)
trap 'rm -f "$before" "$after" "$adopted"' EXIT
snapshot > "$before"
# dpkg takes an existing empty folder that no package owns (say an /etc/opt made by hand) as
# the package's, and removes it again at the purge while it is empty: an empty folder going is
# dpkg's rule, not something left behind. Those are noted, and allowed to go.
dpkg-deb -c "$deb" | awk '$1 ~ /^d/ {print $NF}' | sed 's|^\./|/|; s|/$||' | while read -r folder; do
  if [[ -n "$folder" && -d "$folder" && -z "$(ls -A "$folder")" ]] && ! dpkg -S "$folder" >/dev/null 2>&1; then
    echo "$folder"
  fi
done | LC_ALL=C sort > "$adopted"

echo "== package: apt-get install ./$(basename "$deb")" >&2
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "./$deb" >&2
[[ "$(command -v wallet-bridge)" == /usr/bin/wallet-bridge ]] || { echo "test-deb: /usr/bin/wallet-bridge is not the wallet-bridge on PATH" >&2; exit 1; }

echo "== package: used as a user would" >&2
/usr/bin/wallet-bridge --version >&2
/usr/bin/wallet-bridge doctor --system >&2
man -w wallet-bridge >/dev/null
MANPAGER=cat man wallet-bridge 2>/dev/null | grep -q "wallet-bridge-keys" \
  || { echo "test-deb: man wallet-bridge does not list its subcommands" >&2; exit 1; }
bash -c '. /usr/share/bash-completion/completions/wallet-bridge && complete -p wallet-bridge' >/dev/null \
  || { echo "test-deb: the bash completion does not register for wallet-bridge" >&2; exit 1; }

echo "== package: end to end in Chromium and Firefox through the system-wide manifests" >&2
python3 scripts/e2e.py --installed --together --sessions

echo "== package: purge" >&2
$sudo env DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "$package" >&2
snapshot > "$after"
left=$(LC_ALL=C comm -13 "$before" "$after")
gone=$(LC_ALL=C comm -23 "$before" "$after" | LC_ALL=C comm -23 - "$adopted")
if [[ -n "$left" || -n "$gone" ]]; then
  [[ -z "$left" ]] || printf 'test-deb: left after the purge:\n%s\n' "$left" >&2
  [[ -z "$gone" ]] || printf 'test-deb: gone after the purge, though there before the install:\n%s\n' "$gone" >&2
  exit 1
fi
[[ ! -s "$adopted" ]] || echo "test-deb: empty folders no package owned, which dpkg adopted and removed: $(tr '\n' ' ' < "$adopted")" >&2
# packaging/prerm ends the agents (doctor's probe above started one): none may run on from the
# deleted binary.
for exe in /proc/[0-9]*/exe; do
  if [[ "$(readlink "$exe" 2>/dev/null)" == "/usr/bin/wallet-bridge"* ]]; then
    echo "test-deb: process ${exe//[!0-9]/} still runs /usr/bin/wallet-bridge after the purge" >&2
    exit 1
  fi
done
if ls /var/lib/dpkg/info/"$package".* >/dev/null 2>&1 || dpkg-query -W "$package" >/dev/null 2>&1; then
  echo "test-deb: dpkg still records $package after the purge" >&2
  exit 1
fi
echo "test-deb: built, lintian-clean, installed, used in both browsers, purged without a trace" >&2
