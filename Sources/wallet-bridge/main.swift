#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeCLI

// First, before anything slow: the parent the host must not outlive (see StdioHost.run).
let launchParent = getppid()
let arguments = Array(CommandLine.arguments.dropFirst())
// The browser's launch shapes (and no arguments at all) go straight to the host: no argument
// parser on the path a browser takes on every message. `serve` takes the same path, parsed here
// synchronously: the host must start on this thread before any other exists (see StdioHost.run),
// and the async command below runs on the concurrency pool, where SIGTERM killed it outright.
let hostArguments = arguments.isEmpty || Caller.isBrowserLaunch(arguments) ? arguments : WalletBridgeCommand.serveArguments(arguments)
if let hostArguments {
    do {
        StdioHost.run(router: try ShippedHost.makeRouter(), arguments: hostArguments, parent: launchParent)
    } catch {
        Log.error("cannot start: \(error)")
        exit(1)
    }
}
// Called from an `async` function so that overload resolution picks AsyncParsableCommand's
// `main`: from top-level code it picked ParsableCommand's synchronous one, whose debug-build
// check stops every subcommand with "Asynchronous root command needs availability annotation".
func runCommand(_ arguments: [String]) async {
    await WalletBridgeCommand.main(arguments)
}
await runCommand(arguments)
