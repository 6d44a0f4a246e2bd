import WalletBridgeCLI

/// The subcommands a person runs (`keys`, `install`, `doctor`, `call`, `serve`). The only file
/// of the executable that imports the CLI module: a browser launch never reaches it.
enum CommandLineEntry {
    /// The host's arguments when `arguments` is a valid `serve` command line, else nil.
    static func serveArguments(_ arguments: [String]) -> [String]? {
        WalletBridgeCommand.serveArguments(arguments)
    }

    /// Called from an `async` function so that overload resolution picks AsyncParsableCommand's
    /// `main`: from top-level code it picked ParsableCommand's synchronous one, whose debug-build
    /// check stops every subcommand with "Asynchronous root command needs availability annotation".
    static func run(_ arguments: [String]) async {
        await WalletBridgeCommand.main(arguments)
    }
}
