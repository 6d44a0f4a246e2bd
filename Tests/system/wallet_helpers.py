"""Helpers for the wallet's system tests: the built `wallet-bridge` binary, run as a person runs
it (the `keys` subcommands) and as a browser runs it (frames over pipes), in an isolated home.

Nothing here builds anything: the binary comes from WALLET_BRIDGE_BIN, by default
.build/debug/wallet-bridge under the repository root. A missing binary fails the tests; it is
never a reason to skip them.
"""
import base64
import json
import os
import select
import signal
import struct
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FAKE_PINENTRY = REPO / "Tests" / "Support" / "fake-pinentry"
CHROME_ORIGIN = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
SOLANA_MAINNET = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
FIREFOX_ID = "wallet@example.org"
GET_ACCOUNTS = "NATIVE_GET_ACCOUNTS_METHOD"
SIGN_PAYLOADS = "NATIVE_SIGN_PAYLOADS_METHOD"
B58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def binary_path():
    configured = os.environ.get("WALLET_BRIDGE_BIN")
    path = Path(configured) if configured else REPO / ".build" / "debug" / "wallet-bridge"
    if not path.is_absolute():
        path = Path.cwd() / path
    if not os.access(path, os.X_OK):
        pytest.fail(f"wallet-bridge binary not found at {path}: run `swift build` first, "
                    "or point WALLET_BRIDGE_BIN at the binary", pytrace=False)
    return str(path)


def b58encode(data):
    """An independent base58 (Bitcoin alphabet), to check the binary's."""
    number = int.from_bytes(data, "big")
    text = ""
    while number:
        number, digit = divmod(number, 58)
        text = B58_ALPHABET[digit] + text
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + text


def short_address(public_key):
    full = b58encode(public_key)
    return f"{full[:4]}…{full[-4:]}"


class Wallet:
    """One isolated user: a home, a config folder, a keystore, a scripted pinentry, and the
    record of every byte the binary wrote (so tests can search it for secrets)."""

    def __init__(self, root):
        self.root = Path(root)
        self.binary = binary_path()
        self.home = self.root / "home"
        self.home.mkdir()
        self.config_path = self.home / ".config" / "wallet-bridge" / "config.json"
        self.keystore_path = self.home / ".local" / "share" / "wallet-bridge" / "keystore.json"
        self.pinentry_log = self.root / "pinentry.log"
        # XDG_RUNTIME_DIR, the agent's socket folder: private to this test, so that each test
        # has its own agent. pytest's folders keep the socket path under its 107 bytes.
        self.runtime = self.root / "run"
        self.runtime.mkdir(mode=0o700)
        self.outputs = []  # (what, bytes) for everything the binary printed

    def env(self, **extra):
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("WALLET_BRIDGE_", "FAKE_PINENTRY_", "XDG_"))}
        env.update({
            "HOME": str(self.home),
            "XDG_RUNTIME_DIR": str(self.runtime),
            "WALLET_BRIDGE_TEST_WEAK_KDF": "1",
            "WALLET_BRIDGE_PINENTRY": str(FAKE_PINENTRY),
            "FAKE_PINENTRY_LOG": str(self.pinentry_log),
        })
        env.update({key: str(value) for key, value in extra.items() if value is not None})
        for key in [key for key, value in extra.items() if value is None]:
            env.pop(key, None)
        return env

    def agent_log_text(self):
        """Everything the agents this test's hosts started have logged so far."""
        folder = self.home / ".local" / "state" / "wallet-bridge"
        return b"".join(path.read_bytes() for path in sorted(folder.glob("agent*.log")))

    def stop_agent(self):
        """Ends the test's agent, if one runs, and waits until it has gone."""
        subprocess.run([self.binary, "agent", "stop"], env=self.env(), capture_output=True, timeout=30)
        # A killed agent leaves its socket: gone means no socket, or no agent process.
        wait_until(lambda: not any(self.runtime.glob("wallet-bridge/*.sock")) or not agent_pids(self.keystore_path),
                   timeout=10, interval=0.01)

    def clean_up(self):
        """The end of a test: no agent left running."""
        self.stop_agent()

    def secret_file(self, name, content):
        path = self.root / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        path.chmod(0o600)
        return path

    # The command line

    def run(self, *args, input=None, env=None, check=None, pass_fds=(), timeout=60):
        """Runs `wallet-bridge args…` in its own session, so it has no controlling terminal."""
        result = subprocess.run(
            [self.binary, *map(str, args)], input=input, capture_output=True, env=env or self.env(),
            timeout=timeout, start_new_session=True, pass_fds=pass_fds)
        self.outputs.append((f"stdout of {args}", result.stdout))
        self.outputs.append((f"stderr of {args}", result.stderr))
        assert result.returncode >= 0, f"{args} died of signal {-result.returncode}: {result.stderr!r}"
        assert b"Fatal error" not in result.stderr and b"Traceback" not in result.stderr, result.stderr
        if check is True:
            assert result.returncode == 0, f"{args} failed: {result.stderr.decode()}"
        if check is False:
            assert result.returncode != 0, f"{args} succeeded: {result.stdout.decode()}"
        return result

    def keys(self, *args, **kwargs):
        return self.run("keys", *args, **kwargs)

    def keys_json(self, *args, **kwargs):
        result = self.keys(*args, "--json", check=True, **kwargs)
        return json.loads(result.stdout)

    def create(self, passphrase_file, label=None, connect=(CHROME_ORIGIN, FIREFOX_ID)):
        """A key, and the test's extensions connected to the wallet as a person would have
        connected them before (docs/sessions.md): GetAccounts and SignPayloads then ask no one to
        connect. `connect=()` leaves every extension unconnected."""
        args = ["create", "--passphrase-file", passphrase_file] + (["--label", label] if label else [])
        key = self.keys_json(*args)
        for caller in connect:
            self.connect(caller)
        return key

    @property
    def sessions_path(self):
        return self.keystore_path.with_name(self.keystore_path.stem + ".sessions.json")

    def connect(self, caller, lifetime=86400, methods=("solana_signMessage",), events=("accountsChanged",)):
        """Writes a session for `caller` into the sessions file, as the agent stores an approved
        one. Only before the agent starts: a running agent keeps its own copy."""
        kind = "chrome-extension" if caller.startswith("chrome-extension://") else "firefox-addon"
        namespaces = {"solana": {"chains": [SOLANA_MAINNET], "methods": list(methods), "events": list(events)}}
        now = int(time.time())
        session = {"topic": os.urandom(32).hex(), "caller": {"kind": kind, "id": caller},
                   "metadata": {"name": "test extension", "description": "", "url": "", "icons": []},
                   "requiredNamespaces": namespaces, "optionalNamespaces": {}, "namespaces": namespaces,
                   "created": now, "expiry": now + lifetime}
        stored = json.loads(self.sessions_path.read_text()) if self.sessions_path.exists() else {"version": 1, "sessions": []}
        stored["sessions"].append(session)
        self.sessions_path.write_text(json.dumps(stored))
        self.sessions_path.chmod(0o600)
        return session

    def addresses(self):
        return [key["address"] for key in self.keys_json("list")["keys"]]

    # The host, as a browser starts it

    def host(self, caller=CHROME_ORIGIN, **env):
        args = []
        if caller is not None:
            args = [caller] if caller.startswith("chrome-extension://") else ["/tmp/manifest.json", caller]
        return Host(self, args, self.env(**env))

    def pinentry_records(self):
        if not self.pinentry_log.exists():
            return []
        return [json.loads(line) for line in self.pinentry_log.read_text().splitlines()]

    def pinentry_commands(self):
        return [(r["command"], r["argument"]) for r in self.pinentry_records() if "command" in r]


class FramedPipes:
    """Native-messaging frames over a process's stdin and stdout, as a browser writes and reads
    them. Everything read from stdout is kept in `stdout_record`."""

    def __init__(self, process):
        self.process = process
        self.buffer = b""
        self.next_id = 1
        self.stdout_record = b""

    def send(self, method, params=None, request_id=None):
        if request_id is None:
            request_id = self.next_id
            self.next_id += 1
        request = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            request["params"] = params
        body = json.dumps(request).encode()
        self.process.stdin.write(struct.pack("=I", len(body)) + body)
        self.process.stdin.flush()
        return request_id

    def receive(self, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            if len(self.buffer) >= 4:
                (length,) = struct.unpack("=I", self.buffer[:4])
                assert length <= 1 << 20, f"a frame header announcing {length} bytes: {self.buffer[:64]!r}"
                if len(self.buffer) >= 4 + length:
                    body = self.buffer[4:4 + length]
                    self.buffer = self.buffer[4 + length:]
                    return json.loads(body)
            remaining = deadline - time.monotonic()
            assert remaining > 0, "no reply from the host in time"
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 1 << 20)
                assert chunk, f"the host closed stdout; stderr: {self.process.stderr.read()!r}"
                self.stdout_record += chunk
                self.buffer += chunk


class Host(FramedPipes):
    """The host over real pipes. Stdin stays open until `close`, as a browser keeps it open
    while it waits for replies."""

    def __init__(self, wallet, args, env, cwd=None):
        self.wallet = wallet
        super().__init__(subprocess.Popen(
            [wallet.binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, start_new_session=True, cwd=cwd))
        # What the agent logs for this host's requests goes to its log file, not to the host's
        # stderr: `close` returns both, in that order, as a person debugging would read them.
        self.agent_log_start = len(wallet.agent_log_text())

    def call(self, method, params=None, timeout=30):
        request_id = self.send(method, params)
        reply = self.receive(timeout)
        assert reply.get("id") == request_id, reply
        return reply

    def sign(self, address, payloads, timeout=30):
        return self.call(SIGN_PAYLOADS, {"address": address, "payloads": payloads}, timeout)

    def close(self, timeout=10):
        """Closes stdin and waits for a clean exit; returns stderr and what the agent logged
        meanwhile."""
        self.process.stdin.close()
        self.process.wait(timeout)
        stderr = self.process.stderr.read()
        agent_log = self.wallet.agent_log_text()[self.agent_log_start:]
        self.wallet.outputs.append(("host stdout", self.stdout_record + self.buffer))
        self.wallet.outputs.append(("host stderr", stderr))
        self.wallet.outputs.append(("agent log", agent_log))
        assert self.process.returncode == 0, f"host exited with {self.process.returncode}: {stderr!r}"
        return (stderr + agent_log).decode()

    def terminate(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(10)
        self.wallet.outputs.append(("host stderr", self.process.stderr.read()))
        return self.process.returncode


def error_of(reply):
    assert "error" in reply, f"expected an error, got {reply}"
    return reply["error"]


def b64(data):
    return base64.b64encode(data).decode()


def process_alive(pid):
    """True while `pid` runs (a zombie counts as gone: it no longer runs anything)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


# The agent (test_agent.py): its status, its processes, its socket, and raw clients of it.

def wait_until(condition, timeout=5, interval=0.02):
    """Polls `condition` until it is true or `timeout` seconds pass; returns its last value. The
    tests' one way to wait for what a process does: the condition and a deadline, never a sleep
    that hopes it has happened by then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    return condition()


def configure(wallet, config):
    """Writes the configuration file (0600, folder 0700): the agent reads it when it starts."""
    wallet.config_path.parent.mkdir(parents=True, exist_ok=True)
    wallet.config_path.parent.chmod(0o700)
    wallet.config_path.write_text(json.dumps(config))
    wallet.config_path.chmod(0o600)


def agent_status(wallet):
    """`wallet-bridge agent status --json`: the agent's status, or None when none runs (exit 3)."""
    result = wallet.run("agent", "status", "--json", timeout=30)
    status = json.loads(result.stdout)
    if result.returncode == 3:
        assert status["running"] is False, status
        return None
    assert result.returncode == 0, result.stderr
    assert status["running"] is True, status
    return status


def audit_entries(wallet):
    """`wallet-bridge log --json`: one dict per approval or refusal, oldest first."""
    result = wallet.run("log", "--json", check=True)
    return [json.loads(line) for line in result.stdout.decode().splitlines() if line.strip()]


def proc_stat(pid):
    """(state, ppid) of `pid`, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return fields[0], int(fields[1])


def proc_arguments(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return [part.decode(errors="replace") for part in cmdline.read().split(b"\0") if part]
    except (FileNotFoundError, ProcessLookupError):
        return []


def all_pids():
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def agent_pids(keystore_path):
    """Running (not zombie) `wallet-bridge agent` processes whose command line names the keystore."""
    pids = []
    for pid in all_pids():
        arguments = proc_arguments(pid)
        if "agent" in arguments[1:] and str(keystore_path) in arguments and process_alive(pid):
            pids.append(pid)
    return sorted(pids)


def zombie_children(parents):
    """Zombie processes whose parent is one of `parents`."""
    parents = set(parents)
    zombies = []
    for pid in all_pids():
        stat = proc_stat(pid)
        if stat and stat[0] == "Z" and stat[1] in parents:
            zombies.append(pid)
    return zombies


def listens_to_the_agent(wallet, pid):
    """Whether the host `pid` listens to the agent's events: from then on it holds a shared
    lock on the agent's `ports` file, which /proc/locks shows with its pid (a host takes it
    right before it notes where it is in its events file, and hears every event after that)."""
    inodes = {path.stat().st_ino for path in (wallet.runtime / "wallet-bridge").glob("*.ports")}
    for line in Path("/proc/locks").read_text().splitlines():
        # "1: FLOCK  ADVISORY  READ 1234 fe:00:5678 0 EOF"; a lock waited for has "->" after its number.
        fields = line.split()
        if len(fields) >= 6 and fields[1] == "FLOCK" and fields[4] == str(pid):
            if int(fields[5].rsplit(":", 1)[1]) in inodes:
                return True
    return False


def wait_until_listening(wallet, *hosts, timeout=5):
    """Waits until each host (a `Host` or anything with `.host`) listens to the agent's events,
    which a port's host starts 200 ms after its first reply: no fixed sleep for it."""
    for host in hosts:
        pid = getattr(host, "host", host).process.pid
        assert wait_until(lambda: listens_to_the_agent(wallet, pid), timeout=timeout), \
            f"host {pid} did not listen to the agent's events within {timeout} s"


def agent_sockets(wallet):
    """The socket files in the test's agent folder."""
    return sorted((wallet.runtime / "wallet-bridge").glob("*.sock"))


def encode_frame(message):
    """A native-messaging frame: 4-byte native-endian length, then the UTF-8 JSON (or raw bytes)."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return struct.pack("=I", len(body)) + body


def read_frame(sock, timeout=10):
    """The next frame's JSON from a raw socket, or None when the peer closed it first."""
    sock.settimeout(timeout)
    data = b""
    while True:
        if len(data) >= 4:
            (length,) = struct.unpack("=I", data[:4])
            if len(data) >= 4 + length:
                return json.loads(data[4:4 + length])
        try:
            chunk = sock.recv(1 << 16)
        except ConnectionResetError:  # closed with bytes of ours unread: Linux says ECONNRESET
            chunk = b""
        if not chunk:
            return None
        data += chunk


def wait_for_eof(sock, timeout, started=None):
    """Reads and drops until the peer closes; returns the seconds since `started` (default: now)
    when it did. Raises socket.timeout when it has not closed `timeout` seconds after `started`."""
    started = time.monotonic() if started is None else started
    while True:
        sock.settimeout(max(0.01, timeout - (time.monotonic() - started)))
        try:
            if not sock.recv(1 << 16):
                break
        except ConnectionResetError:  # closed with bytes of ours unread: Linux says ECONNRESET
            break
    return time.monotonic() - started


def process_gone(pid):
    """True once every thread of `pid` has exited. After SIGKILL the thread-group leader shows
    as a zombie while other threads still run their exit and hold the process's descriptors
    (a listening socket still takes connections, then resets them): `process_alive` is already
    False then, this is not."""
    stat = proc_stat(pid)
    if stat is None:
        return True
    if stat[0] != "Z":
        return False
    try:
        return os.listdir(f"/proc/{pid}/task") == [str(pid)]
    except FileNotFoundError:
        return True


def fixture_case(file_name, case_name):
    """One case of a shared fixture file (Tests/Fixtures), the contract these tests share with
    the Swift and JS suites."""
    cases = json.loads((REPO / "Tests" / "Fixtures" / file_name).read_text())["cases"]
    return next(case for case in cases if case["name"] == case_name)


# EIP-712's own example (its Example.js), as ethereum.json pins it: the typed data of the case
# that sends it as an object.
EIP712_MAIL = fixture_case("ethereum.json", "sign-typed-data-object")["request"]["params"]["request"]["params"][1]
