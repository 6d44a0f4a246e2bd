/// A JSON value as it came off the wire.
///
/// Numbers keep their exact lexeme so that an `id` of `1`, `1.0`, `1.5` or a 40-digit integer
/// is echoed byte for byte, as JSON-RPC requires; converting through `Double` would not.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

/// A JSON number, stored as the literal text it was written with (already validated).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    public let literal: String

    /// Creates a number from a literal that the caller guarantees is valid JSON number syntax.
    init(validatedLiteral: String) { self.literal = validatedLiteral }

    public init(_ value: Int) { self.literal = String(value) }

    /// A number written exactly as `literal`, such as `"1.50"`, `"1e400"` or a 40-digit integer,
    /// which no Swift number type holds; nil unless `literal` is one JSON number and nothing else.
    public init?(_ literal: String) {
        guard case .number(let number)? = try? JSONParser.parse(Array(literal.utf8)),
            number.literal.utf8.count == literal.utf8.count
        else {
            return nil
        }
        self = number
    }

    public var description: String { literal }
}

extension JSONValue {
    /// The name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Serialises the value as compact JSON (object keys sorted, so output is deterministic).
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        JSONWriter.write(self, into: &out)
        return out
    }

    /// The compact JSON text (`jsonBytes`), for messages.
    public var compactText: String { String(decoding: jsonBytes, as: UTF8.self) }

    // The value as one type, or nil: for reading documents (fixture files, OpenRPC) whose shape
    // is checked as they are read.
    public var stringValue: String? { if case .string(let string) = self { string } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let elements) = self { elements } else { nil } }
    public var objectValue: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
    public var boolValue: Bool? { if case .bool(let flag) = self { flag } else { nil } }
    /// A number that is an `Int` exactly (`5`, `5.0`, `5e0`), or nil.
    public var intValue: Int? {
        guard case .number(let number) = self else { return nil }
        if let integer = Int(number.literal) { return integer }
        guard let double = Double(number.literal), double.rounded() == double, abs(double) < 0x1p62 else { return nil }
        return Int(double)
    }
}

// Literals, so a handler can write `RPCError(.notSigned, data: ["reason": "declined"])` or
// return `["ok": true, "ratio": 1.5, "tags": ["a", "b"], "next": .null]`. There is no `nil`
// literal, on purpose: with one, `flag ? nil : value` would silently mean JSON null where a
// `JSONValue?` wants "no value" (the standard library advises against `nil` literals on
// non-Optional types for this reason). JSON null is `.null`.
extension JSONValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByStringInterpolation,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A float literal, written as the shortest decimal of the `Double` it makes (`1.50` is
    /// written `1.5`). For an exact spelling, or a number no `Double` holds, use
    /// `.number(JSONNumber("1e400")!)`.
    public init(floatLiteral value: Double) {
        precondition(value.isFinite, "JSON has no number for \(value)")
        self = .number(JSONNumber(validatedLiteral: value.description))
    }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A key written twice is a programmer error and traps, as it does in a `Dictionary`
    /// literal (the parser refuses duplicate keys on the wire for the same reason).
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(
            Dictionary(
                members, uniquingKeysWith: { _, _ in preconditionFailure("a key appears twice in a JSONValue literal") }
            ))
    }
}
