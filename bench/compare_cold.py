#!/usr/bin/env python3
"""Two builds of the shipped binary side by side: cold GetAccounts calls (start, one request, one
reply, end of input), interleaved in alternating order so that a noisy machine slows both alike.

    python3 bench/compare_cold.py BEFORE_BINARY AFTER_BINARY [ROUNDS]

Each binary runs with an empty scratch HOME (no keystore, no configuration). Prints the median
and quartiles of each and the ratio of the medians. A build with the agent (docs/agent.md) hands
GetAccounts to it: the agent runs in the scratch runtime folder, is started by one untimed call
per binary, and is stopped (`wallet-bridge agent stop`) at the end, failed or not. For judging one change to start-up, e.g.
a release build of main against one of the commit before it (git worktree add).
"""
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

ORIGIN = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"


def cold_call(binary, env, frame):
    started = time.perf_counter()
    process = subprocess.Popen([binary, ORIGIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    process.stdin.write(frame)
    process.stdin.flush()
    (length,) = struct.unpack("=I", process.stdout.read(4))
    reply = process.stdout.read(length)
    elapsed = time.perf_counter() - started
    process.stdin.close()
    process.wait()
    if json.loads(reply) != {"jsonrpc": "2.0", "id": 1, "result": {"addresses": []}}:
        sys.exit(f"{binary}: unexpected reply {reply!r}")
    return elapsed


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    binaries = {"before": sys.argv[1], "after": sys.argv[2]}
    rounds = int(sys.argv[3]) if len(sys.argv) == 4 else 400
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "NATIVE_GET_ACCOUNTS_METHOD"}).encode()
    frame = struct.pack("=I", len(body)) + body
    with tempfile.TemporaryDirectory() as home:
        # The agent's socket and log stay in the scratch folder (XDG_RUNTIME_DIR must be 0700).
        runtime, state = os.path.join(home, "run"), os.path.join(home, "state")
        os.mkdir(runtime, 0o700)
        os.mkdir(state, 0o700)
        env = {"HOME": home, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": state}
        times = {name: [] for name in binaries}
        try:
            for binary in binaries.values():
                cold_call(binary, env, frame)  # starts the agent, if the build has one
            for round_number in range(rounds):
                order = list(binaries.items())
                for name, binary in order if round_number % 2 == 0 else reversed(order):
                    times[name].append(cold_call(binary, env, frame))
        finally:
            for binary in binaries.values():  # a build without the agent just fails here
                subprocess.run([binary, "agent", "stop"], env=env, capture_output=True, timeout=30)
    for name, samples in times.items():
        quartiles = statistics.quantiles(samples, n=4)
        print(f"{name}: median {statistics.median(samples) * 1e3:.3f} ms, "
              f"quartiles {quartiles[0] * 1e3:.3f} to {quartiles[2] * 1e3:.3f} ms ({rounds} calls)")
    print(f"after / before (medians): {statistics.median(times['after']) / statistics.median(times['before']):.3f}")


if __name__ == "__main__":
    main()
