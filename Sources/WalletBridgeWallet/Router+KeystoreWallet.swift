import WalletBridgeHost
import WalletBridgeProtocol
import WalletBridgeSessions

extension Router {
    /// Installs the default wallet in this process: the caller policy from the configuration
    /// file, checked before every call, and the keystore wallet behind GetAccounts and
    /// SignPayloads, which asks for the passphrase on every signature (the shipped host leaves
    /// the keys to the agent instead, which keeps them unlocked for a while).
    ///
    /// Cheap on purpose (the browser may start a process per message): it reads the small
    /// configuration file and nothing else. The keystore is read when a call needs it, and
    /// Argon2 runs only when a signature is approved. `browserProcess`, the process that started
    /// the host, lets the dialog name the extension as the person installed it.
    public mutating func installKeystoreWallet(config: WalletConfig = .loadForHost(), browserProcess: Int32? = nil)
        throws(RouterError)
    {
        let policy = config.policy
        authorize { context throws(RPCError) in try policy.check(context) }
        var wallet = KeystoreWallet(config: config)
        wallet.browserProcess = browserProcess
        try registerWallet(wallet)
    }
}

extension KeystoreWallet: SessionWallet {}
