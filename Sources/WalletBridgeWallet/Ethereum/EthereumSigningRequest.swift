/// One Ethereum signature a session asks for: the digest to sign (EIP-191's or EIP-712's,
/// already hashed), by which address, and what the person is shown of it.
package struct EthereumSigningRequest: Sendable {
    /// `personal_sign` or `eth_signTypedData_v4`, and the request's chain: for the audit log.
    package var method: String
    package var chain: ChainID
    package var address: EthereumAddress
    /// Keccak-256 of what is signed: 32 bytes.
    package var digest: [UInt8]
    package var consent: EthereumConsent

    package init(method: String, chain: ChainID, address: EthereumAddress, digest: [UInt8], consent: EthereumConsent) {
        (self.method, self.chain, self.address, self.digest, self.consent) = (method, chain, address, digest, consent)
    }

    /// `personal_sign` (EIP-191, version 0x45): Keccak-256 of "\x19Ethereum Signed Message:\n",
    /// the message's length in decimal, and the message.
    package static func personalMessageDigest(_ message: [UInt8]) -> [UInt8] {
        Keccak256.hash(Array("\u{19}Ethereum Signed Message:\n\(message.count)".utf8) + message)
    }
}
