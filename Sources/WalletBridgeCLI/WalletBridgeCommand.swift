import ArgumentParser
import WalletBridge

/// `wallet-bridge` as a person runs it. A browser never gets here: `main.swift` serves the
/// protocol directly when argv has the browser's shape, before any argument parsing.
public struct WalletBridgeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "wallet-bridge",
        abstract: "A native-messaging host that gives browser extensions a wallet.",
        discussion: """
            Started by a browser (argv `chrome-extension://ID/`, or a manifest path and an \
            add-on ID) or with no arguments, it serves JSON-RPC 2.0 over stdin and stdout.
            """,
        version: WalletBridgeVersion.current,
        subcommands: [
            ServeCommand.self, KeysCommand.self, InstallCommand.self, UninstallCommand.self,
            DoctorCommand.self, CallCommand.self,
        ]
    )

    public init() {}
}

public enum WalletBridgeVersion {
    public static let current = "0.1.0"
}

/// Serves over stdio, as the browser would start it; for debugging by hand.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve JSON-RPC over stdin/stdout (what a browser does with no subcommand)."
    )

    @Option(help: "Pretend to be started by this caller: a chrome-extension:// origin or a Firefox add-on ID.")
    var caller: String?

    func run() throws {
        var arguments: [String] = []
        if let caller {
            arguments = caller.hasPrefix("chrome-extension://") ? [caller] : ["/dev/null/manifest.json", caller]
        }
        StdioHost.run(router: try ShippedHost.makeRouter(), arguments: arguments)
    }
}
