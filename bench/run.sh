#!/usr/bin/env bash
# The benchmark suite in one command: builds what it needs into bench/out/ (git-ignored), runs
# every benchmark on every host side by side, checks every reply, and writes
# bench/out/results.json, results.md and scaling.svg.
#
#   bench/run.sh            full run (a few minutes; BENCHMARKS.md is written from one)
#   bench/run.sh --quick    every benchmark end to end with tiny counts: a smoke test for CI that
#                           fails on any wrong reply and never on a timing
#   bench/run.sh --profile  also the start-up anatomy and the hot-path profiles (bench/investigate.py)
#
# Other options go to bench/bench.py (see --help), e.g. --only cold,rtt or --skip-build.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=0
args=()
for a in "$@"; do
  if [[ "$a" == "--profile" ]]; then profile=1; else args+=("$a"); fi
done

quick=0
for a in "${args[@]+"${args[@]}"}"; do [[ "$a" == "--quick" ]] && quick=1; done

python3 bench/bench.py "${args[@]+"${args[@]}"}"
if [[ $quick == 1 ]]; then
  python3 bench/report.py bench/out/results-quick.json
else
  python3 bench/report.py bench/out/results.json
fi
if [[ $profile == 1 ]]; then
  python3 bench/investigate.py $([[ $quick == 1 ]] && echo --quick)
fi
