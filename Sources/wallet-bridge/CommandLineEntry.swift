#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import WalletBridgeCLI

/// The subcommands a person runs (`keys`, `install`, `doctor`, `call`, `serve`). The only file
/// of the executable that imports the CLI module: a browser launch never reaches it.
enum CommandLineEntry {
    /// The host's arguments when `arguments` is a valid `serve` command line, else nil.
    static func serveArguments(_ arguments: [String]) -> [String]? {
        WalletBridgeCommand.serveArguments(arguments)
    }

    /// For an `agent` command line that runs the agent: the keystore it names (nil inside when
    /// none).
    static func agentKeystore(_ arguments: [String]) -> String?? {
        WalletBridgeCommand.agentKeystore(arguments)
    }

    /// Runs the command line and exits. `main` stays synchronous so that a browser launch never
    /// starts Swift's concurrency runtime (an async `main` made every cold call pay for it);
    /// the command line runs in a task, and this thread serves the main queue.
    /// Inside the task, overload resolution picks AsyncParsableCommand's `main`, not
    /// ParsableCommand's synchronous one. Never inlined: inlined into `main`, the task's
    /// `TaskPriority?` metadata was fetched at its top, on every browser launch, which never
    /// needs it.
    @inline(never)
    static func run(_ arguments: [String]) -> Never {
        Task {
            await WalletBridgeCommand.main(arguments)
            exit(0)
        }
        dispatchMain()
    }
}
