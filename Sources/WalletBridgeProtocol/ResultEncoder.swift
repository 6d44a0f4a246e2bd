#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes a handler's `Encodable` result straight to compact JSON bytes.
///
/// Foundation's `JSONEncoder` costs far more than the bytes it writes for GetAccounts' two
/// strings (a large share of the host's CPU under pipelined load) and its first use instantiates
/// a lot of generic metadata on every cold start. This encoder builds a small tree and writes
/// it out; it matches `JSONEncoder` with `.withoutEscapingSlashes` byte for byte (same escapes,
/// same number formatting, `Data` as base64, `URL` as its absolute string), except that object
/// members come out in the order they were encoded, where `JSONEncoder` uses hash order (which
/// differs from one process to the next), and that a `JSONValue` anywhere in the result is
/// written exactly as parsed: `JSONEncoder` would turn its numbers into `Double`s, rounding a
/// 20-digit integer and failing on `1e400`.
package enum ResultEncoder {
    /// Appends `value`'s JSON to `out`.
    package static func encode<T: Encodable>(_ value: T, into out: inout [UInt8]) throws {
        // The wallet results every extension asks for, written straight out: the same bytes
        // their synthesised `Encodable` gives, at a fraction of the cost.
        if T.self == GetAccountsResult.self {
            writeStringsObject(key: "addresses", unsafeBitCast(value, to: GetAccountsResult.self).addresses, into: &out)
        } else if T.self == SignPayloadsResult.self {
            writeStringsObject(
                key: "signed_payloads", unsafeBitCast(value, to: SignPayloadsResult.self).signed_payloads, into: &out)
        } else {
            try write(node(for: value, codingPath: []), into: &out)
        }
    }

    /// GetAccounts' result, for a caller that has one in hand (an answer kept between
    /// processes): the bytes `encode` writes, without the generic call's witness table.
    package static func encode(_ result: GetAccountsResult, into out: inout [UInt8]) {
        writeStringsObject(key: "addresses", result.addresses, into: &out)
    }

    private static func writeStrings(_ strings: [String], into out: inout [UInt8]) {
        // Room for all of them at once (quotes and commas included; escapes may add more):
        // growing by doubling copied a signed batch's megabyte twice over.
        let needed = out.count + strings.reduce(2) { $0 + $1.utf8.count + 3 }
        if out.capacity < needed { out.reserveCapacity(needed) }
        out.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(string, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `{"key":["…","…"]}`
    private static func writeStringsObject(key: StaticString, _ strings: [String], into out: inout [UInt8]) {
        out.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "\"")])
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        writeStrings(strings, into: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `codingPath` is only evaluated when the value has containers of its own or fails: an
    /// array of `any CodingKey` built for every string of a result cost more than the string.
    fileprivate static func node<T: Encodable>(for value: T, codingPath: @autoclosure () -> [any CodingKey]) throws
        -> Node
    {
        // The types JSONEncoder encodes its own way, or that are worth a direct path. Metatype
        // comparisons, not `as?` casts: a dynamic cast per value is what makes JSONEncoder slow.
        if T.self == JSONValue.self { return .raw(unsafeBitCast(value, to: JSONValue.self).jsonBytes) }
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == [String].self { return .strings(unsafeBitCast(value, to: [String].self)) }  // GetAccounts, SignPayloads
        if T.self == Int.self { return .literal(String(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return .literal(unsafeBitCast(value, to: Bool.self) ? "true" : "false") }
        if T.self == Double.self { return try .literal(format(unsafeBitCast(value, to: Double.self), codingPath())) }
        if T.self == Data.self { return .string(unsafeBitCast(value, to: Data.self).base64EncodedString()) }
        if T.self == URL.self { return .string(unsafeBitCast(value, to: URL.self).absoluteString) }
        let encoder = DirectEncoder(codingPath: codingPath())
        try value.encode(to: encoder)
        return encoder.root.node ?? .object(ObjectBox())
    }

    fileprivate static func format<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, _ codingPath: [any CodingKey]
    ) throws -> String {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "Unable to encode \(value) directly in JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }  // 3.0 -> 3, as JSONEncoder writes it
        return text
    }

    private static func write(_ node: Node, into out: inout [UInt8]) throws {
        switch node {
        case .literal(let text): out.append(contentsOf: text.utf8)
        case .raw(let bytes): out.append(contentsOf: bytes)
        case .string(let string): JSONWriter.writeString(string, into: &out)
        case .strings(let strings): writeStrings(strings, into: &out)
        case .array(let box):
            out.append(UInt8(ascii: "["))
            for (index, element) in box.elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(element.node ?? .object(ObjectBox()), into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let box):
            out.append(UInt8(ascii: "{"))
            for (index, key) in box.keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(box.values[index].node ?? .object(ObjectBox()), into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}

/// A value being encoded. Containers are boxes, so a container handed out earlier can still be
/// filled after it was stored in its parent.
private enum Node {
    case literal(String)
    /// Already-serialised JSON (a `JSONValue`), written as is.
    case raw([UInt8])
    case string(String)
    /// `[String]`, the commonest array in a result, without a slot per element.
    case strings([String])
    case array(ArrayBox)
    case object(ObjectBox)
}

private final class Slot {
    var node: Node?
    init(_ node: Node? = nil) { self.node = node }
}

private final class ArrayBox {
    var elements: [Slot] = []
}

private final class ObjectBox {
    var keys: [String] = []
    var values: [Slot] = []

    func slot(for key: String) -> Slot {
        if let index = keys.firstIndex(of: key) { return values[index] }  // re-encoding a key replaces it
        keys.append(key)
        let slot = Slot()
        values.append(slot)
        return slot
    }
}

private final class DirectEncoder: RawJSONEncoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let root: Slot

    init(codingPath: [any CodingKey], root: Slot = Slot()) {
        self.codingPath = codingPath
        self.root = root
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: ObjectBox
        if case .object(let existing)? = root.node {
            box = existing
        } else {
            box = ObjectBox(); root.node = .object(box)
        }
        return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        if case .array(let existing)? = root.node { box = existing } else { box = ArrayBox(); root.node = .array(box) }
        return UnkeyedContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(slot: root, codingPath: codingPath)
    }

    /// A `JSONValue` handed this encoder by a hand-written `encode(to:)`: written as parsed.
    func encodeRawJSON(_ bytes: [UInt8]) { root.node = .raw(bytes) }
}

private struct IndexKey: CodingKey {
    var stringValue: String { "Index \(intValue!)" }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: ObjectBox
    let codingPath: [any CodingKey]

    func encodeNil(forKey key: Key) throws { box.slot(for: key.stringValue).node = .literal("null") }
    func encode(_ value: Bool, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(value ? "true" : "false")
    }
    func encode(_ value: String, forKey key: Key) throws { box.slot(for: key.stringValue).node = .string(value) }
    func encode(_ value: Double, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(try ResultEncoder.format(value, codingPath + [key]))
    }
    func encode(_ value: Float, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(try ResultEncoder.format(value, codingPath + [key]))
    }
    func encode(_ value: Int, forKey key: Key) throws { box.slot(for: key.stringValue).node = .literal(String(value)) }
    func encode(_ value: Int8, forKey key: Key) throws { box.slot(for: key.stringValue).node = .literal(String(value)) }
    func encode(_ value: Int16, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(String(value))
    }
    func encode(_ value: Int32, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(String(value))
    }
    func encode(_ value: Int64, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(String(value))
    }
    func encode(_ value: UInt, forKey key: Key) throws { box.slot(for: key.stringValue).node = .literal(String(value)) }
    func encode(_ value: UInt8, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(String(value))
    }
    func encode(_ value: UInt16, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(String(value))
    }
    func encode(_ value: UInt32, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(String(value))
    }
    func encode(_ value: UInt64, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = .literal(String(value))
    }
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        box.slot(for: key.stringValue).node = try ResultEncoder.node(for: value, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ObjectBox()
        box.slot(for: key.stringValue).node = .object(nested)
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        box.slot(for: key.stringValue).node = .array(nested)
        return UnkeyedContainer(box: nested, codingPath: codingPath + [key])
    }

    func superEncoder() -> any Encoder {
        DirectEncoder(codingPath: codingPath + [SuperKey()], root: box.slot(for: "super"))
    }
    func superEncoder(forKey key: Key) -> any Encoder {
        DirectEncoder(codingPath: codingPath + [key], root: box.slot(for: key.stringValue))
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let box: ArrayBox
    let codingPath: [any CodingKey]
    var count: Int { box.elements.count }

    private func append(_ node: Node) { box.elements.append(Slot(node)) }

    mutating func encodeNil() throws { append(.literal("null")) }
    mutating func encode(_ value: Bool) throws { append(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        append(.literal(try ResultEncoder.format(value, codingPath + [IndexKey(count)])))
    }
    mutating func encode(_ value: Float) throws {
        append(.literal(try ResultEncoder.format(value, codingPath + [IndexKey(count)])))
    }
    mutating func encode(_ value: Int) throws { append(.literal(String(value))) }
    mutating func encode(_ value: Int8) throws { append(.literal(String(value))) }
    mutating func encode(_ value: Int16) throws { append(.literal(String(value))) }
    mutating func encode(_ value: Int32) throws { append(.literal(String(value))) }
    mutating func encode(_ value: Int64) throws { append(.literal(String(value))) }
    mutating func encode(_ value: UInt) throws { append(.literal(String(value))) }
    mutating func encode(_ value: UInt8) throws { append(.literal(String(value))) }
    mutating func encode(_ value: UInt16) throws { append(.literal(String(value))) }
    mutating func encode(_ value: UInt32) throws { append(.literal(String(value))) }
    mutating func encode(_ value: UInt64) throws { append(.literal(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try ResultEncoder.node(for: value, codingPath: codingPath + [IndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nested = ObjectBox()
        let path = codingPath + [IndexKey(count)]
        append(.object(nested))
        return KeyedEncodingContainer(KeyedContainer<NestedKey>(box: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        let path = codingPath + [IndexKey(count)]
        append(.array(nested))
        return UnkeyedContainer(box: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let slot = Slot()
        let path = codingPath + [IndexKey(count)]
        box.elements.append(slot)
        return DirectEncoder(codingPath: path, root: slot)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let slot: Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { slot.node = .literal("null") }
    mutating func encode(_ value: Bool) throws { slot.node = .literal(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { slot.node = .string(value) }
    mutating func encode(_ value: Double) throws { slot.node = .literal(try ResultEncoder.format(value, codingPath)) }
    mutating func encode(_ value: Float) throws { slot.node = .literal(try ResultEncoder.format(value, codingPath)) }
    mutating func encode(_ value: Int) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: Int8) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: Int16) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: Int32) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: Int64) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: UInt) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: UInt8) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: UInt16) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: UInt32) throws { slot.node = .literal(String(value)) }
    mutating func encode(_ value: UInt64) throws { slot.node = .literal(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        slot.node = try ResultEncoder.node(for: value, codingPath: codingPath)
    }
}
