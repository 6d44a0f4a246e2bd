"""`wallet-bridge doctor` is a diagnostic: it starts the wallet's host through the manifest as the
browser would, but asks it only `rpc.discover`. With a key in the keystore and the extension not
connected, asking for the accounts would open the "wants to see your accounts" dialog in the
extension's name and, approved, leave a session behind: doctor must do neither, and start no
agent (the shipped host describes itself without one)."""
import json

from wallet_helpers import CHROME_ORIGIN, agent_pids


def test_doctor_opens_no_dialog_starts_no_agent_and_leaves_no_session(wallet, passphrase_file, tmp_path):
    wallet.create(passphrase_file, label="main", connect=())
    profile = tmp_path / "profile"
    wallet.run("install", "--user-data-dir", profile, "--chrome-extension", CHROME_ORIGIN, check=True)

    # The scripted pinentry approves every question (FAKE_PINENTRY_CONNECT defaults to ok), so a
    # question asked would show in its log and as a session.
    doctor = wallet.run("doctor", "--user-data-dir", profile, "--json", "--timeout", "20")
    assert wallet.pinentry_records() == [], "doctor opened a dialog"
    assert agent_pids(wallet.keystore_path) == [], "doctor started the agent"
    assert not wallet.sessions_path.exists() or json.loads(wallet.sessions_path.read_text())["sessions"] == []
    sessions = wallet.run("sessions", "list", "--json", check=True)
    assert json.loads(sessions.stdout) in ([], {"sessions": []}), sessions.stdout

    report = json.loads(doctor.stdout)
    checked = [manifest for browser in report["browsers"] for manifest in browser["manifests"]
               if manifest["path"].startswith(str(profile))]
    assert len(checked) == 1, doctor.stdout
    assert checked[0]["answer"] == 'answers: rpc.discover -> a result ("wallet-bridge")', checked[0]
    assert checked[0]["faults"] == [], checked[0]
