"""`wallet-bridge keys …` as a person or a script runs it: output, exit codes, passphrase
sources, import formats, and refusals."""
import base64
import json
import os

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from wallet_helpers import Wallet, b58encode, b64

SEED = bytes(range(100, 132))  # a test vector, never a real key



def public_key_of(seed):
    return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


SECRET_KEY = SEED + public_key_of(SEED)


@pytest.mark.parametrize("form", ["raw-seed", "raw-secret-key", "hex", "hex-upper", "base64", "base64url", "json-array"])
def test_import_every_form_from_a_file_gives_the_right_public_key(wallet, passphrase_file, form):
    content = {
        "raw-seed": SEED,
        "raw-secret-key": SECRET_KEY,
        "hex": SEED.hex() + "\n",
        "hex-upper": SECRET_KEY.hex().upper(),
        "base64": b64(SEED),
        "base64url": base64.urlsafe_b64encode(SECRET_KEY).decode().rstrip("="),
        "json-array": json.dumps(list(SECRET_KEY)),
    }[form]
    secret = wallet.secret_file("secret", content)
    imported = wallet.keys_json("import", "--file", secret, "--label", "imported", "--passphrase-file", passphrase_file)
    assert imported["address"] == b64(public_key_of(SEED))
    assert imported["base58"] == b58encode(public_key_of(SEED))
    assert wallet.keys("verify", "--passphrase-file", passphrase_file, check=True)


def test_import_from_stdin_and_refusals(wallet, passphrase_file):
    wallet.keys("import", "--passphrase-file", passphrase_file, "--json", input=SEED.hex().encode(), check=True)
    duplicate = wallet.keys("import", "--passphrase-file", passphrase_file, input=SEED.hex().encode(), check=False)
    assert "already holds the key" in duplicate.stderr.decode()

    mismatched = bytes(32 * [7]) + public_key_of(SEED)
    refused = wallet.keys("import", "--passphrase-file", passphrase_file, input=mismatched, check=False)
    assert "not the public key of its first 32 bytes" in refused.stderr.decode()
    short = wallet.keys("import", "--passphrase-file", passphrase_file, input=b"abcdef", check=False)
    assert "expected 32 or 64 bytes" in short.stderr.decode()
    forced = wallet.keys("import", "--format", "hex", "--passphrase-file", passphrase_file, input=b64(SEED).encode(), check=False)
    assert "expected 64 or 128 hex digits" in forced.stderr.decode()
    both = wallet.keys("import", "--passphrase-fd", "0", input=b"x", check=False)
    assert "stdin cannot carry both" in both.stderr.decode()
    assert len(wallet.addresses()) == 1


def test_first_key_sets_the_passphrase_and_later_keys_need_it(wallet, passphrase_file):
    wallet.create(passphrase_file, label="one")
    wrong = wallet.secret_file("wrong", "not it\n")
    refused = wallet.keys("create", "--passphrase-file", wrong, check=False)
    assert refused.returncode == 1
    assert refused.stderr.decode().strip() == "Error: wrong passphrase"
    assert refused.stdout == b""
    second = wallet.create(passphrase_file)
    assert second["label"] == "key 2"
    duplicate = wallet.keys("create", "--label", "one", "--passphrase-file", passphrase_file, check=False)
    assert 'another key is already labelled "one"' in duplicate.stderr.decode()
    bad_label = wallet.keys("create", "--label", "tab\there", "--passphrase-file", passphrase_file, check=False)
    assert "invalid label" in bad_label.stderr.decode()


def test_passphrase_from_fd_and_from_the_environment(wallet):
    read_end, write_end = os.pipe()
    os.write(write_end, b"through a pipe\n")
    os.close(write_end)
    try:
        wallet.keys("create", "--passphrase-fd", read_end, "--json", pass_fds=(read_end,), check=True)
    finally:
        os.close(read_end)
    env_file = wallet.secret_file("env-passphrase", "through a pipe")
    assert wallet.keys("verify", "--json", env=wallet.env(WALLET_BRIDGE_PASSPHRASE_FILE=env_file), check=True)


def test_without_a_terminal_or_a_passphrase_source_it_says_what_to_do(wallet, passphrase_file):
    result = wallet.keys("create", check=False)
    assert result.returncode == 1
    assert "no terminal to ask for the passphrase: use --passphrase-file, --passphrase-fd or WALLET_BRIDGE_PASSPHRASE_FILE" in result.stderr.decode()
    wallet.create(passphrase_file)
    result = wallet.keys("change-passphrase", "--passphrase-file", passphrase_file, check=False)
    assert "no terminal to ask for the new passphrase" in result.stderr.decode()


def test_change_passphrase(wallet, passphrase_file):
    keys = [wallet.create(passphrase_file) for _ in range(3)]
    new = wallet.secret_file("new", "second passphrase\n")
    changed = wallet.keys_json("change-passphrase", "--passphrase-file", passphrase_file, "--new-passphrase-file", new)
    assert changed == {"keys": 3}
    assert wallet.keys("verify", "--passphrase-file", new, check=True)
    assert "wrong passphrase" in wallet.keys("verify", "--passphrase-file", passphrase_file, check=False).stderr.decode()
    assert wallet.addresses() == [key["address"] for key in keys]
    # and through the environment variables, back again
    env = wallet.env(WALLET_BRIDGE_PASSPHRASE_FILE=new, WALLET_BRIDGE_NEW_PASSPHRASE_FILE=passphrase_file)
    wallet.keys("change-passphrase", env=env, check=True)
    assert wallet.keys("verify", "--passphrase-file", passphrase_file, check=True)


def test_export_public_rename_and_human_output(wallet, passphrase_file):
    key = wallet.create(passphrase_file, label="main")
    public_key = base64.b64decode(key["address"])
    assert wallet.keys("export-public", "main", "--encoding", "base64", check=True).stdout.decode() == key["address"] + "\n"
    assert wallet.keys("export-public", key["address"], "--encoding", "base58", check=True).stdout.decode() == key["base58"] + "\n"
    assert wallet.keys("export-public", key["base58"], "--encoding", "hex", check=True).stdout.decode() == public_key.hex() + "\n"
    assert wallet.keys_json("export-public", "main") == key
    missing = wallet.keys("export-public", "nobody", check=False)
    assert missing.returncode != 0 and "no key has that address or label" in missing.stderr.decode()

    renamed = wallet.keys_json("rename", "main", "savings", "--passphrase-file", passphrase_file)
    assert renamed["label"] == "savings" and renamed["address"] == key["address"]
    assert wallet.keys("rename", key["base58"], "spending", "--passphrase-file", passphrase_file, check=True).stdout.decode() == f'Renamed {key["base58"]} to "spending".\n'
    listing = wallet.keys("list", check=True).stdout.decode()
    assert listing.startswith(f"1 key in {wallet.keystore_path}:")
    assert "spending" in listing and "savings" not in listing


def test_delete_asks_on_the_terminal_and_refuses_without_one(wallet, passphrase_file):
    keep = wallet.create(passphrase_file, label="keep")
    gone = wallet.create(passphrase_file, label="gone")
    refused = wallet.keys("delete", "gone", check=False)
    assert refused.returncode == 1
    assert "without confirmation: there is no terminal to ask on; use --force" in refused.stderr.decode()
    assert len(wallet.addresses()) == 2
    deleted = wallet.keys_json("delete", "gone", "--force")
    assert deleted == {"deleted": gone}
    assert wallet.addresses() == [keep["address"]]


def test_keystore_location_option_environment_and_config(wallet, passphrase_file):
    option_path = wallet.root / "by-option"
    option_path.mkdir()
    created = wallet.keys_json("create", "--keystore", option_path, "--passphrase-file", passphrase_file)
    assert (option_path / "keystore.json").exists(), "a folder means keystore.json inside it"
    assert wallet.keys_json("list", "--keystore", option_path / "keystore.json")["keys"] == [created]

    env_path = wallet.root / "by-env" / "wallet.json"
    wallet.keys("create", "--passphrase-file", passphrase_file, env=wallet.env(WALLET_BRIDGE_KEYSTORE=env_path), check=True)
    assert env_path.exists() and oct(env_path.parent.stat().st_mode & 0o777) == "0o700"

    config_path = wallet.root / "by-config.json"
    wallet.config_path.parent.mkdir(parents=True)
    wallet.config_path.write_text(json.dumps({"keystore": str(config_path)}))
    wallet.create(passphrase_file, connect=())  # the sessions file is the default keystore's, not this one's
    assert config_path.exists()
    assert not wallet.keystore_path.exists(), "the default location was not used"

    wallet.config_path.write_text("{not json")
    broken = wallet.keys("list", check=False)
    assert "configuration file" in broken.stderr.decode() and "is invalid" in broken.stderr.decode()
    assert wallet.keys("list", "--keystore", option_path, check=True), "an explicit keystore needs no config"


def test_empty_keystore_listing_and_exposed_permissions_warning(wallet, passphrase_file):
    assert "No keys in" in wallet.keys("list", check=True).stdout.decode()
    assert wallet.keys_json("list")["keys"] == []
    wallet.create(passphrase_file)
    wallet.keystore_path.chmod(0o644)
    result = wallet.keys("list", check=True)
    assert "accessible to other users (mode 644)" in result.stderr.decode()
    wallet.keys("rename", "key 1", "renamed", "--passphrase-file", passphrase_file, check=True)
    assert oct(wallet.keystore_path.stat().st_mode & 0o777) == "0o600", "every write restores 0600"


def test_a_secret_key_pasted_where_a_key_is_named_is_never_echoed(wallet, passphrase_file):
    # Someone pastes a seed where an address or label belongs: the error must not repeat it, in
    # any encoding, on stdout or stderr, whichever command it was given to.
    wallet.create(passphrase_file, label="main")
    seed = bytes(range(7, 39))
    for pasted in (base64.b64encode(seed).decode(), seed.hex()):
        for command in (("export-public", pasted), ("rename", pasted, "x"), ("delete", pasted, "--force")):
            result = wallet.keys(*command, check=False)
            output = result.stdout.decode() + result.stderr.decode()
            assert result.returncode != 0, command
            assert "no key has that address or label" in output, (command, output)
            assert pasted not in output and pasted[:12] not in output, (command, output)


def test_a_solana_keygen_keypair_file_is_imported_and_its_public_half_checked(wallet, passphrase_file):
    """`keys import --solana-keypair FILE`: solana-keygen's JSON array of 64 numbers. The public
    key is computed here by Python's `cryptography`, independently of the binary's libsodium."""
    seed = os.urandom(32)
    public = Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    keypair = wallet.root / "id.json"
    keypair.write_text(json.dumps(list(seed + public)))
    imported = wallet.keys_json("import", "--solana-keypair", keypair, "--label", "cli", "--passphrase-file", passphrase_file)
    assert imported["address"] == base64.b64encode(public).decode()

    other = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    keypair.write_text(json.dumps(list(seed + other)))
    refused = wallet.keys("import", "--solana-keypair", keypair, "--passphrase-file", passphrase_file, check=False)
    assert b"are not the public key of its first 32 bytes" in refused.stderr, refused.stderr
    keypair.write_text(json.dumps(list(seed)))
    short = wallet.keys("import", "--solana-keypair", keypair, "--passphrase-file", passphrase_file, check=False)
    assert b"holds 32 numbers; a solana-keygen keypair file holds 64" in short.stderr, short.stderr
    both = wallet.keys("import", "--solana-keypair", keypair, "--file", keypair, "--passphrase-file", passphrase_file, check=False)
    assert b"leave out --file and --format" in both.stderr, both.stderr
    assert [key["address"] for key in wallet.keys_json("list")["keys"]] == [imported["address"]]
    for output in (refused, short, both):
        assert seed.hex().encode() not in output.stdout + output.stderr
