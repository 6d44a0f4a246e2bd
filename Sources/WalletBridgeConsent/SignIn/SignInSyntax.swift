#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeKeys

/// The parts of RFC 3986 (URI, authority) and RFC 3339 (date-time) that EIP-4361's grammar
/// uses, checked on UTF-8 bytes: every rule there is ASCII, so a non-ASCII letter (which
/// `Character.isLetter` would take) is never part of one.
package enum SignInSyntax {
    static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
    static func isHexDigit(_ byte: UInt8) -> Bool {
        CAIPSyntax.isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }

    /// RFC 3986 `unreserved`: ALPHA / DIGIT / "-" / "." / "_" / "~".
    static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || CAIPSyntax.isDigit(byte) || "-._~".utf8.contains(byte)
    }

    /// RFC 3986 `sub-delims`.
    static func isSubDelim(_ byte: UInt8) -> Bool { "!$&'()*+,;=".utf8.contains(byte) }

    /// RFC 3986 `reserved`: `gen-delims` and `sub-delims`.
    static func isReserved(_ byte: UInt8) -> Bool { ":/?#[]@".utf8.contains(byte) || isSubDelim(byte) }

    /// RFC 3986 `pchar` without its `pct-encoded`, which `isEncoded` reads.
    static func isPathByte(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || isSubDelim(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
    }

    /// Every byte is `allowed`, or starts a `pct-encoded` ("%" HEXDIG HEXDIG).
    static func isEncoded(_ bytes: ArraySlice<UInt8>, _ allowed: (UInt8) -> Bool) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
            } else {
                guard allowed(byte) else { return false }
                index += 1
            }
        }
        return true
    }

    /// RFC 3986 `scheme`: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, isAlpha(first) else { return false }
        return bytes.dropFirst().allSatisfy { isAlpha($0) || CAIPSyntax.isDigit($0) || "+-.".utf8.contains($0) }
    }

    /// RFC 3986 `authority`: [ userinfo "@" ] host [ ":" port ].
    package static func isAuthority(_ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        if let at = rest.firstIndex(of: UInt8(ascii: "@")) {
            guard isEncoded(rest[..<at], { isUnreserved($0) || isSubDelim($0) || $0 == UInt8(ascii: ":") }) else {
                return false
            }
            rest = rest[(at + 1)...]
        }
        let port: ArraySlice<UInt8>
        if rest.first == UInt8(ascii: "[") {
            // IP-literal: "[" ( IPv6address / IPvFuture ) "]".
            guard let close = rest.firstIndex(of: UInt8(ascii: "]")), isIPLiteral(rest[(rest.startIndex + 1)..<close])
            else {
                return false
            }
            let after = rest[(close + 1)...]
            guard after.isEmpty || after.first == UInt8(ascii: ":") else { return false }
            port = after.dropFirst()
        } else {
            // reg-name (IPv4address is one too): no ":" in it, so the first one starts the port.
            let colon = rest.firstIndex(of: UInt8(ascii: ":")) ?? rest.endIndex
            guard isEncoded(rest[..<colon], { isUnreserved($0) || isSubDelim($0) }) else { return false }
            port = rest[colon...].dropFirst()
        }
        return port.allSatisfy(CAIPSyntax.isDigit)
    }

    /// IPv6address (checked by `inet_pton`) or IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" ).
    private static func isIPLiteral(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.first == UInt8(ascii: "v") || bytes.first == UInt8(ascii: "V") {
            let body = bytes.dropFirst()
            guard let dot = body.firstIndex(of: UInt8(ascii: ".")), dot > body.startIndex,
                body[..<dot].allSatisfy(isHexDigit), dot + 1 < body.endIndex
            else { return false }
            return body[(dot + 1)...].allSatisfy { isUnreserved($0) || isSubDelim($0) || $0 == UInt8(ascii: ":") }
        }
        // An IPv6 address is at most 45 characters; anything longer is not one, unread.
        guard bytes.count <= 45,
            bytes.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
        else {
            return false
        }
        var address = in6_addr()
        return inet_pton(AF_INET6, String(decoding: bytes, as: UTF8.self), &address) == 1
    }

    /// RFC 3986 `URI`: scheme ":" hier-part [ "?" query ] [ "#" fragment ].
    package static func isURI(_ text: some StringProtocol) -> Bool {
        let bytes = ArraySlice(Array(text.utf8))
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), isScheme(bytes[..<colon]) else { return false }
        var rest = bytes[(colon + 1)...]
        let queryOrFragment: (UInt8) -> Bool = { isPathByte($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard isEncoded(rest[(hash + 1)...], queryOrFragment) else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard isEncoded(rest[(question + 1)...], queryOrFragment) else { return false }
            rest = rest[..<question]
        }
        // hier-part: "//" authority path-abempty, or a path (absolute, rootless or empty): in
        // each the path is segments of pchar between slashes.
        if rest.starts(with: "//".utf8) {
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard isAuthority(rest[..<slash]) else { return false }
            rest = rest[slash...]
        }
        return isEncoded(rest) { isPathByte($0) || $0 == UInt8(ascii: "/") }
    }

    /// RFC 3339 `date-time`: full-date "T" full-time, with every field in its range (a day
    /// that its month has, a leap second's 60). "T" and "Z" in either case, as ABNF's strings are.
    static func isDateTime(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count, bytes[start..<(start + count)].allSatisfy(CAIPSyntax.isDigit) else {
                return nil
            }
            return bytes[start..<(start + count)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        guard let year = number(0, 4), byte(4) == UInt8(ascii: "-"), let month = number(5, 2),
            byte(7) == UInt8(ascii: "-"),
            let day = number(8, 2), byte(10).map({ $0 | 0x20 }) == UInt8(ascii: "t"),
            let hour = number(11, 2), byte(13) == UInt8(ascii: ":"), let minute = number(14, 2),
            byte(16) == UInt8(ascii: ":"),
            let second = number(17, 2)
        else { return false }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour <= 23, minute <= 59,
            second <= 60
        else { return false }
        var index = 19
        if byte(index) == UInt8(ascii: ".") {
            index += 1
            let start = index
            while let next = byte(index), CAIPSyntax.isDigit(next) { index += 1 }
            guard index > start else { return false }
        }
        if byte(index).map({ $0 | 0x20 }) == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-"),
            let offsetHour = number(index + 1, 2),
            byte(index + 3) == UInt8(ascii: ":"), let offsetMinute = number(index + 4, 2)
        else { return false }
        return offsetHour <= 23 && offsetMinute <= 59 && index + 6 == bytes.count
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
