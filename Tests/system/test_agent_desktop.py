"""The real consent dialog: Debian's pinentry-gtk2 on an Xvfb display, shown by the agent that a
browser-started host reached, answered with xdotool as a person would (typing the passphrase,
pressing Sign or Refuse), photographed for the record.

The extension's name must come from a real Chromium profile: headless Chromium loads the example
extension into a fresh profile first, and the host is then started by a stand-in for that browser
whose command line names the profile (`--user-data-dir`), as Chromium's own does. The screenshots
are kept in .build/artifacts/ (and named in the test output).
"""
import base64
import hashlib
import json
import os
import select
import shutil
import struct
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from solders.pubkey import Pubkey
from solders.transaction import Transaction

from transaction_helpers import U64_MAX, SolanaChain, amounts, short, token_approve, transfer, warnings_in
from wallet_helpers import EIP712_MAIL, REPO, wait_until

sys.path.insert(0, str(REPO / "scripts"))
import headless_browser  # noqa: E402  (scripts/: the browsers' command lines, one owner)

PASSPHRASE = "paper lantern over the river"
EXTENSION_ID = "oeloogpinfhebldicgpgcpochgkpponn"  # from the "key" in the example's Chromium manifest
EXTENSION_NAME = "wallet-bridge example"
ARTIFACTS = REPO / ".build" / "artifacts"
SIWS = ("example.com wants you to sign in with your Solana account:\n"
        "DsPfRkNhuusTtUsWzoKwfoYEn4sVmQvVmyEcqPxK1zq1\n\nNonce: 4815162342").encode()
TOOLS = ["Xvfb", "xdotool", "import", "identify", "pinentry-gtk-2", "chromium"]


def require_tools():
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"missing {missing}: run `bash scripts/install-deps.sh --test`", pytrace=False)


@pytest.fixture
def display():
    """A private X display; its number comes from Xvfb itself (-displayfd). -noreset: by default
    Xvfb resets when its last client leaves, and a client connecting during the reset is dropped.
    Between two dialogs the only clients are xdotool's short searches, so a pinentry starting just
    as one left failed to open the display (1 start in 50 with searches running, measured) and
    fell back to curses, which has no terminal here: the flaky "no pinentry window appeared"."""
    require_tools()
    read_end, write_end = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-noreset", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as numbers:
        number = numbers.readline().strip()
    assert number, "Xvfb did not start"
    yield f":{number}"
    server.terminate()
    server.wait(10)


@pytest.fixture
def chromium_profile(tmp_path):
    """A real Chromium profile with the example extension loaded (unpacked), made by Chromium."""
    require_tools()
    extension = tmp_path / "extension"
    subprocess.run([str(REPO / "scripts" / "build-example-extension.sh"), "chromium", str(extension)],
                   check=True, capture_output=True)
    profile = tmp_path / "chromium-profile"
    browser = headless_browser.start(headless_browser.chromium_command(extension, profile), None, subprocess.DEVNULL)
    preferences = profile / "Default" / "Preferences"
    try:
        wait_until(lambda: preferences.exists() and EXTENSION_ID in preferences.read_text(errors="replace"),
                   timeout=60, interval=0.2)
    finally:
        browser.terminate()
        browser.wait(20)
    settings = json.loads(preferences.read_text())["extensions"]["settings"]
    assert settings[EXTENSION_ID]["path"] == str(extension), "Chromium recorded the unpacked extension"
    return profile


class BrowserStandIn:
    """The host, started by a stand-in for Chromium whose command line names the real profile:
    the host's parent is what the host asks for the extension's name."""

    def __init__(self, wallet, profile, env):
        stand_in = "import subprocess, sys; sys.exit(subprocess.call(sys.argv[2:]))"
        self.process = subprocess.Popen(
            ["python3", "-c", stand_in, f"--user-data-dir={profile}", wallet.binary, f"chrome-extension://{EXTENSION_ID}/"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
        self.next_id = 1

    def send(self, method, params):
        body = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}).encode()
        self.next_id += 1
        self.process.stdin.write(struct.pack("=I", len(body)) + body)
        self.process.stdin.flush()

    def receive(self):
        (length,) = struct.unpack("=I", self.process.stdout.read(4))
        return json.loads(self.process.stdout.read(length))

    def reply_waiting(self):
        """The host's next reply if it has already answered, else None (does not wait)."""
        ready, _, _ = select.select([self.process.stdout], [], [], 0)
        return self.receive() if ready else None

    def close(self):
        self.process.stdin.close()
        self.process.wait(15)
        return self.process.stderr.read().decode()


def wait_for_window(display, host, wallet, timeout=30):
    """The id of pinentry's window, once it is mapped. Without one, the failure says what the
    host answered instead (if it did) and what the agent logged: the evidence a flaky run needs."""
    def windows():
        found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "signature request"],
                               env=dict(os.environ, DISPLAY=display), capture_output=True, text=True)
        return found.returncode == 0 and found.stdout.split()
    found = wait_until(windows, timeout=timeout, interval=0.1)
    if found:
        wait_until_drawn(display)
        return found[0]
    status = wallet.run("agent", "status", "--json").stdout.decode(errors="replace")
    raise AssertionError(f"no pinentry window appeared in {timeout} s; the host's reply: {host.reply_waiting()!r}; "
                         f"agent status: {status}; pinentry's stderr: {read_if_there(wallet.root / 'pinentry-stderr.log')}; agent log: {wallet.agent_log_text().decode(errors='replace')[-3000:]}")


def read_if_there(path):
    return path.read_text(errors="replace")[-3000:] if path.exists() else "(none)"


def wait_until_drawn(display):
    """Waits until GTK has finished drawing the dialog: two pictures of the display in a row are
    the same (a blinking cursor changes it twice a second or so, far slower than a look)."""
    previous = None

    def unchanged():
        nonlocal previous
        picture = subprocess.run(["import", "-display", display, "-window", "root", "rgb:-"],
                                 check=True, capture_output=True).stdout
        same, previous = picture == previous, picture
        return same
    assert wait_until(unchanged, timeout=10, interval=0.05), "the display kept changing for 10 s"


def photograph(display, name):
    """A screenshot of the whole display, kept in .build/artifacts/; asserts it shows something."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    subprocess.run(["import", "-display", display, "-window", "root", str(path)], check=True, capture_output=True)
    colours = subprocess.run(["identify", "-format", "%k", str(path)], check=True, capture_output=True, text=True).stdout
    assert int(colours) > 8, f"the screenshot {path} is blank"
    print(f"screenshot: {path}")
    return path


def xdotool(display, *args):
    subprocess.run(["xdotool", *args], env=dict(os.environ, DISPLAY=display), check=True, capture_output=True)


def verify(address, payload, signed_payload):
    signed = base64.b64decode(signed_payload)
    assert signed[:-64] == payload
    Ed25519PublicKey.from_public_bytes(base64.b64decode(address)).verify(signed[-64:], payload)


def test_the_real_dialog_names_the_extension_shows_the_text_and_is_answered_by_a_person(
        wallet, chromium_profile, display):
    wallet.config_path.parent.mkdir(parents=True)
    wallet.config_path.write_text(json.dumps({"approve_for_minutes": 5}))  # the opt-in third button
    passphrase_file = wallet.secret_file("passphrase", PASSPHRASE + "\n")
    key = wallet.create(passphrase_file, label="desktop", connect=[f"chrome-extension://{EXTENSION_ID}/"])
    # pinentry-gtk2 itself, behind a tee that keeps what the agent told it (the dialog's text;
    # the passphrase travels the other way and is not kept).
    told = wallet.root / "told-pinentry.log"
    wrapper = wallet.root / "pinentry-gtk2-recorded"
    wrapper.write_text(f"#!/bin/sh\ntee -a '{told}' | exec {shutil.which('pinentry-gtk-2')} 2>>'{wallet.root / 'pinentry-stderr.log'}'\n")
    wrapper.chmod(0o755)
    env = wallet.env(DISPLAY=display, WALLET_BRIDGE_PINENTRY=str(wrapper), FAKE_PINENTRY_LOG=None)
    host = BrowserStandIn(wallet, chromium_profile, env)

    # Locked: the dialog asks for the passphrase. Typed as a person types it.
    host.send("NATIVE_SIGN_PAYLOADS_METHOD", {"address": key["address"], "payloads": [base64.b64encode(SIWS).decode()]})
    window = wait_for_window(display, host, wallet)
    photograph(display, "consent-passphrase.png")
    xdotool(display, "windowfocus", "--sync", window)
    xdotool(display, "type", "--delay", "15", PASSPHRASE)
    xdotool(display, "key", "Return")
    verify(key["address"], SIWS, host.receive()["result"]["signed_payloads"][0])

    # Unlocked: a confirmation. Refuse, Sign, then "Sign and allow", each by its button's
    # mnemonic (_Refuse, _Sign, _allow): pinentry-gtk2 puts the focus on Refuse, so Return would
    # refuse too.
    second = b"second payload \x00\x01 binary"
    for answer in ("alt+r", "alt+s", "alt+a"):
        host.send("NATIVE_SIGN_PAYLOADS_METHOD", {"address": key["address"], "payloads": [base64.b64encode(second).decode()]})
        window = wait_for_window(display, host, wallet)
        photograph(display, f"consent-confirm-{ {'alt+r': 'refuse', 'alt+s': 'sign', 'alt+a': 'allow'}[answer] }.png")
        xdotool(display, "windowfocus", "--sync", window)
        xdotool(display, "key", answer)
        reply = host.receive()
        if answer == "alt+r":
            assert reply["error"] == {"code": -3, "message": "Payload not signed", "data": {"reason": "declined"}}
        else:
            verify(key["address"], second, reply["result"]["signed_payloads"][0])
    # Allowed: the same extension and key sign for 5 minutes with nobody asked, and no window.
    host.send("NATIVE_SIGN_PAYLOADS_METHOD", {"address": key["address"], "payloads": [base64.b64encode(b"allowed").decode()]})
    verify(key["address"], b"allowed", host.receive()["result"]["signed_payloads"][0])
    host.close()

    # What the dialogs said: the name from the real profile, the ID, the key, the text.
    descriptions = [line[len("SETDESC "):] for line in told.read_text().splitlines() if line.startswith("SETDESC ")]
    assert len(descriptions) == 4, "no dialog for the allowed request"
    first = descriptions[0].replace("%0A", "\n")
    assert first.startswith(f'The extension with ID {EXTENSION_ID},\ninstalled as "{EXTENSION_NAME}",\nasks to sign 1 payload with your key "desktop"'), first
    assert '1. Text: "example.com wants you to sign in with your Solana account: ⏎ DsPf' in first, first
    assert "Enter the keystore passphrase" in first
    assert "bytes of binary data, SHA-256 " + hashlib.sha256(second).hexdigest()[:16] in descriptions[1]
    assert 'Sign, or Refuse. "Sign and allow" also signs what this extension asks of this key for the next 5 minutes' in descriptions[1]
    assert PASSPHRASE not in told.read_text()

    # And as the audit log recorded it.
    entries = [json.loads(line) for line in wallet.run("log", "--json", check=True).stdout.splitlines()]
    assert [(e["decision"], e.get("approval")) for e in entries] == [
        ("approved", "passphrase"), ("declined", None), ("approved", "confirmation"),
        ("approved", "confirmation_and_allow"), ("approved", "allowed_before")]
    for entry in entries:
        assert entry["caller_name"] == EXTENSION_NAME
        assert entry["caller"] == f"chrome-extension://{EXTENSION_ID}/"
    assert entries[0]["payload_sha256"] == [hashlib.sha256(SIWS).hexdigest()]




def test_the_real_dialog_shows_what_an_ethereum_signature_signs(wallet, chromium_profile, display):
    """EIP-712 typed data and a personal_sign message in pinentry-gtk2 itself: the dialog names
    the domain, chain, contract, primary type and fields, or the message's text; a person
    types the passphrase, then signs the second with the button."""
    passphrase_file = wallet.secret_file("passphrase", PASSPHRASE + "\n")
    key = wallet.keys_json("create", "--type", "ethereum", "--label", "eth desktop", "--passphrase-file", passphrase_file)
    session = wallet.connect(f"chrome-extension://{EXTENSION_ID}/")
    eip155 = {"chains": ["eip155:1"], "methods": ["personal_sign", "eth_signTypedData_v4"], "events": []}
    stored = json.loads(wallet.sessions_path.read_text())
    for entry in stored["sessions"]:
        if entry["topic"] == session["topic"]:
            entry["requiredNamespaces"] = entry["namespaces"] = {"eip155": eip155}
    wallet.sessions_path.write_text(json.dumps(stored))
    told = wallet.root / "told-pinentry.log"
    wrapper = wallet.root / "pinentry-gtk2-recorded"
    wrapper.write_text(f"#!/bin/sh\ntee -a '{told}' | exec {shutil.which('pinentry-gtk-2')} 2>>'{wallet.root / 'pinentry-stderr.log'}'\n")
    wrapper.chmod(0o755)
    host = BrowserStandIn(wallet, chromium_profile, wallet.env(DISPLAY=display, WALLET_BRIDGE_PINENTRY=str(wrapper), FAKE_PINENTRY_LOG=None))

    def request(method, params):
        host.send("session_request", {"topic": session["topic"], "chainId": "eip155:1", "request": {"method": method, "params": params}})

    request("eth_signTypedData_v4", [key["address"], json.dumps(EIP712_MAIL)])
    window = wait_for_window(display, host, wallet)
    photograph(display, "consent-typed-data.png")
    xdotool(display, "windowfocus", "--sync", window)
    xdotool(display, "type", "--delay", "15", PASSPHRASE)
    xdotool(display, "key", "Return")
    typed_signature = host.receive()["result"]

    request("personal_sign", ["0x" + "Sign in to example.org".encode().hex(), key["address"]])
    window = wait_for_window(display, host, wallet)
    photograph(display, "consent-personal-sign.png")
    xdotool(display, "windowfocus", "--sync", window)
    xdotool(display, "key", "alt+s")
    message_signature = host.receive()["result"]
    host.close()

    for signature in (typed_signature, message_signature):
        assert len(signature) == 132 and signature.startswith("0x") and signature[-2:] in ("1b", "1c"), signature
    descriptions = [line[len("SETDESC "):].replace("%0A", "\n") for line in told.read_text().splitlines() if line.startswith("SETDESC ")]
    assert len(descriptions) == 2, descriptions
    typed, message = descriptions
    assert typed.startswith(f'The extension with ID {EXTENSION_ID},\ninstalled as "{EXTENSION_NAME}",\nasks to sign typed data (EIP-712) on Ethereum (eip155:1) with your key "eth desktop"'), typed
    for line in ('For: "Ether Mail", version "1"', "Chain in the data: 1", "Contract: 0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
                 "Type: Mail", "  from.name: Cow", "  from.wallet: 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826", "  to.name: Bob",
                 "  contents: Hello, Bob!", "Enter the keystore passphrase"):
        assert line in typed, (line, typed)
    assert 'asks to sign a message (personal_sign) on Ethereum (eip155:1)' in message and 'Text: "Sign in to example.org"' in message, message
    assert PASSPHRASE not in told.read_text()


def test_the_real_dialog_shows_a_sol_transfer_and_an_unlimited_approval(wallet, chromium_profile, display):
    """Clear signing (issue 36) in pinentry-gtk2 itself: a SOL transfer, unlocked by the typed
    passphrase, then an unlimited SPL token approval, whose warning comes first, signed with the
    button. solders builds both, LiteSVM runs what the person signed."""
    passphrase_file = wallet.secret_file("passphrase", PASSPHRASE + "\n")
    key = wallet.create(passphrase_file, label="desktop", connect=())
    session = wallet.connect(f"chrome-extension://{EXTENSION_ID}/",
                             methods=("solana_signMessage", "solana_signTransaction", "solana_signAllTransactions"))
    told = wallet.root / "told-pinentry.log"
    wrapper = wallet.root / "pinentry-gtk2-recorded"
    wrapper.write_text(f"#!/bin/sh\ntee -a '{told}' | exec {shutil.which('pinentry-gtk-2')} 2>>'{wallet.root / 'pinentry-stderr.log'}'\n")
    wrapper.chmod(0o755)
    env = wallet.env(DISPLAY=display, WALLET_BRIDGE_PINENTRY=str(wrapper), FAKE_PINENTRY_LOG=None)
    host = BrowserStandIn(wallet, chromium_profile, env)
    me = Pubkey.from_string(key["base58"])
    chain = SolanaChain(me)
    mint, mine, _ = chain.create_mint(decimals=6, supply_to_wallet=10**9)
    payment = chain.legacy([transfer(me, chain.recipient, 2_500_000_000)])
    approval = chain.legacy([token_approve(mine, chain.spender, me, U64_MAX)])

    def request(transaction):
        params = {"transaction": base64.b64encode(bytes(transaction)).decode()}
        host.send("session_request", {"topic": session["topic"], "chainId": "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
                                      "request": {"method": "solana_signTransaction", "params": params}})

    request(payment)
    window = wait_for_window(display, host, wallet)
    photograph(display, "consent-sol-transfer.png")
    xdotool(display, "windowfocus", "--sync", window)
    xdotool(display, "type", "--delay", "15", PASSPHRASE)
    xdotool(display, "key", "Return")
    paid = host.receive()
    assert "result" in paid, paid

    request(approval)
    window = wait_for_window(display, host, wallet)
    photograph(display, "consent-unlimited-approval.png")
    xdotool(display, "windowfocus", "--sync", window)
    xdotool(display, "key", "alt+s")
    approved = host.receive()
    assert "result" in approved, approved
    host.close()

    for unsigned, reply in ((payment, paid), (approval, approved)):
        signed = Transaction.from_bytes(base64.b64decode(reply["result"]["transaction"]))
        assert signed.message == unsigned.message
        Ed25519PublicKey.from_public_bytes(bytes(me)).verify(bytes(signed.signatures[0]), bytes(unsigned.message))
        chain.run(signed)
    assert chain.token_account(mine).delegated_amount == U64_MAX

    descriptions = [line[len("SETDESC "):].replace("%0A", "\n") for line in told.read_text().splitlines() if line.startswith("SETDESC ")]
    assert len(descriptions) == 2, descriptions
    sent, unlimited = descriptions
    assert sent.startswith(f'The extension with ID {EXTENSION_ID},\ninstalled as "{EXTENSION_NAME}",\n'), sent
    assert "Solana transaction" in sent and Decimal("2.5") in amounts(sent, "SOL"), sent
    assert f"  to {short(chain.recipient)}" in sent.splitlines(), sent
    assert "Enter the keystore passphrase" in sent, sent
    assert any("unlimited" in warning.lower() for warning in warnings_in(unlimited)), unlimited
    assert PASSPHRASE not in told.read_text()
