import WalletBridgeKeys
/// Ethereum's Recursive Length Prefix encoding (the Yellow Paper's appendix B), read strictly:
/// only the one canonical encoding of each value is taken, so that the bytes a person is shown
/// a summary of and the bytes that are signed cannot differ in how a second reader parses them.
///
/// Refused: a length written with more bytes than it needs (a leading zero byte, or the long
/// form for fewer than 56 bytes), one byte below 0x80 wrapped as a one-byte string, a length
/// beyond the input, bytes after the item, and nesting deeper than the caller allows.
enum RLP {
    indirect enum Item: Equatable, Sendable {
        case bytes([UInt8])
        case list([Item])
    }

    /// The encoding of `item`.
    static func encode(_ item: Item) -> [UInt8] {
        var out: [UInt8] = []
        encode(item, into: &out)
        return out
    }

    private static func encode(_ item: Item, into out: inout [UInt8]) {
        switch item {
        case .bytes(let bytes):
            if bytes.count == 1, bytes[0] < 0x80 {
                out.append(bytes[0])
            } else {
                appendHeader(count: bytes.count, shortBase: 0x80, into: &out)
                out += bytes
            }
        case .list(let items):
            var payload: [UInt8] = []
            for item in items { encode(item, into: &payload) }
            appendHeader(count: payload.count, shortBase: 0xC0, into: &out)
            out += payload
        }
    }

    private static func appendHeader(count: Int, shortBase: UInt8, into out: inout [UInt8]) {
        if count < 56 {
            out.append(shortBase + UInt8(count))
        } else {
            let length = minimalBigEndian(UInt64(count))
            out.append(shortBase + 55 + UInt8(length.count))
            out += length
        }
    }

    /// `value` big-endian without leading zero bytes: empty for zero, as RLP writes integers.
    static func minimalBigEndian(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        while rest != 0 {
            bytes.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        }
        return bytes
    }

    /// The one item that is the whole of `bytes`, nested at most `maxDepth` lists deep (the
    /// outermost list is depth 1). Each item takes at least one byte, so the work is bounded by
    /// the input's size; the depth bound keeps the recursion's stack small.
    static func decode(_ bytes: [UInt8], maxDepth: Int) throws(TransactionError) -> Item {
        var offset = 0
        let item = try decodeItem(bytes, at: &offset, end: bytes.count, depth: 0, maxDepth: maxDepth)
        guard offset == bytes.count else {
            throw malformed(
                "\(bytes.count - offset) bytes follow the end of the transaction's RLP item (trailing bytes)")
        }
        return item
    }

    private static func decodeItem(
        _ bytes: [UInt8], at offset: inout Int, end: Int, depth: Int, maxDepth: Int
    ) throws(TransactionError) -> Item {
        guard offset < end else { throw malformed("truncated: an RLP item was expected at byte \(offset)") }
        let start = offset
        let prefix = bytes[offset]
        offset += 1
        switch prefix {
        case 0x00...0x7F:
            return .bytes([prefix])
        case 0x80...0xBF:
            let count = try length(bytes, prefix: prefix, shortBase: 0x80, at: &offset, end: end, start: start)
            let payload = Array(bytes[offset..<offset + count])
            if count == 1, payload[0] < 0x80 {
                throw malformed(
                    "non-canonical RLP at byte \(start): the single byte 0x\(Hex.encode(payload)) is written as a string"
                )
            }
            offset += count
            return .bytes(payload)
        default:
            guard depth < maxDepth else {
                throw malformed("RLP lists nested deeper than a transaction has (at byte \(start))")
            }
            let count = try length(bytes, prefix: prefix, shortBase: 0xC0, at: &offset, end: end, start: start)
            let listEnd = offset + count
            var items: [Item] = []
            while offset < listEnd {
                items.append(try decodeItem(bytes, at: &offset, end: listEnd, depth: depth + 1, maxDepth: maxDepth))
            }
            return .list(items)
        }
    }

    /// The payload length a header gives, checked to be minimal and within `end`.
    private static func length(
        _ bytes: [UInt8], prefix: UInt8, shortBase: UInt8, at offset: inout Int, end: Int, start: Int
    ) throws(TransactionError) -> Int {
        let count: Int
        if prefix <= shortBase + 55 {
            count = Int(prefix - shortBase)
        } else {
            let lengthBytes = Int(prefix - shortBase - 55)
            guard end - offset >= lengthBytes else {
                throw malformed("truncated: the RLP length at byte \(start) runs past the end")
            }
            guard bytes[offset] != 0 else {
                throw malformed("non-canonical RLP at byte \(start): its length has a leading zero byte")
            }
            var value = 0
            for index in 0..<lengthBytes {
                // A length past the input is refused below; stop before it could overflow.
                guard value <= Int.max >> 8 else {
                    throw malformed("the RLP length at byte \(start) is beyond the input")
                }
                value = value << 8 | Int(bytes[offset + index])
            }
            offset += lengthBytes
            guard value >= 56 else {
                throw malformed(
                    "non-canonical RLP at byte \(start): a length of \(value) is written in the long form, which starts at 56"
                )
            }
            count = value
        }
        guard count <= end - offset else {
            throw malformed("truncated: the RLP item at byte \(start) declares \(count) bytes, beyond the input")
        }
        return count
    }

    private static func malformed(_ problem: String) -> TransactionError {
        TransactionError(field: "", problem: problem)
    }
}
