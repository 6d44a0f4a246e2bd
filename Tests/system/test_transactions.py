"""Clear signing of transactions (issue 36), end to end: independent code builds each transaction,
the shipped host signs it after the scripted pinentry was shown the dialog, and independent code
checks the signature and executes the signed transaction, comparing what happened with what the
dialog said.

- Solana: solders builds (transaction_helpers.py), `cryptography` verifies the Ed25519 signatures,
  and solders' signing with the same key gives the same bytes (Ed25519 is deterministic); LiteSVM
  executes the signed transaction: the balances move by the amounts the dialog showed, from and to
  the accounts it named, and the fee payer pays the fee it showed.
- EVM: eth-account signs the same transaction with the same key; the host's raw transaction is
  equal to eth-account's byte for byte, and eth-tester (py-evm) executes it: the recipient's
  balance, or the token balance, moves by the value the dialog showed.
- Bad input is -32602 naming the field, and nobody was asked (the scripted pinentry never ran).

Sessions need the agent (test_sessions.py: no session methods with "agent": false); walletlib's
SignPayloads, which shows a transaction message decoded too, runs in both modes.
"""
import base64
import hashlib
import json
import re
from decimal import Decimal

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from eth_abi import decode as abi_decode
from eth_account import Account
from eth_utils import keccak, to_checksum_address
from solders import compute_budget
from solders.keypair import Keypair
from solders.message import Message
from solders.signature import Signature
from solders.transaction import Transaction, VersionedTransaction

from conftest import PASSPHRASE
from transaction_helpers import (LAMPORTS_PER_SOL, MAX_SOLANA_TRANSACTION, TOKEN_2022_PROGRAM, TOKEN_PROGRAM, U64_MAX,
                                 U256_MAX, EvmChain, SolanaChain, amounts, erc20_init_code, eth_account_raw, lamports,
                                 line_with, memo, message_of, number, selector, short, short_eth, sign_dialogs,
                                 stake_withdraw, token_approve, token_transfer_checked, transfer, warnings_in, wei,
                                 word)
from wallet_helpers import CHROME_ORIGIN, SOLANA_MAINNET, audit_entries, configure, error_of

SOLANA_SEED = keccak(b"wallet-bridge issue 36: the wallet's Solana key")
ETH_SECRET = keccak(b"wallet-bridge issue 36: the wallet's Ethereum key")
ETH_ADDRESS = Account.from_key(ETH_SECRET).address
SOLANA_METHODS = ("solana_signMessage", "solana_signTransaction", "solana_signAllTransactions")
EIP155_METHODS = ["personal_sign", "eth_signTypedData_v4", "eth_signTransaction", "eth_accounts", "eth_chainId"]
GWEI = 10**9


# The wallet, its keys and sessions, the host.

@pytest.fixture
def answers(wallet):
    """The scripted pinentry's answer to the passphrase question (the first signature unlocks)."""
    return wallet.secret_file("answers", PASSPHRASE + "\n")


@pytest.fixture
def solana_key(wallet, passphrase_file):
    """The wallet's Solana key: a seed the test knows, so solders can sign as the wallet does."""
    keypair = Keypair.from_seed(SOLANA_SEED)
    imported = wallet.keys_json("import", "--label", "main", "--passphrase-file", passphrase_file,
                                input=SOLANA_SEED.hex().encode())
    assert imported["base58"] == str(keypair.pubkey())
    return keypair


@pytest.fixture
def solana_session(wallet, solana_key):
    """A session of the test's extension with the transaction methods, as an approved one is stored."""
    return wallet.connect(CHROME_ORIGIN, methods=SOLANA_METHODS)["topic"]


@pytest.fixture
def eth_session(wallet, passphrase_file):
    imported = wallet.keys_json("import", "--type", "ethereum", "--label", "eth", "--passphrase-file", passphrase_file,
                                input=(ETH_SECRET.hex() + "\n").encode())
    assert imported["address"] == ETH_ADDRESS
    session = wallet.connect(CHROME_ORIGIN)
    eip155 = {"chains": ["eip155:1"], "methods": EIP155_METHODS, "events": []}
    stored = json.loads(wallet.sessions_path.read_text())
    for entry in stored["sessions"]:
        if entry["topic"] == session["topic"]:
            entry["requiredNamespaces"] = entry["namespaces"] = {"eip155": eip155}
    wallet.sessions_path.write_text(json.dumps(stored))
    return session["topic"]


def call(host, method, params, timeout=30):
    """One request and its reply; notifications on the way are skipped."""
    request_id = host.send(method, params)
    while True:
        message = host.receive(timeout)
        if "id" in message:
            assert message["id"] == request_id, message
            return message


def session_request(host, topic, chain, method, params):
    request = {"method": method, "params": params}
    return call(host, "session_request", {"topic": topic, "chainId": chain, "request": request})


def sign_solana(host, topic, transaction, **extra):
    """solana_signTransaction of an unsigned (or partly signed) solders transaction: the reply's
    result, its signature decoded, and the signed transaction as solders reads it."""
    reply = session_request(host, topic, SOLANA_MAINNET, "solana_signTransaction",
                            {"transaction": base64.b64encode(bytes(transaction)).decode(), **extra})
    assert "result" in reply, reply
    result = reply["result"]
    assert set(result) == {"signature", "transaction"}, result
    signed_bytes = base64.b64decode(result["transaction"])
    kind = VersionedTransaction if isinstance(transaction, VersionedTransaction) else Transaction
    return Signature.from_string(result["signature"]), kind.from_bytes(signed_bytes)


def check_signed_as_solders_signs(transaction, signature, signed, keypair):
    """The signature verifies (cryptography) over the message, sits in the key's slot, is what
    solders' own signing gives, and nothing but that slot changed."""
    message = message_of(transaction)
    assert message_of(signed) == message, "the host changed the message"
    Ed25519PublicKey.from_public_bytes(bytes(keypair.pubkey())).verify(bytes(signature), message)
    assert bytes(signature) == bytes(keypair.sign_message(message))
    keys = list(transaction.message.account_keys)
    slot = keys.index(keypair.pubkey())
    before, after = list(transaction.signatures), list(signed.signatures)
    assert after[slot] == signature
    assert after[:slot] + after[slot + 1:] == before[:slot] + before[slot + 1:], "other signatures changed"


def last_dialog(wallet, count=None):
    shown = sign_dialogs(wallet)
    if count is not None:
        assert len(shown) == count, shown
    assert shown, wallet.pinentry_records()
    return shown[-1]


def fee_shown(text):
    """Lamports the dialog says the network fee and the priority fee can cost, together."""
    fee = lamports(amounts(line_with(text, "Network fee"), "SOL")[0])
    if "Priority fee" in text:
        fee += lamports_rounded_up(amounts(line_with(text, "Priority fee"), "SOL")[0])
    return fee


def lamports_rounded_up(sol):
    value = sol * LAMPORTS_PER_SOL
    return int(value) + (value != int(value))


def action_lines(text, *parts, within=3):
    """The line holding `parts` and the `within` lines after it (an action's own lines)."""
    lines = text.splitlines()
    first = line_with(text, *parts)
    index = lines.index(first)
    return lines[index:index + 1 + within]


def dialog_hash(text):
    """What the audit log records of a transaction dialog: the SHA-256 of its text above the
    closing instruction (passphrase or buttons), which is the same whichever way it is answered."""
    assert "\n\n" in text, text
    return hashlib.sha256(text[:text.rindex("\n\n")].encode()).hexdigest()


def check_fee_payer(text, payer, this_key=True):
    facts = [line for line in text.splitlines() if line.startswith("Fee payer: ")]
    assert facts == [f"Fee payer: {short(payer)} ({'this key' if this_key else 'not this key'})"], text


# 1. Solana, through a session.

def test_a_sol_transfer_is_shown_signed_and_moves_exactly_what_the_dialog_said(
        wallet, solana_key, solana_session, answers):
    chain = SolanaChain(solana_key.pubkey())
    unsigned = chain.legacy([transfer(solana_key.pubkey(), chain.recipient, 1_500_000_000)])
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signature, signed = sign_solana(host, solana_session, unsigned)
    host.close()
    check_signed_as_solders_signs(unsigned, signature, signed, solana_key)

    text = last_dialog(wallet, count=1)
    assert "a Solana transaction (legacy)" in text, text
    check_fee_payer(text, solana_key.pubkey())
    assert warnings_in(text) == [], text
    moved = action_lines(text, "Transfer", "SOL")
    shown = amounts(moved[0], "SOL")[0]
    assert shown == Decimal("1.5"), moved
    assert any(short(chain.recipient) in line and "to" in line for line in moved[1:]), moved

    payer_before, recipient_before = chain.balance(solana_key.pubkey()), chain.balance(chain.recipient)
    result = chain.run(signed)
    assert chain.balance(chain.recipient) - recipient_before == lamports(shown)
    paid = payer_before - chain.balance(solana_key.pubkey())
    assert paid == lamports(shown) + fee_shown(text) == lamports(shown) + result.fee()
    assert str(result.signature()) == str(signature)
    # The audit log names the transaction by its signature, and what was shown by its hash.
    entries = audit_entries(wallet)
    assert len(entries) == 1 and entries[0]["decision"] == "approved", entries
    assert str(signature) in json.dumps(entries[0]), entries
    assert entries[0]["dialog_sha256"] == dialog_hash(text), entries


@pytest.mark.parametrize("program", [TOKEN_PROGRAM, TOKEN_2022_PROGRAM], ids=["spl-token", "token-2022"])
def test_spl_transfer_checked_compute_budget_and_memo_as_the_mint_and_litesvm_say(
        wallet, solana_key, solana_session, answers, program):
    chain = SolanaChain(solana_key.pubkey())
    mint, mine, theirs = chain.create_mint(decimals=6, supply_to_wallet=100_000_000, program=program)
    note = "Invoice 36 — thanks ✓"
    unsigned = chain.legacy([
        compute_budget.set_compute_unit_limit(200_000), compute_budget.set_compute_unit_price(7_000),
        token_transfer_checked(mine, mint, theirs, solana_key.pubkey(), 12_500_000, 6, program=program),
        memo(note, solana_key.pubkey())])
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signature, signed = sign_solana(host, solana_session, unsigned)
    host.close()
    check_signed_as_solders_signs(unsigned, signature, signed, solana_key)

    text = last_dialog(wallet, count=1)
    check_fee_payer(text, solana_key.pubkey())
    priority = line_with(text, "Priority fee")
    assert "200,000" in priority and "7,000" in priority, priority
    assert lamports_rounded_up(amounts(priority, "SOL")[0]) == 1_400, "200,000 units × 7,000 micro-lamports"
    moved = action_lines(text, "Transfer", short(mint))
    shown = number(re.search(r"Transfer (\d[\d,]*(?:\.\d+)?)", moved[0]).group(1))
    assert shown == Decimal("12.5") and "6 decimals" in moved[0], moved
    assert any(short(theirs) in line for line in moved), moved
    assert note in line_with(text, "Memo"), text

    payer_before = chain.balance(solana_key.pubkey())
    result = chain.run(signed)
    assert chain.token_account(theirs).amount == int(shown * 10**6)
    assert chain.token_account(mine).amount == 100_000_000 - int(shown * 10**6)
    assert payer_before - chain.balance(solana_key.pubkey()) == fee_shown(text) == result.fee()


def test_an_unlimited_spl_approval_is_warned_about_first_and_litesvm_delegates_everything(
        wallet, solana_key, solana_session, answers):
    chain = SolanaChain(solana_key.pubkey())
    mint, mine, _ = chain.create_mint(decimals=9, supply_to_wallet=5 * 10**9)
    unsigned = chain.legacy([token_approve(mine, chain.spender, solana_key.pubkey(), U64_MAX)])
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signature, signed = sign_solana(host, solana_session, unsigned)
    host.close()
    check_signed_as_solders_signs(unsigned, signature, signed, solana_key)
    text = last_dialog(wallet, count=1)
    warned = warnings_in(text)
    assert any("unlimited" in warning.lower() for warning in warned), text
    assert short(chain.spender) in text, text
    # The warnings come before the facts and the actions.
    assert text.index("⚠") < text.index("Fee payer"), text
    chain.run(signed)
    account = chain.token_account(mine)
    assert str(account.delegate) == str(chain.spender) and account.delegated_amount == U64_MAX


def test_a_stake_withdrawal_shows_the_amount_and_recipient_litesvm_pays(wallet, solana_key, solana_session, answers):
    chain = SolanaChain(solana_key.pubkey())
    stake = chain.create_stake_account(3 * LAMPORTS_PER_SOL)
    unsigned = chain.legacy([stake_withdraw(stake, chain.recipient, solana_key.pubkey(), 1_250_000_000)])
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signature, signed = sign_solana(host, solana_session, unsigned)
    host.close()
    check_signed_as_solders_signs(unsigned, signature, signed, solana_key)
    text = last_dialog(wallet, count=1)
    moved = action_lines(text, "Withdraw", "SOL")
    shown = amounts(moved[0], "SOL")[0]
    assert shown == Decimal("1.25"), moved
    assert short(stake) in "\n".join(moved) and short(chain.recipient) in "\n".join(moved), moved
    before = chain.balance(chain.recipient)
    chain.run(signed)
    assert chain.balance(chain.recipient) - before == lamports(shown)


def test_a_version_0_message_with_a_real_lookup_table_names_the_table_and_warns(
        wallet, solana_key, solana_session, answers):
    chain = SolanaChain(solana_key.pubkey())
    table = chain.create_lookup_table([chain.recipient])
    unsigned = chain.version0([transfer(solana_key.pubkey(), chain.recipient, 250_000_000)], [table])
    assert unsigned.message.address_table_lookups, "the recipient comes from the table"
    assert chain.recipient not in unsigned.message.account_keys
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signature, signed = sign_solana(host, solana_session, unsigned)
    host.close()
    check_signed_as_solders_signs(unsigned, signature, signed, solana_key)
    text = last_dialog(wallet, count=1)
    assert "a Solana transaction (version 0)" in text, text
    assert any(short(table.key) in warning and "offline" in warning for warning in warnings_in(text)), text
    moved = action_lines(text, "Transfer", "SOL")
    shown = amounts(moved[0], "SOL")[0]
    assert shown == Decimal("0.25"), moved
    assert short(chain.recipient) not in text, "the dialog cannot know the table's accounts offline"
    before = chain.balance(chain.recipient)
    chain.run(signed)
    assert chain.balance(chain.recipient) - before == lamports(shown)


def test_a_durable_nonce_transaction_is_warned_about_and_still_runs_after_its_blockhash_expired(
        wallet, solana_key, solana_session, answers):
    chain = SolanaChain(solana_key.pubkey())
    nonce, nonce_hash = chain.create_nonce_account()
    unsigned = chain.durable([transfer(solana_key.pubkey(), chain.recipient, 700_000_000)], nonce, nonce_hash)
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signature, signed = sign_solana(host, solana_session, unsigned)
    host.close()
    check_signed_as_solders_signs(unsigned, signature, signed, solana_key)
    text = last_dialog(wallet, count=1)
    assert any("never expires" in warning and short(nonce) in warning for warning in warnings_in(text)), text
    moved = action_lines(text, "Transfer", "SOL")
    assert amounts(moved[0], "SOL")[0] == Decimal("0.7"), moved
    # What the warning means: the blockhashes move on, and the transaction still runs.
    chain.svm.expire_blockhash()
    before = chain.balance(chain.recipient)
    chain.run(signed)
    assert chain.balance(chain.recipient) - before == 700_000_000


def test_partial_signing_keeps_the_other_signers_signature_and_both_verify(wallet, solana_key, solana_session, answers):
    """Two signers: the other party (a key the test holds) signs first; the wallet adds its own
    signature and leaves the other's as it was; LiteSVM, which checks every signature, runs it.
    Then the other way round: the other party pays, and the dialog warns of it."""
    chain = SolanaChain(solana_key.pubkey())
    other = chain.other
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    for payer in (solana_key.pubkey(), other.pubkey()):
        unsigned = chain.legacy([transfer(solana_key.pubkey(), chain.recipient, 1_000_000),
                                 transfer(other.pubkey(), chain.recipient, 2_000_000)], payer=payer)
        unsigned.partial_sign([other], chain.blockhash)
        theirs = unsigned.signatures[list(unsigned.message.account_keys).index(other.pubkey())]
        assert theirs != Signature.default()
        signature, signed = sign_solana(host, solana_session, unsigned)
        check_signed_as_solders_signs(unsigned, signature, signed, solana_key)
        signed.verify()  # solders: every signature against its key
        assert signed.signatures[list(signed.message.account_keys).index(other.pubkey())] == theirs
        text = last_dialog(wallet)
        check_fee_payer(text, payer, this_key=payer == solana_key.pubkey())
        if payer == other.pubkey():
            assert any("fee payer" in warning.lower() for warning in warnings_in(text)), text
        before = chain.balance(chain.recipient)
        chain.run(signed)
        assert chain.balance(chain.recipient) - before == 3_000_000
        assert Decimal("0.001") in amounts(text, "SOL") and Decimal("0.002") in amounts(text, "SOL"), text
    host.close()


def test_pubkey_chooses_which_of_the_wallets_keys_signs_and_each_keeps_the_others_signature(
        wallet, solana_key, passphrase_file, answers):
    """The wallet holds both signers: `pubkey` picks the second signer, then the fee payer signs
    the partly signed result; LiteSVM runs the transaction both signed."""
    chain = SolanaChain(solana_key.pubkey())
    second = chain.other
    wallet.keys_json("import", "--label", "second", "--passphrase-file", passphrase_file,
                     input=bytes(second.secret()).hex().encode())
    topic = wallet.connect(CHROME_ORIGIN, methods=SOLANA_METHODS)["topic"]
    unsigned = chain.legacy([transfer(solana_key.pubkey(), chain.recipient, 3_000_000),
                             transfer(second.pubkey(), chain.recipient, 4_000_000)])
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signature, half = sign_solana(host, topic, unsigned, pubkey=str(second.pubkey()))
    check_signed_as_solders_signs(unsigned, signature, half, second)
    assert half.signatures[0] == Signature.default(), "the fee payer's slot is still empty"
    check_fee_payer(last_dialog(wallet), solana_key.pubkey(), this_key=False)
    signature, whole = sign_solana(host, topic, half)  # no pubkey: the first signer of the session
    check_signed_as_solders_signs(half, signature, whole, solana_key)
    host.close()
    whole.verify()
    before = chain.balance(chain.recipient)
    chain.run(whole)
    assert chain.balance(chain.recipient) - before == 7_000_000
    assert len(sign_dialogs(wallet)) == 2


def test_sign_all_transactions_is_one_dialog_listing_each_and_signatures_in_order(
        wallet, solana_key, solana_session, answers):
    chain = SolanaChain(solana_key.pubkey())
    values = [10_000_000, 20_000_000, 30_000_000]
    batch = [chain.legacy([transfer(solana_key.pubkey(), chain.recipient, value),
                           memo(f"batch {index}", solana_key.pubkey())])
             for index, value in enumerate(values)]
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    reply = session_request(host, solana_session, SOLANA_MAINNET, "solana_signAllTransactions",
                            {"transactions": [base64.b64encode(bytes(tx)).decode() for tx in batch]})
    host.close()
    assert "result" in reply, reply
    result = reply["result"]
    assert len(result["transactions"]) == len(result["signatures"]) == 3, result
    text = last_dialog(wallet, count=1)
    # What moves funds comes first and is never left out: every transfer, named by its
    # transaction, in order, each with its own from and to lines right after it.
    lines = [line.strip() for line in text.splitlines()]
    transfers = [(index, match) for index, line in enumerate(lines)
                 if (match := re.fullmatch(r"Transaction (\d+): Transfer (\S+) SOL", line))]
    assert [(int(match[1]), number(match[2])) for _, match in transfers] == \
        [(place + 1, Decimal(value) / LAMPORTS_PER_SOL) for place, value in enumerate(values)], text
    for index, _ in transfers:
        assert lines[index + 1:index + 3] == [f"from {short(solana_key.pubkey())} (this key)", f"to {short(chain.recipient)}"], text
    # The memos (moving nothing) after the facts, in order, as many as the dialog holds, the rest
    # counted: never cut silently.
    memos = [f'Memo: "batch {index}"' in lines for index in range(3)]
    assert memos == sorted(memos, reverse=True), text
    if not all(memos):
        assert any(line.startswith("…and ") and "not shown" in line for line in lines), text
    before = chain.balance(chain.recipient)
    for unsigned, signature_text, signed_text in zip(batch, result["signatures"], result["transactions"]):
        signature = Signature.from_string(signature_text)
        signed = Transaction.from_bytes(base64.b64decode(signed_text))
        check_signed_as_solders_signs(unsigned, signature, signed, solana_key)
        chain.run(signed)
    assert chain.balance(chain.recipient) - before == sum(values)


# 2. walletlib's SignPayloads: a transaction message is shown decoded, in both modes.

@pytest.mark.parametrize("mode", ["agent", "direct"])
def test_sign_payloads_of_a_transaction_message_shows_it_decoded(wallet, solana_key, answers, mode):
    if mode == "direct":
        configure(wallet, {"agent": False})
    chain = SolanaChain(solana_key.pubkey())
    message = Message.new_with_blockhash([transfer(solana_key.pubkey(), chain.recipient, 42_000_000)],
                                         solana_key.pubkey(), chain.blockhash)
    payload = bytes(message)
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    address = base64.b64encode(bytes(solana_key.pubkey())).decode()
    reply = host.sign(address, [base64.b64encode(payload).decode()])
    host.close()
    assert "result" in reply, reply
    signed = base64.b64decode(reply["result"]["signed_payloads"][0])
    assert signed[:-64] == payload
    Ed25519PublicKey.from_public_bytes(bytes(solana_key.pubkey())).verify(signed[-64:], payload)
    text = last_dialog(wallet, count=1)
    assert "binary data" not in text, text
    moved = action_lines(text, "Transfer", "SOL")
    assert amounts(moved[0], "SOL")[0] == Decimal("0.042"), moved
    assert any(short(chain.recipient) in line for line in moved), moved
    # The signature over the message is a transaction signature: LiteSVM runs it.
    before = chain.balance(chain.recipient)
    chain.run(Transaction.populate(message, [Signature.from_bytes(signed[-64:])]))
    assert chain.balance(chain.recipient) - before == 42_000_000


# 3. EVM.

def eth_request(host, topic, method, params, chain="eip155:1"):
    return session_request(host, topic, chain, method, params)


def hex_quantity(value):
    return hex(value)


def as_rpc(transaction):
    """An eth-account transaction dict as eth_signTransaction's JSON-RPC object (0x quantities)."""
    names = {"gas": "gas", "gasPrice": "gasPrice", "maxFeePerGas": "maxFeePerGas",
             "maxPriorityFeePerGas": "maxPriorityFeePerGas", "nonce": "nonce", "value": "value", "chainId": "chainId"}
    rpc = {"from": ETH_ADDRESS}
    for key, value in transaction.items():
        if key in names:
            rpc[names[key]] = hex_quantity(value)
        elif key == "to":
            rpc["to"] = value
        elif key == "data":
            rpc["data"] = "0x" + value.hex()
        elif key == "accessList":
            rpc["accessList"] = value
        elif key == "type":
            rpc["type"] = hex_quantity(value)
    return rpc


def sign_eth(host, topic, transaction):
    reply = eth_request(host, topic, "eth_signTransaction", [as_rpc(transaction)])
    assert "result" in reply, reply
    raw = reply["result"]
    assert re.fullmatch(r"0x[0-9a-f]+", raw), raw
    return bytes.fromhex(raw[2:])


RECIPIENT = Account.from_key(keccak(b"issue 36 recipient")).address
SPENDER = Account.from_key(keccak(b"issue 36 spender")).address


def evm_cases(chain):
    nonce = chain.nonce(ETH_ADDRESS)
    return {
        "legacy (EIP-155)": {"to": RECIPIENT, "value": wei(Decimal("0.01")), "gas": 21000, "gasPrice": 2 * GWEI,
                             "nonce": nonce, "chainId": 1},
        "EIP-2930": {"to": RECIPIENT, "value": wei(Decimal("0.02")), "gas": 30000, "gasPrice": 2 * GWEI,
                     "nonce": nonce + 1, "chainId": 1,
                     "accessList": [{"address": RECIPIENT, "storageKeys": ["0x" + "00" * 31 + "01"]}]},
        "EIP-1559": {"to": RECIPIENT, "value": wei(Decimal("0.03")), "gas": 21000, "maxFeePerGas": 3 * GWEI,
                     "maxPriorityFeePerGas": GWEI, "nonce": nonce + 2, "chainId": 1, "type": 2},
    }


def test_eth_transactions_of_every_type_sign_as_eth_account_signs_and_eth_tester_moves_the_value_shown(
        wallet, eth_session, answers):
    chain = EvmChain()
    chain.fund(ETH_ADDRESS, 10**19)
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    signed = []
    for kind, transaction in evm_cases(chain).items():
        raw = sign_eth(host, eth_session, transaction)
        assert raw == eth_account_raw(ETH_SECRET, transaction), f"{kind}: not eth-account's bytes"
        signed.append(raw)
        text = last_dialog(wallet)
        assert f"an Ethereum transaction ({kind.split(' ')[0]})" in text and "Ethereum (eip155:1)" in text, text
        moved = action_lines(text, "Send", "ETH")
        shown = amounts(moved[0], "ETH")[0]
        assert wei(shown) == transaction["value"], moved
        assert any(short_eth(RECIPIENT) in line for line in moved), moved
        assert f"Nonce: {transaction['nonce']}" in text.splitlines(), text
        assert f"Gas limit: {transaction['gas']:,}" in text.splitlines(), text
        most = transaction["gas"] * transaction.get("maxFeePerGas", transaction.get("gasPrice"))
        assert wei(amounts(line_with(text, "Most it can cost"), "ETH")[0]) == most, text
        before, sender_before = chain.balance(RECIPIENT), chain.balance(ETH_ADDRESS)
        receipt = chain.send_raw(raw)
        assert chain.balance(RECIPIENT) - before == wei(shown)
        spent_on_fees = sender_before - chain.balance(ETH_ADDRESS) - wei(shown)
        assert spent_on_fees == receipt["gas_used"] * receipt["effective_gas_price"] <= most
    host.close()
    assert len(sign_dialogs(wallet)) == 3
    # The audit log names each transaction by its hash (Keccak-256 of the raw signed bytes), and
    # what was shown by the SHA-256 of the dialog's text.
    entries = audit_entries(wallet)
    hashes = ["0x" + keccak(raw).hex().removeprefix("0x") for raw in signed]
    assert [entry["transaction_hash"] for entry in entries] == hashes, entries
    shown = [dialog_hash(text) for text in sign_dialogs(wallet)]
    assert [entry["dialog_sha256"] for entry in entries] == shown, entries


def test_an_erc20_transfer_and_an_unlimited_approval_as_eth_abi_and_the_token_say(wallet, eth_session, answers):
    """The token is a hand-assembled ERC-20 (transaction_helpers.py), not in the wallet's table of
    well-known tokens: its amounts are shown raw, and the dialog says so."""
    chain = EvmChain()
    chain.fund(ETH_ADDRESS, 10**19)
    token = chain.deploy_token(10**24, ETH_ADDRESS)
    amount = 12_345_678_901_234_567_890
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    fees = {"gas": 80000, "maxFeePerGas": 3 * GWEI, "maxPriorityFeePerGas": GWEI, "chainId": 1, "type": 2, "value": 0}
    send = {"to": token, "data": selector("transfer(address,uint256)") + word(RECIPIENT) + word(amount),
            "nonce": chain.nonce(ETH_ADDRESS), **fees}
    raw = sign_eth(host, eth_session, send)
    assert raw == eth_account_raw(ETH_SECRET, send)
    text = last_dialog(wallet)
    to, value = abi_decode(["address", "uint256"], send["data"][4:])
    assert (to_checksum_address(to), value) == (RECIPIENT, amount)
    # The call's "transfer <amount>" line, then the recipient on a line of its own right after it
    # (an address that receives funds is never at the end of a line a long amount can push out).
    lines = text.splitlines()
    transfers = [index for index, line in enumerate(lines) if line.strip().startswith("transfer ")
                 and (f"{amount:,}" in line or str(amount) in line)]
    assert len(transfers) == 1, text
    assert lines[transfers[0] + 1].strip() == f"to {short_eth(RECIPIENT)}", text
    # A token outside the wallet's table: the dialog says its amounts are raw, naming it.
    line_with(text, short_eth(token), "raw")
    chain.send_raw(raw)
    assert chain.token_balance(token, RECIPIENT) == amount

    approve = {"to": token, "data": selector("approve(address,uint256)") + word(SPENDER) + word(U256_MAX),
               "nonce": chain.nonce(ETH_ADDRESS), **fees}
    raw = sign_eth(host, eth_session, approve)
    assert raw == eth_account_raw(ETH_SECRET, approve)
    text = last_dialog(wallet)
    assert any("unlimited" in warning.lower() for warning in warnings_in(text)), text
    assert short_eth(SPENDER) in text, text
    chain.send_raw(raw)
    assert chain.allowance(token, ETH_ADDRESS, SPENDER) == U256_MAX
    host.close()


def test_a_contract_creation_is_warned_about_and_deploys_where_eth_tester_says(wallet, eth_session, answers):
    """No `to`: a contract creation, warned about; the code is the test's ERC-20, and eth-tester
    deploys it at the address of the wallet's key and nonce (Keccak-256 of their RLP)."""
    import rlp
    chain = EvmChain()
    chain.fund(ETH_ADDRESS, 10**19)
    code = erc20_init_code(1000)
    creation = {"data": code, "value": 0, "gas": 300000, "maxFeePerGas": 3 * GWEI, "maxPriorityFeePerGas": GWEI,
                "nonce": chain.nonce(ETH_ADDRESS), "chainId": 1, "type": 2}
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    raw = sign_eth(host, eth_session, creation)
    host.close()
    assert raw == eth_account_raw(ETH_SECRET, creation)
    text = last_dialog(wallet, count=1)
    assert any("contract" in warning.lower() for warning in warnings_in(text)), text
    line_with(text, "contract", f"{len(code):,} bytes")
    receipt = chain.send_raw(raw)
    expected = to_checksum_address(keccak(rlp.encode([bytes.fromhex(ETH_ADDRESS[2:]), creation["nonce"]]))[12:])
    assert to_checksum_address(receipt["contract_address"]) == expected
    assert chain.token_balance(expected, ETH_ADDRESS) == 1000


def test_a_chain_mismatch_and_eth_send_transaction_are_refused_and_nobody_is_asked(wallet, eth_session, answers):
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    transaction = {"to": RECIPIENT, "value": 1, "gas": 21000, "gasPrice": 2 * GWEI, "nonce": 0, "chainId": 137}
    error = error_of(eth_request(host, eth_session, "eth_signTransaction", [as_rpc(transaction)]))
    assert (error["code"], error["data"]["field"]) == (-32602, "request.params[0].chainId"), error
    # A serialized unsigned transaction for another chain: its chain is read from it.
    error = error_of(eth_request(host, eth_session, "eth_signTransaction", [unsigned_of(transaction)]))
    assert error["code"] == -32602 and error["data"]["field"].startswith("request.params[0]"), error
    error = error_of(eth_request(host, eth_session, "eth_sendTransaction", [as_rpc({**transaction, "chainId": 1})]))
    assert error["code"] == 3001, error  # no session holds it: the wallet has no network
    problem = error["data"]["problem"]
    assert "eth_signTransaction" in problem and "eth_sendRawTransaction" in problem, error
    host.close()
    assert wallet.pinentry_records() == [], "nobody was asked"


def unsigned_of(transaction):
    """A legacy transaction's unsigned EIP-155 RLP (nonce, gasPrice, gas, to, value, data, chainId, 0, 0)."""
    import rlp
    fields = [transaction["nonce"], transaction["gasPrice"], transaction["gas"], bytes.fromhex(transaction["to"][2:]),
              transaction["value"], transaction.get("data", b""), transaction["chainId"], 0, 0]
    return "0x" + rlp.encode(fields).hex()


def test_a_serialized_unsigned_transaction_signs_as_the_object_does(wallet, eth_session, answers):
    chain = EvmChain()
    chain.fund(ETH_ADDRESS, 10**19)
    transaction = {"to": RECIPIENT, "value": wei(Decimal("0.5")), "gas": 21000, "gasPrice": 2 * GWEI,
                   "nonce": chain.nonce(ETH_ADDRESS), "chainId": 1}
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    reply = eth_request(host, eth_session, "eth_signTransaction", [unsigned_of(transaction)])
    host.close()
    assert "result" in reply, reply
    raw = bytes.fromhex(reply["result"][2:])
    assert raw == eth_account_raw(ETH_SECRET, transaction)
    before = chain.balance(RECIPIENT)
    chain.send_raw(raw)
    assert chain.balance(RECIPIENT) - before == wei(amounts(line_with(last_dialog(wallet), "Send"), "ETH")[0])


# 4. Bad input: -32602 naming the field, and no dialog.

def solana_bad_inputs(chain, key):
    good = bytes(chain.legacy([transfer(key, chain.recipient, 1_000)]))
    oversized = chain.legacy([transfer(key, chain.recipient, 1_000), memo("x" * 1200, key)])
    assert len(bytes(oversized)) > MAX_SOLANA_TRANSACTION
    # A one-transfer legacy transaction: 1 signature slot, 64 bytes, a 3-byte header, then the
    # compact-u16 count of its 3 keys, the keys, the blockhash, 1 instruction, its program's index.
    keys_count = 1 + 64 + 3
    program_index = keys_count + 1 + 3 * 32 + 32 + 1
    assert good[keys_count] == 3 and good[program_index] == 2
    return {
        "truncated": good[:-7],
        "trailing bytes": good + b"\0",
        "oversized": bytes(oversized),
        "no signatures slot": good[1:],
        "empty": b"",
        "compact-u16 overflow": good[:keys_count] + bytes([0xFF, 0xFF, 0xFF, 0x7F]) + good[keys_count + 1:],
        "program index outside the keys": good[:program_index] + bytes([9]) + good[program_index + 1:],
    }


def test_bad_solana_transactions_are_invalid_params_and_nobody_is_asked(wallet, solana_key, solana_session, answers):
    chain = SolanaChain(solana_key.pubkey())
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    for case, data in solana_bad_inputs(chain, solana_key.pubkey()).items():
        reply = session_request(host, solana_session, SOLANA_MAINNET, "solana_signTransaction",
                                {"transaction": base64.b64encode(data).decode()})
        error = error_of(reply)
        assert error["code"] == -32602, (case, error)
        assert error["data"]["field"].startswith("request.params.transaction"), (case, error)
        assert error["data"].get("problem"), (case, error)
    # Not base64 at all, and a batch whose second transaction is bad: all or nothing.
    error = error_of(session_request(host, solana_session, SOLANA_MAINNET, "solana_signTransaction",
                                     {"transaction": "%%%"}))
    assert (error["code"], error["data"]["field"]) == (-32602, "request.params.transaction"), error
    good = base64.b64encode(bytes(chain.legacy([transfer(solana_key.pubkey(), chain.recipient, 1_000)]))).decode()
    error = error_of(session_request(host, solana_session, SOLANA_MAINNET, "solana_signAllTransactions",
                                     {"transactions": [good, base64.b64encode(b"\x01" + bytes(10)).decode()]}))
    assert error["code"] == -32602 and error["data"]["field"].startswith("request.params.transactions[1]"), error
    # A transaction none of whose signers is a key of this session.
    stranger = Keypair.from_seed(bytes([0x99] * 32)).pubkey()
    theirs = chain.legacy([transfer(stranger, chain.recipient, 1_000)], payer=stranger)
    error = error_of(session_request(host, solana_session, SOLANA_MAINNET, "solana_signTransaction",
                                     {"transaction": base64.b64encode(bytes(theirs)).decode()}))
    assert (error["code"], error["data"]["field"]) == (-32602, "request.params.transaction"), error
    assert short(stranger) in error["data"]["problem"], error
    # A pubkey the session does not hold: 4100, as for solana_signMessage.
    error = error_of(session_request(host, solana_session, SOLANA_MAINNET, "solana_signTransaction",
                                     {"transaction": good, "pubkey": str(stranger)}))
    assert error["code"] == 4100, error
    # A signature in the wrong slot: the other signer's slot holds a signature that is not theirs.
    two = chain.legacy([transfer(solana_key.pubkey(), chain.recipient, 1_000),
                        transfer(chain.other.pubkey(), chain.recipient, 1_000)])
    forged = Transaction.populate(two.message, [Signature.default(), Keypair().sign_message(message_of(two))])
    error = error_of(session_request(host, solana_session, SOLANA_MAINNET, "solana_signTransaction",
                                     {"transaction": base64.b64encode(bytes(forged)).decode()}))
    assert error["code"] == -32602 and "signatures[1]" in error["data"]["field"], error
    host.close()
    assert wallet.pinentry_records() == [], "a dialog was shown for bad input"


def test_bad_evm_transactions_are_invalid_params_and_nobody_is_asked(wallet, eth_session, answers):
    import rlp
    host = wallet.host(FAKE_PINENTRY_PASSPHRASES=answers)
    good = {"to": RECIPIENT, "value": 1, "gas": 21000, "gasPrice": 2 * GWEI, "nonce": 0, "chainId": 1}
    encoded = bytes.fromhex(unsigned_of(good)[2:])
    to = bytes.fromhex(RECIPIENT[2:])
    cases = {
        "trailing bytes": "0x" + (encoded + b"\0").hex(),
        "truncated": "0x" + encoded[:-3].hex(),
        "non-canonical length": "0x" + (bytes([0xF8, len(encoded) - 1]) + encoded[1:]).hex(),
        "leading zeros": "0x" + rlp.encode([b"\0\x01", 2 * GWEI, 21000, to, 1, b"", 1, 0, 0]).hex(),
        "chain id overflow": "0x" + rlp.encode([0, 2 * GWEI, 21000, to, 1, b"", 2**256, 0, 0]).hex(),
        "not RLP": "0xzz",
    }
    for case, data in cases.items():
        error = error_of(eth_request(host, eth_session, "eth_signTransaction", [data]))
        assert error["code"] == -32602 and error["data"]["field"].startswith("request.params[0]"), (case, error)
        assert error["data"].get("problem"), (case, error)
    objects = {
        "no nonce": ({k: v for k, v in as_rpc(good).items() if k != "nonce"}, "request.params[0].nonce"),
        "no gas": ({k: v for k, v in as_rpc(good).items() if k != "gas"}, "request.params[0].gas"),
        "decimal value": ({**as_rpc(good), "value": 1}, "request.params[0].value"),
        "leading zero quantity": ({**as_rpc(good), "nonce": "0x01"}, "request.params[0].nonce"),
    }
    for case, (transaction, field) in objects.items():
        error = error_of(eth_request(host, eth_session, "eth_signTransaction", [transaction]))
        assert (error["code"], error["data"]["field"]) == (-32602, field), (case, error)
    host.close()
    assert wallet.pinentry_records() == [], "a dialog was shown for bad input"


# 5. The independent side on its own: what the tests above compare the host with.

def test_the_independent_chains_run_what_their_own_libraries_sign():
    """Without the host: every Solana transaction the tests build runs in LiteSVM once solders
    signs it with the wallet's seed, every EVM one in eth-tester once eth-account signs it, and
    the bad inputs are bad for solders and eth-account too. A failure here is the harness's."""
    key = Keypair.from_seed(SOLANA_SEED)
    chain = SolanaChain(key.pubkey())
    mint, mine, theirs = chain.create_mint(decimals=6, supply_to_wallet=100_000_000)
    stake = chain.create_stake_account(3 * LAMPORTS_PER_SOL)
    table = chain.create_lookup_table([chain.recipient])
    transactions = [
        chain.legacy([transfer(key.pubkey(), chain.recipient, 1_500_000_000)]),
        chain.legacy([compute_budget.set_compute_unit_limit(200_000), compute_budget.set_compute_unit_price(7_000),
                      token_transfer_checked(mine, mint, theirs, key.pubkey(), 12_500_000, 6),
                      memo("note", key.pubkey())]),
        chain.legacy([token_approve(mine, chain.spender, key.pubkey(), U64_MAX)]),
        chain.legacy([stake_withdraw(stake, chain.recipient, key.pubkey(), 1_250_000_000)]),
        chain.version0([transfer(key.pubkey(), chain.recipient, 250_000_000)], [table]),
        chain.durable([transfer(key.pubkey(), chain.recipient, 1_000)], *chain.create_nonce_account()),
    ]
    fees = []
    for unsigned in transactions:
        if unsigned is transactions[-1]:
            chain.svm.expire_blockhash()  # a nonce advances only to another blockhash's nonce
        signature = key.sign_message(message_of(unsigned))
        kind = type(unsigned)
        fees.append(chain.run(kind.populate(unsigned.message, [signature])).fee())
    assert fees == [5000, 5000 + 1_400, 5000, 5000, 5000, 5000]
    assert chain.token_account(theirs).amount == 12_500_000
    assert chain.token_account(mine).delegated_amount == U64_MAX
    bad = solana_bad_inputs(chain, key.pubkey())
    assert len(bad["oversized"]) > MAX_SOLANA_TRANSACTION
    for case in ("truncated", "empty", "compact-u16 overflow"):
        with pytest.raises(ValueError):
            Transaction.from_bytes(bad[case])
    with pytest.raises(Exception, match="index out of bounds"):
        Transaction.from_bytes(bad["program index outside the keys"]).sanitize()
    # solders reads a transaction and ignores what follows: less than the whole input is a transaction.
    for case in ("trailing bytes", "no signatures slot"):
        assert len(bytes(Transaction.from_bytes(bad[case]))) < len(bad[case]), case

    evm = EvmChain()
    evm.fund(ETH_ADDRESS, 10**19)
    for transaction in evm_cases(evm).values():
        before = evm.balance(RECIPIENT)
        evm.send_raw(eth_account_raw(ETH_SECRET, transaction))
        assert evm.balance(RECIPIENT) - before == transaction["value"]
    token = evm.deploy_token(10**24, ETH_ADDRESS)
    evm.send_raw(eth_account_raw(ETH_SECRET, {
        "to": token, "data": selector("transfer(address,uint256)") + word(RECIPIENT) + word(77), "value": 0,
        "nonce": evm.nonce(ETH_ADDRESS), "gas": 80000, "gasPrice": 2 * GWEI, "chainId": 1}))
    assert evm.token_balance(token, RECIPIENT) == 77 and evm.token_balance(token, ETH_ADDRESS) == 10**24 - 77
    # Overdrawn: the token reverts, as an ERC-20 does.
    overdrawn = evm.tester.send_raw_transaction("0x" + eth_account_raw(ETH_SECRET, {
        "to": token, "data": selector("transfer(address,uint256)") + word(RECIPIENT) + word(10**25), "value": 0,
        "nonce": evm.nonce(ETH_ADDRESS), "gas": 80000, "gasPrice": 2 * GWEI, "chainId": 1}).hex())
    assert evm.tester.get_transaction_receipt(overdrawn)["status"] == 0
    legacy = {"to": RECIPIENT, "value": 5, "gas": 21000, "gasPrice": 2 * GWEI, "nonce": evm.nonce(ETH_ADDRESS),
              "chainId": 1}
    import rlp
    decoded = rlp.decode(bytes.fromhex(unsigned_of(legacy)[2:]))
    assert [int.from_bytes(item, "big") for item in decoded[-3:]] == [1, 0, 0]
    assert keccak(bytes.fromhex(unsigned_of(legacy)[2:])) == keccak(
        rlp.encode([legacy["nonce"], legacy["gasPrice"], legacy["gas"], bytes.fromhex(RECIPIENT[2:]), 5, b"", 1, 0, 0]))
