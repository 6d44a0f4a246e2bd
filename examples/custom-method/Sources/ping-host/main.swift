#if canImport(Glibc)
import Glibc
#endif
import PingMethods
import WalletBridge

// First, before anything slow: the browser that started the host, whose death must end it
// (see StdioHost.run).
let parent = getppid()
// Throws only on a programmer error (the same name registered twice, or an `rpc.` name), so a
// top-level `try` that stops the host at start-up is the right response.
let router = try makePingRouter()
// Reads frames from stdin and answers on stdout until the browser closes the port.
StdioHost.run(router: router, arguments: Array(CommandLine.arguments.dropFirst()), parent: parent)
