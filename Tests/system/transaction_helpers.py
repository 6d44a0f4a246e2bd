"""Independent chains for test_transactions.py: what the transactions the wallet signs really do.

- Solana: solders builds the transactions (its system, compute-budget and lookup-table builders;
  SPL Token, Associated Token Account, Memo and Stake instructions written here from their
  published layouts) and solders' LiteSVM executes them, with the SPL programs, Memo and the
  Stake and Address Lookup Table programs it loads by default.
- EVM: eth-account builds and signs, eth-tester with py-evm executes; the ERC-20 contract is a
  few hand-assembled EVM instructions (transfer, balanceOf, approve, allowance), so that nothing
  is compiled and no bytecode is copied from elsewhere.
- The dialog: the scripted pinentry's record of what it was told (SETDESC), and the numbers read
  back from it.
"""
import re
import struct
from decimal import Decimal

from eth_account import Account
from eth_tester import EthereumTester, PyEVMBackend
from eth_utils import keccak, to_checksum_address
from solders import system_program
from solders.address_lookup_table_account import AddressLookupTable, AddressLookupTableAccount
from solders.hash import Hash
from solders.instruction import AccountMeta, Instruction
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.message import Message, MessageV0, to_bytes_versioned
from solders.pubkey import Pubkey
from solders.signature import Signature
from solders.token.associated import get_associated_token_address
from solders.token.state import TokenAccount
from solders.transaction import Transaction, VersionedTransaction

TOKEN_PROGRAM = Pubkey.from_string("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
TOKEN_2022_PROGRAM = Pubkey.from_string("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
ATA_PROGRAM = Pubkey.from_string("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
MEMO_PROGRAM = Pubkey.from_string("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
STAKE_PROGRAM = Pubkey.from_string("Stake11111111111111111111111111111111111111")
LOOKUP_TABLE_PROGRAM = Pubkey.from_string("AddressLookupTab1e1111111111111111111111111")
SYSVAR_RENT = Pubkey.from_string("SysvarRent111111111111111111111111111111111")
SYSVAR_CLOCK = Pubkey.from_string("SysvarC1ock11111111111111111111111111111111")
SYSVAR_STAKE_HISTORY = Pubkey.from_string("SysvarStakeHistory1111111111111111111111111")
LAMPORTS_PER_SOL = 10**9
U64_MAX = 2**64 - 1
TOKEN_ACCOUNT_SIZE = 165  # an SPL token account without extensions (Token-2022 appends its own after it)
U256_MAX = 2**256 - 1
MAX_SOLANA_TRANSACTION = 1232  # bytes: an IPv6 packet's payload, the cluster's limit


def short(pubkey):
    """A Solana address as the dialogs shorten it: the first and last 4 base58 characters."""
    text = str(pubkey)
    return f"{text[:4]}…{text[-4:]}"


def short_eth(address):
    """An EVM address as the dialogs shorten it: EIP-55, 0x and 4 digits, …, the last 4."""
    text = to_checksum_address(address)
    return f"{text[:6]}…{text[-4:]}"


# SPL Token (and Token-2022, whose first instructions have the same layout), ATA, Memo, Stake.

def token_transfer_checked(source, mint, destination, owner, amount, decimals, program=TOKEN_PROGRAM):
    return Instruction(program, bytes([12]) + struct.pack("<QB", amount, decimals), [
        AccountMeta(source, False, True), AccountMeta(mint, False, False), AccountMeta(destination, False, True),
        AccountMeta(owner, True, False)])


def token_transfer(source, destination, owner, amount, program=TOKEN_PROGRAM):
    return Instruction(program, bytes([3]) + struct.pack("<Q", amount), [
        AccountMeta(source, False, True), AccountMeta(destination, False, True), AccountMeta(owner, True, False)])


def token_approve(source, delegate, owner, amount, program=TOKEN_PROGRAM):
    return Instruction(program, bytes([4]) + struct.pack("<Q", amount), [
        AccountMeta(source, False, True), AccountMeta(delegate, False, False), AccountMeta(owner, True, False)])


def token_initialize_mint2(mint, authority, decimals, program=TOKEN_PROGRAM):
    return Instruction(program, bytes([20, decimals]) + bytes(authority) + b"\0", [AccountMeta(mint, False, True)])


def token_mint_to(mint, destination, authority, amount, program=TOKEN_PROGRAM):
    return Instruction(program, bytes([7]) + struct.pack("<Q", amount), [
        AccountMeta(mint, False, True), AccountMeta(destination, False, True), AccountMeta(authority, True, False)])


def ata_create_idempotent(payer, owner, mint, program=TOKEN_PROGRAM):
    account = get_associated_token_address(owner, mint, program)
    return Instruction(ATA_PROGRAM, bytes([1]), [
        AccountMeta(payer, True, True), AccountMeta(account, False, True), AccountMeta(owner, False, False),
        AccountMeta(mint, False, False), AccountMeta(system_program.ID, False, False),
        AccountMeta(program, False, False)])


def memo(text, signer):
    return Instruction(MEMO_PROGRAM, text.encode(), [AccountMeta(signer, True, False)])


def stake_initialize(stake, staker, withdrawer):
    """StakeInstruction::Initialize(Authorized, Lockup) in bincode: tag u32, two keys, no lockup."""
    data = struct.pack("<I", 0) + bytes(staker) + bytes(withdrawer) + struct.pack("<qQ", 0, 0) + bytes(32)
    return Instruction(STAKE_PROGRAM, data, [AccountMeta(stake, False, True), AccountMeta(SYSVAR_RENT, False, False)])


def stake_withdraw(stake, to, withdrawer, lamports):
    return Instruction(STAKE_PROGRAM, struct.pack("<IQ", 4, lamports), [
        AccountMeta(stake, False, True), AccountMeta(to, False, True), AccountMeta(SYSVAR_CLOCK, False, False),
        AccountMeta(SYSVAR_STAKE_HISTORY, False, False), AccountMeta(withdrawer, True, False)])


def transfer(source, destination, lamports):
    return system_program.transfer({"from_pubkey": source, "to_pubkey": destination, "lamports": lamports})


class SolanaChain:
    """A LiteSVM bank with the wallet's key funded, and another party (a key the test holds) that
    owns a token mint, a stake account whose withdrawer is the wallet's key, and a lookup table."""

    def __init__(self, wallet_key):
        self.svm = LiteSVM()
        self.wallet_key = wallet_key
        self.other = Keypair.from_seed(bytes([0x51] * 32))
        self.recipient = Keypair.from_seed(bytes([0x52] * 32)).pubkey()
        self.spender = Keypair.from_seed(bytes([0x53] * 32)).pubkey()
        self.svm.airdrop(wallet_key, 20 * LAMPORTS_PER_SOL)
        self.svm.airdrop(self.other.pubkey(), 20 * LAMPORTS_PER_SOL)
        self.svm.airdrop(self.recipient, LAMPORTS_PER_SOL)

    @property
    def blockhash(self):
        return self.svm.latest_blockhash()

    def run(self, transaction):
        """Executes a signed transaction; fails the test with LiteSVM's logs if it fails."""
        result = self.svm.send_transaction(transaction)
        assert not hasattr(result, "err"), f"LiteSVM refused the transaction: {result}"
        return result

    def setup(self, instructions, *signers):
        """A transaction of the test's own party, paid by it."""
        message = Message.new_with_blockhash(instructions, self.other.pubkey(), self.blockhash)
        return self.run(Transaction([self.other, *signers], message, self.blockhash))

    def balance(self, pubkey):
        return self.svm.get_balance(pubkey) or 0

    def token_account(self, pubkey):
        """An SPL token account's state; a Token-2022 one's base state, before its extensions."""
        account = self.svm.get_account(pubkey)
        return TokenAccount.from_bytes(bytes(account.data)[:TOKEN_ACCOUNT_SIZE]) if account else None

    def create_mint(self, decimals, supply_to_wallet, program=TOKEN_PROGRAM):
        """A real mint (authority: the other party) and the wallet's and the recipient's
        associated token accounts, the wallet's holding `supply_to_wallet` raw units."""
        mint = Keypair()
        space = 82
        create = system_program.create_account({
            "from_pubkey": self.other.pubkey(), "to_pubkey": mint.pubkey(),
            "lamports": self.svm.minimum_balance_for_rent_exemption(space), "space": space, "owner": program})
        self.setup([create, token_initialize_mint2(mint.pubkey(), self.other.pubkey(), decimals, program)], mint)
        mine = get_associated_token_address(self.wallet_key, mint.pubkey(), program)
        theirs = get_associated_token_address(self.recipient, mint.pubkey(), program)
        self.setup([ata_create_idempotent(self.other.pubkey(), self.wallet_key, mint.pubkey(), program),
                    ata_create_idempotent(self.other.pubkey(), self.recipient, mint.pubkey(), program),
                    token_mint_to(mint.pubkey(), mine, self.other.pubkey(), supply_to_wallet, program)])
        return mint.pubkey(), mine, theirs

    def create_stake_account(self, lamports):
        """An initialized (undelegated) stake account: staker the other party, withdrawer the wallet."""
        stake = Keypair()
        space = 200
        create = system_program.create_account({
            "from_pubkey": self.other.pubkey(), "to_pubkey": stake.pubkey(),
            "lamports": self.svm.minimum_balance_for_rent_exemption(space) + lamports, "space": space,
            "owner": STAKE_PROGRAM})
        self.setup([create, stake_initialize(stake.pubkey(), self.other.pubkey(), self.wallet_key)], stake)
        return stake.pubkey()

    def create_lookup_table(self, addresses):
        """A real address lookup table holding `addresses`, usable from the next slot on."""
        slot = self.svm.get_clock().slot
        recent = self.svm.get_slot_hashes()[0][0] if self.svm.get_slot_hashes() else slot
        create, table = system_program.create_lookup_table({
            "authority_address": self.other.pubkey(), "payer_address": self.other.pubkey(), "recent_slot": recent})
        self.setup([create])
        self.setup([system_program.extend_lookup_table({
            "lookup_table_address": table, "authority_address": self.other.pubkey(),
            "payer_address": self.other.pubkey(), "new_addresses": list(addresses)})])
        self.svm.warp_to_slot(self.svm.get_clock().slot + 1)
        stored = AddressLookupTable.deserialize(bytes(self.svm.get_account(table).data))
        assert list(stored.addresses) == list(addresses)
        return AddressLookupTableAccount(table, list(stored.addresses))

    def create_nonce_account(self):
        """A durable nonce account whose authority is the wallet's key; its address and the
        blockhash it holds (State::Initialized: version u32, state u32, authority, then the hash)."""
        nonce = Keypair()
        space = 80
        self.setup(list(system_program.create_nonce_account(
            self.other.pubkey(), nonce.pubkey(), self.wallet_key, self.svm.minimum_balance_for_rent_exemption(space))),
            nonce)
        data = bytes(self.svm.get_account(nonce.pubkey()).data)
        assert len(data) == space and data[8:40] == bytes(self.wallet_key)
        return nonce.pubkey(), Hash(data[40:72])

    # Unsigned transactions for the wallet, its key the fee payer unless said otherwise.

    def durable(self, instructions, nonce, nonce_hash):
        """A durable-nonce transaction: AdvanceNonceAccount first, the nonce's hash as its blockhash."""
        advance = system_program.advance_nonce_account({"nonce_pubkey": nonce, "authorized_pubkey": self.wallet_key})
        message = Message.new_with_blockhash([advance, *instructions], self.wallet_key, nonce_hash)
        return Transaction.new_unsigned(message)

    def legacy(self, instructions, payer=None):
        message = Message.new_with_blockhash(instructions, payer or self.wallet_key, self.blockhash)
        return Transaction.new_unsigned(message)

    def version0(self, instructions, tables, payer=None):
        message = MessageV0.try_compile(payer or self.wallet_key, instructions, tables, self.blockhash)
        return VersionedTransaction.populate(message, [Signature.default()] * message.header.num_required_signatures)


def message_of(transaction):
    """The bytes a Solana signature signs: the serialized message (a v0 one with its 0x80 prefix)."""
    if isinstance(transaction, VersionedTransaction):
        return to_bytes_versioned(transaction.message)
    return bytes(transaction.message)


# EVM

def assemble(program):
    """A tiny EVM assembler: a list of opcode names, ints (pushed as PUSH32 unless a PUSHn name
    precedes them), labels ("@name" defines, ":name" is a PUSH2 of its address)."""
    opcodes = {"STOP": 0x00, "ADD": 0x01, "SUB": 0x03, "LT": 0x10, "EQ": 0x14, "SHR": 0x1C, "SHA3": 0x20,
               "CALLER": 0x33, "CALLDATALOAD": 0x35, "CODECOPY": 0x39, "POP": 0x50, "MSTORE": 0x52, "SLOAD": 0x54,
               "SSTORE": 0x55, "JUMPI": 0x57, "JUMPDEST": 0x5B, "DUP1": 0x80, "DUP2": 0x81, "DUP3": 0x82,
               "SWAP1": 0x90, "RETURN": 0xF3, "REVERT": 0xFD}
    labels, code, fixups = {}, bytearray(), []
    pending_width = None
    for item in program:
        if isinstance(item, str) and item.startswith("@"):
            labels[item[1:]] = len(code)
            code.append(opcodes["JUMPDEST"])
        elif isinstance(item, str) and item.startswith(":"):
            code.append(0x61)
            fixups.append((len(code), item[1:]))
            code += b"\0\0"
        elif isinstance(item, str) and item.startswith("PUSH"):
            pending_width = int(item[4:])
            code.append(0x5F + pending_width)
        elif isinstance(item, int):
            width = pending_width or 32
            if pending_width is None:
                code.append(0x5F + 32)
            code += item.to_bytes(width, "big")
            pending_width = None
        else:
            code.append(opcodes[item])
    for offset, label in fixups:
        code[offset:offset + 2] = labels[label].to_bytes(2, "big")
    return bytes(code)


def return_word():
    return ["PUSH1", 0, "MSTORE", "PUSH1", 0x20, "PUSH1", 0, "RETURN"]


ERC20_RUNTIME = assemble([
    "PUSH1", 0, "CALLDATALOAD", "PUSH1", 0xE0, "SHR",
    "DUP1", "PUSH4", 0xA9059CBB, "EQ", ":transfer", "JUMPI",
    "DUP1", "PUSH4", 0x70A08231, "EQ", ":balanceOf", "JUMPI",
    "DUP1", "PUSH4", 0x095EA7B3, "EQ", ":approve", "JUMPI",
    "DUP1", "PUSH4", 0xDD62ED3E, "EQ", ":allowance", "JUMPI",
    "@fail", "PUSH1", 0, "DUP1", "REVERT",
    # transfer(to, amount): balances are stored at the holder's address.
    "@transfer", "PUSH1", 0x24, "CALLDATALOAD", "CALLER", "SLOAD",       # amount, mine
    "DUP2", "DUP2", "LT", ":fail", "JUMPI",                              # mine < amount: revert
    "DUP2", "SWAP1", "SUB", "CALLER", "SSTORE",                          # mine -= amount
    "PUSH1", 4, "CALLDATALOAD", "DUP1", "SLOAD", "DUP3", "ADD", "SWAP1", "SSTORE",  # theirs += amount
    "PUSH1", 1, *return_word(),
    "@balanceOf", "PUSH1", 4, "CALLDATALOAD", "SLOAD", *return_word(),
    # approve(spender, amount): allowances at keccak(owner ‖ spender).
    "@approve", "PUSH1", 0x24, "CALLDATALOAD", "CALLER", "PUSH1", 0, "MSTORE", "PUSH1", 4, "CALLDATALOAD",
    "PUSH1", 0x20, "MSTORE", "PUSH1", 0x40, "PUSH1", 0, "SHA3", "SSTORE", "PUSH1", 1, *return_word(),
    "@allowance", "PUSH1", 4, "CALLDATALOAD", "PUSH1", 0, "MSTORE", "PUSH1", 0x24, "CALLDATALOAD", "PUSH1", 0x20,
    "MSTORE", "PUSH1", 0x40, "PUSH1", 0, "SHA3", "SLOAD", *return_word(),
])


def erc20_init_code(supply):
    """Gives the deployer `supply`, then returns the runtime code."""
    prefix_length = 33 + 1 + 1 + 3 + 1 + 3 + 2 + 1 + 2 + 1
    init = assemble([supply, "CALLER", "SSTORE", "PUSH2", len(ERC20_RUNTIME), "DUP1", "PUSH2", prefix_length,
                     "PUSH1", 0, "CODECOPY", "PUSH1", 0, "RETURN"])
    assert len(init) == prefix_length
    return init + ERC20_RUNTIME


def selector(signature):
    return keccak(text=signature)[:4]


def word(value):
    return int(value, 16).to_bytes(32, "big") if isinstance(value, str) else value.to_bytes(32, "big")


class EvmChain:
    """eth-tester on py-evm, as Ethereum mainnet (chain 1): the transactions the wallet signs for
    eip155:1 run as they would there."""

    CHAIN_ID = 1

    def __init__(self):
        self.backend = PyEVMBackend()
        self.backend.chain.chain_id = self.CHAIN_ID
        self.tester = EthereumTester(self.backend)
        self.funder = self.tester.get_accounts()[0]

    def fund(self, address, wei):
        self.tester.send_transaction({"from": self.funder, "to": address, "value": wei, "gas": 21000,
                                      "max_fee_per_gas": 10**10, "max_priority_fee_per_gas": 10**9})

    def balance(self, address):
        return self.tester.get_balance(address)

    def nonce(self, address):
        return self.tester.get_nonce(address)

    def base_fee(self):
        return self.tester.get_block_by_number("pending")["base_fee_per_gas"]

    def deploy_token(self, supply, holder):
        """The ERC-20 above, deployed by the funder, `supply` given to `holder`."""
        created = self.tester.send_transaction({
            "from": self.funder, "data": "0x" + erc20_init_code(supply).hex(), "gas": 300000,
            "max_fee_per_gas": 10**10, "max_priority_fee_per_gas": 10**9})
        token = self.tester.get_transaction_receipt(created)["contract_address"]
        assert self.tester.get_code(token) == "0x" + ERC20_RUNTIME.hex()
        self.call_as(self.funder, token, selector("transfer(address,uint256)") + word(holder) + word(supply))
        assert self.token_balance(token, holder) == supply
        return to_checksum_address(token)

    def call_as(self, sender, to, data):
        sent = self.tester.send_transaction({"from": sender, "to": to, "data": "0x" + data.hex(), "gas": 100000,
                                             "max_fee_per_gas": 10**10, "max_priority_fee_per_gas": 10**9})
        assert self.tester.get_transaction_receipt(sent)["status"] == 1

    def read(self, to, data):
        return int(self.tester.call({"from": self.funder, "to": to, "data": "0x" + data.hex()}), 16)

    def token_balance(self, token, holder):
        return self.read(token, selector("balanceOf(address)") + word(holder))

    def allowance(self, token, owner, spender):
        return self.read(token, selector("allowance(address,address)") + word(owner) + word(spender))

    def send_raw(self, raw):
        """Executes a signed transaction; its receipt."""
        receipt = self.tester.get_transaction_receipt(self.tester.send_raw_transaction("0x" + raw.hex()))
        assert receipt["status"] == 1, receipt
        return receipt


def eth_account_raw(secret, transaction):
    return bytes(Account.sign_transaction(transaction, secret).raw_transaction)


# The dialog

def sign_dialogs(wallet):
    """The texts of the signing dialogs shown (one per pinentry process), oldest first."""
    shown = {}
    for record in wallet.pinentry_records():
        if record.get("command") in ("SETOK", "SETDESC"):
            shown.setdefault(record["pid"], {})[record["command"]] = record["argument"]
    return [dialog["SETDESC"] for dialog in shown.values() if dialog.get("SETOK") == "_Sign"]


def warnings_in(text):
    return [line.strip()[len("⚠"):].strip() for line in text.splitlines() if line.strip().startswith("⚠")]


def number(text):
    """A decimal as the dialogs write it (thousands separated by commas)."""
    return Decimal(text.replace(",", ""))


def amounts(text, unit):
    """Every amount written as `<number> <unit>` in the text, in order."""
    return [number(found) for found in re.findall(r"(\d[\d,]*(?:\.\d+)?) " + re.escape(unit) + r"\b", text)]


def line_with(text, *parts):
    """The first line holding every one of `parts`; fails with the whole text when none does."""
    for line in text.splitlines():
        if all(part.lower() in line.lower() for part in parts):
            return line
    raise AssertionError(f"no line with {parts} in the dialog:\n{text}")


def lamports(sol):
    value = sol * LAMPORTS_PER_SOL
    assert value == int(value), f"{sol} SOL is not a whole number of lamports"
    return int(value)


def wei(eth):
    value = eth * 10**18
    assert value == int(value), f"{eth} ETH is not a whole number of wei"
    return int(value)
