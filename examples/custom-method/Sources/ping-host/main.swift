import WalletBridge

/// The method, as a type: its wire name, its parameters and its result. The extension's side
/// (ping.js) uses the same name and the same two shapes.
enum Ping: RPCMethod {
    static let name = "MY_CUSTOM_PING_RPC_METHOD"
    struct Params: Codable, Sendable {
        var pingParam1: String
        var pingParam2: [String]
    }
    struct Result: Codable, Sendable {
        var pong: String
    }
}

var router = Router()
// Throws only on a programmer error (the same name registered twice, or an `rpc.` name), so a
// top-level `try` that stops the host at start-up is the right response.
try router.register(Ping.self) { params, context in
    Ping.Result(pong: "pong to \(params.pingParam1) and \(params.pingParam2.count) more, from \(context.caller)")
}
// Reads frames from stdin and answers on stdout until the browser closes the port.
StdioHost.run(router: router, arguments: Array(CommandLine.arguments.dropFirst()))
