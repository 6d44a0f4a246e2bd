#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeConformance
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeKeys

// The host the shared fixtures run against: the real host core with test-only methods and an
// in-memory test wallet. Started like the shipped host (argv from the browser, or none).
// First, before anything slow: the parent the host must not outlive (see StdioHost.run).
let launchParent = getppid()
var router = Router()
router.info = OpenRPC.Info(title: "wallet-bridge-conformance-host", version: WalletBridgeVersion.current)
do {
    // The end-to-end tests run the real keystore wallet (a scratch keystore, unlocked from a
    // passphrase file) beside the test methods, and no sessions; everything else uses the fixed
    // test keys (or none: `empty`, a wallet with no key yet; or `solana-only`, no Ethereum key),
    // and the session methods over them
    // (TestSessions). GetAccounts and SignPayloads stay the test wallet's, asking nobody.
    switch getenv("WALLET_BRIDGE_TEST_WALLET").map({ String(cString: $0) }) {
    case "keystore":
        try router.installKeystoreWallet()
    case let choice:
        let keys =
            switch choice {
            case "empty": InMemoryTestWallet(seeds: [])
            case "solana-only": InMemoryTestWallet(seeds: InMemoryTestWallet.seeds)
            default: InMemoryTestWallet()
            }
        try router.registerWallet(keys)
        try router.registerSessionMethods(TestSessions.service(keys: keys))
    }
    try registerTestMethods(&router)
} catch {
    Log.writeStderr("wallet-bridge-conformance-host: \(error)\n")
    exit(70)
}
StdioHost.run(router: router, arguments: Array(CommandLine.arguments.dropFirst()), parent: launchParent)
