import WalletBridge

extension Router {
    /// Installs the default wallet: the caller policy from the configuration file, checked
    /// before every call, and the keystore wallet behind GetAccounts and SignPayloads.
    ///
    /// Cheap on purpose (the browser may start a process per message): it reads the small
    /// configuration file and nothing else. The keystore is read when a call needs it, and
    /// Argon2 runs only when a signature is approved.
    public mutating func installKeystoreWallet(config: WalletConfig = .loadForHost()) throws(RouterError) {
        let policy = config.policy
        authorize { context throws(RPCError) in try policy.check(context) }
        try registerWallet(KeystoreWallet(config: config))
    }
}

/// The router of the shipped `wallet-bridge` binary: the keystore wallet and its policy.
public enum ShippedHost {
    public static func makeRouter() throws -> Router {
        var router = Router()
        try router.installKeystoreWallet()
        return router
    }
}
