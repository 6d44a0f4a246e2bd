#!/usr/bin/env bash
# Follows docs/your-own-host.md literally: every block fenced exactly ```sh, in order, in one bash
# (so `cd`, `export` and `source` carry over), with `set -euo pipefail`, started in this checkout
# with a scratch HOME and nothing of this machine's browsers, manifests or ~/.local reachable.
# Blocks fenced ```sh (root) are for a person to run as root and are left out. Any other shell
# block (```bash, ```shell, ```console, ```sh with another label, or an indented fence) fails
# the test: it would be skipped silently, and the guide would say more than was run.
#
#   scripts/test-guide.sh [--keep]   (--keep: leave the scratch folder, and say where)
#   GUIDE=FILE GUIDE_CHECK_ONLY=1 scripts/test-guide.sh   (the fence check alone, on FILE: its test)
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
  awk '
    function shell_like(label) { return label ~ /^(sh|bash|shell|console|zsh|ksh|dash|shell-session|shellsession|terminal)([^A-Za-z0-9_-]|$)/ }
    /^[ \t]*(```|~~~)/ {
      if (state != "") {
        if ($0 ~ /^[ \t]*(```|~~~)[ \t]*$/) state = ""
        else if (state == "run") print
        next
      }
      label = $0; indented = (label ~ /^[ \t]/)
      sub(/^[ \t]*(```|~~~)[ \t]*/, "", label); sub(/[ \t]+$/, "", label)
      if (!indented && label == "sh") { state = "run"; blocks++; next }
      if (!indented && label == "sh (root)") { state = "skip"; next }
      if (shell_like(label)) {
        printf "docs/your-own-host.md:%d: a shell block fenced %s%s would not be run: fence it exactly ```sh (or ```sh (root) to leave it out), not indented\n", NR, (indented ? "(indented) " : ""), $0 > "/dev/stderr"
        bad = 1
      }
      state = "skip"; next
    }
    state == "run" { print }
    END {
      if (bad) exit 2
      if (blocks < 8) { print "docs/your-own-host.md: fewer sh blocks than expected" > "/dev/stderr"; exit 1 }
    }' "${GUIDE:-$root/docs/your-own-host.md}"
} > "$script" || exit 1
if [ -n "${GUIDE_CHECK_ONLY:-}" ]; then exit 0; fi

# The guide's reader: a home of their own, the system's PATH, no XDG overrides of this session.
cd "$root"
env -i PATH="$PATH" HOME="$scratch/home" TMPDIR="$scratch/tmp" XDG_RUNTIME_DIR="$scratch/run" \
  LANG=C.UTF-8 TERM=dumb bash "$script" < /dev/null
echo "docs/your-own-host.md: every step ran" >&2
