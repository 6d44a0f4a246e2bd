import CSodium

/// SLIP-0010 key derivation for Ed25519: from a BIP-39 seed down a path of hardened indices
/// to the 32-byte private key (the seed of `crypto_sign_seed_keypair`). It is BIP-32 with
/// HMAC key "ed25519 seed" for the master, and only hardened children, because Ed25519 has
/// no public-key child derivation.
package enum SLIP10 {
    /// Why a path cannot be derived.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        /// The index at `position` (counted from 1 after `m`) is not hardened.
        case notHardened(position: Int)

        package var description: String {
            switch self {
            case .notHardened(let position):
                "Ed25519 derivation (SLIP-0010) allows only hardened indices: index \(position) of the path "
                    + "is not hardened; write it with ' after the number, as in 0'"
            }
        }
    }

    /// The 32-byte Ed25519 private key (seed for crypto_sign_seed_keypair) at `path`, from a
    /// BIP-39 seed (any length 16...64), per SLIP-0010 with curve key "ed25519 seed".
    /// Intermediate keys and chain codes live in SecureBytes and are wiped.
    package static func ed25519Key(seed: SecureBytes, path: DerivationPath) throws(Problem) -> SecureBytes {
        precondition((16...64).contains(seed.count), "a BIP-32 seed is 16 to 64 bytes, not \(seed.count)")
        // Refused before any work, so a bad path costs nothing and returns no partial result.
        if let offset = path.indices.firstIndex(where: { $0 & DerivationPath.hardened == 0 }) {
            throw .notHardened(position: offset + 1)
        }
        // A node is I: the key (I_L, 32 bytes), then the chain code (I_R, 32 bytes). Each one
        // replaced is released, and `sodium_free` zeroes it.
        var node = curveKey.withUnsafeBytes { key in
            seed.withUnsafeBytes { hmacSHA512(key: key, data: $0) }
        }
        // 0x00 || ser256(k_par) || ser32(i).
        let data = SecureBytes(count: 1 + 32 + 4)
        for index in path.indices {
            data.withUnsafeMutableBytes { data in
                node.withUnsafeBytes { node in
                    data[0] = 0
                    UnsafeMutableRawBufferPointer(rebasing: data[1..<33])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: node[0..<32]))
                }
                for byte in 0..<4 { data[33 + byte] = UInt8(truncatingIfNeeded: index >> (24 - 8 * byte)) }
            }
            node = node.withUnsafeBytes { node in
                data.withUnsafeBytes { hmacSHA512(key: UnsafeRawBufferPointer(rebasing: node[32..<64]), data: $0) }
            }
        }
        return node.prefix(32)
    }

    private static let curveKey = Array("ed25519 seed".utf8)

    /// libsodium's HMAC state, rounded up to 16 bytes: `sodium_malloc` ends a buffer at a page
    /// boundary, so a buffer's alignment is that of its size.
    private static let stateBytes = (MemoryLayout<crypto_auth_hmacsha512_state>.size + 15) & ~15

    /// HMAC-SHA512 by libsodium, whose `crypto_auth_hmacsha512_init` takes a key of any length
    /// (the one-shot `crypto_auth_hmacsha512` wants exactly 32 bytes). The state holds hashes
    /// of the key, as secret as the key, so it lives in secure memory too.
    static func hmacSHA512(key: UnsafeRawBufferPointer, data: UnsafeRawBufferPointer) -> SecureBytes {
        let keyLength = key.count
        let mac = SecureBytes(count: Int(crypto_auth_hmacsha512_BYTES))
        let state = SecureBytes(count: stateBytes)
        state.withUnsafeMutableBytes { stateBuffer in
            let raw = stateBuffer.baseAddress!
            precondition(Int(bitPattern: raw) % MemoryLayout<crypto_auth_hmacsha512_state>.alignment == 0)
            let state = raw.bindMemory(to: crypto_auth_hmacsha512_state.self, capacity: 1)
            mac.withUnsafeMutableBytes { mac in
                // Every buffer here is non-empty, so each base address is there.
                let key = key.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let input = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
                _ = crypto_auth_hmacsha512_init(state, key, keyLength)
                _ = crypto_auth_hmacsha512_update(state, input, UInt64(data.count))
                _ = crypto_auth_hmacsha512_final(state, mac.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        return mac
    }
}
