/// Base58 with the Bitcoin alphabet, which Solana uses to write addresses.
///
/// Quadratic in the input length, which is fine for 32-byte keys; not for bulk data.
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

    /// The bytes `text` encodes, or nil when it holds a character outside the alphabet.
    package static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        let ones = characters.prefix { $0 == alphabet[0] }.count
        var bytes = [UInt8](repeating: 0, count: (characters.count - ones) * 733 / 1000 + 1)
        var length = 0
        for character in characters[ones...] {
            guard character < 128, indexes[Int(character)] >= 0 else { return nil }
            var carry = Int(indexes[Int(character)])
            var index = 0
            while carry != 0 || index < length {
                carry += 58 * Int(bytes[index])
                bytes[index] = UInt8(carry & 0xFF)
                carry >>= 8
                index += 1
            }
            length = index
        }
        return [UInt8](repeating: 0, count: ones) + bytes[0..<length].reversed()
    }
}
