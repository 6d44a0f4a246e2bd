import ArgumentParser
import WalletBridgeWallet
import WalletBridge
import WalletBridgeKeys

/// `wallet-bridge` as a person runs it. A browser never gets here, and neither does `serve`:
/// `main.swift` serves the protocol directly when argv has the browser's shape, before any
/// argument parsing, or is a `serve` command line (`serveArguments`).
package struct WalletBridgeCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "wallet-bridge",
        abstract: "A native-messaging host that gives browser extensions a wallet.",
        discussion: """
            Started by a browser (argv `chrome-extension://ID/`, or a manifest path and an \
            add-on ID) or with no arguments, it serves JSON-RPC 2.0 over stdin and stdout.
            """,
        version: WalletBridgeVersion.current,
        subcommands: [
            ServeCommand.self, KeysCommand.self, InstallCommand.self, UninstallCommand.self,
            DoctorCommand.self, CallCommand.self, ConformCommand.self, DescribeCommand.self, NewCommand.self,
            AgentCommand.self, LockCommand.self, LogCommand.self, SessionsCommand.self,
        ]
    )

    package init() {}

    /// The host's argv when `arguments` is a valid `serve` command line; nil for anything else,
    /// `serve --help` and `serve` with a bad option included, which `main` leaves to the parser.
    /// `main` serves before `main(_:)` runs: `StdioHost.run` must be called before any thread
    /// starts, and the async `main(_:)` runs commands on the concurrency pool.
    package static func serveArguments(_ arguments: [String]) -> [String]? {
        guard arguments.first == "serve", let serve = try? parseAsRoot(arguments) as? ServeCommand else { return nil }
        return serve.hostArguments
    }
}

extension WalletBridgeCommand {
    /// For a valid `agent` or `agent run` command line: the `--keystore` it names (nil inside
    /// when none). Nil for anything else, which `main` leaves to the parser. Like `serve`, the
    /// agent runs from `main` before any thread starts (its signal handling needs that).
    package static func agentKeystore(_ arguments: [String]) -> String?? {
        guard arguments.first == "agent", let run = try? parseAsRoot(arguments) as? AgentRunCommand else { return nil }
        return .some(run.keystore)
    }
}

/// Serves over stdio, as the browser would start it; for debugging by hand. `main` serves it
/// directly, exactly like a browser launch (see `WalletBridgeCommand.serveArguments`).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve JSON-RPC over stdin/stdout (what a browser does with no subcommand).",
        discussion: """
            Ends like a browser-started host: on end of input, SIGTERM, SIGINT or SIGHUP, or when \
            stdout's reader goes away, with exit status 0 after at most \
            WALLET_BRIDGE_SHUTDOWN_GRACE_MS for the requests in flight.
            """
    )

    @Option(help: "Pretend to be started by this caller: a chrome-extension:// origin or a Firefox add-on ID.")
    var caller: String?

    /// The argv a browser would have given for `caller`.
    var hostArguments: [String] {
        guard let caller else { return [] }
        return caller.hasPrefix("chrome-extension://") ? [caller] : ["/dev/null/manifest.json", caller]
    }

    func run() throws {
        // Only reached when `main` did not serve first. Serving from here, on a pool thread of
        // the async command, would leave SIGTERM's default action to the threads already running.
        throw ServeNotFromMain()
    }
}

private struct ServeNotFromMain: Error, CustomStringConvertible {
    var description: String { "serve must be started by main before any thread (WalletBridgeCommand.serveArguments)" }
}
