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

    // What `rpc.discover` says of the method (OpenRPC). All optional: the schemas are derived
    // from `Params` and `Result` (`JSONSchemaDerivation`) unless given here. What derivation
    // cannot see of a member (a pattern, a length, an enum, a description), its type states
    // next to its properties (`JSONSchemaConstraining`).

    /// One line on what the method does.
    static var summary: String? { get }
    /// The errors the method itself answers with, beyond those any call may get (-32600,
    /// -32601, -32602, -32603 and the host's -32000 to -32005): `RPCError(.notSigned)`, or
    /// `RPCError(code: -32050, message: "Empty ping")` for a code of your own.
    static var errors: [RPCError] { get }
    /// A JSON Schema for the whole `params` value, where derivation from `Params` cannot see
    /// it (a hand-written `init(from:)` that reads keys at run time). An object schema makes
    /// the params by-name, an array schema by-position.
    static var paramsSchema: JSONValue? { get }
    /// A JSON Schema for the result, where derivation from `Result` cannot see it.
    static var resultSchema: JSONValue? { get }

    /// True for a method that may ask the person (a dialog). The router never runs one sent as
    /// a notification (no `id`): its answer could not be returned, so nobody is asked; and a
    /// batch's entries of such methods run one after another, in request order, so their
    /// dialogs come in that order.
    static var asksThePerson: Bool { get }
}

extension RPCMethod {
    public static var summary: String? { nil }
    public static var errors: [RPCError] { [] }
    public static var paramsSchema: JSONValue? { nil }
    public static var resultSchema: JSONValue? { nil }
    public static var asksThePerson: Bool { false }
}

/// Parameters of a method that takes none. Accepts a missing `params`, `{}` and `[]`.
public struct NoParams: Codable, Sendable, Hashable {
    public init() {}
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            guard keyed.allKeys.isEmpty else {
                throw DecodingError.paramsProblem("this method takes no parameters", at: [])
            }
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            guard unkeyed.isAtEnd else {
                _ = try? unkeyed.decodeNil()
                throw DecodingError.paramsProblem("this method takes no parameters", at: [])
            }
        } else {
            guard try decoder.singleValueContainer().decodeNil() else {
                throw DecodingError.paramsProblem("this method takes no parameters", at: [])
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
