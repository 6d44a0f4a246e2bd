#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeProtocol
import WalletBridgeKeys

/// The site a session is for: a web origin as the browser serializes it (`https://app.example.com`,
/// `http://127.0.0.1:8123`), which the extension passes from what the browser told it about
/// the page (`sender.origin`), never from what the page says (docs/sessions.md, "Sessions per
/// site").
///
/// Only the serialized form is taken, so that one site has one spelling and two sessions of it
/// are found by comparing strings: `http` or `https`, a lowercase ASCII host (a name, punycode
/// included, an IPv4 address in dotted decimal, or an IPv6 address in brackets), a port only
/// when it is not the scheme's default, and nothing after it. Anything else is refused rather
/// than normalized: a browser never sends it, so it says the extension did not take it from one.
package enum SiteOrigin {
    /// The longest origin taken, in bytes.
    package static let maxBytes = 255

    /// What a refused origin's -32602 says.
    package static let problem = "expected a web origin such as https://app.example.com (scheme, host and port only)"

    /// The origin in the params member `field`: nil when absent or null (a session of the
    /// extension itself), else a valid origin, or -32602 naming `field`.
    package static func parse(_ value: JSONValue?, field: String = "origin") throws(RPCError) -> String? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let text)? where isValid(text):
            return text
        default:
            throw invalid(field)
        }
    }

    /// The -32602 for a member `field` that is not an origin.
    package static func invalid(_ field: String = "origin") -> RPCError {
        RPCError.invalidParams(field, problem)
    }

    /// True when `text` is a web origin as a browser serializes it (see the type).
    package static func isValid(_ text: String) -> Bool {
        split(text) != nil
    }

    /// The origin's host and port without the scheme (`app.example.com`, `127.0.0.1:8123`,
    /// `[::1]:8080`): what a sign-in's domain names. Nil when `origin` is not valid.
    package static func hostAndPort(of origin: String) -> String? {
        split(origin)?.authority
    }

    /// The scheme and the authority (`host[:port]`, as written) of a valid origin; nil for
    /// anything else.
    static func split(_ text: String) -> (scheme: String, authority: String)? {
        guard text.utf8.count <= maxBytes else { return nil }
        guard let scheme = ["https", "http"].first(where: { text.hasPrefix("\($0)://") }) else { return nil }
        let rest = text.dropFirst(scheme.count + 3)
        var host = rest
        var port: Substring?
        if rest.hasPrefix("[") {
            // An IPv6 address: the port, if any, follows the closing bracket.
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                port = after.dropFirst()
            }
            guard isIPv6(host.dropFirst().dropLast()) else { return nil }
        } else {
            if let colon = rest.firstIndex(of: ":") {
                host = rest[..<colon]
                port = rest[rest.index(after: colon)...]
            }
            guard isName(host) else { return nil }
        }
        if let port {
            // Digits only, no leading zero, at most 65535, and not the scheme's default: the
            // browser leaves that one out.
            guard (1...5).contains(port.utf8.count), port.utf8.allSatisfy(CAIPSyntax.isDigit), !port.hasPrefix("0"),
                let number = Int(port), number <= 65_535, number != (scheme == "https" ? 443 : 80)
            else {
                return nil
            }
        }
        return (scheme, String(rest))
    }

    /// A host name as the browser writes it: labels of lowercase letters, digits, `-` and `_`
    /// (punycode is such a label), 1 to 63 bytes each, 253 in all; a name whose last label is
    /// numeric is an IPv4 address, which must then be in dotted decimal as the browser writes
    /// it (`127.0.0.1`, never `0x7f.1` or `127.000.0.1`).
    private static func isName(_ host: Substring) -> Bool {
        guard (1...253).contains(host.utf8.count) else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.utf8.count),
                label.utf8.allSatisfy({ byte in
                    CAIPSyntax.isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                })
            else { return false }
        }
        guard let last = labels.last else { return false }
        // The URL standard reads a host whose last label is a number (decimal or 0x) as IPv4.
        let numeric = last.utf8.allSatisfy(CAIPSyntax.isDigit) || last.hasPrefix("0x")
        guard numeric else { return true }
        return labels.count == 4
            && labels.allSatisfy { part in
                part.utf8.allSatisfy(CAIPSyntax.isDigit) && (part == "0" || !part.hasPrefix("0"))
                    && (Int(part) ?? 256) <= 255
            }
    }

    /// An IPv6 address as the browser writes it: lowercase hex and `:` only (the URL standard
    /// writes even an IPv4 tail in hex), that `inet_pton` reads, in its shortest form (the
    /// longest run of zeros as `::`, no leading zeros: `[::1]`, never `[0:0:0:0:0:0:0:1]`),
    /// which is `inet_ntop`'s as it is the URL standard's (an IPv4-mapped address, which
    /// `inet_ntop` writes with a dotted tail, is refused: no site is served at one).
    private static func isIPv6(_ address: Substring) -> Bool {
        guard (2...39).contains(address.utf8.count),
            address.utf8.allSatisfy({ byte in
                CAIPSyntax.isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
                    || byte == UInt8(ascii: ":")
            })
        else { return false }
        var bytes = in6_addr()
        guard inet_pton(AF_INET6, String(address), &bytes) == 1 else { return false }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count)) != nil else { return false }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == address
    }
}
