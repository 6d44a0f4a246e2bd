#!/usr/bin/env python3
"""Solana transactions built by an independent implementation (solders 0.29.0, Solana's own Rust
types: messages, compilation, lookup tables, signing) for the wallet's decoder tests
(Tests/TransactionsTests/SolanaTransactionTests.swift) and the fuzz seeds (fuzz/make-seeds.py).

Run with the project's python: `"$(scripts/python-env.sh)" Tests/Support/solana_vectors.py`
rewrites Tests/Support/solana-vectors.json. Everything is deterministic (keys from fixed seeds,
a fixed blockhash), so a rerun gives the same file.

solders has builders for the System and Compute Budget programs; the SPL Token, Associated
Token Account, Memo and Stake instructions are laid out here from those programs' own
definitions (spl-token's instruction.rs, the stake program's bincode StakeInstruction), and
solders compiles, serializes and signs the messages that carry them."""
import base64, json, os, struct

import solders
from solders.address_lookup_table_account import AddressLookupTableAccount
from solders.compute_budget import request_heap_frame, set_compute_unit_limit, set_compute_unit_price
from solders.hash import Hash
from solders.instruction import AccountMeta, Instruction
from solders.keypair import Keypair
from solders.message import Message, MessageV0, to_bytes_versioned
from solders.pubkey import Pubkey
from solders.signature import Signature
from solders.transaction import VersionedTransaction
from solders import system_program as sp

assert solders.__version__ == "0.29.0", solders.__version__

HERE = os.path.dirname(os.path.abspath(__file__))

# The wallet tests' seeds (TestSupport.swift: testSeedA, testSeedB): A is "this key".
A = Keypair.from_seed(bytes([0xA1] * 32))
B = Keypair.from_seed(bytes([0xB2] * 32))
C = Keypair.from_seed(bytes([0xC3] * 32))
BLOCKHASH = Hash(bytes(range(1, 33)))

TOKEN = Pubkey.from_string("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
TOKEN_2022 = Pubkey.from_string("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
ATA = Pubkey.from_string("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
MEMO = Pubkey.from_string("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
STAKE = Pubkey.from_string("Stake11111111111111111111111111111111111111")
USDC = Pubkey.from_string("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
CLOCK = Pubkey.from_string("SysvarC1ock11111111111111111111111111111111")
STAKE_HISTORY = Pubkey.from_string("SysvarStakeHistory1111111111111111111111111")
STAKE_CONFIG = Pubkey.from_string("StakeConfig11111111111111111111111111111111")
RENT = Pubkey.from_string("SysvarRent111111111111111111111111111111111")
RECENT_BLOCKHASHES = Pubkey.from_string("SysvarRecentB1ockHashes11111111111111111111")


def key(n):
    """A fixed address that is nobody's key here: 32 bytes of n."""
    return Pubkey(bytes([n] * 32))


def ata(owner, mint, program=TOKEN):
    return Pubkey.find_program_address([bytes(owner), bytes(program), bytes(mint)], ATA)[0]


def meta(pubkey, signer=False, writable=False):
    return AccountMeta(pubkey, signer, writable)


def token(program, data, *accounts):
    return Instruction(program, data, list(accounts))


def transfer_checked(source, mint, destination, owner, amount, decimals, program=TOKEN):
    return token(program, bytes([12]) + struct.pack("<QB", amount, decimals),
                 meta(source, writable=True), meta(mint), meta(destination, writable=True), meta(owner, signer=True))


def stake(data, *accounts):
    return Instruction(STAKE, data, list(accounts))


def signed(message, signers, version=None):
    """The serialized transaction with each signer's signature in its slot, zeros elsewhere."""
    payload = to_bytes_versioned(message) if isinstance(message, MessageV0) else bytes(message)
    keys = list(message.account_keys)[: message.header.num_required_signatures]
    by_key = {signer.pubkey(): signer for signer in signers}
    signatures = [by_key[k].sign_message(payload) if k in by_key else Signature.default() for k in keys]
    return bytes(VersionedTransaction.populate(message, signatures))


def legacy(instructions, payer=A, signers=(A,)):
    return signed(Message.new_with_blockhash(instructions, payer.pubkey(), BLOCKHASH), signers)


def vectors():
    a, b, c = A.pubkey(), B.pubkey(), C.pubkey()
    out = {}
    out["system-transfer"] = legacy([sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=b, lamports=1_500_000_000))])
    out["spl-transfer-checked"] = legacy([
        set_compute_unit_limit(200_000), set_compute_unit_price(7),
        transfer_checked(ata(a, USDC), USDC, ata(b, USDC), a, 12_500_000, 6)])
    out["spl-transfer-plain"] = legacy([token(TOKEN, bytes([3]) + struct.pack("<Q", 12_500_000),
                                              meta(ata(a, USDC), writable=True), meta(ata(b, USDC), writable=True),
                                              meta(a, signer=True))])
    out["token2022-transfer-checked"] = legacy([transfer_checked(key(7), key(8), key(9), a, 1, 0, TOKEN_2022)])
    out["spl-approve-unlimited"] = legacy([token(TOKEN, bytes([4]) + struct.pack("<Q", 2**64 - 1),
                                                 meta(ata(a, USDC), writable=True), meta(c), meta(a, signer=True))])
    out["spl-approve-checked-large"] = legacy([token(TOKEN, bytes([13]) + struct.pack("<QB", 5_000_000_000_000_000, 6),
                                                     meta(ata(a, USDC), writable=True), meta(USDC), meta(c),
                                                     meta(a, signer=True))])
    out["spl-revoke"] = legacy([token(TOKEN, bytes([5]), meta(ata(a, USDC), writable=True), meta(a, signer=True))])
    # SetAuthority: authority type 2 (account owner), COption tag 1 and the new owner.
    out["spl-set-authority"] = legacy([token(TOKEN, bytes([6, 2, 1]) + bytes(c),
                                             meta(ata(a, USDC), writable=True), meta(a, signer=True))])
    out["spl-set-authority-none"] = legacy([token(TOKEN, bytes([6, 3, 0]), meta(ata(a, USDC), writable=True),
                                                  meta(a, signer=True))])
    out["spl-close-account"] = legacy([token(TOKEN, bytes([9]), meta(ata(a, USDC), writable=True),
                                             meta(c, writable=True), meta(a, signer=True))])
    out["spl-mint-burn"] = legacy([
        token(TOKEN, bytes([7]) + struct.pack("<Q", 1000), meta(key(8), writable=True), meta(key(9), writable=True),
              meta(a, signer=True)),
        token(TOKEN, bytes([15]) + struct.pack("<QB", 2_500_000_000, 9), meta(key(9), writable=True),
              meta(key(8), writable=True), meta(a, signer=True))])
    out["ata-create-idempotent"] = legacy([Instruction(ATA, bytes([1]), [
        meta(a, signer=True, writable=True), meta(ata(b, USDC), writable=True), meta(b), meta(USDC),
        meta(sp.ID), meta(TOKEN)])])
    out["compute-budget-memo"] = legacy([
        set_compute_unit_price(1_000_000), request_heap_frame(262_144),
        Instruction(MEMO, "Pay Bob \"rent\"\nfor May ✓".encode(), [meta(a, signer=True)]),
        sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=b, lamports=1))])
    out["system-create-account"] = legacy([sp.create_account(sp.CreateAccountParams(
        from_pubkey=a, to_pubkey=b, lamports=2_039_280, space=165, owner=TOKEN))],
        signers=(A, B))
    out["stake"] = legacy([
        stake(struct.pack("<I", 2), meta(key(20), writable=True), meta(key(21)), meta(CLOCK), meta(STAKE_HISTORY),
              meta(STAKE_CONFIG), meta(a, signer=True)),
        stake(struct.pack("<I", 5), meta(key(20), writable=True), meta(CLOCK), meta(a, signer=True)),
        stake(struct.pack("<IQ", 4, 3_000_000_000), meta(key(20), writable=True), meta(a, writable=True), meta(CLOCK),
              meta(STAKE_HISTORY), meta(a, signer=True)),
        stake(struct.pack("<I", 1) + bytes(c) + struct.pack("<I", 1), meta(key(20), writable=True), meta(CLOCK),
              meta(a, signer=True)),
        stake(struct.pack("<I", 1) + bytes(c) + struct.pack("<I", 0), meta(key(20), writable=True), meta(CLOCK),
              meta(a, signer=True))])
    out["durable-nonce"] = legacy([
        sp.advance_nonce_account(sp.AdvanceNonceAccountParams(nonce_pubkey=key(30), authorized_pubkey=a)),
        sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=b, lamports=5))])
    out["unknown-program"] = legacy([Instruction(key(40), bytes(range(12)), [
        meta(a, signer=True, writable=True), meta(key(41), writable=True), meta(key(42))])])
    # B pays and has signed; A (this key) has not yet: partial signing.
    out["fee-payer-other"] = legacy([sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=c, lamports=42))],
                                    payer=B, signers=(B,))
    # Version 0: the recipient and the token accounts come from a lookup table.
    table = AddressLookupTableAccount(key=key(50), addresses=[key(51), b, ata(a, USDC), ata(b, USDC), USDC])
    message = MessageV0.try_compile(a, [
        sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=b, lamports=2_000_000_000)),
        transfer_checked(ata(a, USDC), USDC, ata(b, USDC), a, 1_000_000, 6)], [table], BLOCKHASH)
    out["v0-lookup"] = signed(message, (A,))
    message = MessageV0.try_compile(a, [sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=b, lamports=1))],
                                    [], BLOCKHASH)
    out["v0-plain"] = signed(message, (A,))
    # Both have signed: the fee-payer-other transaction after this key signs its slot.
    out["fee-payer-other-signed"] = legacy([sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=c, lamports=42))],
                                           payer=B, signers=(B, A))
    # The most a priority fee can be: a limit past the runtime's 1,400,000 and the largest price.
    out["compute-budget-huge"] = legacy([set_compute_unit_limit(2_000_000), set_compute_unit_price(2**64 - 1),
                                         sp.transfer(sp.TransferParams(from_pubkey=a, to_pubkey=b, lamports=1))])
    out["compute-budget-twice"] = legacy([set_compute_unit_limit(1000), set_compute_unit_limit(2000),
                                          set_compute_unit_price(1)])
    out["memo-long"] = legacy([Instruction(MEMO, ("word " * 100).encode(), [meta(a, signer=True)])])
    # Known programs, data or accounts their own code refuses: shown as unrecognised, never fatal.
    out["malformed-known-programs"] = legacy([
        Instruction(sp.ID, bytes([2, 0, 0, 0, 1]), [meta(a, True, True), meta(b, writable=True)]),
        Instruction(TOKEN, bytes([99]), []),
        Instruction(STAKE, struct.pack("<I", 4), [meta(key(20), writable=True)]),
        Instruction(MEMO, bytes([0xFF, 0xFE]), []),
        Instruction(ATA, bytes([1, 0]), [meta(a, True, True), meta(key(9), writable=True), meta(b), meta(USDC),
                                         meta(sp.ID), meta(TOKEN)]),
        Instruction(TOKEN, bytes([12]) + struct.pack("<QB", 1, 0), [meta(key(7), writable=True)]),
        Instruction(Pubkey.from_string("ComputeBudget111111111111111111111111111111"), bytes([2, 1]), []),
        Instruction(sp.ID, b"", [meta(a, True, True)])])
    # The other System instructions, from solders' own builders.
    seeded = Pubkey.create_with_seed(a, "vault", STAKE)
    out["system-others"] = legacy([
        sp.assign(sp.AssignParams(pubkey=a, owner=STAKE)),
        sp.allocate(sp.AllocateParams(pubkey=a, space=200)),
        sp.transfer_with_seed(sp.TransferWithSeedParams(from_pubkey=seeded, from_base=a, from_seed="vault",
                                                        from_owner=STAKE, to_pubkey=b, lamports=7_000_000_000)),
        sp.withdraw_nonce_account(sp.WithdrawNonceAccountParams(nonce_pubkey=key(30), authorized_pubkey=a, to_pubkey=c,
                                                                lamports=250_000_000)),
        sp.create_account_with_seed(sp.CreateAccountWithSeedParams(from_pubkey=a, to_pubkey=seeded, base=a, seed="vault",
                                                                   lamports=1, space=200, owner=STAKE)),
        sp.authorize_nonce_account(sp.AuthorizeNonceAccountParams(nonce_pubkey=key(30), authorized_pubkey=a,
                                                                  new_authority=c))])
    out["token-others"] = legacy([
        token(TOKEN_2022, bytes([13]) + struct.pack("<QB", 2**64 - 1, 6), meta(key(7), writable=True), meta(key(8)),
              meta(c), meta(a, signer=True)),
        token(TOKEN, bytes([18]) + bytes(a), meta(key(9), writable=True), meta(USDC)),
        token(TOKEN, bytes([17]), meta(key(9), writable=True)),
        token(TOKEN, bytes([10]), meta(key(9), writable=True), meta(USDC), meta(c, signer=True)),
        token(TOKEN, bytes([14]) + struct.pack("<QB", 1_000_001, 6), meta(USDC, writable=True),
              meta(key(9), writable=True), meta(c, signer=True)),
        token(TOKEN, bytes([9, 0xAA]), meta(key(9), writable=True), meta(a, writable=True), meta(a, signer=True))],
        signers=(A, C))
    out["stake-others"] = legacy([
        stake(struct.pack("<I", 0) + bytes(a) + bytes(a) + struct.pack("<qQ", 0, 0) + bytes(32),
              meta(key(20), writable=True), meta(RENT)),
        stake(struct.pack("<IQ", 3, 1_000_000_000), meta(key(20), writable=True), meta(key(22), writable=True),
              meta(a, signer=True)),
        stake(struct.pack("<I", 7), meta(key(20), writable=True), meta(key(22), writable=True), meta(CLOCK),
              meta(STAKE_HISTORY), meta(a, signer=True)),
        stake(struct.pack("<II", 10, 1), meta(key(20), writable=True), meta(CLOCK), meta(a, signer=True),
              meta(c, signer=True))], signers=(A, C))
    # The longest lines: a memo of 900 bytes (every "%" three bytes in the dialog), u64's largest
    # amounts with 255, 30 and 31 decimals and with none.
    out["memo-900"] = legacy([Instruction(MEMO, ("100% sure " * 90).encode(), [meta(a, signer=True)])])
    out["token-extremes"] = legacy([
        transfer_checked(key(7), key(8), key(9), a, 2**64 - 1, 255, TOKEN_2022),
        token(TOKEN_2022, bytes([13]) + struct.pack("<QB", 2**64 - 1, 255), meta(key(7), writable=True), meta(key(8)),
              meta(c), meta(a, signer=True)),
        token(TOKEN, bytes([13]) + struct.pack("<QB", 2**64 - 1, 0), meta(key(7), writable=True), meta(key(8)),
              meta(c), meta(a, signer=True)),
        token(TOKEN, bytes([15]) + struct.pack("<QB", 2**64 - 1, 30), meta(key(7), writable=True),
              meta(key(8), writable=True), meta(a, signer=True)),
        token(TOKEN, bytes([14]) + struct.pack("<QB", 2**64 - 1, 31), meta(key(8), writable=True),
              meta(key(7), writable=True), meta(a, signer=True))])
    # A swap as aggregators build them: three lookup tables, compute budget, the ATA, an
    # unknown program this key signs for, the wrapped SOL account closed.
    tables = [AddressLookupTableAccount(key(40 + n), [key(50 + 4 * n + i) for i in range(4)]) for n in range(3)]
    swap_accounts = [meta(a, signer=True, writable=True)] + [meta(key(50 + i), writable=i % 2 == 0) for i in range(12)]
    message = MessageV0.try_compile(a, [
        set_compute_unit_limit(300_000), set_compute_unit_price(50_000),
        Instruction(ATA, bytes([1]), [meta(a, True, True), meta(ata(a, key(8)), writable=True), meta(a), meta(key(8)),
                                      meta(sp.ID), meta(TOKEN)]),
        Instruction(key(60), bytes(range(40)), swap_accounts),
        token(TOKEN, bytes([9]), meta(ata(a, key(8)), writable=True), meta(a, writable=True), meta(a, signer=True))],
        tables, BLOCKHASH)
    out["v0-swap"] = signed(message, (A,))
    # Well formed, but over the 1232 bytes a transaction may be.
    out["oversized-memo"] = legacy([Instruction(MEMO, b"x" * 1200, [])])
    return out


def decoded(data):
    """What solders reads from a transaction, for the tests to compare the wallet's reading with."""
    tx = VersionedTransaction.from_bytes(data)
    message = tx.message
    header = message.header
    return {
        "version": "v0" if isinstance(message, MessageV0) else "legacy",
        "signatures": [str(signature) for signature in tx.signatures],
        "header": [header.num_required_signatures, header.num_readonly_signed_accounts,
                   header.num_readonly_unsigned_accounts],
        "accountKeys": [str(k) for k in message.account_keys],
        "recentBlockhash": str(message.recent_blockhash),
        "instructions": [{"programIdIndex": i.program_id_index, "accounts": list(bytes(i.accounts)),
                          "data": bytes(i.data).hex()} for i in message.instructions],
        "addressTableLookups": [{"accountKey": str(lookup.account_key),
                                 "writableIndexes": list(bytes(lookup.writable_indexes)),
                                 "readonlyIndexes": list(bytes(lookup.readonly_indexes))}
                                for lookup in getattr(message, "address_table_lookups", [])],
        "signedMessage": (to_bytes_versioned(message) if isinstance(message, MessageV0) else bytes(message)).hex(),
    }


def main():
    built = vectors()
    result = {"generator": "Tests/Support/solana_vectors.py", "solders": solders.__version__,
              "keys": {"A": str(A.pubkey()), "B": str(B.pubkey()), "C": str(C.pubkey())},
              "vectors": {name: base64.b64encode(data).decode() for name, data in built.items()},
              "decoded": {name: decoded(data) for name, data in built.items() if len(data) <= 1232}}
    with open(os.path.join(HERE, "solana-vectors.json"), "w") as out:
        json.dump(result, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
