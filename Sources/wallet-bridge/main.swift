#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeCLI

let arguments = Array(CommandLine.arguments.dropFirst())
// The browser's launch shapes (and no arguments at all) go straight to the host: no argument
// parser on the path a browser takes on every message.
if arguments.isEmpty || Caller.isBrowserLaunch(arguments) {
    do {
        StdioHost.run(router: try ShippedHost.makeRouter(), arguments: arguments)
    } catch {
        Log.error("cannot start: \(error)")
        exit(1)
    }
}
await WalletBridgeCommand.runCommandLine(arguments)
