#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeSessions
import WalletBridgeAgent
import WalletBridgeHost
import WalletBridgeProtocol

/// The router of the shipped `wallet-bridge` binary: the caller policy from the configuration
/// file, and the wallet behind GetAccounts and SignPayloads: the agent (the default), or, with
/// `"agent": false`, the keystore wallet in the host itself, asking for the passphrase on
/// every signature.
///
/// Cheap on purpose (the browser may start a process per message): it reads the small
/// configuration file and nothing else. The agent is reached, or started, when a call needs it.
package enum ShippedHost {
    /// - `arguments`: the host's arguments after argv[0] (the caller, as the browser gave it).
    /// - `browserProcess`: the process that started the host, whose profile names the extension.
    package static func makeRouter(arguments: [String], browserProcess: Int32) throws -> Router {
        let config = WalletConfig.loadForHost()
        var router = Router()
        router.info = OpenRPC.Info(title: "wallet-bridge", version: WalletBridgeVersion.current)
        guard config.useAgent, let keystorePath = KeystoreLocation.resolve(configured: config.keystore) else {
            try router.installKeystoreWallet(config: config, browserProcess: browserProcess)
            return router
        }
        let policy = config.policy
        router.authorize { context throws(RPCError) in try policy.check(context) }
        let client = AgentClient(
            keystorePath: keystorePath, agentProgram: Files.currentExecutable(), arguments: arguments,
            browserProcess: browserProcess)
        let wallet = AgentBackedWallet(
            client: client, connected: ConnectedAccounts(keystorePath: keystorePath, lifetime: config.sessionLifetime))
        try router.registerWallet(wallet)
        try router.registerForwarding(SessionService.Connect.self) {
            { params, _ in try await wallet.forward(SessionService.Connect.self, params, asksThePerson: true) }
        }
        try router.registerForwarding(SessionService.Request.self) {
            { params, _ in try await wallet.forward(SessionService.Request.self, params, asksThePerson: true) }
        }
        try router.registerForwarding(SessionService.List.self) {
            { params, _ in try await wallet.forward(SessionService.List.self, params, asksThePerson: false) }
        }
        try router.registerForwarding(SessionService.Extend.self) {
            { params, _ in try await wallet.forward(SessionService.Extend.self, params, asksThePerson: false) }
        }
        try router.registerForwarding(SessionService.Disconnect.self) {
            { params, _ in try await wallet.forward(SessionService.Disconnect.self, params, asksThePerson: false) }
        }
        router.addEventSource { notify in client.listen(deliver: notify) }
        return router
    }
}
