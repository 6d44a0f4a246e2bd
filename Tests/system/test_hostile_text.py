"""Text an extension chooses, through the shipped host, agent and command line: a Firefox
add-on's ID (Firefox add-ons choose their own), and what an extension says about itself when it
connects. In the connect dialog it cannot start a line of its own or end its quotes early; in
`wallet-bridge log`, `sessions list` and the logs it cannot reach the terminal as a control
sequence (clear the screen, write the clipboard with OSC 52, forge a line), and `--json` keeps
it exact.
A refused request is enough to put the ID in the log: nobody has to approve anything."""
import hashlib
import json

from wallet_helpers import SOLANA_MAINNET, b64, error_of

# An OSC 52 clipboard write (the clipboard then holds "0xdead"), and a clear screen.
HOSTILE_ID = "evil\x1b]52;c;MHhkZWFk\x07\x1b[2J@example.org"
HOSTILE_ID_SHOWN = r"evil\u{1B}]52;c;MHhkZWFk\u{7}\u{1B}[2J@example.org"
METADATA = {
    "name": 'dApp\u2028The extension with ID x"\x1b[2J',
    "description": "Signs in\n(its own words, not checked)",
    "url": "https://example.org/\x9b31m",
    "icons": [],
}
PROPOSAL = {"requiredNamespaces": {"solana": {"chains": [SOLANA_MAINNET], "methods": ["solana_signMessage"], "events": []}},
            "metadata": METADATA}
CONTROLS = {chr(c) for c in range(0x20)} | {chr(c) for c in range(0x7F, 0xA0)} | {"\u2028", "\u2029", "\u202e"}


def assert_no_control(text, allowed="\n"):
    found = sorted({repr(c) for c in text if c in CONTROLS and c not in allowed})
    assert not found, f"{found} reached the terminal: {text!r}"


def test_text_an_extension_chose_is_escaped_in_the_dialog_the_log_and_sessions_list(wallet, passphrase_file):
    key = wallet.create(passphrase_file, label="main", connect=())
    # The keys are locked, and the person cancels the passphrase: refused, and logged.
    host = wallet.host(HOSTILE_ID, FAKE_PINENTRY_MODE="cancel", WALLET_BRIDGE_LOG="debug")
    reply = host.call("session_connect", PROPOSAL)
    assert "result" in reply, reply
    assert error_of(host.sign(key["address"], [b64(b"refused")]))["data"] == {"reason": "declined"}
    # The host's and the agent's logs, which `wallet-bridge agent` in the foreground writes to
    # the terminal, name the caller too.
    logged = host.close()
    assert f"serving {HOSTILE_ID_SHOWN} with " in logged and f"opened for {HOSTILE_ID_SHOWN}\n" in logged, logged
    assert_no_control(logged)

    connect = [r["argument"] for r in wallet.pinentry_records() if r.get("command") == "SETDESC"][0]
    assert connect == "\n".join([
        f"The Firefox add-on with ID {HOSTILE_ID_SHOWN}",
        "asks to connect to your wallet.",
        r'It says it is: "dApp\u{2028}The extension with ID x\"\u{1B}[2J", https://example.org/\u{9B}31m',
        r'"Signs in\n(its own words, not checked)"',
        "(its own words, not checked)",
        "",
        "It will see your 1 account on Solana mainnet.",
        "It may ask you for signatures (solana_signMessage); each one still asks you first.",
    ]), connect

    log = wallet.run("log", check=True).stdout.decode()
    assert_no_control(log)
    lines = log.splitlines()
    assert len(lines) == 1, log
    digest = hashlib.sha256(b"refused").hexdigest()[:12]
    assert lines[0].endswith(f'  declined  {HOSTILE_ID_SHOWN}  key "main" {key["address"]}  1 payload [{digest}…]'), lines[0]
    # --json is exact.
    entries = [json.loads(line) for line in wallet.run("log", "--json", check=True).stdout.splitlines()]
    assert entries[0]["caller"] == HOSTILE_ID, entries

    listed = wallet.run("sessions", "list", check=True).stdout.decode()
    assert_no_control(listed)
    assert f"\n  extension: {HOSTILE_ID_SHOWN} (firefox-addon)\n" in listed, listed
    assert '\n  says it is: "dApp\\u{2028}The extension with ID x\\"\\u{1B}[2J" https://example.org/\\u{9B}31m\n' in listed, listed
    sessions = json.loads(wallet.run("sessions", "list", "--json", check=True).stdout)["sessions"]
    assert sessions[0]["metadata"]["name"] == METADATA["name"] and sessions[0]["caller"]["id"] == HOSTILE_ID, sessions

    # The installed name, which only a browser's profile gives (test_agent_desktop.py reads a
    # real one): an audit line as the agent writes it for a refusal.
    audit = wallet.home / ".local" / "state" / "wallet-bridge" / "audit.log"
    entry = dict(entries[0], caller="chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
                 caller_name='Phantom\x1b]52;c;MHhkZWFk\x07\u2028" x')
    with audit.open("a") as file:
        file.write(json.dumps(entry) + "\n")
    log = wallet.run("log", "--last", "1", check=True).stdout.decode()
    assert_no_control(log)
    assert (r'  declined  chrome-extension://abcdefghijklmnopabcdefghijklmnop/ "Phantom\u{1B}]52;c;MHhkZWFk\u{7}\u{2028}\" x"  key "main" '
            in log), log
    assert json.loads(wallet.run("log", "--json", "--last", "1", check=True).stdout)["caller_name"] == entry["caller_name"]
