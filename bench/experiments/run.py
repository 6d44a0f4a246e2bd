#!/usr/bin/env python3
"""Measures the proposed core fixes side by side with the current core, in one run.

Sources/ is never touched: each variant is a copy of Package.swift, Sources/ and Tests/ under
bench/out/experiments/<variant>/ with some of the patches in this folder applied (`git apply`)
and/or different build flags, built with its own scratch path. Then the benchmarks of
bench/bench.py run on all variants at once, interleaved, next to the C floor and Python.

    python3 bench/experiments/run.py            build every variant and measure
    python3 bench/experiments/run.py --quick    tiny counts (checks the variants still answer right)

Writes bench/out/experiments.json and bench/out/experiments.md.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import bench  # noqa: E402

STATIC_STDLIB = ["--static-swift-stdlib"]
STATIC_EXE = ["--static-swift-stdlib", "-Xswiftc", "-static-executable"]
PATCHES = {
    "0002": "0002-direct-result-encoder.patch",
    "0003": "0003-decode-params-from-parsed-value.patch",
    "0004": "0004-frame-decoder-hands-over-large-body.patch",
    "0005": "0005-no-dispatch-sources-at-start-up.patch",
    "0006": "0006-scan-strings-eight-bytes-at-a-time.patch",  # applies after 0002
}
ALL = ["0002", "0003", "0004", "0005", "0006"]
# name: (patches, build flags, what it shows)
VARIANTS = {
    "current": ([], STATIC_STDLIB, "Sources/ as committed, built as bench/run.sh builds it"),
    "static-exe": ([], STATIC_EXE, "same sources, fully static executable (no dynamic loader)"),
    "0002": (["0002"], STATIC_STDLIB, "direct result encoder instead of JSONEncoder"),
    "0003": (["0003"], STATIC_STDLIB, "params decoded from the parsed JSONValue"),
    "0004": (["0004"], STATIC_STDLIB, "frame decoder hands a large body over without a copy"),
    "0005": (["0005"], STATIC_STDLIB, "signals, parent watch and timeouts on the read loop's poll(), no Dispatch sources"),
    "0002+0006": (["0002", "0006"], STATIC_STDLIB, "0002, and strings scanned eight bytes at a time in the parser and writers"),
    "all": (ALL, STATIC_STDLIB, "0002 to 0006"),
    "all+static-exe": (ALL, STATIC_EXE, "0002 to 0006, fully static executable"),
}


def build_variant(name: str, patches: list[str], flags: list[str], out: str) -> tuple[str, str]:
    folder = os.path.join(out, name)
    src = os.path.join(folder, "src")
    if os.path.exists(src):
        shutil.rmtree(src)
    os.makedirs(src)
    shutil.copy(os.path.join(ROOT, "Package.swift"), src)
    for tree in ("Sources", "Tests"):  # Package.swift names the test targets too
        shutil.copytree(os.path.join(ROOT, tree), os.path.join(src, tree))
    # The copy gets a repository of its own: `git apply` run inside bench/out/ would otherwise
    # resolve the patch's paths against this worktree and silently skip them all.
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    subprocess.run(["git", "init", "-q"], cwd=src, check=True)
    subprocess.run(["git", "add", "-A"], cwd=src, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "copy"], cwd=src, check=True)
    for p in patches:
        subprocess.run(["git", "apply", "--verbose", os.path.join(HERE, PATCHES[p])], cwd=src, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    changed = subprocess.run(["git", "status", "--porcelain"], cwd=src, capture_output=True, text=True, check=True).stdout
    if bool(patches) != bool(changed.strip()):
        raise bench.BenchError("variant %s: patches %s changed %r" % (name, patches, changed))
    argv = ["swift", "build", "-c", "release"] + flags + ["--scratch-path", os.path.join(folder, "build"),
                                                            "--product", "wallet-bridge-conformance-host"]
    bench.log("build %s: %s" % (name, bench.cmdline(argv)))
    subprocess.run(argv, cwd=src, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    bin_path = subprocess.run(argv[:-2] + ["--show-bin-path"], cwd=src, capture_output=True, text=True,
                              check=True).stdout.strip()
    return os.path.join(bin_path, "wallet-bridge-conformance-host"), "cd %s && git apply %s && %s" % (
        bench.rel(src), " ".join("bench/experiments/" + PATCHES[p] for p in patches) or "(no patch)", bench.cmdline(argv))


def render(results: dict) -> str:
    variants = results["variants"]
    names = list(variants)
    meta = results["meta"]
    m = meta["machine"]
    lines = [
        f"Run: `python3 bench/experiments/run.py{' --quick' if meta['quick'] else ''}` at commit `{m['git_commit']}`, "
        f"{meta['started']} to {meta.get('finished', '?')}; machine: `nproc` = {m['nproc']}, `{m['cpu_model']}`, "
        f"kernel `{m['kernel']}`. Same benchmarks and counts as bench/run.sh unless stated; all variants interleaved "
        "in one run with the C floor and Python.", ""]
    cold = results.get("cold", {}).get("hosts", {})
    rtt = results.get("rtt", {}).get("hosts", {})
    tput = results.get("throughput", {}).get("hosts", {})
    sign = results.get("signing", {}).get("hosts", {})
    large = results.get("large", {}).get("hosts", {})
    limit = results.get("large", {}).get("reply_limit", {})
    c_cold = cold["c"]["exit"]["median"] if "c" in cold else None
    c_rtt = rtt["c"]["rtt"]["median"] if "c" in rtt else None
    py_tput = tput["python"]["256"]["requests_per_s"] if "python" in tput else None
    header = ["variant", "cold median ms (÷ C)", "cold p99 ms", "round trip p50 µs (÷ C)", "req/s at 256 (÷ Python)",
              "CPU µs/req", "signing, % of raw", "60 MiB: ms", "60 MiB: peak RSS ÷ frame", "1 MiB echo: ms"]
    rows = []
    for ref in ("c", "python"):
        row = [f"*{ref}*"]
        row.append(f"{bench_fmt(cold[ref]['exit']['median'])} ({cold[ref]['exit']['median'] / c_cold:.2f}×)" if ref in cold else "–")
        row.append(bench_fmt(cold[ref]["exit"]["p99"]) if ref in cold else "–")
        row.append(f"{bench_fmt(rtt[ref]['rtt']['median'])} ({rtt[ref]['rtt']['median'] / c_rtt:.2f}×)" if ref in rtt else "–")
        row.append(f"{tput[ref]['256']['requests_per_s']:,.0f} ({tput[ref]['256']['requests_per_s'] / py_tput:.2f}×)" if ref in tput else "–")
        row.append(bench_fmt(tput[ref]["256"]["host_cpu_us_per_request"]) if ref in tput else "–")
        row.append("–")
        row.append(bench_fmt(large[ref]["time"]["median"]) if ref in large else "–")
        row.append(f"{large[ref]['rss_over_frame']:.2f}×" if ref in large else "–")
        row.append(bench_fmt(limit["echo-under"]["hosts"][ref]["rtt"]["median"]) if ref in limit.get("echo-under", {}).get("hosts", {}) else "–")
        rows.append(row)
    for n in names:
        row = [f"**{n}**"]
        row.append(f"{bench_fmt(cold[n]['exit']['median'])} ({cold[n]['exit']['median'] / c_cold:.2f}×)" if n in cold else "–")
        row.append(bench_fmt(cold[n]["exit"]["p99"]) if n in cold else "–")
        row.append(f"{bench_fmt(rtt[n]['rtt']['median'])} ({rtt[n]['rtt']['median'] / c_rtt:.2f}×)" if n in rtt else "–")
        row.append(f"{tput[n]['256']['requests_per_s']:,.0f} ({tput[n]['256']['requests_per_s'] / py_tput:.2f}×)" if n in tput else "–")
        row.append(bench_fmt(tput[n]["256"]["host_cpu_us_per_request"]) if n in tput else "–")
        row.append(f"{sign[n]['ratio']:.0%}" if n in sign else "–")
        row.append(bench_fmt(large[n]["time"]["median"]) if n in large else "–")
        row.append(f"{large[n]['rss_over_frame']:.2f}×" if n in large else "–")
        row.append(bench_fmt(limit["echo-under"]["hosts"][n]["rtt"]["median"]) if n in limit.get("echo-under", {}).get("hosts", {}) else "–")
        rows.append(row)
    lines += ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += ["", "Variants:", ""]
    for n, v in variants.items():
        lines.append(f"- **{n}**: {v['what']}. Built with `{v['build']}`.")
    lines.append("")
    return "\n".join(lines)


def bench_fmt(x: float) -> str:
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma list of variants to include")
    parser.add_argument("--skip-build", action="store_true", help="reuse variant builds already in bench/out/experiments")
    parser.add_argument("--only", default="cold,rtt,throughput,signing,large")
    parser.add_argument("--publish", action="store_true", help="put the table into BENCHMARKS.md and bench/results/")
    parser.add_argument("--publish-only", action="store_true", help="publish bench/out/experiments.md as it is")
    args, rest = parser.parse_known_args()
    if args.publish_only:
        with open(os.path.join(ROOT, "bench", "out", "experiments.md")) as f:
            publish(f.read().rstrip("\n"))
        return 0
    out = os.path.join(ROOT, "bench", "out", "experiments")
    os.makedirs(out, exist_ok=True)
    chosen = [v for v in args.variants.split(",") if v]
    built = {}
    for name in chosen:
        patches, flags, what = VARIANTS[name]
        if args.skip_build:
            folder = os.path.join(out, name, "src")
            path = subprocess.run(["swift", "build", "-c", "release"] + flags + ["--scratch-path", os.path.join(out, name, "build"),
                                   "--show-bin-path"], cwd=folder, capture_output=True, text=True, check=True).stdout.strip()
            built[name] = (os.path.join(path, "wallet-bridge-conformance-host"), "(reused build)", what)
        else:
            path, command = build_variant(name, patches, flags, out)
            built[name] = (path, command, what)

    # Fewer pipelined requests and only the 256-in-flight window: ten hosts share the run.
    defaults = ["--windows", "256", "--pipe-n", "100000", "--rtt-rounds", "3", "--rtt-n", "3000"]
    bench_args = bench.parse_args(["--skip-build", "--out", os.path.join(ROOT, "bench", "out", "experiments-run")]
                                  + (["--quick"] if args.quick else []) + defaults + rest)
    b = bench.Bench(bench_args)
    b.setup()
    for name, (path, _, what) in built.items():
        b.hosts[name] = {"label": name, "argv": [path], "version": "", "command": bench.cmdline([path])}
    b.peers = ["c", "python"] + list(built)
    b.cold_hosts = ["c", "python"] + list(built)
    b.signers = list(built)
    for name in built:
        b.check_get_accounts(name)
    steps = {"cold": b.cold, "rtt": b.rtt, "throughput": b.throughput, "signing": b.signing, "large": b.large}
    for step in args.only.split(","):
        steps[step]()
    results = b.results
    results["meta"]["finished"] = bench.now_iso()
    results["variants"] = {n: {"build": c, "what": w} for n, (_, c, w) in built.items()}
    with open(os.path.join(ROOT, "bench", "out", "experiments.json"), "w") as f:
        json.dump(results, f, indent=1)
    md = render(results)
    with open(os.path.join(ROOT, "bench", "out", "experiments.md"), "w") as f:
        f.write(md + "\n")
    print(md)
    if args.publish and not args.quick:
        publish(md)
    return 0


def publish(md: str) -> None:
    """Copies the table to bench/results/ and into BENCHMARKS.md between its markers."""
    begin, end = "<!-- experiments:begin (generated by bench/experiments/run.py) -->", "<!-- experiments:end -->"
    dest = os.path.join(ROOT, "bench", "results")
    os.makedirs(dest, exist_ok=True)
    import report  # bench/report.py
    with open(os.path.join(ROOT, "bench", "out", "experiments.json")) as f:
        results = json.load(f)
    with open(os.path.join(dest, "experiments.json"), "w") as f:
        json.dump(report.without_samples(results), f, indent=1)
    with open(os.path.join(dest, "experiments.md"), "w") as f:
        f.write(md + "\n")
    doc = os.path.join(ROOT, "BENCHMARKS.md")
    with open(doc) as f:
        content = f.read()
    if begin in content and end in content:
        head, rest_ = content.split(begin, 1)
        _, tail = rest_.split(end, 1)
        with open(doc, "w") as f:
            f.write(head + begin + "\n\n" + md + "\n" + end + tail)
        bench.log("updated BENCHMARKS.md and bench/results/experiments.*")


if __name__ == "__main__":
    sys.exit(main())
