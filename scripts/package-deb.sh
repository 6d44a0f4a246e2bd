#!/usr/bin/env bash
# Builds the Debian package of wallet-bridge from the fully static release binary.
#
#   scripts/package-deb.sh [--chrome-extension ID]... [--firefox-addon ID]... [--output DIR]
#                          [--binary PATH]
#   scripts/package-deb.sh --print-folders
#
# Prints nothing on stdout but the package's path (.build/deb/ unless --output), e.g.
# .build/deb/wallet-bridge_0.1.0-1_amd64.deb; progress goes to stderr. With --print-folders it
# builds nothing and prints the system-wide manifest folders it fills, one "FOLDER FAMILY" a line.
# The binary comes from scripts/build-release.sh, or --binary names one already built that way.
#
# The package holds /usr/bin/wallet-bridge (stripped), a host manifest in every browser's
# system-wide folder, man pages, bash, zsh and fish completions, the agent's systemd user
# units, the documentation and the copyright file. The manifests allow only the extensions given
# here, which are fixed when the package is built: --chrome-extension (32 letters a-p, or
# chrome-extension://ID/) and --firefox-addon (name@domain or {GUID}), each repeatable. Without
# them, the example extension's IDs (examples/extension), which suit a trial and nothing else: a
# real deployment names its own.
#
# Versions: the binary's `--version` (WalletBridgeVersion.current) is the one source; it must
# equal js/package.json's version, the newest release in CHANGELOG.md, and the upstream part of
# the newest entry of packaging/changelog (whose full version, e.g. 0.1.0-1, the package takes).
# scripts/set-version.sh changes them together.
set -euo pipefail
cd "$(dirname "$0")/.."

# The example extension's IDs (examples/extension: its manifest's "key" and gecko id).
default_chrome_extension=oeloogpinfhebldicgpgcpochgkpponn
default_firefox_addon=example@wallet-bridge.dev
# ManifestIdentifiers.defaultHostName, as in manifests/.
host_name=com.walletbridge.host
host_description="wallet-bridge: a wallet for browser extensions"
installed_binary=/usr/bin/wallet-bridge

# Every browser's system-wide manifest folder, the manifest family it reads, and the browsers
# that read it (for README.Debian). Kept by hand from the systemHostFolders of
# Sources/WalletBridgeCLI/Install/BrowserCatalog.swift, as the binary prints them nowhere;
# Tests/system/test_package.py fails when the two lists differ.
manifest_folders=(
  "/usr/lib/mozilla/native-messaging-hosts firefox Firefox"
  "/usr/lib/librewolf/native-messaging-hosts firefox LibreWolf"
  "/etc/opt/chrome/native-messaging-hosts chromium Google Chrome (every channel), Brave"
  "/etc/chromium/native-messaging-hosts chromium Chromium"
  "/etc/opt/vivaldi/native-messaging-hosts chromium Vivaldi"
  "/etc/opt/edge/native-messaging-hosts chromium Microsoft Edge"
)
# Left out on purpose: /usr/lib64/mozilla/native-messaging-hosts. Firefox reads it instead of
# /usr/lib/mozilla only when built with HAVE_USR_LIB64_DIR, as RPM distributions build it;
# Mozilla's builds and Debian's firefox-esr read /usr/lib/mozilla, and Debian keeps nothing of
# its own in /usr/lib64 (lintian: non-multi-arch-lib-dir). The test knows this exception.

fail() { echo "package-deb: $*" >&2; exit 1; }

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

chrome_extensions=()
firefox_addons=()
output=.build/deb
binary=""
while (($#)); do
  case "$1" in
    --chrome-extension|--firefox-addon|--output|--binary)
      (($# >= 2)) || fail "$1 needs a value"
      set -- "$1=$2" "${@:3}"
      continue
      ;;
    --chrome-extension=*) chrome_extensions+=("${1#*=}") ;;
    --firefox-addon=*) firefox_addons+=("${1#*=}") ;;
    --output=*) output=${1#*=} ;;
    --binary=*) binary=${1#*=} ;;
    --print-folders)
      for entry in "${manifest_folders[@]}"; do read -r folder family _ <<<"$entry"; echo "$folder $family"; done
      exit 0
      ;;
    -h|--help) usage; exit 0 ;;
    *) fail "unknown argument: $1 (see --help)" ;;
  esac
  shift
done
((${#chrome_extensions[@]})) || chrome_extensions=("$default_chrome_extension")
((${#firefox_addons[@]})) || firefox_addons=("$default_firefox_addon")

# The IDs, checked by install's rules (ManifestIdentifiers.swift) and written the way install
# writes them: Chrome's as exact origins, each list sorted and without duplicates.
origins=()
for id in "${chrome_extensions[@]}"; do
  bare=${id#chrome-extension://}
  bare=${bare%/}
  [[ "$bare" =~ ^[a-p]{32}$ ]] || fail "--chrome-extension $id: not an extension ID (32 letters a-p, as chrome://extensions shows)"
  origins+=("chrome-extension://$bare/")
done
for id in "${firefox_addons[@]}"; do
  [[ "$id" =~ ^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+$ || "$id" =~ ^\{[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}\}$ ]] ||
    fail "--firefox-addon $id: not an add-on ID (name@domain or {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx})"
done
mapfile -t origins < <(printf '%s\n' "${origins[@]}" | LC_ALL=C sort -u)
mapfile -t addons < <(printf '%s\n' "${firefox_addons[@]}" | LC_ALL=C sort -u)

for tool in dpkg-deb dpkg-parsechangelog gzip strip; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Debian: apt-get install dpkg-dev binutils gzip)"
done

# Dates: the newest packaging/changelog entry's, unless SOURCE_DATE_EPOCH is set, so that the
# same sources give the same package (dpkg-deb reads SOURCE_DATE_EPOCH too).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l packaging/changelog -STimestamp)}
package_version=$(dpkg-parsechangelog -l packaging/changelog -SVersion)
maintainer=$(dpkg-parsechangelog -l packaging/changelog -SMaintainer)
architecture=$(dpkg --print-architecture)

if [[ -z "$binary" ]]; then
  echo "package-deb: building the static binary (scripts/build-release.sh)" >&2
  binary=$(scripts/build-release.sh)
fi
[[ -f "$binary" && -x "$binary" ]] || fail "$binary is not an executable file"
version=$("$binary" --version) || fail "$binary --version failed"

# One version everywhere, or no package.
package_json_version=$(sed -nE 's/^[[:space:]]*"version"[[:space:]]*:[[:space:]]*"([^"]*)".*/\1/p' js/package.json | head -1)
changelog_version=$(sed -nE 's/^## \[([0-9][^]]*)\].*/\1/p' CHANGELOG.md | head -1)
mismatches=()
[[ "$package_json_version" == "$version" ]] || mismatches+=("js/package.json says ${package_json_version:-nothing}")
[[ "$changelog_version" == "$version" ]] || mismatches+=("CHANGELOG.md's newest release is ${changelog_version:-missing}")
[[ "${package_version%-*}" == "$version" ]] || mismatches+=("packaging/changelog's newest entry is $package_version")
if ((${#mismatches[@]})); then
  printf 'package-deb: the binary is version %s, but:\n' "$version" >&2
  printf '  - %s\n' "${mismatches[@]}" >&2
  fail "make them agree with: scripts/set-version.sh $version (or the version you mean)"
fi
# A dynamic binary would need Swift's shared libraries, which no Debian 12 package provides.
headers=$(readelf -lW "$binary" 2>/dev/null) || fail "$binary is not an ELF executable"
[[ "$headers" == *LOAD* && "$headers" != *INTERP* ]] ||
  fail "$binary is not a static executable: build it with scripts/build-release.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
doc=$root/usr/share/doc/wallet-bridge
umask 022
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$doc" "$root/usr/share/man/man1" \
  "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/lib/systemd/user" \
  "$root/usr/share/lintian/overrides"

# The binary, stripped as dh_strip strips executables: its symbols and debug info are half of
# its size, and nothing at run time reads them (Swift's metadata sits in its own sections).
install -m 0755 "$binary" "$root$installed_binary"
strip --remove-section=.comment --remove-section=.note "$root$installed_binary"
[[ "$("$root$installed_binary" --version)" == "$version" ]] || fail "the stripped binary does not run"

# One manifest per system-wide folder, each family with its own key, as install writes them.
json_list() {
  local sep="" item
  printf '['
  for item in "$@"; do printf '%s\n    "%s"' "$sep" "$item"; sep=","; done
  printf '\n  ]'
}
for entry in "${manifest_folders[@]}"; do
  read -r folder family _ <<<"$entry"
  if [[ "$family" == firefox ]]; then allow_key=allowed_extensions; allowed=("${addons[@]}")
  else allow_key=allowed_origins; allowed=("${origins[@]}"); fi
  mkdir -p "$root$folder"
  {
    printf '{\n  "name": "%s",\n  "description": "%s",\n  "path": "%s",\n  "type": "stdio",\n' \
      "$host_name" "$host_description" "$installed_binary"
    printf '  "%s": %s\n}\n' "$allow_key" "$(json_list "${allowed[@]}")"
  } >"$root$folder/$host_name.json"
done

# The man pages, from swift-argument-parser's manual generator (its GenerateManual plugin's tool)
# run on the binary shipped here. Not through `swift package generate-manual`: that plugin first
# builds every product again in release mode with plain flags, into the .build/release this
# static build uses, so each package would rebuild everything twice (minutes) and leave a
# dynamic binary where scripts/build-release.sh left the static one. The tool comes from the
# swift-argument-parser checkout in .build (Package.resolved), so this works offline.
#
# wallet-bridge(1) is the whole reference in one page (every subcommand and option), ending with
# SEE ALSO the subcommands' own pages: wallet-bridge-keys(1), wallet-bridge-keys-create(1), ...
# (the generator's --multi-page output, with git's hyphenated names instead of its dotted ones).
echo "package-deb: generating the man pages and the completions" >&2
swift build --product generate-manual >&2
generate_manual="$(swift build --show-bin-path)/generate-manual"
man_date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)
mkdir -p "$work/man/single" "$work/man/multi"
"$generate_manual" "$root$installed_binary" --date "$man_date" --output-directory "$work/man/single" >&2
"$generate_manual" "$root$installed_binary" --date "$man_date" --output-directory "$work/man/multi" --multi-page >&2
[[ -s "$work/man/single/wallet-bridge.1" ]] || fail "generate-manual wrote no wallet-bridge.1"
# Each page as the generator wrote it, with what mdoc, man-db and lintian need:
# - an empty line (multi-paragraph help text, copied as is) is an mdoc error: a paragraph break;
# - page names with hyphens, in the title (.Dt) and cross-references (.Xr);
# - NAME holds the page's name, so that man-db's whatis parses it (a name with a space does
#   not), while the synopsis and EXIT STATUS keep the command as it is typed;
# - the description unquoted, or whatis shows the quotes; the footer names the release;
# - the help subcommand's page says nothing `--help` does not, and goes, with links to it.
mdoc_page() {
  awk -v page="$1" -v footer="wallet-bridge $version" '
    /^[[:space:]]*$/ { print ".Pp"; next }
    /^\.Os$/ { print ".Os " footer; next }
    /^\.Xr wallet-bridge\.help 1/ { next }
    /^\.(Dt|Xr) / { while (match($0, /[[:alnum:]]\.[[:alnum:]]/)) $0 = substr($0, 1, RSTART) "-" substr($0, RSTART + 2) }
    /^\.Nd ".*"$/ { $0 = ".Nd " substr($0, 6, length($0) - 6) }
    /^\.Nm / && command == "" { command = substr($0, 5); if (command != page) { print ".Nm " page; next } }
    /^\.Nm$/ && command != page { print ".Nm " command; next }
    /^\.Ex -std$/ && command != page { print ".Ex -std " command; next }
    { print }' | sed -E '$s/ ,$//'
}
{
  mdoc_page wallet-bridge <"$work/man/single/wallet-bridge.1"
  # The multi-page top page's SEE ALSO, which names every subcommand's page.
  sed -n '/^\.Sh "SEE ALSO"/,$p' "$work/man/multi/wallet-bridge.1" | mdoc_page wallet-bridge
} | sed -E '$s/ ,$//' | gzip -9n >"$root/usr/share/man/man1/wallet-bridge.1.gz"
for page in "$work"/man/multi/wallet-bridge.*.1; do
  name=$(basename "$page" .1)
  name=${name//./-}
  [[ "$name" != wallet-bridge-help ]] || continue
  [[ ! -e "$root/usr/share/man/man1/$name.1.gz" ]] || fail "two man pages would be named $name.1.gz"
  mdoc_page "$name" <"$page" | gzip -9n >"$root/usr/share/man/man1/$name.1.gz"
done

# Shell completions, from the binary itself (ArgumentParser), in each shell's vendor folder.
# bash-completion sources its scripts, so the generator's #!/bin/bash line goes.
"$root$installed_binary" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/wallet-bridge"
"$root$installed_binary" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_wallet-bridge"
"$root$installed_binary" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/wallet-bridge.fish"

# The agent's systemd user units, with ExecStart on the installed binary. Not enabled: they are
# optional (docs/agent.md), and each user turns them on with systemctl --user.
for unit in manifests/systemd/*.service manifests/systemd/*.socket; do
  sed -E "s#^(ExecStart=)[^[:space:]]*wallet-bridge#\\1$installed_binary#" "$unit" >"$root/usr/lib/systemd/user/${unit##*/}"
done
if grep -h '^ExecStart=' "$root"/usr/lib/systemd/user/* | grep -qv "^ExecStart=$installed_binary\\b"; then
  fail "a unit in manifests/systemd starts something other than $installed_binary"
fi

# Documentation. The guides go side by side, where the units' Documentation= links point
# (file:///usr/share/doc/wallet-bridge/agent.md). CHANGELOG.md is the upstream changelog, which
# Debian names changelog.gz; packaging/changelog is the package's own, changelog.Debian.gz.
for file in README.md SECURITY.md docs/*.md; do
  [[ ! -e "$doc/${file##*/}" ]] || fail "two documents named ${file##*/}"
  install -m 0644 "$file" "$doc/${file##*/}"
done
gzip -9n <CHANGELOG.md >"$doc/changelog.gz"
gzip -9n <packaging/changelog >"$doc/changelog.Debian.gz"
install -m 0644 packaging/copyright "$doc/copyright"
# README.Debian: where the manifests are, which extensions this build allows, how to allow others.
for entry in "${manifest_folders[@]}"; do
  read -r folder _ browsers <<<"$entry"
  printf '  %-44s %s\n' "$folder" "$browsers"
done >"$work/folders"
{
  printf '  Chrome family (allowed_origins):\n'
  printf '    %s\n' "${origins[@]}"
  printf '  Firefox family (allowed_extensions):\n'
  printf '    %s\n' "${addons[@]}"
} >"$work/allowed"
if [[ "${origins[*]}" == "chrome-extension://$default_chrome_extension/" && "${addons[*]}" == "$default_firefox_addon" ]]; then
  printf '%s\n' "These are the IDs of wallet-bridge's example extension (examples/extension" \
    "in the source): they are good for a trial and nothing else." >"$work/whose"
else
  printf '%s\n' "These are the IDs the builder of this package chose." >"$work/whose"
fi
awk -v folders="$work/folders" -v allowed="$work/allowed" -v whose="$work/whose" '
  $0 == "@FOLDERS@" { while ((getline line < folders) > 0) print line; next }
  $0 == "@ALLOWED@" { while ((getline line < allowed) > 0) print line; next }
  $0 == "@WHOSE_IDS@" { while ((getline line < whose) > 0) print line; next }
  { print }' packaging/README.Debian.in >"$doc/README.Debian"
! grep -q '@[A-Z]*@' "$doc/README.Debian" || fail "packaging/README.Debian.in: a placeholder not alone on its line"
# Lintian reads the comments in an overrides file as each override's reason (--show-overrides).
install -m 0644 packaging/lintian-overrides "$root/usr/share/lintian/overrides/wallet-bridge"

# The control files. Every manifest under /etc is a conffile: dpkg keeps an administrator's
# change (another extension allowed) across upgrades and removes the files on purge.
(cd "$root" && find etc -type f -printf '/%p\n' | LC_ALL=C sort) >"$root/DEBIAN/conffiles"
# Built-Using: the Debian source packages whose code the static binary contains, for their
# licences (glibc's LGPL, nettle's LGPL or GPL, the GCC runtime's exception): those of the static
# libraries linked in, libstdc++ being the one Swift's clang finds.
clang=$(dirname "$(readlink -f "$(command -v swift)")")/clang
libstdcxx=$(readlink -f "$("$clang" -print-file-name=libstdc++.a)")
libstdcxx_package=$(dpkg-query -S "$libstdcxx" | head -1 | cut -d: -f1) || fail "no Debian package owns $libstdcxx"
built_using=$(dpkg-query -W -f='${source:Package} (= ${source:Version})\n' \
  libc6-dev "$libstdcxx_package" libsodium-dev nettle-dev libsecp256k1-dev | LC_ALL=C sort -u | paste -sd, | sed 's/,/, /g')
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$package_version|" -e "s|@ARCHITECTURE@|$architecture|" \
  -e "s|@MAINTAINER@|$maintainer|" -e "s|@INSTALLED_SIZE@|$installed_size|" \
  -e "s|@BUILT_USING@|$built_using|" -e '/^#/d' packaging/control >"$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z |
  xargs -0 md5sum) >"$root/DEBIAN/md5sums"

# The one maintainer script: stop running agents before the binary goes (packaging/prerm).
cp packaging/prerm "$root/DEBIAN/prerm"

# Modes and dates fixed, whatever the checkout's umask and times.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$root$installed_binary" "$root/DEBIAN/prerm"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$output"
deb="$output/wallet-bridge_${package_version}_${architecture}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "package-deb: built $deb (allows ${origins[*]} ${addons[*]}); check it with: lintian --info $deb" >&2
echo "$deb"
