import CSodium

/// XChaCha20-Poly1305 (IETF), libsodium's `crypto_aead_xchacha20poly1305_ietf_*`. Its 24-byte
/// nonce is long enough to draw at random for every encryption without counting.
package enum AEAD {
    /// 32.
    package static let keyBytes = Int(crypto_aead_xchacha20poly1305_ietf_KEYBYTES)
    /// 24.
    package static let nonceBytes = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    /// 16: what sealing adds to the plaintext.
    package static let tagBytes = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)
    /// The keystore file's name for it.
    package static let algorithmName = "xchacha20poly1305-ietf"

    /// Encrypts `plaintext` under `key`, authenticating `associatedData` with it. The result
    /// is the ciphertext followed by the 16-byte tag. Ciphertext is not secret.
    package static func seal(
        _ plaintext: SecureBytes, key: SecureBytes, nonce: [UInt8], associatedData: [UInt8]
    ) -> [UInt8] {
        precondition(key.count == keyBytes && nonce.count == nonceBytes)
        Sodium.ensureInitialized()
        var sealed = [UInt8](repeating: 0, count: plaintext.count + tagBytes)
        var sealedLength: UInt64 = 0
        let status: Int32 = plaintext.withUnsafeBytes { message in
            key.withUnsafeBytes { keyBuffer in
                crypto_aead_xchacha20poly1305_ietf_encrypt(
                    &sealed, &sealedLength,
                    message.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(message.count),
                    associatedData, UInt64(associatedData.count),
                    nil, nonce, keyBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        precondition(status == 0 && Int(sealedLength) == sealed.count, "XChaCha20-Poly1305 encryption failed")
        return sealed
    }

    /// Decrypts and verifies into secure memory, or returns nil when the key is wrong or the
    /// ciphertext, nonce or associated data were altered (the two cannot be told apart).
    package static func open(
        _ sealed: [UInt8], key: SecureBytes, nonce: [UInt8], associatedData: [UInt8]
    ) -> SecureBytes? {
        guard key.count == keyBytes, nonce.count == nonceBytes, sealed.count >= tagBytes else { return nil }
        Sodium.ensureInitialized()
        let plaintext = SecureBytes(count: sealed.count - tagBytes)
        var plaintextLength: UInt64 = 0
        let status: Int32 = plaintext.withUnsafeMutableBytes { out in
            key.withUnsafeBytes { keyBuffer in
                crypto_aead_xchacha20poly1305_ietf_decrypt(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), &plaintextLength,
                    nil, sealed, UInt64(sealed.count),
                    associatedData, UInt64(associatedData.count),
                    nonce, keyBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0, Int(plaintextLength) == plaintext.count else { return nil }
        return plaintext
    }
}
