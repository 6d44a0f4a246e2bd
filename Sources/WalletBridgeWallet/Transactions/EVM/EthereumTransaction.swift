import WalletBridge

// API skeleton for issue 36, filled in by the EVM branch: the signatures and bodies below are
// the contract the wallet's methods are written against.

/// An Ethereum transaction to sign: legacy (EIP-155), EIP-2930 or EIP-1559.
package struct EthereumTransaction: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case legacy, accessList, feeMarket }

    package let kind: Kind
    /// The chain the transaction names (EIP-155's for legacy, the typed field otherwise).
    package let chainID: UInt64
    /// `from`, when the request named it (eth_signTransaction's object form).
    package let from: EthereumAddress?

    /// eth_signTransaction's transaction: an object as wallets take it (`from`, `to`, `value`,
    /// `data`, `nonce`, `gas`, `gasPrice` or `maxFeePerGas` and `maxPriorityFeePerGas`,
    /// `chainId`, `type`, `accessList`), or a string of 0x and the hex of an unsigned serialized
    /// transaction. `chain` is the request's chain: a transaction for another is refused.
    /// Errors are -32602 naming `field` and the member.
    package init(json: JSONValue, chain: ChainID, field: String) throws(RPCError) {
        throw RPCError(.invalidParams, data: .object(["field": .string(field), "problem": .string("not decoded yet")]))
    }

    /// Reads an unsigned serialized transaction (typed envelope or legacy RLP), strictly:
    /// canonical RLP, no trailing bytes.
    package init(unsigned bytes: [UInt8]) throws(TransactionError) {
        throw TransactionError(field: "", problem: "not decoded yet")
    }

    /// Keccak-256 of what is signed (EIP-155's nine fields for legacy, the typed payload
    /// otherwise): 32 bytes.
    package var signingHash: [UInt8] { [] }

    /// The raw signed transaction for a 65-byte signature r ‖ s ‖ v (v 27 or 28, as
    /// `Secp256k1.sign` gives it): what eth_sendRawTransaction takes.
    package func signed(with signature: [UInt8]) -> [UInt8] { [] }

    /// What the person sees before this transaction is signed.
    package func summary() -> TransactionSummary {
        TransactionSummary(kind: "an Ethereum transaction", actionNoun: "call")
    }
}
