"""scripts/setup.sh (issue 35): the browsers' manifests only when asked, the host answering either
way. Runs the script with --binary (the debug build: no packages installed, no release build) in
a scratch HOME, so nothing outside it is touched."""
import os
import subprocess

from wallet_helpers import REPO, binary_path

EXAMPLE_CHROME = "oeloogpinfhebldicgpgcpochgkpponn"


def run_setup(tmp_path, *args, **extra_env):
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local/share"), "XDG_STATE_HOME": str(home / ".local/state"),
           "XDG_RUNTIME_DIR": str(tmp_path), "WALLET_BRIDGE_KEYSTORE": str(tmp_path / "keystore"), **extra_env}
    result = subprocess.run(["bash", str(REPO / "scripts/setup.sh"), "--binary", binary_path(), *args], env=env,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    return result, home


def manifests(home):
    """Every file in a native-messaging manifest folder under `home`."""
    found = []
    for folder, _, names in os.walk(home):
        if os.path.basename(folder) in ("NativeMessagingHosts", "native-messaging-hosts"):
            found += [os.path.relpath(os.path.join(folder, name), home) for name in names]
    return sorted(found)


def test_without_asking_no_manifest_is_written_and_the_host_answers(tmp_path):
    result, home = run_setup(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert manifests(home) == []
    assert not (home / ".mozilla").exists() and not (home / ".config/chromium").exists()
    assert "not asked for (--manifests), none written" in result.stderr
    # The installed binary answered GetAccounts (an empty keystore: no addresses).
    assert (home / ".local/bin/wallet-bridge").is_file()
    assert '"addresses"' in result.stdout, result.stdout


def test_manifests_when_asked_with_the_option_or_by_naming_an_extension(tmp_path):
    result, home = run_setup(tmp_path, "--manifests")
    assert result.returncode == 0, result.stdout + result.stderr
    assert manifests(home) == [".config/chromium/NativeMessagingHosts/com.walletbridge.host.json",
                               ".mozilla/native-messaging-hosts/com.walletbridge.host.json"]
    assert EXAMPLE_CHROME in (home / ".config/chromium/NativeMessagingHosts/com.walletbridge.host.json").read_text()

    other = tmp_path / "other"
    other.mkdir()
    result, home = run_setup(other, WALLET_BRIDGE_FIREFOX_ADDON="mine@example.org")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "mine@example.org" in (home / ".mozilla/native-messaging-hosts/com.walletbridge.host.json").read_text()


def test_an_unknown_option_is_refused(tmp_path):
    result = subprocess.run(["bash", str(REPO / "scripts/setup.sh"), "--manifest"], capture_output=True, text=True,
                            timeout=30, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert "unknown option --manifest" in result.stderr
