import WalletBridgeKeys
import WalletBridgeTransactions
/// One Ethereum signature a session asks for: the digest to sign (EIP-191's, EIP-712's or a
/// transaction's, already hashed), by which address, and what the person is shown of it.
package struct EthereumSigningRequest: Sendable {
    /// `personal_sign`, `eth_signTypedData_v4` or `eth_signTransaction`, and the request's chain:
    /// for the audit log.
    package var method: String
    package var chain: ChainID
    package var address: EthereumAddress
    /// Keccak-256 of what is signed: 32 bytes.
    package var digest: [UInt8]
    /// What the dialog shows of a message or typed data; nil for a transaction, whose dialog
    /// is `transactionConsent` alone.
    package var consent: EthereumConsent?
    /// For `eth_signTransaction`: the transaction, whose dialog shows its summary
    /// (`TransactionConsent`) in place of `consent`, and whose raw signed form's hash the audit
    /// log records.
    package var transaction: EthereumTransaction?

    package init(method: String, chain: ChainID, address: EthereumAddress, digest: [UInt8], consent: EthereumConsent) {
        (self.method, self.chain, self.address, self.digest, self.consent) = (method, chain, address, digest, consent)
    }

    /// `eth_signTransaction`'s: `transaction`'s signing hash, by `address`.
    package init(method: String, chain: ChainID, address: EthereumAddress, transaction: EthereumTransaction) {
        (self.method, self.chain, self.address, self.digest) = (method, chain, address, transaction.signingHash)
        self.transaction = transaction
    }

    /// Where the request names `address`, for an error about it: `personal_sign`'s second
    /// param, `eth_signTypedData_v4`'s first, a transaction's `from`.
    package var addressField: String {
        switch method {
        case "personal_sign": "request.params[1]"
        case "eth_signTransaction": "request.params[0].from"
        default: "request.params[0]"
        }
    }

    /// Where a refusal of the transaction points: the request's transaction.
    package var transactionField: String { "request.params[0]" }

    /// What the dialog shows of `transaction`, or of a sign-in (`EthereumConsent.signInLayout`):
    /// laid out, and checked to fit, as a transaction is.
    package var transactionConsent: TransactionConsent? {
        transaction.map { TransactionConsent(chain: EIP155.name(of: chain), summaries: [$0.summary()]) }
            ?? consent?.signInLayout
    }

    /// `personal_sign` (EIP-191, version 0x45): Keccak-256 of "\x19Ethereum Signed Message:\n",
    /// the message's length in decimal, and the message.
    package static func personalMessageDigest(_ message: [UInt8]) -> [UInt8] {
        Keccak256.hash(Array("\u{19}Ethereum Signed Message:\n\(message.count)".utf8) + message)
    }
}
