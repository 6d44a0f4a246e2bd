"""Recovery phrases, keypair files, backups, raw secret export, passphrase strength and the
version 1 keystore, through `wallet-bridge keys …` and the host.

Every derived address is checked against implementations that share no code with the binary:
Trezor's `mnemonic` (the BIP-39 reference), `bip_utils` (BIP-39 seeds, SLIP-0010, BIP-44) and
`solders` (Solana's own Rust keypair code); every signature against Python's `cryptography`.
Where the binary shows something only on a terminal, the test gives it a real pseudo-terminal as
its controlling terminal (/dev/tty), with stdout and stderr as separate pipes.
"""
import base64
import fcntl
import json
import os
import re
import select
import subprocess
import termios
import time

import pytest
from bip_utils import Bip32Slip10Ed25519, Bip39SeedGenerator, Bip44, Bip44Changes, Bip44Coins
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from mnemonic import Mnemonic
from solders.keypair import Keypair

from conftest import PASSPHRASE
from wallet_helpers import CHROME_ORIGIN, REPO, b58encode, b64

ENGLISH = Mnemonic("english")
SOLANA_FIRST_ACCOUNT = "m/44'/501'/0'/0'"
V1_KEYSTORE = REPO / "Tests" / "Support" / "keystore-v1.json"
V1_PASSPHRASE = "version one passphrase"
V1_KEYS = {"first v1": bytes(range(1, 33)), "second v1": bytes(range(101, 133))}
WEAK_KDF_WARNING = ("Warning: WALLET_BRIDGE_TEST_WEAK_KDF=1 is set: the keystore was encrypted with the weakest "
                    "Argon2 limits. For tests only.")

# The english set of the Trezor vectors (entropy, phrase, seed with the passphrase "TREZOR"), all 24:
# vectors.json of `mnemonic` 0.21. PyPI's wheel of `mnemonic` does not ship vectors.json (only its
# sdist does), so the set is kept in Tests/Support (the Swift tests read it too);
# `test_the_copied_vectors_are_trezors` checks every one against the `mnemonic` package's own code,
# so a copying mistake cannot pass.
TREZOR_VECTORS = [tuple(vector) for vector in
                  json.loads((REPO / "Tests" / "Support" / "bip39-trezor-vectors.json").read_text())["english"]]

# Phrases with known keys, none of whose words the wallet's own messages use ("wrong", "order",
# "word", "path"…), so that finding one of their words in an output means the phrase leaked.
KNOWN_12 = "fog spot notable regret pizza coffee harvest ensure fog spot notable reflect"  # entropy 5a × 16
KNOWN_24 = ENGLISH.to_mnemonic(bytes.fromhex("c3") * 32)


def public_key_of(seed):
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def bip_utils_key(bip39_seed, path):
    """(seed, public key) at `path` by bip_utils' SLIP-0010 for Ed25519."""
    node = Bip32Slip10Ed25519.FromSeed(bip39_seed).DerivePath(path)
    public = node.PublicKey().RawCompressed().ToBytes()
    assert public[0] == 0 and len(public) == 33, "bip_utils prefixes Ed25519 public keys with a zero byte"
    return node.PrivateKey().Raw().ToBytes(), public[1:]


def bip_utils_account(bip39_seed, account):
    """The public key of Solana account `account` (m/44'/501'/N'/0') by bip_utils' BIP-44 Solana
    class, which builds the path itself."""
    node = Bip44.FromSeed(bip39_seed, Bip44Coins.SOLANA).Purpose().Coin().Account(account).Change(Bip44Changes.CHAIN_EXT)
    return node.PublicKey().RawCompressed().ToBytes()[1:], node.PublicKey().ToAddress()


def solders_key(bip39_seed, path):
    return bytes(Keypair.from_seed_and_derivation_path(bip39_seed, path).pubkey())


def import_mnemonic(wallet, phrase, passphrase_file, *args, check=True):
    result = wallet.keys("import", "--mnemonic", "--json", "--passphrase-file", passphrase_file, *args,
                         input=(phrase + "\n").encode(), check=check)
    return json.loads(result.stdout) if check else result


def words_of(text):
    return set(re.findall(r"[a-z]+", text.lower()))


def verify_signed(address, payload, signed_b64):
    """payload || signature, checked with cryptography's Ed25519; returns the signature."""
    signed = base64.b64decode(signed_b64, validate=True)
    assert len(signed) == len(payload) + 64 and signed[:len(payload)] == payload
    Ed25519PublicKey.from_public_bytes(base64.b64decode(address)).verify(signed[len(payload):], payload)
    return signed[len(payload):]


def sign_through_host(wallet, address, passphrase, payloads=(b"recovered", b"\x00" * 40)):
    """Signs through a new host, its passphrase typed into the fake pinentry; checks every
    signature and returns them."""
    answers = wallet.secret_file("pinentry-answers", passphrase + "\n")
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    reply = host.sign(address, [b64(payload) for payload in payloads])
    assert "result" in reply, reply
    signatures = [verify_signed(address, p, s) for p, s in zip(payloads, reply["result"]["signed_payloads"], strict=True)]
    host.close()
    return signatures


class Terminal:
    """What a run on a pseudo-terminal gave: exit code, stdout, stderr, and the bytes the
    terminal showed."""

    def __init__(self, returncode, stdout, stderr, screen):
        self.returncode, self.stdout, self.stderr, self.screen = returncode, stdout, stderr, screen


def run_on_terminal(wallet, args, prompt, answer, on_prompt=None, interrupted=False, timeout=30):
    """Runs `wallet-bridge args…` in a new session whose controlling terminal is a fresh
    pseudo-terminal (so /dev/tty is it), stdin /dev/null, stdout and stderr pipes. Once the
    terminal shows `prompt`, calls `on_prompt` and types `answer`. The screen is not added to
    `wallet.outputs`: it is where the wallet deliberately shows secrets. A run that `interrupted`
    (Ctrl-C) may end by SIGINT."""
    master, slave = os.openpty()

    def take_the_terminal():  # after setsid: the pty becomes the session's controlling terminal
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    try:
        process = subprocess.Popen([wallet.binary, *map(str, args)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=wallet.env(), start_new_session=True, pass_fds=(slave,),
                                   preexec_fn=take_the_terminal)
    finally:
        os.close(slave)
    screen, answered = b"", False
    deadline = time.monotonic() + timeout
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                process.kill()
                pytest.fail(f"{args} still runs after {timeout}s; the terminal showed {screen!r}")
            if not select.select([master], [], [], remaining)[0]:
                continue
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: every descriptor of the terminal's other side is closed
                chunk = b""
            if not chunk:
                break
            screen += chunk
            if not answered and prompt in screen:
                if on_prompt:
                    on_prompt(screen)
                os.write(master, answer)
                answered = True
    finally:
        os.close(master)
    stdout, stderr = process.communicate(timeout=timeout)
    wallet.outputs += [(f"stdout of {args} on a terminal", stdout), (f"stderr of {args} on a terminal", stderr)]
    assert process.returncode >= 0 or (interrupted and process.returncode == -2), \
        f"{args} died of signal {-process.returncode}: {stderr!r}"
    return Terminal(process.returncode, stdout, stderr, screen)


# 1. The Trezor vectors, phrase -> key, against bip_utils from the vectors' seeds.

def test_the_copied_vectors_are_trezors():
    assert len(TREZOR_VECTORS) == 24 and len({phrase for _, phrase, _ in TREZOR_VECTORS}) == 24
    assert sorted(len(phrase.split()) for _, phrase, _ in TREZOR_VECTORS) == [12] * 8 + [18] * 8 + [24] * 8
    for entropy, phrase, seed in TREZOR_VECTORS:
        assert ENGLISH.to_mnemonic(bytes.fromhex(entropy)) == phrase
        assert Mnemonic.to_seed(phrase, "TREZOR").hex() == seed


def test_every_trezor_vector_imports_to_the_key_bip_utils_derives_from_its_seed(wallet, passphrase_file):
    trezor = wallet.secret_file("bip39-passphrase", "TREZOR")
    for index, (_, phrase, seed_hex) in enumerate(TREZOR_VECTORS):
        seed = bytes.fromhex(seed_hex)
        assert Bip39SeedGenerator(phrase).Generate("TREZOR") == seed, f"bip_utils' BIP-39 on vector {index}"
        _, expected = bip_utils_key(seed, SOLANA_FIRST_ACCOUNT)
        imported = import_mnemonic(wallet, phrase, passphrase_file, "--bip39-passphrase-file", trezor, "--label", f"vector {index}")
        assert imported["address"] == b64(expected), f"vector {index}: {phrase}"
        assert imported["base58"] == b58encode(expected)
        assert imported["origin"] == {"kind": "recovery_phrase", "path": SOLANA_FIRST_ACCOUNT, "bip39_passphrase": True}
        assert imported["type"] == "ed25519"
    assert len(wallet.addresses()) == 24
    assert wallet.keys_json("verify", "--passphrase-file", passphrase_file) == {"keys": 24}


def test_the_bip39_passphrase_changes_the_key(wallet, passphrase_file):
    """The same phrase without the vectors' "TREZOR": the key of the seed without a passphrase."""
    _, phrase, _ = TREZOR_VECTORS[0]
    imported = import_mnemonic(wallet, phrase, passphrase_file)
    _, expected = bip_utils_key(Bip39SeedGenerator(phrase).Generate(""), SOLANA_FIRST_ACCOUNT)
    assert imported["address"] == b64(expected)
    assert imported["origin"] == {"kind": "recovery_phrase", "path": SOLANA_FIRST_ACCOUNT}, "no BIP-39 passphrase recorded"
    _, with_trezor = bip_utils_key(bytes.fromhex(TREZOR_VECTORS[0][2]), SOLANA_FIRST_ACCOUNT)
    assert expected != with_trezor


# 2. Accounts and paths, against bip_utils and solders.

@pytest.mark.parametrize("phrase", [KNOWN_12, KNOWN_24], ids=["12-words", "24-words"])
def test_accounts_and_explicit_paths_match_bip_utils_and_solders(wallet, passphrase_file, phrase):
    seed = Bip39SeedGenerator(phrase).Generate("")
    assert seed == Mnemonic.to_seed(phrase, "")
    for account in (0, 1, 5):
        path = f"m/44'/501'/{account}'/0'"
        imported = import_mnemonic(wallet, phrase, passphrase_file, "--account", account)
        bip44_public, bip44_address = bip_utils_account(seed, account)
        assert imported["address"] == b64(bip44_public), f"account {account}"
        assert imported["base58"] == bip44_address == str(Keypair.from_seed_and_derivation_path(seed, path).pubkey())
        assert base64.b64decode(imported["address"]) == solders_key(seed, path) == bip_utils_key(seed, path)[1]
        assert imported["origin"] == {"kind": "recovery_phrase", "path": path}
    for path in ("m/44'/501'/7'/0'/3'", "m/44'/501'/2'", "m/44'/501'/0'/0'"):
        # The last one is account 0 again, given as a path: the keystore already holds it.
        expected = bip_utils_key(seed, path)[1]
        assert expected == solders_key(seed, path), path
        if path == "m/44'/501'/0'/0'":
            again = import_mnemonic(wallet, phrase, passphrase_file, "--derivation-path", path, check=False)
            assert f"the keystore already holds the key {b64(expected)}" in again.stderr.decode()
            continue
        imported = import_mnemonic(wallet, phrase, passphrase_file, "--derivation-path", path)
        assert imported["address"] == b64(expected), path
        assert imported["origin"] == {"kind": "recovery_phrase", "path": path}
    listed = wallet.keys_json("list")["keys"]
    assert [key["origin"]["path"] for key in listed] == [
        "m/44'/501'/0'/0'", "m/44'/501'/1'/0'", "m/44'/501'/5'/0'", "m/44'/501'/7'/0'/3'", "m/44'/501'/2'"]
    assert wallet.keys_json("verify", "--passphrase-file", passphrase_file) == {"keys": 5}


def test_the_phrase_is_read_whatever_its_spacing_and_case(wallet, passphrase_file):
    """A phrase pasted with extra spaces, a capital and blank lines is the same phrase."""
    seed = Bip39SeedGenerator(KNOWN_12).Generate("")
    sloppy = "  " + KNOWN_12.replace(" ", "   ").capitalize() + "  \n"
    imported = import_mnemonic(wallet, sloppy, passphrase_file)
    assert imported["address"] == b64(bip_utils_key(seed, SOLANA_FIRST_ACCOUNT)[1])


# 3. Bad input: refused, clearly, with no word echoed and the keystore untouched.

def bad_phrases():
    words = KNOWN_12.split()
    wrong_checksum = " ".join(words[:-1] + ["pizza"])
    swapped = " ".join([words[1], words[0]] + words[2:])
    unknown = " ".join(words[:4] + ["zebrafish"] + words[5:])
    assert ENGLISH.check(KNOWN_12) and not ENGLISH.check(wrong_checksum) and not ENGLISH.check(swapped)
    assert "zebrafish" not in ENGLISH.wordlist
    checksum = "Error: the phrase's checksum does not match: a word is wrong or the words are out of order"
    return {
        "wrong-checksum": (wrong_checksum, [], checksum),
        "swapped-words": (swapped, [], checksum),
        "unknown-word": (unknown, [], "Error: word 5 is not in the BIP-39 English word list"),
        "eleven-words": (" ".join(words[:11]), [], "Error: a recovery phrase has 12, 15, 18, 21 or 24 words; this one has 11"),
        "non-hardened-path": (KNOWN_12, ["--derivation-path", "m/44'/501'/0'/0"],
                              "Error: Ed25519 derivation (SLIP-0010) allows only hardened indices: index 4 of the path is not hardened"),
        "account-and-path": (KNOWN_12, ["--account", "1", "--derivation-path", "m/44'/501'/1'/0'"],
                             "Error: give --account or --derivation-path, not both"),
        # The phrase took stdin: the keystore's passphrase cannot come from there too.
        "no-passphrase-source": (KNOWN_12, None, "Error: no terminal to ask for the passphrase: use --passphrase-file"),
    }


@pytest.mark.parametrize("case", list(bad_phrases()))
def test_a_bad_phrase_or_path_is_refused_without_echo_and_without_a_change(wallet, passphrase_file, case):
    phrase, args, message = bad_phrases()[case]
    wallet.create(passphrase_file, label="already here", connect=())
    before = wallet.keystore_path.read_bytes()
    args = [] if args is None else ["--passphrase-file", passphrase_file, *args]
    result = wallet.keys("import", "--mnemonic", *args, input=(phrase + "\n").encode(), check=False)
    assert result.returncode != 0
    assert result.stdout == b""
    stderr = result.stderr.decode()
    assert message in stderr, stderr
    shown = words_of(stderr) | words_of(result.stdout.decode())
    assert not shown & (set(phrase.split()) | {"zebrafish"}), f"words of the phrase in the output: {stderr!r}"
    assert wallet.keystore_path.read_bytes() == before
    assert not [name for name in os.listdir(wallet.keystore_path.parent) if name != "keystore.json"]


def test_a_bad_phrase_creates_no_keystore(wallet, passphrase_file):
    words = KNOWN_12.split()
    result = wallet.keys("import", "--mnemonic", "--passphrase-file", passphrase_file,
                         input=" ".join(words[:-1] + ["pizza"]).encode(), check=False)
    assert result.returncode != 0 and "checksum does not match" in result.stderr.decode()
    assert not wallet.keystore_path.exists()


# 4. `keys create --recovery-phrase` on a real terminal.

SHOWN_WORD = re.compile(rb"(\d+)\. +([a-z]+)")


@pytest.mark.parametrize("words, extra", [(12, []), (24, ["--account", "3", "--bip39-passphrase-file"])],
                         ids=["12-words", "24-words-account-3-with-bip39-passphrase"])
def test_create_shows_the_phrase_only_on_the_terminal_and_the_key_is_its_key(wallet, passphrase_file, words, extra):
    bip39_passphrase = ""
    if extra:
        bip39_passphrase = "my twenty fifth word"
        extra = extra + [wallet.secret_file("bip39", bip39_passphrase + "\n")]
    path = "m/44'/501'/3'/0'" if extra else SOLANA_FIRST_ACCOUNT
    states = []

    def before_enter(screen):
        # The phrase is on the screen, the key not yet in the keystore: it waits for Enter.
        states.append(wallet.keystore_path.exists())

    run = run_on_terminal(wallet, ["keys", "create", "--recovery-phrase", "--words", words, "--json",
                                   "--passphrase-file", passphrase_file, *extra],
                          prompt=b"Press Enter", answer=b"\r", on_prompt=before_enter)
    assert run.returncode == 0, run.stderr
    assert states == [False], "the key was stored before Enter was pressed"

    prompt_at = run.screen.index(b"Press Enter")
    shown = SHOWN_WORD.findall(run.screen[:prompt_at])
    assert [int(number) for number, _ in shown] == list(range(1, words + 1)), run.screen
    phrase = " ".join(word.decode() for _, word in shown)
    assert ENGLISH.check(phrase), "the words make a valid BIP-39 phrase (Trezor's checksum check)"
    # Then the screen is cleared (erase display, erase scroll-back, home), and nothing follows.
    after = run.screen[prompt_at:]
    assert b"\x1b[2J" in after and b"\x1b[3J" in after, after
    cleared = after[after.index(b"\x1b[2J"):]
    assert not words_of(cleared.decode()) & set(phrase.split()), cleared

    seed = Bip39SeedGenerator(phrase).Generate(bip39_passphrase)
    expected = bip_utils_key(seed, path)[1]
    assert expected == solders_key(seed, path)
    created = json.loads(run.stdout)
    assert created["address"] == b64(expected)
    origin = {"kind": "recovery_phrase", "path": path} | ({"bip39_passphrase": True} if bip39_passphrase else {})
    assert {k: created[k] for k in ("base58", "label", "origin", "type")} == {
        "base58": b58encode(expected), "label": "key 1", "origin": origin, "type": "ed25519"}
    assert wallet.keys_json("list")["keys"] == [created]

    # stdout holds that JSON and nothing else; stderr only the test-KDF warning. A random phrase
    # may hold a word those fixed texts use too ("kind", "type", "only"): that is not a leak.
    assert run.stderr.decode().splitlines() == [WEAK_KDF_WARNING]
    fixed = words_of(json.dumps(created)) | words_of(WEAK_KDF_WARNING)
    leaked = (words_of(run.stdout.decode()) | words_of(run.stderr.decode())) & set(phrase.split()) - fixed
    assert not leaked
    assert phrase.encode() not in run.stdout + run.stderr
    assert len(run.stdout.splitlines()) == 1

    # The phrase is the key: imported into another keystore, it gives the same key.
    other = wallet.root / "other-keystore.json"
    args = ["--keystore", other] + (["--account", "3", "--bip39-passphrase-file", extra[-1]] if extra else [])
    assert import_mnemonic(wallet, phrase, passphrase_file, *args)["address"] == created["address"]


def test_a_taken_label_is_refused_before_a_phrase_is_shown(wallet, passphrase_file):
    wallet.create(passphrase_file, label="main", connect=())
    before = wallet.keystore_path.read_bytes()
    run = run_on_terminal(wallet, ["keys", "create", "--recovery-phrase", "--label", "main", "--passphrase-file", passphrase_file],
                          prompt=b"Press Enter", answer=b"\r")
    assert run.returncode == 1 and run.stdout == b""
    assert run.stderr.decode().strip() == 'Error: another key is already labelled "main"'
    assert not SHOWN_WORD.search(run.screen) and b"Press Enter" not in run.screen, run.screen
    assert wallet.keystore_path.read_bytes() == before


def test_ctrl_c_at_the_phrase_clears_it_and_creates_nothing(wallet, passphrase_file):
    wallet.create(passphrase_file, label="main", connect=())
    before = wallet.keystore_path.read_bytes()
    run = run_on_terminal(wallet, ["keys", "create", "--recovery-phrase", "--words", "12", "--passphrase-file", passphrase_file],
                          prompt=b"Press Enter", answer=b"\x03", interrupted=True)  # the terminal's INTR character
    assert run.returncode in (-2, 130), run.returncode  # SIGINT, the conventional way to end on Ctrl-C
    prompt_at = run.screen.index(b"Press Enter")
    assert len(SHOWN_WORD.findall(run.screen[:prompt_at])) == 12
    cleared = run.screen[run.screen.index(b"\x1b[2J", prompt_at):]
    assert b"\x1b[3J" in cleared and not SHOWN_WORD.search(cleared)
    assert b"No key was created; the phrase that was shown is not in use." in cleared
    assert run.stdout == b""
    assert wallet.keystore_path.read_bytes() == before


def test_create_with_a_recovery_phrase_refuses_without_a_terminal(wallet, passphrase_file):
    result = wallet.keys("create", "--recovery-phrase", "--passphrase-file", passphrase_file, check=False)
    assert result.returncode != 0 and result.stdout == b""
    assert "a recovery phrase is shown only on a terminal, and this command has none" in result.stderr.decode()
    assert not wallet.keystore_path.exists()
    wallet.create(passphrase_file, connect=())
    before = wallet.keystore_path.read_bytes()
    assert wallet.keys("create", "--recovery-phrase", "--words", "12", "--passphrase-file", passphrase_file, check=False).returncode != 0
    assert wallet.keystore_path.read_bytes() == before


# 5. solana-keygen keypair files.

def test_a_solana_keypair_file_round_trips_and_signs(wallet, passphrase_file):
    keypair = Keypair.from_seed(bytes(range(40, 72)))
    keypair_file = wallet.secret_file("id.json", json.dumps(list(bytes(keypair))))
    result = wallet.keys("import", "--solana-keypair", keypair_file, "--label", "from solana-keygen", "--json",
                         "--passphrase-file", passphrase_file, check=True)
    assert f"Warning: {keypair_file} still holds the secret unencrypted" in result.stderr.decode()
    imported = json.loads(result.stdout)
    assert imported["base58"] == str(keypair.pubkey())
    assert imported["address"] == b64(bytes(keypair.pubkey()))
    assert imported["origin"] == {"kind": "imported"}

    wallet.connect(CHROME_ORIGIN)
    payloads = (b"solana transfer", bytes(range(200)))
    signatures = sign_through_host(wallet, imported["address"], PASSPHRASE, payloads)
    # Ed25519 is deterministic: Solana's own code signs the same bytes the same way.
    assert signatures == [bytes(keypair.sign_message(payload)) for payload in payloads]

    before = wallet.keystore_path.read_bytes()
    mismatched = bytes(keypair)[:32] + bytes(Keypair.from_seed(bytes(32 * [9])).pubkey())
    keypair_file.write_text(json.dumps(list(mismatched)))
    refused = wallet.keys("import", "--solana-keypair", keypair_file, "--passphrase-file", passphrase_file, check=False)
    assert refused.returncode != 0 and refused.stdout == b""
    assert "are not the public key of its first 32 bytes" in refused.stderr.decode()
    assert wallet.keystore_path.read_bytes() == before


# 6. Backups.

def three_kinds_of_key(wallet, passphrase_file):
    generated = wallet.create(passphrase_file, label="generated", connect=())
    from_phrase = import_mnemonic(wallet, KNOWN_24, passphrase_file, "--label", "from phrase")
    keypair_file = wallet.secret_file("id.json", json.dumps(list(bytes(Keypair.from_seed(bytes(range(40, 72)))))))
    from_file = wallet.keys_json("import", "--solana-keypair", keypair_file, "--label", "from file", "--passphrase-file", passphrase_file)
    return generated, from_phrase, from_file


def test_a_backup_restores_every_key_which_then_signs(wallet, passphrase_file):
    keys = three_kinds_of_key(wallet, passphrase_file)
    listed = wallet.keys_json("list")["keys"]
    backup_passphrase = wallet.secret_file("backup-passphrase", "a backup passphrase nobody guesses\n")
    everything, one = wallet.root / "all.backup", wallet.root / "one.backup"
    exported = wallet.keys_json("export", "--backup", everything, "--backup-passphrase-file", backup_passphrase,
                                "--passphrase-file", passphrase_file)
    assert exported["keys"] == listed
    exported_one = wallet.keys_json("export", "--backup", one, "from phrase", "--backup-passphrase-file", backup_passphrase,
                                    "--passphrase-file", passphrase_file)
    assert exported_one["keys"] == [keys[1]]
    for path in (everything, one):
        assert oct(path.stat().st_mode & 0o777) == "0o600"
        assert json.loads(path.read_text())["format"] == "wallet-bridge-keystore"

    # A backup never replaces a file.
    kept = everything.read_bytes()
    again = wallet.keys("export", "--backup", everything, "--backup-passphrase-file", backup_passphrase,
                        "--passphrase-file", passphrase_file, check=False)
    assert again.returncode != 0 and again.stdout == b""
    assert "exists; a backup never replaces a file" in again.stderr.decode()
    assert everything.read_bytes() == kept

    for key in keys:
        wallet.keys("delete", key["address"], "--force", check=True)
    assert wallet.addresses() == []
    emptied = wallet.keystore_path.read_bytes()

    wrong = wallet.secret_file("wrong-backup-passphrase", "not the backup passphrase\n")
    refused = wallet.keys("import", "--backup", everything, "--backup-passphrase-file", wrong, "--passphrase-file", passphrase_file,
                          check=False)
    assert refused.returncode != 0 and refused.stdout == b""
    assert refused.stderr.decode().strip() == (f"Error: wrong passphrase for the backup {everything} "
                                               "(its own, set when it was written, not the keystore's)")
    assert wallet.keystore_path.read_bytes() == emptied
    wrong_keystore = wallet.keys("import", "--backup", everything, "--backup-passphrase-file", backup_passphrase,
                                 "--passphrase-file", wrong, check=False)
    assert wrong_keystore.stderr.decode().strip() == "Error: wrong passphrase", "the keystore's passphrase, this time"
    assert wallet.keystore_path.read_bytes() == emptied

    restored = wallet.keys_json("import", "--backup", everything, "--backup-passphrase-file", backup_passphrase,
                                "--passphrase-file", passphrase_file)
    assert restored == {"added": listed, "already_held": []}
    assert wallet.keys_json("list")["keys"] == listed, "labels, origins and creation times come back too"
    assert wallet.keys_json("verify", "--passphrase-file", passphrase_file) == {"keys": 3}
    wallet.connect(CHROME_ORIGIN)
    for key in keys[1:]:
        sign_through_host(wallet, key["address"], PASSPHRASE)
    expected = bip_utils_key(Bip39SeedGenerator(KNOWN_24).Generate(""), SOLANA_FIRST_ACCOUNT)[1]
    assert keys[1]["address"] == b64(expected)

    # The one-key backup, into a new keystore with a passphrase of its own.
    other = wallet.root / "elsewhere" / "keystore.json"
    other_passphrase = wallet.secret_file("other-passphrase", "another keystore passphrase\n")
    into_new = wallet.keys_json("import", "--backup", one, "--backup-passphrase-file", backup_passphrase,
                                "--keystore", other, "--passphrase-file", other_passphrase)
    assert into_new == {"added": [keys[1]], "already_held": []}
    assert wallet.keys_json("verify", "--keystore", other, "--passphrase-file", other_passphrase) == {"keys": 1}
    assert wallet.keys("verify", "--keystore", other, "--passphrase-file", passphrase_file, check=False).returncode != 0


# 7. The raw secret, on a terminal.

def test_a_raw_secret_is_exported_only_after_typing_export(wallet, passphrase_file):
    key = import_mnemonic(wallet, KNOWN_12, passphrase_file, "--label", "raw")
    seed, public = bip_utils_key(Bip39SeedGenerator(KNOWN_12).Generate(""), SOLANA_FIRST_ACCOUNT)
    output = wallet.root / "raw-keypair.json"
    run = run_on_terminal(wallet, ["keys", "export", "--secret", "raw", "--output", output, "--passphrase-file", passphrase_file],
                          prompt=b"Type export to go on:", answer=b"export\r")
    assert run.returncode == 0, run.stderr
    assert key["base58"].encode() in run.screen and b"UNENCRYPTED" in run.screen
    assert oct(output.stat().st_mode & 0o777) == "0o600"
    numbers = json.loads(output.read_text())
    assert len(numbers) == 64 and all(isinstance(n, int) and 0 <= n <= 255 for n in numbers)
    assert bytes(numbers) == seed + public
    assert str(Keypair.from_bytes(bytes(numbers)).pubkey()) == key["base58"]
    assert seed.hex().encode() not in run.stdout + run.stderr

    as_hex = wallet.root / "raw-keypair.hex"
    run = run_on_terminal(wallet, ["keys", "export", "--secret", key["base58"], "--output", as_hex, "--secret-format", "hex",
                                   "--passphrase-file", passphrase_file], prompt=b"Type export to go on:", answer=b"export\r")
    assert run.returncode == 0, run.stderr
    assert as_hex.read_text().strip() == (seed + public).hex()
    assert oct(as_hex.stat().st_mode & 0o777) == "0o600"

    # No terminal, a wrong answer, an existing file: nothing written.
    refused = wallet.keys("export", "--secret", "raw", "--output", wallet.root / "no-tty.json", "--passphrase-file", passphrase_file,
                          check=False)
    assert refused.returncode != 0 and refused.stdout == b""
    assert "asks for a confirmation on a terminal, and this command has none" in refused.stderr.decode()
    assert not (wallet.root / "no-tty.json").exists()
    for answer in (b"yes\r", b"Export\r", b"\r"):
        declined = wallet.root / "declined.json"
        run = run_on_terminal(wallet, ["keys", "export", "--secret", "raw", "--output", declined, "--passphrase-file", passphrase_file],
                              prompt=b"Type export to go on:", answer=answer)
        assert run.returncode != 0 and run.stdout == b""
        assert run.stderr.decode().strip() == "Error: not confirmed; nothing was written"
        assert not declined.exists()
    existing = wallet.secret_file("existing.json", "keep me")
    run = run_on_terminal(wallet, ["keys", "export", "--secret", "raw", "--output", existing, "--passphrase-file", passphrase_file],
                          prompt=b"Type export to go on:", answer=b"export\r")
    assert run.returncode != 0 and "a secret is written only to a new file" in run.stderr.decode()
    assert existing.read_text() == "keep me"


# 8. Passphrase strength.

@pytest.mark.parametrize("passphrase, label, reason", [
    ("short one", None, "it is shorter than 10 characters"),
    ("basketball", None, "it is a single dictionary word"),
    ("Basketball2024!", None, "it is a single dictionary word"),
    ("1234567890", None, "it repeats or runs through too few characters"),
    ("my savings account", "savings", "it contains the key's label"),
], ids=["short", "a-dictionary-word", "a-word-with-digits", "a-run", "the-label"])
def test_a_weak_new_keystore_passphrase_is_refused_unless_allowed(wallet, passphrase, label, reason):
    weak = wallet.secret_file("weak", passphrase + "\n")
    labelled = ["--label", label] if label else []
    refused = wallet.keys("create", "--passphrase-file", weak, *labelled, check=False)
    assert refused.returncode != 0 and refused.stdout == b""
    stderr = refused.stderr.decode()
    assert stderr.startswith(f"Error: the passphrase is too weak: {reason}") and "Pass --allow-weak to use it anyway" in stderr, stderr
    assert passphrase not in stderr
    assert not wallet.keystore_path.exists()
    refused = wallet.keys("import", "--mnemonic", "--passphrase-file", weak, *labelled, input=KNOWN_12.encode(), check=False)
    assert f"the passphrase is too weak: {reason}" in refused.stderr.decode()
    assert not wallet.keystore_path.exists()

    allowed = wallet.keys("create", "--passphrase-file", weak, "--allow-weak", "--json", *labelled, check=True)
    assert f"Warning: the passphrase is weak ({reason}" in allowed.stderr.decode()
    assert "used anyway because of --allow-weak" in allowed.stderr.decode()
    assert wallet.keys_json("verify", "--passphrase-file", weak) == {"keys": 1}


def test_a_weak_backup_passphrase_is_refused_unless_allowed(wallet, passphrase_file):
    wallet.create(passphrase_file, connect=())
    weak = wallet.secret_file("weak", "basketball\n")
    backup = wallet.root / "weak.backup"
    refused = wallet.keys("export", "--backup", backup, "--backup-passphrase-file", weak, "--passphrase-file", passphrase_file,
                          check=False)
    assert refused.returncode != 0
    assert "Error: the backup passphrase is too weak: it is a single dictionary word" in refused.stderr.decode()
    assert not backup.exists()
    allowed = wallet.keys("export", "--backup", backup, "--backup-passphrase-file", weak, "--passphrase-file", passphrase_file,
                          "--allow-weak", check=True)
    assert "Warning: the backup passphrase is weak (it is a single dictionary word" in allowed.stderr.decode()
    assert backup.exists()


def test_a_weak_new_passphrase_is_refused_by_change_passphrase(wallet, passphrase_file):
    wallet.create(passphrase_file, connect=())
    before = wallet.keystore_path.read_bytes()
    weak = wallet.secret_file("weak", "short\n")
    refused = wallet.keys("change-passphrase", "--passphrase-file", passphrase_file, "--new-passphrase-file", weak, check=False)
    assert refused.returncode != 0 and "the new passphrase is too weak: it is shorter than 10 characters" in refused.stderr.decode()
    assert wallet.keystore_path.read_bytes() == before
    allowed = wallet.keys("change-passphrase", "--passphrase-file", passphrase_file, "--new-passphrase-file", weak, "--allow-weak", check=True)
    assert "Warning: the new passphrase is weak (it is shorter than 10 characters" in allowed.stderr.decode()
    assert wallet.keys("verify", "--passphrase-file", weak, check=True)


# 9. The version 1 keystore.

def install_v1_keystore(wallet):
    wallet.keystore_path.parent.mkdir(parents=True, mode=0o700)
    wallet.keystore_path.write_bytes(V1_KEYSTORE.read_bytes())
    wallet.keystore_path.chmod(0o600)
    return wallet.secret_file("v1-passphrase", V1_PASSPHRASE + "\n")


def test_a_version_1_keystore_is_read_signs_and_is_migrated_by_the_next_change(wallet):
    v1_passphrase = install_v1_keystore(wallet)
    original = V1_KEYSTORE.read_bytes()
    assert json.loads(original)["version"] == 1
    listed = wallet.keys_json("list")["keys"]
    assert [(key["label"], key["address"], key["origin"], key["type"]) for key in listed] == [
        (label, b64(public_key_of(seed)), {"kind": "unknown"}, "ed25519") for label, seed in V1_KEYS.items()]
    assert wallet.keys_json("verify", "--passphrase-file", v1_passphrase) == {"keys": 2}

    wallet.connect(CHROME_ORIGIN)
    payload = b"signed by a version 1 keystore"
    for key in listed:
        (signature,) = sign_through_host(wallet, key["address"], V1_PASSPHRASE, [payload])
        assert signature == Ed25519PrivateKey.from_private_bytes(V1_KEYS[key["label"]]).sign(payload)
    assert wallet.keystore_path.read_bytes() == original, "reading and signing never rewrite the keystore"

    created = wallet.keys_json("create", "--passphrase-file", v1_passphrase, "--label", "after migration")
    stored = json.loads(wallet.keystore_path.read_text())
    assert stored["version"] == 2
    v1 = json.loads(original)
    assert [(k["type"], k["public_key"], k["label"], k["created"], k["origin"]) for k in stored["keys"]] == [
        ("ed25519", k["public_key"], k["label"], k["created"], {"kind": "unknown"}) for k in v1["keys"]] + [
        ("ed25519", created["address"], "after migration", created["created"], {"kind": "generated"})]
    for old, new in zip(v1["keys"], stored["keys"]):
        assert new["ciphertext"] != old["ciphertext"], "each seed is sealed again, with its public key"
    assert wallet.keys_json("list")["keys"] == listed + [created]
    assert wallet.keys_json("verify", "--passphrase-file", v1_passphrase) == {"keys": 3}

    wallet.stop_agent()  # a new agent, which must decrypt the migrated file itself
    for key in listed + [created]:
        sign_through_host(wallet, key["address"], V1_PASSPHRASE)
