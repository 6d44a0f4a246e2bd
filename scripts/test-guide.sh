#!/usr/bin/env bash
# Follows docs/your-own-host.md literally: every block fenced exactly ```sh, in order, in one bash
# (so `cd`, `export` and `source` carry over), with `set -euo pipefail`, started in this checkout
# with a scratch HOME and nothing of this machine's browsers, manifests or ~/.local reachable.
# Blocks fenced ```sh (root) are for a person to run as root and are left out.
#
#   scripts/test-guide.sh [--keep]   (--keep: leave the scratch folder, and say where)
#
# It builds the tools, runs `wallet-bridge new`, builds and tests the new project (Swift and JS),
# runs conform and describe and the type generator, installs the host, runs doctor and call, runs
# the extension in headless Chromium and Firefox ESR, builds the .deb and checks it with lintian,
# and uninstalls. About 3 minutes on 2 cores once the test command's own build is done (the new
# package's debug and static release builds are most of it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
keep=false
case "${1:-}" in
  "") ;;
  --keep) keep=true ;;
  *) echo "usage: scripts/test-guide.sh [--keep]" >&2; exit 2 ;;
esac

scratch=$(mktemp -d "${TMPDIR:-/tmp}/wallet-bridge-guide.XXXXXX")
if $keep; then
  echo "scratch folder: $scratch" >&2
else
  trap 'rm -rf "$scratch"' EXIT
fi
mkdir -p "$scratch/home" "$scratch/tmp" "$scratch/run"
chmod 700 "$scratch/run"

script=$scratch/guide.sh
{
  echo 'set -euo pipefail'
  echo 'PS4="+ guide: "'
  echo 'set -x'
  awk '/^```sh$/ { inside = 1; blocks++; next } /^```/ { inside = 0; next } inside { print } END { if (blocks < 8) exit 1 }' \
    "$root/docs/your-own-host.md"
} > "$script" || { echo "docs/your-own-host.md: fewer sh blocks than expected" >&2; exit 1; }

# The guide's reader: a home of their own, the system's PATH, no XDG overrides of this session.
cd "$root"
env -i PATH="$PATH" HOME="$scratch/home" TMPDIR="$scratch/tmp" XDG_RUNTIME_DIR="$scratch/run" \
  LANG=C.UTF-8 TERM=dumb bash "$script" < /dev/null
echo "docs/your-own-host.md: every step ran" >&2
