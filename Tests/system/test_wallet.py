"""The wallet through the real host over real pipes: GetAccounts, SignPayloads (every signature
checked with an independent Ed25519, Python's `cryptography`), every documented error code,
the caller policy, and pinentry's lifetime."""
import base64
import json
import os
import socket
import struct
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from conftest import PASSPHRASE
from wallet_helpers import (CHROME_ORIGIN, FAKE_PINENTRY, FIREFOX_ID, GET_ACCOUNTS, SIGN_PAYLOADS, FramedPipes, Wallet, audit_entries, b58encode, b64,
                            error_of, process_alive, short_address, wait_until, wait_until_listening)

# A group that no entry names: writable by it is writable by whoever gets that gid.
NO_SUCH_GROUP = 3_999_999


def users_own_private_group():
    """Whether this user's primary group is theirs alone, the rule ChangeableByOthers applies
    (Debian ssh's user-group-modes): named as the user, listing no other member, and no other
    account's primary group."""
    import grp
    import pwd
    me = pwd.getpwuid(os.getuid())
    group = grp.getgrgid(me.pw_gid)
    return (group.gr_name == me.pw_name and set(group.gr_mem) <= {me.pw_name}
            and all(user.pw_name == me.pw_name for user in pwd.getpwall() if user.pw_gid == me.pw_gid))


@pytest.fixture
def answers(wallet):
    """The fake pinentry's answers, one per GETPIN."""
    def write(*lines):
        return wallet.secret_file("answers", "".join(line + "\n" for line in lines))
    return write


def verify(public_key_b64, payload, signed_b64):
    """Checks payload || signature with cryptography's Ed25519; raises InvalidSignature."""
    signed = base64.b64decode(signed_b64, validate=True)
    assert len(signed) == len(payload) + 64
    assert signed[:len(payload)] == payload
    Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key_b64)).verify(signed[len(payload):], payload)


def test_a_key_is_created_and_listed(wallet, passphrase_file):
    created = wallet.create(passphrase_file, label="main")
    public_key = base64.b64decode(created["address"], validate=True)
    assert len(public_key) == 32
    assert created["base58"] == b58encode(public_key)
    assert created["label"] == "main"

    listed = wallet.keys_json("list")
    assert listed["keystore"] == str(wallet.keystore_path)
    assert listed["keys"] == [created]
    human = wallet.keys("list", check=True).stdout.decode()
    assert "main" in human and created["address"] in human and created["base58"] in human

    assert oct(wallet.keystore_path.stat().st_mode & 0o777) == "0o600"
    assert oct(wallet.keystore_path.parent.stat().st_mode & 0o777) == "0o700"
    stored = json.loads(wallet.keystore_path.read_text())
    assert stored["version"] == 2 and stored["kdf"]["algorithm"] == "argon2id13"
    assert stored["keys"][0]["type"] == "ed25519" and stored["keys"][0]["origin"] == {"kind": "generated"}
    assert stored["kdf"]["opslimit"] == 1, "WALLET_BRIDGE_TEST_WEAK_KDF=1 stored the minimum limits"


def test_get_accounts_and_sign_payloads_over_a_pipe_verified_independently(wallet, passphrase_file, answers):
    first = wallet.create(passphrase_file, label="main")
    second = wallet.create(passphrase_file, label="savings")
    pinentry = answers(PASSPHRASE)
    payloads = [b"hello", bytes(range(256)), b"\x00", os.urandom(3000)]

    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=pinentry)
    accounts = host.call(GET_ACCOUNTS)
    assert accounts == {"jsonrpc": "2.0", "id": 1, "result": {"addresses": [first["address"], second["address"]]}}
    for key in (first, second):
        reply = host.sign(key["address"], [b64(p) for p in payloads])
        signed = reply["result"]["signed_payloads"]
        assert len(signed) == len(payloads)
        for payload, signed_payload in zip(payloads, signed):
            verify(key["address"], payload, signed_payload)
        with pytest.raises(InvalidSignature):  # and the check itself is not a no-op
            verify(second["address"] if key is first else first["address"], payloads[0], signed[0])
    host.close()

    descriptions = [argument for command, argument in wallet.pinentry_commands() if command == "SETDESC"]
    assert len(descriptions) == 2, "one prompt per request"
    for description, key in zip(descriptions, (first, second)):
        assert CHROME_ORIGIN.split("//")[1].strip("/") in description
        assert f'"{key["label"]}"' in description
        assert short_address(base64.b64decode(key["address"])) in description
        assert "4 payloads" in description
    exits = [r for r in wallet.pinentry_records() if r.get("event") == "exit"]
    assert len(exits) == 2, "each pinentry was told BYE and exited"


def test_an_open_port_sees_every_change_to_the_keystore(wallet, passphrase_file):
    """GetAccounts answers from a copy of the keystore: keys added, renamed away or deleted by
    `keys` while a port is open show on the next call of that same port."""
    first = wallet.create(passphrase_file, label="main")
    host = wallet.host()
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"]]
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"]]
    second = wallet.create(passphrase_file, label="savings")
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"], second["address"]]
    wallet.keys("delete", first["address"], "--force", check=True)
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [second["address"]]
    host.close()


# The keystore's copy on the watch (KeystoreReadCache, FolderWatch): from a port's second call
# on, the copy is trusted while the kernel signals no change in the keystore's folder, with no
# system call per request. Without the agent, so that the copy is the only thing that answers.
WATCHED = "are signalled to the reader thread"
TRUSTED = "nothing changed in its folder since it was checked"


@pytest.fixture
def without_agent(wallet):
    wallet.config_path.parent.mkdir(parents=True, exist_ok=True)
    wallet.config_path.write_text(json.dumps({"agent": False}))


def test_a_port_on_the_watch_sees_every_change_to_the_keystore(wallet, passphrase_file, without_agent):
    first = wallet.create(passphrase_file, label="main")
    host = wallet.host(WALLET_BRIDGE_LOG="debug")
    for _ in range(3):
        assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"]]
    second = wallet.create(passphrase_file, label="savings")
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"], second["address"]]
    both = wallet.keystore_path.read_bytes()
    wallet.keys("delete", first["address"], "--force", check=True)
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [second["address"]]
    with open(wallet.keystore_path, "r+b") as keystore:  # the same inode, as an editor writes it
        keystore.write(both)
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"], second["address"]]
    stderr = host.close()
    assert WATCHED in stderr and TRUSTED in stderr, "calls were answered on the watch"


def test_a_port_on_the_watch_sees_its_keystore_folder_replaced(wallet, passphrase_file, without_agent):
    """The watch is on the folder, not on its path: a folder moved away ends it, and the port
    checks the file on every call again, which finds the new folder's keystore."""
    first = wallet.create(passphrase_file, label="main")
    host = wallet.host(WALLET_BRIDGE_LOG="debug")
    for _ in range(3):
        assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"]]
    folder = wallet.keystore_path.parent
    folder.rename(folder.with_name("wallet-bridge.old"))
    second = wallet.create(passphrase_file, label="new")
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [second["address"]]
    # The new folder is not watched: a change in it is seen all the same.
    third = wallet.create(passphrase_file, label="third")
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [second["address"], third["address"]]
    stderr = host.close()
    assert WATCHED in stderr and TRUSTED in stderr


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_a_port_on_the_watch_sees_a_keystore_changed_through_another_folder(wallet, passphrase_file, without_agent, link):
    """A keystore that is a link to a file in another folder, or a file with a second name in
    another folder: a change made over there is not signalled to the watched folder, so the port
    checks the file on every call, and sees it."""
    elsewhere = wallet.root / "elsewhere" / "keystore.json"
    elsewhere.parent.mkdir(mode=0o700)
    over_there = wallet.env(WALLET_BRIDGE_KEYSTORE=str(elsewhere))
    first = json.loads(wallet.keys("create", "--passphrase-file", passphrase_file, "--json", env=over_there, check=True).stdout)
    one_key = elsewhere.read_bytes()
    second = json.loads(wallet.keys("create", "--passphrase-file", passphrase_file, "--json", env=over_there, check=True).stdout)
    wallet.keystore_path.parent.mkdir(mode=0o700, parents=True)
    if link == "symbolic":
        wallet.keystore_path.symlink_to(elsewhere)
    else:
        os.link(elsewhere, wallet.keystore_path)
    host = wallet.host(WALLET_BRIDGE_LOG="debug")
    for _ in range(3):
        assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"], second["address"]]
    with open(elsewhere, "r+b") as keystore:  # in place: a hard link keeps both names on one file
        keystore.write(one_key)
        keystore.truncate()
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [first["address"]]
    stderr = host.close()
    assert WATCHED in stderr and TRUSTED not in stderr, "never trusted on the watch"


def test_a_port_over_one_socket_for_stdin_and_stdout_waits_without_spinning(wallet, passphrase_file, without_agent):
    """socat's EXEC, inetd and systemd's socket units give a host one socket as stdin and stdout.
    The host makes stdout non-blocking, and so stdin: an idle port's reader must not then spin on
    a read that returns at once, but wait as before (in `poll`)."""
    key = wallet.create(passphrase_file, label="main")
    ours, theirs = socket.socketpair()
    process = subprocess.Popen([wallet.binary, CHROME_ORIGIN], stdin=theirs, stdout=theirs, stderr=subprocess.PIPE,
                               env=wallet.env(), start_new_session=True)
    theirs.close()
    frames = FramedPipes(SimpleNamespace(stdin=ours.makefile("wb"), stdout=ours.makefile("rb"), stderr=process.stderr))
    try:
        for _ in range(3):
            frames.send(GET_ACCOUNTS)
            assert frames.receive()["result"]["addresses"] == [key["address"]]

        def cpu_ticks():
            fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])  # utime and stime

        def every_thread_sleeps():
            try:
                return all(Path(f"/proc/{process.pid}/task/{task}/stat").read_text().rsplit(")", 1)[1].split()[0] == "S"
                           for task in os.listdir(f"/proc/{process.pid}/task"))
            except FileNotFoundError:  # a thread ended while it was looked at
                return False
        assert wait_until(every_thread_sleeps), "the idle host never had all its threads asleep"
        before = cpu_ticks()
        time.sleep(1)  # CPU time is counted in real time: what one idle second of it costs
        assert cpu_ticks() - before <= 10, "an idle host used the CPU for more than 10 ticks in a second"
    finally:
        frames.process.stdin.close()
        frames.process.stdout.close()
        ours.close()
        assert process.wait(10) == 0, process.stderr.read()


def test_the_prompt_names_a_firefox_add_on_and_a_single_payload(wallet, passphrase_file, answers):
    key = wallet.create(passphrase_file, label="ff")
    host = wallet.host(FIREFOX_ID, FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    reply = host.sign(key["address"], [b64(b"one")])
    verify(key["address"], b"one", reply["result"]["signed_payloads"][0])
    host.close()
    (description,) = [a for c, a in wallet.pinentry_commands() if c == "SETDESC"]
    assert f"The Firefox add-on with ID {FIREFOX_ID}\nasks to sign 1 payload" in description


def test_wrong_passphrase_is_not_signed_after_three_attempts(wallet, passphrase_file, answers):
    key = wallet.create(passphrase_file)
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers("wrong 1", "wrong 2", "wrong 3", PASSPHRASE))
    error = error_of(host.sign(key["address"], [b64(b"x")]))
    assert error == {"code": -3, "message": "Payload not signed", "data": {"reason": "wrong_passphrase"}}
    host.close()
    commands = wallet.pinentry_commands()
    assert [c for c, _ in commands].count("GETPIN") == 3
    assert [a for c, a in commands if c == "SETERROR"] == ["Wrong passphrase (attempt 2 of 3).", "Wrong passphrase (attempt 3 of 3)."]


def test_a_typo_then_the_right_passphrase_signs(wallet, passphrase_file, answers):
    key = wallet.create(passphrase_file)
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers("typo", PASSPHRASE))
    reply = host.sign(key["address"], [b64(b"x")])
    verify(key["address"], b"x", reply["result"]["signed_payloads"][0])
    host.close()


def test_cancelled_pinentry_is_not_signed(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    host = wallet.host(FAKE_PINENTRY_MODE="cancel")
    assert error_of(host.sign(key["address"], [b64(b"x")])) == {
        "code": -3, "message": "Payload not signed", "data": {"reason": "declined"}}
    host.close()


@pytest.mark.parametrize("setting", [{"FAKE_PINENTRY_MODE": "no-display"}, {"WALLET_BRIDGE_PINENTRY": "/nonexistent/pinentry"}],
                         ids=["pinentry-without-display", "no-pinentry-program"])
def test_no_way_to_ask_is_not_signed_and_logged(wallet, passphrase_file, setting):
    key = wallet.create(passphrase_file)
    host = wallet.host(**setting)
    error = error_of(host.sign(key["address"], [b64(b"x")]))
    assert {k: error[k] for k in ("code", "message")} == {"code": -3, "message": "Payload not signed"}
    assert error["data"]["reason"] == "no_passphrase_prompt"
    # What to do, on the wire and in the log alike.
    assert "set WALLET_BRIDGE_PINENTRY" in error["data"]["fix"] and "sudo apt install pinentry-gtk2" in error["data"]["fix"]
    stderr = host.close()
    assert "cannot ask for the passphrase" in stderr and error["data"]["fix"] in stderr
    # A refusal nobody chose is recorded too.
    assert audit_entries(wallet)[-1]["decision"] == "no_prompt"


def test_tampered_ciphertext_is_not_signed(wallet, passphrase_file, answers):
    key = wallet.create(passphrase_file)
    stored = json.loads(wallet.keystore_path.read_text())
    sealed = bytearray(base64.b64decode(stored["keys"][0]["ciphertext"]))
    sealed[5] ^= 0x01
    stored["keys"][0]["ciphertext"] = b64(bytes(sealed))
    wallet.keystore_path.write_text(json.dumps(stored))

    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]], "listing needs no decryption"
    assert error_of(host.sign(key["address"], [b64(b"x")])) == {
        "code": -3, "message": "Payload not signed", "data": {"reason": "key_damaged"}}
    assert "altered or corrupted" in host.close()
    result = wallet.keys("verify", "--passphrase-file", passphrase_file, check=False)
    assert "altered or corrupted" in result.stderr.decode()


def test_swapped_entries_are_not_signed(wallet, passphrase_file, answers):
    first = wallet.create(passphrase_file, label="a")
    second = wallet.create(passphrase_file, label="b")
    stored = json.loads(wallet.keystore_path.read_text())
    keys = stored["keys"]
    for field in ("nonce", "ciphertext"):
        keys[0][field], keys[1][field] = keys[1][field], keys[0][field]
    wallet.keystore_path.write_text(json.dumps(stored))
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers(PASSPHRASE))
    for key in (first, second):
        assert error_of(host.sign(key["address"], [b64(b"x")]))["data"] == {"reason": "key_damaged"}
    host.close()


@pytest.mark.parametrize("damage", ["truncated", "unknown-version", "hostile-limits", "not-json"])
def test_unreadable_keystore_is_a_clear_error_everywhere(wallet, passphrase_file, damage):
    wallet.create(passphrase_file)
    text = wallet.keystore_path.read_text()
    stored = json.loads(text)
    if damage == "truncated":
        wallet.keystore_path.write_text(text[: len(text) // 2])
        expected = "was it truncated?"
    elif damage == "unknown-version":
        stored["version"] = 3
        wallet.keystore_path.write_text(json.dumps(stored))
        expected = "format version 3"
    elif damage == "hostile-limits":
        stored["kdf"]["memlimit"] = 100 * 1024 ** 3  # 100 GiB
        wallet.keystore_path.write_text(json.dumps(stored))
        expected = "memlimit 107374182400"
    else:
        wallet.keystore_path.write_bytes(b"\x00\xff garbage")
        expected = "not valid JSON"

    started = time.monotonic()
    listed = wallet.keys("list", check=False)
    assert listed.returncode == 1
    assert expected in listed.stderr.decode()
    verified = wallet.keys("verify", "--passphrase-file", passphrase_file, check=False)
    assert expected in verified.stderr.decode()
    assert time.monotonic() - started < 5, "refused without running Argon2 on hostile limits"

    host = wallet.host()
    error = error_of(host.call(GET_ACCOUNTS))
    assert error["code"] == -32603
    assert str(wallet.keystore_path) not in json.dumps(error), "no path on the wire"
    assert expected in host.close(), "the reason is logged"


def test_unknown_address_is_invalid_params(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    unknown = b64(bytes(32))
    host = wallet.host()
    expected = {"code": -32602, "message": "Invalid params", "data": {"field": "address", "problem": "no account with this address"}}
    assert error_of(host.sign(unknown, [b64(b"x")])) == expected
    assert error_of(host.sign(key["base58"], [b64(b"x")])) == expected, "the protocol takes base64 addresses"
    host.close()
    assert wallet.pinentry_records() == [], "nobody was asked"


def test_bad_base64_and_empty_payloads_are_invalid_payloads(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    host = wallet.host()
    assert error_of(host.sign(key["address"], ["aGVsbG8=", "not base64!", "", "aGk"])) == {
        "code": -2, "message": "Invalid payloads", "data": {"valid": [True, False, False, False]}}
    assert error_of(host.sign(key["address"], [])) == {"code": -2, "message": "Invalid payloads", "data": {"valid": []}}
    host.close()
    assert wallet.pinentry_records() == []


def test_too_many_payloads_default_and_configured(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    host = wallet.host()
    assert error_of(host.sign(key["address"], ["aGk="] * 1025)) == {
        "code": -6, "message": "Too many payloads", "data": {"count": 1025, "max": 1024}}
    host.close()

    wallet.config_path.parent.mkdir(parents=True)
    wallet.config_path.write_text(json.dumps({"max_payloads": 3}))
    wallet.stop_agent()  # the agent reads the configuration when it starts
    host = wallet.host()
    assert error_of(host.sign(key["address"], ["aGk="] * 4))["data"] == {"count": 4, "max": 3}
    host.close()
    assert wallet.pinentry_records() == []


def test_passphrase_file_signs_without_asking(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    host = wallet.host(WALLET_BRIDGE_PASSPHRASE_FILE=passphrase_file, WALLET_BRIDGE_PINENTRY="/nonexistent/pinentry")
    reply = host.sign(key["address"], [b64(b"automated")])
    verify(key["address"], b"automated", reply["result"]["signed_payloads"][0])
    # Signing with nobody asked is said at the default log level (WALLET_BRIDGE_LOG unset).
    assert f"WALLET_BRIDGE_PASSPHRASE_FILE is set: signing with the passphrase from {passphrase_file}" in host.close()

    wrong = wallet.secret_file("wrong", "nope\n")
    wallet.stop_agent()  # the agent keeps the environment it was started with, and the unlocked key
    host = wallet.host(WALLET_BRIDGE_PASSPHRASE_FILE=wrong)
    assert error_of(host.sign(key["address"], [b64(b"x")]))["data"] == {"reason": "wrong_passphrase"}
    host.close()


class TestPolicy:
    def configure(self, wallet, config):
        wallet.config_path.parent.mkdir(parents=True, exist_ok=True)
        wallet.config_path.write_text(config if isinstance(config, str) else json.dumps(config))

    def test_without_a_policy_every_caller_is_allowed(self, wallet):
        for caller in (CHROME_ORIGIN, FIREFOX_ID, None):
            host = wallet.host(caller)
            assert host.call(GET_ACCOUNTS)["result"] == {"addresses": []}
            host.close()

    def test_allow_lists_are_enforced_on_the_browser_given_caller(self, wallet, passphrase_file):
        key = wallet.create(passphrase_file)
        self.configure(wallet, {"allow": {CHROME_ORIGIN: ["*"], FIREFOX_ID: [GET_ACCOUNTS]}})
        refused = {"code": -1, "message": "Authorization failed"}

        host = wallet.host(CHROME_ORIGIN, WALLET_BRIDGE_PASSPHRASE_FILE=passphrase_file)
        assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
        assert "result" in host.sign(key["address"], [b64(b"x")])
        assert error_of(host.call("custom.method"))["code"] == -32601, "allowed, but no such method"
        host.close()

        host = wallet.host(FIREFOX_ID, WALLET_BRIDGE_PASSPHRASE_FILE=passphrase_file)
        assert "result" in host.call(GET_ACCOUNTS)
        error = error_of(host.sign(key["address"], [b64(b"x")]))
        assert {k: error[k] for k in ("code", "message")} == refused
        assert error_of(host.call("custom.method"))["code"] == -1, "custom methods are covered too"
        host.close()

        for stranger in ("chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/", "other@example.org", None):
            host = wallet.host(stranger)
            error = error_of(host.call(GET_ACCOUNTS))
            assert {k: error[k] for k in ("code", "message")} == refused
            host.close()

    def test_a_malformed_policy_file_refuses_everyone(self, wallet):
        self.configure(wallet, '{"allow": {"' + CHROME_ORIGIN + '": ["*"]')  # truncated
        host = wallet.host(CHROME_ORIGIN)
        assert error_of(host.call(GET_ACCOUNTS))["code"] == -1
        stderr = host.close()
        assert "is invalid" in stderr and "refusing every call" in stderr

    def test_a_config_other_users_can_change_is_refused_like_ssh_does(self, wallet):
        # `{}` alone allows everyone: only the permissions can make these calls fail. Whoever
        # can change the file picks the program that is given the passphrase.
        self.configure(wallet, {})
        folder = wallet.config_path.parent
        for target, mode in ((wallet.config_path, 0o666), (wallet.config_path, 0o620), (folder, 0o777)):
            if mode == 0o620:
                os.chown(target, -1, NO_SUCH_GROUP)  # writable by a group, not the user's own
            os.chmod(target, mode)
            host = wallet.host(CHROME_ORIGIN)
            assert error_of(host.call(GET_ACCOUNTS))["code"] == -1
            stderr = host.close()
            assert f"other users can write to the {'folder' if target == folder else 'file'} {target}" in stderr
            assert f"run: chmod go-w {target}" in stderr
            if mode == 0o620:
                assert f"(mode 0620: writable by its group, the group {NO_SUCH_GROUP}, which has no name" in stderr, stderr

            listed = wallet.keys("list", check=False)
            assert listed.returncode != 0 and f"chmod go-w {target}" in listed.stderr.decode()
            os.chmod(target, 0o700 if target == folder else 0o600)
            os.chown(target, -1, os.getgid())

        host = wallet.host(CHROME_ORIGIN)
        assert host.call(GET_ACCOUNTS)["result"] == {"addresses": []}, "fixed permissions are used again"
        host.close()

    def test_writable_by_the_users_own_private_group_is_fine_like_debians_ssh(self, wallet, passphrase_file):
        """Where each user has a group of their own (umask 002: Fedora, RHEL, Debian's adduser
        with USERGROUPS), ~/.config and ~/.local are 0775 and files 0664, with that group: only
        the user can write them. The policy is applied and the accounts are listed."""
        if not users_own_private_group():
            pytest.skip("this user's primary group is not a private group of theirs alone here")
        key = wallet.create(passphrase_file)
        self.configure(wallet, {"allow": {CHROME_ORIGIN: ["*"]}})
        targets = [(wallet.config_path, 0o664), (wallet.config_path.parent, 0o775), (wallet.config_path.parent.parent, 0o775),
                   (wallet.keystore_path.parent, 0o775), (wallet.keystore_path.parent.parent, 0o775), (wallet.home, 0o775)]
        for target, mode in targets:
            os.chown(target, -1, os.getgid())
            os.chmod(target, mode)
        for env in ({}, {"WALLET_BRIDGE_CONFIG": write_config(wallet, {"agent": False, "allow": {CHROME_ORIGIN: ["*"]}})}):
            host = wallet.host(CHROME_ORIGIN, **env)
            assert host.call(GET_ACCOUNTS)["result"] == {"addresses": [key["address"]]}
            assert "other users can write" not in host.close()
            host = wallet.host(FIREFOX_ID, **env)
            assert error_of(host.call(GET_ACCOUNTS))["code"] == -1, "the policy is applied"
            host.close()
        wallet.stop_agent()

    def test_the_folders_above_the_config_are_checked_up_to_home_like_ssh_does(self, wallet):
        """Whoever can write to a folder above the configuration can rename its folder away, and
        with no configuration every caller is allowed: a policy that could have been swapped or
        removed is not applied, and nothing more permissive takes its place (every call -1)."""
        self.configure(wallet, {"allow": {CHROME_ORIGIN: ["*"]}})
        config_home = wallet.config_path.parent.parent
        for target in (config_home, wallet.home):
            os.chmod(target, 0o777)
            host = wallet.host(CHROME_ORIGIN)
            assert error_of(host.call(GET_ACCOUNTS))["code"] == -1
            stderr = host.close()
            assert f"other users can write to the folder {target} (mode 0777); run: chmod go-w {target}" in stderr, stderr
            os.chmod(target, 0o755)

        # The other user's move: the folder renamed away. Missing, the file is still refused.
        os.chmod(config_home, 0o777)
        os.rename(wallet.config_path.parent, config_home / "moved")
        for caller in (CHROME_ORIGIN, FIREFOX_ID):
            host = wallet.host(caller)
            assert error_of(host.call(GET_ACCOUNTS))["code"] == -1, "no policy must not mean every caller"
            assert f"chmod go-w {config_home}" in host.close()
        os.rename(config_home / "moved", wallet.config_path.parent)
        os.chmod(config_home, 0o755)

        # Above the home folder is the system's: not looked at (ssh stops at the home folder too).
        os.chmod(wallet.root, 0o777)
        host = wallet.host(CHROME_ORIGIN)
        assert host.call(GET_ACCOUNTS)["result"] == {"addresses": []}
        host.close()
        host = wallet.host(FIREFOX_ID)
        assert error_of(host.call(GET_ACCOUNTS))["code"] == -1, "the policy is applied again"
        host.close()
        os.chmod(wallet.root, 0o755)

    def test_config_path_comes_from_the_environment(self, wallet):
        elsewhere = wallet.root / "elsewhere.json"
        elsewhere.write_text(json.dumps({"allow": {}}))
        host = wallet.host(CHROME_ORIGIN, WALLET_BRIDGE_CONFIG=elsewhere)
        assert error_of(host.call(GET_ACCOUNTS))["code"] == -1
        host.close()


KEYSTORE_CHANGEABLE = {"reason": "keystore_writable_by_others",
                       "problem": "other users can change the keystore; the wallet's log says how to fix it"}


def test_a_keystore_others_can_change_is_never_signed_from_nor_listed(wallet, passphrase_file):
    """Whoever can change the keystore can put their own address in it: an extension that asks
    for the accounts to be paid would pay them. Neither GetAccounts nor a signature is answered
    from it, through the agent (the host reading the files first) or without it."""
    key = wallet.create(passphrase_file)
    folder = wallet.keystore_path.parent
    above = folder.parent  # ~/.local/share: whoever can write there can swap the whole folder
    cases = ((wallet.keystore_path, 0o622, 0o600, "file"), (folder, 0o773, 0o700, "folder"),
             (above, 0o777, 0o755, "folder"), (wallet.keystore_path, "owner", 0o600, "file"))
    for target, mode, restore, kind in cases:
        if mode == "owner":
            os.chown(target, 12345, 12345)
        else:
            os.chmod(target, mode)
        for env in ({}, {"WALLET_BRIDGE_CONFIG": write_config(wallet, {"agent": False})}):
            host = wallet.host(**env)  # the scripted pinentry would approve
            error = error_of(host.call(GET_ACCOUNTS))
            assert (error["code"], error["data"]) == (-32603, KEYSTORE_CHANGEABLE), error
            error = error_of(host.sign(key["address"], [b64(b"x")]))
            assert (error["code"], error["data"]) == (-3, {"reason": "keystore_writable_by_others"})
            stderr = host.close() + wallet.agent_log_text().decode()
            if mode == "owner":
                assert f"not listing the accounts: the file {target} belongs to another user (uid 12345); run: sudo chown 0 {target}" in stderr
            else:
                assert f"not listing the accounts: other users can write to the {kind} {target} (mode 0{mode:o}); run: chmod go-w {target}" in stderr
                assert f"not signing: other users can write to the {kind} {target}" in stderr
            assert wallet.pinentry_records() == [], "nobody is asked to approve a signature from such a keystore"
        if mode == "owner":
            os.chown(target, 0, 0)
        os.chmod(target, restore)

    wallet.stop_agent()  # the agent keeps the environment it was started with
    host = wallet.host(WALLET_BRIDGE_PASSPHRASE_FILE=passphrase_file)
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]], "fixed permissions list again"
    assert "result" in host.sign(key["address"], [b64(b"x")]), "fixed permissions sign again"
    host.close()


def test_a_port_stops_listing_a_keystore_once_others_can_change_it(wallet, passphrase_file):
    """A persistent port answers GetAccounts from what it read before: its copy of the keystore
    (a watched folder, one stat), or the agent's last answer while the agent announced nothing.
    Neither outlives a keystore that others can change for more than a second, whether the
    change is to the file or to a folder above it that no watch sees."""
    key = wallet.create(passphrase_file)
    above = wallet.keystore_path.parent.parent
    for env in ({}, {"WALLET_BRIDGE_CONFIG": write_config(wallet, {"agent": False})}):
        host = wallet.host(**env)
        for _ in range(3):
            assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
        if not env:  # with the agent, a port keeps its answer once it listens to the agent's events
            wait_until_listening(wallet, host)
        for target, mode, restore in ((wallet.keystore_path, 0o666, 0o600), (above, 0o777, 0o755)):
            assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
            os.chmod(target, mode)
            changed = time.monotonic()
            assert wait_until(lambda: "error" in host.call(GET_ACCOUNTS), timeout=5), f"{target} {oct(mode)} still listed"
            assert time.monotonic() - changed < 2
            error = error_of(host.call(GET_ACCOUNTS))
            assert (error["code"], error["data"]) == (-32603, KEYSTORE_CHANGEABLE), error
            os.chmod(target, restore)
            assert wait_until(lambda: "result" in host.call(GET_ACCOUNTS), timeout=5)
        host.close()


def write_config(wallet, config):
    """A configuration file of its own (0600, in a 0700 folder), for WALLET_BRIDGE_CONFIG."""
    folder = wallet.root / "config"
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / "config.json"
    path.write_text(json.dumps(config))
    path.chmod(0o600)
    return path


def test_a_keystore_with_test_only_argon2_limits_is_refused_outside_the_tests(wallet, passphrase_file):
    key = wallet.create(passphrase_file)  # WALLET_BRIDGE_TEST_WEAK_KDF=1: 1 pass, 8 KiB
    before = wallet.keystore_path.read_bytes()
    real_user = wallet.env(WALLET_BRIDGE_TEST_WEAK_KDF=None)
    listed = wallet.keys("list", env=real_user, check=False)
    assert "opslimit 1 is outside 2...16 (libsodium's INTERACTIVE" in listed.stderr.decode()
    host = wallet.host(WALLET_BRIDGE_TEST_WEAK_KDF=None, WALLET_BRIDGE_PASSPHRASE_FILE=passphrase_file)
    assert error_of(host.call(GET_ACCOUNTS))["code"] == -32603
    assert error_of(host.sign(key["address"], [b64(b"x")]))["code"] == -32603
    host.close()
    assert wallet.keystore_path.read_bytes() == before, "refusing never changes the file"


def fake_pinentry_named(wallet, name):
    """A copy of the scripted pinentry under a real pinentry's name, in a folder of its own."""
    folder = wallet.root / "bin"
    folder.mkdir(exist_ok=True)
    copy = folder / name
    copy.write_bytes(FAKE_PINENTRY.read_bytes())
    copy.chmod(0o755)
    return folder, copy


def test_a_terminal_pinentry_without_a_terminal_is_no_prompt_not_a_refusal(wallet, passphrase_file):
    # pinentry-tty with no terminal answers GETPIN exactly like the Cancel button, so the
    # extension was told the person declined. The host (run here, like a browser runs it,
    # without a controlling terminal) must not start it at all.
    key = wallet.create(passphrase_file)
    _, tty = fake_pinentry_named(wallet, "pinentry-tty")
    host = wallet.host(WALLET_BRIDGE_PINENTRY=tty, FAKE_PINENTRY_MODE="cancel")
    error = error_of(host.sign(key["address"], [b64(b"x")]))
    assert (error["code"], error["data"]["reason"]) == (-3, "no_passphrase_prompt")
    assert "sudo apt install pinentry-gtk2" in error["data"]["fix"]
    stderr = host.close()
    assert f"{tty} asks only in a terminal, and the host has none" in stderr and "sudo apt install pinentry-gtk2" in stderr
    assert wallet.pinentry_records() == []


def test_with_a_display_an_installed_graphical_pinentry_is_chosen(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    folder, _ = fake_pinentry_named(wallet, "pinentry-gtk-2")
    fake_pinentry_named(wallet, "pinentry-gnome3")
    path = f"{folder}:{os.environ.get('PATH', '/usr/bin:/bin')}"
    # No D-Bus session: pinentry-gnome3 would fall back to curses, so gtk-2 is preferred.
    host = wallet.host(WALLET_BRIDGE_PINENTRY=None, DISPLAY=":99", DBUS_SESSION_BUS_ADDRESS=None, PATH=path,
                       FAKE_PINENTRY_PASSPHRASES=passphrase_file)
    assert "result" in host.sign(key["address"], [b64(b"x")])
    host.close()
    assert [r["program"] for r in wallet.pinentry_records() if r.get("event") == "start"] == ["pinentry-gtk-2"]


def test_a_fifo_at_the_keystore_path_is_refused_at_once(wallet):
    # Opening a FIFO for reading waits for a writer: this used to hang GetAccounts, `keys list`
    # and, with the reader thread stuck, SIGTERM too.
    wallet.keystore_path.parent.mkdir(parents=True)
    os.mkfifo(wallet.keystore_path, 0o600)
    host = wallet.host()
    started = time.monotonic()
    error = error_of(host.call(GET_ACCOUNTS, timeout=5))
    assert error["code"] == -32603 and time.monotonic() - started < 2
    assert "it is a FIFO (named pipe), not a regular file" in host.close()
    listed = wallet.keys("list", check=False, timeout=5)
    assert f"cannot read {wallet.keystore_path}: it is a FIFO (named pipe), not a regular file" in listed.stderr.decode()


def test_no_one_is_asked_to_approve_signatures_that_could_never_be_returned(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    host = wallet.host()  # the scripted pinentry would approve, and logs every dialog
    # As a notification (no id): JSON-RPC forbids a reply, so the signatures would be lost.
    body = json.dumps({"jsonrpc": "2.0", "method": SIGN_PAYLOADS,
                       "params": {"address": key["address"], "payloads": [b64(b"x")]}}).encode()
    host.process.stdin.write(struct.pack("=I", len(body)) + body)
    host.process.stdin.flush()
    # A reply that would exceed the 1 MiB browsers accept: 800,000 bytes sign to about 1.07 MB.
    reply = host.sign(key["address"], [b64(bytes(800_000))])
    assert error_of(reply)["code"] == -32000
    assert error_of(reply)["data"]["limit"] == 1048576 and error_of(reply)["data"]["bytes"] > 1048576
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]], "the host keeps serving"
    stderr = host.close()
    assert wallet.pinentry_records() == [], "a dialog was opened for work that is thrown away"
    assert "sent as a notification (no id) is ignored" in stderr


def test_sigterm_of_the_host_terminates_pinentry(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    host = wallet.host(FAKE_PINENTRY_MODE="hang")
    host.send(SIGN_PAYLOADS, {"address": key["address"], "payloads": [b64(b"x")]})
    pid = wait_for_getpin(wallet)
    assert process_alive(pid)
    assert host.terminate() == 0
    assert wait_until(lambda: not process_alive(pid)), "pinentry outlived the host"
    assert any(r.get("event") == "terminated" and r.get("signal") == 15 for r in wallet.pinentry_records())


def test_a_request_timeout_terminates_pinentry(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    host = wallet.host(FAKE_PINENTRY_MODE="hang", WALLET_BRIDGE_REQUEST_TIMEOUT_MS=1500)
    reply = host.sign(key["address"], [b64(b"x")], timeout=10)
    assert error_of(reply)["code"] == -32001
    pid = wallet.pinentry_records()[0]["pid"]
    assert wait_until(lambda: not process_alive(pid)), "pinentry outlived its request"
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]], "the host keeps serving"
    host.close()


def test_get_accounts_runs_no_argon2_even_when_unlocking_would_take_minutes(wallet, passphrase_file):
    key = wallet.create(passphrase_file)
    stored = json.loads(wallet.keystore_path.read_text())
    stored["kdf"]["opslimit"] = 16  # the accepted maximum: 16 passes over 1 GiB
    stored["kdf"]["memlimit"] = 1024 ** 3
    wallet.keystore_path.write_text(json.dumps(stored))
    started = time.monotonic()
    host = wallet.host()
    assert host.call(GET_ACCOUNTS)["result"]["addresses"] == [key["address"]]
    elapsed = time.monotonic() - started
    host.close()
    assert elapsed < 1.0, f"GetAccounts took {elapsed:.2f}s from a cold start"


def wait_for_getpin(wallet, timeout=10):
    asked = wait_until(lambda: any(r.get("command") == "GETPIN" for r in wallet.pinentry_records()), timeout=timeout)
    assert asked, "pinentry was never asked for the passphrase"
    return wallet.pinentry_records()[0]["pid"]
