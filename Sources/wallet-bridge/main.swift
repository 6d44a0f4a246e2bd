#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeAgent
import WalletBridgeWallet
import WalletBridgeConsent
import WalletBridgeShippedHost

// The browser-launch path: this file, the host layers, the agent's client and the wallet. It
// does not import the CLI module; only a command line a person typed goes there
// (CommandLineEntry.swift).

// First, before anything slow: the parent the host must not outlive (see StdioHost.run).
let launchParent = getppid()
let arguments = Array(CommandLine.arguments.dropFirst())
// The browser's launch shapes (and no arguments at all) go straight to the host: no argument
// parser on the path a browser takes on every message. `serve` takes the same path, parsed
// synchronously: the host must start on this thread before any other exists (see
// StdioHost.run), and the async command line runs on the concurrency pool, where SIGTERM killed
// it outright. `agent` runs from here for the same reason.
let hostArguments =
    arguments.isEmpty || Caller.isBrowserLaunch(arguments) ? arguments : CommandLineEntry.serveArguments(arguments)
if let hostArguments {
    // Nothing is answered before the router is built: an answer kept in a file for the next
    // host could be rewritten by any process of this user (docs/agent.md).
    StdioHost.run(
        makeRouter: { try ShippedHost.makeRouter(arguments: hostArguments, browserProcess: launchParent) },
        arguments: hostArguments,
        parent: launchParent)
}
if arguments.first == PinentryGuard.commandName {
    PinentryGuard.run(Array(arguments.dropFirst()))
}
if let keystore = CommandLineEntry.agentKeystore(arguments) {
    Agent.run(keystoreOption: keystore)
}
CommandLineEntry.run(arguments)
