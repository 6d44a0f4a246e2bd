"""The answer cache (docs/agent.md): a GetAccounts that a host worked out from the files is
kept for the next host, which answers it before building its router, for as long as none of
those files changed and the session lasts. Real processes, real files; each test waits until its
files are two seconds old, since a host keeps nothing from files that changed more recently."""
import json
import time

from conftest import PASSPHRASE
from wallet_helpers import CHROME_ORIGIN, FIREFOX_ID, GET_ACCOUNTS, agent_pids, configure, error_of
from test_sessions import Port, dialogs

KEPT = "GetAccounts answered from"


def settle():
    """Files a host may keep an answer from: they last changed two seconds ago or more."""
    time.sleep(2.2)


def accounts(wallet, caller=CHROME_ORIGIN, **env):
    """One sendNativeMessage: the reply, and whether it came from a kept answer (always False
    at a log level below debug, which does not say)."""
    host = wallet.host(caller, **({"WALLET_BRIDGE_LOG": "debug"} | env))
    host.send(GET_ACCOUNTS)
    host.process.stdin.close()
    reply = host.receive()
    log = host.close()
    assert "warning" not in log, log
    return reply, KEPT in log


def test_the_second_call_is_answered_from_the_answer_the_first_kept(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    settle()
    first, kept = accounts(wallet)
    assert (first["result"], kept) == ({"addresses": [key["address"]]}, False)
    second, kept = accounts(wallet)
    assert (second, kept) == (first | {"id": second["id"]}, True)
    assert agent_pids(wallet.keystore_path) == []
    # Another extension, or another environment, has an answer of its own.
    assert accounts(wallet, FIREFOX_ID)[1] is False
    assert accounts(wallet, WALLET_BRIDGE_MAX_BATCH=7)[1] is False
    assert accounts(wallet)[1] is True
    kept_files = sorted((wallet.runtime / "wallet-bridge").glob("answers-*"))
    assert len(kept_files) == 3 and all(path.stat().st_mode & 0o777 == 0o600 for path in kept_files)
    assert not any(PASSPHRASE.encode() in path.read_bytes() for path in kept_files)


def test_a_new_key_is_answered_at_once(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    settle()
    accounts(wallet)
    assert accounts(wallet)[1] is True
    second = wallet.keys_json("create", "--label", "second", "--passphrase-file", passphrase_file)
    reply, kept = accounts(wallet)
    assert (reply["result"], kept) == ({"addresses": [key["address"], second["address"]]}, False)


def test_a_debug_log_shares_the_answer_and_says_why_one_was_not_used(wallet, passphrase_file):
    """WALLET_BRIDGE_LOG is left out of the key: turning the log up to see where an answer came
    from finds the answer that hosts at the usual level kept, and names the file that changed
    when there is none to use."""
    wallet.create(passphrase_file)
    settle()
    assert "result" in accounts(wallet, WALLET_BRIDGE_LOG="warning")[0]  # the usual level keeps an answer
    assert accounts(wallet)[1] is True
    wallet.keys_json("create", "--label", "second", "--passphrase-file", passphrase_file)
    host = wallet.host(CHROME_ORIGIN, WALLET_BRIDGE_LOG="debug")
    host.send(GET_ACCOUNTS)
    host.process.stdin.close()
    assert len(host.receive()["result"]["addresses"]) == 2
    log = host.close()
    assert f"no kept answer used: {wallet.keystore_path} changed since it was kept" in log, log


def test_a_disconnected_extension_is_asked_again(wallet, passphrase_file):
    """The session is gone from the file: the kept answer no longer holds, and the agent asks
    the person (who declines here)."""
    wallet.create(passphrase_file)
    settle()
    accounts(wallet)
    assert accounts(wallet)[1] is True
    stored = json.loads(wallet.sessions_path.read_text())
    stored["sessions"] = [s for s in stored["sessions"] if s["caller"]["id"] != CHROME_ORIGIN]
    wallet.sessions_path.write_text(json.dumps(stored))
    host = wallet.host(FAKE_PINENTRY_CONNECT="refuse", WALLET_BRIDGE_LOG="debug")
    error = error_of(host.call(GET_ACCOUNTS))
    assert (error["code"], error["data"]) == (-1, {"reason": "declined"}), error
    assert KEPT not in host.close()
    assert len(dialogs(wallet, "_Allow")) == 1


def test_an_answer_is_not_kept_past_its_session(wallet, passphrase_file):
    wallet.create(passphrase_file, connect=())
    wallet.connect(CHROME_ORIGIN, lifetime=5)
    settle()
    accounts(wallet)
    assert accounts(wallet)[1] is True
    time.sleep(3)  # the session has ended
    host = wallet.host(FAKE_PINENTRY_CONNECT="refuse", WALLET_BRIDGE_LOG="debug")
    assert error_of(host.call(GET_ACCOUNTS))["data"] == {"reason": "declined"}
    assert KEPT not in host.close()


def test_a_policy_written_later_is_obeyed_at_once(wallet, passphrase_file):
    configure(wallet, {})
    wallet.create(passphrase_file)
    settle()
    accounts(wallet)
    assert accounts(wallet)[1] is True
    configure(wallet, {"allow": {FIREFOX_ID: ["*"]}})
    reply, kept = accounts(wallet)
    assert (error_of(reply)["code"], kept) == (-1, False)


def test_a_keystore_others_can_read_is_warned_about_on_every_call(wallet, passphrase_file):
    wallet.create(passphrase_file)
    settle()
    accounts(wallet)
    assert accounts(wallet)[1] is True
    wallet.keystore_path.chmod(0o644)
    settle()
    for _ in range(2):
        host = wallet.host()
        host.send(GET_ACCOUNTS)
        host.process.stdin.close()
        assert "result" in host.receive()
        assert "other users" in host.close()
    wallet.keystore_path.chmod(0o600)


def test_without_the_agent_the_keystore_wallet_keeps_its_answer_too(wallet, passphrase_file):
    configure(wallet, {"agent": False})
    key = wallet.create(passphrase_file, connect=())
    settle()
    assert accounts(wallet) == ({"jsonrpc": "2.0", "id": 1, "result": {"addresses": [key["address"]]}}, False)
    assert accounts(wallet)[1] is True
    wallet.keys("rename", key["address"], "renamed", "--passphrase-file", passphrase_file, check=True)
    assert accounts(wallet)[1] is False


def test_only_the_first_message_is_answered_from_a_kept_answer(wallet, passphrase_file):
    """A browser gives a sendNativeMessage host one message: a second one is a port's, which
    the server answers at once (reading a kept answer for every message of a port's stream was
    2.5 times as slow as the server), without waiting for the quiet period."""
    key = wallet.create(passphrase_file)
    settle()
    accounts(wallet)
    port = Port(wallet.host(WALLET_BRIDGE_LOG="debug"))
    for _ in range(3):
        assert port.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    log = port.host.close()
    assert log.count(KEPT) == 1, log
    assert log.index(KEPT) < log.index("serving"), log


def test_a_port_answered_early_builds_its_router_and_hears_events(wallet, passphrase_file):
    """A port whose first GetAccounts came from a kept answer still answers everything else,
    and hears a key made in a terminal."""
    key = wallet.create(passphrase_file)
    settle()
    accounts(wallet)
    port = Port(wallet.host(WALLET_BRIDGE_LOG="debug"))
    assert port.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    assert "result" in port.call("session_list")
    time.sleep(0.5)  # listening to the agent starts 200 ms after the first reply
    second = wallet.keys_json("create", "--label", "second", "--passphrase-file", passphrase_file)
    event = port.event("session_event", timeout=5)
    assert event["params"]["event"]["name"] == "accountsChanged"
    assert port.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"], second["address"]]}
    log = port.host.close()
    assert KEPT in log, log
