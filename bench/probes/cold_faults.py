#!/usr/bin/env python3
"""Cold GetAccounts calls of several host binaries, interleaved, with what each call cost the
kernel: the median spawn-to-exit time, the mean user and system CPU, and the median count of
page faults (getrusage of the child). For telling whether a change to start-up moved page
faults or instructions, e.g. a stale link order (BENCHMARKS.md, sixth round).

    python3 bench/probes/cold_faults.py ROUNDS HOST [HOST ...]

Each HOST is started with no arguments (an unidentified caller, as bench/bench.py starts its
hosts) and the environment of this script: set WALLET_BRIDGE_KEYSTORE, WALLET_BRIDGE_CONFIG,
XDG_RUNTIME_DIR and XDG_STATE_HOME as bench/run.sh leaves them in bench/out/ to time the shipped
binary on the benchmark's keystore. The first HOST is the yardstick of the ratios.
"""
import json
import os
import statistics
import sys
import time

BODY = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "NATIVE_GET_ACCOUNTS_METHOD"}).encode()
FRAME = len(BODY).to_bytes(4, sys.byteorder) + BODY


def cold_call(host):
    """Spawn, one frame in, the reply out, end of input, exit: (seconds, rusage)."""
    to_host, host_stdin = os.pipe()
    host_stdout, from_host = os.pipe()
    started = time.perf_counter()
    pid = os.posix_spawn(host, [host], os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, to_host, 0), (os.POSIX_SPAWN_DUP2, from_host, 1),
        (os.POSIX_SPAWN_CLOSE, host_stdin), (os.POSIX_SPAWN_CLOSE, host_stdout)])
    os.close(to_host)
    os.close(from_host)
    os.write(host_stdin, FRAME)
    reply = b""
    while len(reply) < 4 or len(reply) < 4 + int.from_bytes(reply[:4], sys.byteorder):
        chunk = os.read(host_stdout, 65536)
        if not chunk:
            break
        reply += chunk
    os.close(host_stdin)
    _, status, usage = os.wait4(pid, 0)
    elapsed = time.perf_counter() - started
    os.close(host_stdout)
    if status != 0 or b'"addresses"' not in reply:
        sys.exit(f"{host}: exit status {status}, reply {reply[:200]!r}")
    return elapsed, usage


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds, hosts = int(sys.argv[1]), sys.argv[2:]
    samples = {host: [] for host in hosts}
    for round_number in range(rounds):
        for host in hosts if round_number % 2 == 0 else reversed(hosts):
            samples[host].append(cold_call(host))
    yardstick = None
    for host in hosts:
        median = statistics.median(elapsed for elapsed, _ in samples[host]) * 1e3
        yardstick = yardstick or median
        user = statistics.mean(usage.ru_utime for _, usage in samples[host]) * 1e3
        system = statistics.mean(usage.ru_stime for _, usage in samples[host]) * 1e3
        faults = statistics.median(usage.ru_minflt for _, usage in samples[host])
        print(f"{median:.3f} ms ({median / yardstick:.2f}x)  user {user:.3f} ms  system {system:.3f} ms  "
              f"page faults {faults:.0f}  {host}")


if __name__ == "__main__":
    main()
