/// Why a byte sequence is not acceptable JSON, with the byte offset where that was found.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public let offset: Int
    public var description: String { "\(reason) at byte \(offset)" }
}

/// A strict RFC 8259 parser for request bodies.
///
/// Hand-written rather than Foundation's because the host needs three things Foundation does not
/// give: number lexemes kept exactly (for `id` echo), a nesting limit that turns hostile depth
/// into an error instead of a stack overflow, and rejection of duplicate object keys, on which
/// JavaScript (last wins) and other parsers disagree. A UTF-8 byte-order mark is rejected too:
/// RFC 8259 forbids senders to add one and browsers never do.
public struct JSONParser {
    public static let defaultMaxDepth = 128

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maxDepth: Int
    private var position = 0

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses exactly one JSON value, surrounded by optional whitespace.
    public static func parse(_ input: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = input.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
            do throws(JSONParseError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a request body: exactly what `parse` accepts, but request objects (the document,
    /// or a batch's elements) come back as an `Envelope` instead of a dictionary. Hashing every
    /// key into a `Dictionary` only to look four of them up again was a noticeable part of the
    /// cost of a small request.
    package static func parseRequestDocument(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth)
        throws(JSONParseError) -> RequestDocument
    {
        var parser = JSONParser(bytes: input, maxDepth: maxDepth)
        try parser.skipByteOrderMarkAndWhitespace()
        let document: RequestDocument
        if parser.peek == UInt8(ascii: "[") {
            document = .batch(try parser.parseRequestArray())
        } else {
            document = .single(try parser.parseRequestElement(depth: 0))
        }
        try parser.expectEnd()
        return document
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        try skipByteOrderMarkAndWhitespace()
        let value = try parseValue(depth: 0)
        try expectEnd()
        return value
    }

    private mutating func skipByteOrderMarkAndWhitespace() throws(JSONParseError) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail("a UTF-8 byte-order mark is not allowed")
        }
        skipWhitespace()
    }

    private mutating func expectEnd() throws(JSONParseError) {
        skipWhitespace()
        if position != bytes.count { throw fail("unexpected data after the JSON value") }
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// A batch: an array whose elements are read as request elements.
    private mutating func parseRequestArray() throws(JSONParseError) -> [RequestElement] {
        try parseElements(depth: 1) { parser throws(JSONParseError) in try parser.parseRequestElement(depth: 1) }
    }

    /// A value where a request belongs: an object is read into an `Envelope`, anything else is
    /// parsed as usual (and will be answered as an invalid request).
    private mutating func parseRequestElement(depth: Int) throws(JSONParseError) -> RequestElement {
        guard peek == UInt8(ascii: "{") else { return .other(try parseValue(depth: depth)) }
        return .object(try parseEnvelope(depth: depth + 1))
    }

    /// `parseObject` with JSON-RPC's four members kept in slots. Other members are checked
    /// exactly as `parseObject` checks them (syntax, UTF-8, duplicates, depth) and dropped: the
    /// specification gives them no meaning.
    private mutating func parseEnvelope(depth: Int) throws(JSONParseError) -> Envelope {
        var envelope = Envelope()
        var otherKeys: Set<String> = []
        try parseMembers(
            depth: depth, key: { parser throws(JSONParseError) in try parser.parseEnvelopeKey() }, name: \.name
        ) { member, value in
            switch member {
            case .jsonrpc: Self.fill(&envelope.jsonrpc, with: value)
            case .id: Self.fill(&envelope.id, with: value)
            case .method: Self.fill(&envelope.method, with: value)
            case .params: Self.fill(&envelope.params, with: value)
            case .other(let key): otherKeys.insert(key).inserted
            }
        }
        return envelope
    }

    /// Fills an empty slot; false if it was already filled (a duplicate key).
    private static func fill(_ slot: inout JSONValue?, with value: JSONValue) -> Bool {
        guard slot == nil else { return false }
        slot = value
        return true
    }

    /// Byte comparison with a literal (`elementsEqual` over a `UTF8View` is a far costlier call).
    private static func equal(_ raw: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard raw.count == literal.utf8CodeUnitCount else { return false }
        for index in 0..<raw.count where raw[index] != literal.utf8Start[index] { return false }
        return true
    }

    private enum EnvelopeKey {
        case jsonrpc, id, method, params
        case other(String)

        init(_ name: String) {
            switch name {
            case "jsonrpc": self = .jsonrpc
            case "id": self = .id
            case "method": self = .method
            case "params": self = .params
            default: self = .other(name)
            }
        }

        var name: String {
            switch self {
            case .jsonrpc: "jsonrpc"
            case .id: "id"
            case .method: "method"
            case .params: "params"
            case .other(let name): name
            }
        }
    }

    /// Reads a member name, matching the four JSON-RPC names on the raw bytes when the name has
    /// no escapes (always, in practice) and making a `String` only for other names.
    private mutating func parseEnvelopeKey() throws(JSONParseError) -> EnvelopeKey {
        let start = position + 1
        let end = ByteScan.firstSpecial(in: bytes, from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else {
            return EnvelopeKey(try parseString())  // escapes, controls or no end: the full path
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let known: EnvelopeKey? =
            if Self.equal(raw, "method") { .method } else if Self.equal(raw, "id") {
                .id
            } else if Self.equal(raw, "jsonrpc") { .jsonrpc } else if Self.equal(raw, "params") { .params } else { nil }
        if let known {
            position = end + 1
            return known
        }
        return .other(try parseString())
    }

    private func fail(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { throw fail("unexpected end of input") }
        for index in 0..<count where bytes[position + index] != literal.utf8Start[index] {
            throw fail("invalid literal")
        }
        position += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        var members: [String: JSONValue] = [:]
        try parseMembers(depth: depth, key: { parser throws(JSONParseError) in try parser.parseString() }, name: { $0 })
        { key, value in
            members.updateValue(value, forKey: key) == nil
        }
        return .object(members)
    }

    /// Reads the members of the object that starts here (`depth` is the object's own): each key
    /// with `readKey`, then its value, handed to `add`, which returns false for a key it already
    /// has (`name` spells the key for the error). This and the container helpers are inlined:
    /// as calls, with their closures, they added measurably to a small request.
    @inline(__always)
    private mutating func parseMembers<Key>(
        depth: Int,
        key readKey: (inout JSONParser) throws(JSONParseError) -> Key,
        name: (Key) -> String,
        add: (Key, JSONValue) -> Bool
    ) throws(JSONParseError) {
        if try enterContainer(depth: depth, closing: UInt8(ascii: "}")) { return }
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let keyOffset = position
            let key = try readKey(&self)
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw fail("expected ':'") }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            guard add(key, value) else {
                throw JSONParseError(reason: "duplicate key \"\(name(key).prefix(64))\"", offset: keyOffset)
            }
            if try leaveContainer(closing: UInt8(ascii: "}")) { return }
        }
    }

    /// Steps into a container at its opening bracket. True when it is empty: its closing
    /// bracket is consumed too.
    @inline(__always)
    private mutating func enterContainer(depth: Int, closing: UInt8) throws(JSONParseError) -> Bool {
        if depth > maxDepth { throw fail("nesting deeper than \(maxDepth) levels") }
        position += 1
        skipWhitespace()
        guard peek == closing else { return false }
        position += 1
        return true
    }

    /// After an element or a member: true at the container's closing bracket (consumed), false
    /// after a comma.
    @inline(__always)
    private mutating func leaveContainer(closing: UInt8) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: ","): position += 1; return false
        case closing: position += 1; return true
        default: throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        .array(try parseElements(depth: depth) { parser throws(JSONParseError) in try parser.parseValue(depth: depth) })
    }

    /// The elements of the array that starts here (`depth` is the array's own), each read by
    /// `element`.
    @inline(__always)
    private mutating func parseElements<Element>(
        depth: Int, _ element: (inout JSONParser) throws(JSONParseError) -> Element
    ) throws(JSONParseError) -> [Element] {
        var elements: [Element] = []
        if try enterContainer(depth: depth, closing: UInt8(ascii: "]")) { return elements }
        while true {
            skipWhitespace()
            elements.append(try element(&self))
            if try leaveContainer(closing: UInt8(ascii: "]")) { return elements }
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("invalid number: digit expected after '.'")
            }
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw fail("invalid number: digit expected in exponent")
            }
            skipDigits()
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return JSONNumber(validatedLiteral: literal)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1  // opening quote
        let start = position
        // Fast path: no escapes. Structural bytes are ASCII, so only string contents can hold
        // non-ASCII bytes, and they are validated here.
        position = ByteScan.firstSpecial(in: bytes, from: position)
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let string = try makeString(start..<position)
                position += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("unescaped control character in string") }
            position += 1
        }
        guard position < bytes.count else { throw fail("unterminated string") }
        var decoded = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: decoded, as: UTF8.self) else {
                    throw JSONParseError(reason: "invalid UTF-8 in string", offset: start)
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                try appendEscape(into: &decoded)
            case 0..<0x20:
                throw fail("unescaped control character in string")
            default:
                let next = ByteScan.firstSpecial(in: bytes, from: position)
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<next]))
                position = next
            }
        }
        throw fail("unterminated string")
    }

    private func makeString(_ range: Range<Int>) throws(JSONParseError) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        // Nearly every string on the wire is ASCII (names, base64): it needs no validation, and
        // `String(validating:)` is a generic, unspecialised call, which was the parser's largest
        // cost per string.
        if ByteScan.isASCII(slice) { return String(decoding: slice, as: UTF8.self) }
        guard let string = String(validating: slice, as: UTF8.self) else {
            throw JSONParseError(reason: "invalid UTF-8 in string", offset: range.lowerBound)
        }
        return string
    }

    private mutating func appendEscape(into decoded: inout [UInt8]) throws(JSONParseError) {
        guard position < bytes.count else { throw fail("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): decoded.append(0x22)
        case UInt8(ascii: "\\"): decoded.append(0x5C)
        case UInt8(ascii: "/"): decoded.append(0x2F)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw fail("unpaired UTF-16 surrogate")
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired UTF-16 surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw fail("unpaired UTF-16 surrogate")
            }
            decoded.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
        default:
            throw fail("invalid escape")
        }
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw fail("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}

/// A request body as `JSONParser.parseRequestDocument` reads it.
package enum RequestDocument {
    case single(RequestElement)
    case batch([RequestElement])
}

/// One request, or one entry of a batch.
package enum RequestElement {
    /// An object: its JSON-RPC members.
    case object(Envelope)
    /// Anything else, which is not a request.
    case other(JSONValue)
}

/// The members of a request object that JSON-RPC 2.0 defines; nil when absent.
package struct Envelope {
    var jsonrpc: JSONValue?
    var id: JSONValue?
    var method: JSONValue?
    var params: JSONValue?
}
