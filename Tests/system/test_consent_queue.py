"""Who waits for a dialog, and in which order (issue 33, items 5, 15 and 17), through the real
binary, its agent and the scripted pinentry: extensions take turns; one extension's flood is
refused past its own limit without touching another's requests, and counted in the audit log
rather than written out hash by hash; "Refuse all from this extension"; a batch's dialogs in
request order; and no dialog for a request sent as a notification, whose answer could go
nowhere.

Each test has its own HOME and XDG_RUNTIME_DIR (the `wallet` fixture), so its own agent."""
import base64
import json
import struct

import pytest

from conftest import PASSPHRASE
from wallet_helpers import (CHROME_ORIGIN, FIREFOX_ID, SIGN_PAYLOADS, SOLANA_MAINNET, agent_status, audit_entries, b58encode, configure,
                            b64, error_of, wait_until)


@pytest.fixture
def key(wallet, passphrase_file):
    return wallet.create(passphrase_file, label="main")


@pytest.fixture
def answers(wallet):
    return wallet.secret_file("answers", PASSPHRASE + "\n")


def descriptions(wallet):
    """The SETDESC of each dialog, in the order the dialogs were shown."""
    return [record["argument"] for record in wallet.pinentry_records() if record.get("command") == "SETDESC"]


def shown_order(wallet, labels):
    """Which of `labels` each dialog showed, in order (each payload's text is in its dialog)."""
    return [next((label for label in labels if label in description), None) for description in descriptions(wallet)]


def in_line(wallet, count):
    assert wait_until(lambda: agent_status(wallet)["signature_requests"] == count, timeout=10), agent_status(wallet)


def send_frame(host, message):
    body = json.dumps(message).encode()
    host.process.stdin.write(struct.pack("=I", len(body)) + body)
    host.process.stdin.flush()


def sign_request(address, text, request_id):
    return {"jsonrpc": "2.0", "id": request_id, "method": SIGN_PAYLOADS, "params": {"address": address, "payloads": [b64(text.encode())]}}


def test_extensions_take_turns_so_one_extensions_stream_does_not_hold_up_another(wallet, key, answers):
    release = wallet.root / "release"
    first = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers, FAKE_PINENTRY_HOLD_FILE=release)
    second = wallet.host(FIREFOX_ID)
    first.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"from-A-0")]})
    assert wait_until(lambda: descriptions(wallet), timeout=10), "the first dialog was not shown"
    for number in range(1, 4):
        first.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(f"from-A-{number}".encode())]})
        in_line(wallet, number + 1)
    second.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"from-B-0")]})
    in_line(wallet, 5)
    release.touch()
    for host, count in ((first, 4), (second, 1)):
        for _ in range(count):
            assert "result" in host.receive(timeout=30)
    first.close()
    second.close()
    labels = [f"from-A-{n}" for n in range(4)] + ["from-B-0"]
    assert shown_order(wallet, labels) == ["from-A-0", "from-B-0", "from-A-1", "from-A-2", "from-A-3"], \
        "the other extension's request waited behind the whole stream"


def test_past_its_own_limit_an_extension_is_refused_and_counted_and_another_still_waits(wallet, key, answers):
    release = wallet.root / "release"
    flood = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers, FAKE_PINENTRY_HOLD_FILE=release)
    other = wallet.host(FIREFOX_ID)
    payloads = [b64(bytes([n]) * 8) for n in range(64)]  # 64 hashes a request, before the fix
    flood.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": payloads})
    assert wait_until(lambda: descriptions(wallet), timeout=10), "the first dialog was not shown"
    for number in range(8):  # the limit: 8 waiting per extension
        flood.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": payloads})
        in_line(wallet, number + 2)
    for _ in range(40):
        assert error_of(flood.sign(key["address"], payloads, timeout=30)) == {
            "code": -3, "message": "Payload not signed", "data": {"reason": "too_many_waiting"}}
    other.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"from-the-other")]})
    in_line(wallet, 10)
    release.touch()
    assert "result" in other.receive(timeout=60), "the other extension was refused for the first one's flood"
    for _ in range(9):
        assert "result" in flood.receive(timeout=60)
    flood.close()
    other.close()
    wallet.stop_agent()  # the agent writes what it counted as it ends

    entries = audit_entries(wallet)
    refused = [entry for entry in entries if entry["decision"] == "too_many_waiting"]
    assert sum(entry["count"] for entry in refused) == 40, refused
    assert len(refused) <= 2, "one line per unasked refusal"
    assert all("payload_sha256" not in entry for entry in refused), "unasked refusals written with every hash"
    assert sum(entry["payload_count"] for entry in refused) == 40 * 64
    assert [entry["decision"] for entry in entries].count("approved") == 10
    assert "refused unasked" in wallet.run("log", check=True).stdout.decode()


def test_refuse_all_from_this_extension_refuses_its_next_requests_unasked_and_no_one_elses(wallet, key, answers):
    first = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers, FAKE_PINENTRY_CONFIRM="allow")  # presses the third button
    assert "result" in first.sign(key["address"], [b64(b"unlock")])
    assert error_of(first.sign(key["address"], [b64(b"refuse-all-here")])) == {
        "code": -3, "message": "Payload not signed", "data": {"reason": "declined"}}
    notok = [record["argument"] for record in wallet.pinentry_records() if record.get("command") == "SETNOTOK"]
    assert notok == ["Refuse _all from this extension"], notok
    shown = len(descriptions(wallet))
    for text in ("after-1", "after-2"):
        assert error_of(first.sign(key["address"], [b64(text.encode())])) == {
            "code": -3, "message": "Payload not signed", "data": {"reason": "declined"}}
    assert len(descriptions(wallet)) == shown, "a request of the refused extension was shown"
    other = wallet.host(FIREFOX_ID)
    other.sign(key["address"], [b64(b"from-the-other")])
    assert len(descriptions(wallet)) == shown + 1, "another extension's request was not shown"
    first.close()
    other.close()
    wallet.stop_agent()

    entries = audit_entries(wallet)
    assert [entry["decision"] for entry in entries][:2] == ["approved", "declined"]
    unasked = [entry for entry in entries if entry["decision"] == "refused_all"]
    assert sum(entry["count"] for entry in unasked) == 2, entries
    assert all(CHROME_ORIGIN.split("//")[1].strip("/") in entry["caller"] for entry in unasked)


def test_refuse_all_ends_the_rest_of_a_batch_without_a_dialog(wallet, key, answers):
    """Each entry of a batch gets the whole request timeout from its own turn, so a long batch
    could keep dialogs coming for a long time: "Refuse all from this extension" on one of them
    refuses every entry after it at once, unasked (SECURITY.md, consent). Through the agent,
    whose unlocked keys make each entry a confirmation (the scripted pinentry presses the third
    button of a confirmation only)."""
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers, FAKE_PINENTRY_CONFIRM="allow")  # presses the third button
    assert "result" in host.sign(key["address"], [b64(b"unlock")])
    shown = len(descriptions(wallet))
    batch = [sign_request(key["address"], f"long-batch-{n}", 500 + n) for n in range(6)]
    send_frame(host, batch)
    reply = host.receive(timeout=60)
    assert [entry["id"] for entry in reply] == [entry["id"] for entry in batch]
    assert all(entry.get("error", {}).get("code") == -3 for entry in reply), reply
    assert len(descriptions(wallet)) == shown + 1, "a dialog after Refuse all"
    assert shown_order(wallet, ["long-batch-0"])[-1] == "long-batch-0", "the first entry's dialog was the one shown"
    host.close()
    wallet.stop_agent()
    entries = audit_entries(wallet)
    assert [entry["decision"] for entry in entries].count("declined") == 1, entries
    unasked = [entry for entry in entries if entry["decision"] == "refused_all"]
    assert sum(entry["count"] for entry in unasked) == 5, entries


@pytest.mark.parametrize("agent", [True, False])
def test_a_batchs_dialogs_come_in_request_order(wallet, key, answers, agent):
    if not agent:
        configure(wallet, {"agent": False})
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    assert "result" in host.sign(key["address"], [b64(b"unlock")])
    labels = []
    for round_number in range(4):
        batch = [sign_request(key["address"], f"batch-{round_number}-{n}", 100 * round_number + n) for n in range(4)]
        labels += [f"batch-{round_number}-{n}" for n in range(4)]
        send_frame(host, batch)
        reply = host.receive(timeout=60)
        assert [entry["id"] for entry in reply] == [entry["id"] for entry in batch]
        assert all("result" in entry for entry in reply), reply
    host.close()
    order = [label for label in shown_order(wallet, labels) if label]
    assert order == labels, "a batch's dialogs came out of request order"


def test_a_request_that_asks_the_person_sent_as_a_notification_asks_no_one(wallet, passphrase_file, answers):
    key = wallet.create(passphrase_file, label="main", connect=(CHROME_ORIGIN,))
    topic = json.loads(wallet.sessions_path.read_text())["sessions"][0]["topic"]
    pubkey = b58encode(base64.b64decode(key["address"]))
    connected = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    send_frame(connected, {"jsonrpc": "2.0", "method": "session_request", "params": {
        "topic": topic, "chainId": SOLANA_MAINNET,
        "request": {"method": "solana_signMessage", "params": {"message": b58encode(b"lost"), "pubkey": pubkey}}}})
    stranger = wallet.host(FIREFOX_ID)
    proposal = {"requiredNamespaces": {"solana": {"chains": [SOLANA_MAINNET], "methods": ["solana_signMessage"], "events": []}},
                "metadata": {"name": "Nobody hears", "description": "", "url": "https://example.org", "icons": []}}
    send_frame(stranger, {"jsonrpc": "2.0", "method": "session_connect", "params": proposal})
    send_frame(stranger, [{"jsonrpc": "2.0", "method": "session_connect", "params": proposal},
                          {"jsonrpc": "2.0", "method": SIGN_PAYLOADS, "params": {"address": key["address"], "payloads": [b64(b"x")]}}])
    # A later request with an id, on the same port: the first dialog, and the only one, is its
    # own; the session it makes is the only one. Had a notification asked, its dialog and its
    # session came first (one queue, in arrival order).
    assert "result" in connected.call("session_list")
    asked = {**proposal, "metadata": {**proposal["metadata"], "name": "Asked with an id"}}
    assert "result" in stranger.call("session_connect", asked)
    shown = descriptions(wallet)
    assert len(shown) == 1 and "Asked with an id" in shown[0], shown
    sessions = stranger.call("session_list")["result"]["sessions"]
    assert len(sessions) == 1 and "Asked with an id" in json.dumps(sessions), sessions
    # Each of the four notifications was turned away, not run.
    stderr = stranger.close() + connected.close()
    assert stderr.count("sent as a notification (no id) is ignored") == 4, stderr
    assert len(descriptions(wallet)) == 1


def test_a_host_without_the_agent_limits_an_extension_too_and_counts_what_it_refused_unasked(wallet, key, answers):
    configure(wallet, {"agent": False})
    release = wallet.root / "never-released"
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers, FAKE_PINENTRY_HOLD_FILE=release)
    host.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"first")]})
    assert wait_until(lambda: descriptions(wallet), timeout=10), "the first dialog was not shown"
    for number in range(8 + 5):
        host.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(f"more-{number}".encode())] * 3})
    refused = [host.receive(timeout=30) for _ in range(5)]
    assert all(error_of(reply)["data"] == {"reason": "too_many_waiting"} for reply in refused), refused
    # The browser closes the port with the dialog up: the 9 requests are cancelled, 8 of them
    # before their dialog, one with it up. Nobody answered any: all counted, none a line with
    # hashes (a caller that leaves as its dialog comes cannot fill the log).
    host.close()
    entries = audit_entries(wallet)
    counted = [entry for entry in entries if entry["decision"] == "too_many_waiting"]
    assert sum(entry["count"] for entry in counted) == 5, entries
    assert sum(entry["payload_count"] for entry in counted) == 15
    cancelled = [entry for entry in entries if entry["decision"] == "cancelled"]
    assert all("count" in entry and "payload_sha256" not in entry for entry in cancelled), entries
    assert sum(entry["count"] for entry in cancelled) == 9, entries
    assert len(entries) <= 4, entries


@pytest.mark.parametrize("agent", [True, False])
def test_what_was_counted_is_written_when_the_host_or_agent_ends(wallet, key, agent):
    configure(wallet, {"agent": agent})
    host = wallet.host(WALLET_BRIDGE_PINENTRY="/nonexistent/pinentry")  # nobody can be asked
    for number in range(5):
        reply = host.sign(key["address"], [b64(f"unasked-{number}".encode())] * 2)
        assert error_of(reply)["data"]["reason"] == "no_passphrase_prompt", reply
    host.close()
    if agent:
        wallet.stop_agent()
    counted = [entry for entry in audit_entries(wallet) if entry["decision"] == "no_prompt"]
    assert sum(entry["count"] for entry in counted) == 5, counted
    assert sum(entry["payload_count"] for entry in counted) == 10
    assert len(counted) == 2, "the first at once, the others counted in one line"
