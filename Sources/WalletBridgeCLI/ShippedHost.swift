import WalletBridge
import WalletBridgeWallet

/// The router of the shipped `wallet-bridge` binary.
public enum ShippedHost {
    /// The keystore wallet behind GetAccounts and SignPayloads, with the caller policy from the
    /// configuration file checked before every call.
    ///
    /// Cheap on purpose (the browser may start a process per message): it reads the small
    /// configuration file and nothing else. The keystore is read when a call needs it, and
    /// Argon2 runs only when a signature is approved.
    public static func makeRouter() throws -> Router {
        let config = WalletConfig.loadForHost()
        var router = Router()
        let policy = config.policy
        router.authorize { context throws(RPCError) in try policy.check(context) }
        try router.registerWallet(KeystoreWallet(config: config))
        return router
    }
}
