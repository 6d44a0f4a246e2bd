/// Lets `JSONValue` sit inside any `Codable` type. The host's params decoder and result encoder
/// take a `JSONValue` as parsed, number lexemes included, even when a hand-written `encode(to:)`
/// passes it the encoder itself. Other coders (Foundation's) only know Swift's number types:
/// a number is encoded as the `Int64`, `UInt64` or `Double` that holds it exactly, and encoding
/// throws for one that none holds (`1e400`, a 40-digit integer), rather than writing another.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: DynamicKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? single.decode(Int64.self) {
            self = .number(JSONNumber(validatedLiteral: String(integer)))
        } else if let double = try? single.decode(Double.self) {
            self = .number(JSONNumber(validatedLiteral: "\(double)"))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if let raw = encoder as? any RawJSONEncoder {
            raw.encodeRawJSON(jsonBytes)
            return
        }
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .number(let number):
            var single = encoder.singleValueContainer()
            try number.encode(to: &single)
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .object(let members):
            var object = encoder.container(keyedBy: DynamicKey.self)
            for (key, value) in members { try object.encode(value, forKey: DynamicKey(stringValue: key)) }
        }
    }

    private struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// An encoder that can take already-serialised JSON as the value being encoded: how the host's
/// result encoder keeps a `JSONValue`'s number lexemes when `encode(to:)` is called directly.
protocol RawJSONEncoder: Encoder {
    func encodeRawJSON(_ bytes: [UInt8])
}

extension JSONNumber {
    /// Encodes the number as the first of `Int64`, `UInt64` and `Double` that holds it exactly,
    /// or throws. "Exactly" for a `Double` means the number is the shortest decimal of that
    /// double (`0.1`, `1.50`, `1e2`), so any encoder writes it back as the same number; `1e400`
    /// (infinite), `1e-400` (zero) and `0.30000000000000001` (written as `0.3`) are refused.
    func encode(to container: inout any SingleValueEncodingContainer) throws {
        if let integer = Int64(literal) { return try container.encode(integer) }
        if let integer = UInt64(literal) { return try container.encode(integer) }
        if let double = Double(literal), double.isFinite,
            let wanted = Self.canonical(literal.utf8), let held = Self.canonical(double.description.utf8),
            wanted == held
        {
            return try container.encode(double)
        }
        let shown = literal.utf8.count > 40 ? "a \(literal.utf8.count)-character number" : literal
        throw EncodingError.invalidValue(
            literal,
            .init(
                codingPath: container.codingPath,
                debugDescription:
                    "\(shown) is not exactly any Int64, UInt64 or Double, the only numbers this encoder can write"))
    }

    /// A decimal number reduced to sign, significant digits and exponent, so that `1.50`,
    /// `1.5` and `15e-1` compare equal. Zero is one value whatever its sign. Nil for an exponent
    /// that does not fit an `Int` (no `Double` is that far from 1 anyway).
    static func canonical(_ text: String.UTF8View) -> Canonical? {
        var negative = false
        var digits: [UInt8] = []
        var exponent = 0
        var index = text.startIndex
        if index < text.endIndex, text[index] == UInt8(ascii: "-") { negative = true; text.formIndex(after: &index) }
        var inFraction = false
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if byte != UInt8(ascii: "0") || !digits.isEmpty { digits.append(byte) }  // no leading zeros
                if inFraction { exponent -= 1 }
            } else {
                break
            }
            text.formIndex(after: &index)
        }
        if index < text.endIndex {  // e or E, an optional sign, digits
            text.formIndex(after: &index)
            var exponentNegative = false
            if index < text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                text.formIndex(after: &index)
            }
            var written = 0
            while index < text.endIndex {
                let (times10, overflow1) = written.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(text[index] - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                written = sum
                text.formIndex(after: &index)
            }
            let (total, overflow) = exponent.addingReportingOverflow(exponentNegative ? -written : written)
            guard !overflow else { return nil }
            exponent = total
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast(); exponent += 1 }  // trailing zeros
        if digits.isEmpty { return Canonical(negative: false, digits: [], exponent: 0) }
        return Canonical(negative: negative, digits: digits, exponent: exponent)
    }

    struct Canonical: Equatable {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
    }
}
