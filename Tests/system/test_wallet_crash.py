"""SIGKILL at random moments during `keys create` and `keys change-passphrase`: afterwards the
keystore must always open, with the old passphrase or the new one, holding the old keys or the
new ones, never a mixture.

WALLET_BRIDGE_TEST_SLOW_WRITE_MS (test-only) pauses at each step of the atomic write (half the
temporary file written; temporary file complete; renamed, folder not yet flushed), so random
kills land inside the write often enough to count; the test checks that they did.
WALLET_BRIDGE_CRASH_ITERATIONS changes the number of kills (default 200); the second test, over a
version 1 to 2 migration, `keys import --backup` and `keys import --mnemonic`, kills a fifth as
many times per operation (WALLET_BRIDGE_CRASH_RECOVERY_ITERATIONS overrides it).
"""
import json
import os
import random
import signal
import subprocess
import time
from collections import Counter

from wallet_helpers import REPO, Wallet

ITERATIONS = int(os.environ.get("WALLET_BRIDGE_CRASH_ITERATIONS", "200"))
PAUSE_MS = 15


def kill_at_random(wallet, process, lifetime, rng):
    """SIGKILLs `process` at a random moment of its `lifetime` (or a little after, when it may
    have finished); keeps what it printed for the secret search. Returns whether the kill landed
    before it exited, and its stderr."""
    time.sleep(rng.uniform(0, lifetime * 1.1))
    process.send_signal(signal.SIGKILL)
    stdout, stderr = process.communicate(timeout=30)
    wallet.outputs += [("crash stdout", stdout), ("crash stderr", stderr)]
    return process.returncode == -signal.SIGKILL, stderr


def test_sigkill_during_create_and_change_passphrase_leaves_the_old_or_the_new_keystore(tmp_path):
    wallet = Wallet(tmp_path)
    passphrases = [wallet.secret_file("alpha", "alpha passphrase\n"), wallet.secret_file("bravo", "bravo passphrase\n")]
    current = 0
    wallet.create(passphrases[current], label="initial", connect=())  # only the keystore in its folder
    key_count = 1
    env = wallet.env(WALLET_BRIDGE_TEST_SLOW_WRITE_MS=PAUSE_MS)
    folder = wallet.keystore_path.parent

    def command(operation):
        if operation == "create":
            return ["keys", "create", "--json", "--passphrase-file", passphrases[current]]
        return ["keys", "change-passphrase", "--json", "--passphrase-file", passphrases[current],
                "--new-passphrase-file", passphrases[1 - current]]

    def opens_with(index):
        result = wallet.keys("verify", "--json", "--passphrase-file", passphrases[index], env=wallet.env())
        if result.returncode == 0:
            return json.loads(result.stdout)["keys"]
        assert result.stderr.decode().strip() == "Error: wrong passphrase", result.stderr
        return None

    # How long each operation lives when left alone, so that kills spread over its whole life.
    lifetime = {}
    for operation in ("create", "change"):
        started = time.monotonic()
        wallet.run(*command(operation), env=env, check=True)
        lifetime[operation] = time.monotonic() - started
        if operation == "create":
            key_count += 1
        else:
            current = 1 - current

    seed = int(os.environ.get("WALLET_BRIDGE_CRASH_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    outcomes = Counter()
    started = time.monotonic()
    for iteration in range(ITERATIONS):
        operation = "create" if iteration % 2 == 0 else "change"
        process = subprocess.Popen([wallet.binary, *map(str, command(operation))], env=env, start_new_session=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        killed, stderr = kill_at_random(wallet, process, lifetime[operation], rng)
        assert killed or process.returncode == 0, f"seed {seed}, iteration {iteration}: {stderr!r}"
        leftover = any(name.startswith(".keystore.json.tmp-") for name in os.listdir(folder))

        listed = wallet.keys("list", "--json", env=wallet.env())
        assert listed.returncode == 0, f"seed {seed}, iteration {iteration}: keystore unreadable: {listed.stderr!r}"
        listed_count = len(json.loads(listed.stdout)["keys"])
        verified = {index: opens_with(index) for index in (current, 1 - current)}
        opened = [index for index, count in verified.items() if count is not None]
        assert len(opened) == 1, f"seed {seed}, iteration {iteration}: opened by {opened}"
        assert verified[opened[0]] == listed_count, "every listed key decrypts"

        if operation == "create":
            assert opened == [current], f"seed {seed}, iteration {iteration}: create changed the passphrase"
            assert listed_count in (key_count, key_count + 1), f"seed {seed}, iteration {iteration}: {listed_count} keys"
            changed = listed_count == key_count + 1
            key_count = listed_count
        else:
            assert listed_count == key_count, f"seed {seed}, iteration {iteration}: change-passphrase changed the keys"
            changed = opened[0] != current
            current = opened[0]
        assert not (changed and leftover), "a leftover temporary file means the rename did not happen"
        if not killed:
            assert changed, "a command that finished must have made its change"
            outcomes["finished before the kill"] += 1
        elif changed:
            outcomes["killed after the rename: new keystore"] += 1
        elif leftover:
            outcomes["killed with a temporary file written: old keystore"] += 1
        else:
            outcomes["killed before writing: old keystore"] += 1
    elapsed = time.monotonic() - started

    # The next successful write removes what killed writers left behind.
    wallet.run(*command("create"), env=wallet.env(), check=True)
    assert not [name for name in os.listdir(folder) if name != "keystore.json"], os.listdir(folder)

    summary = ", ".join(f"{name}: {count}" for name, count in sorted(outcomes.items()))
    print(f"\n{ITERATIONS} SIGKILLs in {elapsed:.1f}s (seed {seed}, lifetimes {lifetime}): {summary}")
    assert sum(outcomes.values()) == ITERATIONS
    if ITERATIONS >= 100:
        for outcome in ("killed after the rename: new keystore", "killed with a temporary file written: old keystore",
                        "killed before writing: old keystore"):
            assert outcomes[outcome] >= 3, f"the kills never landed in '{outcome}': {summary}"


# Per operation (three of them) in the test below: a fifth of the default keeps the test short.
RECOVERY_ITERATIONS = int(os.environ.get("WALLET_BRIDGE_CRASH_RECOVERY_ITERATIONS", max(3, ITERATIONS // 5)))
V1_KEYSTORE = REPO / "Tests" / "Support" / "keystore-v1.json"
PHRASE = "legal winner thank year wave sausage worth useful legal winner thank yellow"  # a Trezor vector


def test_sigkill_during_migration_backup_import_and_mnemonic_import_leaves_the_old_or_the_new_keystore(tmp_path):
    """SIGKILL during three writes that replace the whole keystore: `keys create` on a version 1
    keystore (which migrates it to version 2), `keys import --backup` of three keys, and `keys
    import --mnemonic`. Each kill starts again from the same keystore; afterwards it must open
    with its passphrase and hold exactly the old keys (the file untouched) or exactly the new
    ones, every one decrypting: never some of a backup's keys, never a damaged file."""
    wallet = Wallet(tmp_path)
    folder = wallet.keystore_path.parent
    v1_passphrase = wallet.secret_file("v1", "version one passphrase\n")
    passphrase = wallet.secret_file("alpha", "alpha passphrase\n")
    backup_passphrase = wallet.secret_file("backup", "a backup passphrase\n")

    wallet.create(passphrase, label="initial", connect=())
    source = wallet.root / "source" / "keystore.json"
    for index in range(3):
        wallet.keys("create", "--keystore", source, "--label", f"backed up {index}", "--passphrase-file", passphrase, check=True)
    backup = wallet.root / "three.backup"
    wallet.keys("export", "--backup", backup, "--keystore", source, "--backup-passphrase-file", backup_passphrase,
                "--passphrase-file", passphrase, check=True)
    backed_up = [key["address"] for key in wallet.keys_json("list", "--keystore", source)["keys"]]

    operations = {
        "migrate": {"base": V1_KEYSTORE.read_bytes(), "passphrase": v1_passphrase, "stdin": None,
                    "command": ["keys", "create", "--json", "--passphrase-file", v1_passphrase]},
        "backup": {"base": wallet.keystore_path.read_bytes(), "passphrase": passphrase, "stdin": None,
                   "command": ["keys", "import", "--backup", backup, "--backup-passphrase-file", backup_passphrase, "--json",
                               "--passphrase-file", passphrase]},
        "mnemonic": {"base": wallet.keystore_path.read_bytes(), "passphrase": passphrase, "stdin": PHRASE.encode() + b"\n",
                     "command": ["keys", "import", "--mnemonic", "--json", "--passphrase-file", passphrase]},
    }
    env = wallet.env(WALLET_BRIDGE_TEST_SLOW_WRITE_MS=PAUSE_MS)

    def start(operation):
        """The keystore back to the operation's starting point, and the operation started."""
        wallet.keystore_path.write_bytes(operation["base"])
        wallet.keystore_path.chmod(0o600)
        stdin = subprocess.DEVNULL
        if operation["stdin"] is not None:
            stdin, write_end = os.pipe()
            os.write(write_end, operation["stdin"])
            os.close(write_end)
        try:
            return subprocess.Popen([wallet.binary, *map(str, operation["command"])], env=env, start_new_session=True,
                                    stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        finally:
            if stdin is not subprocess.DEVNULL:
                os.close(stdin)

    def temporary_files():
        return {name for name in os.listdir(folder) if name.startswith(".keystore.json.tmp-")}

    def addresses():
        listed = wallet.keys("list", "--json", env=wallet.env())
        assert listed.returncode == 0, f"keystore unreadable: {listed.stderr!r}"
        return [key["address"] for key in json.loads(listed.stdout)["keys"]]

    # Each operation once, uninterrupted: how long it lives, and which keys it leaves.
    lifetime = {}
    for name, operation in operations.items():
        started = time.monotonic()
        process = start(operation)
        _, stderr = process.communicate(timeout=30)
        lifetime[name] = time.monotonic() - started
        assert process.returncode == 0, stderr
        operation["old"] = [key["public_key"] for key in json.loads(operation["base"])["keys"]]  # an address is the base64 public key
        operation["new"] = addresses()
    migrated = operations["migrate"]
    assert json.loads(migrated["base"])["version"] == 1 and len(migrated["old"]) == 2
    assert migrated["new"][:2] == migrated["old"] and len(migrated["new"]) == 3
    assert operations["backup"]["new"] == operations["backup"]["old"] + backed_up
    assert len(operations["mnemonic"]["new"]) == 2 and operations["mnemonic"]["new"][0] == operations["mnemonic"]["old"][0]

    seed = int(os.environ.get("WALLET_BRIDGE_CRASH_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    outcomes = {name: Counter() for name in operations}
    started = time.monotonic()
    for iteration in range(RECOVERY_ITERATIONS * len(operations)):
        name = list(operations)[iteration % len(operations)]
        operation = operations[name]
        where = f"seed {seed}, iteration {iteration} ({name})"
        before = temporary_files()
        process = start(operation)
        killed, stderr = kill_at_random(wallet, process, lifetime[name], rng)
        assert killed or process.returncode == 0, f"{where}: {stderr!r}"
        leftover = bool(temporary_files() - before)

        held = addresses()
        verified = wallet.keys("verify", "--json", "--passphrase-file", operation["passphrase"], env=wallet.env())
        assert verified.returncode == 0, f"{where}: the keystore does not open: {verified.stderr!r}"
        assert json.loads(verified.stdout) == {"keys": len(held)}, f"{where}: every listed key decrypts"
        stored = wallet.keystore_path.read_bytes()
        if held == operation["old"]:
            assert stored == operation["base"], f"{where}: the old keys, but the file changed"
            changed = False
        else:
            if name == "migrate":  # the new key is a new random one each time
                assert held[:2] == operation["old"] and len(held) == 3, f"{where}: {held}"
                stored_keys = json.loads(stored)["keys"]
                assert json.loads(stored)["version"] == 2, where
                assert [key["label"] for key in stored_keys[:2]] == ["first v1", "second v1"], where
            else:
                assert held == operation["new"], f"{where}: neither the old keys nor the new ones: {held}"
            changed = True
        assert not (changed and leftover), f"{where}: a leftover temporary file means the rename did not happen"
        if not killed:
            assert changed, f"{where}: a command that finished must have made its change"
            outcomes[name]["finished before the kill"] += 1
        elif changed:
            outcomes[name]["killed after the rename: new keystore"] += 1
        elif leftover:
            outcomes[name]["killed with a temporary file written: old keystore"] += 1
        else:
            outcomes[name]["killed before writing: old keystore"] += 1
    elapsed = time.monotonic() - started

    # The next successful write removes what killed writers left behind.
    wallet.keystore_path.write_bytes(operations["mnemonic"]["base"])
    wallet.run(*operations["mnemonic"]["command"], input=PHRASE.encode(), env=wallet.env(), check=True)
    assert os.listdir(folder) == ["keystore.json"], os.listdir(folder)

    summary = "; ".join(f"{name}: " + ", ".join(f"{outcome}: {count}" for outcome, count in sorted(counts.items()))
                        for name, counts in outcomes.items())
    print(f"\n{RECOVERY_ITERATIONS} SIGKILLs per operation in {elapsed:.1f}s (seed {seed}, lifetimes {lifetime}): {summary}")
    for name, counts in outcomes.items():
        assert sum(counts.values()) == RECOVERY_ITERATIONS
        if RECOVERY_ITERATIONS >= 30:
            for outcome in ("killed after the rename: new keystore", "killed with a temporary file written: old keystore",
                            "killed before writing: old keystore"):
                assert counts[outcome] >= 1, f"the kills never landed in '{outcome}' for {name}: {summary}"
