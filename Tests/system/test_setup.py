"""scripts/setup.sh (issue 35): the browsers' manifests only when asked, the host answering either
way. Runs the script with --binary (the debug build: no packages installed, no release build) in
a scratch HOME, so nothing outside it is touched."""
import os
import signal
import subprocess

from wallet_helpers import REPO, all_pids, binary_path, proc_arguments

EXAMPLE_CHROME = "oeloogpinfhebldicgpgcpochgkpponn"


def run_setup(tmp_path, *args, cwd=None, binary=None, **extra_env):
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_DATA_HOME": str(home / ".local/share"), "XDG_STATE_HOME": str(home / ".local/state"),
           "XDG_RUNTIME_DIR": str(tmp_path), "WALLET_BRIDGE_KEYSTORE": str(tmp_path / "keystore"), **extra_env}
    result = subprocess.run(["bash", str(REPO / "scripts/setup.sh"), "--binary", binary or binary_path(), *args], env=env,
                            capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL, cwd=cwd)
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
    # The hint to write them comes only when they were not written.
    assert "writes the browsers' manifests for it" in result.stderr
    # The installed binary answered GetAccounts (an empty keystore: no addresses).
    assert (home / ".local/bin/wallet-bridge").is_file()
    assert '"addresses"' in result.stdout, result.stdout


def test_manifests_when_asked_with_the_option_or_by_naming_an_extension(tmp_path):
    result, home = run_setup(tmp_path, "--manifests")
    assert result.returncode == 0, result.stdout + result.stderr
    assert manifests(home) == [".config/chromium/NativeMessagingHosts/com.walletbridge.host.json",
                               ".mozilla/native-messaging-hosts/com.walletbridge.host.json"]
    assert EXAMPLE_CHROME in (home / ".config/chromium/NativeMessagingHosts/com.walletbridge.host.json").read_text()
    assert "writes the browsers' manifests" not in result.stderr, result.stderr

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


def agents_of(binary):
    """The pids of `binary agent` processes (the agent a host starts runs from the host's binary)."""
    return [pid for pid in all_pids() if proc_arguments(pid)[:2] == [str(binary), "agent"]]


def test_with_a_key_and_no_display_the_host_answers_no_prompt_and_no_agent_is_left(tmp_path):
    # A key exists: the example extension's GetAccounts needs the user's consent, which a machine
    # without a display cannot ask for. That is an answer (-1, no_prompt), not a failed setup.
    env = {"HOME": str(tmp_path), "PATH": os.environ["PATH"], "WALLET_BRIDGE_KEYSTORE": str(tmp_path / "keystore")}
    passphrase = tmp_path / "passphrase"
    passphrase.write_text("scratch keystore only\n")
    subprocess.run([binary_path(), "keys", "create", "--label", "main", "--passphrase-file", str(passphrase)], env=env,
                   check=True, capture_output=True, timeout=60)
    result, home = run_setup(tmp_path)
    installed = home / ".local/bin/wallet-bridge"
    try:
        assert result.returncode == 0, result.stdout + result.stderr
        assert '"no_prompt"' in result.stdout, result.stdout
        assert "no_prompt" in result.stderr and "without a display" in result.stderr, result.stderr
        assert "wallet-bridge is installed as" in result.stderr, result.stderr
        assert agents_of(installed) == [], "the demo call left an agent running"
    finally:
        for pid in agents_of(installed):
            os.kill(pid, signal.SIGKILL)


def test_a_relative_binary_is_the_callers_not_the_checkouts(tmp_path):
    caller = tmp_path / "caller"
    caller.mkdir()
    os.symlink(binary_path(), caller / "my-wallet-bridge")
    result, home = run_setup(tmp_path, cwd=caller, binary="my-wallet-bridge")
    assert result.returncode == 0, result.stdout + result.stderr
    assert (home / ".local/bin/wallet-bridge").read_bytes() == open(binary_path(), "rb").read()

    missing, _ = run_setup(tmp_path, cwd=caller, binary="no-such-binary")
    assert missing.returncode == 2
    assert f"--binary {caller}/no-such-binary is not an executable file" in missing.stderr, missing.stderr


def test_run_again_with_the_binary_it_installed(tmp_path):
    """`setup.sh --binary ~/.local/bin/wallet-bridge`: the installed binary is kept, not copied
    onto itself (install(1) refuses that, and the script stopped there)."""
    first, home = run_setup(tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    installed = home / ".local/bin/wallet-bridge"
    again, _ = run_setup(tmp_path, binary=str(installed))
    assert again.returncode == 0, again.stdout + again.stderr
    assert installed.read_bytes() == open(binary_path(), "rb").read()
    assert '"addresses"' in again.stdout, again.stdout


def test_the_extensions_folder_is_the_keystores_and_made_closed_to_other_users(tmp_path):
    """The reference wallet extension is assembled in $XDG_DATA_HOME/wallet-bridge, the default
    keystore's folder, which the wallet warns about when other users can read it: made 0700 even
    under the usual umask 022, and one already there is never loosened."""
    previous = os.umask(0o022)
    try:
        result, home = run_setup(tmp_path, "--manifests")
        assert result.returncode == 0, result.stdout + result.stderr
        folder = home / ".local/share/wallet-bridge"
        assert (folder / "wallet-extension-chromium/manifest.json").is_file()
        assert os.stat(folder).st_mode & 0o7777 == 0o700, oct(os.stat(folder).st_mode)

        other = tmp_path / "other"
        (other / "home/.local/share/wallet-bridge").mkdir(parents=True)
        os.chmod(other / "home/.local/share/wallet-bridge", 0o710)
        result, home = run_setup(other, "--manifests")
        assert result.returncode == 0, result.stdout + result.stderr
        assert os.stat(home / ".local/share/wallet-bridge").st_mode & 0o7777 == 0o710
    finally:
        os.umask(previous)
