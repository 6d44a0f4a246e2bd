#!/usr/bin/env bash
# Builds the shipped `wallet-bridge` the way it is installed: release, fully static (Swift's
# libraries, glibc and libsodium linked in), laid out for a fast start. A browser may start the
# host for every message, so what a cold call costs is what users pay (BENCHMARKS.md).
#
#   scripts/build-release.sh [swift build options, e.g. --scratch-path DIR --product NAME]
#
# With no --product it builds `wallet-bridge`. Prints nothing on stdout but the binary's path;
# with --path-only it builds nothing and prints only that.
#
# Two flags serve start-up, and neither changes behaviour:
# - `-disable-concrete-type-metadata-mangled-name-accessors`: generic types such as
#   Dictionary<String, Route> get their metadata from an accessor that is handed the witness
#   tables, instead of from a mangled name that makes the runtime search every protocol
#   conformance in the binary (thousands of records; much of a cold call's work).
# - Function sections and lld's `--symbol-ordering-file` with scripts/link-order.txt: the code a
#   cold call runs sits together instead of being spread over the whole text, and the variables
#   it touches on a few pages of data and .bss, so it takes fewer page faults. The list is made
#   by scripts/make-link-order.sh; a stale list only costs speed (names it does not find are
#   skipped).
set -euo pipefail
cd "$(dirname "$0")/.."

path_only=0
args=()
for a in "$@"; do
  if [[ "$a" == --path-only ]]; then path_only=1; else args+=("$a"); fi
done
[[ " ${args[*]-} " == *" --product "* ]] || args+=(--product wallet-bridge)
order="$PWD/scripts/link-order.txt"

flags=(-c release --static-swift-stdlib -Xswiftc -static-executable
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
if command -v "$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld" >/dev/null && [[ -s "$order" ]]; then
  flags+=(-Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld
    -Xlinker "--symbol-ordering-file=$order" -Xlinker --no-warn-symbol-ordering)
fi
product="$(swift build "${flags[@]}" "${args[@]}" --show-bin-path)/$(printf '%s\n' "${args[@]}" | grep -A1 -x -- --product | tail -1)"
if ((!path_only)); then
  # SwiftPM relinks when sources or flags change, not when the order file does: a list just
  # made (scripts/make-link-order.sh) would otherwise take effect at some later build.
  if [[ -e "$product" && -s "$order" && "$order" -nt "$product" ]]; then rm -f "$product"; fi
  swift build "${flags[@]}" "${args[@]}" >&2
fi
echo "$product"
