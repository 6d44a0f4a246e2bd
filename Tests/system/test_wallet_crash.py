"""SIGKILL at random moments during `keys create` and `keys change-passphrase`: afterwards the
keystore must always open, with the old passphrase or the new one, holding the old keys or the
new ones, never a mixture.

WALLET_BRIDGE_TEST_SLOW_WRITE_MS (test-only) pauses at each step of the atomic write (half the
temporary file written; temporary file complete; renamed, folder not yet flushed), so random
kills land inside the write often enough to count; the test checks that they did.
WALLET_BRIDGE_CRASH_ITERATIONS changes the number of kills (default 200).
"""
import json
import os
import random
import signal
import subprocess
import time
from collections import Counter

from wallet_helpers import Wallet

ITERATIONS = int(os.environ.get("WALLET_BRIDGE_CRASH_ITERATIONS", "200"))
PAUSE_MS = 15


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
        time.sleep(rng.uniform(0, lifetime[operation] * 1.1))
        process.send_signal(signal.SIGKILL)
        stdout, stderr = process.communicate(timeout=30)
        wallet.outputs += [("crash stdout", stdout), ("crash stderr", stderr)]
        killed = process.returncode == -signal.SIGKILL
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
