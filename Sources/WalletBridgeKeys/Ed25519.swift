import CSodium

/// libsodium's Ed25519, the only signature primitive the wallet uses.
package enum Ed25519 {
    package static let publicKeyBytes = Int(crypto_sign_PUBLICKEYBYTES)
    package static let secretKeyBytes = Int(crypto_sign_SECRETKEYBYTES)
    package static let seedBytes = Int(crypto_sign_SEEDBYTES)
    package static let signatureBytes = Int(crypto_sign_BYTES)

    /// Must run before any other libsodium call; safe to call more than once.
    package static func initialize() {
        precondition(sodium_init() >= 0, "libsodium failed to initialise")
    }

    /// Signs `message` with a 64-byte libsodium secret key (seed followed by public key).
    package static func sign(_ message: [UInt8], secretKey: UnsafeRawBufferPointer) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: signatureBytes)
        signature.withUnsafeMutableBytes { signature in
            message.withUnsafeBytes { sign($0, secretKey: secretKey, into: signature.baseAddress!) }
        }
        return signature
    }

    /// Signs `message`, writing the 64-byte signature at `signature`.
    package static func sign(
        _ message: UnsafeRawBufferPointer, secretKey: UnsafeRawBufferPointer, into signature: UnsafeMutableRawPointer
    ) {
        precondition(secretKey.count == secretKeyBytes)
        var empty: UInt8 = 0  // libsodium wants a valid pointer even for an empty message
        withUnsafePointer(to: &empty) { fallback in
            _ = crypto_sign_detached(
                signature.assumingMemoryBound(to: UInt8.self), nil,
                message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? fallback, UInt64(message.count),
                secretKey.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }

    package static func verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureBytes, publicKey.count == publicKeyBytes else { return false }
        return crypto_sign_verify_detached(signature, message, UInt64(message.count), publicKey) == 0
    }
}

extension Ed25519 {
    /// Derives a key pair from a 32-byte seed. Returns false if libsodium refuses.
    @discardableResult
    package static func keyPair(seed: [UInt8], publicKey: inout [UInt8], secretKey: inout [UInt8]) -> Bool {
        precondition(seed.count == seedBytes && publicKey.count == publicKeyBytes && secretKey.count == secretKeyBytes)
        return crypto_sign_seed_keypair(&publicKey, &secretKey, seed) == 0
    }
}
