import CNettle

/// Keccak-256, Ethereum's hash: the Keccak-f[1600] permutation from nettle (`sha3_permute`)
/// with Keccak's original padding. SHA3-256 differs only in its padding byte (0x06, where
/// Keccak has 0x01), so nettle's `sha3_256` gives other digests and cannot be used as is.
package enum Keccak256 {
    /// 1600 bits of state less a capacity of 512: the bytes absorbed per permutation.
    private static let rate = 136

    /// The 32-byte digest of `bytes`.
    package static func hash<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var state = sha3_state()
        var offset = 0
        // The state is 25 little-endian 64-bit lanes; a byte goes into its lane by XOR.
        func absorb(_ byte: UInt8, at position: Int) {
            withUnsafeMutableBytes(of: &state.a) { lanes in
                let lane = position / 8, shift = UInt64(position % 8) * 8
                var word = lanes.load(fromByteOffset: lane * 8, as: UInt64.self)
                word ^= UInt64(byte) << shift
                lanes.storeBytes(of: word, toByteOffset: lane * 8, as: UInt64.self)
            }
        }
        for byte in bytes {
            absorb(byte, at: offset)
            offset += 1
            if offset == rate {
                nettle_sha3_permute(&state)
                offset = 0
            }
        }
        // Padding pad10*1 with Keccak's domain bit: 0x01 first, 0x80 in the rate's last byte
        // (both in one byte, 0x81, when only one is left).
        absorb(0x01, at: offset)
        absorb(0x80, at: rate - 1)
        nettle_sha3_permute(&state)
        var digest = [UInt8](repeating: 0, count: 32)
        withUnsafeBytes(of: &state.a) { lanes in
            for index in 0..<32 {
                digest[index] = UInt8(
                    truncatingIfNeeded: lanes.load(fromByteOffset: index / 8 * 8, as: UInt64.self)
                        >> (UInt64(index % 8) * 8))
            }
        }
        return digest
    }
}
