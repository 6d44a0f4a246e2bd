#!/usr/bin/env python3
"""Cold GetAccounts calls of several host binaries, interleaved, with what each call cost the
kernel: the median spawn-to-exit time, the mean user and system CPU, and the median count of
page faults (getrusage of the child). For telling whether a change to start-up moved page
faults or instructions, e.g. a stale link order, or two builds of the shipped binary side by side.

    python3 bench/cold_faults.py ROUNDS HOST [HOST ...]

Each HOST is a binary, optionally followed by `?VAR=VALUE&VAR=VALUE` for variables of its own
(say `bench/out/bin/wallet-bridge?WALLET_BRIDGE_CONFIG=bench/out/config/direct.json`). It is
started with no arguments (an unidentified caller, as bench/bench.py starts its hosts) and the
environment of this script plus its own: set WALLET_BRIDGE_KEYSTORE, WALLET_BRIDGE_CONFIG,
XDG_RUNTIME_DIR and XDG_STATE_HOME as bench/run.sh leaves them in bench/out/ to time the shipped
binary on the benchmark's keystore. The first HOST is the yardstick of the ratios.

Every binary is copied into a fresh folder first, so that each is a file this run wrote (a copy
made minutes earlier can start slower: BENCHMARKS.md, sixth round), and the first
call waits 3 s (hosts up to the tenth round kept answers only from files, their executable
included, that last changed 2 s or more before; docs/agent.md, "Why no answer is kept between
hosts").
"""
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

BODY = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "NATIVE_GET_ACCOUNTS_METHOD"}).encode()
FRAME = len(BODY).to_bytes(4, sys.byteorder) + BODY


def cold_call(host, environment=None):
    """Spawn, one frame in, the reply out, end of input, exit: (seconds, rusage)."""
    to_host, host_stdin = os.pipe()
    host_stdout, from_host = os.pipe()
    started = time.perf_counter()
    pid = os.posix_spawn(host, [host], environment or os.environ, file_actions=[
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
    rounds, arguments = int(sys.argv[1]), sys.argv[2:]
    folder = tempfile.mkdtemp(prefix="cold-faults-")
    hosts = []  # (the name as given, the fresh copy, its environment)
    for index, argument in enumerate(arguments):
        binary, _, own = argument.partition("?")
        copy = os.path.join(folder, f"{index}-{os.path.basename(binary)}")
        shutil.copy2(binary, copy)
        environment = dict(os.environ)
        environment.update(pair.split("=", 1) for pair in own.split("&") if pair)
        hosts.append((argument, copy, environment))
    time.sleep(3)
    samples = {name: [] for name, _, _ in hosts}
    try:
        for round_number in range(rounds):
            for name, copy, environment in hosts if round_number % 2 == 0 else reversed(hosts):
                samples[name].append(cold_call(copy, environment))
    finally:
        shutil.rmtree(folder)
    yardstick = None
    for name, _, _ in hosts:
        median = statistics.median(elapsed for elapsed, _ in samples[name]) * 1e3
        yardstick = yardstick or median
        user = statistics.mean(usage.ru_utime for _, usage in samples[name]) * 1e3
        system = statistics.mean(usage.ru_stime for _, usage in samples[name]) * 1e3
        faults = statistics.median(usage.ru_minflt for _, usage in samples[name])
        print(f"{median:.3f} ms ({median / yardstick:.2f}x)  user {user:.3f} ms  system {system:.3f} ms  "
              f"page faults {faults:.0f}  {name}")


if __name__ == "__main__":
    main()
