/// Finds the bytes a JSON string cannot hold as they are (`"`, `\` and controls below 0x20)
/// eight bytes at a time. Request strings are long runs of plain bytes (a SignPayloads request
/// is megabytes of base64), and looking at them one byte at a time was most of the parser's
/// and writer's cost on large messages.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first `"`, `\` or byte below 0x20 at or after `start`, or `bytes.count`.
    @inline(__always)
    static func firstSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // Nonzero when some byte is below 0x20, or is 0x22 or 0x5C: the classic
                // "has a byte less than n" test, on the word and on the word xor'ed with each.
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let below = (word &- ones &* 0x20) & ~word
                let isQuote = (quote &- ones) & ~quote
                let isBackslash = (backslash &- ones) & ~backslash
                if (below | isQuote | isBackslash) & highs != 0 { break }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    /// True when no byte has its high bit set: ASCII, which is valid UTF-8 as it is.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var seen: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                seen |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                index += 8
            }
        }
        while index < bytes.count {
            seen |= UInt64(bytes[index])
            index += 1
        }
        return seen & highs == 0
    }
}
