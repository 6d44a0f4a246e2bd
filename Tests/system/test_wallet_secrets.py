"""No secret key byte and no passphrase in any output or log.

A known seed and known passphrases go through every path that prints something: the keys
subcommands (successes and failures), the host with debug logging (signing, refusals, a damaged
key), and pinentry (whose log records every command the host sent it). Then every byte that came
out, and the keystore file itself, is searched for the secrets in every encoding a careless
message might use."""
import base64
import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from wallet_helpers import FIREFOX_ID, GET_ACCOUNTS, Wallet, b58encode, b64

SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")  # RFC 8032 test 1
PASSPHRASES = ["first secret passphrase", "second secret passphrase", "a wrong guess passphrase"]


def encodings(secret):
    """The forms a secret might take in a careless message."""
    forms = {secret.hex(), secret.hex().upper(), b64(secret), base64.urlsafe_b64encode(secret).decode().rstrip("="),
             b64(secret).rstrip("="), b58encode(secret), json.dumps(list(secret)), ",".join(map(str, secret))}
    # Any 12-byte window, in hex and base64, catches a secret that was cut or offset.
    for start in range(0, len(secret) - 12, 4):
        forms |= {secret[start:start + 12].hex(), b64(secret[start:start + 12]).rstrip("=")}
    return forms


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
    everything = b"\n".join(data for _, data in haystacks)
    for expected in (b"Error: wrong passphrase", b"not a usable secret key", b"wallet-bridge: debug:", b"signature refused",
                     b"does not decrypt with the right passphrase", b'"command": "GETPIN"', b"signed_payloads", b"passphrase_check"):
        assert expected in everything, f"the search does not cover the output that holds {expected!r}"
    assert any(b64(public_key).encode() in data for _, data in haystacks), "public keys do appear: the search works"
    # The secret key's second half is the public key, which appears legitimately: whole forms only.
    needles = encodings(SEED) | {b64(secret_key), secret_key.hex(), secret_key.hex().upper(), b58encode(secret_key)}
    needles |= set(PASSPHRASES) | {p.replace(" ", "%20") for p in PASSPHRASES}
    for name, data in haystacks:
        text = data.decode("utf-8", errors="replace")
        for needle in needles:
            assert needle not in text, f"a secret ({needle[:6]}…) appears in {name}"
