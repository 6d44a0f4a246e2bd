import CSodium

/// Lowercase hex, by libsodium (`sodium_bin2hex`): public keys for `keys export-public`, payload
/// hashes for the consent dialog and the audit log. Not for secrets, which never become text.
package enum Hex {
    package static func encode(_ bytes: [UInt8]) -> String {
        Sodium.ensureInitialized()
        var text = [CChar](repeating: 0, count: bytes.count * 2 + 1)
        _ = sodium_bin2hex(&text, text.count, bytes, bytes.count)
        return String(decoding: text.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Hex {
    /// The bytes of an even number of hex digits (either case), or nil.
    package static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = digitValue(digits[index]), let low = digitValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// `0x` and the lowercase hex of `bytes`: how Ethereum's JSON-RPC writes data.
    package static func prefixed(_ bytes: [UInt8]) -> String { "0x" + encode(bytes) }

    /// The value of one hex digit (either case), or nil.
    package static func digitValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Hex {
    /// `value` as 16 lowercase hex digits at `offset` in `out`: for names and stamps on a cold
    /// start, where `String(_:radix:)` is a generic call far costlier than this loop, and
    /// `encode` needs libsodium's start-up.
    package static func write(_ value: UInt64, into out: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        for index in 0..<16 {
            let digit = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
            out[offset + index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
        }
    }
}
