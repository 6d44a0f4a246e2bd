#!/usr/bin/env bash
# Sets the release version everywhere it is written, from the one source of truth on:
#
#   scripts/set-version.sh X.Y.Z [--date YYYY-MM-DD]
#
# - Sources/WalletBridgeKeys/Support/WalletBridgeVersion.swift: WalletBridgeVersion.current,
#   which `wallet-bridge --version` prints and rpc.discover names (the source of truth);
# - js/package.json: "version";
# - CHANGELOG.md: a heading "## [X.Y.Z] - DATE" right under "## [Unreleased]", so what was
#   listed as unreleased becomes this release's entry (Keep a Changelog);
# - packaging/changelog: a Debian changelog entry for X.Y.Z-1, signed by $DEBFULLNAME <$DEBEMAIL>
#   when both are set, else by the newest entry's maintainer.
#
# DATE defaults to today (UTC). It refuses a version already in CHANGELOG.md, and changes
# nothing unless every file can be changed. scripts/package-deb.sh checks the result.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "set-version: $*" >&2; exit 1; }

version=""
date=$(date -u +%F)
while (($#)); do
  case "$1" in
    --date) (($# >= 2)) || fail "--date needs a value"; date=$2; shift ;;
    --date=*) date=${1#*=} ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    -*) fail "unknown option: $1" ;;
    *) [[ -z "$version" ]] || fail "one version only"; version=$1 ;;
  esac
  shift
done
[[ -n "$version" ]] || fail "usage: scripts/set-version.sh X.Y.Z [--date YYYY-MM-DD]"
# Three numbers and nothing else: a pre-release suffix (1.0.0-rc.1) would put a hyphen in the
# upstream part of the Debian version, which Debian reads as the revision.
[[ "$version" =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] ||
  fail "$version is not a version X.Y.Z (three numbers, no leading zeros)"
[[ "$date" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] && date -u -d "$date" +%F >/dev/null 2>&1 ||
  fail "--date $date is not a date YYYY-MM-DD"

swift_file=Sources/WalletBridgeKeys/Support/WalletBridgeVersion.swift
package_json=js/package.json
changelog=CHANGELOG.md
debian_changelog=packaging/changelog
swift_line='^([[:space:]]*public static let current = ")[^"]*(")$'
# The top-level "version" of package.json: the only member indented by two spaces with that name.
json_line='^(  "version": ")[^"]*(",?)$'

[[ $(grep -cE "$swift_line" "$swift_file") == 1 ]] || fail "$swift_file: no single 'public static let current = \"…\"' line"
[[ $(grep -cE "$json_line" "$package_json") == 1 ]] || fail "$package_json: no single top-level \"version\" line"
[[ $(grep -cxF '## [Unreleased]' "$changelog") == 1 ]] || fail "$changelog: no single '## [Unreleased]' heading"
if grep -qE "^## \[$(sed 's/\./\\./g' <<<"$version")\]" "$changelog"; then
  fail "$changelog already has a heading for $version"
fi
current=$(sed -nE 's/.*public static let current = "([^"]*)".*/\1/p' "$swift_file")
newest=$(sed -nE 's/^## \[([0-9][^]]*)\].*/\1/p' "$changelog" | head -1)
if [[ -n "$newest" ]] && [[ "$(printf '%s\n%s\n' "$newest" "$version" | sort -V | tail -1)" != "$version" ]]; then
  fail "$version is older than the newest release in $changelog, $newest"
fi

if [[ -n "${DEBFULLNAME:-}" && -n "${DEBEMAIL:-}" ]]; then
  maintainer="$DEBFULLNAME <$DEBEMAIL>"
else
  maintainer=$(dpkg-parsechangelog -l "$debian_changelog" -SMaintainer)
fi

# Everything is written to temporary files first and moved into place at the end, so that a
# failure leaves all four files as they were.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -E "s/$swift_line/\\1$version\\2/" "$swift_file" >"$tmp/swift"
sed -E "s/$json_line/\\1$version\\2/" "$package_json" >"$tmp/json"
awk -v heading="## [$version] - $date" '
  { print }
  $0 == "## [Unreleased]" { print ""; print heading }' "$changelog" >"$tmp/changelog"
{
  printf 'wallet-bridge (%s-1) unstable; urgency=medium\n\n' "$version"
  printf '  * New upstream release %s (see changelog.gz).\n\n' "$version"
  printf ' -- %s  %s\n\n' "$maintainer" "$(date -u -R -d "$date $(date -u +%T)")"
  cat "$debian_changelog"
} >"$tmp/debian"
dpkg-parsechangelog -l "$tmp/debian" -SVersion >/dev/null || fail "the new packaging/changelog entry does not parse"

cat "$tmp/swift" >"$swift_file"
cat "$tmp/json" >"$package_json"
cat "$tmp/changelog" >"$changelog"
cat "$tmp/debian" >"$debian_changelog"
echo "set-version: $current -> $version in $swift_file, $package_json, $changelog ($date) and $debian_changelog ($version-1)" >&2
echo "set-version: write the release's changes under its heading in $changelog" >&2
