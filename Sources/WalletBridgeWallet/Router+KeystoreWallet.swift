import WalletBridge

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
    public mutating func installKeystoreWallet(config: WalletConfig = .loadForHost(), browserProcess: Int32? = nil) throws(RouterError) {
        try installKeystoreWallet(config: config, browserProcess: browserProcess, keepingAnswersWith: nil)
    }

    /// The same, keeping a GetAccounts answer for the next process in `answers` (`AnswerCache`):
    /// the keystore and its folder are stamped here, before anything reads them.
    package mutating func installKeystoreWallet(
        config: WalletConfig, browserProcess: Int32?, keepingAnswersWith answers: AnswerCache.Recorder?
    ) throws(RouterError) {
        let policy = config.policy
        authorize { context throws(RPCError) in try policy.check(context) }
        var wallet = KeystoreWallet(config: config)
        wallet.browserProcess = browserProcess
        answers?.stamp([wallet.keystore.path, AtomicFile.split(wallet.keystore.path).folder])
        wallet.answers = answers
        try registerWallet(wallet)
    }
}
