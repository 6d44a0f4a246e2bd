#!/usr/bin/env bash
# Builds a Debian package of a native-messaging host: wallet-bridge's own (the default), or any
# other host, such as one built on wallet-bridge's library.
#
#   scripts/package-deb.sh [--chrome-extension ID]... [--firefox-addon ID]... [--output DIR]
#                          [--binary PATH]
#   scripts/package-deb.sh --binary PATH --name HOST --copyright FILE --maintainer 'NAME <EMAIL>'
#                          (--chrome-extension ID | --firefox-addon ID)... [--version VERSION]
#                          [--package NAME] [--command NAME] [--description TEXT] [--summary TEXT]
#                          [--long-description TEXT] [--homepage URL] [--depends LIST]
#                          [--revision N] [--man-page FILE] [--wallet-bridge PATH] [--output DIR]
#
# Prints nothing on stdout but the package's absolute path, e.g.
# /src/wallet-bridge/.build/deb/wallet-bridge_0.1.0-1_amd64.deb; progress goes to stderr. The
# package goes to --output, else .build/deb: this checkout's for the wallet's package, the
# current folder's for any other. Relative paths (--binary, --copyright, --man-page,
# --wallet-bridge, --output) are taken from the current folder, wherever this script lives (say
# .build/checkouts/wallet-bridge/scripts/ in a project that depends on wallet-bridge).
#
# Every package holds the binary as /usr/bin/COMMAND (stripped) and a host manifest in every
# browser's system-wide folder, which `wallet-bridge install --root` stages: the same folders and
# bytes `install --system` writes. The manifests allow only the extensions given here, which are
# fixed when the package is built: --chrome-extension (32 letters a-p, or
# chrome-extension://ID/) and --firefox-addon (name@domain or {GUID}), each repeatable; a
# package for a Chrome-only extension names no add-on, and gets no Firefox manifests.
# `install --root` alone checks the IDs, the host name and the description; the staging runs
# first, as soon as the wallet-bridge that stages is at hand (for the wallet's package without
# --binary, the release binary it builds). No value may hold a control character (a line break,
# a tab), but --long-description's line breaks.
#
# The wallet's package (package name wallet-bridge: no --binary, or a --binary named
# wallet-bridge) is built from the fully static release binary (scripts/build-release.sh) and
# also holds man pages, bash, zsh and fish completions, the agent's systemd user units, the
# documentation, README.Debian and the copyright file. Without IDs it allows the example
# extension's (examples/extension), which suit a trial and nothing else: a real deployment names
# its own. Versions: the binary's `--version` (WalletBridgeVersion.current) is the one source;
# it must equal js/package.json's version, the newest release in CHANGELOG.md, and the upstream
# part of the newest entry of packaging/changelog (whose full version, e.g. 0.1.0-1, the package
# takes). scripts/set-version.sh changes them together.
#
# Any other host's package:
#   --binary PATH        the host, as built (for Swift: scripts/build-release.sh --product NAME,
#                        or swift build -c release --static-swift-stdlib). A binary that needs
#                        Swift's shared libraries is refused: no Debian package provides them.
#   --name HOST          the host name the extension passes to connectNative (required).
#   --copyright FILE     /usr/share/doc/PACKAGE/copyright (required: Debian policy 12.5).
#   --maintainer         'Full Name <email>'; default "$DEBFULLNAME <$DEBEMAIL>" when both are set.
#   --version VERSION    the upstream version; default: what `PATH --version` prints.
#   --package NAME       the package's name; default: the command's name.
#   --command NAME       the name in /usr/bin; default: the binary's file name.
#   --description TEXT   the manifests' description (one line); default: install's,
#                        "HOST: a native messaging host (COMMAND)". Not the package's: --summary.
#   --summary TEXT       the package's one-line description (the control file's); default:
#                        "native-messaging host HOST".
#   --long-description TEXT  what the host does, before the generated paragraph.
#   --homepage URL (http:// or https://), --depends LIST (a Debian dependency list, e.g.
#   'python3 (>= 3.11), libfoo1 | libbar2', added to the shared libraries' dependencies),
#   --revision N (the Debian revision, default 1), --man-page FILE (COMMAND's page, section 1).
# The Debian changelog is generated (one entry: this version), and so are the dependencies on
# shared libraries (dpkg-shlibdeps). --wallet-bridge names the wallet-bridge that stages the
# manifests; default: the one this checkout builds (swift build --product wallet-bridge), and for
# the wallet's package the packaged binary itself.
set -euo pipefail
# A step that fails without a message of its own still says where.
trap 'echo "package-deb: failed at line $LINENO of $0 (status $?)" >&2' ERR
# Paths on the command line are the caller's (a developer runs this from their own project, as
# .build/checkouts/wallet-bridge/scripts/package-deb.sh): remembered before moving to this checkout.
caller=$PWD
cd "$(dirname "$0")/.."
checkout=$PWD

# The example extension's IDs (examples/extension: its manifest's "key" and gecko id).
default_chrome_extension=oeloogpinfhebldicgpgcpochgkpponn
default_firefox_addon=example@wallet-bridge.dev

fail() { echo "package-deb: $*" >&2; exit 1; }

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; }

# A path option, absolute: a relative one is taken from the caller's folder.
absolute() { if [[ "$1" == /* ]]; then printf '%s' "$1"; else printf '%s/%s' "$caller" "$1"; fi; }

chrome_extensions=()
firefox_addons=()
output=""
binary=""
host_name=""
unset host_description  # set only by --description
package=""
command_name=""
version=""
revision=""
maintainer=""
summary=""
long_description=""
homepage=""
extra_depends=""
copyright=""
man_page=""
stager=""
while (($#)); do
  case "$1" in
    --chrome-extension|--firefox-addon|--output|--binary|--name|--description|--package|--command|--version|--revision|\
    --maintainer|--summary|--long-description|--homepage|--depends|--copyright|--man-page|--wallet-bridge)
      (($# >= 2)) || fail "$1 needs a value (see --help)"
      set -- "$1=$2" "${@:3}"
      continue
      ;;
    --*=*[[:cntrl:]]*)
      # Every value goes into a file (the control file, the changelog, a manifest) or a path:
      # a line break would start a field of its own (an injected Pre-Depends:, say). Only
      # --long-description may hold line breaks, which become the description's own lines.
      value=${1#*=}
      [[ "${1%%=*}" == --long-description && "${value//$'\n'/}" != *[[:cntrl:]]* ]] ||
        fail "${1%%=*}: the value contains a control character (a line break, a tab): write it on one line${value:+ (given: ${value//[[:cntrl:]]/?})}"
      long_description=$value
      ;;
    --chrome-extension=*) chrome_extensions+=("${1#*=}") ;;
    --firefox-addon=*) firefox_addons+=("${1#*=}") ;;
    --output=*) output=${1#*=} ;;
    --binary=*) binary=${1#*=} ;;
    --name=*) host_name=${1#*=} ;;
    --description=*) host_description=${1#*=} ;;
    --package=*) package=${1#*=} ;;
    --command=*) command_name=${1#*=} ;;
    --version=*) version=${1#*=} ;;
    --revision=*) revision=${1#*=} ;;
    --maintainer=*) maintainer=${1#*=} ;;
    --summary=*) summary=${1#*=} ;;
    --long-description=*) long_description=${1#*=} ;;
    --homepage=*) homepage=${1#*=} ;;
    --depends=*) extra_depends=${1#*=} ;;
    --copyright=*) copyright=${1#*=} ;;
    --man-page=*) man_page=${1#*=} ;;
    --wallet-bridge=*) stager=${1#*=} ;;
    -h|--help) usage; exit 0 ;;
    *) fail "unknown argument: $1 (see --help)" ;;
  esac
  shift
done

# The paths given, from the caller's folder.
[[ -z "$binary" ]] || binary=$(absolute "$binary")
[[ -z "$copyright" ]] || copyright=$(absolute "$copyright")
[[ -z "$man_page" ]] || man_page=$(absolute "$man_page")
[[ -z "$stager" ]] || stager=$(absolute "$stager")
[[ -z "$output" ]] || output=$(absolute "$output")

# Which package: the wallet's (today's package-deb.sh) or another host's.
[[ -n "$command_name" ]] || command_name=$(basename "${binary:-wallet-bridge}")
[[ -n "$package" ]] || package=$command_name
wallet=0
[[ "$package" == wallet-bridge ]] && wallet=1
[[ "$package" =~ ^[a-z0-9][a-z0-9+.-]+$ ]] ||
  fail "--package $package: not a Debian package name (lowercase letters, digits, + - and ., at least two, starting with a letter or digit); name it with --package"
[[ "$command_name" =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ ]] ||
  fail "--command $command_name: not a command name (letters, digits, . _ + -); name the command in /usr/bin with --command"
installed_binary=/usr/bin/$command_name
doc=/usr/share/doc/$package
if ((wallet)); then
  [[ "$command_name" == wallet-bridge ]] || fail "the wallet-bridge package installs /usr/bin/wallet-bridge: leave out --command, or name another --package"
  [[ -z "$version$revision$maintainer$summary$long_description$homepage$extra_depends$copyright$man_page" ]] ||
    fail "--version, --revision, --maintainer, --summary, --long-description, --homepage, --depends, --copyright and --man-page are for other hosts' packages: the wallet's come from packaging/ (scripts/set-version.sh changes its version)"
  # ManifestIdentifiers.defaultHostName, as in manifests/. The description is install's own
  # default for /usr/bin/wallet-bridge (the wallet's text) unless --description is given.
  host_name=${host_name:-com.walletbridge.host}
  # The wallet's package lands in this checkout's .build/deb, as it always has.
  output=${output:-$checkout/.build/deb}
  ((${#chrome_extensions[@]})) || chrome_extensions=("$default_chrome_extension")
  ((${#firefox_addons[@]})) || firefox_addons=("$default_firefox_addon")
else
  [[ -n "$binary" ]] || fail "--package $package needs --binary: the host to package"
  [[ -n "$host_name" ]] ||
    fail "--name is missing: the host name the extension passes to connectNative, e.g. --name com.example.notes"
  ((${#chrome_extensions[@]} + ${#firefox_addons[@]})) ||
    fail "no extension may use the host: give --chrome-extension ID and/or --firefox-addon ID (each repeatable), the extensions its manifests allow"
  [[ -n "$copyright" ]] ||
    fail "--copyright is missing: a package needs a copyright file (Debian policy 12.5); give --copyright FILE, e.g. in the machine-readable format (https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/)"
  [[ -f "$copyright" && -r "$copyright" ]] || fail "--copyright $copyright: not a readable file"
  if [[ -z "$maintainer" && -n "${DEBFULLNAME:-}" && -n "${DEBEMAIL:-}" ]]; then
    maintainer="$DEBFULLNAME <$DEBEMAIL>"
    [[ "$maintainer" != *[[:cntrl:]]* ]] ||
      fail "DEBFULLNAME or DEBEMAIL contains a control character (a line break, a tab): set them on one line, or give --maintainer 'Full Name <email>'"
  fi
  [[ -n "$maintainer" ]] ||
    fail "--maintainer is missing: give --maintainer 'Full Name <email>' (or set DEBFULLNAME and DEBEMAIL)"
  [[ "$maintainer" =~ ^[^\<\>,]+\ \<[^\<\>@\ ]+@[^\<\>\ ]+\>$ ]] ||
    fail "--maintainer $maintainer: write it as 'Full Name <email>'"
  [[ -z "$man_page" || -f "$man_page" ]] || fail "--man-page $man_page: no such file"
  # Homepage: an http(s) URL, in the characters a URL may hold (RFC 3986).
  url='^https?://[A-Za-z0-9.-]+(:[0-9]+)?(/[A-Za-z0-9._~:/?#@!$&'"'"'()*+,;=%-]*)?$'
  [[ -z "$homepage" || "$homepage" =~ $url ]] ||
    fail "--homepage $homepage: not an http:// or https:// URL, e.g. --homepage https://example.org/notes"
  # Depends: a Debian relationship list (Debian policy 7.1): packages separated by commas, each
  # with alternatives separated by |, each "name[:arch] [(op version)]".
  relation='[a-z0-9][a-z0-9+.-]+(:[a-z0-9-]+)?[[:space:]]*(\([[:space:]]*(<<|<=|=|>=|>>)[[:space:]]*[A-Za-z0-9.+~:-]+[[:space:]]*\))?'
  alternatives="$relation([[:space:]]*\\|[[:space:]]*$relation)*"
  dependency_list="^[[:space:]]*$alternatives([[:space:]]*,[[:space:]]*$alternatives)*[[:space:]]*\$"
  [[ -z "$extra_depends" || "$extra_depends" =~ $dependency_list ]] ||
    fail "--depends $extra_depends: not a Debian dependency list: package names separated by commas, each with an optional version, as in --depends 'python3 (>= 3.11), libfoo1 | libbar2'"
  revision=${revision:-1}
  [[ "$revision" =~ ^[0-9A-Za-z.+~]+$ ]] || fail "--revision $revision: not a Debian revision (digits, letters, . + ~), e.g. 1"
  summary=${summary:-"native-messaging host $host_name"}
  ((${#summary} <= 80)) || fail "--summary: ${#summary} characters; Debian's one-line description takes at most 80 (say more with --long-description)"
  [[ "$summary" != *$'\n'* ]] || fail "--summary: one line only (say more with --long-description)"
  # Another host's package lands in the caller's .build/deb.
  output=${output:-$caller/.build/deb}
fi

for tool in dpkg-deb dpkg-parsechangelog gzip strip readelf; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Debian: apt-get install dpkg-dev binutils gzip)"
done
architecture=$(dpkg --print-architecture)

if ((wallet)); then
  # Dates: the newest packaging/changelog entry's, unless SOURCE_DATE_EPOCH is set, so that the
  # same sources give the same package (dpkg-deb reads SOURCE_DATE_EPOCH too).
  export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(dpkg-parsechangelog -l packaging/changelog -STimestamp)}
  package_version=$(dpkg-parsechangelog -l packaging/changelog -SVersion)
  maintainer=$(dpkg-parsechangelog -l packaging/changelog -SMaintainer)
  if [[ -z "$binary" ]]; then
    echo "package-deb: building the static binary (scripts/build-release.sh)" >&2
    binary=$(scripts/build-release.sh)
  fi
fi
[[ -f "$binary" && -x "$binary" ]] || fail "$binary is not an executable file (--binary names the host as built)"

# The version: --version, else the binary's own answer (stdin closed and a time limit, as a host
# may read its stdin forever). A host that prints none gets a message saying what to do.
if [[ -z "$version" ]]; then
  version=$(timeout 10 "$binary" --version </dev/null 2>/dev/null | head -1) ||
    fail "$binary --version failed$( ((wallet)) || echo ": pass the version with --version VERSION")"
  version=${version%$'\r'}
  [[ -n "$version" ]] || fail "$binary --version printed nothing: pass the package's version with --version VERSION (e.g. --version 1.0.0), or have the host print it (a host built on wallet-bridge's library prints the version its developer sets)"
fi
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] ||
  fail "the version \"$version\" is not a Debian upstream version (a digit, then letters, digits, . + ~): pass one with --version VERSION"

if ((wallet)); then
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
else
  package_version=$version-$revision
  # Dates: the binary's, unless SOURCE_DATE_EPOCH is set: the same binary gives the same package.
  export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(stat -c %Y "$binary")}
fi

# What the binary needs at run time. A dynamic one needs shared libraries: Debian's are
# dependencies (dpkg-shlibdeps), Swift's are in no Debian package. A script needs its interpreter,
# which --depends names.
static=0
elf=0
if headers=$(readelf -lW "$binary" 2>/dev/null); then
  elf=1
  [[ "$headers" == *INTERP* ]] || static=1
elif ((wallet)); then
  fail "$binary is not an ELF executable"
fi
if ((wallet && !static)); then
  # A dynamic binary would need Swift's shared libraries, which no Debian 12 package provides.
  fail "$binary is not a static executable: build it with scripts/build-release.sh"
fi
if ((elf && !static)); then
  swift_libraries=$(readelf -dW "$binary" | sed -nE 's/.*\(NEEDED\).*\[(libswift[^]]*|libFoundation[^]]*|libdispatch[^]]*|libBlocksRuntime[^]]*)\].*/\1/p' | paste -sd' ')
  [[ -z "$swift_libraries" ]] ||
    fail "$binary needs Swift's shared libraries ($swift_libraries), which no Debian package provides: build it with Swift's runtime linked in (scripts/build-release.sh --product NAME for a fully static binary, or swift build -c release --static-swift-stdlib)"
fi
if ((!elf)); then
  architecture=all
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
umask 022
mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root$doc" "$root/usr/share/lintian/overrides"

# The manifests: `wallet-bridge install --root`, which stages exactly what `install --system`
# writes, in every browser's system-wide folder (BrowserCatalog.swift), for each family given an
# ID. It alone checks the host name, the description and the extension IDs, so it runs first,
# before anything else is written. The wallet's own binary stages its own; another
# host's, the wallet-bridge of this checkout.
if [[ -z "$stager" ]]; then
  if ((wallet)); then
    stager=$binary
  else
    echo "package-deb: building wallet-bridge, which stages the manifests (swift build --product wallet-bridge)" >&2
    swift build --product wallet-bridge >&2 || fail "swift build --product wallet-bridge failed; name a wallet-bridge with --wallet-bridge PATH"
    stager="$(swift build --show-bin-path)/wallet-bridge"
  fi
fi
[[ -x "$stager" ]] || fail "--wallet-bridge $stager: not an executable file"
# --description only when given: otherwise install's own default (the wallet's text for
# /usr/bin/wallet-bridge; "HOST: a native messaging host (COMMAND)" for another host).
stage_args=(install --root "$root" --name "$host_name" --binary "$installed_binary")
[[ -z "${host_description+given}" ]] || stage_args+=(--description "$host_description")
for id in "${chrome_extensions[@]}"; do stage_args+=(--chrome-extension "$id"); done
for id in "${firefox_addons[@]}"; do stage_args+=(--firefox-addon "$id"); done
staged=$("$stager" "${stage_args[@]}" 2>"$work/stage.err") ||
  fail "$(sed 's/^Error: //' "$work/stage.err")"
# "wrote ROOT/FOLDER/HOST.json (browser, browser)": each folder, with the browsers that read it.
sed -nE "s#^wrote $root(/.*)/[^/]*\\.json \\((.*)\\)\$#\\1 \\2#p" <<<"$staged" >"$work/folders"
[[ -s "$work/folders" ]] || fail "$stager install --root staged no manifest (it printed: $staged)"
# The IDs the manifests allow, as install wrote them (normalized, sorted, each once).
allowed_ids() {
  find "$root" -name "$host_name.json" -type f -exec sed -n "/\"$1\": \\[/,/\\]/s/^ *\"\\([^\"]*\)\",\\{0,1\\}\$/\\1/p" {} + | LC_ALL=C sort -u
}
mapfile -t origins < <(allowed_ids allowed_origins)
mapfile -t addons < <(allowed_ids allowed_extensions)

# The binary, stripped as dh_strip strips executables: its symbols and debug info are half of
# its size, and nothing at run time reads them (Swift's metadata sits in its own sections).
install -m 0755 "$binary" "$root$installed_binary"
if ((elf)); then
  strip --remove-section=.comment --remove-section=.note "$root$installed_binary"
  if ((wallet)); then
    [[ "$("$root$installed_binary" --version)" == "$version" ]] || fail "the stripped binary does not run"
  fi
fi

if ((wallet)); then
mkdir -p "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/fish/vendor_completions.d" "$root/usr/lib/systemd/user"
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
  [[ ! -e "$root$doc/${file##*/}" ]] || fail "two documents named ${file##*/}"
  install -m 0644 "$file" "$root$doc/${file##*/}"
done
gzip -9n <CHANGELOG.md >"$root$doc/changelog.gz"
gzip -9n <packaging/changelog >"$root$doc/changelog.Debian.gz"
install -m 0644 packaging/copyright "$root$doc/copyright"
# README.Debian: where the manifests are, which extensions this build allows, how to allow others.
while read -r folder browsers; do
  printf '  %-44s %s\n' "$folder" "$browsers"
done <"$work/folders" >"$work/folder-list"
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
awk -v folders="$work/folder-list" -v host="$host_name" -v allowed="$work/allowed" -v whose="$work/whose" '
  $0 == "@FOLDERS@" { while ((getline line < folders) > 0) print line; next }
  $0 == "@ALLOWED@" { while ((getline line < allowed) > 0) print line; next }
  $0 == "@WHOSE_IDS@" { while ((getline line < whose) > 0) print line; next }
  { gsub(/@HOST_NAME@/, host); print }' packaging/README.Debian.in >"$root$doc/README.Debian"
! grep -q '@[A-Z_]*@' "$root$doc/README.Debian" || fail "packaging/README.Debian.in: a placeholder not alone on its line"
# Lintian reads the comments in an overrides file as each override's reason (--show-overrides).
install -m 0644 packaging/lintian-overrides "$root/usr/share/lintian/overrides/wallet-bridge"
# The one maintainer script: stop running agents before the binary goes (packaging/prerm).
cp packaging/prerm "$root/DEBIAN/prerm"
chmod 0755 "$root/DEBIAN/prerm"
else
  # Another host's package: its copyright file, a Debian changelog of one entry, its man page.
  install -m 0644 "$copyright" "$root$doc/copyright"
  printf '%s (%s) unstable; urgency=medium\n\n  * Version %s, packaged by scripts/package-deb.sh.\n\n -- %s  %s\n' \
    "$package" "$package_version" "$version" "$maintainer" "$(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")" |
    gzip -9n >"$root$doc/changelog.Debian.gz"
  if [[ -n "$man_page" ]]; then
    mkdir -p "$root/usr/share/man/man1"
    if [[ "$man_page" == *.gz ]]; then gzip -dc "$man_page"; else cat "$man_page"; fi | gzip -9n >"$root/usr/share/man/man1/$command_name.1.gz"
  fi
  {
    printf '# Lintian overrides for %s, written by wallet-bridge'"'"'s scripts/package-deb.sh.\n' "$package"
    if ((static)); then
      printf '\n# Static on purpose: Swift'"'"'s runtime is in no Debian 12 package, so a Swift host links it in\n'
      printf '# (and a browser may start the host for every message: a static binary starts faster).\n'
      printf '%s: statically-linked-binary [%s]\n' "$package" "${installed_binary#/}"
    fi
    if [[ -n "$(find "$root/etc/opt" -type f 2>/dev/null)" ]]; then
      printf '\n# Google Chrome, Brave, Vivaldi and Microsoft Edge read system-wide host manifests only from\n'
      printf '# these hard-coded folders under /etc/opt.\n'
      printf '%s: dir-or-file-in-etc-opt [etc/opt/*]\n' "$package"
    fi
    if [[ "$revision" == 1 ]]; then
      printf '\n# Built by scripts/package-deb.sh, not uploaded to Debian: no Intent To Package bug to close.\n'
      printf '%s: initial-upload-closes-no-bugs [%s/changelog.Debian.gz:1]\n' "$package" "${doc#/}"
    fi
  } >"$root/usr/share/lintian/overrides/$package"
fi

# The control files. Every manifest under /etc is a conffile: dpkg keeps an administrator's
# change (another extension allowed) across upgrades and removes the files on purge.
# (A Firefox-only package has no /etc at all.)
conffiles=""
if [[ -d "$root/etc" ]]; then conffiles=$(cd "$root" && find etc -type f -printf '/%p\n' | LC_ALL=C sort); fi
[[ -z "$conffiles" ]] || printf '%s\n' "$conffiles" >"$root/DEBIAN/conffiles"
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
if ((wallet)); then
  # Built-Using: the Debian source packages whose code the static binary contains, for their
  # licences (glibc's LGPL, nettle's LGPL or GPL, the GCC runtime's exception): those of the
  # static libraries linked in, libstdc++ being the one Swift's clang finds.
  clang=$(dirname "$(readlink -f "$(command -v swift)")")/clang
  libstdcxx=$(readlink -f "$("$clang" -print-file-name=libstdc++.a)")
  libstdcxx_package=$(dpkg-query -S "$libstdcxx" | head -1 | cut -d: -f1) || fail "no Debian package owns $libstdcxx"
  built_using=$(dpkg-query -W -f='${source:Package} (= ${source:Version})\n' \
    libc6-dev "$libstdcxx_package" libsodium-dev nettle-dev libsecp256k1-dev | LC_ALL=C sort -u | paste -sd, | sed 's/,/, /g')
  sed -e "s|@VERSION@|$package_version|" -e "s|@ARCHITECTURE@|$architecture|" \
    -e "s|@MAINTAINER@|$maintainer|" -e "s|@INSTALLED_SIZE@|$installed_size|" \
    -e "s|@BUILT_USING@|$built_using|" -e '/^#/d' packaging/control >"$root/DEBIAN/control"
else
  # Depends: the shared libraries a dynamic binary needs, as dpkg-shlibdeps finds their packages
  # (it wants a debian/control to read, which a scratch one is), then --depends.
  depends=""
  if ((elf && !static)); then
    mkdir -p "$work/shlibs/debian"
    printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$package" "$package" >"$work/shlibs/debian/control"
    depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$root$installed_binary" 2>"$work/shlibs.err" | sed -n 's/^shlibs:Depends=//p') ||
      fail "dpkg-shlibdeps could not tell which packages $binary needs: $(cat "$work/shlibs.err")"
  fi
  [[ -z "$extra_depends" ]] || depends=${depends:+$depends, }$extra_depends
  families=()
  ((${#addons[@]})) && families+=("Firefox")
  ((${#origins[@]})) && families+=("the Chromium family (Google Chrome, Chromium, Brave, Vivaldi, Microsoft Edge)")
  browsers_text=$(printf '%s and ' "${families[@]}")
  {
    if [[ -n "$long_description" ]]; then printf '%s\n\n' "$long_description"; fi
    printf '%s\n' "${browsers_text% and } start $installed_binary, the native-messaging host $host_name, when an extension it allows calls it. This package installs the host and its manifests, system-wide; the manifests allow only the extensions chosen when the package was built."
  } | fold -s -w 72 | sed -e 's/[[:space:]]*$//' -e 's/^$/./' -e 's/^/ /' >"$work/long-description"
  {
    printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: %s\nInstalled-Size: %s\n' \
      "$package" "$package_version" "$architecture" "$maintainer" "$installed_size"
    [[ -z "$depends" ]] || printf 'Depends: %s\n' "$depends"
    enhances=()
    ((${#origins[@]})) && enhances+=(chromium)
    ((${#addons[@]})) && enhances+=(firefox-esr)
    printf 'Enhances: %s\n' "$(printf '%s, ' "${enhances[@]}" | sed 's/, $//')"
    printf 'Section: web\nPriority: optional\n'
    [[ -z "$homepage" ]] || printf 'Homepage: %s\n' "$homepage"
    printf 'Description: %s\n' "$summary"
    cat "$work/long-description"
  } >"$root/DEBIAN/control"
fi
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z |
  xargs -0 md5sum) >"$root/DEBIAN/md5sums"

# Modes and dates fixed, whatever the checkout's umask and times.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -path "$root/DEBIAN" -prune -o -type f -exec chmod 0644 {} +
chmod 0644 "$root"/DEBIAN/{control,md5sums}
[[ ! -e "$root/DEBIAN/conffiles" ]] || chmod 0644 "$root/DEBIAN/conffiles"
chmod 0755 "$root$installed_binary"
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$output"
deb="$output/${package}_${package_version}_${architecture}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "package-deb: built $deb (allows ${origins[*]}${origins[*]:+${addons[*]:+ }}${addons[*]}); check it with: lintian --info $deb" >&2
echo "$deb"
