#!/usr/bin/env bash
# Fuzzes the host's parsers of untrusted bytes with libFuzzer (fuzz/README.md).
#   scripts/fuzz.sh --replay        plain build; replays every seed and past crash once (seconds)
#   scripts/fuzz.sh --short         instrumented build; each target fuzzes for FUZZ_SECONDS (20)
#   scripts/fuzz.sh --long          instrumented build; each target runs FUZZ_RUNS (10,000,000)
# Targets may follow the mode: frame-decoder, json-rpc, keystore, agent-protocol, eip712, evm-transaction, solana-transaction (default: all).
# A crash stops the run with the input saved under fuzz/.build-fuzz/artifacts/<target>/; copy it
# to fuzz/regressions/<target>/ with a descriptive name once it is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:---short}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(frame-decoder json-rpc keystore agent-protocol eip712 evm-transaction solana-transaction)

if [[ "$mode" == "--replay" ]]; then
  swift build --package-path fuzz --disable-build-manifest-caching
  for target in "${targets[@]}"; do
    inputs=(fuzz/corpus/"$target")
    [[ -n "$(ls -A fuzz/regressions/"$target" 2>/dev/null)" ]] && inputs+=(fuzz/regressions/"$target")
    echo "== replay $target" >&2
    fuzz/.build/debug/fuzz-"$target" "${inputs[@]}" 2>&1 | tail -1 >&2
  done
  exit 0
fi

case "$mode" in
  --short) limit=(-max_total_time="${FUZZ_SECONDS:-20}") ;;
  --long) limit=(-runs="${FUZZ_RUNS:-10000000}") ;;
  *) echo "usage: scripts/fuzz.sh [--replay|--short|--long] [target...]" >&2; exit 2 ;;
esac

# libFuzzer supplies its own entry point next to ours; the toolchain's lld links that, where the
# system's gold linker fails.
scratch=fuzz/.build-fuzz
mkdir -p "$scratch"
linker="$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld"
printf '{"schemaVersion": "1.0", "linker": {"path": "%s"}}\n' "$linker" > "$scratch/toolset.json"
# Without the build-manifest cache: it misses files added to the path dependency (the package
# under test) since the last build.
swift build --package-path fuzz --scratch-path "$scratch" -c release --disable-build-manifest-caching \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING --toolset "$scratch/toolset.json"

export SWIFT_BACKTRACE=enable=no  # let libFuzzer, not Swift's backtracer, handle a crash
status=0
for target in "${targets[@]}"; do
  corpus="$scratch/corpus/$target"  # the fuzzer adds inputs here, never to the committed seeds
  artifacts="$scratch/artifacts/$target/"
  mkdir -p "$corpus" "$artifacts"
  cp -n fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  seeds=("$corpus")
  [[ -n "$(ls -A fuzz/regressions/"$target" 2>/dev/null)" ]] && seeds+=(fuzz/regressions/"$target")
  echo "== fuzz $target ${limit[*]}" >&2
  log="$scratch/$target.log"
  if "$scratch"/release/fuzz-"$target" "${seeds[@]}" -dict=fuzz/dict/"$target".dict -max_len=65536 \
      -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$artifacts" -print_final_stats=1 "${limit[@]}" > "$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
    seconds=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || true)
    echo "ok   $target: ${runs:-?} executions in ${seconds:-?} s, no crash" >&2
  else
    status=1
    echo "FAIL $target: libFuzzer found a failure; its log ($log) ends:" >&2
    tail -30 "$log" >&2
  fi
done
exit $status
