"""No secret key byte and no passphrase in any output or log.

A known seed, a known recovery phrase, a known solana-keygen keypair and known passphrases go
through every path that prints something: the keys subcommands (successes and failures, recovery
phrases, backups, keypair files, rename), the host with debug logging (signing, refusals, a damaged
key), and pinentry (whose log records every command the host sent it). Then every byte that came
out, the keystore file and the backup files, is searched for the secrets in every encoding a
careless message might use, and for the phrase or any three of its words in a row. Only a raw
secret export and the phrase shown on a terminal hold secrets on purpose: neither is run here."""
import base64
import json
import re

from bip_utils import Bip32Slip10Ed25519, Bip39SeedGenerator
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from mnemonic import Mnemonic

from wallet_helpers import FIREFOX_ID, GET_ACCOUNTS, Wallet, b58encode, b64

SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")  # RFC 8032 test 1
PASSPHRASES = ["first secret passphrase", "second secret passphrase", "a wrong guess passphrase"]
PHRASE = Mnemonic("english").to_mnemonic(bytes.fromhex("4e7a" * 16))  # 24 words, a test vector of ours
BIP39_PASSPHRASE = "secret twenty fifth word"
BACKUP_PASSPHRASE = "secret backup passphrase"
KEYPAIR_SEED = bytes(range(200, 232))  # in a solana-keygen keypair file


def encodings(secret):
    """The forms a secret might take in a careless message."""
    forms = {secret.hex(), secret.hex().upper(), b64(secret), base64.urlsafe_b64encode(secret).decode().rstrip("="),
             b64(secret).rstrip("="), b58encode(secret), json.dumps(list(secret)), ",".join(map(str, secret))}
    # Any 12-byte window, in hex and base64, catches a secret that was cut or offset.
    for start in range(0, len(secret) - 12, 4):
        forms |= {secret[start:start + 12].hex(), b64(secret[start:start + 12]).rstrip("=")}
    return forms


def public_key_of(seed):
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def phrase_patterns(phrase):
    """The phrase, and every run of three of its words in a row, whatever separates them (spaces,
    commas, quotes, newlines, numbering) and in any case."""
    words = phrase.split()
    return [re.compile(r"\b" + r"[^a-z]+".join(words[start:start + 3]) + r"\b", re.IGNORECASE) for start in range(len(words) - 2)]


def test_no_secret_reaches_any_output_or_log(tmp_path):
    wallet = Wallet(tmp_path)
    try:
        check_no_secret_reaches_any_output_or_log(wallet)
    finally:
        wallet.clean_up()


def check_no_secret_reaches_any_output_or_log(wallet):
    public_key = Ed25519PrivateKey.from_private_bytes(SEED).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    secret_key = SEED + public_key
    first, second, wrong = (wallet.secret_file(f"passphrase-{i}", p + "\n") for i, p in enumerate(PASSPHRASES))
    seed_file = wallet.secret_file("seed.hex", SEED.hex())
    debug = {"WALLET_BRIDGE_LOG": "debug"}

    # The command line, successes and failures.
    imported = wallet.keys_json("import", "--file", seed_file, "--label", "known", "--passphrase-file", first, env=wallet.env(**debug))
    assert imported["address"] == b64(public_key)
    wallet.keys("import", "--passphrase-file", first, input=json.dumps(list(secret_key)).encode(), env=wallet.env(**debug), check=False)
    wallet.keys("import", "--format", "hex", "--passphrase-file", first, input=SEED.hex()[:-2].encode(), check=False)
    wallet.keys("import", "--passphrase-file", wrong, input=b64(secret_key).encode(), check=False)
    wallet.create(first, label="generated")
    phrase_seed = Bip39SeedGenerator(PHRASE).Generate(BIP39_PASSPHRASE)
    derived = Bip32Slip10Ed25519.FromSeed(phrase_seed).DerivePath("m/44'/501'/0'/0'").PrivateKey().Raw().ToBytes()
    keypair_public = public_key_of(KEYPAIR_SEED)
    check_recovery_paths(wallet, first, wrong, debug)

    for args in (["list"], ["list", "--json"], ["export-public", "known"], ["verify", "--passphrase-file", first],
                 ["verify", "--passphrase-file", wrong], ["create", "--passphrase-file", wrong]):
        wallet.keys(*args, env=wallet.env(**debug))
    wallet.keys("change-passphrase", "--passphrase-file", first, "--new-passphrase-file", second, env=wallet.env(**debug), check=True)
    wallet.keys("change-passphrase", "--passphrase-file", first, "--new-passphrase-file", second, check=False)
    assert wallet.keys("verify", "--passphrase-file", second, check=True)

    # The host, with debug logging, through pinentry and through the passphrase file.
    answers = wallet.secret_file("answers", PASSPHRASES[2] + "\n" + PASSPHRASES[1] + "\n")
    host = wallet.host(FIREFOX_ID, FAKE_PINENTRY_PASSPHRASES=answers, **debug)
    host.call(GET_ACCOUNTS)
    assert "result" in host.sign(b64(public_key), [b64(b"pay me"), b64(b"and me")])
    assert "result" in host.sign(b64(public_key_of(derived)), [b64(b"from the phrase")])
    assert "result" in host.sign(b64(keypair_public), [b64(b"from the keypair file")])
    assert "error" in host.sign(b64(public_key), ["not base64"])
    host.close()
    for env in ({"FAKE_PINENTRY_MODE": "cancel"}, {"WALLET_BRIDGE_PASSPHRASE_FILE": wrong}, {"WALLET_BRIDGE_PASSPHRASE_FILE": second}):
        wallet.stop_agent()  # each passphrase source in an agent of its own, started locked
        host = wallet.host(**env, **debug)
        host.sign(b64(public_key), [b64(b"x")])
        host.close()
    stored = json.loads(wallet.keystore_path.read_text())
    sealed = bytearray(base64.b64decode(stored["keys"][0]["ciphertext"]))
    sealed[0] ^= 1
    stored["keys"][0]["ciphertext"] = b64(bytes(sealed))
    wallet.keystore_path.write_text(json.dumps(stored))
    host = wallet.host(WALLET_BRIDGE_PASSPHRASE_FILE=second, **debug)
    assert host.sign(b64(public_key), [b64(b"x")])["error"]["data"] == {"reason": "key_damaged"}
    host.close()

    # Everything that came out, plus the pinentry log and the keystore file itself.
    haystacks = list(wallet.outputs)
    haystacks.append(("pinentry log", wallet.pinentry_log.read_bytes()))
    haystacks.append(("keystore file", wallet.keystore_path.read_bytes()))
    for path in sorted(wallet.root.glob("*.backup")) + [wallet.root / "restored" / "keystore.json"]:
        haystacks.append((path.name, path.read_bytes()))
    everything = b"\n".join(data for _, data in haystacks)
    for expected in (b"Error: wrong passphrase", b"not a usable secret key", b"wallet-bridge: debug:", b"signature refused",
                     b"does not decrypt with the right passphrase", b'"command": "GETPIN"', b"signed_payloads", b"passphrase_check",
                     b"checksum does not match", b"is not in the BIP-39 English word list", b"this one has 23",
                     b"allows only hardened indices", b'"kind":"recovery_phrase"', b"not the public key of its first 32 bytes",
                     b'"kind":"imported"', b"a backup never replaces a file", b'"added"', b"Restored 1 of", b"Renamed",
                     b'"label":"renamed phrase"', b"already holds the key"):
        assert expected in everything, f"the search does not cover the output that holds {expected!r}"
    for key in (public_key, public_key_of(derived), keypair_public):
        assert any(b64(key).encode() in data for _, data in haystacks), "public keys do appear: the search works"
    # The secret key's second half is the public key, which appears legitimately: whole forms only.
    needles = set()
    for seed in (SEED, derived, KEYPAIR_SEED):
        full = seed + public_key_of(seed)
        needles |= encodings(seed) | {b64(full), full.hex(), full.hex().upper(), b58encode(full), json.dumps(list(full))}
    needles |= encodings(phrase_seed)
    passphrases = PASSPHRASES + [BIP39_PASSPHRASE, BACKUP_PASSPHRASE]
    needles |= set(passphrases) | {p.replace(" ", "%20") for p in passphrases}
    patterns = phrase_patterns(PHRASE)
    assert len(patterns) == 22 and all(pattern.search(PHRASE.upper().replace(" ", ",\n ")) for pattern in patterns)
    for name, data in haystacks:
        text = data.decode("utf-8", errors="replace")
        for needle in needles:
            assert needle not in text, f"a secret ({needle[:6]}…) appears in {name}"
        for pattern in patterns:
            assert not pattern.search(text), f"three words of the recovery phrase appear in {name}"


def check_recovery_paths(wallet, passphrase_file, wrong, debug):
    """The recovery phrase, the keypair file, backups and rename, with known secrets, in
    successes and failures. The keys made here stay for the host part."""
    words = PHRASE.split()
    english = Mnemonic("english")
    # A last word from the list that breaks the checksum, found the same way on every run.
    bad_checksum = next(" ".join(words[:-1] + [w]) for w in english.wordlist if not english.check(" ".join(words[:-1] + [w])))
    bip39_file = wallet.secret_file("bip39-passphrase", BIP39_PASSPHRASE + "\n")
    phrase_args = ["import", "--mnemonic", "--bip39-passphrase-file", bip39_file, "--passphrase-file", passphrase_file]
    env = wallet.env(**debug)
    wallet.keys(*phrase_args, "--label", "phrase", "--json", input=(PHRASE + "\n").encode(), env=env, check=True)
    for phrase in (bad_checksum, " ".join(words[:7] + ["notaword"] + words[8:]), " ".join(words[:-1])):
        wallet.keys(*phrase_args, input=phrase.encode(), env=env, check=False)
    wallet.keys(*phrase_args, "--derivation-path", "m/44'/501'/0'/0", input=PHRASE.encode(), env=env, check=False)
    wallet.keys(*phrase_args, input=PHRASE.encode(), env=env, check=False)  # already held
    wallet.keys("import", "--mnemonic", "--bip39-passphrase-file", bip39_file, "--passphrase-file", wrong, "--account", "1",
                input=PHRASE.encode(), env=env, check=False)

    keypair = wallet.secret_file("id.json", json.dumps(list(KEYPAIR_SEED + public_key_of(KEYPAIR_SEED))))
    mismatched = wallet.secret_file("mismatched.json", json.dumps(list(KEYPAIR_SEED + public_key_of(SEED))))
    wallet.keys("import", "--solana-keypair", mismatched, "--passphrase-file", passphrase_file, env=env, check=False)
    wallet.keys("import", "--solana-keypair", keypair, "--label", "keypair", "--json", "--passphrase-file", passphrase_file, env=env,
                check=True)

    backup_passphrase = wallet.secret_file("backup-passphrase", BACKUP_PASSPHRASE + "\n")
    everything, one = wallet.root / "everything.backup", wallet.root / "one.backup"
    for backup, named in ((everything, []), (one, ["phrase"]), (everything, [])):  # the third is refused: it exists
        wallet.keys("export", "--backup", backup, *named, "--backup-passphrase-file", backup_passphrase,
                    "--passphrase-file", passphrase_file, "--json", env=env)
    restored = wallet.root / "restored" / "keystore.json"
    for backup_passphrase_file in (wrong, backup_passphrase):
        wallet.keys("import", "--backup", one, "--backup-passphrase-file", backup_passphrase_file, "--keystore", restored,
                    "--passphrase-file", passphrase_file, env=env)
    wallet.keys("import", "--backup", everything, "--backup-passphrase-file", backup_passphrase, "--passphrase-file", passphrase_file,
                "--json", env=env, check=True)  # every key already held

    wallet.keys("rename", "phrase", "renamed phrase", "--json", "--passphrase-file", passphrase_file, env=env, check=True)
    wallet.keys("rename", "keypair", "renamed keypair", "--passphrase-file", wrong, env=env, check=False)
    wallet.keys("rename", "keypair", "keypair file", "--passphrase-file", passphrase_file, env=env, check=True)
