import WalletBridge

/// The method, as a type: its wire name, its parameters and its result. The extension's side
/// (ping.js) uses the same name and the same two shapes.
enum Ping: RPCMethod {
    static let name = "MY_CUSTOM_PING_RPC_METHOD"
    /// Named, as walletlib sends it: `{"pingParam1": "hi", "pingParam2": ["a", "b"]}`; or
    /// positional, as JSON-RPC also allows: `["hi", ["a", "b"]]`. The synthesised decoder would
    /// take only the named form; this one takes whichever was sent, and a missing or mistyped
    /// one is still answered -32602 naming it (`pingParam2`, or `[1]`).
    struct Params: Codable, Sendable {
        var pingParam1: String
        var pingParam2: [String]

        init(from decoder: any Decoder) throws {
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
    struct Result: Codable, Sendable {
        var pong: String
    }
}

/// A method with nothing to take and nothing to return: `Params` defaults to `NoParams`
/// (missing params, `{}` and `[]` are accepted, anything else is -32602), and `NoResult` is
/// written as `"result": null`.
enum Reset: RPCMethod {
    static let name = "MY_CUSTOM_RESET_RPC_METHOD"
    typealias Result = NoResult
}

var router = Router()
// Throws only on a programmer error (the same name registered twice, or an `rpc.` name), so a
// top-level `try` that stops the host at start-up is the right response.
try router.register(Ping.self) { params, context in
    guard !params.pingParam1.isEmpty else {
        // A code of our own: an integer literal is an ErrorCode, and `data` any JSON literal.
        throw RPCError(code: -32050, message: "Empty ping", data: ["field": "pingParam1"])
    }
    return Ping.Result(pong: "pong to \(params.pingParam1) and \(params.pingParam2.count) more, from \(context.caller)")
}
try router.register(Reset.self) { _, _ in NoResult() }
// Reads frames from stdin and answers on stdout until the browser closes the port.
StdioHost.run(router: router, arguments: Array(CommandLine.arguments.dropFirst()))
