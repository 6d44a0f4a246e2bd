import WalletBridgeKeys

/// Solana transactions written byte by byte (the wire format of docs.solana.com, "Transactions"):
/// legacy messages of System transfers, so that these tests need no other Solana code than the
/// wallet's decoder. Tests/Fixtures/sessions.json checks the same methods on transactions that
/// solders built.
package enum HandMadeSolana {
    package static let systemProgram = [UInt8](repeating: 0, count: 32)
    package static let recipient = [UInt8](repeating: 9, count: 32)
    package static let blockhash = [UInt8](repeating: 7, count: 32)

    /// A message whose required signers are `signers` (all writable), paying the recipient
    /// `lamports` from each signer named by its index.
    package static func message(signers: [[UInt8]], transfers: [(from: Int, lamports: UInt64)]) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(signers.count), 0, 1]
        let keys = signers + [recipient, systemProgram]
        bytes += [UInt8(keys.count)] + keys.flatMap { $0 } + blockhash
        bytes.append(UInt8(transfers.count))
        for (from, lamports) in transfers {
            let data = [2, 0, 0, 0] + (0..<8).map { UInt8(truncatingIfNeeded: lamports >> (8 * $0)) }
            bytes += [UInt8(signers.count + 1), 2, UInt8(from), UInt8(signers.count), UInt8(data.count)] + data
        }
        return bytes
    }

    /// The wire form: a signature slot per signer (`signatures`, zeros where none), then the message.
    package static func transaction(_ message: [UInt8], signatures: [[UInt8]]) -> [UInt8] {
        [UInt8(signatures.count)] + signatures.flatMap { $0 } + message
    }

    package static func unsigned(_ message: [UInt8], signers: Int) -> [UInt8] {
        transaction(message, signatures: Array(repeating: [UInt8](repeating: 0, count: 64), count: signers))
    }
}

/// An Ed25519 key from a seed, for signing here.
package struct TestKey {
    package let publicKey: [UInt8]
    package let secretKey: [UInt8]

    package init(seed byte: UInt8) {
        var publicKey = [UInt8](repeating: 0, count: 32), secretKey = [UInt8](repeating: 0, count: 64)
        Ed25519.initialize()
        Ed25519.keyPair(seed: [UInt8](repeating: byte, count: 32), publicKey: &publicKey, secretKey: &secretKey)
        (self.publicKey, self.secretKey) = (publicKey, secretKey)
    }

    package var base58: String { Base58.encode(publicKey) }
    package func sign(_ message: [UInt8]) -> [UInt8] {
        secretKey.withUnsafeBytes { Ed25519.sign(message, secretKey: $0) }
    }
}
