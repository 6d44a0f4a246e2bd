import WalletBridge

// Methods that exist only in the conformance host, to exercise every rule of the host core from
// the shared fixtures. The JSON-RPC specification's own examples (subtract, sum, notify_hello,
// update, get_data) are here too, registered the way a developer registers a custom method.

enum Subtract: RPCMethod {
    static let name = "subtract"
    /// The specification calls it both ways: `[42, 23]` and `{"minuend": 42, "subtrahend": 23}`.
    struct Params: Codable, Sendable {
        var minuend: Int
        var subtrahend: Int
        init(from decoder: any Decoder) throws {
            if var positional = try? decoder.unkeyedContainer() {
                minuend = try positional.decode(Int.self)
                subtrahend = try positional.decode(Int.self)
            } else {
                let named = try decoder.container(keyedBy: CodingKeys.self)
                minuend = try named.decode(Int.self, forKey: .minuend)
                subtrahend = try named.decode(Int.self, forKey: .subtrahend)
            }
        }
    }
    typealias Result = Int
}

enum Sum: RPCMethod {
    static let name = "sum"
    typealias Params = [Int]
    typealias Result = Int
}

enum NotifyHello: RPCMethod {
    static let name = "notify_hello"
    typealias Params = [Int]
    typealias Result = NoResult
}

enum Update: RPCMethod {
    static let name = "update"
    typealias Params = [Int]
    typealias Result = NoResult
}

enum GetData: RPCMethod {
    static let name = "get_data"
    typealias Result = JSONValue
}

enum Echo: RPCMethod {
    static let name = "test.echo"
    typealias Params = JSONValue
    typealias Result = JSONValue
}

/// Sleeps, honouring cancellation: for concurrency, ordering and cancellation cases.
enum Sleep: RPCMethod {
    static let name = "test.sleep"
    struct Params: Codable, Sendable { var ms: Int }
    struct Result: Codable, Sendable { var slept: Int }
}

/// Never returns and ignores cancellation: only a timeout can answer it.
enum Hang: RPCMethod {
    static let name = "test.hang"
    typealias Result = NoResult
}

/// Throws an error that is not an RPCError, whose text must not reach the wire.
enum Fail: RPCMethod {
    static let name = "test.fail"
    typealias Result = NoResult
}

struct UnexpectedFailure: Error, CustomStringConvertible {
    var description: String { "secret internal detail /home/user/.local/share/wallet-bridge" }
}

/// Throws the RPCError described by its params.
enum RaiseError: RPCMethod {
    static let name = "test.error"
    struct Params: Codable, Sendable {
        var code: Int
        var message: String
        var data: JSONValue?
    }
    typealias Result = NoResult
}

/// Returns a string of `bytes` ASCII characters: for the 1 MiB reply limit.
enum Large: RPCMethod {
    static let name = "test.large"
    struct Params: Codable, Sendable { var bytes: Int }
    typealias Result = String
}

/// Returns the UTF-8 length of `data`: a large request with a small reply, for the benchmarks.
enum Measure: RPCMethod {
    static let name = "test.measure"
    struct Params: Codable, Sendable { var data: String }
    struct Result: Codable, Sendable { var bytes: Int }
}

/// Reports the handler's context: caller, id and method.
enum Context: RPCMethod {
    static let name = "test.context"
    struct Result: Codable, Sendable {
        /// JSON null when unidentified (an Optional would be left out of the object instead).
        var caller: JSONValue
        var id: JSONValue
        var method: String
    }
}

func registerTestMethods(_ router: inout Router) throws {
    try router.register(Subtract.self) { params, _ in params.minuend - params.subtrahend }
    try router.register(Sum.self) { numbers, _ in numbers.reduce(0, +) }
    try router.register(NotifyHello.self) { _, _ in NoResult() }
    try router.register(Update.self) { _, _ in NoResult() }
    try router.register(GetData.self) { _, _ in .array([.string("hello"), .number(JSONNumber(5))]) }
    try router.register(Echo.self) { params, _ in params }
    try router.register(Sleep.self) { params, _ in
        try await Task.sleep(for: .milliseconds(params.ms))
        return .init(slept: params.ms)
    }
    try router.register(Hang.self) { _, _ in
        while true { try? await Task.sleep(for: .seconds(3600)) }
    }
    try router.register(Fail.self) { _, _ in throw UnexpectedFailure() }
    try router.register(RaiseError.self) { params, _ in
        throw RPCError(code: ErrorCode(rawValue: params.code), message: params.message, data: params.data)
    }
    try router.register(Large.self) { params, _ in
        guard (0...(64 << 20)).contains(params.bytes) else {
            throw RPCError(.invalidParams, detail: "bytes must be between 0 and 67108864")
        }
        return String(repeating: "x", count: params.bytes)
    }
    try router.register(Measure.self) { params, _ in .init(bytes: params.data.utf8.count) }
    try router.register(Context.self) { _, context in
        .init(caller: context.caller.identity.map(JSONValue.string) ?? .null, id: context.requestID?.jsonValue ?? .null, method: context.method)
    }
}
