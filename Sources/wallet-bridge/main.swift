#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeCLI

// First, before anything slow: the parent the host must not outlive (see StdioHost.run).
let launchParent = getppid()
let arguments = Array(CommandLine.arguments.dropFirst())
// The browser's launch shapes (and no arguments at all) go straight to the host: no argument
// parser on the path a browser takes on every message.
if arguments.isEmpty || Caller.isBrowserLaunch(arguments) {
    do {
        StdioHost.run(router: try ShippedHost.makeRouter(), arguments: arguments, parent: launchParent)
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
