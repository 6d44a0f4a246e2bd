"""Web pages reach the wallet (issue 37), end to end in headless Chromium and Firefox ESR.

The reference wallet extension (examples/wallet-extension, assembled by
scripts/build-wallet-extension.sh) is loaded into each browser, which talks to the shipped host
and its agent for a scratch user; the scripted pinentry (Tests/Support/fake-pinentry) is the
person. The pages come from this test's own HTTP servers on 127.0.0.1, one port per site, so
each port is a site of its own (a web origin is scheme, host and port):

- site A, the dApp (Tests/system/dapp/index.html?role=main): written only against EIP-1193,
  EIP-6963 and the Wallet Standard, with nothing from js/. It finds the wallet both ways,
  connects, switches chain (and is refused a chain the session lacks, 4902), signs a message,
  typed data, a sign-in for its own site and one for another, an Ethereum transaction, a Solana
  message, a Solana transaction (built here with solders) and a Sign In With Solana, and hears
  accountsChanged when this test makes a key;
- site B, the same dApp in another tab (role=second): it connects by the Wallet Standard, and
  the test revokes its session with `wallet-bridge sessions revoke --site`, which must reach its
  tab and not A's;
- site C, a hostile page (dapp/hostile.html): it claims site A's origin and session, through the
  provider and by forging the page messages, and must get errors and nothing else.

Every page reports each step to the server (POST /report) and waits for the test's go where the
test has something to do first (GET /wait). Every signature is checked here, by eth-account,
cryptography and solders (LiteSVM executes the Solana transaction). Both browsers run at the
same time, each as its own scratch user with its own agent; every wait is bounded.

The helpers of scripts/e2e.py (the scratch user, the shipped host's install, bounded waits, the
browsers' quit and the check that no host is left) are used as they are.
WALLET_BRIDGE_WEB_BROWSERS=chromium (or firefox) runs one browser only, while working on one.
"""
import base64
import hashlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from eth_account import Account
from eth_account.messages import encode_defunct, encode_typed_data
from eth_account.typed_transactions import TypedTransaction
from eth_utils import to_checksum_address
from hexbytes import HexBytes
from solders.message import Message
from solders.pubkey import Pubkey
from solders.transaction import Transaction

from transaction_helpers import SolanaChain, transfer
from wallet_helpers import EIP712_MAIL, REPO

sys.path.insert(0, str(REPO / "scripts"))
import e2e  # noqa: E402  (scripts/: the e2e's scratch user, host install, waits and quit, one owner)
import headless_browser  # noqa: E402
from headless_browser import Failure  # noqa: E402

DAPP = REPO / "Tests" / "system" / "dapp"
BUILD_EXTENSION = REPO / "scripts" / "build-wallet-extension.sh"
FILES = {"/": "index.html", "/index.html": "index.html", "/hostile.html": "hostile.html",
         "/dapp.js": "dapp.js", "/common.js": "common.js", "/hostile.js": "hostile.js"}
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
OTHER_DOMAIN = "wallet-bridge-phish.example"  # the sign-ins written for another site
RECIPIENT = "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"
WAIT_S = 60           # one step of a page, a dialog included
GO_HOLD_S = 5         # how long the server holds a page's GET /wait before it asks again
MAX_REPORT_BYTES = 1 << 20


class Site:
    """One web origin: an HTTP server on 127.0.0.1 and its own port, serving the pages and
    collecting what they report."""

    def __init__(self, role, page):
        self.role, self.page = role, page
        self.records = []
        self.gos = {}
        self.condition = threading.Condition()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass  # the pages' reports are the record; the server's lines would be noise

            def answer(self, status, body=b"", kind="application/json"):
                self.send_response(status)
                self.send_header("content-type", kind)
                self.send_header("cache-control", "no-store")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                url = urlsplit(self.path)
                if url.path == "/wait":
                    name = parse_qs(url.query).get("name", [""])[0]
                    payload = site.go(name, GO_HOLD_S)
                    if payload is None:
                        return self.answer(204)
                    return self.answer(200, json.dumps(payload).encode())
                if url.path not in FILES:
                    return self.answer(404, b"not found", "text/plain")
                path = DAPP / FILES[url.path]
                self.answer(200, path.read_bytes(), TYPES[path.suffix])

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                if urlsplit(self.path).path != "/report" or not 0 < length <= MAX_REPORT_BYTES:
                    return self.answer(400, b"bad report", "text/plain")
                site.add(json.loads(self.rfile.read(length)))
                self.answer(204)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.host = self.origin.removeprefix("http://")
        self.url = f"{self.origin}/{page}?role={role}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def add(self, record):
        with self.condition:
            self.records.append(record)
            self.condition.notify_all()

    def release(self, name, payload=None):
        """The test's go for the page's wait `name`, with `payload`."""
        with self.condition:
            self.gos[name] = payload or {}
            self.condition.notify_all()

    def go(self, name, timeout):
        with self.condition:
            self.condition.wait_for(lambda: name in self.gos, timeout)
            return self.gos.get(name)

    def named(self, name):
        with self.condition:
            return [record for record in self.records if record.get("name") == name]

    def step(self, name):
        """The page's report of step `name`, or None."""
        found = self.named(name)
        return found[0] if found else None

    def events(self):
        return [record["value"] for record in self.named("event")]

    def wait(self, predicate, what, process):
        """The first truthy `predicate()`, within WAIT_S; Failure when the browser ends first, a
        page reports it finished without it, or time runs out."""
        deadline = time.monotonic() + WAIT_S
        while True:
            with self.condition:
                value = predicate()
                if value:
                    return value
                finished = [record for record in self.records if record.get("name") == "finished"]
                if not finished:
                    self.condition.wait(max(0, min(deadline - time.monotonic(), 0.5)))
            if finished:
                raise Failure(f"{self.role} page finished before {what}: {finished[0]}")
            if process.poll() is not None:
                raise Failure(f"the browser exited ({process.returncode}) before {what}")
            if time.monotonic() >= deadline:
                raise Failure(f"no {what} within {WAIT_S} s from the {self.role} page ({self.origin})")

    def wait_step(self, name, process):
        return self.wait(lambda: self.step(name), f"the {name!r} step", process)


def chromium_id(manifest):
    """The extension ID its manifest's `key` gives: SHA-256 of the DER key, 32 hex digits as a-p."""
    digest = hashlib.sha256(base64.b64decode(manifest["key"])).hexdigest()[:32]
    return "".join(chr(ord("a") + int(digit, 16)) for digit in digest)


def native_host_name(extension):
    """The native host the extension's background connects to (its own constant, in one of its
    own scripts: the package's modules in its subfolders are not looked at)."""
    for name in sorted(os.listdir(extension)):
        if name.endswith(".js"):
            with open(os.path.join(extension, name), encoding="utf-8") as source:
                found = re.search(r"(?:hostName\s*:|HOST_NAME\s*=)\s*['\"]([a-z0-9_.]+)['\"]", source.read())
            if found:
                return found.group(1)
    raise Failure(f"no host name (hostName: or HOST_NAME =) in the extension's scripts ({extension})")


def open_sites(command, browser, profile, sites):
    """The browser's command line with site A's page in place of about:blank; that page opens
    the other sites in tabs of their own (headless Chromium takes one page on its command line),
    so the popup blocker is turned off for it."""
    others = [site.url for site in sites.values() if site.role != "main"]
    first = sites["main"].url + "".join(f"&open={quote(url, safe='')}" for url in others)
    if browser == "chromium":
        return [*command[:-1], "--disable-popup-blocking", first]
    with open(os.path.join(profile, "user.js"), "a") as prefs:
        prefs.write('user_pref("dom.disable_open_during_load", false);\n'
                    'user_pref("browser.link.open_newwindow", 3);\n')
    return [*command[:-1], first]


def accounts_changed_to(site, address):
    """The page's reports of EIP-1193 accountsChanged events that list `address`."""
    return [record for record in site.named("event")
            if record["value"]["source"] == "eip1193" and record["value"]["kind"] == "accountsChanged"
            and address.lower() in map(str.lower, record["value"]["data"])]


def ended(site, before=None):
    """The events that told the site's page its session is over: EIP-1193's accountsChanged to
    no account (what a revoked site hears, as MetaMask's do), or disconnect. With `before`, only
    those the page reported before its step of that name."""
    with site.condition:
        records = list(site.records)
    if before is not None:
        records = records[:next((i for i, r in enumerate(records) if r.get("name") == before), len(records))]
    return [r["value"] for r in records if r.get("name") == "event"
            if r["value"]["source"] == "eip1193"
            and (r["value"]["kind"] == "disconnect"
                 or (r["value"]["kind"] == "accountsChanged" and r["value"]["data"] == []))]


def sessions(env):
    return json.loads(e2e.run([e2e.CLI, "sessions", "list", "--json"], env=env))["sessions"]


class Run:
    """One browser's whole run: what its pages reported, the dialogs, the sessions, and the
    problems seen on the way (a step that never came, a host left running)."""

    def __init__(self, browser):
        self.browser = browser
        self.problems = []
        self.dialogs = []
        self.audit = []
        self.sessions_two_sites = None
        self.sessions_after_revoke = None
        self.sessions_at_the_end = None
        self.made_key = None
        self.go = None
        self.seconds = None
        self.sites = {}


def drive(run):
    """Runs one browser through every page's steps (see the module's docstring)."""
    browser = run.browser
    started = time.monotonic()
    scratch, home, passphrase, env = e2e.scratch_user(f"web-pages-{browser}")
    pages = (("main", ""), ("second", ""), ("hostile", "hostile.html"))
    run.sites = sites = {role: Site(role, page) for role, page in pages}
    main, second, hostile = sites["main"], sites["second"], sites["hostile"]
    process = None
    browser_log = open(os.path.join(scratch, f"{browser}.log"), "w")
    try:
        for label, kind in (("solana", "solana"), ("ethereum", "ethereum")):
            e2e.run([e2e.CLI, "keys", "create", "--label", label, "--type", kind, "--passphrase-file", passphrase],
                    env=env)
        if not BUILD_EXTENSION.exists():
            raise Failure(f"{BUILD_EXTENSION.relative_to(REPO)} is missing: no reference wallet extension to load")
        extension = os.path.join(scratch, "extension")
        e2e.run([str(BUILD_EXTENSION), browser, extension])
        with open(os.path.join(extension, "manifest.json")) as source:
            manifest = json.load(source)
        if browser == "chromium":
            allowed = ["--chrome-extension", chromium_id(manifest)]
            profile = os.path.join(env["XDG_CONFIG_HOME"], "chromium")
        else:
            addon = manifest["browser_specific_settings"]["gecko"]["id"]
            allowed = ["--firefox-addon", addon]
            profile = os.path.join(scratch, "profile")
        e2e.install_shipped_host(browser, [*allowed, "--name", native_host_name(extension), "--binary", e2e.CLI], env)
        command = open_sites(headless_browser.command(browser, extension, profile, allowed[1]), browser, profile, sites)
        process = headless_browser.start(command, env, browser_log)

        main.wait_step("discover", process)
        accounts = main.wait_step("requestAccounts", process)
        connected = main.wait_step("standardConnect", process)
        if not accounts["ok"] or not connected["ok"]:
            raise Failure(f"the dApp did not connect: {accounts} {connected}")
        address = accounts["value"][0]
        solana = connected["value"]["accounts"][0]["address"]

        # The session's chains decide where the dApp may switch to, and where it may not.
        mine = [s for s in sessions(env) if s.get("origin") == main.origin]
        chains = [int(c.split(":")[1]) for s in mine for c in s["namespaces"].get("eip155", {}).get("chains", [])]
        if not chains:
            raise Failure(f"no session of site A ({main.origin}) with an eip155 chain: {mine}")
        current = int(main.step("chainId")["value"], 16)
        switch_to = next((c for c in chains if c != current), current)
        missing = next(c for c in (31337, 1337, 11155111, 424242) if c not in chains)
        typed = json.loads(json.dumps(EIP712_MAIL))
        typed["domain"]["chainId"] = switch_to
        chain = SolanaChain(Pubkey.from_string(solana))
        recipient = Pubkey.from_string("DsPfRkNhuusTtUsWzoKwfoYEn4sVmQvVmyEcqPxK1zq1")
        message = Message.new_with_blockhash([transfer(Pubkey.from_string(solana), recipient, 1_000_000)],
                                             Pubkey.from_string(solana), chain.blockhash)
        run.go = {
            "switchTo": hex(switch_to), "missingChain": hex(missing), "typedData": typed, "nonce": secrets.token_hex(8),
            "otherDomain": OTHER_DOMAIN,
            "transaction": {"to": RECIPIENT, "value": hex(10**15), "nonce": "0x0", "gas": hex(21000),
                            "maxFeePerGas": hex(3 * 10**10), "maxPriorityFeePerGas": hex(10**9),
                            "chainId": hex(switch_to)},
            "solanaTransaction": base64.b64encode(bytes(Transaction.new_unsigned(message))).decode(),
        }
        run.solana_chain, run.solana_message, run.recipient = chain, message, recipient
        main.release("sign", run.go)
        main.wait(lambda: main.step("signed"), "the end of the signing steps", process)

        second.release("connect")
        second.wait_step("accountsAfterConnect", process)
        run.sessions_two_sites = sessions(env)

        # A key made at the terminal reaches the connected dApp as accountsChanged.
        run.made_key = json.loads(e2e.run([e2e.CLI, "keys", "create", "--label", "later", "--type", "ethereum",
                                           "--passphrase-file", passphrase, "--json"], env=env))
        made_after = time.time()
        new_key = run.made_key["address"]
        heard = main.wait(lambda: accounts_changed_to(main, new_key), "accountsChanged with the new key", process)
        run.accounts_changed_delay = heard[0]["at"] / 1000 - made_after

        # Revoking site B's session (by its site, as a person would name it) reaches B's tab only.
        theirs = [s for s in run.sessions_two_sites if s.get("origin") == second.origin]
        if theirs:
            e2e.run([e2e.CLI, "sessions", "revoke", "--site", second.origin], env=env)
            second.wait(lambda: ended(second), "the end of its session (accountsChanged to none, or disconnect)",
                        process)
        else:
            run.problems.append(f"no session of site B ({second.origin}) to revoke: {run.sessions_two_sites}")
        run.sessions_after_revoke = sessions(env)
        main.release("afterRevoke")
        main.wait_step("accountsAfterRevoke", process)
        second.release("afterRevoke", {"address": address})
        second.wait(lambda: second.step("finished"), "the page's end", process)

        victim = [s for s in run.sessions_after_revoke if s.get("origin") == main.origin] or mine
        run.victim = {"topic": victim[0]["topic"], "address": address, "solana": solana}
        hostile.release("forge", {"origin": main.origin, **run.victim})
        hostile.wait(lambda: hostile.step("heard"), "the hostile page's record", process)

        main.release("disconnect")
        main.wait(lambda: main.step("finished"), "the page's end", process)
        run.sessions_at_the_end = sessions(env)
    except Failure as failure:
        run.problems.append(str(failure))
    except Exception as error:  # a bug of the test's own: said, then the clean-up still runs
        run.problems.append(f"{type(error).__name__}: {error}")
    finally:
        for name in e2e.quit_browsers({browser: process} if process is not None else {}):
            run.problems.append(f"{name} did not quit within {e2e.QUIT_TIMEOUT_S} s of SIGTERM and was killed")
        browser_log.close()
        for site in sites.values():
            site.close()
    run.dialogs = e2e.read_lines(env["FAKE_PINENTRY_LOG"])
    logged = subprocess.run([e2e.CLI, "log", "--json"], env=env, capture_output=True, text=True, timeout=30)
    if logged.returncode == 0:
        run.audit = [json.loads(line) for line in logged.stdout.splitlines() if line.strip()]
    e2e.end_scratch_user(scratch, home, env, run.problems, [f"{browser}.log"])
    run.seconds = time.monotonic() - started
    e2e.log(f"web pages in {browser}: {run.seconds:.1f} s")
    return run


@pytest.fixture(scope="module")
def runs():
    """Both browsers at once (each its own scratch user and agent): the module's tests read
    their records."""
    missing = [tool for tool in ("chromium", "firefox-esr") if shutil.which(tool) is None]
    if missing:
        pytest.fail(f"missing {missing}: run `bash scripts/install-deps.sh --test`", pytrace=False)
    if not os.access(e2e.CLI, os.X_OK):
        pytest.fail(f"{e2e.CLI} is missing: run `swift build` first", pytrace=False)
    browsers = os.environ.get("WALLET_BRIDGE_WEB_BROWSERS", "chromium firefox").split()
    with ThreadPoolExecutor(len(browsers)) as pool:
        return {run.browser: run for run in pool.map(drive, [Run(browser) for browser in browsers])}


BROWSERS = ["chromium", "firefox"]


@pytest.fixture(params=BROWSERS)
def run(request, runs):
    if request.param not in runs:
        pytest.skip(f"{request.param} not in WALLET_BRIDGE_WEB_BROWSERS")
    return runs[request.param]


def ok(site, name):
    """The value of the page's step `name`, which must have succeeded."""
    record = site.step(name)
    assert record is not None, f"the {site.role} page never reported {name!r}"
    assert record["ok"], f"{name} failed: {record['error']}"
    return record.get("value")  # undefined (a feature that returns nothing) is left out of JSON


def error(site, name):
    record = site.step(name)
    assert record is not None, f"the {site.role} page never reported {name!r}"
    assert not record["ok"], f"{name} should have failed, got {json.dumps(record['value'])[:300]}"
    return record["error"]


def texts(run):
    return [record["argument"] for record in run.dialogs if record.get("command") == "SETDESC"]


def b58decode(text):
    return bytes(Pubkey.from_string(text))


def verify_ed25519(public_key, signature, message):
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except InvalidSignature:
        pytest.fail("an Ed25519 signature does not verify")


def test_the_run_went_through(run):
    """No step was missing, no host was left running, `agent stop` ended the agent."""
    assert run.problems == []


def test_the_dapp_finds_the_wallet_by_eip6963_and_the_wallet_standard(run):
    found = ok(run.sites["main"], "discover")
    assert len(found["eip6963"]) == 1, found
    announced = found["eip6963"][0]
    info = announced["info"]
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", info["uuid"]), info
    assert info["name"] and info["rdns"] and info["icon"].startswith("data:image/"), info
    assert announced["request"] == "function" and announced["on"] == "function"
    assert len(found["standard"]) == 1, found
    wallet = found["standard"][0]
    assert wallet["version"] == "1.0.0" and wallet["icon"].startswith("data:image/"), wallet
    for feature in ("standard:connect", "standard:disconnect", "standard:events", "solana:signMessage",
                    "solana:signTransaction", "solana:signIn"):
        assert feature in wallet["features"], wallet
    assert all(chain.startswith("solana:") for chain in wallet["chains"]) and wallet["chains"], wallet
    # Asked again, later, by both standards' requests: answered at once (synchronously, as both say).
    late = ok(run.sites["main"], "lateApp")
    assert late["standard"] == [wallet["name"]] and late["eip6963"] == [info["uuid"]], late
    assert late["via"] in (["app-ready"], ["register-wallet"]), late


def test_the_dapp_connects_and_switches_among_the_sessions_chains(run):
    main = run.sites["main"]
    assert ok(main, "accountsBefore") == []
    accounts = ok(main, "requestAccounts")
    assert len(accounts) >= 1 and all(to_checksum_address(a) == a for a in accounts), accounts  # EIP-55
    connected = ok(main, "standardConnect")["accounts"]
    assert connected and b58decode(connected[0]["address"]) == base64.b64decode(connected[0]["publicKey"]["base64"])
    assert ok(main, "switchChain") is None
    assert ok(main, "chainAfterSwitch") == run.go["switchTo"]
    assert error(main, "switchMissing")["code"] == 4902
    if run.go["switchTo"] != ok(main, "chainId"):
        changed = [e for e in main.events() if e["source"] == "eip1193" and e["kind"] == "chainChanged"]
        assert changed and changed[0]["data"] == run.go["switchTo"], main.events()
    assert not ended(main, before="disconnecting"), main.events()


def test_every_ethereum_signature_verifies(run):
    main = run.sites["main"]
    address = ok(main, "requestAccounts")[0]
    signed = ok(main, "personalSign")
    assert Account.recover_message(encode_defunct(text=signed["message"]), signature=signed["signature"]) == address
    typed = ok(main, "typedData")
    signable = encode_typed_data(full_message=typed["typedData"])
    assert Account.recover_message(signable, signature=typed["signature"]) == address
    for name in ("siwe", "siweOtherSite"):
        signed = ok(main, name)
        assert Account.recover_message(encode_defunct(text=signed["message"]), signature=signed["signature"]) == address
    raw = ok(main, "signTransaction")
    assert Account.recover_transaction(raw) == address
    fields = TypedTransaction.from_bytes(HexBytes(raw)).as_dict()
    sent = run.go["transaction"]
    assert (fields["chainId"], fields["nonce"], fields["gas"], fields["value"]) == (
        int(sent["chainId"], 16), 0, 21000, 10**15), fields
    assert to_checksum_address(fields["to"]) == RECIPIENT


def test_every_solana_signature_verifies(run):
    main = run.sites["main"]
    account = ok(main, "standardConnect")["accounts"][0]
    key = b58decode(account["address"])
    signed = ok(main, "solanaSignMessage")
    message = base64.b64decode(signed["signedMessage"]["base64"])
    assert message == base64.b64decode(signed["message"]["base64"])
    verify_ed25519(key, base64.b64decode(signed["signature"]["base64"]), message)

    raw = base64.b64decode(ok(main, "solanaSignTransaction")["signedTransaction"]["base64"])
    transaction = Transaction.from_bytes(raw)
    assert transaction.message == run.solana_message
    verify_ed25519(key, bytes(transaction.signatures[0]), bytes(transaction.message))
    before = run.solana_chain.balance(run.recipient)
    run.solana_chain.run(transaction)  # LiteSVM executes it: a transaction the cluster would take
    assert run.solana_chain.balance(run.recipient) == before + 1_000_000

    sign_in = ok(main, "solanaSignIn")
    text = base64.b64decode(sign_in["signedMessage"]["base64"])
    verify_ed25519(key, base64.b64decode(sign_in["signature"]["base64"]), text)
    host = main.host
    assert text.decode().startswith(f"{host} wants you to sign in with your Solana account:\n{account['address']}\n\n"
                                    f"Sign in to the wallet-bridge e2e dApp.\n\nURI: {main.origin}/login\n"), text
    assert f"\nNonce: {run.go['nonce']}" in text.decode()
    other = ok(main, "solanaSignInOtherSite")
    text = base64.b64decode(other["signedMessage"]["base64"])
    verify_ed25519(key, base64.b64decode(other["signature"]["base64"]), text)
    assert text.decode().startswith(f"{OTHER_DOMAIN} wants you to sign in with your Solana account:\n")


def test_a_sign_in_for_another_site_leads_with_the_warning(run):
    main = run.sites["main"]
    dialogs = [text for text in texts(run) if "sign in with your" in text or "Sign-in" in text or "sign-in" in text]
    warned = [text for text in dialogs if OTHER_DOMAIN in text and main.origin in text]
    assert len(warned) == 2, f"expected the SIWE and the SIWS dialogs for {OTHER_DOMAIN} to warn: {dialogs}"
    for text in warned:
        # The warning names both, on its line, before the sign-in's own fields.
        warning = text.index(f"This sign-in is for {OTHER_DOMAIN}")
        assert main.origin in text[warning:text.index("\n", warning)] and warning < text.index("\nDomain: "), text
    own = [text for text in dialogs if OTHER_DOMAIN not in text]
    assert own and not [text for text in own if "This sign-in is for" in text], own
    # The audit log records each sign-in with the site check's outcome.
    sign_ins = [entry["sign_in"] for entry in run.audit if "sign_in" in entry]
    assert sorted((s["domain"], s["site"], s["matches_site"]) for s in sign_ins) == sorted(
        [(main.host, main.origin, True)] * 2 + [(OTHER_DOMAIN, main.origin, False)] * 2), sign_ins


def test_a_new_key_reaches_the_dapp_as_accounts_changed(run):
    main = run.sites["main"]
    assert accounts_changed_to(main, run.made_key["address"]), main.events()
    assert run.accounts_changed_delay < 2.0, f"heard {run.accounts_changed_delay:.2f} s after `keys create` returned"


def test_two_sites_get_two_sessions_and_a_revocation_reaches_only_its_tab(run):
    main, second = run.sites["main"], run.sites["second"]
    by_site = {}
    for session in run.sessions_two_sites:
        by_site.setdefault(session.get("origin"), []).append(session)
    assert main.origin in by_site and second.origin in by_site, run.sessions_two_sites
    assert {s["topic"] for s in by_site[main.origin]}.isdisjoint(s["topic"] for s in by_site[second.origin])
    assert not [s for s in run.sessions_after_revoke if s.get("origin") == second.origin]
    assert [s for s in run.sessions_after_revoke if s.get("origin") == main.origin]
    assert ended(second), second.events()
    assert not ended(main, before="disconnecting"), main.events()
    assert ok(main, "accountsAfterRevoke") == [*ok(main, "requestAccounts"), run.made_key["address"]]
    # Site B connected the Solana way (standard:connect); its session served EIP-1193 as well.
    assert ok(second, "standardConnect")["accounts"] == ok(main, "standardConnect")["accounts"]
    assert ok(second, "accountsAfterConnect") == ok(main, "requestAccounts")
    assert ok(second, "accountsAfterRevoke") == [] and ok(second, "standardAccountsAfterRevoke") == []
    assert error(second, "signAfterRevoke")["code"] == 4100
    assert error(second, "solanaSignAfterRevoke")["code"] == 4100
    connects = [text for text in texts(run) if "asks to connect the site" in text]
    for site in (main, second):
        assert [text for text in connects if f"\n{site.origin}\n" in text], connects


def test_standard_disconnect_ends_the_sites_session(run):
    main = run.sites["main"]
    ok(main, "standardDisconnect")
    assert ok(main, "accountsAfterDisconnect") == []
    assert not [s for s in run.sessions_at_the_end if s.get("origin") == main.origin], run.sessions_at_the_end


def test_a_hostile_page_gets_errors_and_nothing_else(run):
    hostile = run.sites["hostile"]
    victim = run.victim
    assert error(hostile, "claimedOrigin")["code"] == 4100
    record = hostile.step("claimedAccounts")
    assert record is not None and (not record["ok"] or record["value"] == []), record
    assert hostile.step("template")["ok"], "the hostile page overheard no page message to forge"
    heard = [entry["data"] for entry in ok(hostile, "heard")]
    # What came back to the page: replies and events (its requests are its own words).
    answers = [data for data in heard if isinstance(data, dict) and data.get("type") in ("reply", "event")]
    by_rid = {rid: [a for a in answers if a.get("rid") == rid] for rid in (900001, 900002, 900003, 900004)}
    assert len(by_rid[900001]) == 1 and "error" in by_rid[900001][0] and "result" not in by_rid[900001][0], by_rid
    assert by_rid[900001][0]["error"]["code"] == 4100, by_rid  # not connected: the claim changed nothing
    assert len(by_rid[900002]) == 1 and "error" in by_rid[900002][0] and "result" not in by_rid[900002][0], by_rid
    assert by_rid[900003] == [] and by_rid[900004] == [], "a forged channel or page id was answered"
    said = json.dumps(answers)
    for secret in (victim["topic"], victim["address"], victim["address"].lower(), victim["solana"]):
        assert secret not in said, f"the hostile page heard {secret}"
    assert not re.search(r"0x[0-9a-fA-F]{130}", said), "the hostile page heard a signature"
    assert not [text for text in texts(run) if hostile.origin in text], "the hostile site reached a dialog"
    assert not [s for s in run.sessions_after_revoke if s.get("origin") == hostile.origin]


def test_setup_writes_the_manifests_the_wallet_extension_needs_and_assembles_it(tmp_path):
    """`scripts/setup.sh --manifests` (README.md, "A wallet for web pages"): the host's manifest
    under the name the extension's background connects to, allowing both of its IDs, and the
    extension assembled for both browsers; the README names the ID its key gives."""
    from test_setup import run_setup  # the scratch HOME test_setup.py runs setup.sh in

    result, home = run_setup(tmp_path, "--manifests")
    assert result.returncode == 0, result.stdout + result.stderr
    source = REPO / "examples" / "wallet-extension"
    chromium_manifest = json.loads((source / "chromium" / "manifest.json").read_text())
    addon = json.loads((source / "firefox" / "manifest.json").read_text())["browser_specific_settings"]["gecko"]["id"]
    host = native_host_name(source)
    chromium = json.loads((home / ".config/chromium/NativeMessagingHosts" / f"{host}.json").read_text())
    assert f"chrome-extension://{chromium_id(chromium_manifest)}/" in chromium["allowed_origins"]
    firefox = json.loads((home / ".mozilla/native-messaging-hosts" / f"{host}.json").read_text())
    assert addon in firefox["allowed_extensions"]
    for browser in ("chromium", "firefox"):
        assert (home / ".local/share/wallet-bridge" / f"wallet-extension-{browser}" / "manifest.json").is_file()
    readme = (REPO / "README.md").read_text()
    assert f"the ID `{chromium_id(chromium_manifest)}`" in readme and f"`{addon}`" in readme
