"""Fixtures shared by the system tests."""
import pytest

from wallet_helpers import Wallet

PASSPHRASE = "correct horse battery staple"


@pytest.fixture
def wallet(tmp_path):
    """A scratch HOME, keystore and configuration around the built wallet-bridge binary."""
    wallet = Wallet(tmp_path)
    yield wallet
    wallet.clean_up()


@pytest.fixture
def passphrase_file(wallet):
    return wallet.secret_file("passphrase", PASSPHRASE + "\n")
