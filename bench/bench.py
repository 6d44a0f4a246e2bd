#!/usr/bin/env python3
"""Side-by-side benchmarks of wallet-bridge against reference native-messaging hosts.

Runs every benchmark on every host in one run, interleaving the hosts round by round so that
a noisy machine slows all of them alike, and checks every reply byte for byte. The timed loops
run in bench/tools/nmclient.c (nanosecond clock, posix_spawn, raw pipes); this script decides
what to run, checks correctness, and writes bench/out/results.json. bench/report.py turns that
into markdown and a plot. Stdlib only.

    bench/run.sh            the full run (what BENCHMARKS.md is written from)
    bench/run.sh --quick    every benchmark end to end with tiny counts; asserts correctness,
                            never timings (for CI)
"""
from __future__ import annotations

import argparse
import base64
import datetime
import hashlib
import json
import math
import os
import platform
import random
import shlex
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import threading
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
MAX_OUTBOUND = 1_048_576  # browsers drop the port above this (docs/NATIVE-MESSAGING.md)
MiB = 1_048_576


class BenchError(Exception):
    pass


def rel(path: str) -> str:
    """A path as the reader types it from the repository root."""
    return os.path.relpath(path, ROOT) if os.path.isabs(path) and path.startswith(ROOT) else path


def cmdline(argv: list[str]) -> str:
    return " ".join(shlex.quote(rel(a)) for a in argv)


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=ROOT, check=True, **kwargs)


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile: the smallest sample with at least q% of samples at or below."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58encode(data: bytes) -> str:
    number, text = int.from_bytes(data, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        text = B58[digit] + text
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + text


def b58decode(text: str) -> bytes:
    number = 0
    for char in text:
        number = number * 58 + B58.index(char)
    body = number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b""
    return b"\0" * (len(text) - len(text.lstrip("1"))) + body


def summarize(samples: list[float]) -> dict:
    return {
        "n": len(samples),
        "median": statistics.median(samples),
        "p99": percentile(samples, 99),
        "min": min(samples),
        "max": max(samples),
        "mean": statistics.fmean(samples),
    }


# ---------------------------------------------------------------------------------------------
# Machine and build


def machine_info() -> dict:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass

    def out(argv: list[str]) -> str:
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return "unavailable"

    mem_kib = 0
    try:
        with open("/proc/meminfo") as f:
            mem_kib = int(f.readline().split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return {
        "nproc": os.cpu_count(),
        "nproc_available": len(os.sched_getaffinity(0)),
        "cpu_model": cpu,
        "kernel": platform.release(),
        "os": out(["sh", "-c", ". /etc/os-release && echo $PRETTY_NAME"]),
        "memory_gib": round(mem_kib / 1024 / 1024, 1),
        "swift": out(["swift", "--version"]).splitlines()[0] if shutil.which("swift") else "unavailable",
        "cc": out(["cc", "--version"]).splitlines()[0] if shutil.which("cc") else "unavailable",
        "libsodium": out(["pkg-config", "--modversion", "libsodium"]),
        "git_commit": out(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]),
        "git_dirty": bool(out(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"])),
    }


def loadavg() -> list[float]:
    return list(os.getloadavg())


def build(out: str, skip_swift: bool) -> dict:
    """Builds what the run needs into `out` (ignored by git). Returns the paths."""
    bin_dir = os.path.join(out, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    scratch = os.path.join(out, "swift")
    commands = []
    built = {}
    for product in ("wallet-bridge-conformance-host", "wallet-bridge"):
        # The shipped build (scripts/build-release.sh, as scripts/setup.sh installs it); it
        # prints the binary's path. With --skip-build, only the path.
        argv = [os.path.join(ROOT, "scripts", "build-release.sh"), "--scratch-path", scratch, "--product", product]
        if skip_swift:
            argv.append("--path-only")
        else:
            log("build: " + cmdline(argv))
            commands.append(cmdline(argv))
        built[product] = run(argv, capture_output=True, text=True).stdout.strip()
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("clang") or "cc"  # the Swift toolchain has clang
    tool_builds = [
        ([cc, "-O2", "-o", os.path.join(bin_dir, "nmclient"), os.path.join(BENCH, "tools", "nmclient.c")]),
        ([cc, "-O2", "-o", os.path.join(bin_dir, "c_host"), os.path.join(BENCH, "hosts", "c_host.c")]),
        ([cc, "-O2", "-o", os.path.join(bin_dir, "rawsign"), os.path.join(BENCH, "tools", "rawsign.c"), "-lsodium"]),
        ([cc, "-O2", "-o", os.path.join(bin_dir, "sshagent_sign"), os.path.join(BENCH, "tools", "sshagent_sign.c")]),
    ]
    # The bare Swift host, static like the shipped binary: Swift's own start-up, the yardstick
    # for the shipped binary's cold call.
    tool_builds.append(["swiftc", "-O", "-static-executable", "-module-cache-path", os.path.join(out, "module-cache"),
                     "-o", os.path.join(bin_dir, "bare_swift_host"), os.path.join(BENCH, "hosts", "bare_swift_host.swift")])
    for argv in tool_builds:
        log("build: " + cmdline(argv))
        run(argv)
        commands.append(cmdline(argv))
    # Every host binary is a file this run wrote: the two Swift products are copied beside the
    # others. How a binary sits in the page cache changes its cold start (the same bytes took 10
    # page faults and 0.17 ms more per call from a copy made minutes before than from one just
    # made, BENCHMARKS.md, sixth round), and the C and bare hosts are compiled anew on every run
    # while SwiftPM relinks only what changed.
    for product in list(built):
        fresh = os.path.join(bin_dir, product)
        if os.path.exists(fresh):
            os.unlink(fresh)  # a new file, not new bytes in the old one's pages
        shutil.copy2(built[product], fresh)
        built[product] = fresh
    return {
        "conformance_host": built["wallet-bridge-conformance-host"],
        "shipped_host": built["wallet-bridge"],
        "nmclient": os.path.join(bin_dir, "nmclient"),
        "c_host": os.path.join(bin_dir, "c_host"),
        "bare_swift_host": os.path.join(bin_dir, "bare_swift_host"),
        "rawsign": os.path.join(bin_dir, "rawsign"),
        "sshagent_sign": os.path.join(bin_dir, "sshagent_sign"),
        "commands": commands,
    }


def real_python() -> str:
    """The interpreter a browser's `#!/usr/bin/env python3` finds on Debian, not a pyenv shim."""
    if os.access("/usr/bin/python3", os.X_OK):
        return os.path.realpath("/usr/bin/python3")
    found = subprocess.run(["python3", "-c", "import sys; print(sys.executable)"], capture_output=True, text=True)
    return os.path.realpath(found.stdout.strip() or sys.executable)


def version_of(argv: list[str]) -> str:
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        return (r.stdout or r.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


# ---------------------------------------------------------------------------------------------
# Requests and the replies they must get, byte for byte


class Wire:
    """The benchmark's requests and their exact expected replies.

    GetAccounts' reply comes from the shared fixture (Tests/Fixtures/wallet.json), the wire
    contract; the other replies are built the way the README specifies them.
    """

    def __init__(self) -> None:
        with open(os.path.join(ROOT, "Tests", "Fixtures", "wallet.json")) as f:
            cases = {c["name"]: c for c in json.load(f)["cases"]}
        case = cases["get-accounts"]
        self.addresses = case["response"]["result"]["addresses"]
        self.get_accounts_request = self._templated(case["request"])
        self.get_accounts_reply = self._templated(case["response"])

    @staticmethod
    def compact(value) -> str:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)

    def _templated(self, message: dict) -> str:
        """Compact JSON with the id replaced by the @ID@ placeholder nmclient fills in."""
        copy = dict(message)
        copy["id"] = "@ID@"
        return self.compact(copy).replace('"@ID@"', "@ID@")

    @staticmethod
    def request(method: str, params=None, request_id="@ID@") -> str:
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        return Wire.compact(message).replace('"@ID@"', "@ID@")

    @staticmethod
    def result(result_json: str, request_id="@ID@") -> str:
        return '{"jsonrpc":"2.0","id":%s,"result":%s}' % (request_id, result_json)

    @staticmethod
    def error(code: int, data, message: str, request_id="@ID@") -> str:
        return '{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"data":%s,"message":%s}}' % (
            request_id, code, Wire.compact(data), Wire.compact(message))

    def method_not_found(self, method: str, request_id="@ID@") -> str:
        return self.error(-32601, {"problem": 'no method named "%s"' % method}, "Method not found", request_id)

    def measure(self, body_bytes: int) -> tuple[str, str, int]:
        """test.measure whose frame body is body_bytes with id 1 (a few bytes more for longer
        ids): (template, reply, fill)."""
        template = self.request("test.measure", {"data": "@FILL@"})
        fill = body_bytes - (len(template.encode()) - len("@FILL@") - len("@ID@") + len("1"))
        return template, self.result('{"bytes":%d}' % fill), fill

    def echo(self, n: int) -> tuple[str, str]:
        """test.echo of ["x" * n] with id 1: the reply body is n + 38 bytes, or -32000 above 1 MiB.
        Unlike test.large, whose time is mostly the test method building its string, this
        exercises the host core both ways (params decoding, result encoding)."""
        request = self.request("test.echo", ["x" * n], request_id=1)
        reply = self.result('["%s"]' % ("x" * n), request_id=1)
        if len(reply) > MAX_OUTBOUND:
            reply = self.error(-32000, {"bytes": len(reply), "limit": MAX_OUTBOUND}, "Response too large", 1)
        return request, reply

    def large(self, n: int) -> tuple[str, str]:
        """test.large with id 1: the reply body is n + 36 bytes, or a -32000 error above 1 MiB."""
        request = self.request("test.large", {"bytes": n}, request_id=1)
        reply = self.result('"%s"' % ("x" * n), request_id=1)
        if len(reply) > MAX_OUTBOUND:
            reply = self.error(-32000, {"bytes": len(reply), "limit": MAX_OUTBOUND}, "Response too large", 1)
        return request, reply


def frame(body: bytes) -> bytes:
    return struct.pack("=I", len(body)) + body


def exchange(argv: list[str], bodies: list[bytes], timeout: float = 60, env=None,
             sequential: bool = True) -> tuple[list[bytes], int, bytes]:
    """Starts a host, sends frames, reads one reply per frame, closes stdin, waits for the exit.

    For correctness checks (not timed). Sequential: each reply is read before the next request
    goes out, so replies line up with requests even from a host that answers concurrently.
    Otherwise all frames are written at once (on a thread, so a host that answers while the
    next frame is still going in cannot deadlock us) and replies come in the host's order.
    """
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    sent = threading.Semaphore(0)
    answered = threading.Semaphore(0)

    def feed() -> None:
        try:
            for body in bodies:
                proc.stdin.write(frame(body))
                proc.stdin.flush()
                sent.release()
                if sequential:
                    answered.acquire()
        except OSError:  # a host that died shows up as a short read below
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    replies = []
    try:
        for _ in bodies:
            header = proc.stdout.read(4)
            if len(header) < 4:
                break
            (length,) = struct.unpack("=I", header)
            replies.append(proc.stdout.read(length))
            answered.release()
        writer.join()
        try:
            proc.stdin.close()
        except BrokenPipeError:
            pass
        rest = proc.stdout.read()
        stderr = proc.stderr.read()
        code = proc.wait()
    finally:
        timer.cancel()
    if rest:
        raise BenchError("%s wrote %d unexpected bytes after its replies" % (cmdline(argv), len(rest)))
    return replies, code, stderr


# ---------------------------------------------------------------------------------------------
# The agent of the shipped binary, kept inside the run


class AgentSandbox:
    """Where the shipped binary's agent lives during a run, and the end of it.

    The shipped `wallet-bridge` hands GetAccounts and SignPayloads to a per-user agent
    (docs/agent.md), starting `wallet-bridge agent` detached on first need; the agent outlives
    the host. So every shipped-host run gets a runtime folder of the run's own
    (XDG_RUNTIME_DIR=<out>/run, made fresh, 0700: the socket is there), a state folder (the
    agent's log and the audit log, not the user's ~/.local/state), and a configuration file:
    {"agent": true} (the default, spelt out) or {"agent": false} (the host reads the keystore
    itself, as before the agent). `stop()` ends the agent at the end of the run, on failure too.
    """

    SUN_PATH_MAX = 107  # sockaddr_un.sun_path is 108 bytes with its NUL

    def __init__(self, out: str, binary: str, keystore: str, passphrase_file: str | None = None) -> None:
        self.binary = binary
        self.keystore = keystore
        self.passphrase_file = passphrase_file
        self.runtime = os.path.join(out, "run")
        self.state = os.path.join(out, "state")
        self.config_folder = os.path.join(out, "config")
        # The agent of a keystore other than the default one: agent-<FNV-1a 64 of its path>.sock
        # (AgentPaths.forKeystore).
        digest = 0xcbf29ce484222325
        for byte in keystore.encode():
            digest = ((digest ^ byte) * 0x100000001b3) % (1 << 64)
        name = "agent-%016x" % digest
        self.socket = os.path.join(self.runtime, "wallet-bridge", name + ".sock")
        self.configs = {"agent": os.path.join(self.config_folder, "agent.json"),
                        "direct": os.path.join(self.config_folder, "direct.json")}
        self.pid = None  # the agent's, once it runs

    def prepare(self) -> None:
        """Fresh folders and the two configuration files. An agent a killed run left behind is
        stopped first (it would also end by itself within a second of its socket's removal)."""
        if len(self.socket.encode()) > self.SUN_PATH_MAX:
            raise BenchError("the agent's socket path %s is %d bytes, more than a Unix socket takes (%d): use a shorter --out"
                             % (self.socket, len(self.socket.encode()), self.SUN_PATH_MAX))
        if os.path.exists(self.socket) and os.access(self.binary, os.X_OK):
            self.stop(quiet=True)
        for folder in (self.runtime, self.state):
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder, mode=0o700)
            os.chmod(folder, 0o700)
        os.makedirs(self.config_folder, mode=0o700, exist_ok=True)
        os.chmod(self.config_folder, 0o700)  # the host ignores a config others can change
        for key, value in (("agent", True), ("direct", False)):
            with open(self.configs[key], "w") as f:
                f.write(json.dumps({"agent": value}) + "\n")
            os.chmod(self.configs[key], 0o600)

    def env(self, agent: bool, passphrase: bool = False) -> dict:
        """What a shipped host (or command) runs with, on top of the run's environment (which
        has WALLET_BRIDGE_KEYSTORE). The agent reads WALLET_BRIDGE_PASSPHRASE_FILE when it
        starts, so the hosts that may start it pass it on; the direct host reads it only when
        it signs (it warns on stderr whenever it is set, so its GetAccounts runs go without)."""
        env = {"XDG_RUNTIME_DIR": self.runtime, "XDG_STATE_HOME": self.state,
               "WALLET_BRIDGE_CONFIG": self.configs["agent" if agent else "direct"]}
        if (agent or passphrase) and self.passphrase_file:
            env["WALLET_BRIDGE_PASSPHRASE_FILE"] = self.passphrase_file
        return env

    def command(self, args: list[str], timeout: float = 30) -> subprocess.CompletedProcess:
        env = dict(os.environ, WALLET_BRIDGE_KEYSTORE=self.keystore, **self.env(agent=True))
        return subprocess.run([self.binary] + args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)

    def status(self) -> dict:
        """`agent status --json`: {"running": false, …} when none runs."""
        r = self.command(["agent", "status", "--json"])
        if r.returncode not in (0, 3):
            raise BenchError("wallet-bridge agent status failed (%d): %s" % (r.returncode, r.stderr.strip()))
        return json.loads(r.stdout)

    def up(self, get_accounts_body: bytes, expected_reply: bytes) -> int:
        """Makes sure the agent listens and the benchmark's caller is connected, and returns the
        agent's pid: the timed calls after it all find both, as every call after a browser's
        first does. The first GetAccounts connects the caller (the agent, unattended, approves);
        a connected caller's GetAccounts is then read from the agent's files without it
        (docs/agent.md), so `session_list`, which always goes to the agent, starts it."""
        env = dict(os.environ, WALLET_BRIDGE_KEYSTORE=self.keystore, **self.env(agent=True))
        session_list = b'{"jsonrpc":"2.0","id":2,"method":"session_list"}'
        replies, code, err = exchange([self.binary], [get_accounts_body, session_list], env=env)
        if replies[:1] != [expected_reply] or code != 0 or len(replies) != 2 or b'"sessions"' not in replies[1]:
            raise BenchError("GetAccounts and session_list through the agent failed: %r exit %d %s" % (replies[:2], code, err[-300:]))
        status = self.status()
        if not status.get("running"):
            raise BenchError("no agent runs after a GetAccounts through it: %r" % status)
        self.pid = status["pid"]
        return self.pid

    def lock(self) -> bool:
        r = self.command(["lock"])
        if r.returncode != 0:
            raise BenchError("wallet-bridge lock failed (%d): %s" % (r.returncode, r.stderr.strip()))
        return "wiped" in r.stdout

    def cpu_ms(self) -> float | None:
        """The agent's user+system CPU so far (clock ticks of /proc/PID/stat), or None."""
        try:
            with open("/proc/%d/stat" % self.pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
        except (OSError, TypeError, IndexError, ValueError):
            return None

    def stop(self, quiet: bool = False) -> None:
        """`wallet-bridge agent stop` with the run's environment, then waits until no agent
        answers; an agent that does not end in 5 s is killed by its pid."""
        try:
            r = self.command(["agent", "stop"])
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                status = self.status()
                if not status.get("running"):
                    break
                self.pid = status["pid"]
                time.sleep(0.05)
            else:
                log("agent: %s did not end after `agent stop`; killing it" % self.pid)
                os.kill(self.pid, 9)
            if not quiet:
                said = (r.stdout.strip() or r.stderr.strip()).splitlines()
                # `agent stop` can lose the race with the agent's exit and report an error
                # although the agent ended: what counts is that none answers any more.
                log("agent: stopped (`wallet-bridge agent stop` exited %d: %s)" % (r.returncode, said[0] if said else ""))
        except (OSError, subprocess.SubprocessError, BenchError, ValueError) as e:
            log("agent: stopping it failed: %s" % e)
            if self.pid:
                try:
                    os.kill(self.pid, 15)
                except OSError:
                    pass
        # Its pid must be gone (a zombie counts as gone: the host that started it has exited).
        if self.pid:
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and self._alive(self.pid):
                time.sleep(0.05)
            if self._alive(self.pid):
                log("agent: %d is still running" % self.pid)

    @staticmethod
    def _alive(pid: int) -> bool:
        try:
            with open("/proc/%d/stat" % pid) as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            return False


def spawn_timed(argv: list[str], env: dict, stdin: bytes, reply_then_close: bool):
    """Spawn to exit of one process, timed the same way for every program: `posix_spawn` with
    pipes, `stdin` written, then (a native-messaging host, `reply_then_close`) stdin closed once
    a whole reply frame is in, as a browser does, or (any other program) closed at once; stdout
    read to its end, the child reaped. Stderr goes to /dev/null."""
    to_child, child_stdin = os.pipe()
    child_stdout, from_child = os.pipe()
    null = os.open(os.devnull, os.O_WRONLY)
    started = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, to_child, 0), (os.POSIX_SPAWN_DUP2, from_child, 1), (os.POSIX_SPAWN_DUP2, null, 2),
        (os.POSIX_SPAWN_CLOSE, child_stdin), (os.POSIX_SPAWN_CLOSE, child_stdout)])
    os.close(to_child)
    os.close(from_child)
    os.close(null)
    os.write(child_stdin, stdin)
    if not reply_then_close:
        os.close(child_stdin)
    out = b""
    while True:
        if reply_then_close and len(out) >= 4 and len(out) >= 4 + struct.unpack("=I", out[:4])[0]:
            os.close(child_stdin)
            reply_then_close = False
        chunk = os.read(child_stdout, 65536)
        if not chunk:
            break
        out += chunk
    if reply_then_close:
        os.close(child_stdin)
    _, status, _ = os.wait4(pid, 0)
    elapsed = time.perf_counter_ns() - started
    os.close(child_stdout)
    return types.SimpleNamespace(elapsed_ns=elapsed, returncode=os.waitstatus_to_exitcode(status), stdout=out)


# ---------------------------------------------------------------------------------------------
# The run


class Bench:
    def __init__(self, args) -> None:
        self.args = args
        self.quick = args.quick
        self.out = os.path.abspath(args.out)
        self.tmp = os.path.join(self.out, "req")
        os.makedirs(self.tmp, exist_ok=True)
        self.wire = Wire()
        self.results: dict = {"checks": []}
        self.pin = args.host_cpu >= 0 and args.client_cpu >= 0

    # -- helpers --

    def write_tmp(self, name: str, text: str) -> str:
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def nmclient(self, mode: str, host: str, options: list, pinned: bool = True, timeout: float = 1800,
                 env=None) -> tuple[dict, str]:
        argv = [self.paths["nmclient"], mode] + [str(o) for o in options]
        if pinned and self.pin:
            argv += ["--host-cpu", str(self.args.host_cpu), "--client-cpu", str(self.args.client_cpu)]
        argv += ["--"] + self.hosts[host]["argv"]
        env = dict(self.hosts[host].get("env", {}), **(env or {}))
        full_env = dict(os.environ, **env)
        r = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=full_env)
        if r.returncode != 0:
            raise BenchError("%s failed (%d):\n%s" % (cmdline(argv), r.returncode, r.stderr.strip()))
        env_prefix = " ".join("%s=%s" % (k, shlex.quote(rel(v))) for k, v in env.items())
        return json.loads(r.stdout), (env_prefix + " " if env_prefix else "") + cmdline(argv)

    def check(self, name: str, host: str, ok: bool, detail: str = "") -> None:
        self.results["checks"].append({"name": name, "host": host, "ok": ok, "detail": detail})
        log("  check %-40s %-18s %s%s" % (name, host, "ok" if ok else "FAILED", (": " + detail) if detail and not ok else ""))
        if not ok:
            raise BenchError("check %s failed on %s: %s" % (name, host, detail))

    def rounds(self, full: int) -> int:
        return 1 if self.quick else full

    # -- setup --

    def setup(self) -> None:
        self.results["meta"] = {
            "command": "bench/run.sh" + (" --quick" if self.quick else ""),
            "driver_argv": [rel(a) for a in sys.argv],
            "started": now_iso(),
            "loadavg_start": loadavg(),
            "quick": self.quick,
            "machine": machine_info(),
            "pinning": ({"host_cpu": self.args.host_cpu, "client_cpu": self.args.client_cpu} if self.pin else None),
        }
        self.paths = build(os.path.abspath(self.args.build_dir), self.args.skip_build)
        self.results["meta"]["build_commands"] = self.paths["commands"]
        python = real_python()
        node = shutil.which("node")
        self.hosts = {
            "c": {"label": "C (floor)", "argv": [self.paths["c_host"]], "version": self.results["meta"]["machine"]["cc"]},
            "swift-bare": {"label": "bare Swift (static, GetAccounts only)", "argv": [self.paths["bare_swift_host"]],
                           "version": self.results["meta"]["machine"]["swift"]},
            "swift": {"label": "wallet-bridge (conformance host)", "argv": [self.paths["conformance_host"]],
                      "version": self.results["meta"]["machine"]["swift"]},
            "swift-shipped": {"label": "wallet-bridge (shipped binary, its agent running, the caller connected)",
                              "argv": [self.paths["shipped_host"]], "version": self.results["meta"]["machine"]["swift"]},
            "swift-shipped-direct": {"label": "wallet-bridge (shipped binary, {\"agent\": false}: reads the keystore itself)",
                                     "argv": [self.paths["shipped_host"]], "version": self.results["meta"]["machine"]["swift"]},
            "python": {"label": "Python (MDN style)", "argv": [python, os.path.join(BENCH, "hosts", "python_host.py")],
                       "version": version_of([python, "--version"])},
        }
        if node:
            self.hosts["node"] = {"label": "Node", "argv": [os.path.realpath(node), os.path.join(BENCH, "hosts", "node_host.js")],
                                  "version": version_of([node, "--version"])}
        else:
            log("warning: node not found; the Node host is left out")
        self.give_shipped_host_the_test_keys(os.path.abspath(self.args.build_dir))
        # The shipped binary's agent runs in the run's own runtime folder, and ends with the run.
        self.agent = AgentSandbox(self.out, self.paths["shipped_host"], os.environ["WALLET_BRIDGE_KEYSTORE"],
                                  self.passphrase_file)
        self.agent.prepare()
        self.hosts["swift-shipped"]["env"] = self.agent.env(agent=True)
        self.hosts["swift-shipped-direct"]["env"] = self.agent.env(agent=False)
        for h in self.hosts.values():
            h["command"] = " ".join(["%s=%s" % (k, shlex.quote(rel(v))) for k, v in h.get("env", {}).items()]
                                    + [cmdline(h["argv"])])
        self.results["hosts"] = self.hosts
        self.results["meta"]["agent"] = {"runtime_dir": rel(self.agent.runtime), "socket": rel(self.agent.socket),
                                         "state_dir": rel(self.agent.state)}
        # The hosts that answer every benchmark request. The shipped binary takes part in the cold
        # call, the cost a browser pays per sendNativeMessage, reading its real keystore.
        self.peers = [h for h in ("c", "swift", "python", "node") if h in self.hosts]
        self.cold_hosts = [h for h in ("c", "swift-bare", "swift", "swift-shipped", "swift-shipped-direct", "python", "node")
                           if h in self.hosts]
        # GetAccounts on a persistent port: the peers, and the shipped binary reading its real
        # keystore (what a `connectNative` port to an installed wallet-bridge does).
        self.port_hosts = [h for h in ("c", "swift", "swift-shipped", "swift-shipped-direct", "python", "node")
                           if h in self.hosts]
        self.signers = ["swift"]
        self.ga_req = self.write_tmp("get-accounts.req", self.wire.get_accounts_request)
        self.ga_exp = self.write_tmp("get-accounts.expect", self.wire.get_accounts_reply)

    def expected_get_accounts(self, host: str) -> str:
        return self.ga_exp

    def give_shipped_host_the_test_keys(self, out: str) -> None:
        """A scratch keystore holding the two test keys (seeds 0x01 and 0x02 repeated), so the
        shipped binary answers GetAccounts with the same bytes as every other host. Its hosts
        inherit WALLET_BRIDGE_KEYSTORE; the others ignore it."""
        # In a folder of its own with mode 0700, as `keys` makes one for a user: in a folder
        # other users can read, the host would log a warning on every cold call.
        folder = os.path.join(out, "keystore")
        os.makedirs(folder, exist_ok=True)
        os.chmod(folder, 0o700)
        keystore = os.path.join(folder, "keystore.json")
        if os.path.exists(keystore):
            os.remove(keystore)
        secrets = os.path.join(out, "keystore-secrets")
        os.makedirs(secrets, exist_ok=True)
        passphrase = os.path.join(secrets, "passphrase")
        with open(passphrase, "w") as f:
            f.write("bench only\n")
        self.passphrase_file = passphrase
        # A keystore with the limits users get (MODERATE): the host refuses the test-only weak
        # ones, and GetAccounts never derives a key, so they would not change what is measured.
        env = dict(os.environ)
        env.pop("WALLET_BRIDGE_TEST_WEAK_KDF", None)
        for index, byte in enumerate((1, 2)):
            seed = os.path.join(secrets, "seed-%d" % byte)
            with open(seed, "wb") as f:
                f.write(bytes([byte]) * 32)
            run([self.paths["shipped_host"], "keys", "import", "--keystore", keystore, "--label", "test %d" % index,
                 "--format", "raw", "--file", seed, "--passphrase-file", passphrase], env=env, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL)
        os.environ["WALLET_BRIDGE_KEYSTORE"] = keystore

    # -- correctness (every mode) --

    def check_get_accounts(self, host: str) -> None:
        w = self.wire
        want = w.get_accounts_reply.replace("@ID@", "1")
        replies, code, err = exchange(self.hosts[host]["argv"], [w.get_accounts_request.replace("@ID@", "1").encode()],
                                      env=dict(os.environ, **self.hosts[host].get("env", {})))
        self.check("get-accounts-bytes", host, replies == [want.encode()] and code == 0,
                   "got %r exit %d %s" % (replies[:1], code, err[-300:]))

    def correctness(self) -> None:
        log("correctness: the same request gets the same bytes from every host")
        w = self.wire
        self.ensure_agent()
        for host in self.hosts:
            self.check_get_accounts(host)
        under_request, under_reply = w.large(MAX_OUTBOUND - 36)
        over_request, over_reply = w.large(MAX_OUTBOUND - 35)
        echo_under_request, echo_under_reply = w.echo(MAX_OUTBOUND - 38)
        echo_over_request, echo_over_reply = w.echo(MAX_OUTBOUND - 37)
        measure_request, measure_reply, fill = w.measure(1000)
        for host in self.peers:
            # Many frames in one process, including both sides of the 1 MiB reply limit: the
            # reply just over must come back as -32000 and the host must keep serving.
            bodies = [w.get_accounts_request.replace("@ID@", str(i)) for i in (7, 8)]
            bodies += [under_request, over_request, measure_request.replace("@ID@", "9").replace("@FILL@", "x" * fill)]
            bodies += [w.get_accounts_request.replace("@ID@", "10"), echo_under_request, echo_over_request]
            wants = [w.get_accounts_reply.replace("@ID@", str(i)) for i in (7, 8)]
            wants += [under_reply, over_reply, measure_reply.replace("@ID@", "9"), w.get_accounts_reply.replace("@ID@", "10")]
            wants += [echo_under_reply, echo_over_reply]
            replies, code, err = exchange(self.hosts[host]["argv"], [b.encode() for b in bodies])
            got = [r.decode(errors="replace") for r in replies]
            self.check("many-frames-one-process", host, len(got) == len(wants) and code == 0,
                       "%d replies of %d, exit %d %s" % (len(got), len(wants), code, err[-300:]))
            self.check("reply-exactly-1MiB", host, got[2] == wants[2] and len(replies[2]) == MAX_OUTBOUND,
                       "%d bytes" % len(replies[2]))
            self.check("reply-1MiB-plus-1-is-32000", host, got[3] == wants[3], got[3][:200])
            self.check("measure-and-keeps-serving", host, got[4:6] == wants[4:6], repr(got[4:6])[:300])
            self.check("echo-exactly-1MiB", host, got[6] == wants[6] and len(replies[6]) == MAX_OUTBOUND,
                       "%d bytes" % len(replies[6]))
            self.check("echo-1MiB-plus-1-is-32000", host, got[7] == wants[7], got[7][:200])

    # -- 1. cold call --

    def ensure_agent(self) -> int:
        """The shipped binary's agent, listening, and the caller connected (`AgentSandbox.up`):
        the timed calls must find both, as every call after a browser's first does. Returns the
        agent's pid."""
        if "swift-shipped" not in self.hosts:
            return 0
        before = self.agent.pid
        pid = self.agent.up(self.wire.get_accounts_request.replace("@ID@", "1").encode(),
                            self.wire.get_accounts_reply.replace("@ID@", "1").encode())
        if before is not None and pid != before:
            log("warning: the agent was restarted (pid %d, was %d)" % (pid, before))
            self.results["meta"]["agent"]["restarts"] = self.results["meta"]["agent"].get("restarts", 0) + 1
        self.results["meta"]["agent"]["pid"] = pid
        return pid

    def cold(self) -> None:
        rounds, per_round = (1, 3) if self.quick else (self.args.cold_rounds, self.args.cold_per_round)
        hosts = self.cold_hosts
        log("cold call: %d rounds x %d calls per host, hosts interleaved, not pinned" % (rounds, per_round))
        data = {h: {"reply_ns": [], "exit_ns": [], "maxrss_kib": [], "host_cpu_us": [], "round_exit_ms": [],
                    "round_reply_ms": []} for h in hosts}
        agent_pid = self.ensure_agent()
        agent_cpu_before = self.agent.cpu_ms()
        pair = [h for h in ("swift-shipped", "swift-shipped-direct") if h in hosts]
        for r in range(rounds):
            order = list(hosts)
            if len(pair) == 2 and r % 2:  # the two shipped variants swap places every other round
                i, j = order.index(pair[0]), order.index(pair[1])
                order[i], order[j] = order[j], order[i]
            for host in order:
                res, command = self.nmclient("cold", host, ["--n", per_round, "--req", self.ga_req, "--expect",
                                                           self.expected_get_accounts(host)], pinned=False)
                for key in ("reply_ns", "exit_ns", "maxrss_kib", "host_cpu_us"):
                    data[host][key] += res[key]
                data[host]["round_exit_ms"].append(statistics.median(res["exit_ns"]) / 1e6)
                data[host]["round_reply_ms"].append(statistics.median(res["reply_ns"]) / 1e6)
                data[host]["command"] = command
            if (r + 1) % max(1, rounds // 5) == 0:
                log("  round %d/%d done" % (r + 1, rounds))
        if len(pair) == 2:
            agent_cpu_after = self.agent.cpu_ms()
            status = self.agent.status()
            a, d = data["swift-shipped"], data["swift-shipped-direct"]
            calls = len(a["exit_ns"])
            self.results["cold_agent"] = {
                "unit": "ms", "calls": calls, "agent_pid": agent_pid,
                # Every timed call through the agent found the same agent listening.
                "agent_pid_same": bool(status.get("running")) and status.get("pid") == agent_pid,
                "exit_added": statistics.median(x / 1e6 for x in a["exit_ns"]) - statistics.median(x / 1e6 for x in d["exit_ns"]),
                "reply_added": statistics.median(x / 1e6 for x in a["reply_ns"]) - statistics.median(x / 1e6 for x in d["reply_ns"]),
                "exit_added_per_round": summarize([x - y for x, y in zip(a["round_exit_ms"], d["round_exit_ms"])]),
                "reply_added_per_round": summarize([x - y for x, y in zip(a["round_reply_ms"], d["round_reply_ms"])]),
                "host_cpu_added": statistics.median(x / 1e3 for x in a["host_cpu_us"]) - statistics.median(x / 1e3 for x in d["host_cpu_us"]),
                # The agent's own CPU per call (clock ticks of /proc/PID/stat over the whole benchmark,
                # its once-a-second housekeeping included): not in the host's CPU time.
                "agent_cpu_per_call": ((agent_cpu_after - agent_cpu_before) / calls
                                       if agent_cpu_before is not None and agent_cpu_after is not None else None),
                "agent_cpu_resolution": 1000 / os.sysconf("SC_CLK_TCK") / calls,  # one clock tick over the calls
            }
        for host in hosts:
            d = data[host]
            d["exit"] = summarize([x / 1e6 for x in d["exit_ns"]])
            d["reply"] = summarize([x / 1e6 for x in d["reply_ns"]])
            d["maxrss"] = summarize(d["maxrss_kib"])
            d["cpu"] = summarize([x / 1e3 for x in d["host_cpu_us"]])
        self.results["cold"] = {"unit": "ms", "rounds": rounds, "per_round": per_round, "hosts": data}

    # -- 2. round trip --

    def rtt(self) -> None:
        rounds, n, warmup = (1, 50, 10) if self.quick else (self.args.rtt_rounds, self.args.rtt_n, 500)
        log("round trip: %d rounds x %d requests per host (+%d warm-up)" % (rounds, n, warmup))
        self.ensure_agent()
        data = {h: {"rtt_ns": []} for h in self.port_hosts}
        for r in range(rounds):
            for host in self.port_hosts:
                res, command = self.nmclient("rtt", host, ["--n", n, "--warmup", warmup, "--req", self.ga_req,
                                                          "--expect", self.ga_exp])
                data[host]["rtt_ns"] += res["rtt_ns"]
                data[host]["command"] = command
        for host in self.port_hosts:
            data[host]["rtt"] = summarize([x / 1e3 for x in data[host]["rtt_ns"]])
        self.results["rtt"] = {"unit": "us", "rounds": rounds, "per_round": n, "hosts": data}

    # -- 3 and 6. pipelined throughput at 1, 16, 256 in flight --

    def throughput(self) -> None:
        windows = [int(w) for w in self.args.windows.split(",")]
        rounds = self.rounds(self.args.pipe_rounds)
        n = 300 if self.quick else self.args.pipe_n
        log("throughput: %d rounds x %d requests per host and window %s" % (rounds, n, windows))
        self.ensure_agent()
        data = {h: {str(w): {"runs": []} for w in windows} for h in self.port_hosts}
        for r in range(rounds):
            for window in windows:
                # One request in flight is a round trip each: a quarter of the requests tells as much.
                count = n if window > 1 or self.quick else max(1, n // 4)
                for host in self.port_hosts:
                    res, command = self.nmclient("pipe", host, ["--n", count, "--window", window, "--warmup", min(count, 1000),
                                                               "--req", self.ga_req, "--expect", self.ga_exp])
                    cpu_us = res["host_user_us"] + res["host_sys_us"]
                    run_ = {"requests_per_s": res["n"] / (res["total_ns"] / 1e9), "n": count,
                            "host_cpu_us_per_request": cpu_us / (res["n"] + min(count, 1000)),
                            "host_maxrss_kib": res["host_maxrss_kib"],
                            "ctx_voluntary": res["host_ctx_voluntary"], "ctx_involuntary": res["host_ctx_involuntary"]}
                    data[host][str(window)]["runs"].append(run_)
                    data[host][str(window)]["command"] = command
            log("  round %d/%d done" % (r + 1, rounds))
        for host in self.port_hosts:
            for window in windows:
                d = data[host][str(window)]
                d["requests_per_s"] = statistics.median(x["requests_per_s"] for x in d["runs"])
                d["host_cpu_us_per_request"] = statistics.median(x["host_cpu_us_per_request"] for x in d["runs"])
        self.results["throughput"] = {"windows": windows, "rounds": rounds, "n": n, "hosts": data}

    # -- 4. signing --

    def prepare_signing(self) -> None:
        """Payloads, requests and libsodium's own signatures, shared by every signing host."""
        count, size = self.args.sign_payloads, 1024
        rng = random.Random(20240601)  # any payloads will do; fixed so runs are comparable
        self.sign_payloads = [rng.randbytes(size) for _ in range(count)]
        self.sign_payload_file = os.path.join(self.tmp, "payloads.bin")
        with open(self.sign_payload_file, "wb") as f:
            f.write(b"".join(self.sign_payloads))
        encoded = [base64.b64encode(p).decode() for p in self.sign_payloads]
        address = self.wire.addresses[0]
        # 1,000 signed 1 KiB payloads come to about 1.45 MB of base64: over the 1 MiB a reply may
        # have. So the payloads go in as few requests as it takes for each reply to fit (split
        # evenly), all written at once (in flight together); a single request with all of them
        # is also timed, and must come back as -32000.
        per_signed = len(base64.b64encode(bytes(size + 64))) + 3  # quotes and comma
        per_request = max(1, (MAX_OUTBOUND - 200) // per_signed)
        parts = math.ceil(count / per_request)
        self.sign_step = math.ceil(count / parts)
        self.sign_groups = [encoded[i:i + self.sign_step] for i in range(0, count, self.sign_step)]
        self.sign_env = {"WALLET_BRIDGE_TEST_MAX_PAYLOADS": str(count)}
        self.sign_requests = [Wire.request("NATIVE_SIGN_PAYLOADS_METHOD", {"address": address, "payloads": g}, request_id=i + 1)
                              for i, g in enumerate(self.sign_groups)]
        self.sign_single_request = self.write_tmp("sign-single.req", Wire.request(
            "NATIVE_SIGN_PAYLOADS_METHOD", {"address": address, "payloads": encoded}, request_id=1))
        raw_argv = [self.paths["rawsign"], self.sign_payload_file, str(size), "1"]
        self.sign_raw_digest = json.loads(subprocess.run(raw_argv, capture_output=True, text=True,
                                                         check=True).stdout)["signatures_sha256"]

    def sign_expectations(self, host: str) -> dict:
        """Gets the host's replies once (untimed), checks every signature against libsodium's,
        and writes the request and expected-reply files the timed runs compare against."""
        replies, code, err = exchange(self.hosts[host]["argv"], [r.encode() for r in self.sign_requests],
                                      env=dict(os.environ, **self.sign_env), timeout=300)
        self.check("sign-replies", host, len(replies) == len(self.sign_requests) and code == 0, err.decode()[-300:])
        signatures = []
        for i, reply in enumerate(replies):
            message = json.loads(reply)
            ok = message.get("id") == i + 1 and "result" in message
            self.check("sign-reply-%d-is-a-result" % (i + 1), host, ok, reply[:300].decode())
            for j, signed in enumerate(message["result"]["signed_payloads"]):
                raw_bytes = base64.b64decode(signed)
                if raw_bytes[:-64] != self.sign_payloads[i * self.sign_step + j]:
                    self.check("signed-payload-is-payload-then-signature", host, False, "payload %d" % j)
                signatures.append(raw_bytes[-64:])
        self.check("signatures-equal-libsodium", host, hashlib.sha256(b"".join(signatures)).hexdigest() == self.sign_raw_digest,
                   "SHA-256 of the host's signatures differs from libsodium's")
        pairs = [(self.write_tmp("sign-%d.req" % i, request), self.write_tmp("sign-%s-%d.expect" % (host, i), reply.decode()))
                 for i, (request, reply) in enumerate(zip(self.sign_requests, replies))]
        # The same payloads in one request: the signing happens, the reply does not fit.
        full_reply_bytes = len('{"jsonrpc":"2.0","id":1,"result":{"signed_payloads":[]}}') + sum(
            len(base64.b64encode(p + sig)) + 2 for p, sig in zip(self.sign_payloads, signatures)) + (len(signatures) - 1)
        single = None
        if full_reply_bytes > MAX_OUTBOUND:
            single = self.write_tmp("sign-single-%s.expect" % host, Wire.error(
                -32000, {"bytes": full_reply_bytes, "limit": MAX_OUTBOUND}, "Response too large", 1))
        return {"pairs": pairs, "single_expect": single, "full_reply_bytes": full_reply_bytes,
                "count": len(self.sign_payloads), "env": self.sign_env}

    def signing(self) -> None:
        count, size = self.args.sign_payloads, 1024
        iterations, rounds = (1, 1) if self.quick else (self.args.sign_iterations, self.args.sign_rounds)
        self.prepare_signing()
        requests, groups, env, payload_file = self.sign_requests, self.sign_groups, self.sign_env, self.sign_payload_file
        options, single = {}, {}
        for host in self.signers:
            files = self.sign_expectations(host)
            option = ["--n", iterations]
            for q, e in files["pairs"]:
                option += ["--req", q, "--expect", e]
            options[host] = option
            full_reply_bytes = files["full_reply_bytes"]
            if files["single_expect"]:
                single[host] = ["--n", iterations, "--req", self.sign_single_request, "--expect", files["single_expect"]]
        log("signing: %d payloads of %d bytes as %d requests; %d rounds x %d iterations, raw libsodium interleaved"
            % (count, size, len(requests), rounds, iterations))
        host_ns = {h: [] for h in self.signers}
        single_ns = {h: [] for h in self.signers}
        commands = {h: {} for h in self.signers}
        raw_ns, raw_cmd = [], None
        for r in range(rounds):
            pinned_raw = (["taskset", "-c", str(self.args.host_cpu)] if self.pin and shutil.which("taskset") else [])
            raw_argv = pinned_raw + [self.paths["rawsign"], payload_file, str(size), str(iterations)]
            raw_ns += json.loads(subprocess.run(raw_argv, capture_output=True, text=True, check=True).stdout)["round_ns"]
            raw_cmd = cmdline(raw_argv)
            for host in self.signers:
                res, commands[host]["command"] = self.nmclient("batch", host, options[host], env=env)
                host_ns[host] += res["iteration_ns"]
                if host in single:
                    res1, commands[host]["single_request_command"] = self.nmclient("batch", host, single[host], env=env)
                    single_ns[host] += res1["iteration_ns"]
        raw = summarize([x / 1e6 for x in raw_ns])
        hosts = {}
        for host in self.signers:
            t = summarize([x / 1e6 for x in host_ns[host]])
            hosts[host] = {"time": t, "ns": host_ns[host], "ratio": raw["median"] / t["median"],
                           "signatures_per_s": count / (t["median"] / 1e3), **commands[host]}
            if single_ns[host]:
                hosts[host]["single_request"] = summarize([x / 1e6 for x in single_ns[host]])
        self.results["signing"] = {
            "unit": "ms", "payloads": count, "payload_bytes": size, "requests": len(requests),
            "payloads_per_request": [len(g) for g in groups], "request_bytes": [len(r) for r in requests],
            "single_request_reply_bytes": full_reply_bytes, "raw": raw, "raw_ns": raw_ns,
            "raw_signatures_per_s": count / (raw["median"] / 1e3), "raw_command": raw_cmd, "hosts": hosts,
        }

    # -- 4b. signatures in fresh processes: one unlock against Argon2id per signature --

    def sign_after_unlock(self) -> None:
        """SignPayloads with one payload, each in a fresh shipped host (as sendNativeMessage
        starts one per message), against the real keystore (MODERATE Argon2id limits, as users
        get them): through the agent, which the first signature unlocks (one Argon2id, then
        signatures with the cached key after a confirmation that the passphrase-file source
        gives), against {"agent": false} (Argon2id in every host). Interleaved call by call.

        Every reply is compared byte for byte (nmclient) with the conformance host's reply to
        the same request, whose signatures are checked first against libsodium's (rawsign, the
        same key) and, when python3-cryptography is there, verified with the public key."""
        n_agent, n_direct = (self.args.unlock_quick_agent, self.args.unlock_quick_direct) if self.quick else (
            self.args.unlock_signatures, self.args.unlock_signatures)
        count, size = max(n_agent, n_direct), 1024
        rng = random.Random(20240602)
        payloads = [rng.randbytes(size) for _ in range(count)]
        payload_file = os.path.join(self.tmp, "unlock-payloads.bin")
        with open(payload_file, "wb") as f:
            f.write(b"".join(payloads))
        address = self.wire.addresses[0]
        requests = [Wire.request("NATIVE_SIGN_PAYLOADS_METHOD", {"address": address, "payloads": [base64.b64encode(p).decode()]})
                    for p in payloads]
        # The expected replies: the conformance host's (no keystore, no Argon2), checked here.
        replies, code, err = exchange(self.hosts["swift"]["argv"], [q.replace("@ID@", str(i + 1)).encode()
                                                                    for i, q in enumerate(requests)], timeout=300)
        self.check("unlock-expected-replies", "swift", len(replies) == count and code == 0, err.decode()[-300:])
        signatures, expects = [], []
        for i, reply in enumerate(replies):
            prefix = ('{"jsonrpc":"2.0","id":%d,' % (i + 1)).encode()
            message = json.loads(reply)
            signed = base64.b64decode(message["result"]["signed_payloads"][0]) if "result" in message else b""
            if not (reply.startswith(prefix) and signed[:-64] == payloads[i]):
                self.check("unlock-reply-is-payload-then-signature", "swift", False, reply[:300].decode())
            signatures.append(signed[-64:])
            expects.append(self.write_tmp("unlock-%d.expect" % i, '{"jsonrpc":"2.0","id":@ID@,' + reply[len(prefix):].decode()))
        raw = json.loads(subprocess.run([self.paths["rawsign"], payload_file, str(size), "1"], capture_output=True,
                                        text=True, check=True).stdout)["signatures_sha256"]
        self.check("unlock-signatures-equal-libsodium", "swift", hashlib.sha256(b"".join(signatures)).hexdigest() == raw,
                   "SHA-256 of the signatures differs from libsodium's")
        verified = "libsodium's signatures (equal bytes)"
        try:
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
            key = Ed25519PublicKey.from_public_bytes(base64.b64decode(address))
            for p, sig in zip(payloads, signatures):
                key.verify(sig, p)  # raises InvalidSignature
            verified += " and Ed25519 verification with the public key (python3-cryptography)"
            self.check("unlock-signatures-verify", "swift", True)
        except ImportError:
            pass
        except Exception as e:  # InvalidSignature
            self.check("unlock-signatures-verify", "swift", False, repr(e))
        reqs = [self.write_tmp("unlock-%d.req" % i, q) for i, q in enumerate(requests)]

        variants = {"agent": ("swift-shipped", self.agent.env(agent=True), n_agent),
                    "direct": ("swift-shipped-direct", self.agent.env(agent=False, passphrase=True), n_direct)}
        # The agent runs (GetAccounts started it, as in a browser) with its keys locked: the
        # first signature through it asks for the passphrase and runs Argon2id.
        agent_pid = self.ensure_agent()
        self.agent.lock()
        if self.agent.status().get("unlocked"):
            raise BenchError("the agent is still unlocked after `wallet-bridge lock`")
        audit = os.path.join(self.agent.state, "wallet-bridge", "audit.log")
        audit_start = os.path.getsize(audit) if os.path.exists(audit) else 0
        log("signatures after one unlock: %d through the agent, %d with {\"agent\": false}, one payload each, "
            "each in a fresh host, interleaved" % (n_agent, n_direct))
        data = {v: {"reply_ns": [], "exit_ns": [], "host_cpu_us": []} for v in variants}
        commands = {}
        wall = {v: 0.0 for v in variants}
        for i in range(count):
            order = list(variants) if i % 2 == 0 else list(reversed(list(variants)))
            for v in order:
                host, env, n = variants[v]
                if i >= n:
                    continue
                started = time.monotonic()
                res, command = self.nmclient("cold", host, ["--n", 1, "--req", reqs[i], "--expect", expects[i]],
                                             pinned=False, timeout=600, env=env)
                wall[v] += time.monotonic() - started
                for key in ("reply_ns", "exit_ns", "host_cpu_us"):
                    data[v][key] += res[key]
                commands[v] = command
            if (i + 1) % max(1, count // 5) == 0:
                log("  signature %d/%d done" % (i + 1, count))
        status = self.agent.status()
        # The audit log says how each was approved: the agent's first with the passphrase and
        # the rest by confirmation (the cached key); every direct one with the passphrase.
        approvals = {}
        with open(audit, "rb") as f:
            f.seek(audit_start)
            for line in f.read().splitlines():
                entry = json.loads(line)
                key = "%s/%s" % (entry.get("decision"), entry.get("approval"))
                approvals[key] = approvals.get(key, 0) + 1
        want = {"approved/passphrase": 1 + n_direct}
        if n_agent > 1:
            want["approved/confirmation"] = n_agent - 1
        self.check("unlock-one-argon2-in-the-agent", "swift-shipped", approvals == want,
                   "audit log: %r, expected %r" % (approvals, want))
        self.check("unlock-same-agent-and-unlocked", "swift-shipped",
                   status.get("pid") == agent_pid and bool(status.get("unlocked")), repr(status))
        out = {}
        for v, (host, env, n) in variants.items():
            d = data[v]
            exit_ms = [x / 1e6 for x in d["exit_ns"]]
            out[v] = {"host": host, "signatures": n, "total": sum(exit_ms), "driver_wall": wall[v] * 1e3,
                      "exit": summarize(exit_ms), "reply": summarize([x / 1e6 for x in d["reply_ns"]]),
                      "host_cpu": summarize([x / 1e3 for x in d["host_cpu_us"]]), "exit_ms": exit_ms,
                      "command": commands[v] + "  # the request and expected reply change with each signature"}
        a = out["agent"]
        out["agent"]["first"] = a["exit_ms"][0]
        if n_agent > 1:
            out["agent"]["cached"] = summarize(a["exit_ms"][1:])
        direct = out["direct"]
        self.results["sign_after_unlock"] = {
            "unit": "ms", "payload_bytes": size, "verified_against": verified, "variants": out,
            "kdf": self.keystore_kdf(), "agent_pid": agent_pid, "audit": approvals,
            # Per signature: the medians, and the means (the total over the count).
            "median_ratio": direct["exit"]["median"] / a["exit"]["median"],
            "mean_ratio": (direct["total"] / direct["signatures"]) / (a["total"] / a["signatures"]),
        }

    def keystore_kdf(self) -> dict:
        with open(os.environ["WALLET_BRIDGE_KEYSTORE"]) as f:
            kdf = json.load(f)["kdf"]
        return {k: kdf.get(k) for k in ("algorithm", "opslimit", "memlimit")}

    # -- 4c. signatures against OpenSSH's ssh-agent --

    def ssh_agent(self) -> None:
        """The same Ed25519 signature from OpenSSH's ssh-agent and from the shipped host's agent,
        interleaved round by round. On an open connection: ssh-agent's sign request on its socket
        (`tools/sshagent_sign.c`) against `solana_signMessage` in a session on an open port
        (`nmclient rtt`), one request at a time, both C clients. From a fresh process, each timed
        by this script alike (spawn to exit): `ssh-keygen -Y sign` with the key in ssh-agent
        against a host started for one `session_request`. Both agents are unattended (ssh-agent
        with no confirmation, ours with the passphrase file). Every signature is verified: the
        first of each kind with the public key (python3-cryptography; `ssh-keygen -Y verify`),
        and every other one is byte for byte the same (Ed25519 signs deterministically)."""
        tools = {name: shutil.which(name) for name in ("ssh-agent", "ssh-add", "ssh-keygen")}
        if not all(tools.values()) or "swift-shipped" not in self.hosts:
            log("ssh-agent comparison: skipped (needs OpenSSH's ssh-agent, ssh-add and ssh-keygen)")
            self.results["ssh_agent"] = {"skipped": "OpenSSH client tools not found"}
            return
        try:
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
        except ImportError:
            raise BenchError("the ssh-agent comparison verifies signatures with python3-cryptography")
        rounds, n, warmup, fresh = (1, 50, 5, 3) if self.quick else (
            self.args.ssh_rounds, self.args.ssh_n, 200, self.args.ssh_fresh)
        log("ssh-agent: %d rounds x %d signatures on an open connection each way, %d from fresh processes each way"
            % (rounds, n, fresh))
        message = b"wallet-bridge benchmark: the same 64 bytes signed by both agents......"[:64]
        folder = os.path.join(self.out, "ssh-agent")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder, mode=0o700)
        key = os.path.join(folder, "id_ed25519")
        run([tools["ssh-keygen"], "-q", "-t", "ed25519", "-N", "", "-C", "bench", "-f", key])
        with open(key + ".pub") as f:
            kind, blob64 = f.read().split()[:2]
        blob = base64.b64decode(blob64)
        paths = {name: os.path.join(folder, name) for name in ("blob", "message", "allowed", "public-only.pub", "message.sig")}
        for name, data in (("blob", blob), ("message", message), ("allowed", ("bench %s %s\n" % (kind, blob64)).encode()),
                           ("public-only.pub", ("%s %s bench\n" % (kind, blob64)).encode())):
            with open(paths[name], "wb") as f:
                f.write(data)
        sock = os.path.join(folder, "agent.sock")
        agent = subprocess.Popen([tools["ssh-agent"], "-D", "-a", sock], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while not os.path.exists(sock):
                if agent.poll() is not None or time.monotonic() > deadline:
                    raise BenchError("ssh-agent did not start")
                time.sleep(0.01)
            ssh_env = dict(os.environ, SSH_AUTH_SOCK=sock)
            run([tools["ssh-add"], "-q", key], env=ssh_env)
            os.remove(key)  # ssh-keygen -Y sign must ask the agent: no private key on disk
            self._ssh_agent_compare(tools, paths, sock, ssh_env, blob, message, rounds, n, warmup, fresh,
                                    Ed25519PrivateKey, Ed25519PublicKey)
        finally:
            agent.terminate()
            agent.wait()

    def _ssh_agent_compare(self, tools, paths, sock, ssh_env, blob, message, rounds, n, warmup, fresh,
                           Ed25519PrivateKey, Ed25519PublicKey) -> None:
        def u32(data: bytes, at: int) -> tuple[bytes, int]:
            size = int.from_bytes(data[at:at + 4], "big")
            return data[at + 4:at + 4 + size], at + 4 + size

        ssh_public = Ed25519PublicKey.from_public_bytes(u32(blob, u32(blob, 0)[1])[0])
        # Ours: a session of the benchmark's caller, on the agent the other benchmarks use.
        self.ensure_agent()
        host = self.hosts["swift-shipped"]
        env = dict(os.environ, **host["env"])
        seed_key = Ed25519PrivateKey.from_private_bytes(bytes([1]) * 32)  # the keystore's first test key
        raw = seed_key.public_key().public_bytes_raw()
        chain = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
        connect = {"jsonrpc": "2.0", "id": 1, "method": "session_connect", "params": {
            "requiredNamespaces": {"solana": {"chains": [chain], "methods": ["solana_signMessage"], "events": []}},
            "metadata": {"name": "wallet-bridge benchmark"}}}
        replies, code, err = exchange(host["argv"], [Wire.compact(connect).encode()], env=env)
        try:
            topic = json.loads(replies[0])["result"]["topic"]
        except (IndexError, KeyError, ValueError):
            raise BenchError("session_connect failed: %r exit %d %s" % (replies, code, err[-300:]))
        request = Wire.request("session_request", {"topic": topic, "chainId": chain, "request": {
            "method": "solana_signMessage", "params": {"message": b58encode(message), "pubkey": b58encode(raw)}}})
        # The first signature unlocks the key (Argon2id, untimed); its reply is the template.
        replies, code, err = exchange(host["argv"], [request.replace("@ID@", "1").encode()], env=env)
        try:
            signature = b58decode(json.loads(replies[0])["result"]["signature"])
            seed_key.public_key().verify(signature, message)
            ok = True
        except Exception as e:  # noqa: BLE001 (any failure is the check's)
            ok, signature = False, repr(e)
        self.check("ssh-agent-solana-signature-verifies", "swift-shipped", ok and code == 0,
                   "%r exit %d %r" % (replies[:1] or signature, code, err[-300:]))
        if replies[0].count(b'"id":1,') != 1:
            raise BenchError("unexpected reply shape: %r" % replies[0])
        expect = self.write_tmp("ssh-agent-sign.expect", replies[0].decode().replace('"id":1,', '"id":@ID@,'))
        req = self.write_tmp("ssh-agent-sign.req", request)
        req_one = self.write_tmp("ssh-agent-sign-1.req", request.replace("@ID@", "1"))
        # ssh-agent's: its first signature verified; sshagent_sign checks the rest equal it.
        first = bytes.fromhex(json.loads(subprocess.run(
            [self.paths["sshagent_sign"], sock, paths["blob"], paths["message"], "1", "0"],
            capture_output=True, text=True, check=True).stdout)["reply_hex"])
        try:
            ssh_public.verify(u32(u32(first, 1)[0], u32(u32(first, 1)[0], 0)[1])[0], message)
            ok = True
        except Exception as e:  # noqa: BLE001
            ok = False
        self.check("ssh-agent-signature-verifies", "ssh-agent", ok, first.hex())

        data = {"open": {"ssh-agent": [], "wallet-bridge": []}, "fresh": {"ssh-keygen": [], "wallet-bridge": []}}
        commands = {}
        for r in range(rounds):
            res, commands["open wallet-bridge"] = self.nmclient("rtt", "swift-shipped", [
                "--n", n, "--warmup", warmup, "--req", req, "--expect", expect], pinned=False)
            data["open"]["wallet-bridge"] += res["rtt_ns"]
            argv = [self.paths["sshagent_sign"], sock, paths["blob"], paths["message"], str(n), str(warmup)]
            res = json.loads(subprocess.run(argv, capture_output=True, text=True, check=True).stdout)
            if bytes.fromhex(res["reply_hex"]) != first:
                raise BenchError("ssh-agent's signature changed")
            data["open"]["ssh-agent"] += res["rtt_ns"]
            commands["open ssh-agent"] = cmdline(argv)
        with open(paths["message"], "rb") as f:
            signed_message = f.read()
        keygen = [tools["ssh-keygen"], "-q", "-Y", "sign", "-n", "file", "-f", paths["public-only.pub"]]
        with open(req_one) as f:
            frame_in = frame(f.read().encode())
        want_reply = frame(open(expect).read().replace("@ID@", "1").encode())
        sshsig = None
        for i in range(fresh):
            for who in (("ssh-keygen", "wallet-bridge") if i % 2 == 0 else ("wallet-bridge", "ssh-keygen")):
                argv, stdin, child_env = ((keygen, signed_message, ssh_env) if who == "ssh-keygen"
                                          else (host["argv"], frame_in, env))
                done = spawn_timed(argv, child_env, stdin, reply_then_close=who == "wallet-bridge")
                data["fresh"][who].append(done.elapsed_ns)
                if done.returncode != 0:
                    raise BenchError("%s failed (%d): %r" % (who, done.returncode, done.stdout[-300:]))
                if who == "wallet-bridge" and done.stdout != want_reply:
                    raise BenchError("a fresh host's signature reply differs: %r" % done.stdout[:300])
                if who == "ssh-keygen":
                    if sshsig is None:
                        sshsig = done.stdout
                        with open(paths["message.sig"], "wb") as f:
                            f.write(sshsig)
                        verified = subprocess.run([tools["ssh-keygen"], "-Y", "verify", "-f", paths["allowed"], "-I", "bench",
                                                   "-n", "file", "-s", paths["message.sig"]],
                                                  input=signed_message, capture_output=True)
                        self.check("ssh-keygen-signature-verifies", "ssh-agent", verified.returncode == 0,
                                   verified.stderr.decode(errors="replace")[-300:])
                    elif done.stdout != sshsig:
                        raise BenchError("ssh-keygen's signature changed")
        commands["fresh ssh-keygen"] = "SSH_AUTH_SOCK=%s %s < %s" % (rel(sock), cmdline(keygen), rel(paths["message"]))
        commands["fresh wallet-bridge"] = host["command"] + " < " + rel(req_one) + " (framed)"
        summary = {"unit": "us", "rounds": rounds, "per_round": n, "fresh_calls": fresh, "message_bytes": len(message),
                   "commands": commands}
        for kind, pair in data.items():
            summary[kind] = {who: summarize([x / 1e3 for x in samples]) for who, samples in pair.items()}
        o, f = summary["open"], summary["fresh"]
        summary["open_ratio"] = o["wallet-bridge"]["median"] / o["ssh-agent"]["median"]
        summary["fresh_ratio"] = f["wallet-bridge"]["median"] / f["ssh-keygen"]["median"]
        self.results["ssh_agent"] = summary
        log("  open connection: wallet-bridge %.1f us, ssh-agent %.1f us (medians): %.2fx"
            % (o["wallet-bridge"]["median"], o["ssh-agent"]["median"], summary["open_ratio"]))
        log("  fresh process:   wallet-bridge %.0f us, ssh-keygen -Y sign %.0f us (medians): %.2fx"
            % (f["wallet-bridge"]["median"], f["ssh-keygen"]["median"], summary["fresh_ratio"]))

    # -- 5. large frames --

    def large(self) -> None:
        size = (8 if self.quick else self.args.large_mib) * MiB
        reps = 1 if self.quick else self.args.large_reps
        template, reply, fill = self.wire.measure(size)
        req = self.write_tmp("measure-large.req", template)
        exp = self.write_tmp("measure-large.expect", reply.replace("@ID@", "1"))
        log("large frames: a %d MiB test.measure request, %d per host (each in a fresh process)" % (size // MiB, reps))
        data = {h: {"ns": [], "maxrss_kib": []} for h in self.peers}
        # Baseline RSS of each host after one small request, for "peak over idle".
        for r in range(reps):
            for host in self.peers:
                res, command = self.nmclient("cold", host, ["--n", 1, "--fill", fill, "--req", req, "--expect", exp,
                                                           "--warm", self.ga_req, "--warm-expect", self.ga_exp])
                data[host]["ns"] += res["reply_ns"]
                data[host]["maxrss_kib"] += res["maxrss_kib"]
                data[host]["command"] = command
        for host in self.peers:
            d = data[host]
            d["time"] = summarize([x / 1e6 for x in d["ns"]])
            d["peak_rss_mib"] = max(d["maxrss_kib"]) / 1024
            d["rss_over_frame"] = max(d["maxrss_kib"]) * 1024 / size
            d["idle_rss_mib"] = statistics.median(self.results["cold"]["hosts"][host]["maxrss_kib"]) / 1024 \
                if "cold" in self.results else None
        # Both sides of the 1 MiB reply limit, timed on a persistent port.
        limit = {}
        n = 5 if self.quick else self.args.limit_n
        cases = (("under", "test.large", MAX_OUTBOUND - 36), ("over", "test.large", MAX_OUTBOUND - 35),
                 ("echo-under", "test.echo", MAX_OUTBOUND - 38), ("echo-over", "test.echo", MAX_OUTBOUND - 37))
        for name, method, bytes_ in cases:
            request, expected = (self.wire.large if method == "test.large" else self.wire.echo)(bytes_)
            q = self.write_tmp("limit-%s.req" % name, request)
            e = self.write_tmp("limit-%s.expect" % name, expected)
            limit[name] = {"method": method, "n_param": bytes_, "reply_bytes": len(expected),
                           "request_bytes": len(request), "hosts": {}}
            for host in self.peers:
                res, command = self.nmclient("rtt", host, ["--n", n, "--warmup", 2, "--req", q, "--expect", e])
                limit[name]["hosts"][host] = {"rtt": summarize([x / 1e6 for x in res["rtt_ns"]]), "command": command}
        self.results["large"] = {"unit": "ms", "frame_bytes": size, "reps": reps, "hosts": data, "reply_limit": limit}

    # -- 6. latency as the payload grows --

    def payload_sweep(self) -> None:
        sizes = [100, 1024, 10 * 1024, 100 * 1024, MiB]
        counts = {100: 2000, 1024: 2000, 10 * 1024: 1000, 100 * 1024: 300, MiB: 60}
        log("payload sweep: test.measure, request bodies %s bytes" % sizes)
        data = {h: {} for h in self.peers}
        for size in sizes:
            template, reply, fill = self.wire.measure(size)
            q = self.write_tmp("measure-%d.req" % size, template)
            e = self.write_tmp("measure-%d.expect" % size, reply)
            n = 5 if self.quick else counts[size]
            for host in self.peers:
                res, command = self.nmclient("rtt", host, ["--n", n, "--warmup", 2 if self.quick else 20, "--fill", fill,
                                                          "--req", q, "--expect", e])
                data[host][str(size)] = {"rtt": summarize([x / 1e3 for x in res["rtt_ns"]]), "command": command}
        self.results["payload_sweep"] = {"unit": "us", "sizes": sizes, "hosts": data}

    # -- goals --

    def goals(self) -> None:
        r = self.results
        goals = []

        def goal(name, target, value, met, detail):
            goals.append({"goal": name, "target": target, "value": value, "met": bool(met), "detail": detail})

        if "cold" in r:
            c = r["cold"]["hosts"]
            if "swift-shipped" in c and "swift-bare" in c:
                s, bare = c["swift-shipped"]["exit"]["median"], c["swift-bare"]["exit"]["median"]
                goal("cold call, shipped binary vs bare Swift", "<= 1.3x", s / bare, s / bare <= 1.3,
                     "%.2f ms vs %.2f ms (spawn to exit)" % (s, bare))
            if "swift-shipped-direct" in c and "swift-bare" in c:
                s, bare = c["swift-shipped-direct"]["exit"]["median"], c["swift-bare"]["exit"]["median"]
                goal("cold call, shipped binary without the agent vs bare Swift", "<= 1.3x", s / bare, s / bare <= 1.3,
                     "%.2f ms vs %.2f ms (spawn to exit)" % (s, bare))
        if "cold_agent" in r:
            a = r["cold_agent"]
            goal("cold GetAccounts: time the agent configuration adds (spawn to exit, medians)", "<= 0.2 ms", a["exit_added"],
                 a["exit_added"] <= 0.2, "%.2f ms with the agent vs %.2f ms direct; per-round difference median %.2f ms"
                 % (r["cold"]["hosts"]["swift-shipped"]["exit"]["median"], r["cold"]["hosts"]["swift-shipped-direct"]["exit"]["median"],
                    a["exit_added_per_round"]["median"]))
            s, floor = c["swift"]["exit"]["median"], c["c"]["exit"]["median"]
            goal("cold call median vs C floor", "<= 2x", s / floor, s / floor <= 2,
                 "%.2f ms vs %.2f ms (spawn to exit)" % (s, floor))
            for peer in ("python", "node"):
                if peer in c:
                    p = c[peer]["exit"]["median"]
                    goal("cold call vs %s" % peer, ">= 10x faster", p / s, p / s >= 10, "%.2f ms vs %.2f ms" % (p, s))
        if "rtt" in r:
            h = r["rtt"]["hosts"]
            s, floor = h["swift"]["rtt"]["median"], h["c"]["rtt"]["median"]
            goal("round trip p50 vs C floor", "<= 2x", s / floor, s / floor <= 2, "%.1f us vs %.1f us" % (s, floor))
            if "swift-shipped" in h:
                s = h["swift-shipped"]["rtt"]["median"]
                goal("round trip p50, shipped binary vs C floor", "<= 1.5x", s / floor, s / floor <= 1.5,
                     "%.1f us vs %.1f us" % (s, floor))
        if "throughput" in r:
            h = r["throughput"]["hosts"]
            s = h["swift"]["256"]["requests_per_s"]
            goal("pipelined throughput (256 in flight, host on one core)", ">= 100,000 req/s", s, s >= 100_000,
                 "%.0f req/s" % s)
            p = h["python"]["256"]["requests_per_s"]
            goal("pipelined throughput vs Python", ">= 3x", s / p, s / p >= 3, "%.0f vs %.0f req/s" % (s, p))
            if "swift-shipped" in h:
                s = h["swift-shipped"]["256"]["requests_per_s"]
                goal("pipelined throughput, shipped binary (real keystore) vs Python", ">= 3x", s / p, s / p >= 3,
                     "%.0f vs %.0f req/s" % (s, p))
        if "signing" in r and "swift" in r["signing"]["hosts"]:
            s = r["signing"]["hosts"]["swift"]
            goal("signing rate vs raw libsodium", ">= 80%", s["ratio"], s["ratio"] >= 0.8,
                 "%.0f vs %.0f signatures/s" % (s["signatures_per_s"], r["signing"]["raw_signatures_per_s"]))
        if "large" in r:
            x = r["large"]["hosts"]["swift"]["rss_over_frame"]
            goal("peak RSS for a %d MiB request" % (r["large"]["frame_bytes"] // MiB), "<= 3x the frame", x, x <= 3,
                 "%.0f MiB peak" % r["large"]["hosts"]["swift"]["peak_rss_mib"])
        r["goals"] = goals

    def run(self) -> None:
        try:
            self._run()
        finally:
            # Every agent the run started ends with it, failed or not.
            if getattr(self, "agent", None) is not None:
                self.agent.stop()

    def _run(self) -> None:
        self.setup()
        self.correctness()
        steps = {"cold": self.cold, "rtt": self.rtt, "throughput": self.throughput, "signing": self.signing,
                 "unlock": self.sign_after_unlock, "large": self.large, "sweep": self.payload_sweep,
                 "ssh-agent": self.ssh_agent}
        only = set(self.args.only.split(",")) if self.args.only else set(steps)
        for name, step in steps.items():
            if name in only:
                t0 = time.monotonic()
                step()
                log("  (%s took %.1f s)" % (name, time.monotonic() - t0))
        self.goals()
        self.results["meta"]["finished"] = now_iso()
        self.results["meta"]["loadavg_end"] = loadavg()
        path = os.path.join(self.out, "results-quick.json" if self.quick else "results.json")
        with open(path, "w") as f:
            json.dump(self.results, f, indent=1)
        log("wrote " + rel(path))


def now_iso() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="tiny counts; check correctness, not timings")
    parser.add_argument("--out", default=os.path.join(BENCH, "out"), help="result folder (git-ignored)")
    parser.add_argument("--build-dir", default=os.path.join(BENCH, "out"), help="build folder (git-ignored)")
    parser.add_argument("--skip-build", action="store_true", help="reuse the Swift build already in --out")
    parser.add_argument("--only", default="", help="comma list of: cold,rtt,throughput,signing,unlock,large,sweep,ssh-agent")
    cpus = sorted(os.sched_getaffinity(0))
    parser.add_argument("--host-cpu", type=int, default=cpus[-1] if len(cpus) > 1 else -1,
                        help="CPU the host is pinned to for the persistent-port benchmarks (-1: no pinning)")
    parser.add_argument("--client-cpu", type=int, default=cpus[0] if len(cpus) > 1 else -1,
                        help="CPU the load generator is pinned to")
    # Many short rounds: on a shared machine, load changes within seconds, and hosts that take
    # their turns in long blocks would see different loads.
    parser.add_argument("--cold-rounds", type=int, default=100)
    parser.add_argument("--cold-per-round", type=int, default=3)
    parser.add_argument("--rtt-rounds", type=int, default=5)
    parser.add_argument("--rtt-n", type=int, default=4000)
    parser.add_argument("--pipe-rounds", type=int, default=3)
    parser.add_argument("--pipe-n", type=int, default=200_000, help="requests per pipelined run (a quarter with 1 in flight)")
    parser.add_argument("--windows", default="1,16,256", help="requests in flight for the throughput runs")
    parser.add_argument("--sign-payloads", type=int, default=1000)
    parser.add_argument("--sign-iterations", type=int, default=10)
    parser.add_argument("--sign-rounds", type=int, default=3)
    parser.add_argument("--unlock-signatures", type=int, default=100,
                        help="signatures each way in the unlock benchmark (one payload each, a fresh host each)")
    parser.add_argument("--unlock-quick-agent", type=int, default=20, help="--quick: signatures through the agent")
    parser.add_argument("--unlock-quick-direct", type=int, default=5, help="--quick: signatures with Argon2id each")
    parser.add_argument("--ssh-rounds", type=int, default=5, help="ssh-agent comparison: interleaved rounds")
    parser.add_argument("--ssh-n", type=int, default=2000, help="ssh-agent comparison: signatures per round on one connection")
    parser.add_argument("--ssh-fresh", type=int, default=100,
                        help="ssh-agent comparison: signatures each way from a fresh process (ssh-keygen -Y sign, the host)")
    parser.add_argument("--large-mib", type=int, default=60)
    parser.add_argument("--large-reps", type=int, default=3)
    parser.add_argument("--limit-n", type=int, default=50)
    return parser.parse_args(argv)


def main() -> int:
    args = parse_args()
    # SIGTERM (a CI job's timeout) unwinds like Ctrl-C, so the run still stops its agent.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        Bench(args).run()
    except (BenchError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        log("bench: FAILED: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
