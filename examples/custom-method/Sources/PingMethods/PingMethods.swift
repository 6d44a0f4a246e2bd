import WalletBridge

/// The method, as a type: its wire name, its parameters and its result. The extension's side
/// (ping.js) uses the same name and the same two shapes.
public enum Ping: RPCMethod {
    public static let name = "MY_CUSTOM_PING_RPC_METHOD"
    public static let summary: String? = "Answers a ping with a pong."
    /// Declared so that `rpc.discover` lists it, and `wallet-bridge conform` can check that a
    /// fixture's error code is one the method documents.
    public static let errors = [RPCError(code: -32050, message: "Empty ping", data: ["field": "pingParam1"])]

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
        guard !params.pingParam1.isEmpty else {
            // A code of our own: an integer literal is an ErrorCode, and `data` any JSON literal.
            throw RPCError(code: -32050, message: "Empty ping", data: ["field": "pingParam1"])
        }
        return Ping.Result(pong: "pong to \(params.pingParam1) and \(params.pingParam2.count) more, from \(context.caller)")
    }
    try router.register(Reset.self) { _, _ in NoResult() }
    // notes.save and notes.list (NotesMethods.swift): methods with state, kept in files.
    try registerNotes(&router)
    return router
}
