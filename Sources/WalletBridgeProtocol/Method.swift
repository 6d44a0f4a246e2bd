/// A JSON-RPC method as a type: its wire name, its parameters and its result.
///
/// ```swift
/// enum Ping: RPCMethod {
///     static let name = "MY_CUSTOM_PING_RPC_METHOD"
///     struct Params: Codable, Sendable { var pingParam1: String }
///     struct Result: Codable, Sendable { var pong: String }
/// }
/// try router.register(Ping.self) { params, context in .init(pong: params.pingParam1) }
/// ```
///
/// `Params` left at `NoParams` takes none; `Params = Inner?` may be left out (the handler gets
/// nil). An object-shaped `Params` accepts `params: []` exactly when it accepts `{}`, and never a
/// non-empty array it does not read. README.md, "Your own methods", has the whole table.
public protocol RPCMethod: Sendable {
    associatedtype Params: Codable & Sendable = NoParams
    associatedtype Result: Codable & Sendable
    static var name: String { get }
}

/// Parameters of a method that takes none. Accepts a missing `params`, `{}` and `[]`.
public struct NoParams: Codable, Sendable, Hashable {
    public init() {}
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            guard keyed.allKeys.isEmpty else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "this method takes no parameters"))
            }
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            guard unkeyed.isAtEnd else {
                _ = try? unkeyed.decodeNil()
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "this method takes no parameters"))
            }
        } else {
            guard try decoder.singleValueContainer().decodeNil() else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "this method takes no parameters"))
            }
        }
    }
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: AnyKey.self)
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// The result of a method that returns nothing meaningful; encodes as `null`.
public struct NoResult: Codable, Sendable, Hashable {
    public init() {}
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
