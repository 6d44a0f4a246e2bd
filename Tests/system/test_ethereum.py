"""Ethereum: secp256k1 keys (`keys create|import|list|export-public|export --type ethereum`) and
the eip155 session methods (eth_accounts, eth_chainId, personal_sign, eth_signTypedData_v4),
through the built binaries over real pipes, checked against PyPI code that shares none with them.

- Addresses: eth-account's HD wallet (`Account.from_mnemonic`) and bip_utils (BIP-39 seeds,
  BIP-32 secp256k1, BIP-44 Ethereum), EIP-55 by eth_utils.
- Signatures: eth-account's `sign_message` (whose secp256k1 is coincurve's libsecp256k1 here, as
  eth_keys picks it when installed) and eth_keys' pure-Python backend (its own RFC 6979 and curve
  arithmetic), byte for byte; recovered by eth-account and by coincurve. The digests come from
  eth-account's EIP-191 and EIP-712 encoders, personal_sign's also written out here.
- EIP-712: EIP-712's own Mail example and its published signature, and seeded random documents
  (`test_random_typed_data_signs_as_eth_account_signs_it`: 60 documents, eth-account 0.14.0).

Hosts: the conformance host's pre-seeded Ethereum session (Tests/Fixtures/README.md: the keys
Keccak-256("cow") and 0x02 x 32, consent approving), and the shipped host with a real keystore,
its agent and the scripted pinentry, as test_sessions.py drives it.
"""
import json
import os
import random
import re
import subprocess
import time
from importlib.metadata import version
from pathlib import Path

import pytest
from bip_utils import (Bip32Secp256k1, Bip39SeedGenerator, Bip44, Bip44Changes, Bip44Coins, EthAddrEncoder,
                       Bip32Slip10Ed25519)
from coincurve import PublicKey
from eth_account import Account
from eth_account.messages import _hash_eip191_message, encode_defunct, encode_typed_data
from eth_keys import KeyAPI
from eth_keys.backends import NativeECCBackend
from eth_utils import keccak, to_checksum_address

from conftest import PASSPHRASE
from test_wallet_recovery import SHOWN_WORD, TREZOR_VECTORS, run_on_terminal
from wallet_helpers import EIP712_MAIL, FramedPipes, b64, binary_path, error_of

Account.enable_unaudited_hdwallet_features()
PURE_PYTHON_KEYS = KeyAPI(NativeECCBackend())

ETH_ORIGIN = "chrome-extension://mnopmnopmnopmnopmnopmnopmnopmnop/"
TOPIC = "e155" * 16
SESSION_CHAINS = {"eip155:1": 1, "eip155:137": 137, "eip155:8453": 8453}
SECP256K1_ORDER = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
ABANDON = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
ABANDON_FIRST = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"  # MetaMask's and BIP-44 tools' well-known first address
FIRST_ETHEREUM = "m/44'/60'/0'/0/0"

# The conformance host's test keys: Keccak-256 of "cow" (the key of "Cow" in EIP-712's Mail
# example, whose address EIP-712 prints) and 0x02 x 32.
COW = keccak(b"cow")
TWO = bytes([2] * 32)
COW_ADDRESS = "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
TEST_KEYS = {Account.from_key(COW).address: COW, Account.from_key(TWO).address: TWO}

# EIP-712's example, as the EIP gives it (assets/eip-712/Example.js), and the signature it
# publishes for it with the key of "cow": v 28, r, s.
MAIL = EIP712_MAIL
assert MAIL["message"]["from"]["wallet"] == COW_ADDRESS
MAIL_SIGNATURE = ("0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d"
                  "07299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b91562" "1c")

ETHEREUM_METHODS = ["personal_sign", "eth_signTypedData_v4", "eth_accounts", "eth_chainId"]
PROPOSAL = {
    "requiredNamespaces": {"eip155": {"chains": ["eip155:1"], "methods": ETHEREUM_METHODS, "events": []}},
    "metadata": {"name": "Example Ethereum dApp", "description": "Signs with Ethereum", "url": "https://eth.example.org", "icons": []},
}


# Independent answers.

def checksummed(address):
    """EIP-55 by eth_utils, and the shape: 0x and 40 hex digits."""
    assert re.fullmatch(r"0x[0-9a-fA-F]{40}", address), address
    return to_checksum_address(address.lower())


def address_of_public_key(public_key):
    """Keccak-256 of the uncompressed point (without 0x04), last 20 bytes, EIP-55: by coincurve
    and eth_utils."""
    point = PublicKey(public_key).format(compressed=False)
    return to_checksum_address(keccak(point[1:])[-20:])


def eth_account_address(phrase, path, passphrase=""):
    return Account.from_mnemonic(phrase, passphrase=passphrase, account_path=path).address


def bip_utils_address(seed, path):
    node = Bip32Secp256k1.FromSeed(seed).DerivePath(path)
    return EthAddrEncoder.EncodeKey(node.PublicKey().KeyObject())


def bip44_address(seed, index):
    """bip_utils' BIP-44 Ethereum class, which builds m/44'/60'/0'/0/N itself."""
    node = Bip44.FromSeed(seed, Bip44Coins.ETHEREUM).Purpose().Coin().Account(0).Change(Bip44Changes.CHAIN_EXT).AddressIndex(index)
    return node.PublicKey().ToAddress()


def personal_digest(message):
    """EIP-191 version 0x45, written out."""
    return keccak(b"\x19Ethereum Signed Message:\n" + str(len(message)).encode() + message)


def check_signature(signature_hex, signable, secret, address):
    """A 65-byte r||s||v signature in 0x-hex from the host: equal byte for byte to eth-account's
    and to eth_keys' pure-Python signature with `secret` (RFC 6979 nonces are deterministic),
    low-s, and recovered to `address` by eth-account and by coincurve."""
    assert isinstance(signature_hex, str) and re.fullmatch(r"0x[0-9a-f]{130}", signature_hex), signature_hex
    signature = bytes.fromhex(signature_hex[2:])
    r, s, v = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:64], "big"), signature[64]
    assert v in (27, 28) and 0 < r < SECP256K1_ORDER and 0 < s <= SECP256K1_ORDER // 2, (r, s, v)
    digest = _hash_eip191_message(signable)
    assert signature == bytes(Account.sign_message(signable, secret).signature)
    pure = PURE_PYTHON_KEYS.PrivateKey(secret).sign_msg_hash(digest).to_bytes()
    assert signature == pure[:64] + bytes([pure[64] + 27]), "eth_keys' pure-Python signature differs"
    assert Account.recover_message(signable, signature=signature) == address
    recovered = PublicKey.from_signature_and_message(signature[:64] + bytes([v - 27]), digest, hasher=None)
    assert address_of_public_key(recovered.format()) == address
    return signature


# The hosts.

class ConformanceHost(FramedPipes):
    """The conformance host over real pipes, called as the extension of the pre-seeded Ethereum
    session. Every byte it writes must be part of a frame: `close` fails on any other."""

    def __init__(self, tmp_path, caller=ETH_ORIGIN, **env):
        executable = Path(binary_path()).parent / "wallet-bridge-conformance-host"
        assert os.access(executable, os.X_OK), f"{executable} is missing: run `swift build`"
        environment = {key: value for key, value in os.environ.items() if not key.startswith(("WALLET_BRIDGE_", "XDG_"))}
        environment.update({"HOME": str(tmp_path)}, **env)
        super().__init__(subprocess.Popen([str(executable), caller], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, env=environment, start_new_session=True))

    def close(self):
        self.process.stdin.close()
        rest = self.process.stdout.read()
        self.process.wait(10)
        stderr = self.process.stderr.read()
        assert self.buffer + rest == b"", f"bytes after the last reply: {(self.buffer + rest)[:200]!r}"
        assert self.process.returncode == 0, f"host exited with {self.process.returncode}: {stderr!r}"


def call(host, method, params=None):
    """One request and its reply; notifications on the way are skipped."""
    request_id = host.send(method, params)
    while True:
        message = host.receive()
        if "id" in message:
            assert message["id"] == request_id, message
            return message


def eth(host, method, params, chain="eip155:1", topic=TOPIC):
    """session_request of `method` in the session `topic`."""
    request = {"method": method} if params is None else {"method": method, "params": params}
    return call(host, "session_request", {"topic": topic, "chainId": chain, "request": request})


@pytest.fixture
def conformance(tmp_path):
    host = ConformanceHost(tmp_path)
    yield host
    host.close()


# The command line.

def import_phrase(wallet, phrase, passphrase_file, *args):
    result = wallet.keys("import", "--mnemonic", "--type", "ethereum", "--json", "--passphrase-file", passphrase_file, *args,
                         input=(phrase + "\n").encode(), check=True)
    return json.loads(result.stdout)


def listed(wallet):
    return {key["address"]: key for key in wallet.keys_json("list")["keys"]}


def check_listed_ethereum(key, origin):
    assert key["type"] == "secp256k1" and key["chain"] == "ethereum", key
    assert key["address"] == checksummed(key["address"]), f"not EIP-55: {key['address']}"
    assert "base58" not in key, key
    assert key["origin"] == origin, key


# 1. Addresses from recovery phrases.

def test_the_abandon_phrase_gives_the_well_known_addresses(wallet, passphrase_file):
    seed = Bip39SeedGenerator(ABANDON).Generate("")
    first = import_phrase(wallet, ABANDON, passphrase_file)
    assert first["address"] == ABANDON_FIRST == eth_account_address(ABANDON, FIRST_ETHEREUM) == bip44_address(seed, 0)
    check_listed_ethereum(first, {"kind": "recovery_phrase", "path": FIRST_ETHEREUM})
    for account in (1, 2, 9, 2147483647):
        path = f"m/44'/60'/0'/0/{account}"
        imported = import_phrase(wallet, ABANDON, passphrase_file, "--account", account)
        assert imported["address"] == eth_account_address(ABANDON, path) == bip_utils_address(seed, path) == bip44_address(seed, account), path
        check_listed_ethereum(imported, {"kind": "recovery_phrase", "path": path})
    keys = listed(wallet)
    assert len(keys) == 5
    for address, key in keys.items():
        assert address == eth_account_address(ABANDON, key["origin"]["path"])
        shown = wallet.keys("export-public", address, "--encoding", "address", check=True).stdout.decode().strip()
        assert shown == address
        public = bytes.fromhex(wallet.keys("export-public", key["label"], "--encoding", "hex", check=True).stdout.decode().strip())
        assert len(public) == 33 and public[0] in (2, 3)
        assert address_of_public_key(public) == address


def test_every_trezor_vector_with_its_passphrase_matches_eth_account_and_bip_utils(wallet, passphrase_file):
    """The 24 Trezor vectors with "TREZOR" through --bip39-passphrase-file, at accounts 0 to 4
    in turn; bip_utils starts from the vector's own seed."""
    trezor = wallet.secret_file("bip39-passphrase", "TREZOR\n")
    for index, (_, phrase, seed_hex) in enumerate(TREZOR_VECTORS):
        account = index % 5
        path = f"m/44'/60'/0'/0/{account}"
        seed = bytes.fromhex(seed_hex)
        imported = import_phrase(wallet, phrase, passphrase_file, "--bip39-passphrase-file", trezor, "--account", account,
                                 "--label", f"vector {index}")
        expected = eth_account_address(phrase, path, passphrase="TREZOR")
        assert imported["address"] == expected == bip_utils_address(seed, path) == bip44_address(seed, account), f"vector {index}"
        assert expected != eth_account_address(phrase, path), "the passphrase changes the key"
        check_listed_ethereum(imported, {"kind": "recovery_phrase", "path": path, "bip39_passphrase": True})
    keys = wallet.keys_json("list")["keys"]
    assert [key["label"] for key in keys] == [f"vector {index}" for index in range(24)]
    assert wallet.keys_json("verify", "--passphrase-file", passphrase_file) == {"keys": 24}


@pytest.mark.parametrize("path", [
    "m/44'/60'/0'/1/7",          # the change chain
    "m/44'/60'/3'/0/0",          # another BIP-44 account
    "m/0/1'/2",                  # hardened between non-hardened
    "m/7'",                      # one level
    "m/1/2/3/4/5/6",             # non-hardened only
    "m/44'/60'/2147483647'/0/2147483647",  # the largest indices
])
def test_derivation_paths_with_mixed_hardening_match_eth_account_and_bip_utils(wallet, passphrase_file, path):
    phrase = TREZOR_VECTORS[17][1]  # 24 words
    seed = Bip39SeedGenerator(phrase).Generate("")
    imported = import_phrase(wallet, phrase, passphrase_file, "--derivation-path", path)
    assert imported["address"] == eth_account_address(phrase, path) == bip_utils_address(seed, path), path
    check_listed_ethereum(imported, {"kind": "recovery_phrase", "path": path})
    assert list(listed(wallet)) == [imported["address"]]


# 2. Created and imported keys.

def test_created_ethereum_keys_are_listed_and_their_exported_secret_is_theirs(wallet, passphrase_file):
    created = [wallet.keys_json("create", "--type", "ethereum", "--label", f"eth {n}", "--passphrase-file", passphrase_file)
               for n in range(3)]
    solana = wallet.keys_json("create", "--label", "sol", "--passphrase-file", passphrase_file)
    assert solana["type"] == "ed25519" and solana["chain"] == "solana"
    assert len({key["address"] for key in created}) == 3, "three random keys"
    keys = listed(wallet)
    assert list(keys) == [key["address"] for key in created] + [solana["address"]]
    for key in created:
        check_listed_ethereum(key, {"kind": "generated"})
        assert keys[key["address"]] == key
        public = bytes.fromhex(wallet.keys("export-public", key["label"], "--encoding", "hex", check=True).stdout.decode().strip())
        assert address_of_public_key(public) == key["address"]
    # The secret, written on a terminal's confirmation, is the key of the address (eth-account).
    output = wallet.root / "eth-secret.hex"
    run = run_on_terminal(wallet, ["keys", "export", "--secret", "eth 1", "--output", output, "--passphrase-file", passphrase_file],
                          prompt=b"Type export to go on:", answer=b"export\r")
    assert run.returncode == 0, run.stderr
    secret = bytes.fromhex(output.read_text().strip())
    assert len(secret) == 32
    assert Account.from_key(secret).address == created[1]["address"]
    assert oct(output.stat().st_mode & 0o777) == "0o600"
    refused = run_on_terminal(wallet, ["keys", "export", "--secret", "eth 1", "--output", wallet.root / "as-keypair.json",
                                       "--secret-format", "solana-keypair", "--passphrase-file", passphrase_file],
                              prompt=b"Type export to go on:", answer=b"export\r")
    assert refused.returncode != 0 and "written in hex only" in refused.stderr.decode(), refused.stderr
    assert not (wallet.root / "as-keypair.json").exists()


def test_a_secret_made_by_eth_account_imports_to_its_address(wallet, passphrase_file):
    made = [Account.create() for _ in range(3)]
    on_stdin = wallet.keys_json("import", "--type", "ethereum", "--label", "from stdin", "--passphrase-file", passphrase_file,
                                input=(bytes(made[0].key).hex() + "\n").encode())
    assert on_stdin["address"] == made[0].address
    in_file = wallet.secret_file("secret.hex", bytes(made[1].key).hex().upper())
    from_file = wallet.keys_json("import", "--type", "ethereum", "--file", in_file, "--passphrase-file", passphrase_file)
    assert from_file["address"] == made[1].address
    raw = wallet.secret_file("secret.bin", bytes(made[2].key))
    from_raw = wallet.keys_json("import", "--type", "secp256k1", "--file", raw, "--format", "raw", "--passphrase-file", passphrase_file)
    assert from_raw["address"] == made[2].address
    for key in (on_stdin, from_file, from_raw):
        check_listed_ethereum(key, {"kind": "imported"})
    assert list(listed(wallet)) == [account.address for account in made]
    # The same secret again is refused: the keystore holds it.
    again = wallet.keys("import", "--type", "ethereum", "--json", "--passphrase-file", passphrase_file,
                        input=(bytes(made[0].key).hex() + "\n").encode(), check=False)
    assert again.returncode != 0 and again.stdout == b"", again
    assert list(listed(wallet)) == [account.address for account in made]


def test_one_phrase_as_solana_and_as_ethereum_is_two_keys(wallet, passphrase_file):
    phrase = TREZOR_VECTORS[9][1]
    seed = Bip39SeedGenerator(phrase).Generate("")
    as_solana = json.loads(wallet.keys("import", "--mnemonic", "--type", "solana", "--json", "--passphrase-file", passphrase_file,
                                       input=(phrase + "\n").encode(), check=True).stdout)
    as_ethereum = import_phrase(wallet, phrase, passphrase_file)
    solana_public = Bip32Slip10Ed25519.FromSeed(seed).DerivePath("m/44'/501'/0'/0'").PublicKey().RawCompressed().ToBytes()[1:]
    assert (as_solana["type"], as_solana["chain"], as_solana["address"]) == ("ed25519", "solana", b64(solana_public))
    assert as_ethereum["address"] == eth_account_address(phrase, FIRST_ETHEREUM) == bip44_address(seed, 0)
    check_listed_ethereum(as_ethereum, {"kind": "recovery_phrase", "path": FIRST_ETHEREUM})
    assert [(key["type"], key["address"]) for key in wallet.keys_json("list")["keys"]] == [
        ("ed25519", as_solana["address"]), ("secp256k1", as_ethereum["address"])]


# 3. Signatures through the conformance host's session.

def test_the_session_lists_its_accounts_and_chains(conformance):
    assert eth(conformance, "eth_accounts", [])["result"] == list(TEST_KEYS) == [COW_ADDRESS, Account.from_key(TWO).address]
    for chain, number in SESSION_CHAINS.items():
        assert eth(conformance, "eth_chainId", [], chain=chain)["result"] == hex(number)


LONG_BINARY = random.Random(712).randbytes(16384)
PERSONAL_MESSAGES = {
    # id: (what is sent, the bytes it means)
    "hex": ("0x48656c6c6f2c20776f726c64", b"Hello, world"),
    "hex-uppercase-digits": ("0xDEADBEEF00", bytes.fromhex("deadbeef00")),
    "one-zero-byte": ("0x00", b"\x00"),
    "utf8-text": ("Grüße aus Köln — 世界 🦊\nNonce: 7", "Grüße aus Köln — 世界 🦊\nNonce: 7".encode()),
    "siwe": ("example.org wants you to sign in with your Ethereum account:\n" + COW_ADDRESS + "\n\nURI: https://example.org\n"
             "Version: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2021-09-30T16:25:24Z", None),
    "text-digits": ("1234", b"1234"),
    # MetaMask's reading (normalizeMessageData): only 0x and one or more hex digits is bytes.
    "text-0x-domain": ("0x.org wants you to sign in with your Ethereum account:\n" + COW_ADDRESS + "\n\nURI: https://0x.org\n"
                       "Version: 1\nChain ID: 1\nNonce: 32891756\nIssued At: 2021-09-30T16:25:24Z", None),
    "text-0x-not-hex": ("0xzz", b"0xzz"),
    "text-0x-alone": ("0x", b"0x"),
    "odd-hex-padded": ("0xabc", b"\x0a\xbc"),
    "text-with-controls": ("a\u0000b\tc\r\n", b"a\x00b\tc\r\n"),
    "binary-every-byte": ("0x" + bytes(range(256)).hex(), bytes(range(256))),
    "long-binary": ("0x" + LONG_BINARY.hex(), LONG_BINARY),
    "long-text": ("Ω" * 20000, ("Ω" * 20000).encode()),
}


@pytest.mark.parametrize("case", list(PERSONAL_MESSAGES))
def test_personal_sign_is_eth_accounts_signature_and_recovers(conformance, case):
    sent, message = PERSONAL_MESSAGES[case]
    message = sent.encode() if message is None else message
    signable = encode_defunct(primitive=message)
    assert _hash_eip191_message(signable) == personal_digest(message)
    for (address, secret), form, chain in zip(TEST_KEYS.items(), (str, str.lower), ("eip155:1", "eip155:8453")):
        reply = eth(conformance, "personal_sign", [sent, form(address)], chain=chain)
        assert "result" in reply, reply
        check_signature(reply["result"], signable, secret, address)


def test_odd_length_hex_is_padded_as_eth_account_and_metamask_pad_it():
    """The independent reading behind `odd-hex-padded`: eth-account's hexstr= (eth_utils) pads
    0xabc to 0x0abc, as MetaMask's eth-sig-util does (padToEven)."""
    assert encode_defunct(hexstr="0xabc").body == b"\x0a\xbc"


def test_personal_sign_refuses_an_empty_message(conformance):
    """The empty string is refused, as MetaMask refuses it (`Invalid message "data"`); "0x" alone
    is the text "0x" (text-0x-alone above)."""
    reply = eth(conformance, "personal_sign", ["", COW_ADDRESS])
    assert error_of(reply) == {"code": -32602, "message": "Invalid params", "data": {
        "field": "request.params[0]", "problem": "the message is empty: there is nothing to sign"}}, reply


def test_eip712s_mail_example_gives_the_eips_published_signature(conformance):
    signable = encode_typed_data(full_message=MAIL)
    assert _hash_eip191_message(signable).hex() == "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2", \
        "EIP-712's published digest"
    for typed_data in (MAIL, json.dumps(MAIL), json.dumps(MAIL, ensure_ascii=False, indent=2)):
        reply = eth(conformance, "eth_signTypedData_v4", [COW_ADDRESS, typed_data])
        assert reply.get("result") == MAIL_SIGNATURE, reply
        check_signature(reply["result"], signable, COW, COW_ADDRESS)
    second = Account.from_key(TWO).address
    on_polygon = dict(MAIL, domain=dict(MAIL["domain"], chainId="0x89"))
    reply = eth(conformance, "eth_signTypedData_v4", [second.lower(), on_polygon], chain="eip155:137")
    assert "result" in reply, reply
    check_signature(reply["result"], encode_typed_data(full_message=on_polygon), TWO, second)


def test_a_type_that_refers_to_itself_signs_as_eth_account_signs_it(conformance):
    tree = {"types": {"EIP712Domain": [{"name": "chainId", "type": "uint256"}],
                      "Node": [{"name": "value", "type": "uint8"}, {"name": "children", "type": "Node[]"}]},
            "primaryType": "Node", "domain": {"chainId": 1},
            "message": {"value": 1, "children": [{"value": 2, "children": []},
                                                 {"value": 3, "children": [{"value": 4, "children": []}]}]}}
    reply = eth(conformance, "eth_signTypedData_v4", [COW_ADDRESS, tree])
    assert "result" in reply, reply
    check_signature(reply["result"], encode_typed_data(full_message=tree), COW, COW_ADDRESS)


def test_the_signature_check_can_fail(conformance):
    """Proof that `check_signature` is not vacuous: the host's signature of the Mail example
    does not pass for a document one letter, one field name or one chain away, nor for the
    other key."""
    signature = eth(conformance, "eth_signTypedData_v4", [COW_ADDRESS, MAIL])["result"]
    check_signature(signature, encode_typed_data(full_message=MAIL), COW, COW_ADDRESS)
    near = [mail_with(lambda d: d["message"].update(contents="Hello, Bob?")),
            mail_with(lambda d: d["types"]["Person"][0].update(name="nom") or d["message"]["from"].update(nom="Cow")
                      or d["message"]["to"].update(nom="Bob")),
            mail_with(lambda d: d["domain"].update(chainId=137))]
    for document in near:
        with pytest.raises(AssertionError):
            check_signature(signature, encode_typed_data(full_message=document), COW, COW_ADDRESS)
    with pytest.raises(AssertionError):
        check_signature(signature, encode_typed_data(full_message=MAIL), TWO, Account.from_key(TWO).address)


# 4. Random typed data against eth-account.

INTEGER_SIZES = range(8, 257, 8)
ELEMENTARY = (["bool", "address", "bytes", "string"] + [f"uint{n}" for n in INTEGER_SIZES] + [f"int{n}" for n in INTEGER_SIZES]
              + [f"bytes{n}" for n in range(1, 33)])
DOMAIN_FIELDS = [("name", "string"), ("version", "string"), ("chainId", "uint256"), ("verifyingContract", "address"),
                 ("salt", "bytes32")]
STRINGS = ["", "Hello, Bob!", "Grüße, Jürgen", "日本語のテキスト", "emoji 🦊🔑 and a ZWJ 👩‍💻", "quote \" backslash \\ slash /",
           "lines\nand\ttabs\r\n", "nul \u0000 inside", "x" * 300, "Ω≈ç√∫˜µ≤≥÷", "\u202eright-to-left override"]
# Identifiers, [A-Za-z_$][A-Za-z0-9_$]*: type names mostly capitalised, all sorted by encodeType.
CAPITALS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
IDENTIFIER_START = CAPITALS + "abcdefghijklmnopqrstuvwxyz_$"
IDENTIFIER_REST = IDENTIFIER_START + "0123456789"


def looks_elementary(name):
    return name in ("bool", "address", "bytes", "string", "uint", "int") or bool(re.fullmatch(r"(bytes|u?int)\d+", name))


class TypedDataGenerator:
    """Seeded random EIP-712 documents that eth-account 0.14 and EIP-712 read alike: struct types
    in a DAG under one primary type (eth-account insists the primary type is the one type no
    other refers to), the domain's fields in EIP-712's order (eth-account hashes them in that
    order whatever types.EIP712Domain says), every value spelled as its type says. Elementary
    types are dealt from a shuffled deck, so that every one of them is used."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.deck = []
        self.used = set()

    def identifier(self, taken, capital=False):
        rng = self.rng
        first = CAPITALS if capital and rng.random() < 0.7 else IDENTIFIER_START
        while True:
            name = rng.choice(first) + "".join(rng.choice(IDENTIFIER_REST) for _ in range(rng.randint(0, 9)))
            if name not in taken and not looks_elementary(name) and name != "EIP712Domain":
                taken.add(name)
                return name

    def elementary(self):
        if not self.deck:
            self.deck = list(ELEMENTARY)
            self.rng.shuffle(self.deck)
        name = self.deck.pop()
        self.used.add(name)
        return name

    def array_suffix(self, base_is_struct):
        rng = self.rng
        dimensions = rng.choices([0, 1, 2], weights=[5, 3, 1 if base_is_struct else 2])[0]
        return "".join("[]" if rng.random() < 0.5 else f"[{rng.randint(1, 3)}]" for _ in range(dimensions))

    def types(self):
        rng = self.rng
        taken = set()
        names = [self.identifier(taken, capital=True) for _ in range(rng.randint(1, 5))]
        structs = {name: [] for name in names}
        for index, name in enumerate(names):
            fields = structs[name]
            field_names = set()
            for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10]) if index else rng.randint(1, 10)):
                if index + 1 < len(names) and rng.random() < 0.25:
                    base, is_struct = rng.choice(names[index + 1:]), True
                else:
                    base, is_struct = self.elementary(), False
                fields.append({"name": self.identifier(field_names), "type": base + self.array_suffix(is_struct)})
        # Every type after the first is used by one before it: the first is the only root.
        for index, name in enumerate(names[1:], start=1):
            if not any(re.match(re.escape(name) + r"(\[|$)", field["type"]) for other in names[:index] for field in structs[other]):
                holder = structs[rng.choice(names[:index])]
                holder.insert(rng.randint(0, len(holder)), {"name": self.identifier({f["name"] for f in holder}),
                                                            "type": name + self.array_suffix(True)})
        return names[0], structs

    def integer(self, bits, signed):
        rng = self.rng
        low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
        value = rng.choice([low, high, 0, 1, rng.randint(low, high), rng.randint(max(low, -300), min(high, 300))])
        form = rng.choice(["number", "decimal", "hex", "padded"])
        if form == "number":
            return value
        if form == "decimal" or value < 0:
            return str(value) if value or rng.random() < 0.7 else "-0"
        if form == "hex":
            return hex(value) if rng.random() < 0.5 else "0x" + format(value, "X")
        return "0x" + format(value, "064x") if rng.random() < 0.5 else "000" + str(value)

    def hex_bytes(self, count):
        digits = self.rng.randbytes(count).hex()
        return "0x" + (digits.upper() if self.rng.random() < 0.2 else digits)

    def address(self):
        raw = self.rng.choice([bytes(20), b"\xff" * 20, self.rng.randbytes(20), self.rng.randbytes(20)])
        form = self.rng.choice(["checksummed", "lowercase", "uppercase"])
        return {"checksummed": to_checksum_address(raw), "lowercase": "0x" + raw.hex(), "uppercase": "0x" + raw.hex().upper()}[form]

    def string(self):
        rng = self.rng
        if rng.random() < 0.6:
            return rng.choice(STRINGS)
        ranges = [(0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x4E00, 0x4FFF), (0x1F300, 0x1F64F), (0xE000, 0xE0FF)]
        return "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(rng.randint(1, 40)))

    def value(self, type_, structs):
        rng = self.rng
        if type_.endswith("]"):
            inner, length = type_[:type_.rindex("[")], type_[type_.rindex("[") + 1:-1]
            count = int(length) if length else rng.choice([0, 1, 1, 2, 3])
            return [self.value(inner, structs) for _ in range(count)]
        if type_ in structs:
            members = [(field["name"], self.value(field["type"], structs)) for field in structs[type_]]
            rng.shuffle(members)  # the host must hash in the type's order, not the object's
            return dict(members)
        if type_ == "bool":
            return rng.random() < 0.5
        if type_ == "address":
            return self.address()
        if type_ == "string":
            return self.string()
        if type_ == "bytes":
            return self.hex_bytes(rng.choice([0, 1, 31, 32, 33, rng.randint(0, 200)]))
        if type_.startswith("bytes"):
            return self.hex_bytes(int(type_[5:]))
        signed = type_.startswith("int")
        return self.integer(int(type_[3 if signed else 4:]), signed)

    def document(self, index):
        rng = self.rng
        chain = rng.choice(list(SESSION_CHAINS))
        if index == 0:
            present = [name for name, _ in DOMAIN_FIELDS]
        elif index == 1:
            present = []
        else:
            present = [name for name, _ in DOMAIN_FIELDS if rng.random() < 0.5]
        domain = {}
        for name in present:
            domain[name] = {
                "name": self.string, "version": lambda: rng.choice(["1", "2.0", "v3-β"]),
                "chainId": lambda: rng.choice([SESSION_CHAINS[chain], str(SESSION_CHAINS[chain]), hex(SESSION_CHAINS[chain])]),
                "verifyingContract": self.address, "salt": lambda: self.hex_bytes(32)}[name]()
        while True:
            primary, structs = self.types()
            message = self.value(primary, structs)
            types = {"EIP712Domain": [{"name": name, "type": kind} for name, kind in DOMAIN_FIELDS if name in present], **structs}
            names = list(types)
            rng.shuffle(names)
            document = {"types": {name: types[name] for name in names}, "primaryType": primary, "domain": domain, "message": message}
            if len(json.dumps(document)) < 200_000:
                return chain, document


RANDOM_DOCUMENTS = 60  # eth-account 0.14.0 (requirements.txt); the seed below makes them the same every run


def test_random_typed_data_signs_as_eth_account_signs_it(tmp_path):
    assert version("eth-account") == "0.14.0", "the comment above names the version the documents were checked with"
    generator = TypedDataGenerator(seed=20240712)
    host = ConformanceHost(tmp_path)
    shapes = {"nested-struct": 0, "struct-array": 0, "nested-array": 0, "fixed-array": 0, "empty-array": 0, "as-string": 0}
    for index in range(RANDOM_DOCUMENTS):
        chain, document = generator.document(index)
        address, secret = generator.rng.choice(list(TEST_KEYS.items()))
        as_string = generator.rng.random() < 0.3
        sent = json.dumps(document, ensure_ascii=generator.rng.random() < 0.5) if as_string else document
        reply = eth(host, "eth_signTypedData_v4", [address if generator.rng.random() < 0.5 else address.lower(), sent], chain=chain)
        assert "result" in reply, f"document {index} on {chain}: {json.dumps(document)[:2000]}\n{reply}"
        # eth-account reads what the host read: the document as JSON carries it.
        signable = encode_typed_data(full_message=json.loads(json.dumps(document)))
        try:
            check_signature(reply["result"], signable, secret, address)
        except AssertionError as failure:
            raise AssertionError(f"document {index} on {chain}: {json.dumps(document)}") from failure
        text = json.dumps(document["types"])
        shapes["nested-struct"] += any(field["type"] in document["types"] for field in sum(document["types"].values(), []))
        shapes["struct-array"] += any(field["type"].split("[")[0] in document["types"] and "[" in field["type"]
                                      for field in sum(document["types"].values(), []))
        shapes["nested-array"] += bool(re.search(r"\]\[", text))
        shapes["fixed-array"] += bool(re.search(r"\[\d", text))
        shapes["empty-array"] += "[]" in json.dumps(document["message"])
        shapes["as-string"] += as_string
    host.close()
    assert generator.used == set(ELEMENTARY), f"unused: {set(ELEMENTARY) - generator.used}"
    assert all(count >= 3 for count in shapes.values()), shapes


# 5. The shipped host, a real keystore, its agent and the person (the scripted pinentry).

def sign_dialogs(wallet):
    shown = {}
    for record in wallet.pinentry_records():
        if record.get("command") in ("SETOK", "SETDESC"):
            shown.setdefault(record["pid"], {})[record["command"]] = record["argument"]
    return [dialog["SETDESC"] for dialog in shown.values() if dialog.get("SETOK") == "_Sign"]


def test_the_shipped_host_signs_with_the_keystores_ethereum_keys(wallet, passphrase_file):
    created = wallet.keys_json("create", "--type", "ethereum", "--label", "made", "--passphrase-file", passphrase_file)
    wallet.keys_json("create", "--label", "solana", "--passphrase-file", passphrase_file)
    imported = import_phrase(wallet, ABANDON, passphrase_file, "--label", "abandon")
    assert imported["address"] == ABANDON_FIRST
    abandon_secret = bytes(Account.from_mnemonic(ABANDON).key)
    addresses = [created["address"], imported["address"]]
    answers = wallet.secret_file("answers", PASSPHRASE + "\n")
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)

    reply = call(host, "session_connect", PROPOSAL)
    assert "result" in reply, reply
    session = reply["result"]
    assert session["namespaces"]["eip155"]["accounts"] == [f"eip155:1:{address}" for address in addresses], session
    assert set(session["namespaces"]) == {"eip155"}, "the Solana key is not an eip155 account"
    topic = session["topic"]
    assert eth(host, "eth_accounts", [], topic=topic)["result"] == addresses
    assert eth(host, "eth_chainId", [], topic=topic)["result"] == "0x1"

    text = "Sign in to eth.example.org\nNonce: 91"
    reply = eth(host, "personal_sign", ["0x" + text.encode().hex(), created["address"]], topic=topic)
    assert "result" in reply, reply
    signature = bytes.fromhex(reply["result"][2:])
    assert Account.recover_message(encode_defunct(text=text), signature=signature) == created["address"]
    reply = eth(host, "personal_sign", [text, imported["address"].lower()], topic=topic)
    check_signature(reply["result"], encode_defunct(text=text), abandon_secret, imported["address"])

    for address in addresses:
        reply = eth(host, "eth_signTypedData_v4", [address, MAIL], topic=topic)
        assert "result" in reply, reply
        assert Account.recover_message(encode_typed_data(full_message=MAIL), signature=bytes.fromhex(reply["result"][2:])) == address
        if address == imported["address"]:
            check_signature(reply["result"], encode_typed_data(full_message=MAIL), abandon_secret, address)
    reply = eth(host, "eth_signTypedData_v4", [created["address"], json.dumps(MAIL)], topic=topic)
    assert Account.recover_message(encode_typed_data(full_message=MAIL), signature=bytes.fromhex(reply["result"][2:])) == created["address"]

    # Refused before anyone is asked: an address the session does not hold, malformed typed data.
    stranger = Account.from_key(keccak(b"not in the keystore")).address
    error = error_of(eth(host, "personal_sign", ["0x00", stranger], topic=topic))
    assert error["code"] == 4100 and error["data"]["accounts"] == addresses, error
    error = error_of(eth(host, "eth_signTypedData_v4", [created["address"], mail_with(lambda d: d["message"].pop("to"))], topic=topic))
    assert (error["code"], error["data"]["field"]) == (-32602, "request.params[1].message.to"), error

    # The person saw what they signed.
    shown = sign_dialogs(wallet)
    assert len(shown) == 5, wallet.pinentry_records()
    assert "Sign in to eth.example.org" in shown[0] and "Nonce: 91" in shown[0], shown[0]
    assert all("Hello, Bob!" in text and "Ether Mail" in text for text in shown[2:]), shown[2:]
    host.close()
    assert host.buffer == b"" and host.process.stdout.read() == b"", "nothing on stdout but frames"

    # The audit log says what each signature was: the method, the chain, and the digest signed,
    # which eth-account computes from the same message.
    entries = [json.loads(line) for line in wallet.run("log", "--json", check=True).stdout.splitlines()]
    digests = [_hash_eip191_message(encode_defunct(text=text))] * 2 + [_hash_eip191_message(encode_typed_data(full_message=MAIL))] * 3
    assert [(e["decision"], e["method"], e["chain"], e["keccak256"]) for e in entries] == [
        ("approved", method, "eip155:1", digest.hex()) for method, digest in zip(["personal_sign"] * 2 + ["eth_signTypedData_v4"] * 3, digests)]
    assert all("payload_sha256" not in e for e in entries)
    text_log = wallet.run("log", check=True).stdout.decode()
    assert f"personal_sign on eip155:1, signing hash (Keccak-256) {digests[0].hex()[:12]}…" in text_log, text_log


# 6. Bad input.

def mail_with(change):
    document = json.loads(json.dumps(MAIL))
    change(document)
    return document


BAD_TYPED_DATA = {
    "no-domain-type": (lambda d: d["types"].pop("EIP712Domain"), "request.params[1].types.EIP712Domain"),
    "uint8-of-256": (lambda d: (d["types"]["Person"].append({"name": "age", "type": "uint8"}),
                                d["message"]["from"].update(age=30), d["message"]["to"].update(age=256)),
                     "request.params[1].message.to.age"),
    "int8-of-minus-129": (lambda d: (d["types"]["Mail"].append({"name": "delta", "type": "int8"}), d["message"].update(delta="-129")),
                          "request.params[1].message.delta"),
    "missing-field": (lambda d: d["message"]["to"].pop("wallet"), "request.params[1].message.to.wallet"),
    "missing-message": (lambda d: d.pop("message"), "request.params[1].message"),
    "fixed-array-too-short": (lambda d: (d["types"]["Mail"].append({"name": "tags", "type": "bytes2[3]"}),
                                         d["message"].update(tags=["0x0102", "0x0304"])), "request.params[1].message.tags"),
    "bytes4-of-3-bytes": (lambda d: (d["types"]["Person"].append({"name": "tag", "type": "bytes4"}),
                                     d["message"]["from"].update(tag="0x010203"), d["message"]["to"].update(tag="0x01020304")),
                          "request.params[1].message.from.tag"),
    "undefined-type": (lambda d: d["types"]["Mail"].append({"name": "extra", "type": "Pet"}), "request.params[1].types.Mail[3].type"),
    "other-chain": (lambda d: d["domain"].update(chainId=137), "request.params[1].domain.chainId"),
    "not-json": (None, "request.params[1]"),
}


@pytest.mark.parametrize("case", list(BAD_TYPED_DATA))
def test_malformed_typed_data_is_invalid_params_naming_the_place(conformance, case):
    change, field = BAD_TYPED_DATA[case]
    typed_data = '{"types": ' if change is None else mail_with(change)
    reply = eth(conformance, "eth_signTypedData_v4", [COW_ADDRESS, typed_data])
    error = error_of(reply)
    assert error["code"] == -32602 and error["data"]["field"] == field, error
    assert isinstance(error["data"].get("problem"), str) and error["data"]["problem"], error
    # The host still serves, and signs the good document.
    assert eth(conformance, "eth_signTypedData_v4", [COW_ADDRESS, MAIL]).get("result") == MAIL_SIGNATURE


def test_an_address_outside_the_session_is_4100(conformance):
    stranger = Account.from_key(keccak(b"not in the session")).address
    for method, params in (("personal_sign", ["0x1234", stranger]), ("eth_signTypedData_v4", [stranger, MAIL]),
                           ("personal_sign", ["0x1234", stranger.lower()])):
        error = error_of(eth(conformance, method, params))
        assert error["code"] == 4100, error
        assert error["data"]["accounts"] == list(TEST_KEYS), error
    # A session's address in a malformed spelling is not an account at all.
    letter = next(index for index, digit in enumerate(COW_ADDRESS) if index > 1 and digit.isalpha())
    bad_checksum = COW_ADDRESS[:letter] + COW_ADDRESS[letter].swapcase() + COW_ADDRESS[letter + 1:]
    assert bad_checksum.lower() == COW_ADDRESS.lower() and bad_checksum != COW_ADDRESS
    error = error_of(eth(conformance, "personal_sign", ["0x1234", bad_checksum]))
    assert (error["code"], error["data"]["field"]) == (-32602, "request.params[1]"), error


def test_a_session_of_another_extension_or_chain_is_refused(tmp_path):
    other = ConformanceHost(tmp_path, caller="chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    assert error_of(eth(other, "eth_accounts", []))["code"] == 7001
    other.close()
    host = ConformanceHost(tmp_path)
    assert error_of(eth(host, "personal_sign", ["0x00", COW_ADDRESS], chain="eip155:10"))["code"] == 3005
    assert error_of(eth(host, "eth_sendTransaction", [{}]))["code"] == 3001
    host.close()


def test_create_with_a_recovery_phrase_and_type_ethereum_is_that_phrases_metamask_account(wallet, passphrase_file):
    """`keys create --recovery-phrase --type ethereum` on a real terminal: the words shown give,
    in eth-account, the address of the key created (m/44'/60'/0'/0/0), and the same words
    imported as a Solana key give another, Ed25519, key."""
    run = run_on_terminal(wallet, ["keys", "create", "--recovery-phrase", "--words", "12", "--type", "ethereum", "--json",
                                   "--passphrase-file", passphrase_file], prompt=b"Press Enter", answer=b"\r")
    assert run.returncode == 0, run.stderr
    shown = SHOWN_WORD.findall(run.screen[:run.screen.index(b"Press Enter")])
    assert [int(number) for number, _ in shown] == list(range(1, 13)), run.screen
    phrase = " ".join(word.decode() for _, word in shown)
    created = json.loads(run.stdout)
    Account.enable_unaudited_hdwallet_features()
    assert created["address"] == Account.from_mnemonic(phrase).address
    assert (created["type"], created["origin"]) == ("secp256k1", {"kind": "recovery_phrase", "path": "m/44'/60'/0'/0/0"})
    solana = json.loads(wallet.keys("import", "--mnemonic", "--type", "solana", "--label", "same words", "--json", "--passphrase-file",
                                    passphrase_file, input=(phrase + "\n").encode(), check=True).stdout)
    assert solana["type"] == "ed25519" and solana["address"] != created["address"]
