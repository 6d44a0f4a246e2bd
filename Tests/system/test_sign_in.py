"""Sign-ins (docs/sign-in.md) through the shipped `wallet-bridge` host and its agent, over real
pipes, with the scripted pinentry as the person: a `personal_sign` of a Sign-In with Ethereum
message (EIP-4361) and `solana_signIn` (Sign In With Solana) shown as sign-ins and checked
against the site the session belongs to. Every signature is checked independently: eth-account
recovers the signer of the EIP-191 message, `cryptography` verifies the Ed25519 signature over
the exact text. The EIP's own ABNF, read by the `abnf` package's generic parser (with its
RFC 3986, RFC 3339 and RFC 5234 rules, as the `siwe` package builds its parser), judges every
message the wallet shows as a sign-in, and every malformed one it shows as plain text. A
sign-in for another domain leads its dialog with the warning (the scripted pinentry's record)
and the audit log records it; a real pinentry-gtk2 shows it on an Xvfb display, photographed.

`siwe` itself is not installed: every release pins eth-account below the 0.14 the other tests
use (siwe 4.4.0: eth-account >=0.13.1,<0.14), so the grammar it is built on is used instead.
"""
import json
import shutil
from typing import ClassVar, List

import abnf
import pytest
from abnf.grammars import rfc3339, rfc3986, rfc5234
from abnf.grammars.misc import load_grammar_rules
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from eth_account import Account
from eth_account.messages import encode_defunct

from conftest import PASSPHRASE
from test_agent_desktop import BrowserStandIn, EXTENSION_ID, display, photograph, wait_for_window, xdotool  # noqa: F401
from test_sessions import Port, b58, b58_decode, dialogs
from wallet_helpers import SOLANA_MAINNET, audit_entries, error_of

SITE = "http://127.0.0.1:8123"
ETHEREUM = "eip155:1"


@load_grammar_rules([
    # RFC 3986 (rule names are case-insensitive: the EIP's `uri` is RFC 3986's `URI`).
    ("URI", rfc3986.Rule("URI")), ("authority", rfc3986.Rule("authority")), ("scheme", rfc3986.Rule("scheme")),
    ("reserved", rfc3986.Rule("reserved")), ("unreserved", rfc3986.Rule("unreserved")), ("pchar", rfc3986.Rule("pchar")),
    ("LF", rfc5234.Rule("LF")), ("HEXDIG", rfc5234.Rule("HEXDIG")), ("ALPHA", rfc5234.Rule("ALPHA")),
    ("DIGIT", rfc5234.Rule("DIGIT")), ("date-time", rfc3339.Rule("date-time")),
])
class EIP4361(abnf.Rule):
    """The ABNF of EIP-4361 ("ABNF Message Format"), as the EIP writes it."""
    grammar: ClassVar[List] = [
        'sign-in-with-ethereum = [ scheme "://" ] domain %s" wants you to sign in with your Ethereum account:" LF '
        'address LF LF [ statement LF ] LF %s"URI: " uri LF %s"Version: " version LF %s"Chain ID: " chain-id LF '
        '%s"Nonce: " nonce LF %s"Issued At: " issued-at [ LF %s"Expiration Time: " expiration-time ] '
        '[ LF %s"Not Before: " not-before ] [ LF %s"Request ID: " request-id ] [ LF %s"Resources:" resources ]',
        "domain = authority",
        'address = "0x" 40*40HEXDIG',
        'statement = *( reserved / unreserved / " " )',
        'version = "1"',
        "chain-id = 1*DIGIT",
        "nonce = 8*( ALPHA / DIGIT )",
        "issued-at = date-time",
        "expiration-time = date-time",
        "not-before = date-time",
        "request-id = *pchar",
        "resources = *( LF resource )",
        'resource = "- " URI',
    ]


def eip4361_fields(message):
    """The message's fields by the EIP's grammar; raises abnf.ParseError when it does not parse."""
    node = EIP4361("sign-in-with-ethereum").parse_all(message)
    return {child.name: child.value for child in node.children}


@pytest.fixture
def keys(wallet, passphrase_file):
    """A Solana key and an Ethereum key, and no extension connected yet."""
    solana = wallet.create(passphrase_file, label="main", connect=())
    ethereum = wallet.keys_json("create", "--type", "ethereum", "--label", "eth", "--passphrase-file", passphrase_file)
    return {"solana": solana, "ethereum": ethereum}


@pytest.fixture
def unlocked(wallet):
    return wallet.secret_file("answers", PASSPHRASE + "\n")


def connect(port, origin=SITE):
    proposal = {
        "requiredNamespaces": {
            "solana": {"chains": [SOLANA_MAINNET], "methods": ["solana_signIn", "solana_signMessage"], "events": []},
            "eip155": {"chains": [ETHEREUM], "methods": ["personal_sign"], "events": []},
        },
        "metadata": {"name": "Example dApp", "description": "", "url": "https://example.org", "icons": []},
    }
    if origin is not None:
        proposal["origin"] = origin
    reply = port.call("session_connect", proposal)
    assert "result" in reply, reply
    return reply["result"]


def call(port, session, chain, method, params, origin=SITE):
    request = {"topic": session["topic"], "chainId": chain, "request": {"method": method, "params": params}}
    if origin is not None:
        request["origin"] = origin
    return port.call("session_request", request)


def siwe(domain, address, uri=None, chain="1", statement="I accept the Terms of Service: https://example.org/tos"):
    lines = [f"{domain} wants you to sign in with your Ethereum account:", address, ""]
    if statement:
        lines += [statement, ""]
    lines += [f"URI: {uri or 'http://' + domain + '/login'}", "Version: 1", f"Chain ID: {chain}", "Nonce: 8dKr2nYpQw9z",
              "Issued At: 2026-11-28T09:15:00Z", "Expiration Time: 2026-11-28T09:25:00.5+01:00", "Resources:",
              "- https://example.org/claims/1"]
    return "\n".join(lines)


def personal_sign(port, session, text, address, origin=SITE):
    reply = call(port, session, ETHEREUM, "personal_sign", ["0x" + text.encode().hex(), address], origin)
    assert "result" in reply, reply
    signature = reply["result"]
    assert Account.recover_message(encode_defunct(text=text), signature=signature) == address
    return signature


def last_signing_dialog(wallet):
    """The lines of the last signature dialog, from the one that says what is asked."""
    shown = [d["SETDESC"] for d in dialogs(wallet) if "asks to sign" in d.get("SETDESC", "")]
    assert shown, dialogs(wallet)
    lines = shown[-1].split("\n")
    head = next(index for index, line in enumerate(lines) if line.startswith("asks to sign"))
    return lines[head:]


def test_a_siwe_sign_in_for_its_own_site_is_shown_as_one_and_verified(wallet, keys, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(port)
    address = keys["ethereum"]["address"]
    text = siwe("127.0.0.1:8123", address)
    fields = eip4361_fields(text)  # the EIP's grammar takes what the wallet shows as a sign-in
    assert (fields["domain"], fields["address"], fields["uri"]) == ("127.0.0.1:8123", address, "http://127.0.0.1:8123/login")
    personal_sign(port, session, text, address)
    dialog = last_signing_dialog(wallet)
    assert dialog[0].startswith("asks to sign a sign-in (Sign-In with Ethereum, personal_sign) on Ethereum (eip155:1)"), dialog
    # The resources' count is a must-show fact (EIP-4361), after the account, with those that fit.
    assert dialog[1:7] == ["Domain: 127.0.0.1:8123", f"Account: {address}",
                           "Resources (1):", "  - https://example.org/claims/1",
                           'Statement: "I accept the Terms of Service: https://example.org/tos"',
                           "URI: http://127.0.0.1:8123/login"], dialog
    assert not any(line.startswith("⚠") for line in dialog), dialog
    entry = audit_entries(wallet)[-1]
    assert (entry["decision"], entry["method"]) == ("approved", "personal_sign"), entry
    assert entry["sign_in"] == {"domain": "127.0.0.1:8123", "uri": "http://127.0.0.1:8123/login", "site": SITE,
                                "matches_site": True}, entry
    port.close()


def test_a_siwe_sign_in_for_another_domain_leads_with_the_warning_and_is_logged(wallet, keys, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(port)
    address = keys["ethereum"]["address"]
    text = siwe("bank.example", address, uri="https://bank.example/login")
    eip4361_fields(text)
    personal_sign(port, session, text, address)
    dialog = last_signing_dialog(wallet)
    # The warnings come first, before any field of the sign-in, naming both the domain and the site.
    assert dialog[1:3] == [
        f"⚠ This sign-in is for bank.example, but the request comes from the site {SITE} (as the extension reports it)",
        "⚠ Its URI https://bank.example/login is not on that site either",
    ], dialog
    assert dialog[3] == "Domain: bank.example", dialog
    entry = audit_entries(wallet)[-1]
    assert entry["sign_in"] == {"domain": "bank.example", "uri": "https://bank.example/login", "site": SITE,
                                "matches_site": False}, entry
    port.close()


def test_the_account_and_chain_of_a_siwe_message_are_checked_against_the_request(wallet, keys, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(port)
    address = keys["ethereum"]["address"]
    other = Account.from_key(b"\x01" * 32).address
    text = siwe("127.0.0.1:8123", other, chain="10")
    eip4361_fields(text)
    personal_sign(port, session, text, address)
    dialog = last_signing_dialog(wallet)
    assert dialog[1:3] == [f"⚠ The message names the account {other}, but the key that signs is {address}",
                           "⚠ The message is for chain ID 10, but the request is for Ethereum (eip155:1)"], dialog
    port.close()


@pytest.mark.parametrize("change, problem", [
    (lambda text: text + "\n", "line 14 is empty: the message ends with a line break, which EIP-4361 does not allow"),
    (lambda text: text.replace("Nonce: 8dKr2nYpQw9z", "Nonce: 1234"), "line 9 should be a nonce of at least 8 letters and digits"),
    (lambda text: text.replace("Version: 1\nChain ID: 1", "Chain ID: 1\nVersion: 1"), 'line 7 should start with "Version: "'),
    (lambda text: text.replace("I accept", "I\taccept"),
     "line 4 is a statement with a character EIP-4361 does not allow (only printable ASCII, no %)"),
])
def test_malformed_sign_in_text_is_signed_as_plain_text_with_a_notice(wallet, keys, unlocked, change, problem):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(port)
    address = keys["ethereum"]["address"]
    text = change(siwe("127.0.0.1:8123", address))
    with pytest.raises(abnf.ParseError):
        eip4361_fields(text)  # the EIP's grammar refuses it too
    personal_sign(port, session, text, address)
    dialog = last_signing_dialog(wallet)
    assert dialog[0].startswith("asks to sign a message (personal_sign)"), dialog
    assert dialog[1] == (f"⚠ This reads like a sign-in, but is not a well-formed one (EIP-4361: {problem}): it is shown, "
                         "and signed, as the plain text it is"), dialog
    assert dialog[2].startswith('Text: "127.0.0.1:8123 wants you to sign in with your Ethereum account: ⏎ '), dialog
    assert "sign_in" not in audit_entries(wallet)[-1]
    port.close()


def test_a_session_without_a_site_gets_the_notice_that_it_cannot_be_checked(wallet, keys, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(port, origin=None)
    address = keys["ethereum"]["address"]
    personal_sign(port, session, siwe("127.0.0.1:8123", address), address, origin=None)
    dialog = last_signing_dialog(wallet)
    assert dialog[1] == ("⚠ This sign-in cannot be checked against a site: the session was opened without one, so make sure "
                         "127.0.0.1:8123 is the site you are signing in to"), dialog
    assert audit_entries(wallet)[-1]["sign_in"] == {"domain": "127.0.0.1:8123", "uri": "http://127.0.0.1:8123/login"}
    # Sign In With Solana takes its domain from the site: without one, the input must name it.
    reply = call(port, session, SOLANA_MAINNET, "solana_signIn", {}, origin=None)
    assert (error_of(reply)["code"], error_of(reply)["data"]["field"]) == (-32602, "request.params.domain"), reply
    port.close()


def test_solana_sign_in_builds_the_message_for_the_site_and_signs_exactly_it(wallet, keys, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(port)
    address = b58(keys["solana"]["address"])
    reply = call(port, session, SOLANA_MAINNET, "solana_signIn", {
        "statement": "Sign in to the example dApp", "uri": f"{SITE}/", "version": "1", "chainId": "mainnet",
        "nonce": "oBbLoEldZs", "issuedAt": "2026-11-28T09:15:00Z", "resources": ["https://example.org/terms"]})
    assert "result" in reply, reply
    result = reply["result"]
    # The published format (the Wallet Standard's createSignInMessageText), domain and address filled in.
    assert result["message"] == (
        f"127.0.0.1:8123 wants you to sign in with your Solana account:\n{address}\n\nSign in to the example dApp\n\n"
        f"URI: {SITE}/\nVersion: 1\nChain ID: mainnet\nNonce: oBbLoEldZs\nIssued At: 2026-11-28T09:15:00Z\n"
        "Resources:\n- https://example.org/terms")
    assert result["address"] == address
    signature = b58_decode(result["signature"])
    assert len(signature) == 64
    Ed25519PublicKey.from_public_bytes(b58_decode(address)).verify(signature, result["message"].encode())
    dialog = last_signing_dialog(wallet)
    assert dialog[0].startswith("asks to sign a sign-in (Sign In With Solana) on Solana mainnet"), dialog
    assert dialog[1:6] == ["Domain: 127.0.0.1:8123", f"Account: {address}", "Resources (1):", "  - https://example.org/terms",
                           'Statement: "Sign in to the example dApp"'], dialog
    entry = audit_entries(wallet)[-1]
    assert (entry["method"], entry["sign_in"]) == ("solana_signIn", {
        "domain": "127.0.0.1:8123", "uri": f"{SITE}/", "site": SITE, "matches_site": True}), entry
    port.close()


def test_solana_sign_in_for_another_domain_leads_with_the_warning_and_is_logged(wallet, keys, unlocked):
    port = Port(wallet.host(FAKE_PINENTRY_PASSPHRASES=unlocked))
    session = connect(port)
    address = b58(keys["solana"]["address"])
    reply = call(port, session, SOLANA_MAINNET, "solana_signIn", {"domain": "bank.example", "address": address})
    assert "result" in reply, reply
    message = reply["result"]["message"]
    assert message == f"bank.example wants you to sign in with your Solana account:\n{address}"
    Ed25519PublicKey.from_public_bytes(b58_decode(address)).verify(b58_decode(reply["result"]["signature"]), message.encode())
    dialog = last_signing_dialog(wallet)
    assert dialog[1:3] == [
        f"⚠ This sign-in is for bank.example, but the request comes from the site {SITE} (as the extension reports it)",
        "Domain: bank.example"], dialog
    assert audit_entries(wallet)[-1]["sign_in"] == {"domain": "bank.example", "site": SITE, "matches_site": False}
    # An address that is not the session's is refused before anyone is asked.
    asked = len(dialogs(wallet))
    stranger = call(port, session, SOLANA_MAINNET, "solana_signIn", {"address": "1" * 32})
    assert (error_of(stranger)["code"], error_of(stranger)["data"]["field"]) == (-32602, "request.params.address"), stranger
    assert len(dialogs(wallet)) == asked
    port.close()


def test_the_real_dialog_leads_with_the_warning_of_a_sign_in_for_another_domain(wallet, keys, display, tmp_path):
    """pinentry-gtk2 itself on an Xvfb display: a SIWE sign-in for bank.example asked by the site
    http://127.0.0.1:8123, the passphrase typed as a person would; the dialog photographed."""
    caller = f"chrome-extension://{EXTENSION_ID}/"
    told = wallet.root / "told-pinentry.log"
    wrapper = wallet.root / "pinentry-gtk2-recorded"
    wrapper.write_text(f"#!/bin/sh\ntee -a '{told}' | exec {shutil.which('pinentry-gtk-2')} 2>>'{wallet.root / 'pinentry-stderr.log'}'\n")
    wrapper.chmod(0o755)
    # The session of the site, as the agent stores an approved one (docs/sessions.md); no
    # browser profile: the dialog names the extension by its ID.
    session = wallet.connect(caller)
    stored = json.loads(wallet.sessions_path.read_text())
    eip155 = {"eip155": {"chains": [ETHEREUM], "methods": ["personal_sign"], "events": []}}
    for entry in stored["sessions"]:
        if entry["topic"] == session["topic"]:
            entry["requiredNamespaces"] = entry["namespaces"] = eip155
            entry["origin"] = SITE
    wallet.sessions_path.write_text(json.dumps(stored))
    host = BrowserStandIn(wallet, tmp_path / "no-profile", wallet.env(
        DISPLAY=str(display), WALLET_BRIDGE_PINENTRY=str(wrapper), FAKE_PINENTRY_LOG=None))
    address = keys["ethereum"]["address"]
    text = siwe("bank.example", address, uri="https://bank.example/login")
    host.send("session_request", {"topic": session["topic"], "chainId": ETHEREUM, "origin": SITE,
                                  "request": {"method": "personal_sign", "params": ["0x" + text.encode().hex(), address]}})
    window = wait_for_window(display, host, wallet)
    photograph(display, "consent-sign-in-for-another-domain.png")
    xdotool(display, "windowfocus", "--sync", window)
    xdotool(display, "type", "--delay", "15", PASSPHRASE)
    xdotool(display, "key", "Return")
    reply = host.receive()
    host.close()
    assert Account.recover_message(encode_defunct(text=text), signature=reply["result"]) == address
    descriptions = [line[len("SETDESC "):] for line in told.read_text().splitlines() if line.startswith("SETDESC ")]
    assert len(descriptions) == 1, descriptions
    lines = descriptions[0].replace("%0A", "\n").split("\n")
    head = next(index for index, line in enumerate(lines) if line.startswith("asks to sign"))
    assert lines[head + 1] == (f"⚠ This sign-in is for bank.example, but the request comes from the site {SITE} "
                               "(as the extension reports it)"), lines
    assert PASSPHRASE not in told.read_text()
    assert audit_entries(wallet)[-1]["sign_in"]["matches_site"] is False

