#!/usr/bin/env python3
"""Probe: what one cold connection costs a running agent, as a host's cold GetAccounts uses it
(connect, agent.hello and agent.accountsIfConnected in one write, both answers read, close), N
times in a row. The probe's caller has no session, so the agent reads the keystore and answers
"consent needed" (-32010), as it answers a host whose extension is not connected yet.
Prints the wall time per connection and the agent's own CPU per connection (user + system,
from /proc, in clock ticks). Not a benchmark: bench/run.sh measures the host users run; this
isolates the agent's side, to compare two agent builds run one after the other.

    bench/probes/agent_connections.py SOCKET KEYSTORE N
(`wallet-bridge agent status --json` gives SOCKET and KEYSTORE.)
"""
import json
import os
import socket
import struct
import sys
import time


def frame(message):
    body = json.dumps(message).encode()
    return struct.pack("=I", len(body)) + body


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise SystemExit("the agent closed the connection early")
        data += chunk
    return data


def read_frame(connection):
    (length,) = struct.unpack("=I", read_exactly(connection, 4))
    return json.loads(read_exactly(connection, length))


def agent_cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    socket_path, keystore, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    hello = {"jsonrpc": "2.0", "id": 0, "method": "agent.hello", "params": {
        "version": 1, "arguments": ["/probe", "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
        "browser_pid": None, "keystore": keystore}}
    request = frame(hello) + frame({"jsonrpc": "2.0", "id": 1, "method": "agent.accountsIfConnected"})
    pid = started = ticks = None
    for _ in range(count + 1):  # the first, untimed, finds the agent's pid
        connection = socket.socket(socket.AF_UNIX)
        connection.connect(socket_path)
        connection.sendall(request)
        greeting, answer = read_frame(connection), read_frame(connection)
        connection.close()
        if "result" not in answer and answer.get("error", {}).get("code") != -32010:
            raise SystemExit(f"agent.accountsIfConnected failed: {answer}")
        if pid is None:
            pid = greeting["result"]["pid"]
            ticks, started = agent_cpu_ticks(pid), time.monotonic()
    elapsed = time.monotonic() - started
    cpu = (agent_cpu_ticks(pid) - ticks) / os.sysconf("SC_CLK_TCK")
    print(f"{count} connections: wall {elapsed / count * 1e6:.0f} µs each, agent CPU {cpu / count * 1e6:.0f} µs each")


if __name__ == "__main__":
    main()
