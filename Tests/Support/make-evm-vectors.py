#!/usr/bin/env python3
"""Writes Tests/Support/evm-transaction-vectors.json: Ethereum transactions of the three kinds the
wallet signs (legacy with EIP-155, EIP-2930, EIP-1559), each as eth_signTransaction's object,
with what eth-account (an independent implementation) makes of it for a fixed key: the unsigned
serialization, the hash that is signed, and the raw signed transaction. Also ABI-encoded
calldata from eth-abi for the calls the wallet decodes. EthereumTransactionTests reads the file
and must match it byte for byte.

Run with the project's Python: "$(scripts/python-env.sh)" Tests/Support/make-evm-vectors.py
"""
import json
import os

import rlp
from eth_abi import encode
from eth_account import Account
from eth_account._utils.legacy_transactions import serializable_unsigned_transaction_from_dict
from eth_account.typed_transactions import TypedTransaction
from eth_account._utils.transaction_utils import transaction_rpc_to_rlp_structure
from eth_utils import function_signature_to_4byte_selector, keccak, to_checksum_address

HERE = os.path.dirname(os.path.abspath(__file__))

# Throwaway test keys, never funded.
KEYS = [
    "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    "0x" + "11" * 32,
]

USDC_MAINNET = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3"
ALICE = "0xF0109fC8DF283027b6285cc889F5aA624EaC1F55"
BOB = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
UNKNOWN_TOKEN = "0x1111111111111111111111111111111111111111"
NFT = "0x2222222222222222222222222222222222222222"


def call(signature, types, values):
    return "0x" + (function_signature_to_4byte_selector(signature) + encode(types, values)).hex()


# An ENS name's token id: the keccak hash of its label, 77 decimal digits.
ENS_ID = int("6c5ba3e4ac4ca0ab3d1c0f4d5d7e0e5c0b4d2e6b0d7c1f8a9e3b2c4d5e6f7a8b", 16)

CALLDATA = {
    "transfer": call("transfer(address,uint256)", ["address", "uint256"], [BOB, 12_500_000]),
    "transferFrom": call("transferFrom(address,address,uint256)", ["address", "address", "uint256"], [ALICE, BOB, 1_000_000]),
    "approve": call("approve(address,uint256)", ["address", "uint256"], [BOB, 5_000_000]),
    "approveUnlimited": call("approve(address,uint256)", ["address", "uint256"], [BOB, 2**256 - 1]),
    "approveHalf": call("approve(address,uint256)", ["address", "uint256"], [BOB, 2**255]),
    "approveVeryLarge": call("approve(address,uint256)", ["address", "uint256"], [BOB, 2 * 10**15]),
    "increaseAllowance": call("increaseAllowance(address,uint256)", ["address", "uint256"], [BOB, 1_500_000]),
    "safeTransferFrom721": call("safeTransferFrom(address,address,uint256)", ["address", "address", "uint256"], [ALICE, BOB, 42]),
    "safeTransferFrom721Data": call(
        "safeTransferFrom(address,address,uint256,bytes)", ["address", "address", "uint256", "bytes"], [ALICE, BOB, 42, b"\x01\x02\x03"]),
    "safeTransferFrom1155": call(
        "safeTransferFrom(address,address,uint256,uint256,bytes)",
        ["address", "address", "uint256", "uint256", "bytes"], [ALICE, BOB, 7, 5, b""]),
    "safeBatchTransferFrom": call(
        "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
        ["address", "address", "uint256[]", "uint256[]", "bytes"], [ALICE, BOB, [1, 2, 3], [10, 20, 30], b""]),
    "safeBatchTransferFromLong": call(
        "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
        ["address", "address", "uint256[]", "uint256[]", "bytes"], [ALICE, BOB, list(range(1, 11)), [1] * 10, b"\xff"]),
    "setApprovalForAll": call("setApprovalForAll(address,bool)", ["address", "bool"], [BOB, True]),
    "setApprovalForAllRevoke": call("setApprovalForAll(address,bool)", ["address", "bool"], [BOB, False]),
    "permit2Approve": call(
        "approve(address,address,uint160,uint48)", ["address", "address", "uint160", "uint48"],
        [USDC_MAINNET, BOB, 2**160 - 1, 1_798_761_600]),
    "permit2ApproveSmall": call(
        "approve(address,address,uint160,uint48)", ["address", "address", "uint160", "uint48"], [USDC_MAINNET, BOB, 25_000_000, 0]),
    "permit2Permit": call(
        "permit(address,((address,uint160,uint48,uint48),address,uint256),bytes)",
        ["address", "((address,uint160,uint48,uint48),address,uint256)", "bytes"],
        [ALICE, ((USDC_MAINNET, 1_000_000, 1_798_761_600, 0), BOB, 1_798_761_600), b"\x00" * 65]),
    "unknown": "0xdeadbeef" + "00" * 64,
    # Review round 2: numbers as long as they get (ENS token ids are keccak hashes), batches
    # past what a dialog lists, Permit2's "forever" values, and bytes after the arguments.
    "transferFromENS": call(
        "transferFrom(address,address,uint256)", ["address", "address", "uint256"], [ALICE, BOB, ENS_ID]),
    "approveENS": call("approve(address,uint256)", ["address", "uint256"], [BOB, ENS_ID]),
    "approveNFT": call("approve(address,uint256)", ["address", "uint256"], [BOB, 1234]),
    "safeTransferFrom721DataENS": call(
        "safeTransferFrom(address,address,uint256,bytes)", ["address", "address", "uint256", "bytes"],
        [ALICE, BOB, ENS_ID, b"x" * 100]),
    "safeTransferFrom1155Max": call(
        "safeTransferFrom(address,address,uint256,uint256,bytes)",
        ["address", "address", "uint256", "uint256", "bytes"], [ALICE, BOB, 2**256 - 1, 2**256 - 1, b""]),
    "safeBatchTransferFromMax": call(
        "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
        ["address", "address", "uint256[]", "uint256[]", "bytes"],
        [ALICE, BOB, [ENS_ID + i for i in range(8)], [2**256 - 1] * 8, b""]),
    "transferMax": call("transfer(address,uint256)", ["address", "uint256"], [BOB, 2**256 - 2]),
    "permit2PermitForever": call(
        "permit(address,((address,uint160,uint48,uint48),address,uint256),bytes)",
        ["address", "((address,uint160,uint48,uint48),address,uint256)", "bytes"],
        [ALICE, ((USDC_MAINNET, 2**160 - 2, 2**48 - 1, 0), BOB, 2**256 - 1), b"\x01" * 65]),
    "transferTrailing": call("transfer(address,uint256)", ["address", "uint256"], [BOB, 12_500_000]) + "0badc0de",
}


def quantity(value):
    return hex(value)


def rpc_object(tx, sender):
    """eth_signTransaction's object for `tx` (eth-account's dict): quantities as 0x-hex."""
    out = {"from": sender}
    for name, value in tx.items():
        if name == "to" and value == "":
            continue  # a contract creation has no `to`
        if name in ("nonce", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "value", "chainId", "type"):
            out[name] = quantity(value)
        elif name == "accessList":
            out[name] = [{"address": entry["address"], "storageKeys": entry["storageKeys"]} for entry in value]
        else:
            out[name] = value
    return out


def unsigned_bytes(tx):
    if "type" in tx and tx["type"] != 0:
        typed = TypedTransaction.from_dict(tx)
        inner = typed.transaction
        fields = transaction_rpc_to_rlp_structure({k: v for k, v in inner.dictionary.items() if k not in ("v", "r", "s")})
        payload = rlp.encode(inner.__class__._unsigned_transaction_serializer.from_dict(fields))
        encoded = bytes([inner.__class__.transaction_type]) + payload
        assert keccak(encoded) == typed.hash()
        return encoded
    unsigned = serializable_unsigned_transaction_from_dict(tx)
    encoded = rlp.encode(unsigned)
    assert keccak(encoded) == unsigned.hash()
    return encoded


def vector(name, tx, key=KEYS[0]):
    account = Account.from_key(key)
    signed = Account.sign_transaction(tx, key)
    unsigned = unsigned_bytes(tx)
    wire = {k: v for k, v in tx.items() if k != "type" or v != 0}
    return {
        "name": name,
        "key": key,
        "from": account.address,
        "json": rpc_object(wire, account.address),
        "unsigned": "0x" + unsigned.hex(),
        "signingHash": "0x" + keccak(unsigned).hex(),
        "raw": "0x" + bytes(signed.raw_transaction).hex(),
        "hash": "0x" + bytes(signed.hash).hex(),
    }


def with_short_signature(name, make, part):
    """The first nonce whose signature has r (part 0) or s (part 1) with a leading zero byte:
    RLP writes both as integers, without it."""
    for nonce in range(5000):
        tx = make(nonce)
        signed = Account.sign_transaction(tx, KEYS[0])
        if (signed.r if part == 0 else signed.s) < 2**248:
            return vector(name, tx)
    raise SystemExit("no short signature found")


def transactions():
    return [
        vector("legacy-send-mainnet", {
            "nonce": 0, "gasPrice": 20 * 10**9, "gas": 21000, "to": BOB, "value": 10**16, "data": "0x", "chainId": 1}),
        vector("legacy-contract-creation", {
            "nonce": 3, "gasPrice": 1, "gas": 100000, "to": "", "value": 0, "data": "0x6080604052", "chainId": 137}),
        vector("legacy-max-chain-id", {
            "nonce": 2**64 - 1, "gasPrice": 2**256 - 1, "gas": 2**64 - 1, "to": BOB, "value": 2**256 - 1, "data": "0x",
            "chainId": 2**53 - 1}),
        vector("eip2930-access-list", {
            "type": 1, "nonce": 7, "gasPrice": 10**9, "gas": 50000, "to": USDC_MAINNET, "value": 0,
            "data": CALLDATA["transfer"], "chainId": 1,
            "accessList": [
                {"address": USDC_MAINNET, "storageKeys": ["0x" + "00" * 31 + "01", "0x" + "ab" * 32]},
                {"address": BOB, "storageKeys": []},
            ]}),
        vector("eip2930-empty-access-list", {
            "type": 1, "nonce": 1, "gasPrice": 5, "gas": 21000, "to": BOB, "value": 1, "data": "0x", "chainId": 10, "accessList": []}),
        vector("eip1559-usdc-transfer-base", {
            "type": 2, "nonce": 7, "maxFeePerGas": 30 * 10**9, "maxPriorityFeePerGas": 1_500_000_000, "gas": 65000,
            "to": USDC_BASE, "value": 0, "data": CALLDATA["transfer"], "chainId": 8453, "accessList": []}),
        vector("eip1559-send-key2", {
            "type": 2, "nonce": 0, "maxFeePerGas": 30 * 10**9, "maxPriorityFeePerGas": 10**9, "gas": 21000,
            "to": ALICE, "value": 123456789, "data": "0x", "chainId": 42161, "accessList": []}, key=KEYS[1]),
        vector("eip1559-contract-creation", {
            "type": 2, "nonce": 9, "maxFeePerGas": 2, "maxPriorityFeePerGas": 2, "gas": 300000, "to": "",
            "value": 5, "data": "0x60806040", "chainId": 11155111, "accessList": []}),
        with_short_signature("legacy-short-r", lambda nonce: {
            "nonce": nonce, "gasPrice": 1, "gas": 21000, "to": BOB, "value": 1, "data": "0x", "chainId": 1}, 0),
        with_short_signature("eip1559-short-s", lambda nonce: {
            "type": 2, "nonce": nonce, "maxFeePerGas": 2, "maxPriorityFeePerGas": 1, "gas": 21000, "to": BOB, "value": 1,
            "data": "0x", "chainId": 1, "accessList": []}, 1),
    ]


def main():
    vectors = transactions()
    out = {
        "comment": "Made by Tests/Support/make-evm-vectors.py with eth-account and eth-abi; do not edit by hand.",
        "transactions": vectors,
        "calldata": CALLDATA,
        "addresses": {"alice": ALICE, "bob": BOB, "unknownToken": UNKNOWN_TOKEN, "nft": NFT, "permit2": PERMIT2,
                      "usdcMainnet": USDC_MAINNET, "usdcBase": USDC_BASE},
    }
    assert to_checksum_address(ALICE) == ALICE and to_checksum_address(BOB) == BOB
    with open(os.path.join(HERE, "evm-transaction-vectors.json"), "w") as file:
        json.dump(out, file, indent=1)
        file.write("\n")


if __name__ == "__main__":
    main()
