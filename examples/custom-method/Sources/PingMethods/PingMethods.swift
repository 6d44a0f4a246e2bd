import WalletBridge

/// The method, as a type: its wire name, its parameters and its result. The extension's side
/// (ping.js) uses the same name and the same two shapes.
public enum Ping: RPCMethod {
    public static let name = "MY_CUSTOM_PING_RPC_METHOD"
    public static let summary: String? = "Answers a ping with a pong."
    /// The method's own error, declared once: the handler throws it, and `errors` lists it, so
    /// `rpc.discover` documents it, `wallet-bridge conform` accepts a fixture's -32050 for this
    /// method (and no code it does not declare), and the generated JS module (openrpc-to-ts
    /// --js) has a class for it, `EmptyPingError`, that the client rejects with. A code of your
    /// own is an integer literal the host's catalogue does not use (-32099...-32006, or outside
    /// -32768...-32000), and `data` any JSON literal.
    public static let emptyPing = RPCError(code: -32050, message: "Empty ping", data: ["field": "pingParam1"])
    public static let errors = [emptyPing]

    /// Named, as walletlib sends it: `{"pingParam1": "hi", "pingParam2": ["a", "b"]}`; or
    /// positional, as JSON-RPC also allows: `["hi", ["a", "b"]]`. The synthesised decoder would
    /// take only the named form; this one takes whichever was sent, and a missing or mistyped
    /// one is still answered -32602 naming it (`pingParam2`, or `[1]`).
    public struct Params: Codable, Sendable {
        public var pingParam1: String
        public var pingParam2: [String]

        public init(from decoder: any Decoder) throws {
            if var positional = try? decoder.unkeyedContainer() {
                pingParam1 = try positional.decode(String.self)
                pingParam2 = try positional.decode([String].self)
            } else {
                let named = try decoder.container(keyedBy: CodingKeys.self)
                pingParam1 = try named.decode(String.self, forKey: .pingParam1)
                pingParam2 = try named.decode([String].self, forKey: .pingParam2)
            }
        }
    }

    public struct Result: Codable, Sendable {
        public var pong: String
    }
}

/// A method with nothing to take and nothing to return: `Params` defaults to `NoParams`
/// (missing params, `{}` and `[]` are accepted, anything else is -32602), and `NoResult` is
/// written as `"result": null`.
public enum Reset: RPCMethod {
    public static let name = "MY_CUSTOM_RESET_RPC_METHOD"
    public typealias Result = NoResult
}

/// The host's router: the ping, the reset and the two notes methods registered. The executable serves it over stdio; the tests
/// also serve it in process.
///
/// Throws only on a programmer error (the same name registered twice, or an `rpc.` name).
public func makePingRouter() throws -> Router {
    var router = Router()
    // What `rpc.discover` (and `wallet-bridge describe`) names the host.
    router.info = OpenRPC.Info(title: "ping-host", version: "1.0.0")
    try router.register(Ping.self) { params, context in
        guard !params.pingParam1.isEmpty else { throw Ping.emptyPing }
        return Ping.Result(
            pong: "pong to \(params.pingParam1) and \(params.pingParam2.count) more, from \(context.caller)")
    }
    try router.register(Reset.self) { _, _ in NoResult() }
    // notes.save and notes.list (NotesMethods.swift): methods with state, kept in files.
    try registerNotes(&router)
    return router
}
