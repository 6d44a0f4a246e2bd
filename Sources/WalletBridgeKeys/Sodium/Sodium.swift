import CSodium

/// Process-wide libsodium setup and the small utilities the wallet uses around it.
package enum Sodium {
    /// `sodium_init` runs once, on first use, not at startup: GetAccounts never needs it.
    private static let initialized: Bool = sodium_init() >= 0

    /// Initialises libsodium if that has not happened yet. Every entry point into the
    /// keystore's cryptography calls this first; calling it again costs a load.
    package static func ensureInitialized() {
        precondition(initialized, "libsodium failed to initialise")
    }

    /// Fills `buffer` with bytes from the operating system's CSPRNG.
    package static func randomBytes(into buffer: UnsafeMutableRawBufferPointer) {
        ensureInitialized()
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        randombytes_buf(base, buffer.count)
    }

    /// `count` random bytes in an ordinary array: for salts and nonces, which are not secret.
    package static func randomBytes(count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randomBytes(into: $0) }
        return bytes
    }

    /// SHA-256 of `bytes`.
    package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        ensureInitialized()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest
    }

    /// Overwrites `buffer` with zeros in a way the compiler may not optimise away.
    package static func memzero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        sodium_memzero(base, buffer.count)
    }

    /// Zeroes an ordinary array's storage. For the few places where secret bytes have to pass
    /// through Swift-managed memory (a read buffer, a pipe line); better than leaving them.
    package static func memzero(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { memzero($0) }
    }

    /// Compares in time that depends only on the length.
    package static func constantTimeEqual(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.count > 0 else { return true }
        return sodium_memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
    }
}
