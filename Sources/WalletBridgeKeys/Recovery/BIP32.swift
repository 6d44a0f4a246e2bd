/// BIP-32 key derivation for secp256k1, Ethereum's curve: from a BIP-39 seed down a path of
/// hardened and non-hardened indices to a 32-byte secret key. The HMACs are libsodium's (shared
/// with SLIP-0010, which is this scheme with another curve), the curve arithmetic is
/// libsecp256k1's; nothing here computes on the curve itself.
package enum BIP32 {
    /// Why a path gives no key: BIP-32's "invalid key" cases, which happen with a probability
    /// below 2^-127 per index. BIP-32 says to go on with the next index; a wallet that did so
    /// silently would hold a key at a path other than the one it reports, so this one stops.
    package enum Problem: Error, Equatable, CustomStringConvertible {
        case invalidKey(position: Int)

        package var description: String {
            switch self {
            case .invalidKey(let position):
                "index \(position) of the path gives no valid secp256k1 key (BIP-32's rare case): use the next index"
            }
        }
    }

    /// The 32-byte secp256k1 secret key at `path` from a BIP-39 seed (16...64 bytes), per BIP-32
    /// with the master key "Bitcoin seed". Intermediate keys live in SecureBytes and are wiped.
    package static func secp256k1Key(seed: SecureBytes, path: DerivationPath) throws(Problem) -> SecureBytes {
        precondition((16...64).contains(seed.count), "a BIP-32 seed is 16 to 64 bytes, not \(seed.count)")
        // A node: the secret key k (32 bytes), then the chain code c (32 bytes).
        let master = masterKey.withUnsafeBytes { key in seed.withUnsafeBytes { SLIP10.hmacSHA512(key: key, data: $0) } }
        let key = master.prefix(32)
        var chainCode = master.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0[32..<64])) }
        guard Secp256k1.isValidSecretKey(key) else { throw .invalidKey(position: 0) }
        for (offset, index) in path.indices.enumerated() {
            // Hardened: 0x00 ‖ k ‖ index. Not hardened: the compressed public key ‖ index.
            let data = SecureBytes(count: 33 + 4)
            data.withUnsafeMutableBytes { data in
                if index & DerivationPath.hardened != 0 {
                    data[0] = 0
                    key.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: data[1..<33]).copyMemory(from: $0) }
                } else {
                    let publicKey = Secp256k1.publicKey(of: key)!  // `key` was checked valid
                    UnsafeMutableRawBufferPointer(rebasing: data[0..<33]).copyBytes(from: publicKey)
                }
                for byte in 0..<4 { data[33 + byte] = UInt8(truncatingIfNeeded: index >> (24 - 8 * byte)) }
            }
            let node = chainCode.withUnsafeBytes { chain in
                data.withUnsafeBytes { SLIP10.hmacSHA512(key: chain, data: $0) }
            }
            // k_child = I_L + k (mod n); invalid when I_L ≥ n or the sum is zero.
            let added = node.withUnsafeBytes { node in
                Secp256k1.addTweak(UnsafeRawBufferPointer(rebasing: node[0..<32]), toSecretKey: key)
            }
            guard added else { throw .invalidKey(position: offset + 1) }
            chainCode = node.withUnsafeBytes { SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0[32..<64])) }
        }
        return key
    }

    private static let masterKey = Array("Bitcoin seed".utf8)
}
