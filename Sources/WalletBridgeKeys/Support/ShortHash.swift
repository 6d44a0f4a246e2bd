/// FNV-1a (64 bits) of `parts` joined by NUL bytes, as 16 hex digits: for names of files and
/// sockets, never for a secret. Not a cryptographic hash, which would cost a cold call
/// libsodium's start-up; each user of a name also checks what it names (the agent's hello names
/// its keystore, a kept answer holds its whole key), so a collision is an error or a miss, never
/// a mix-up.
package func shortHash(_ parts: String...) -> String { shortHash(parts) }

package func shortHash(_ parts: [String]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for (index, part) in parts.enumerated() {
        if index > 0 { hash = hash &* 0x0000_0100_0000_01b3 }  // the NUL between parts
        for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    }
    return String(unsafeUninitializedCapacity: 16) { out in
        Hex.write(hash, into: out, at: 0)
        return 16
    }
}
