#!/usr/bin/env python3
"""End to end in real browsers: headless Chromium and Firefox ESR drive the real host.

For each browser: a scratch HOME, profile and keystore; the host installed per user with
`wallet-bridge install`, as a new user would; the example extension (examples/extension) loaded; every call goes
extension -> JS package -> browser -> host -> browser -> extension. The extension reports its
results through the test host's `test.report` method, and this script checks each one:
signatures verify (Python's cryptography), error codes are the documented ones, the custom method
round-trips, both transports work, an oversized reply arrives as -32000 without dropping the
port. After the browser quits, no host process may be left. Every wait is bounded; a failure
prints what the browser and the host said.

    scripts/e2e.py [chromium] [firefox] [--together] [--self-test]

--together runs both browsers at once against the shipped `wallet-bridge` host and its agent
(one HOME, one keystore, one agent), with the scripted pinentry (Tests/Support/fake-pinentry)
as the person: each browser's extension (Tests/e2e/signing-together) asks for several
signatures at the same time. The first dialog is held until all of them wait in the agent's
queue; then the test checks that one passphrase and a confirmation for each other request were
asked, that no two dialogs were ever open at once, that each dialog named its extension as
that browser's own profile names it, that every signature verifies, and that no host is left
running and `agent stop` ends the agent.

--sessions runs each browser against the shipped host and its agent with the sessions extension
(Tests/e2e/sessions): it connects (the scripted pinentry approves the dialog, which must name the
extension) and signs a message in the session (verified here); then this script makes a key
with `wallet-bridge keys create`, and the extension must hear accountsChanged on its port within
a second; revokes the session with `wallet-bridge sessions revoke`, and the extension must hear
session_delete and then be refused with 7001; and a second session, with a short configured
lifetime, must expire and say so.

--self-test also runs a copy of the extension broken on purpose (a wrong method name) and
checks that the run fails and names the broken step.

--installed runs --together and --sessions against an installed package (scripts/test-deb.sh):
the shipped host is /usr/bin/wallet-bridge, reached through the package's system-wide manifests
(no per-user install of it), which allow the example extension's IDs.
"""
import argparse, base64, json, os, shutil, signal, subprocess, sys, tempfile, time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.exceptions import InvalidSignature

import headless_browser
from headless_browser import Failure

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("WALLET_BRIDGE_BUILD_DIR", os.path.join(ROOT, ".build", "debug"))
CLI = os.path.join(BUILD, "wallet-bridge")
# With --installed, the shipped host of the package (scripts/test-deb.sh) instead.
INSTALLED_CLI = "/usr/bin/wallet-bridge"
INSTALLED = False
HOST = os.path.join(BUILD, "wallet-bridge-conformance-host")
APPLICATION = "com.walletbridge.host"
CHROME_EXTENSION_ID = "oeloogpinfhebldicgpgcpochgkpponn"  # from the "key" in the Chromium manifest
FIREFOX_ADDON_ID = "example@wallet-bridge.dev"
REPORT_APPLICATION = "com.walletbridge.e2e_report"  # the together run's second host, for test.report
TOGETHER_EXTENSION = os.path.join(ROOT, "Tests", "e2e", "signing-together", "background.js")
TOGETHER_SIGNATURES = 3  # per browser, as in that extension
FAKE_PINENTRY = os.path.join(ROOT, "Tests", "Support", "fake-pinentry")
EXTENSION_NAME = "wallet-bridge example"  # the name in both example manifests
SESSIONS_EXTENSION = os.path.join(ROOT, "Tests", "e2e", "sessions", "background.js")
SESSION_LIFETIME_S = 15  # the sessions run's configured lifetime: its second session expires
REPORT_TIMEOUT_S = 90
QUIT_TIMEOUT_S = 20
HOST_EXIT_TIMEOUT_S = 10
EXPECTED_STEPS = ["getAccounts", "signPayloads", "customMethod", "batch", "unknownMethod", "invalidPayloads",
                  "largeReplyMessage", "portConcurrent", "largeReplyPort", "portAfterLargeReply"]


def log(message):
    print(message, file=sys.stderr, flush=True)


def run(command, env=None, **kwargs):
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, **kwargs)
    if result.returncode != 0:
        raise Failure(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    return result.stdout


def host_processes(binary=HOST, home=None):
    """PIDs of live (not zombie) processes running `binary` (the test host by default), only
    those whose HOME is `home` when given."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/exe") != os.path.realpath(binary):
                continue
            if home is not None:
                with open(f"/proc/{entry}/environ", "rb") as environ:
                    if f"HOME={home}".encode() not in environ.read().split(b"\0"):
                        continue
            with open(f"/proc/{entry}/stat") as stat:
                state = stat.read().rsplit(")", 1)[1].split()[0]
            if state not in ("Z", "X"):
                found.append(int(entry))
        except OSError:
            continue
    return found


def quit_browsers(processes):
    return headless_browser.quit_browsers(processes, QUIT_TIMEOUT_S)


def prepare(browser, scratch, extension_source):
    """Scratch home, host install, extension and browser command line. Returns (command, env)."""
    home = os.path.join(scratch, "home")
    os.makedirs(home)
    passphrase_file = os.path.join(scratch, "passphrase")
    with open(passphrase_file, "w") as out:
        out.write("scratch keystore only, never a real one\n")
    # The browser passes its environment to the hosts it starts: that is how the host gets the
    # scratch keystore, the non-interactive passphrase (standing in for the pinentry consent)
    # and the report file.
    env = headless_browser.scratch_env(
        os.environ, scratch, WALLET_BRIDGE_TEST_REPORT=os.path.join(scratch, "report.jsonl"), WALLET_BRIDGE_LOG="warning",
        WALLET_BRIDGE_TEST_WALLET="keystore", WALLET_BRIDGE_KEYSTORE=os.path.join(scratch, "keystore"),
        WALLET_BRIDGE_PASSPHRASE_FILE=passphrase_file)
    run([CLI, "keys", "create", "--label", "e2e", "--passphrase-file", passphrase_file], env=env)
    extension = os.path.join(scratch, "extension")
    run([os.path.join(ROOT, "scripts", "build-example-extension.sh"), browser, extension])
    if extension_source:
        shutil.copy(extension_source, os.path.join(extension, "background.js"))
    if browser == "chromium":
        # The plain per-user install, as a new user would run it, must land where Chromium's
        # default profile looks. Headless Chromium would use a throwaway profile, so it is
        # pointed at the default location, $XDG_CONFIG_HOME/chromium, explicitly.
        run([CLI, "install", "--browser", "chromium", "--chrome-extension", CHROME_EXTENSION_ID, "--binary", HOST], env=env)
        profile = os.path.join(env["XDG_CONFIG_HOME"], "chromium")
    else:
        run([CLI, "install", "--browser", "firefox", "--firefox-addon", FIREFOX_ADDON_ID, "--binary", HOST], env=env)
        profile = os.path.join(scratch, "profile")
    command = headless_browser.command(browser, extension, profile, FIREFOX_ADDON_ID)
    return command, env


def drive(browser, scratch, command, env):
    """Starts the browser, waits for the report, quits the browser. Returns the report."""
    report_path = env["WALLET_BRIDGE_TEST_REPORT"]
    browser_log = open(os.path.join(scratch, "browser.log"), "w")
    process = headless_browser.start(command, env, browser_log)
    try:
        report = headless_browser.wait_for_report(process, report_path, REPORT_TIMEOUT_S, browser)
    finally:
        for name in quit_browsers({browser: process}):
            log(f"{name} did not quit within {QUIT_TIMEOUT_S} s of SIGTERM and was killed")
        browser_log.close()
    return report


def b64bytes(text):
    return base64.b64decode(text, validate=True)


def check(report, browser):
    """Each failed expectation, as a sentence naming the step."""
    problems = []
    steps = {entry["name"]: entry for entry in report.get("results", [])}
    if report.get("browser") != browser:
        problems.append(f"report came from {report.get('browser')!r}, expected {browser!r}")
    for name in EXPECTED_STEPS:
        if name not in steps:
            problems.append(f"{name}: step missing from the report")

    def ok(name):
        entry = steps.get(name)
        if entry is None:
            return None
        if not entry["ok"]:
            error = entry["error"]
            problems.append(f"{name}: failed with {error['class']} {error.get('code', '')} {error['message']!r}"
                            f" (data: {json.dumps(error.get('data'))})")
            return None
        return entry["value"]

    def rpc_error(name, code):
        entry = steps.get(name)
        if entry is None:
            return None
        if entry["ok"]:
            problems.append(f"{name}: expected NativeRpcError {code}, got a result {json.dumps(entry['value'])[:200]}")
            return None
        error = entry["error"]
        if error["class"] != "NativeRpcError" or error.get("code") != code:
            problems.append(f"{name}: expected NativeRpcError {code}, got {error['class']} {error.get('code')} {error['message']!r}")
            return None
        return error

    def expect(condition, message):
        if not condition:
            problems.append(message)

    accounts = ok("getAccounts")
    addresses = (accounts or {}).get("addresses", [])
    expect(accounts is None or (addresses and all(len(b64bytes(a)) == 32 for a in addresses)),
           f"getAccounts: addresses are not base64 32-byte keys: {addresses}")

    signed = ok("signPayloads")
    if signed:
        public_key = Ed25519PublicKey.from_public_bytes(b64bytes(signed["address"]))
        payloads = [b64bytes(p) for p in signed["payloads"]]
        results = signed.get("signed_payloads", [])
        expect(len(results) == len(payloads), f"signPayloads: {len(results)} signed payloads for {len(payloads)} payloads")
        for index, (payload, signed_payload) in enumerate(zip(payloads, results)):
            raw = b64bytes(signed_payload)
            expect(raw[:-64] == payload, f"signPayloads: signed payload {index} does not start with its payload")
            try:
                public_key.verify(raw[-64:], payload)
            except InvalidSignature:
                problems.append(f"signPayloads: signature {index} does not verify")

    custom = ok("customMethod")
    expect(custom is None or custom == {"pong": "pong: ping (2 more)"}, f"customMethod: wrong result {custom!r}")

    batch = ok("batch")
    if batch is not None:
        by_id = {entry["id"]: entry for entry in batch}
        expect(len(batch) == 3, f"batch: expected 3 entries (the notification has none), got {len(batch)}")
        expect(by_id.get("subtract", {}).get("result") == 19, f"batch: subtract entry is {by_id.get('subtract')}")
        expect(by_id.get("accounts", {}).get("result", {}).get("addresses") == addresses, f"batch: accounts entry is {by_id.get('accounts')}")
        expect(by_id.get("missing", {}).get("error", {}).get("code") == -32601, f"batch: missing-method entry is {by_id.get('missing')}")

    rpc_error("unknownMethod", -32601)
    invalid = rpc_error("invalidPayloads", -2)
    expect(invalid is None or invalid.get("data") == {"valid": [True, False]}, f"invalidPayloads: data is {invalid and invalid.get('data')}")
    for name in ("largeReplyMessage", "largeReplyPort"):
        large = rpc_error(name, -32000)
        expect(large is None or (large.get("data") or {}).get("bytes", 0) > 1048576, f"{name}: data is {large and large.get('data')}")

    concurrent = ok("portConcurrent")
    if concurrent:
        order = concurrent["finished"]
        expect(order.index("fast") < order.index("medium") < order.index("slow"),
               f"portConcurrent: replies did not arrive as the handlers finished: {order}")
        expect(concurrent["fast"] == 6 and concurrent["slow"] == {"slept": 600}, f"portConcurrent: results {concurrent}")
        expect(concurrent["accounts"].get("addresses") == addresses, f"portConcurrent: accounts {concurrent['accounts']}")
    after = ok("portAfterLargeReply")
    expect(after is None or after == 2, f"portAfterLargeReply: {after!r}")
    return problems


def run_browser(browser, extension_source=None):
    """Problems found for one browser run (empty when everything held)."""
    scratch = tempfile.mkdtemp(prefix=f"wallet-bridge-e2e-{browser}-")
    problems = []
    try:
        command, env = prepare(browser, scratch, extension_source)
        report = drive(browser, scratch, command, env)
        problems += check(report, browser)
    except Failure as failure:
        problems.append(str(failure))
    deadline = time.monotonic() + HOST_EXIT_TIMEOUT_S
    while host_processes() and time.monotonic() < deadline:
        time.sleep(0.2)
    leftovers = host_processes()
    if leftovers:
        problems.append(f"host processes left running after {browser} quit: {leftovers}")
        for pid in leftovers:
            os.kill(pid, signal.SIGKILL)
    if problems:
        log_path = os.path.join(scratch, "browser.log")
        if os.path.exists(log_path):
            with open(log_path) as browser_log:
                lines = [line for line in browser_log if "dbus" not in line.lower()]
            log(f"--- {browser} and host stderr (D-Bus noise removed), last 60 lines:\n" + "".join(lines[-60:]))
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    return problems


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise Failure(f"timed out after {timeout} s waiting for {what}")


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def check_together(reports, dialogs, address):
    """Each failed expectation of the together run, as a sentence."""
    problems = []
    for browser, report in reports.items():
        steps = {entry["name"]: entry for entry in report.get("results", [])}
        accounts = steps.get("getAccounts", {})
        if not accounts.get("ok") or accounts["value"].get("addresses") != [address]:
            problems.append(f"{browser} getAccounts: {accounts}")
        for number in range(1, TOGETHER_SIGNATURES + 1):
            entry = steps.get(f"sign{number}")
            if not entry or not entry["ok"]:
                problems.append(f"{browser} sign{number}: {entry}")
                continue
            signed = entry["value"]
            payload = b64bytes(signed["payloads"][0])
            raw = b64bytes(signed["signed_payloads"][0])
            if payload != f"{browser} signature {number}".encode() or raw[:-64] != payload:
                problems.append(f"{browser} sign{number}: signed the wrong payload")
                continue
            try:
                Ed25519PublicKey.from_public_bytes(b64bytes(address)).verify(raw[-64:], payload)
            except InvalidSignature:
                problems.append(f"{browser} sign{number}: the signature does not verify")

    # One dialog at a time, for both browsers together.
    open_dialogs = set()
    for record in dialogs:
        if record.get("event") == "start":
            if open_dialogs:
                problems.append(f"pinentry {record['pid']} started while {sorted(open_dialogs)} was still open")
            open_dialogs.add(record["pid"])
        elif record.get("event") in ("exit", "terminated"):
            open_dialogs.discard(record["pid"])
    asked = [r["command"] for r in dialogs if r.get("command") in ("GETPIN", "CONFIRM")]
    total = 2 * TOGETHER_SIGNATURES
    if sorted(asked) != ["CONFIRM"] * (total - 1) + ["GETPIN"]:
        problems.append(f"expected 1 passphrase and {total - 1} confirmations, the dialogs asked {asked}")
    if asked and asked[0] != "GETPIN":
        problems.append(f"the first dialog was {asked[0]}, not the passphrase")
    # Each dialog names its extension: the name from that browser's profile, and its ID.
    texts = [r["argument"] for r in dialogs if r.get("command") == "SETDESC"]
    for browser, identity in (("chromium", f"The extension with ID {CHROME_EXTENSION_ID},\ninstalled as \"{EXTENSION_NAME}\",\n"),
                              ("firefox", f"The Firefox add-on with ID {FIREFOX_ADDON_ID},\ninstalled as \"{EXTENSION_NAME}\",\n")):
        named = [text for text in texts if text.startswith(identity)]
        if len(named) != TOGETHER_SIGNATURES:
            problems.append(f"{len(named)} dialogs began with {identity!r}, expected {TOGETHER_SIGNATURES}; the texts: {texts}")
        previews = [number for number in range(1, TOGETHER_SIGNATURES + 1)
                    if any(f"{browser} signature {number}" in text for text in named)]
        if len(previews) != TOGETHER_SIGNATURES:
            problems.append(f"{browser}: the dialogs showed the text of signatures {previews} only")
    return problems


def connect_before(keystore, callers):
    """Writes sessions for `callers` beside the keystore, as the agent stores approved ones
    (docs/sessions.md): the extensions were connected before, and this run is about signing."""
    now = int(time.time())
    namespaces = {"solana": {"chains": ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"], "methods": ["solana_signMessage"],
                             "events": ["accountsChanged"]}}
    sessions = [{"topic": os.urandom(32).hex(), "caller": {"kind": kind, "id": identity},
                 "metadata": {"name": "e2e", "description": "", "url": "", "icons": []},
                 "requiredNamespaces": namespaces, "optionalNamespaces": {}, "namespaces": namespaces,
                 "created": now, "expiry": now + 3600} for kind, identity in callers]
    # Beside the keystore file: keystore.json -> keystore.sessions.json, any other name + .sessions.json.
    path = (keystore[:-len(".json")] if keystore.endswith(".json") else keystore) + ".sessions.json"
    with open(path, "w") as out:
        json.dump({"version": 1, "sessions": sessions}, out)
    os.chmod(path, 0o600)


def scratch_user(name, config=None, **extra):
    """A scratch user for a run against the shipped host and its agent: a home and XDG folders,
    a runtime folder of its own (so its own agent), a passphrase file, and the scripted pinentry
    (Tests/Support/fake-pinentry) as the person. Returns (scratch, home, passphrase file, env)."""
    scratch = tempfile.mkdtemp(prefix=f"wallet-bridge-e2e-{name}-")
    passphrase = os.path.join(scratch, "passphrase")
    with open(passphrase, "w") as out:
        out.write("scratch keystore only, never a real one\n")  # names no key label: the strength check refuses that
    base = {key: value for key, value in os.environ.items() if not key.startswith(("WALLET_BRIDGE_", "FAKE_PINENTRY_"))}
    env = headless_browser.scratch_env(base, scratch, WALLET_BRIDGE_PINENTRY=FAKE_PINENTRY, FAKE_PINENTRY_PASSPHRASES=passphrase,
                                       FAKE_PINENTRY_LOG=os.path.join(scratch, "pinentry.jsonl"), **extra)
    home = env["HOME"]
    if config is not None:
        config_folder = os.path.join(env["XDG_CONFIG_HOME"], "wallet-bridge")
        os.makedirs(config_folder, mode=0o700)
        with open(os.path.join(config_folder, "config.json"), "w") as out:
            json.dump(config, out)
        os.chmod(os.path.join(config_folder, "config.json"), 0o600)
    return scratch, home, passphrase, env


def end_scratch_user(scratch, home, env, problems, logs):
    """After the browsers quit: no host may be left (the agent outlives them by design), and
    `agent stop` must end the agent. Then the logs when something failed, else the scratch goes."""
    agents = subprocess.run([CLI, "agent", "status", "--json"], env=env, capture_output=True, text=True, timeout=30)
    agent_pid = json.loads(agents.stdout).get("pid") if agents.returncode == 0 else None
    try:
        wait_for(lambda: set(host_processes(CLI, home)) <= {agent_pid} and not host_processes(HOST, home), HOST_EXIT_TIMEOUT_S,
                 "the hosts to exit")
    except Failure:
        problems.append(f"hosts left running after the browsers quit: {sorted(set(host_processes(CLI, home)) - {agent_pid})}"
                        f" and {host_processes(HOST, home)}")
    run([CLI, "agent", "stop"], env=env)
    try:
        wait_for(lambda: not host_processes(CLI, home), HOST_EXIT_TIMEOUT_S, "the agent to end")
    except Failure:
        problems.append(f"the agent {agent_pid} still runs after `agent stop`")
    for pid in host_processes(CLI, home) + host_processes(HOST, home):
        os.kill(pid, signal.SIGKILL)
    if not problems:
        shutil.rmtree(scratch, ignore_errors=True)
        return
    for name in [*logs, "home/.local/state/wallet-bridge/agent.log", "pinentry.jsonl"]:
        path = os.path.join(scratch, name)
        if os.path.exists(path):
            with open(path, errors="replace") as text:
                lines = [line for line in text if "dbus" not in line.lower()]
            log(f"--- {name} (D-Bus noise removed), last 40 lines:\n" + "".join(lines[-40:]))


def install_shipped_host(browser, allowed, env):
    """The shipped host, installed per user as a new user would; nothing with --installed, whose
    package wrote the system-wide manifests the browser finds instead."""
    if not INSTALLED:
        run([CLI, "install", "--browser", browser, *allowed], env=env)


def run_together():
    """Both browsers sign at the same time through the shipped host and one agent."""
    scratch, home, passphrase, env = scratch_user("together", FAKE_PINENTRY_DELAY="0.2")
    dialogs_log = env["FAKE_PINENTRY_LOG"]
    release = os.path.join(scratch, "release-the-dialogs")
    env.update(WALLET_BRIDGE_KEYSTORE=os.path.join(scratch, "keystore"), FAKE_PINENTRY_HOLD_FILE=release)
    problems = []
    processes = {}
    logs = []
    try:
        created = json.loads(run([CLI, "keys", "create", "--label", "together", "--passphrase-file", passphrase, "--json"], env=env))
        address = created["address"]
        connect_before(env["WALLET_BRIDGE_KEYSTORE"], [("chrome-extension", f"chrome-extension://{CHROME_EXTENSION_ID}/"),
                                                       ("firefox-addon", FIREFOX_ADDON_ID)])
        commands = {}
        for browser in ("chromium", "firefox"):
            extension = os.path.join(scratch, f"extension-{browser}")
            run([os.path.join(ROOT, "scripts", "build-example-extension.sh"), browser, extension])
            shutil.copy(TOGETHER_EXTENSION, os.path.join(extension, "background.js"))
            allowed = ["--chrome-extension", CHROME_EXTENSION_ID] if browser == "chromium" else ["--firefox-addon", FIREFOX_ADDON_ID]
            install_shipped_host(browser, allowed, env)
            run([CLI, "install", "--browser", browser, *allowed, "--name", REPORT_APPLICATION, "--binary", HOST], env=env)
            profile = os.path.join(env["XDG_CONFIG_HOME"], "chromium") if browser == "chromium" else os.path.join(scratch, "profile")
            commands[browser] = headless_browser.command(browser, extension, profile, FIREFOX_ADDON_ID)
        for browser, command in commands.items():
            browser_log = open(os.path.join(scratch, f"{browser}.log"), "w")
            logs.append(browser_log)
            browser_env = dict(env, WALLET_BRIDGE_TEST_REPORT=os.path.join(scratch, f"report-{browser}.jsonl"))
            processes[browser] = headless_browser.start(command, browser_env, browser_log)

        def all_waiting():
            for browser, process in processes.items():
                if process.poll() is not None:
                    raise Failure(f"{browser} exited with status {process.returncode} before signing")
            status = subprocess.run([CLI, "agent", "status", "--json"], env=env, capture_output=True, text=True, timeout=30)
            return status.returncode == 0 and json.loads(status.stdout).get("signature_requests") == 2 * TOGETHER_SIGNATURES
        wait_for(all_waiting, REPORT_TIMEOUT_S, f"{2 * TOGETHER_SIGNATURES} signature requests in the agent's queue")
        with open(release, "w"):
            pass  # the person starts answering

        def reported():
            return all(read_lines(os.path.join(scratch, f"report-{browser}.jsonl")) for browser in processes)
        wait_for(reported, REPORT_TIMEOUT_S, "both browsers' reports")
        reports = {browser: read_lines(os.path.join(scratch, f"report-{browser}.jsonl"))[0] for browser in processes}
        problems += check_together(reports, read_lines(dialogs_log), address)
    except Failure as failure:
        problems.append(str(failure))
    finally:
        for name in quit_browsers(processes):
            problems.append(f"{name} did not quit within {QUIT_TIMEOUT_S} s of SIGTERM")
        for browser_log in logs:
            browser_log.close()

    end_scratch_user(scratch, home, env, problems, ["chromium.log", "firefox.log"])
    return problems


B58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58encode(data):
    number = int.from_bytes(data, "big")
    text = ""
    while number:
        number, digit = divmod(number, 58)
        text = B58_ALPHABET[digit] + text
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + text


def b58decode(text):
    number = 0
    for character in text:
        number = number * 58 + B58_ALPHABET.index(character)
    body = number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b""
    return b"\0" * (len(text) - len(text.lstrip("1"))) + body


def run_sessions(browser):
    """One browser's sessions run (see --sessions). Returns the problems found."""
    scratch, home, passphrase, env = scratch_user(f"sessions-{browser}", config={"session_lifetime": SESSION_LIFETIME_S})
    dialogs_log = env["FAKE_PINENTRY_LOG"]
    report_path = os.path.join(scratch, "report.jsonl")
    env["WALLET_BRIDGE_TEST_REPORT"] = report_path
    problems = []
    process = None
    browser_log = open(os.path.join(scratch, f"{browser}.log"), "w")

    def expect(condition, message):
        if not condition:
            problems.append(message)

    def phase(name):
        def found():
            for entry in read_lines(report_path):
                if entry.get("phase") == "failed":
                    raise Failure(f"the extension failed: {entry['error']}")
                if entry.get("phase") == name:
                    return entry
            if process.poll() is not None:
                raise Failure(f"{browser} exited with status {process.returncode}")
            return None
        return wait_for(found, REPORT_TIMEOUT_S, f"the extension's {name!r} report")

    try:
        first = json.loads(run([CLI, "keys", "create", "--label", "first", "--passphrase-file", passphrase, "--json"], env=env))
        extension = os.path.join(scratch, "extension")
        run([os.path.join(ROOT, "scripts", "build-example-extension.sh"), browser, extension])
        shutil.copy(SESSIONS_EXTENSION, os.path.join(extension, "background.js"))
        allowed = ["--chrome-extension", CHROME_EXTENSION_ID] if browser == "chromium" else ["--firefox-addon", FIREFOX_ADDON_ID]
        install_shipped_host(browser, allowed, env)
        run([CLI, "install", "--browser", browser, *allowed, "--name", REPORT_APPLICATION, "--binary", HOST], env=env)
        profile = os.path.join(env["XDG_CONFIG_HOME"], "chromium") if browser == "chromium" else os.path.join(scratch, "profile")
        process = headless_browser.start(headless_browser.command(browser, extension, profile, FIREFOX_ADDON_ID), env,
                                         browser_log)

        connected = phase("connected")
        session = connected["session"]
        first_b58 = connected["pubkey"]
        expect(connected["session"]["namespaces"]["solana"]["accounts"] == [f"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:{first_b58}"],
               f"connected: the session's accounts are {session['namespaces']}")
        expect(b58decode(first_b58) == base64.b64decode(first["address"]), "connected: the session's key is not the keystore's")
        try:
            Ed25519PublicKey.from_public_bytes(b58decode(first_b58)).verify(bytes(connected["signature"]), f"hello from {browser}".encode())
        except InvalidSignature:
            problems.append("connected: the message's signature does not verify")
        texts = [r["argument"] for r in read_lines(dialogs_log) if r.get("command") == "SETDESC"]
        identity = (f"The extension with ID {CHROME_EXTENSION_ID},\ninstalled as \"{EXTENSION_NAME}\",\n" if browser == "chromium"
                    else f"The Firefox add-on with ID {FIREFOX_ADDON_ID},\ninstalled as \"{EXTENSION_NAME}\",\n")
        connect_texts = [text for text in texts if "asks to connect to your wallet" in text]
        expect(len(connect_texts) == 1 and connect_texts[0].startswith(identity)
               and f'It says it is: "e2e dApp in {browser}", https://example.org' in connect_texts[0]
               and "(its own words, not checked)" in connect_texts[0], f"connected: the connect dialog said {connect_texts}")

        time.sleep(0.5)  # the port's host listens for events 200 ms after its first reply
        made_before = time.time()
        second = json.loads(run([CLI, "keys", "create", "--label", "second", "--passphrase-file", passphrase, "--json"], env=env))
        made_after = time.time()
        heard = phase("accounts")
        delay = heard["heardAt"] / 1000 - made_after
        expect(delay < 1.0, f"accounts: heard {delay:.2f} s after `keys create` returned (it took {made_after - made_before:.2f} s)")
        second_b58 = b58encode(base64.b64decode(second["address"]))
        expect(heard["event"]["topic"] == session["topic"] and heard["event"]["event"]["name"] == "accountsChanged"
               and heard["event"]["event"]["data"][-1].endswith(second_b58), f"accounts: the event was {heard['event']}")

        run([CLI, "sessions", "revoke", session["topic"]], env=env)
        revoked = phase("revoked")
        expect(revoked["event"] == {"topic": session["topic"], "reason": {"code": 6000, "message": "User disconnected"}},
               f"revoked: the event was {revoked['event']}")
        expect(not revoked["after"]["ok"] and revoked["after"]["error"].get("code") == 7001,
               f"revoked: extending the revoked session gave {revoked['after']}")

        expired = phase("expired")
        expect(expired["event"] == {"topic": expired["topic"]}, f"expired: the event was {expired['event']}")
        late = expired["heardAt"] / 1000 - expired["expiry"]
        expect(-0.05 <= late < 2.0, f"expired: heard {late:.2f} s after the session's expiry")
    except Failure as failure:
        problems.append(str(failure))
    finally:
        for name in quit_browsers({browser: process} if process is not None else {}):
            log(f"{name} did not quit within {QUIT_TIMEOUT_S} s of SIGTERM and was killed")
        browser_log.close()
    end_scratch_user(scratch, home, env, problems, [f"{browser}.log", "report.jsonl"])
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("browsers", nargs="*", metavar="chromium|firefox")
    parser.add_argument("--together", action="store_true")
    parser.add_argument("--sessions", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    parser.add_argument("--installed", action="store_true")
    arguments = parser.parse_args()
    if arguments.installed:
        global CLI, INSTALLED
        CLI, INSTALLED = INSTALLED_CLI, True
        if arguments.browsers or arguments.self_test:
            parser.error("--installed goes with --together and --sessions: the other runs use the conformance host")
    browsers = arguments.browsers or ([] if arguments.together or arguments.sessions else ["chromium", "firefox"])
    unknown = set(browsers) - {"chromium", "firefox"}
    if unknown:
        parser.error(f"unknown browser: {', '.join(sorted(unknown))}")
    for path in (CLI, HOST):
        if not os.access(path, os.X_OK):
            sys.exit(f"{path} is missing: run `swift build` first")
    if host_processes():
        sys.exit(f"test host processes are already running: {host_processes()}")

    outcomes = []

    def report(name, problems, success):
        """Logs one run's problems, or what it checked; counts it."""
        for problem in problems:
            log(f"FAIL {name}: {problem}")
        if not problems:
            log(f"ok   {name}: {success}")
        outcomes.append(not problems)

    for browser in browsers:
        log(f"== {browser}")
        report(browser, run_browser(browser), f"{len(EXPECTED_STEPS)} steps checked, no host left running")

    if arguments.together:
        log("== together: chromium and firefox sign at once through the shipped host and one agent")
        report("together", run_together(),
               f"{2 * TOGETHER_SIGNATURES} signatures, 1 passphrase, never two dialogs, no host left running")

    if arguments.sessions:
        for browser in ("chromium", "firefox"):
            log(f"== sessions: {browser} connects, signs, hears a new key, a revocation and an expiry")
            report(f"sessions {browser}", run_sessions(browser),
                   "connected, signed, heard accountsChanged, session_delete and session_expire")

    if arguments.self_test:
        # The test of the test: a wrong method name must make the run fail, naming the step.
        log("== self-test: chromium with the custom method's name broken on purpose")
        with open(os.path.join(ROOT, "examples", "extension", "background.js")) as source:
            broken = source.read().replace("'MY_CUSTOM_PING_RPC_METHOD'", "'MY_CUSTOM_PNG_RPC_METHOD'")
        broken_path = os.path.join(tempfile.mkdtemp(prefix="wallet-bridge-e2e-broken-"), "background.js")
        with open(broken_path, "w") as out:
            out.write(broken)
        problems = run_browser("chromium", extension_source=broken_path)
        named = [p for p in problems if p.startswith("customMethod:") and "-32601" in p]
        caught = bool(named) and len(problems) == 1
        report("self-test", [] if caught else [f"expected exactly one customMethod -32601 failure, got {problems}"],
               f"the broken extension was caught: {named[0] if caught else ''}")

    failed = outcomes.count(False)
    print(f"e2e: {outcomes.count(True)} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
