/// Base58 with the Bitcoin alphabet, which Solana uses to write addresses.
///
/// Decoding is quadratic in the length, as any change of base done digit by digit: every caller
/// gives the most bytes it takes, and longer text is refused before any work.
package enum Base58 {
    private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    private static let indexes: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = Int8(index) }
        return table
    }()

    /// The base58 text of `bytes`; each leading zero byte becomes a leading `1`.
    package static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        // log(256) / log(58) ≈ 1.37 digits per byte.
        var digits = [UInt8](repeating: 0, count: (bytes.count - zeros) * 138 / 100 + 1)
        var length = 0
        for byte in bytes[zeros...] {
            var carry = Int(byte)
            var index = 0
            while carry != 0 || index < length {
                carry += 256 * Int(digits[index])
                digits[index] = UInt8(carry % 58)
                carry /= 58
                index += 1
            }
            length = index
        }
        var out = [UInt8](repeating: alphabet[0], count: zeros)
        out.reserveCapacity(zeros + length)
        for index in stride(from: length - 1, through: 0, by: -1) { out.append(alphabet[Int(digits[index])]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The most characters that can encode `count` bytes: a leading zero byte is one `1`, and
    /// the rest takes log(256) / log(58) < 1.366 characters a byte.
    package static func maxCharacters(forBytes count: Int) -> Int {
        count / 1000 * 1366 + (count % 1000) * 1366 / 1000 + 1
    }

    /// The bytes `text` encodes, or nil when it holds a character outside the alphabet or
    /// encodes more than `maxBytes` bytes. Text too long for `maxBytes` is refused by its
    /// length, before any work: base58 is a change of base, whose cost grows with the square
    /// of the length, so the length must be bounded first (a 2 MB string would take minutes).
    package static func decode(_ text: String, maxBytes: Int) -> [UInt8]? {
        guard text.utf8.count <= maxCharacters(forBytes: maxBytes) else { return nil }
        var text = text
        return text.withUTF8 { decode($0, maxBytes: maxBytes) }
    }

    /// Five characters at a time into 32-bit limbs (58^5 < 2^30), least significant first:
    /// about 40 times fewer steps than a byte per character, so that the longest message a
    /// session may sign (`SolanaMethod.maxMessageBytes`) decodes in milliseconds.
    private static func decode(_ characters: UnsafeBufferPointer<UInt8>, maxBytes: Int) -> [UInt8]? {
        let ones = characters.prefix { $0 == alphabet[0] }.count
        var limbs = [UInt32](repeating: 0, count: ((characters.count - ones) * 733 / 1000 + 1) / 4 + 2)
        var used = 0
        var index = ones
        let valid = indexes.withUnsafeBufferPointer { indexes in
            limbs.withUnsafeMutableBufferPointer { limbs -> Bool in
                while index < characters.count {
                    var chunk: UInt64 = 0
                    var multiplier: UInt64 = 1
                    let end = min(index + 5, characters.count)
                    while index < end {
                        let character = characters[index]
                        guard character < 128, indexes[Int(character)] >= 0 else { return false }
                        chunk = chunk * 58 + UInt64(indexes[Int(character)])
                        multiplier *= 58
                        index += 1
                    }
                    var carry = chunk
                    for limb in 0..<used {
                        let value = UInt64(limbs[limb]) * multiplier + carry
                        limbs[limb] = UInt32(truncatingIfNeeded: value)
                        carry = value >> 32
                    }
                    while carry != 0 {
                        limbs[used] = UInt32(truncatingIfNeeded: carry)
                        carry >>= 32
                        used += 1
                    }
                }
                return true
            }
        }
        guard valid else { return nil }
        var bytes = [UInt8](repeating: 0, count: ones)
        bytes.reserveCapacity(ones + used * 4)
        var significant = false
        for limb in limbs[0..<used].reversed() {
            for shift in stride(from: 24, through: 0, by: -8) {
                let byte = UInt8(truncatingIfNeeded: limb >> UInt32(shift))
                if significant || byte != 0 {
                    significant = true
                    bytes.append(byte)
                }
            }
        }
        return bytes.count <= maxBytes ? bytes : nil
    }

    /// A base58 address as every dialog and list shortens it: `7xKX…3fGh` (an Ethereum
    /// address is `EthereumAddress.short`, `0x5aAe…eAed`).
    package static func short(_ text: String) -> String {
        text.count <= 12 ? text : "\(text.prefix(4))…\(text.suffix(4))"
    }
}
