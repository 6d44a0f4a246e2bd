"""The wallet agent through the real binary: the hosts a browser starts hand signatures and
sessions to one long-lived `wallet-bridge agent` per keystore, which keeps the keys unlocked
for a while after one passphrase and asks for a confirmation for each later signature.

Each test has its own HOME and XDG_RUNTIME_DIR, so its own agent; the `wallet` fixture stops it at
the end. The agent keeps the environment of the host that started it: the scripted pinentry's
variables go to the first host of a test (or of a test's phase, after `wallet.stop_agent()`)."""
import base64
import hashlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from conftest import PASSPHRASE
from test_wallet import verify
from wallet_helpers import (CHROME_ORIGIN, SOLANA_MAINNET, b58encode, FIREFOX_ID, GET_ACCOUNTS, SIGN_PAYLOADS, Host, agent_pids, agent_sockets, agent_status, audit_entries,
                            b64, configure, encode_frame, error_of, process_alive, process_gone, proc_stat, read_frame, wait_for_eof,
                            wait_until, zombie_children)

EXTENSION_ID = CHROME_ORIGIN.split("//")[1].strip("/")
# A request every host hands to the agent, on the connection it keeps, starting the agent when
# none runs: what these tests send to reach it. GetAccounts of a connected extension does not
# reach it: the host reads the accounts from the agent's own files (docs/agent.md).
SESSION_LIST = "session_list"


@pytest.fixture
def answers(wallet):
    """The fake pinentry's answers, one per GETPIN."""
    def write(*lines):
        return wallet.secret_file("answers", "".join(line + "\n" for line in lines))
    return write


@pytest.fixture
def key(wallet, passphrase_file):
    return wallet.create(passphrase_file, label="main")


def commands(wallet, name):
    return [record for record in wallet.pinentry_records() if record.get("command") == name]


def count(wallet, name):
    return len(commands(wallet, name))


def signs(host, key, payloads, timeout=30):
    """Signs `payloads` through `host` and checks every signature independently."""
    reply = host.sign(key["address"], [b64(p) for p in payloads], timeout)
    assert "result" in reply, reply
    signed = reply["result"]["signed_payloads"]
    assert len(signed) == len(payloads)
    for payload, signed_payload in zip(payloads, signed):
        verify(key["address"], payload, signed_payload)


def dialogs_by_pid(wallet):
    """pid -> the commands that pinentry process was sent, in order."""
    dialogs = {}
    for record in wallet.pinentry_records():
        if "command" in record:
            dialogs.setdefault(record["pid"], []).append((record["command"], record["argument"]))
    return dialogs


def wait_listening(wallet, ports, timeout=10):
    """Waits until each of `ports` listens for the agent's events: its host holds the shared
    flock on the agent's `ports` file (docs/agent.md, Limits), as /proc/locks shows."""
    def holders():
        # The one keystore's agent folder is this test's own (XDG_RUNTIME_DIR): one ports file.
        files = list((wallet.runtime / "wallet-bridge").glob("*.ports"))
        if len(files) != 1:
            return set()
        inode = str(files[0].stat().st_ino)
        held = set()
        with open("/proc/locks") as locks:
            for line in locks:  # "1: FLOCK  ADVISORY  READ  PID MAJ:MIN:INODE 0 EOF"; a waiter's has "->"
                fields = line.split()
                if len(fields) >= 6 and fields[1:4] == ["FLOCK", "ADVISORY", "READ"] and fields[5].split(":")[-1] == inode:
                    held.add(int(fields[4]))
        return held
    pids = {port.process.pid for port in ports}
    assert wait_until(lambda: pids <= holders(), timeout), f"{len(pids - holders())} of {len(pids)} ports do not listen"


def the_agent(wallet):
    """The one running agent's pid, from its status; checked against /proc."""
    status = agent_status(wallet)
    assert status is not None, "no agent runs"
    assert agent_pids(wallet.keystore_path) == [status["pid"]]
    return status["pid"]


# 1. Unlock once, confirm each signature; `lock` wipes the key.

def test_one_passphrase_then_a_confirmation_for_each_signature_and_lock_asks_again(wallet, key, answers):
    pinentry = answers(PASSPHRASE)
    requests = [[f"request {n}".encode(), os.urandom(40 + n)] for n in range(11)]
    # The unlocking signature, then ten more through three hosts in a row.
    hosts = [wallet.host(FAKE_PINENTRY_PASSPHRASES=pinentry)] + [wallet.host() for _ in range(2)]
    for number, payloads in enumerate(requests):
        host = hosts[min(number // 4, 2)]
        signs(host, key, payloads)
        if number == 0:
            assert (count(wallet, "GETPIN"), count(wallet, "CONFIRM")) == (1, 0)
        if number in (3, 7):
            host.close()
    hosts[2].close()

    assert count(wallet, "GETPIN") == 1, "one passphrase for all eleven signatures"
    assert count(wallet, "CONFIRM") == 10, "a confirmation for each signature after the unlock"
    dialogs = dialogs_by_pid(wallet)
    assert len(dialogs) == 11, "one dialog per signature"
    confirmations = [sent for sent in dialogs.values() if ("CONFIRM", "") in sent]
    for sent in confirmations:
        assert ("SETOK", "_Sign") in sent and ("SETCANCEL", "_Refuse") in sent, sent
        assert "GETPIN" not in [command for command, _ in sent]
        (description,) = [argument for command, argument in sent if command == "SETDESC"]
        assert EXTENSION_ID in description and '"main"' in description and "2 payloads" in description

    entries = audit_entries(wallet)
    assert len(entries) == 11, entries
    assert [entry["approval"] for entry in entries] == ["passphrase"] + ["confirmation"] * 10
    for entry, payloads in zip(entries, requests):
        assert entry["decision"] == "approved"
        assert EXTENSION_ID in entry["caller"]
        assert (entry["address"], entry["label"], entry["payload_count"]) == (key["address"], "main", 2)
        assert entry["payload_sha256"] == [hashlib.sha256(p).hexdigest() for p in payloads]
        assert entry["payload_list_sha256"] == hashlib.sha256(b"".join(hashlib.sha256(p).digest() for p in payloads)).hexdigest()

    assert agent_status(wallet)["unlocked"] is True
    locked = wallet.run("lock", check=True).stdout.decode()
    assert locked.startswith("Locked"), locked
    assert agent_status(wallet)["unlocked"] is False
    assert json.loads(wallet.run("lock", "--json", check=True).stdout) == {
        "agent_running": True, "was_unlocked": False, "keystore": str(wallet.keystore_path)}
    host = wallet.host()
    signs(host, key, [b"after the lock"])
    host.close()
    assert count(wallet, "GETPIN") == 2, "the passphrase is asked again after `lock`"
    assert count(wallet, "CONFIRM") == 10
    assert audit_entries(wallet)[-1]["approval"] == "passphrase"
    assert json.loads(wallet.run("agent", "stop", "--json", check=True).stdout) == {"was_running": True, "keystore": str(wallet.keystore_path)}
    assert wait_until(lambda: agent_status(wallet) is None, timeout=5)
    assert json.loads(wallet.run("agent", "stop", "--json", check=True).stdout)["was_running"] is False
    assert json.loads(wallet.run("lock", "--json", check=True).stdout)["agent_running"] is False


# 2. The unlock's lifetimes.

def test_the_keys_lock_after_cache_ttl_without_use(wallet, key, answers):
    configure(wallet, {"cache_ttl": 1})
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    signs(host, key, [b"first"])
    status = agent_status(wallet)
    assert (status["cache_ttl"], status["max_cache_ttl"]) == (1, 7200)
    assert status["unlocked"] is True and status["locks_at"] <= status["unlocked_at"] + 2, status
    assert wait_until(lambda: agent_status(wallet)["unlocked"] is False, timeout=5), "still unlocked 5 s after a 1 s cache_ttl"
    signs(host, key, [b"second"])
    host.close()
    assert count(wallet, "GETPIN") == 2 and count(wallet, "CONFIRM") == 0


def test_the_keys_lock_after_max_cache_ttl_even_in_use(wallet, key, answers):
    ttl = 2
    configure(wallet, {"cache_ttl": ttl, "max_cache_ttl": ttl})  # used every quarter of it: only the maximum can lock
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    signs(host, key, [b"unlock"])
    unlocked = time.monotonic()
    status = agent_status(wallet)
    assert status["locks_at_latest"] - status["unlocked_at"] == ttl, status
    relocked_after = None
    while time.monotonic() - unlocked < 3 * ttl:
        # Real time: the agent, a process of its own, counts its cache lifetimes in it.
        time.sleep(ttl / 4)
        signs(host, key, [b"in use"])
        if count(wallet, "GETPIN") == 2:
            relocked_after = time.monotonic() - unlocked
            break
    host.close()
    assert relocked_after is not None, "no passphrase asked again within 6 s of a 2 s max_cache_ttl"
    assert relocked_after >= 1.9, f"asked again after {relocked_after:.1f} s, before max_cache_ttl"
    assert count(wallet, "CONFIRM") >= 2, "the keys were in use (confirmed) before the maximum passed"
    assert [e["approval"] for e in audit_entries(wallet)][-1] == "passphrase"


# 3. Refusing the confirmation.

def test_refusing_the_confirmation_is_declined_and_recorded(wallet, key, answers):
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE), FAKE_PINENTRY_CONFIRM="refuse")
    signs(host, key, [b"unlock"])
    assert error_of(host.sign(key["address"], [b64(b"refused")])) == {
        "code": -3, "message": "Payload not signed", "data": {"reason": "declined"}}
    host.close()
    assert count(wallet, "GETPIN") == 1 and count(wallet, "CONFIRM") == 1, "the keys were unlocked: only a confirmation"
    entries = audit_entries(wallet)
    assert [e["decision"] for e in entries] == ["approved", "declined"], entries
    assert entries[1]["payload_sha256"] == [hashlib.sha256(b"refused").hexdigest()]
    assert "approval" not in entries[1]
    human = wallet.run("log", check=True).stdout.decode()
    assert "declined" in human


# 4. One agent only.

def test_eight_hosts_starting_at_once_share_one_agent(wallet, key):
    hosts = [wallet.host() for _ in range(8)]
    gate = threading.Barrier(len(hosts))
    errors = []

    def ask(host):
        try:
            gate.wait(10)
            host.send(SESSION_LIST)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=ask, args=(host,)) for host in hosts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert not errors, errors
    for host in hosts:
        reply = host.receive(timeout=15)
        assert "sessions" in reply.get("result", {}), reply
    answered = time.monotonic()
    # Agents that lost the race for the lock exit at once (status 0); one serves.
    assert wait_until(lambda: len(agent_pids(wallet.keystore_path)) == 1, timeout=2), \
        f"agents serving the keystore: {agent_pids(wallet.keystore_path)}"
    agents = agent_pids(wallet.keystore_path)
    assert agent_status(wallet)["pid"] == agents[0]
    # A window, not a condition: what is checked is that nothing happens in it. Two seconds: the
    # hosts' kept connections to the agent close that long after their last call (AgentClient's
    # keptIdleTimeout), which must neither end the agent nor start another.
    time.sleep(max(0.0, 2 - (time.monotonic() - answered)))
    assert agent_pids(wallet.keystore_path) == agents, "an extra agent appeared or the agent went away"
    host_pids = [host.process.pid for host in hosts]
    zombies = {pid: proc_stat(pid) for pid in zombie_children(host_pids + agents)}  # looked at while the hosts run
    for host in hosts:
        assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
        host.close()
    assert agent_pids(wallet.keystore_path) == agents
    assert len(agent_sockets(wallet)) == 1
    assert zombies == {}, (f"2 s after the race, {len(zombies)} exited agents were left unreaped (zombies) by the hosts "
                           f"that started them: pid -> (state, parent) {zombies}; hosts {host_pids}")


def test_connections_one_after_another_reuse_the_agents_threads(wallet, key):
    """A thread that served a connection serves the next: thirty cold calls one after another
    are served by the threads the agent already had (each is looked at while its host is
    connected), and eight held at once still get eight."""
    first = wallet.host()
    assert "result" in first.call(SESSION_LIST)
    pid = the_agent(wallet)

    def threads():
        return set(os.listdir(f"/proc/{pid}/task"))
    seen = threads()  # the one that served `first` included
    first.close()
    for _ in range(30):
        host = wallet.host()
        assert "result" in host.call(SESSION_LIST)
        seen |= threads()
        host.close()
    assert len(seen) <= len(threads()) + 1, f"{len(seen)} threads served 30 connections one after another"
    held = [wallet.host() for _ in range(8)]
    for host in held:
        assert "result" in host.call(SESSION_LIST)
    assert len(threads()) >= 8, "eight connections held at once need eight threads"
    for host in held:
        host.close()


# 5. Detached from its host.

def test_the_agent_outlives_its_host_in_a_session_of_its_own(wallet, key):
    host = wallet.host()
    assert "result" in host.call(SESSION_LIST)
    host_pid = host.process.pid
    host_sid = os.getsid(host_pid)
    host_pipes = {os.readlink(f"/proc/{host_pid}/fd/{fd}") for fd in (0, 1, 2)}
    assert all(target.startswith("pipe:") for target in host_pipes), host_pipes
    pid = the_agent(wallet)

    def descriptors():
        folder = f"/proc/{pid}/fd"
        targets = {}
        for fd in os.listdir(folder):
            try:
                targets[int(fd)] = os.readlink(f"{folder}/{fd}")
            except FileNotFoundError:  # closed meanwhile (the status command's connection, say)
                pass
        return targets

    fds = descriptors()
    assert fds[0] == "/dev/null" and fds[1] == "/dev/null", fds
    log_prefix = str(wallet.home / ".local" / "state" / "wallet-bridge" / "agent")
    assert fds[2].startswith(log_prefix) and fds[2].endswith(".log"), f"stderr is not the agent's log: {fds}"
    assert not host_pipes & set(fds.values()), f"the agent holds the host's pipes: {fds}"
    host.close()

    assert process_alive(pid), "the agent ended with its host"
    assert os.getsid(pid) != host_sid and os.getsid(pid) == pid, "the agent leads a session of its own"
    assert os.getpgid(pid) != os.getpgid(os.getpid())
    assert not host_pipes & set(descriptors().values())
    assert agent_status(wallet)["pid"] == pid

    # A browser may kill the host's whole process group: the agent is not in it.
    other = wallet.host()
    assert "result" in other.call(SESSION_LIST)
    os.killpg(other.process.pid, signal.SIGKILL)
    other.process.wait(10)
    # No wait: a process SIGKILLed runs no more of its own code, so the agent answering after
    # the kill is the proof that it was not in the group.
    again = wallet.host()
    assert "result" in again.call(SESSION_LIST)
    again.close()
    assert agent_status(wallet)["pid"] == pid
    assert process_alive(pid)


# 6. SIGKILL of the agent at random moments.

def test_sigkill_of_the_agent_at_random_moments_never_hangs_or_damages_the_keystore(wallet, key, passphrase_file, answers):
    pinentry = answers(PASSPHRASE)
    keys_before = wallet.keys_json("list")["keys"]
    seed = int(os.environ.get("WALLET_BRIDGE_CRASH_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    outcomes = {"signed": 0, "listed": 0, "agent unavailable": 0, "not signed": 0}
    previous = None
    for iteration in range(10):
        where = f"seed {seed}, iteration {iteration}"
        host = wallet.host(FAKE_PINENTRY_PASSPHRASES=pinentry)  # whichever host starts the agent
        reply = host.call(SESSION_LIST, timeout=15)
        assert len(reply.get("result", {}).get("sessions", [])) == 1, \
            f"{where}: {reply}; agents {agent_pids(wallet.keystore_path)}; agent log: {wallet.agent_log_text()[-3000:]!r}"
        agents = agent_pids(wallet.keystore_path)
        assert len(agents) == 1, f"{where}: {agents}"
        pid = agents[0]
        assert pid != previous, f"{where}: the killed agent still answers"
        payload = os.urandom(24)
        signing = iteration % 3 != 2
        if signing:
            host.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(payload)]})
        else:
            host.send(SESSION_LIST)
        time.sleep(rng.uniform(0, 0.05))  # a random moment of the request: real time is what the kill lands in
        os.kill(pid, signal.SIGKILL)
        reply = host.receive(timeout=15)  # never hangs
        if "result" in reply:
            if signing:
                verify(key["address"], payload, reply["result"]["signed_payloads"][0])
                outcomes["signed"] += 1
            else:
                assert len(reply["result"]["sessions"]) == 1, where
                outcomes["listed"] += 1
        else:
            code = error_of(reply)["code"]
            assert code in (-32005, -3), f"{where}: {reply}"
            outcomes["agent unavailable" if code == -32005 else "not signed"] += 1
            if code == -32005:
                assert reply["error"]["message"] == "Agent unavailable", reply
        host.close()
        # Every thread gone: a host that connects while the killed agent's threads still exit
        # reaches its dying listener (ECONNRESET, -32005 not_responding, no retry).
        assert wait_until(lambda: process_gone(pid), timeout=5), f"{where}: SIGKILL did not end the agent"
        previous = pid
    print(f"\nkills: seed {seed}, {outcomes}")

    # A stale socket, left by an agent killed while idle, is replaced by the next one.
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=pinentry)
    assert "result" in host.call(SESSION_LIST)
    pid = the_agent(wallet)
    assert pid != previous
    host.close()
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: process_gone(pid), timeout=5)
    (stale,) = agent_sockets(wallet)
    raw = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with pytest.raises(ConnectionRefusedError):
        raw.connect(str(stale))
    raw.close()
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=pinentry)
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
    signs(host, key, [b"after the kills"])
    host.close()
    new = the_agent(wallet)
    assert new != pid
    assert agent_sockets(wallet) == [stale]

    wallet.keys("verify", "--passphrase-file", passphrase_file, check=True)
    assert wallet.keys_json("list")["keys"] == keys_before, "the keystore changed"


# 7. Idle exit.

def test_an_idle_agent_with_locked_keys_exits_and_removes_its_socket(wallet, key):
    idle_exit = 1
    configure(wallet, {"agent_idle_exit": idle_exit})
    host = wallet.host()
    assert "result" in host.call(SESSION_LIST)
    pid = the_agent(wallet)
    assert agent_status(wallet)["idle_exit_after"] == idle_exit
    (sock,) = agent_sockets(wallet)
    # Past the idle exit, in real time: what a process of its own counts it in.
    time.sleep(idle_exit * 1.5)
    assert process_alive(pid), "the agent ended while a host was connected"
    host.close()
    assert wait_until(lambda: not process_alive(pid), timeout=3.5), "idle agent still runs 3.5 s after its last host left"
    assert not sock.exists(), "the idle agent left its socket"
    assert agent_status(wallet) is None


def test_an_idle_agent_with_unlocked_keys_stays_until_they_are_locked(wallet, key, answers):
    idle_exit = 1
    configure(wallet, {"agent_idle_exit": idle_exit, "cache_ttl": 600})
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    signs(host, key, [b"unlock"])
    pid = the_agent(wallet)
    host.close()
    # Well past the idle exit, in real time: what a process of its own counts it in.
    time.sleep(idle_exit * 2.5)
    assert process_alive(pid), "the agent ended with the keys unlocked"
    assert agent_status(wallet)["unlocked"] is True
    assert wallet.run("lock", check=True).stdout.decode().startswith("Locked")
    assert wait_until(lambda: not process_alive(pid), timeout=3.5), "idle agent still runs 3.5 s after the lock"
    assert agent_sockets(wallet) == []


# 8. A bad client blocks nobody.

def test_garbage_and_silent_clients_block_no_one_and_are_closed(wallet, key):
    host = wallet.host()
    assert "result" in host.call(SESSION_LIST)
    (path,) = agent_sockets(wallet)
    opened = time.monotonic()
    clients = {}
    for name, data in (("garbage", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"), ("not json", encode_frame(b"\x00\xffnot json")),
                       ("silent", b""), ("100 MB header", (100 * 1024 * 1024).to_bytes(4, "little"))):
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(str(path))
        if data:
            client.sendall(data)
        clients[name] = client

    started = time.monotonic()
    other = wallet.host()
    assert "result" in other.call(SESSION_LIST, timeout=5)
    elapsed = time.monotonic() - started
    assert elapsed < 2, f"a new host's first request to the agent took {elapsed:.2f} s beside bad clients"
    started = time.monotonic()
    assert "result" in host.call(SESSION_LIST, timeout=5)
    assert time.monotonic() - started < 2
    other.close()

    reply = read_frame(clients["not json"], timeout=6)
    assert reply is not None and reply["error"]["code"] == -32600, reply
    for name, client in clients.items():
        try:
            closed_after = wait_for_eof(client, timeout=7, started=opened)
        except socket.timeout:
            pytest.fail(f"the agent kept the {name} connection open for 7 s")
        if name == "silent":
            assert closed_after >= 4, f"the silent client was closed after {closed_after:.1f} s, before the hello timeout"
        client.close()
    assert "result" in host.call(SESSION_LIST)
    host.close()


# 9. The versioned hello.

def hello(client, keystore, version=1, request_id=0):
    client.sendall(encode_frame({"jsonrpc": "2.0", "id": request_id, "method": "agent.hello", "params": {
        "version": version, "arguments": [CHROME_ORIGIN], "browser_pid": None, "keystore": keystore}}))
    return read_frame(client)


def test_the_hello_names_a_version_and_a_keystore(wallet, key):
    host = wallet.host()
    assert "result" in host.call(SESSION_LIST)
    host.close()
    status = agent_status(wallet)
    keystore = status["keystore"]
    assert keystore == str(wallet.keystore_path)

    def connect():
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        client.connect(status["socket"])
        return client

    client = connect()
    reply = hello(client, keystore, version=99)
    assert reply["id"] == 0 and reply["error"]["code"] == -32602, reply
    assert reply["error"]["message"] == "Unsupported protocol version"
    assert reply["error"]["data"] == {"supported": 1}
    wait_for_eof(client, timeout=3)
    client.close()

    client = connect()
    reply = hello(client, str(wallet.root / "other" / "keystore.json"))
    assert reply["error"]["code"] == -32602 and reply["error"]["message"] == "Another keystore", reply
    assert reply["error"]["data"] == {"serves": keystore}
    wait_for_eof(client, timeout=3)
    client.close()

    client = connect()  # and the right one is served
    assert hello(client, keystore) == {"jsonrpc": "2.0", "id": 0, "result": {"version": 1, "pid": status["pid"]}}
    client.sendall(encode_frame({"jsonrpc": "2.0", "id": 1, "method": GET_ACCOUNTS}))
    assert read_frame(client) == {"jsonrpc": "2.0", "id": 1, "result": {"addresses": [key["address"]]}}
    client.close()


# 10. One dialog at a time.

def assert_no_overlap(records):
    alive = set()
    for record in records:
        if record.get("event") == "start":
            assert not alive, f"pinentry {record['pid']} started while {alive} still ran"
            alive.add(record["pid"])
        elif record.get("event") in ("exit", "terminated"):
            alive.discard(record["pid"])
    assert not alive


@pytest.mark.parametrize("initially", ["locked", "unlocked"])
def test_dialogs_of_concurrent_hosts_never_overlap(wallet, key, answers, initially):
    hosts = [wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))] + [wallet.host() for _ in range(2)]
    for host in hosts:  # the first starts the agent, which takes its scripted answers
        assert "result" in host.call(SESSION_LIST)
    if initially == "unlocked":
        signs(hosts[0], key, [b"unlock"])
    before = len(wallet.pinentry_records())
    payloads = {}
    for number, host in enumerate(hosts):
        payloads[host] = f"from host {number}".encode()
        host.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(payloads[host])]})
    for host in hosts:
        reply = host.receive(timeout=30)
        assert "result" in reply, reply
        verify(key["address"], payloads[host], reply["result"]["signed_payloads"][0])
        host.close()

    records = wallet.pinentry_records()
    assert_no_overlap(records)
    round_records = records[before:]
    assert [r["event"] for r in round_records if r.get("event") == "start"] == ["start"] * 3
    expected = (1, 2) if initially == "locked" else (0, 3)
    got = tuple(sum(1 for r in round_records if r.get("command") == c) for c in ("GETPIN", "CONFIRM"))
    assert got == expected, f"(GETPIN, CONFIRM) = {got}"


# 11. An abandoned request closes its dialog.

def test_a_host_that_leaves_or_times_out_closes_its_dialog_in_the_agent(wallet, key, answers):
    first = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE), FAKE_PINENTRY_CONFIRM="hang")
    signs(first, key, [b"unlock"])
    first.close()
    pid = the_agent(wallet)

    def confirm_dialog(shown_before):
        dialogs = wait_until(lambda: commands(wallet, "CONFIRM")[shown_before:], timeout=10)
        assert dialogs, "no confirmation was shown"
        return dialogs[0]["pid"]

    def closed(dialog):
        return any(r["pid"] == dialog and r.get("event") in ("terminated", "exit") for r in wallet.pinentry_records())

    leaving = wallet.host()
    leaving.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"abandoned")]})
    dialog = confirm_dialog(0)
    assert process_alive(dialog)
    waiting = wallet.host()  # behind the hanging dialog
    waiting.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"waits its turn")]})
    assert wait_until(lambda: agent_status(wallet)["signature_requests"] == 2, timeout=5), agent_status(wallet)
    waiting.close()
    assert wait_until(lambda: agent_status(wallet)["signature_requests"] == 1, timeout=5), "a waiter whose host left stayed in line"
    assert process_alive(dialog) and commands(wallet, "CONFIRM")[1:] == [], "the waiter that left was shown"
    leaving.close()
    assert wait_until(lambda: closed(dialog), timeout=3), "the dialog stayed open after its host left"
    assert wait_until(lambda: agent_status(wallet)["signature_requests"] == 0, timeout=5)
    assert wait_until(lambda: not process_alive(dialog), timeout=3)
    assert [r for r in wallet.pinentry_records() if r["pid"] == dialog and r.get("event") == "terminated"][0]["signal"] == 15

    timing_out = wallet.host(WALLET_BRIDGE_REQUEST_TIMEOUT_MS=1000)
    started = time.monotonic()
    assert error_of(timing_out.sign(key["address"], [b64(b"too slow")], timeout=10))["code"] == -32001
    assert time.monotonic() - started < 5
    dialog = confirm_dialog(1)
    assert wait_until(lambda: closed(dialog), timeout=3), "the dialog stayed open after its request timed out"
    assert wait_until(lambda: not process_alive(dialog), timeout=3)
    assert timing_out.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
    timing_out.close()

    assert agent_status(wallet)["pid"] == pid, "the agent went away"
    another = wallet.host()
    assert "result" in another.call(SESSION_LIST, timeout=5)
    another.close()


# 12. No agent.

def test_without_the_agent_the_host_signs_by_itself_asking_every_time(wallet, key, answers):
    configure(wallet, {"agent": False})
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
    for number in range(3):
        signs(host, key, [f"payload {number}".encode()])
        assert count(wallet, "GETPIN") == number + 1
    assert agent_pids(wallet.keystore_path) == [], "an agent was started"
    assert agent_sockets(wallet) == []
    host.close()
    assert count(wallet, "CONFIRM") == 0
    assert agent_status(wallet) is None
    assert agent_pids(wallet.keystore_path) == []


# 13. No agent can start, or none may be used.

@pytest.mark.parametrize("problem", ["missing-parent", "open-to-others"])
def test_an_agent_that_cannot_start_is_agent_unavailable_and_the_host_keeps_serving(wallet, key, problem):
    """missing-parent: XDG_RUNTIME_DIR's parent does not exist, so the agent cannot make its
    folder and exits 1: "cannot_start", with data.fix naming the agent's log. open-to-others: a
    socket folder other users can reach is refused by the host before anything is started or
    sent (docs/agent.md, Security): "unsafe_socket"."""
    # Short, so that the socket path fits in sun_path and the folder is what fails.
    scratch = tempfile.TemporaryDirectory(prefix="wb-")
    try:
        check_an_agent_that_cannot_start(wallet, key, problem, Path(scratch.name))
    finally:
        scratch.cleanup()


def check_an_agent_that_cannot_start(wallet, key, problem, scratch):
    log_folder = wallet.home / ".local" / "state" / "wallet-bridge"
    if problem == "missing-parent":
        runtime = scratch / "no-such-folder" / "run"
        reason, logged = "cannot_start", "cannot create the agent's folder"
    else:
        runtime = scratch / "run"
        folder = runtime / "wallet-bridge"
        folder.mkdir(parents=True)
        folder.chmod(0o777)
        reason, logged = "unsafe_socket", f"run `chmod 700 {folder}`"
    host = wallet.host(XDG_RUNTIME_DIR=runtime)
    started = time.monotonic()
    # A connected extension's accounts need no agent: the host reads them from the files.
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
    for request in (SESSION_LIST, SIGN_PAYLOADS):
        params = {"address": key["address"], "payloads": [b64(b"x")]} if request == SIGN_PAYLOADS else None
        error = error_of(host.call(request, params, timeout=15))
        assert (error["code"], error["message"]) == (-32005, "Agent unavailable"), error
        assert error["data"]["reason"] == reason, error
        assert error["data"]["problem"], error
        if reason == "cannot_start":
            assert re.search(re.escape(str(log_folder)) + r"/agent(-[0-9a-f]{16})?\.log", error["data"]["fix"]), error
            # The agent's own reason, with what to do about a runtime folder that is gone.
            assert f"XDG_RUNTIME_DIR names {runtime}, which does not exist" in error["data"]["problem"], error
        else:
            assert logged in error["data"]["fix"], error
    assert time.monotonic() - started < 10
    assert error_of(host.call("custom.method"))["code"] == -32601, "the host keeps serving"
    stderr = host.close()
    assert logged in stderr or logged in wallet.agent_log_text().decode(), stderr
    if reason == "unsafe_socket":
        assert wallet.agent_log_text() == b"", "an agent was started for an unsafe folder"
        assert list(folder.iterdir()) == []
    assert agent_pids(wallet.keystore_path) == []
    assert wallet.pinentry_records() == []


# 13. What a person sees of how the agent runs.

def test_an_agent_started_with_a_passphrase_file_says_it_signs_unattended(wallet, key, passphrase_file):
    host = wallet.host(WALLET_BRIDGE_PASSPHRASE_FILE=passphrase_file)
    assert "result" in host.call(SESSION_LIST)
    host.close()
    assert agent_status(wallet)["unattended"] is True
    text = wallet.run("agent", "status", check=True).stdout.decode()
    assert "signs without asking anyone" in text, text
    wallet.stop_agent()
    plain = wallet.host()
    assert "result" in plain.call(SESSION_LIST)
    plain.close()
    assert agent_status(wallet)["unattended"] is False
    assert "signs without asking" not in wallet.run("agent", "status", check=True).stdout.decode()


def test_a_configuration_file_named_on_purpose_that_is_missing_refuses_every_call(wallet, key):
    missing = wallet.root / "no-such-config.json"
    host = wallet.host(WALLET_BRIDGE_CONFIG=str(missing))
    error = error_of(host.call(GET_ACCOUNTS))
    assert error["code"] == -1, error
    stderr = host.close()
    assert f"{missing}" in stderr and "does not exist, and WALLET_BRIDGE_CONFIG names it" in stderr, stderr
    off = wallet.root / "off.json"
    off.write_text('{"agent": false}')
    off.chmod(0o600)
    result = wallet.run("agent", "status", env=wallet.env(WALLET_BRIDGE_CONFIG=str(off)))
    assert result.returncode == 3
    assert 'turns the agent off ("agent": false)' in result.stdout.decode(), result.stdout


def test_a_killed_agent_takes_its_open_dialog_with_it(wallet, key, answers):
    """An agent killed outright cannot close its dialog; pinentry runs under a guard that ends
    it when the agent's end of its socket closes (a dialog answering nobody must not stay up)."""
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE), FAKE_PINENTRY_CONFIRM="hang")
    signs(host, key, [b"unlock"])
    pid = the_agent(wallet)
    host.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"left open")]})
    dialogs = wait_until(lambda: commands(wallet, "CONFIRM"), timeout=10)
    assert dialogs, "no confirmation was shown"
    dialog = dialogs[0]["pid"]
    assert process_alive(dialog)
    os.kill(pid, signal.SIGKILL)
    assert error_of(host.receive(timeout=15))["code"] == -32005
    assert wait_until(lambda: not process_alive(dialog), timeout=3), f"pinentry {dialog} outlived the agent killed under it"
    assert [r for r in wallet.pinentry_records() if r["pid"] == dialog and r.get("event") == "terminated"][0]["signal"] == 15
    host.close()


# 14. No extension can take the agent from the command line or from another extension
# (docs/agent.md, Limits).

PER_CALLER = 32  # connections one extension may hold at once


def raw_client(path, keystore, arguments, control=False):
    """A connection to the agent that said hello as a host of `arguments` would; with its
    answer (None when the agent closed it without one)."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(path)
    params = {"version": 1, "arguments": arguments, "browser_pid": None, "keystore": keystore}
    if control:
        params["control"] = True
    try:
        client.sendall(encode_frame({"jsonrpc": "2.0", "id": 0, "method": "agent.hello", "params": params}))
        return client, read_frame(client, timeout=10)
    except (BrokenPipeError, ConnectionResetError):
        return client, None


def unlocked_agent(wallet, key, answers):
    """Unlocks the keys through a host (one signature) and returns the agent's status."""
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    signs(host, key, [b"unlock"])
    host.close()
    status = agent_status(wallet)
    assert status["unlocked"] is True
    return status


def test_one_extension_with_hundreds_of_connections_leaves_room_for_lock_stop_and_others(wallet, key, answers):
    status = unlocked_agent(wallet, key, answers)
    path, keystore = status["socket"], status["keystore"]
    # Silent connections besides (a client that has not said hello yet), then 140 of one extension.
    silent = [socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(20)]
    for client in silent:
        client.connect(path)
    held, refused = [], []
    for _ in range(140):
        client, reply = raw_client(path, keystore, [CHROME_ORIGIN])
        (held if reply is not None and "result" in reply else refused).append((client, reply))
    assert len(held) == PER_CALLER, f"{len(held)} connections of one extension were served"
    for client, reply in refused:
        assert reply is not None, "a connection over the extension's limit was closed without a word"
        assert reply["error"]["code"] == -32005 and reply["error"]["data"]["reason"] == "too_many_connections", reply
        assert reply["error"]["data"]["limit"] == PER_CALLER, reply

    # The command line gets through, and so does another extension.
    started = time.monotonic()
    assert agent_status(wallet)["pid"] == status["pid"]
    other = wallet.host(caller=FIREFOX_ID)
    assert "result" in other.call(SESSION_LIST, timeout=10)
    other.close()
    text = wallet.run("agent", "status", check=True).stdout.decode()
    assert "clients connected" in text, text
    assert json.loads(wallet.run("lock", "--json", check=True).stdout)["was_unlocked"] is True
    assert agent_status(wallet)["unlocked"] is False
    assert time.monotonic() - started < 10
    # The extension's own hosts learn why they got no answer.
    refused_host = wallet.host()
    error = error_of(refused_host.call(SESSION_LIST, timeout=15))
    assert (error["code"], error["data"]["reason"]) == (-32005, "too_many_connections"), error
    # Its wait for events is no warning (it tries again), and never Swift's own text.
    logged = refused_host.close()
    assert "unavailable(" not in logged and "events" not in logged, logged
    assert json.loads(wallet.run("agent", "stop", "--json", check=True).stdout)["was_running"] is True
    assert wait_until(lambda: process_gone(status["pid"]), timeout=5), "the agent did not stop"
    for client, _ in held + refused:
        client.close()
    for client in silent:
        client.close()


def test_more_ports_of_one_extension_than_its_connections_calling_at_once_are_all_answered(wallet, key, answers):
    """130 ports of one extension (it may hold 32 connections) each send a call that asks
    nobody at the same moment: each is answered, those refused at first waiting their turn
    (docs/agent.md, Limits), not -32005; meanwhile `lock` and another extension get through, and
    no port logs the agent's refusals as a warning."""
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    signs(host, key, [b"unlock"])
    host.close()
    ports = [wallet.host() for _ in range(130)]
    sent = [port.send(SESSION_LIST) for port in ports]
    # While the ports' calls are under way: the command line and another extension.
    assert json.loads(wallet.run("lock", "--json", check=True).stdout)["was_unlocked"] is True
    other = wallet.host(caller=FIREFOX_ID)
    assert "result" in other.call(SESSION_LIST, timeout=10)
    other.close()
    refused = []
    for number, (port, request_id) in enumerate(zip(ports, sent)):
        reply = port.receive(timeout=30)
        assert reply.get("id") == request_id, reply
        if "result" not in reply:
            refused.append((number, reply))
    wait_listening(wallet, ports)  # from 200 ms after a port's first reply
    logs = [port.close() for port in ports]
    warned = [logged for logged in logs if "unavailable(" in logged or "events" in logged]
    assert warned == [], f"{len(warned)} of {len(ports)} ports logged about events, as: {warned[0]}"
    assert refused == [], f"{len(refused)} of {len(ports)} ports were refused: {refused[:3]}"
    assert json.loads(wallet.run("agent", "stop", "--json", check=True).stdout)["was_running"] is True


def test_an_open_port_starts_no_agent_after_agent_stop_and_hears_the_next_ones_events(wallet, key):
    """`agent stop` with a port open: no agent runs until a request needs one (the port's host
    only watches the agent's folder), and the port hears the events of the agent that request
    starts."""
    port = wallet.host()
    assert "result" in port.call(SESSION_LIST, timeout=30)
    first = the_agent(wallet)
    wait_listening(wallet, [port])  # from 200 ms after its first reply
    assert json.loads(wallet.run("agent", "stop", "--json", check=True).stdout)["was_running"] is True
    assert wait_until(lambda: process_gone(first), timeout=5), "the agent did not stop"
    # Before the fix, the port's host started a new agent a second after the socket went.
    assert not wait_until(lambda: agent_pids(wallet.keystore_path), timeout=3), "an agent started with no request"
    assert agent_status(wallet) is None
    # A request that needs the agent starts one; the port hears its events.
    assert "result" in port.call(SESSION_LIST, timeout=30)
    second = the_agent(wallet)
    assert second != first
    listed = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"]
    (session,) = [s for s in listed if s["caller"]["id"] == CHROME_ORIGIN]
    wallet.run("sessions", "revoke", session["topic"], check=True)
    event = port.receive(timeout=10)
    assert event.get("method") == "session_delete" and event["params"]["topic"] == session["topic"], event
    logged = port.close()
    assert "unavailable(" not in logged, logged


def test_every_exit_status_of_agent_status_is_documented_and_a_bad_folder_says_how_to_fix_it(wallet, key):
    """`agent status` exits 0 (an agent runs), 3 (none does), 1 (it cannot ask: here, an agent
    folder others can reach); docs/agent.md and `--help` name each, and the message says how to
    fix it."""
    seen = {}
    seen[wallet.run("agent", "status").returncode] = "none"
    host = wallet.host()
    assert "result" in host.call(SESSION_LIST, timeout=30)
    seen[wallet.run("agent", "status").returncode] = "running"
    host.close()
    wallet.stop_agent()
    folder = wallet.runtime / "wallet-bridge"
    folder.chmod(0o755)
    bad = wallet.run("agent", "status")
    seen[bad.returncode] = "bad folder"
    assert f"chmod 700 {folder}" in bad.stderr.decode(), bad.stderr
    folder.chmod(0o700)
    assert seen == {3: "none", 0: "running", 1: "bad folder"}, seen
    docs = (Path(__file__).resolve().parents[2] / "docs" / "agent.md").read_text()
    (sentence,) = [line for line in docs.split("\n\n") if line.startswith("`agent status` exits")]
    help_text = wallet.run("agent", "status", "--help", check=True).stdout.decode()
    for status in seen:
        assert re.search(rf"\b{status}\b", sentence), (status, sentence)
        assert re.search(rf"\b{status}\b", help_text.split("Exit status")[1]), (status, help_text)
    # Each status with its meaning, the bad folder among those of 1.
    meanings = {0: r"\b0 when an agent runs", 3: r"\b3 when none does", 1: r"\b1 when it cannot ask:\s+the\s+agent's\s+folder\s+is\s+not\s+safe"}
    for status, meaning in meanings.items():
        assert re.search(meaning, sentence), (status, meaning, sentence)


PENDING = 64  # connections that have not said hello yet
CALLERS = 128  # connections of every extension together


def test_lock_and_stop_get_through_when_every_slot_of_the_agents_socket_is_taken(wallet, key, answers):
    """Silent connections in every pre-hello slot, and the extensions' connections in every slot
    of theirs: `lock` and `agent stop` still reach the agent (its control socket), at once."""
    status = unlocked_agent(wallet, key, answers)
    path, keystore = status["socket"], status["keystore"]
    held = []
    for number in range(CALLERS // PER_CALLER):
        for _ in range(PER_CALLER):
            client, reply = raw_client(path, keystore, [f"chrome-extension://{chr(ord('a') + number) * 32}/"])
            assert reply is not None and "result" in reply, reply
            held.append(client)
    client, reply = raw_client(path, keystore, [FIREFOX_ID])
    assert reply["error"]["data"]["reason"] == "too_many_connections", reply
    client.close()
    silent = [socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) for _ in range(PENDING)]
    for client in silent:
        client.connect(path)
    started = time.monotonic()
    # The agent takes no more on its socket: the next connection is closed unanswered.
    extra, reply = raw_client(path, keystore, [CHROME_ORIGIN], control=True)
    assert reply is None, reply
    extra.close()
    assert json.loads(wallet.run("lock", "--json", check=True).stdout)["was_unlocked"] is True
    assert json.loads(wallet.run("agent", "status", "--json", check=True).stdout)["unlocked"] is False
    assert json.loads(wallet.run("agent", "stop", "--json", check=True).stdout)["was_running"] is True
    assert time.monotonic() - started < 4, "within the silent connections' hello deadline"
    assert wait_until(lambda: process_gone(status["pid"]), timeout=5), "the agent did not stop"
    assert not os.path.exists(path) and not os.path.exists(path[:-len(".sock")] + ".ctl"), "a socket outlived the agent"
    for client in held + silent:
        client.close()


def test_the_ports_of_one_extension_hear_its_events_without_a_connection_each(wallet, key):
    """Forty ports of one extension (more than it may hold connections) all hear a session
    ended in the command line, and the agent holds no connection per port for it."""
    ports = [wallet.host() for _ in range(40)]
    for port in ports:  # read from the agent's files: no connection to it
        assert port.call(GET_ACCOUNTS, timeout=30)["result"]["addresses"] == [key["address"]]
    wait_listening(wallet, ports)  # from 200 ms after a port's first reply
    listed = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"]
    (session,) = [s for s in listed if s["caller"]["id"] == CHROME_ORIGIN]
    clients = agent_status(wallet)["clients"]
    assert clients <= 3, f"{clients} connections for 40 ports"
    wallet.run("sessions", "revoke", session["topic"], check=True)
    for number, port in enumerate(ports):
        event = port.receive(timeout=10)
        assert event.get("method") == "session_delete" and event["params"]["topic"] == session["topic"], (number, event)
    for port in ports:
        port.close()


# 15. Frames of a size a host can send, within a deadline.

def test_a_frame_larger_than_a_host_can_send_is_refused_at_once(wallet, key):
    host = wallet.host()
    assert "result" in host.call(SESSION_LIST)
    host.close()
    status = agent_status(wallet)
    client, reply = raw_client(status["socket"], status["keystore"], [CHROME_ORIGIN])
    assert "result" in reply, reply
    client.sendall((2 * 1024 * 1024).to_bytes(4, "little") + b"{")
    reply = read_frame(client, timeout=5)
    assert reply is not None and reply["error"]["code"] == -32004, reply
    wait_for_eof(client, timeout=3)
    client.close()
    # The hello itself is small.
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(status["socket"])
    client.sendall((256 * 1024).to_bytes(4, "little") + b"{")
    reply = read_frame(client, timeout=5)
    assert reply is not None and reply["error"]["code"] == -32004, reply
    client.close()


def test_a_frame_begun_and_not_finished_is_cut_off_after_the_read_deadline(wallet, key):
    host = wallet.host(WALLET_BRIDGE_AGENT_READ_TIMEOUT_MS=300)  # the agent takes its starter's environment
    assert "result" in host.call(SESSION_LIST)
    status = agent_status(wallet)
    idle, reply = raw_client(status["socket"], status["keystore"], [CHROME_ORIGIN])
    assert "result" in reply
    partial, reply = raw_client(status["socket"], status["keystore"], [CHROME_ORIGIN])
    assert "result" in reply
    partial.sendall((1000).to_bytes(4, "little") + b'{"jsonrpc"')
    started = time.monotonic()
    wait_for_eof(partial, timeout=5)
    assert time.monotonic() - started < 3
    # A connection between frames is not cut off: a host's kept connection waits for its next call.
    idle.sendall(encode_frame({"jsonrpc": "2.0", "id": 1, "method": SESSION_LIST}))
    assert "result" in read_frame(idle, timeout=5)
    assert "result" in host.call(SESSION_LIST)
    host.close()
    idle.close()
    partial.close()


# 16. Where it runs.

def test_the_agent_runs_in_the_root_folder_not_its_starters(wallet, key, tmp_path):
    folder = tmp_path / "the host's folder"
    folder.mkdir()
    host = Host(wallet, [CHROME_ORIGIN], wallet.env(), cwd=folder)
    assert "result" in host.call(SESSION_LIST)
    pid = the_agent(wallet)
    assert os.readlink(f"/proc/{host.process.pid}/cwd") == str(folder)
    assert os.readlink(f"/proc/{pid}/cwd") == "/"
    host.close()


def test_relative_paths_in_the_agents_environment_mean_its_starters_folder(wallet, key, tmp_path, answers):
    """The agent works in `/`, but a relative WALLET_BRIDGE_PASSPHRASE_FILE, WALLET_BRIDGE_PINENTRY
    or PATH entry it was started with names a file of the folder its starter ran in."""
    folder = tmp_path / "starter"
    (folder / "bin").mkdir(parents=True)
    (folder / "pass.txt").write_text(PASSPHRASE + "\n")
    (folder / "pass.txt").chmod(0o600)
    host = Host(wallet, [CHROME_ORIGIN], wallet.env(WALLET_BRIDGE_PASSPHRASE_FILE="pass.txt"), cwd=folder)
    signs(host, key, [b"unattended, from a relative file"])
    host.close()
    assert agent_status(wallet)["unattended"] is True
    wallet.stop_agent()
    # pinentry by a relative path, and by its name in a relative PATH folder.
    os.symlink(Path(wallet.env()["WALLET_BRIDGE_PINENTRY"]), folder / "bin" / "my-pinentry")
    for pinentry, path in (("bin/my-pinentry", os.environ["PATH"]), ("my-pinentry", "bin:" + os.environ["PATH"])):
        env = wallet.env(WALLET_BRIDGE_PINENTRY=pinentry, PATH=path, FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
        host = Host(wallet, [CHROME_ORIGIN], env, cwd=folder)
        signs(host, key, [f"asked by {pinentry}".encode()])
        host.close()
        assert count(wallet, "GETPIN") >= 1, pinentry
        wallet.stop_agent()
        wallet.pinentry_log.unlink(missing_ok=True)


def test_without_a_runtime_folder_the_socket_is_in_a_private_folder_of_the_home(wallet, key):
    cache = Path(tempfile.mkdtemp(prefix="wb-"))  # short: the socket path must fit in sun_path
    try:
        env = wallet.env(XDG_RUNTIME_DIR=None, XDG_CACHE_HOME=cache)
        host = Host(wallet, [CHROME_ORIGIN], env)
        assert "result" in host.call(SESSION_LIST)
        host.close()
        status = json.loads(wallet.run("agent", "status", "--json", env=env).stdout)
        socket_path = Path(status["socket"])
        assert socket_path.parent == cache / "wallet-bridge" / "run", status
        info = socket_path.parent.stat()
        assert (info.st_mode & 0o777, info.st_uid) == (0o700, os.getuid())
        assert not str(socket_path).startswith("/tmp/wallet-bridge-")
        wallet.run("agent", "stop", env=env, check=True)
    finally:
        subprocess.run(["rm", "-rf", str(cache)])


# 17. What an extension sends is bounded before it is decoded.

def test_sign_message_refuses_an_overlong_message_or_pubkey_before_decoding_it(wallet, key):
    host = wallet.host()
    (session,) = [s for s in host.call(SESSION_LIST)["result"]["sessions"]]
    pubkey = b58encode(base64.b64decode(key["address"]))

    def sign(message, pubkey):
        started = time.monotonic()
        reply = host.call("session_request", {"topic": session["topic"], "chainId": SOLANA_MAINNET, "request": {
            "method": "solana_signMessage", "params": {"message": message, "pubkey": pubkey}}}, timeout=60)
        return error_of(reply), time.monotonic() - started

    error, took = sign("z" * 200_000, pubkey)
    assert error["code"] == -32602 and "request.params.message" in json.dumps(error), error
    assert took < 1, f"{took:.1f} s to refuse a 200,000-character message"
    error, took = sign(b58encode(b"hello"), "z" * 200_000)
    assert error["code"] == -32602 and "request.params.pubkey" in json.dumps(error), error
    assert took < 1, f"{took:.1f} s to refuse a 200,000-character pubkey"
    # The longest message allowed is decoded in well under a second.
    longest = b58encode(b"\xff" * 16384)
    error, took = sign(longest + "z", pubkey)
    assert error["code"] == -32602 and "request.params.message" in json.dumps(error), error
    assert took < 1, f"{took:.1f} s for a message one character too long"
    host.close()
