"""Headless Chromium and Firefox ESR with an unpacked extension loaded: the one place that knows
their command lines, Firefox's profile preferences and the .xpi it installs, how a browser is
started, how its report is awaited and how it is quit. Used by scripts/e2e.py,
Tests/system/test_agent_desktop.py, and scripts/headless.py of a project that `wallet-bridge new`
wrote (through its WALLET_BRIDGE_DIR). ../shared/NATIVE-MESSAGING.md has why each flag is there."""
import json
import os
import signal
import subprocess
import time
import zipfile

BROWSERS = ("chromium", "firefox")

# Firefox: an unsigned extension dropped into the profile is installed and enabled at start.
FIREFOX_PREFS = ('user_pref("xpinstall.signatures.required", false);\n'
                 'user_pref("extensions.autoDisableScopes", 0);\n'
                 'user_pref("extensions.enabledScopes", 15);\n')


class Failure(Exception):
    """A browser that exited early, or reported nothing in time (the message says which)."""


def scratch_env(base, scratch, **extra):
    """`base` (an environment) for a scratch user under the folder `scratch`: HOME and every XDG
    base folder, the cache (~/.cache/chromium, ~/.cache/mozilla) and the runtime folder (dconf)
    included, so a browser writes nothing into the caller's folders. Makes HOME and the runtime
    folder (mode 0700); `extra` is added. Returns the new environment."""
    home = os.path.join(scratch, "home")
    runtime = os.path.join(scratch, "run")
    os.makedirs(home, exist_ok=True)
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    os.chmod(runtime, 0o700)
    return dict(base, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                XDG_DATA_HOME=os.path.join(home, ".local", "share"), XDG_STATE_HOME=os.path.join(home, ".local", "state"),
                XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_RUNTIME_DIR=runtime, **extra)


def chromium_command(extension, profile):
    """Headless Chromium on the profile folder `profile`, with the unpacked `extension` loaded."""
    return ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
            f"--load-extension={extension}", "--disable-features=DisableLoadExtensionCommandLineSwitch", "about:blank"]


def firefox_command(extension, profile, addon_id):
    """Headless Firefox ESR on `profile`, a new folder this makes, with `extension` installed
    unsigned as the add-on `addon_id` (the ID its manifest's gecko settings give)."""
    os.makedirs(os.path.join(profile, "extensions"))
    with open(os.path.join(profile, "user.js"), "w") as prefs:
        prefs.write(FIREFOX_PREFS)
    with zipfile.ZipFile(os.path.join(profile, "extensions", addon_id + ".xpi"), "w") as xpi:
        for folder, _, files in os.walk(extension):
            for name in files:
                path = os.path.join(folder, name)
                xpi.write(path, os.path.relpath(path, extension))
    return ["firefox-esr", "--headless", "--profile", profile, "about:blank"]


def command(browser, extension, profile, firefox_addon):
    """The command line for `browser` ("chromium" or "firefox")."""
    if browser == "chromium":
        return chromium_command(extension, profile)
    if browser == "firefox":
        return firefox_command(extension, profile, firefox_addon)
    raise ValueError(f"unknown browser: {browser} (chromium or firefox)")


def start(command_line, env, log):
    """Starts a browser in its own process group, its output into the open file `log`."""
    return subprocess.Popen(command_line, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            start_new_session=True)


def wait_for_report(process, report_path, timeout, browser):
    """The first JSON line the extension's report host wrote to `report_path`; Failure when the
    browser exits first or nothing comes within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if os.path.exists(report_path) and os.path.getsize(report_path) > 0:
            with open(report_path) as lines:
                return json.loads(lines.readline())
        if process.poll() is not None:
            raise Failure(f"{browser} exited with status {process.returncode} before reporting")
        time.sleep(0.25)
    raise Failure(f"no report from the extension in {browser} within {timeout} s")


def quit_browsers(processes, timeout):
    """Quits each browser as a user would (SIGTERM to the browser alone), so the browser itself
    has to end its hosts; only a browser that will not quit within `timeout` seconds gets its
    whole group killed. `processes` maps a name to its process; returns the names killed."""
    for process in processes.values():
        process.send_signal(signal.SIGTERM)
    killed = []
    for name, process in processes.items():
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
            killed.append(name)
    return killed
