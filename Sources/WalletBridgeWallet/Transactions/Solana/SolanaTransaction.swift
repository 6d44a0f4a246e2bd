import WalletBridge

// API skeleton for issue 36, filled in by the Solana decoder branch: the signatures and bodies
// below are the contract the wallet's methods are written against.

/// A Solana transaction as the wire carries it: a compact-u16 count of 64-byte signatures,
/// the signatures, then the message they sign (legacy or version 0).
package struct SolanaTransaction: Sendable, Equatable {
    /// The most a transaction may be on the wire: an IPv6 packet's 1280 bytes less headers.
    package static let maxBytes = 1232

    /// One 64-byte signature per required signer, in the order of the message's first
    /// account keys; 64 zero bytes where that signer has not signed yet.
    package var signatures: [[UInt8]]
    package let message: SolanaMessage

    /// Reads a whole serialized transaction (no trailing bytes), or throws naming the field.
    package init(bytes: [UInt8]) throws(TransactionError) {
        throw TransactionError(field: "", problem: "not decoded yet")
    }

    /// The wire form again, with `signatures` as they are now.
    package func serialized() -> [UInt8] { [] }
}

/// The part of a transaction that its signers sign.
package struct SolanaMessage: Sendable, Equatable {
    package enum Version: Sendable, Equatable { case legacy, v0 }

    package let version: Version
    /// Exactly the bytes that are signed.
    package let bytes: [UInt8]
    /// How many of the first `accountKeys` must sign.
    package let requiredSignatures: Int
    /// The static account keys, 32 bytes each; the first is the fee payer.
    package let accountKeys: [[UInt8]]

    /// Reads a whole message (no trailing bytes), or throws naming the field.
    package init(bytes: [UInt8]) throws(TransactionError) {
        throw TransactionError(field: "", problem: "not decoded yet")
    }

    /// The index among the signers of `publicKey`, nil when it is not a required signer.
    package func signerIndex(of publicKey: [UInt8]) -> Int? { nil }

    /// What the person sees before `signer` (a 32-byte public key) signs this message.
    package func summary(signer: [UInt8]) -> TransactionSummary {
        TransactionSummary(kind: "a Solana transaction", actionNoun: "instruction")
    }
}
