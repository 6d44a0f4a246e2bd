"""Sessions (docs/sessions.md) through the shipped `wallet-bridge` host and its agent, over real
pipes, with the scripted pinentry as the person: proposals checked before anyone is asked,
the connect dialog, requests checked against the session, solana_signMessage verified with
Python's `cryptography` and an independent base58, extension and disconnection, walletlib's
methods under sessions, persistence, and the events a port hears (a key made by another
process, a revocation in the CLI, an expiry)."""
import base64
import json
import os
import re
import stat
import time

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from conftest import PASSPHRASE
from wallet_helpers import (CHROME_ORIGIN, FIREFOX_ID, GET_ACCOUNTS, SIGN_PAYLOADS, SOLANA_MAINNET, b58encode, b64,
                            agent_pids, configure, error_of, wait_until, wait_until_listening)

DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"
TESTNET = "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z"
EXTENSION_ID = CHROME_ORIGIN.split("//")[1].strip("/")
METADATA = {"name": "Example dApp", "description": "Signs in with Solana", "url": "https://example.org", "icons": []}
PROPOSAL = {
    "requiredNamespaces": {"solana": {"chains": [SOLANA_MAINNET], "methods": ["solana_signMessage"], "events": ["accountsChanged"]}},
    "optionalNamespaces": {"solana": {"chains": [DEVNET, "solana:unsupportedchain"], "methods": ["solana_signMessage", "solana_getAccounts", "solana_fly"], "events": []}},
    "metadata": METADATA,
}


@pytest.fixture
def key(wallet, passphrase_file):
    """One key, and no extension connected yet."""
    return wallet.create(passphrase_file, label="main", connect=())


@pytest.fixture
def unlocked(wallet):
    """The scripted pinentry's answer to the passphrase question."""
    return wallet.secret_file("answers", PASSPHRASE + "\n")


def b58(address):
    return b58encode(base64.b64decode(address))


def dialogs(wallet, ok_button=None):
    """The dialogs shown (one per pinentry process): their SETOK and SETDESC."""
    shown = {}
    for record in wallet.pinentry_records():
        if record.get("command") in ("SETOK", "SETDESC"):
            shown.setdefault(record["pid"], {})[record["command"]] = record["argument"]
    return [d for d in shown.values() if ok_button is None or d.get("SETOK") == ok_button]


class Port:
    """A host kept open like a browser's port, sorting replies from notifications."""

    def __init__(self, host):
        self.host = host
        self.events = []

    def call(self, method, params=None, timeout=30):
        request_id = self.host.send(method, params)
        deadline = time.monotonic() + timeout
        while True:
            message = self.host.receive(max(0.1, deadline - time.monotonic()))
            if "id" in message:
                assert message["id"] == request_id, message
                return message
            self.events.append(message)

    def event(self, method, timeout=5):
        """The next notification called `method`, waiting at most `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            for index, message in enumerate(self.events):
                if message["method"] == method:
                    return self.events.pop(index)
            remaining = deadline - time.monotonic()
            assert remaining > 0, f"no {method} within {timeout} s; got {self.events}"
            message = self.host.receive(remaining)
            assert "id" not in message, f"an unexpected reply: {message}"
            self.events.append(message)

    def close(self):
        return self.host.close()


def connect(wallet, port, proposal=PROPOSAL):
    reply = port.call("session_connect", proposal)
    assert "result" in reply, reply
    return reply["result"]


# 1. Proposals the wallet cannot meet are refused before anyone is asked.

@pytest.mark.parametrize("required, code, data", [
    ({"cosmos": {"chains": ["cosmos:cosmoshub-4"], "methods": ["cosmos_signDirect"], "events": []}}, 5104, {"namespaces": ["cosmos"]}),
    # Supported, but the keystore holds no Ethereum key (the fixture's key is a Solana one).
    ({"eip155": {"chains": ["eip155:1"], "methods": ["personal_sign"], "events": []}}, 5103,
     {"namespaces": ["eip155"], "problem": "the wallet has no key for the eip155 namespace: `wallet-bridge keys create --type ethereum` makes one"}),
    ({"solana": {"chains": ["solana:nosuchchain"], "methods": [], "events": []}}, 5100, {"chains": ["solana:nosuchchain"]}),
    ({"solana": {"chains": [SOLANA_MAINNET], "methods": ["solana_signMessage", "solana_getBalance"], "events": []}}, 5101,
     {"methods": ["solana_getBalance"]}),
    # A method that sends: the wallet has no network, and data.problem says what to use instead.
    ({"solana": {"chains": [SOLANA_MAINNET], "methods": ["solana_signAndSendTransaction"], "events": []}}, 5101,
     {"methods": ["solana_signAndSendTransaction"],
      "problem": "the wallet has no network and sends nothing, so it offers no solana_signAndSendTransaction: "
                 "sign with solana_signTransaction, then send the signed transaction from the extension (sendTransaction)"}),
    ({"solana": {"chains": [SOLANA_MAINNET], "methods": [], "events": ["chainChanged"]}}, 5102, {"events": ["chainChanged"]}),
])
def test_an_unsupported_required_namespace_is_refused_with_its_code_and_no_dialog(wallet, key, required, code, data):
    port = Port(wallet.host())
    error = error_of(port.call("session_connect", {"requiredNamespaces": required, "metadata": METADATA}))
    assert error["code"] == code, error
    assert error["data"] == data, error
    port.close()
    assert wallet.pinentry_records() == []


@pytest.mark.parametrize("proposal, field", [
    ({"requiredNamespaces": {"solana": {"chains": "solana:x", "methods": [], "events": []}}, "metadata": METADATA},
     "requiredNamespaces.solana.chains"),
    ({"requiredNamespaces": {"solana": {"chains": [SOLANA_MAINNET], "methods": [1], "events": []}}, "metadata": METADATA},
     "requiredNamespaces.solana.methods[0]"),
    ({"requiredNamespaces": {"solana": {"chains": [SOLANA_MAINNET], "methods": [], "events": []}}}, "metadata"),
    ({"requiredNamespaces": {"solana": {"chains": [SOLANA_MAINNET], "methods": [], "events": []}}, "metadata": {"name": ""}},
     "metadata.name"),
    ({"requiredNamespaces": {"Solana": {"chains": [SOLANA_MAINNET], "methods": [], "events": []}}, "metadata": METADATA},
     "requiredNamespaces"),
    ({"metadata": METADATA}, "requiredNamespaces"),
])
def test_a_malformed_proposal_is_invalid_params_naming_the_field_and_no_dialog(wallet, key, proposal, field):
    port = Port(wallet.host())
    error = error_of(port.call("session_connect", proposal))
    assert error["code"] == -32602, error
    assert error["data"]["field"].startswith(field), error
    port.close()
    assert wallet.pinentry_records() == []


def test_a_wallet_without_keys_refuses_to_connect_with_unsupported_accounts(wallet):
    port = Port(wallet.host())
    assert error_of(port.call("session_connect", PROPOSAL))["code"] == 5103
    port.close()
    assert wallet.pinentry_records() == []


# 2. Connecting.

def test_the_connect_dialog_names_the_extension_and_marks_its_own_words_and_the_session_is_answered(wallet, key):
    port = Port(wallet.host())
    before = int(time.time())
    session = connect(wallet, port)
    assert re.fullmatch(r"[0-9a-f]{64}", session["topic"]), session
    # Required and what is left of optional, with the key on every approved chain.
    assert session["namespaces"] == {"solana": {
        "chains": [SOLANA_MAINNET, DEVNET],
        "accounts": [f"{SOLANA_MAINNET}:{b58(key['address'])}", f"{DEVNET}:{b58(key['address'])}"],
        "methods": ["solana_signMessage", "solana_getAccounts"], "events": ["accountsChanged"]}}
    assert before + 604800 <= session["expiry"] <= int(time.time()) + 604800, "7 days by default"
    assert session["self"]["metadata"]["name"] == "Example dApp"
    assert session["peer"]["metadata"]["name"] == "wallet-bridge"
    shown = dialogs(wallet, "_Connect")
    assert len(shown) == 1, wallet.pinentry_records()
    text = shown[0]["SETDESC"]
    assert text.startswith(f"The extension with ID {EXTENSION_ID}\nasks to connect to your wallet.\n"), text
    assert 'It says it is: "Example dApp", https://example.org' in text and "(its own words, not checked)" in text, text
    assert "Solana mainnet, Solana devnet" in text and "solana_signMessage" in text, text
    assert "solana_fly" not in text and "unsupportedchain" not in text, text
    # Listed for its extension only, and kept 0600 beside the keystore.
    assert port.call("session_list")["result"]["sessions"] == [session]
    other = Port(wallet.host(FIREFOX_ID))
    assert other.call("session_list")["result"] == {"sessions": []}
    other.close()
    port.close()
    assert stat.S_IMODE(os.stat(wallet.sessions_path).st_mode) == 0o600


def test_a_rejected_proposal_is_5000(wallet, key):
    port = Port(wallet.host(FAKE_PINENTRY_CONNECT="refuse"))
    error = error_of(port.call("session_connect", PROPOSAL))
    assert (error["code"], error["message"]) == (5000, "User rejected"), error
    assert port.call("session_list")["result"] == {"sessions": []}
    port.close()


def test_a_proposal_nobody_answers_expires_with_8000_and_its_dialog_closes(wallet, key):
    """The wait is the configuration's `proposal_timeout` (5 minutes unless set; docs/sessions.md)."""
    configure(wallet, {"proposal_timeout": 1})
    port = Port(wallet.host(FAKE_PINENTRY_CONNECT="hang"))
    started = time.monotonic()
    error = error_of(port.call("session_connect", PROPOSAL, timeout=15))
    assert (error["code"], error["message"]) == (8000, "Session request expired"), error
    assert 0.9 < time.monotonic() - started < 10
    dialog = dialogs(wallet, "_Connect")
    assert dialog, "no dialog was shown"
    assert wait_until(lambda: any(r.get("event") == "terminated" for r in wallet.pinentry_records()), timeout=5)
    port.close()


# 3. Requests within a session.

def test_sign_message_in_a_session_is_verified_independently(wallet, key, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(wallet, port)
    message = "Sign in to example.org\nNonce: 42".encode()
    reply = port.call("session_request", {
        "topic": session["topic"], "chainId": SOLANA_MAINNET,
        "request": {"method": "solana_signMessage", "params": {"message": b58encode(message), "pubkey": b58(key["address"])}}})
    assert "result" in reply, reply
    signature = reply["result"]["signature"]
    raw = b58_decode(signature)
    assert len(raw) == 64
    Ed25519PublicKey.from_public_bytes(base64.b64decode(key["address"])).verify(raw, message)
    signing = [d for d in dialogs(wallet) if d.get("SETOK") == "_Sign"]
    assert signing and "Sign in to example.org" in signing[-1]["SETDESC"], dialogs(wallet)
    accounts = port.call("session_request", {"topic": session["topic"], "chainId": DEVNET, "request": {"method": "solana_getAccounts"}})
    assert accounts["result"] == [{"pubkey": b58(key["address"])}]
    port.close()


def b58_decode(text):
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    number = 0
    for character in text:
        number = number * 58 + alphabet.index(character)
    body = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return b"\0" * (len(text) - len(text.lstrip("1"))) + body


def test_requests_outside_the_session_are_refused_with_their_codes(wallet, key, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(wallet, port)
    topic = session["topic"]
    sign = {"method": "solana_signMessage", "params": {"message": b58encode(b"x"), "pubkey": b58(key["address"])}}

    def code(params):
        return error_of(port.call("session_request", params))["code"]

    assert code({"topic": "0" * 64, "chainId": SOLANA_MAINNET, "request": sign}) == 7001
    assert code({"topic": topic, "chainId": TESTNET, "request": sign}) == 3005
    assert code({"topic": topic, "chainId": SOLANA_MAINNET, "request": {"method": "solana_fly"}}) == 3001
    for expiry in (int(time.time()) + 60, int(time.time()) + 8 * 86400):
        error = error_of(port.call("session_request", {"topic": topic, "chainId": SOLANA_MAINNET, "request": sign, "expiry": expiry}))
        assert (error["code"], error["data"]["field"]) == (-32602, "expiry"), error
    stranger = b58encode(bytes(range(32)))
    assert code({"topic": topic, "chainId": SOLANA_MAINNET,
                 "request": {"method": "solana_signMessage", "params": {"message": b58encode(b"x"), "pubkey": stranger}}}) == 4100
    # Another extension cannot use the topic at all.
    other = Port(wallet.host(FIREFOX_ID))
    assert error_of(other.call("session_request", {"topic": topic, "chainId": SOLANA_MAINNET, "request": sign}))["code"] == 7001
    assert error_of(other.call("session_disconnect", {"topic": topic}))["code"] == 7001
    other.close()
    assert [d for d in dialogs(wallet) if d.get("SETOK") == "_Sign"] == [], "none of these asked the person"
    port.close()


def test_a_declined_signature_in_a_session_is_4001(wallet, key, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked, FAKE_PINENTRY_CONFIRM="refuse", FAKE_PINENTRY_MODE="cancel"))
    session = connect(wallet, port)
    error = error_of(port.call("session_request", {
        "topic": session["topic"], "chainId": SOLANA_MAINNET,
        "request": {"method": "solana_signMessage", "params": {"message": b58encode(b"no"), "pubkey": b58(key["address"])}}}))
    assert (error["code"], error["message"]) == (4001, "User rejected the request"), error
    port.close()


# 4. Extend and disconnect, and what the other ports hear.

def test_extend_and_disconnect_are_heard_by_the_extensions_other_ports(wallet, key):
    configure(wallet, {"session_lifetime": 3600})
    first, second = Port(wallet.host()), Port(wallet.host())
    session = connect(wallet, first)
    connected_in = int(time.time())  # the second the agent set the expiry in, or a later one
    assert session["expiry"] <= connected_in + 3600
    assert second.call("session_list")["result"]["sessions"][0]["topic"] == session["topic"]
    wait_until_listening(wallet, second)
    # The agent counts expiries in whole seconds of the wall clock: the extended one is later
    # once that clock has moved on to the next second. Real time, but no more of it than that.
    assert wait_until(lambda: int(time.time()) > connected_in, timeout=2)
    extended = first.call("session_extend", {"topic": session["topic"]})["result"]["expiry"]
    assert extended > session["expiry"]
    update = second.event("session_update")
    assert update["params"]["topic"] == session["topic"] and update["params"]["expiry"] == extended
    assert first.call("session_disconnect", {"topic": session["topic"], "reason": {"code": 6000, "message": "bye"}})["result"] == {}
    deleted = second.event("session_delete")
    assert deleted["params"] == {"topic": session["topic"], "reason": {"code": 6000, "message": "bye"}}
    assert error_of(second.call("session_extend", {"topic": session["topic"]}))["code"] == 7001
    first.close()
    second.close()


# 5. Events a port hears from elsewhere.

def test_a_key_made_in_a_terminal_reaches_the_port_within_a_second(wallet, key, passphrase_file):
    port = Port(wallet.host())
    session = connect(wallet, port)
    wait_until_listening(wallet, port)
    made = time.monotonic()
    second = wallet.keys_json("create", "--label", "second", "--passphrase-file", passphrase_file)
    event = port.event("session_event", timeout=5)
    heard = time.monotonic() - made
    assert heard < 1.5, f"heard after {heard:.2f} s (the command itself included)"
    accounts = [f"{event['params']['chainId']}:{b58(k['address'])}" for k in (key, second)]
    assert event["params"]["topic"] == session["topic"]
    assert event["params"]["event"] == {"name": "accountsChanged", "data": accounts}
    update = port.event("session_update")
    assert f"{SOLANA_MAINNET}:{b58(second['address'])}" in update["params"]["namespaces"]["solana"]["accounts"]
    port.close()


def test_a_session_revoked_in_the_cli_is_deleted_on_the_port_and_refused_after(wallet, key):
    port = Port(wallet.host())
    session = connect(wallet, port)
    wait_until_listening(wallet, port)
    listed = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"]
    assert [s["topic"] for s in listed] == [session["topic"]] and listed[0]["caller"]["id"] == CHROME_ORIGIN
    text = wallet.run("sessions", "list", check=True).stdout.decode()
    assert session["topic"] in text and '"Example dApp"' in text and "solana_signMessage" in text, text
    assert wallet.run("sessions", "revoke", session["topic"], check=True).stdout.decode().startswith("Session")
    deleted = port.event("session_delete")
    assert deleted["params"]["reason"]["code"] == 6000
    assert error_of(port.call("session_extend", {"topic": session["topic"]}))["code"] == 7001
    assert wallet.run("sessions", "revoke", session["topic"], check=False).returncode == 1
    assert json.loads(wallet.run("sessions", "revoke-all", "--json", check=True).stdout) == {"revoked": 0}
    port.close()


def test_a_session_with_a_short_lifetime_expires_and_says_so(wallet, key):
    configure(wallet, {"session_lifetime": 2})
    port = Port(wallet.host())
    session = connect(wallet, port)
    expired = port.event("session_expire", timeout=6)
    assert expired["params"] == {"topic": session["topic"]}
    assert time.time() >= session["expiry"] - 0.01
    assert error_of(port.call("session_extend", {"topic": session["topic"]}))["code"] == 7001
    port.close()


# 6. walletlib's methods under sessions.

def test_get_accounts_asks_once_to_connect_and_then_answers_at_once(wallet, key):
    host = wallet.host()
    assert host.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    assert host.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    host.close()
    again = wallet.host()
    assert again.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    again.close()
    asked = dialogs(wallet, "_Allow")
    assert len(asked) == 1, wallet.pinentry_records()
    assert "wants to see your accounts" in asked[0]["SETDESC"] and EXTENSION_ID in asked[0]["SETDESC"], asked
    # The session it made is walletlib's: mainnet, signing, accountsChanged.
    listed = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"]
    assert listed[0]["namespaces"] == {"solana": {"chains": [SOLANA_MAINNET], "methods": ["solana_signMessage"], "events": ["accountsChanged"]}}


def one_message(host, method):
    """A request whose host's input ends right after it: the host ends after its reply and
    never starts listening to the agent's events (which would start an agent). For a request
    the host answers at once: one in flight at the end of input is cancelled."""
    host.send(method)
    host.process.stdin.close()
    reply = host.receive()
    host.close()
    return reply


def test_a_connected_extensions_accounts_are_read_from_the_files_without_the_agent(wallet, key, passphrase_file):
    """GetAccounts of an extension with a live session: the host reads the keystore's public
    part and the sessions file itself (docs/agent.md) and starts no agent; a new key shows at
    once. A session whose time is up is no session: the agent is asked, and asks the person."""
    wallet.connect(CHROME_ORIGIN)
    assert one_message(wallet.host(), GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    second = wallet.keys_json("create", "--label", "second", "--passphrase-file", passphrase_file)
    assert one_message(wallet.host(), GET_ACCOUNTS)["result"] == {"addresses": [key["address"], second["address"]]}
    assert agent_pids(wallet.keystore_path) == [], "an agent was started for a connected extension's accounts"
    assert dialogs(wallet) == []

    late = "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"
    wallet.connect(late, lifetime=-1)
    host = wallet.host(late, FAKE_PINENTRY_CONNECT="refuse")
    error = error_of(host.call(GET_ACCOUNTS))
    assert (error["code"], error["data"]) == (-1, {"reason": "declined"}), error
    host.close()
    assert len(agent_pids(wallet.keystore_path)) == 1, "the agent was not asked about an expired session"
    assert len(dialogs(wallet, "_Allow")) == 1, wallet.pinentry_records()


def test_on_an_open_port_a_session_revoked_elsewhere_ends_its_accounts_on_the_next_call(wallet, key):
    """A port's host keeps the sessions file it read (SessionsReadCache): the revocation, written
    by the agent in a terminal's request, must show on the port's very next GetAccounts, whether
    or not the port listens to the agent's events yet. Asked again, the person refuses: no
    addresses."""
    for listen in (False, True):
        wallet.run("agent", "stop", check=None)  # `connect` writes the file an agent would keep
        topic = wallet.connect(CHROME_ORIGIN)["topic"]
        port = Port(wallet.host(FAKE_PINENTRY_CONNECT="refuse"))
        for _ in range(3):
            assert port.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
        if listen:
            wait_until_listening(wallet, port)
        # The agent this starts (when none runs) asks the person again, who refuses.
        revoked = wallet.run("sessions", "revoke", topic, env=wallet.env(FAKE_PINENTRY_CONNECT="refuse"), check=True)
        assert revoked.stdout.decode().startswith("Session")
        reply = port.call(GET_ACCOUNTS)
        assert "result" not in reply, f"accounts given after the session was revoked (listening: {listen}): {reply}"
        assert (error_of(reply)["code"], error_of(reply)["data"]) == (-1, {"reason": "declined"}), reply
        port.close()


def test_with_many_sessions_a_connected_extensions_accounts_come_from_the_agent(wallet, key):
    """A sessions file too large to be worth reading in every host (docs/agent.md): the host
    asks the agent, which answers from memory without asking anyone."""
    wallet.connect(CHROME_ORIGIN)
    for number in range(12):
        wallet.connect(f"chrome-extension://{chr(97 + number) * 32}/")
    assert wallet.sessions_path.stat().st_size > 4096
    host = wallet.host()
    assert host.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    host.close()
    assert len(agent_pids(wallet.keystore_path)) == 1, "the agent was not asked"
    assert dialogs(wallet) == []


def test_a_port_that_saw_no_key_sees_the_first_one(wallet, passphrase_file):
    """An empty list is everyone's answer, connected or not, and the first key is announced
    only to connected extensions: a port must not keep answering the empty list."""
    port = Port(wallet.host())
    assert port.call(GET_ACCOUNTS)["result"] == {"addresses": []}
    wait_until_listening(wallet, port)
    assert port.call(GET_ACCOUNTS)["result"] == {"addresses": []}
    first = wallet.keys_json("create", "--label", "first", "--passphrase-file", passphrase_file)
    # No wait: the empty list was kept for requests read before it was asked for, not for this one.
    assert port.call(GET_ACCOUNTS, timeout=15)["result"] == {"addresses": [first["address"]]}  # asks once to connect
    port.close()


def test_get_accounts_refused_is_authorization_failed_declined(wallet, key):
    host = wallet.host(FAKE_PINENTRY_CONNECT="refuse")
    error = error_of(host.call(GET_ACCOUNTS))
    assert (error["code"], error["data"]) == (-1, {"reason": "declined"}), error
    host.close()


def test_sign_payloads_without_a_session_asks_to_connect_then_to_sign(wallet, key, unlocked):
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked)
    reply = host.sign(key["address"], [b64(b"first")])
    assert "result" in reply, reply
    buttons = [d.get("SETOK") for d in dialogs(wallet)]
    assert buttons == ["_Allow", "_Sign"], buttons
    host.close()


# 7. Persistence.

def test_sessions_outlive_the_agent(wallet, key):
    port = Port(wallet.host())
    session = connect(wallet, port)
    port.close()
    wallet.stop_agent()
    again = Port(wallet.host())
    assert [s["topic"] for s in again.call("session_list")["result"]["sessions"]] == [session["topic"]]
    again.close()


@pytest.mark.parametrize("how", ["mode", "owner", "link", "folder above"])
def test_a_sessions_file_others_could_have_written_is_set_aside_and_the_extension_asked_again(wallet, key, how):
    """A sessions file decides who sees the accounts without a dialog: one that other users
    could have written (it, or a folder above it), or a link, is not read by the host and is set
    aside by the agent, as a damaged one is. The extension is asked to connect again."""
    wallet.connect(CHROME_ORIGIN)
    path = wallet.sessions_path
    above = wallet.keystore_path.parent.parent
    if how == "mode":
        os.chmod(path, 0o666)
        reason = f"other users can write to the file {path} (mode 0666); run: chmod go-w {path}"
    elif how == "owner":
        os.chown(path, 12345, 12345)
        reason = f"the file {path} belongs to another user (uid 12345)"
    elif how == "link":
        real = wallet.root / "forged.sessions.json"
        os.rename(path, real)
        os.symlink(real, path)
        reason = "it is a symbolic link, not a file the wallet wrote"
    else:
        os.chmod(above, 0o777)
        reason = f"other users can write to the folder {above} (mode 0777)"
    host = wallet.host(FAKE_PINENTRY_CONNECT="refuse")
    error = error_of(host.call(GET_ACCOUNTS))
    host.close()
    if how == "folder above":
        # The keystore is refused as well: nothing to connect to.
        assert (error["code"], error["data"]["reason"]) == (-32603, "keystore_writable_by_others"), error
        os.chmod(above, 0o755)
    else:
        assert (error["code"], error["data"]) == (-1, {"reason": "declined"}), error
        assert len(dialogs(wallet, "_Allow")) == 1, "not answered from the file: the person was asked"
    log = wallet.agent_log_text().decode()
    assert f"the sessions file {path} cannot be used ({reason}" in log, log
    assert list(path.parent.glob(path.name + ".damaged-*")), "set aside, for a person to look at"


def test_a_stored_expiry_beyond_the_session_lifetime_is_cut_to_it_when_loaded(wallet, key):
    """A session in the file that would outlast what any dialog approved (a forged one, until
    2036) lasts the configured lifetime from when the agent loads it, at most."""
    configure(wallet, {"session_lifetime": 3600})
    forged = wallet.connect(CHROME_ORIGIN, lifetime=2_085_000_000 - int(time.time()))
    port = Port(wallet.host())
    listed = port.call("session_list")["result"]["sessions"]
    assert [session["topic"] for session in listed] == [forged["topic"]]
    assert listed[0]["expiry"] <= int(time.time()) + 3600, listed
    port.close()
    cli = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"]
    assert cli[0]["expiry"] <= int(time.time()) + 3600, cli
    assert "longer than the session lifetime allows" in wallet.agent_log_text().decode()


def test_a_sessions_accounts_are_not_given_from_a_keystore_others_can_change(wallet, key):
    """session_connect's accounts and a session's solana_getAccounts come from the keystore as
    GetAccounts does, and are refused the same way, with nobody asked."""
    port = Port(wallet.host())
    session = connect(wallet, port)
    asked = len(wallet.pinentry_records())
    os.chmod(wallet.keystore_path, 0o666)
    request = {"topic": session["topic"], "chainId": SOLANA_MAINNET, "request": {"method": "solana_getAccounts"}}
    proposal = {"requiredNamespaces": PROPOSAL["requiredNamespaces"], "metadata": METADATA}
    for method, params in (("session_request", request), ("session_connect", proposal)):
        error = error_of(port.call(method, params))
        assert (error["code"], error["data"]["reason"]) == (-32603, "keystore_writable_by_others"), (method, error)
    assert len(wallet.pinentry_records()) == asked, "nobody was asked"
    port.close()


def test_a_port_reuses_its_accounts_only_until_the_agent_announces_a_change(wallet, key, passphrase_file):
    """On a port the host answers GetAccounts again without asking the agent while it hears
    the agent's events and none came; a new key or a revocation is an event, and the next
    GetAccounts sees it."""
    port = Port(wallet.host())
    assert port.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}  # asks once to connect
    wait_until_listening(wallet, port)
    assert port.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
    second = wallet.keys_json("create", "--label", "second", "--passphrase-file", passphrase_file)
    port.event("session_update")
    assert port.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"], second["address"]]}
    topic = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"][0]["topic"]
    wallet.run("sessions", "revoke", topic, check=True)
    port.event("session_delete")
    assert port.call(GET_ACCOUNTS, timeout=15)["result"]["addresses"] == [key["address"], second["address"]]
    assert len(dialogs(wallet, "_Allow")) == 2, "after the revocation GetAccounts asked again"
    port.close()


def test_sessions_commands_say_when_the_agent_is_off(wallet, key):
    configure(wallet, {"agent": False})
    result = wallet.run("sessions", "list", check=False)
    assert result.returncode == 1 and b'turns the agent off ("agent": false), and with it sessions' in result.stderr, result.stderr
    port = Port(wallet.host())
    assert error_of(port.call("session_list"))["code"] == -32601, "no session methods without the agent"
    port.close()


# 8. Sessions per site (docs/sessions.md, "Sessions per site"): one extension, two sites.

SITE_A, SITE_B = "http://127.0.0.1:8123", "http://127.0.0.1:8124"


def connect_site(port, origin, name="My dApp"):
    proposal = {**PROPOSAL, "metadata": {**METADATA, "name": name}, "origin": origin}
    return connect(None, port, proposal)


def test_two_sites_of_one_extension_get_two_sessions_and_neither_sees_the_others(wallet, key):
    port = Port(wallet.host())
    a, b = connect_site(port, SITE_A, "Site A"), connect_site(port, SITE_B, "Site B")
    assert (a["origin"], b["origin"]) == (SITE_A, SITE_B)
    assert a["topic"] != b["topic"]
    # Each dialog names its site on its own line, as the extension reports it, apart from the
    # page's own words.
    shown = [d["SETDESC"] for d in dialogs(wallet, "_Connect")]
    assert len(shown) == 2, shown
    for text, site, name in ((shown[0], SITE_A, "Site A"), (shown[1], SITE_B, "Site B")):
        assert text.startswith(f"The extension with ID {EXTENSION_ID}\nasks to connect the site\n{site}\n"
                               f"(as the extension reports it) to your wallet.\nIt says it is: \"{name}\""), text

    def listed(origin=None, on=port):
        params = {"origin": origin} if origin else {}
        return [s["topic"] for s in on.call("session_list", params)["result"]["sessions"]]

    assert listed(SITE_A) == [a["topic"]] and listed(SITE_B) == [b["topic"]]
    assert listed() == [], "the extension's own sessions are not its sites'"
    other = Port(wallet.host(FIREFOX_ID))
    assert listed(SITE_A, other) == [], "another extension sees none of them, even for the same site"
    other.close()
    # Site B cannot use, extend or end site A's session: 7001, as for a topic that does not exist.
    request = {"topic": a["topic"], "chainId": SOLANA_MAINNET, "request": {"method": "solana_getAccounts"}}
    for method, params in (("session_request", {**request, "origin": SITE_B}), ("session_request", request),
                           ("session_extend", {"topic": a["topic"], "origin": SITE_B}),
                           ("session_disconnect", {"topic": a["topic"], "origin": SITE_B}),
                           ("session_disconnect", {"topic": a["topic"]})):
        error = error_of(port.call(method, params))
        assert (error["code"], error["message"]) == (7001, "No session for topic"), (method, params, error)
    assert port.call("session_request", {**request, "origin": SITE_A})["result"] == [{"pubkey": b58(key["address"])}]
    # An origin the browser would not have written is refused before anything is looked up.
    for bad in (SITE_A + "/", "HTTP://127.0.0.1:8123", "https://app.example.org:443", "127.0.0.1:8123"):
        error = error_of(port.call("session_list", {"origin": bad}))
        assert (error["code"], error["data"]["field"]) == (-32602, "origin"), error
    port.close()
    # The file keeps each session's site; the command line shows it.
    stored = json.loads(wallet.sessions_path.read_text())["sessions"]
    assert sorted(s.get("origin") for s in stored) == [SITE_A, SITE_B]
    cli = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"]
    assert sorted((s["topic"], s["origin"]) for s in cli) == sorted([(a["topic"], SITE_A), (b["topic"], SITE_B)])
    text = wallet.run("sessions", "list", check=True).stdout.decode()
    assert f"site: {SITE_A} (as the extension reported it)" in text and f"site: {SITE_B}" in text, text


def test_a_signature_in_a_sites_session_names_the_site_and_verifies(wallet, key, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect_site(port, SITE_A)
    message = b"hello from a site"
    reply = port.call("session_request", {
        "topic": session["topic"], "origin": SITE_A, "chainId": SOLANA_MAINNET,
        "request": {"method": "solana_signMessage", "params": {"message": b58encode(message), "pubkey": b58(key["address"])}}})
    assert "result" in reply, reply
    Ed25519PublicKey.from_public_bytes(base64.b64decode(key["address"])).verify(b58_decode(reply["result"]["signature"]), message)
    signing = [d["SETDESC"] for d in dialogs(wallet) if "asks to sign" in d.get("SETDESC", "")]
    assert len(signing) == 1, dialogs(wallet)
    assert signing[0].startswith(f"The extension with ID {EXTENSION_ID}\nfor the site {SITE_A} (as the extension reports it)\n"
                                 "asks to sign"), signing[0]
    port.close()


def test_a_sites_events_carry_its_origin_and_the_extensions_own_do_not(wallet, key, passphrase_file):
    port = Port(wallet.host())
    site = connect_site(port, SITE_A)
    own = connect(wallet, port)
    wait_until_listening(wallet, port)
    assert port.call("session_extend", {"topic": site["topic"], "origin": SITE_A})["result"]["expiry"] >= site["expiry"]
    update = port.event("session_update")
    assert (update["params"]["topic"], update["params"]["origin"]) == (site["topic"], SITE_A), update
    wallet.keys_json("create", "--label", "second", "--passphrase-file", passphrase_file)
    heard = {}
    while len(heard) < 2:
        event = port.event("session_event")
        heard[event["params"]["topic"]] = event["params"].get("origin")
    assert heard == {site["topic"]: SITE_A, own["topic"]: None}, heard
    port.close()


def test_revoking_a_site_ends_its_sessions_only_and_its_pages_hear_it(wallet, key):
    port = Port(wallet.host())
    a, b = connect_site(port, SITE_A), connect_site(port, SITE_B)
    other = Port(wallet.host(FIREFOX_ID))
    theirs = connect_site(other, SITE_A)
    wait_until_listening(wallet, port, other)
    result = wallet.run("sessions", "revoke", "--site", SITE_A, "--json", check=True)
    assert json.loads(result.stdout) == {"revoked": 2, "site": SITE_A}
    deleted = port.event("session_delete")
    assert deleted["params"] == {"topic": a["topic"], "origin": SITE_A, "reason": {"code": 6000, "message": "User disconnected"}}
    assert other.event("session_delete")["params"]["topic"] == theirs["topic"]
    assert [s["topic"] for s in port.call("session_list", {"origin": SITE_B})["result"]["sessions"]] == [b["topic"]]
    assert port.call("session_list", {"origin": SITE_A})["result"] == {"sessions": []}
    assert error_of(port.call("session_extend", {"topic": a["topic"], "origin": SITE_A}))["code"] == 7001
    assert [e for e in port.events if e["method"] == "session_delete"] == [], "site B's session was not ended"
    # Nothing left of the site: the command says so, and fails as revoke of an unknown topic does.
    again = wallet.run("sessions", "revoke", "--site", SITE_A, check=False)
    assert b"no live session is for the site" in again.stderr, again.stderr
    refused = wallet.run("sessions", "revoke", "--site", SITE_B + "/", check=False)
    assert b"is not a site" in refused.stderr, refused.stderr
    assert wallet.run("sessions", "revoke", check=False).returncode != 0, "a topic or --site is needed"
    port.close()
    other.close()


def test_an_allowance_for_one_site_does_not_sign_for_another(wallet, key, unlocked):
    """"Sign and allow" (the opt-in `approve_for_minutes`) lets the extension sign messages for
    a while without asking, for the site the person saw: another site of the same extension is
    still asked."""
    configure(wallet, {"approve_for_minutes": 5})
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked, FAKE_PINENTRY_CONFIRM="allow"))
    a, b = connect_site(port, SITE_A), connect_site(port, SITE_B)

    def sign(session, text):
        reply = port.call("session_request", {
            "topic": session["topic"], "origin": session["origin"], "chainId": SOLANA_MAINNET,
            "request": {"method": "solana_signMessage", "params": {"message": b58encode(text.encode()), "pubkey": b58(key["address"])}}})
        assert "result" in reply, reply

    def asked():
        return [d["SETDESC"] for d in dialogs(wallet) if "asks to sign" in d.get("SETDESC", "")]

    sign(a, "unlock")  # the passphrase: the keys are then unlocked
    sign(a, "allow")  # a confirmation, and "Sign and allow" pressed
    assert len(asked()) == 2, asked()
    sign(a, "allowed")
    assert len(asked()) == 2, "site A's allowance did not sign for site A"
    sign(b, "other site")
    assert len(asked()) == 3, "site A's allowance signed for site B without asking"
    assert f"for the site {SITE_B} (as the extension reports it)" in asked()[-1], asked()[-1]
    assert "what this site asks through this extension" in asked()[1], asked()[1]
    # Sign-in text is asked even within the allowance, led by the warning when its domain is
    # not the site (docs/sign-in.md).
    text = f"evil.example wants you to sign in with your Solana account:\n{b58(key['address'])}"
    reply = port.call("session_request", {
        "topic": a["topic"], "origin": a["origin"], "chainId": SOLANA_MAINNET,
        "request": {"method": "solana_signMessage", "params": {"message": b58encode(text.encode()), "pubkey": b58(key["address"])}}})
    assert len(asked()) == 4, "a sign-in was signed within the allowance"
    assert "This sign-in is for evil.example, but the request comes from the site " + SITE_A in asked()[-1], asked()[-1]
    # No "Sign and allow" in its dialog: the third button the fake pinentry presses is then
    # "Refuse all from this extension".
    assert "Sign and allow" not in asked()[-1], asked()[-1]
    assert reply.get("error", {}).get("code") == 4001, reply
    port.close()
