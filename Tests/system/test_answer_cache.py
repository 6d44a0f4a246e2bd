"""No answer cache (docs/agent.md, "Why no answer is kept between hosts"): a GetAccounts answer
kept in a file for the next host could be rewritten by any process of the user, and the next
host would hand the extension that process's address until one of the files it was stamped
from changed. No host keeps one, and none answers from one. Real processes, real files."""
import base64
import time

from wallet_helpers import CHROME_ORIGIN, GET_ACCOUNTS, agent_pids

ATTACKER = base64.b64encode(bytes(range(32))).decode()


def one_message(wallet, caller=CHROME_ORIGIN):
    host = wallet.host(caller, WALLET_BRIDGE_LOG="debug")
    host.send(GET_ACCOUNTS)
    host.process.stdin.close()
    reply = host.receive()
    host.close()
    return reply


def test_a_rewritten_kept_answer_is_never_given_and_none_is_kept(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    # A host kept an answer only from files that last changed two seconds or more before they
    # were read: wait that long, so that a host that keeps answers would keep this one. Not
    # os.utime: "changed" was the inode's change time (st_ctime) as well as st_mtime, which no
    # call can set back (utime itself makes it now), and nothing in the host can be given
    # another clock for it.
    time.sleep(2.2)
    for _ in range(2):
        assert one_message(wallet)["result"] == {"addresses": [key["address"]]}
    folder = wallet.runtime / "wallet-bridge"
    kept = sorted(folder.glob("answers-*")) if folder.exists() else []
    # What any process of this user can do to such a file: put its own address in it.
    for path in kept:
        path.write_bytes(path.read_bytes().replace(key["address"].encode(), ATTACKER.encode()))
    for _ in range(2):
        assert one_message(wallet)["result"] == {"addresses": [key["address"]]}, "answered from a rewritten file"
    assert kept == [], f"answers kept for the next host: {kept}"
    assert agent_pids(wallet.keystore_path) == [], "a connected extension's accounts are still read from the files"

