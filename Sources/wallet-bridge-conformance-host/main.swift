#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

// The host the shared fixtures run against: the real host core with test-only methods and an
// in-memory test wallet. Started like the shipped host (argv from the browser, or none).
var router = Router()
do {
    try router.registerWallet(InMemoryTestWallet())
    try registerTestMethods(&router)
} catch {
    Log.writeStderr("wallet-bridge-conformance-host: \(error)\n")
    exit(70)
}
StdioHost.run(router: router, arguments: Array(CommandLine.arguments.dropFirst()))
