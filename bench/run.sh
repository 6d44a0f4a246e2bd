#!/usr/bin/env bash
# The benchmark suite in one command: builds what it needs into bench/out/ (git-ignored), runs
# every benchmark on every host side by side, checks every reply, and writes
# bench/out/results.json, results.md and scaling.svg.
#
#   bench/run.sh            full run (a few minutes; BENCHMARKS.md is written from one)
#   bench/run.sh --quick    every benchmark end to end with tiny counts: a smoke test for CI that
#                           fails on any wrong reply and never on a timing
#
# Options go to bench/bench.py (see --help), e.g. --only cold,rtt,ssh-agent or --skip-build.
set -euo pipefail
cd "$(dirname "$0")/.."

args=("$@")

quick=0
for a in "${args[@]+"${args[@]}"}"; do [[ "$a" == "--quick" ]] && quick=1; done

python3 bench/bench.py "${args[@]+"${args[@]}"}"
if [[ $quick == 1 ]]; then
  python3 bench/report.py bench/out/results-quick.json
else
  python3 bench/report.py bench/out/results.json
fi
