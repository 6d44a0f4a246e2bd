#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a `Decodable` straight from a parsed `JSONValue`.
///
/// Used for params instead of re-serialising them for `JSONDecoder`, which is slower and, for a
/// number that does not fit the field (`1.5` or `1e400` for an `Int`), reports "The given data
/// was not valid JSON" with no field at all. Here every error names its coding path, numbers
/// are converted from their exact lexeme, and `Data` is read from base64 as `JSONDecoder` does.
public struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).decodeValue(type)
    }

    /// `decode` for a value that sits at `codingPath` inside a larger document (a request's
    /// params inside another request's params): what `init(from:)` sees as its `codingPath`, and
    /// every error, name the whole path.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at codingPath: [any CodingKey]) throws -> T
    {
        try ValueDecoder(value: value, codingPath: codingPath).decodeValue(type)
    }

    /// `decode` for a request's params as a whole, with two rules for array params that only
    /// make sense there (README, "Your own methods"):
    /// - `[]` where the type asks for an object reads as `{}`: clients send `params: []` for
    ///   "no params", so an object-shaped type accepts `[]` exactly when it accepts `{}`;
    /// - a non-empty array that the type never looked at (an empty `struct Params {}`, whose
    ///   synthesised `init(from:)` asks for nothing) is refused as "expected object", instead
    ///   of any array being silently accepted.
    /// Object params, the wallet methods' and the common case, take the plain path unchanged.
    package func decodeParams<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        guard case .array(let elements) = value else { return try decode(type, from: value) }
        let root = ParamsArrayDecoder(elements: elements)
        let result = try root.decodeValue(type)
        guard root.read || elements.isEmpty else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(codingPath: [], debugDescription: "expected an object, found a non-empty array"))
        }
        return result
    }
}

/// The decoder for array params as a whole: the plain decoder, plus the two rules of
/// `decodeParams`. A class, so that a type reaching it through a single-value container
/// (`Optional<Inner>`) marks the same `read`.
private final class ParamsArrayDecoder: Decoder {
    let elements: [JSONValue]
    /// Whether the type asked for the params' contents (as an array, an object or a value).
    var read = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(elements: [JSONValue]) { self.elements = elements }

    private var plain: ValueDecoder { ValueDecoder(value: .array(elements), codingPath: []) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        read = true
        if elements.isEmpty { return KeyedDecodingContainer(KeyedContainer(members: [:], codingPath: [])) }
        return try plain.container(keyedBy: type)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        read = true
        return try plain.unkeyedContainer()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { ParamsArrayContainer(root: self) }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self || T.self == Data.self || T.self == URL.self {
            read = true
            return try plain.decodeValue(type)
        }
        return try T(from: self)
    }
}

/// The single-value view of array params: no primitive is an array, so those fail as the
/// plain decoder fails; a `Decodable` (the `Inner` of `Optional<Inner>`) goes back to the root.
private struct ParamsArrayContainer: SingleValueDecodingContainer {
    let root: ParamsArrayDecoder
    var codingPath: [any CodingKey] { [] }
    private var plain: SingleContainer { SingleContainer(value: .array(root.elements), codingPath: []) }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try plain.decode(type) }
    func decode(_ type: String.Type) throws -> String { try plain.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try plain.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try plain.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try plain.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try plain.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try plain.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try plain.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try plain.decode(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try plain.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try plain.decode(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try plain.decode(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try plain.decode(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try plain.decode(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try root.decodeValue(type) }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) { intValue = index; stringValue = "[\(index)]" }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { return nil }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if value == .null {
            throw DecodingError.valueNotFound(
                [String: Any].self, .init(codingPath: codingPath, debugDescription: "found null"))
        }
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch(
                [String: Any].self,
                .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.typeName)"))
        }
        return KeyedDecodingContainer(KeyedContainer(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if value == .null {
            throw DecodingError.valueNotFound([Any].self, .init(codingPath: codingPath, debugDescription: "found null"))
        }
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch(
                [Any].self,
                .init(codingPath: codingPath, debugDescription: "expected an array, found \(value.typeName)"))
        }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleContainer(value: value, codingPath: codingPath)
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        if T.self == Data.self {
            let text = try SingleContainer(value: value, codingPath: codingPath).decode(String.self)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.paramsProblem("expected base64", at: codingPath)
            }
            return data as! T
        }
        if T.self == URL.self {
            let text = try SingleContainer(value: value, codingPath: codingPath).decode(String.self)
            guard let url = URL(string: text) else {
                throw DecodingError.paramsProblem("expected a URL", at: codingPath)
            }
            return url as! T
        }
        if let choices = type as? any (CaseIterable & RawRepresentable).Type {
            // The standard library's `init(from:)` of a raw-value enum says "Cannot initialize
            // Mode from invalid String value admin": its words, echoing the value. Ours list the
            // values the field takes, as its schema in rpc.discover does.
            do {
                return try T(from: self)
            } catch DecodingError.dataCorrupted(let context)
                where context.underlyingError == nil && context.codingPath.count == codingPath.count
            {
                guard let listed = Self.listed(choices) else { throw DecodingError.dataCorrupted(context) }
                throw DecodingError.paramsProblem("expected one of \(listed)", at: codingPath)
            }
        }
        return try T(from: self)
    }

    /// `"user", "guest"`: an enum's raw values as JSON, the first 16; nil unless they are
    /// strings or integers.
    private static func listed<E: CaseIterable & RawRepresentable>(_: E.Type) -> String? {
        var shown: [String] = []
        for value in E.allCases.prefix(16) {
            switch value.rawValue {
            case let text as String: shown.append(JSONValue.string(text).compactText)
            case let number as any BinaryInteger: shown.append(String(describing: number))
            default: return nil
            }
        }
        guard !shown.isEmpty else { return nil }
        return shown.joined(separator: ", ") + (E.allCases.count > shown.count ? ", …" : "")
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "required field is missing"))
        }
        return value
    }

    private func decoder(for key: Key) throws -> ValueDecoder {
        ValueDecoder(value: try value(for: key), codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(type) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = members[key.stringValue], value != .null else { return nil }
        return try ValueDecoder(value: value, codingPath: codingPath + [key]).decodeValue(type)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder(for: key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(members), codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> ValueDecoder {
        let path = codingPath + [IndexKey(currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "the array has only \(elements.count) elements"))
        }
        defer { currentIndex += 1 }
        return ValueDecoder(value: elements[currentIndex], codingPath: path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next([String: Any].self).container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }
    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    private func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.typeName)"))
    }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type) }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ValueDecoder(value: value, codingPath: codingPath).decodeValue(type)
    }

    /// Integers must be written as integers that fit: `1.0`, `1e2` and out-of-range values are
    /// refused rather than rounded, since a silently changed amount is worse than an error.
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type) }
        guard let integer = T(number.literal) else {
            let shown = number.literal.count > 40 ? "a \(number.literal.count)-character number" : number.literal
            throw DecodingError.paramsProblem(
                "expected an integer in \(T.min)...\(T.max), found \(shown)", at: codingPath)
        }
        return integer
    }

    private func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type) }
        guard let result = T(number.literal), result.isFinite else {
            throw DecodingError.paramsProblem("expected a finite number, found one out of range", at: codingPath)
        }
        return result
    }
}

/// Marks a `DecodingError.dataCorrupted` whose text is written for the reply (`paramsProblem`).
public struct ParamsProblem: Error, Sendable {
    public init() {}
}

extension DecodingError {
    /// A value that does not fit, said in words for the reply: a method's params that fail with
    /// it are answered -32602 with `data` `{"field": <codingPath>, "problem": problem}`. Any other
    /// `dataCorrupted` text (the standard library's, Foundation's: "Cannot initialize Mode from
    /// invalid String value admin") never reaches a reply, which says only that the value is not
    /// one the field accepts.
    public static func paramsProblem(_ problem: String, at codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: problem, underlyingError: ParamsProblem()))
    }
}
