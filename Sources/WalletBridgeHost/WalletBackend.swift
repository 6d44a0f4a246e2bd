import WalletBridgeProtocol
import WalletBridgeFraming

/// What answers the built-in wallet methods: the keystore wallet, or a developer's own.
public protocol WalletBackend: Sendable {
    func getAccounts(context: RequestContext) async throws -> GetAccountsResult
    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult
    /// Where `getAccounts` starts. `.immediate` only if it answers in microseconds without
    /// blocking (from memory, or a small local file); the default runs it on the pool.
    var getAccountsExecution: Execution { get }
}

extension WalletBackend {
    public var getAccountsExecution: Execution { .concurrent }
}

/// A wallet that has its accounts at hand: in memory, or in a small local file. Its GetAccounts
/// never suspends, so with `.immediate` the router answers it as a plain call on the reading
/// thread, and a `sendNativeMessage` call that asks for accounts starts no task at all.
public protocol AccountsAtHand: WalletBackend {
    func accountsAtHand(context: RequestContext) throws -> GetAccountsResult
}

extension AccountsAtHand {
    public func getAccounts(context: RequestContext) async throws -> GetAccountsResult {
        try accountsAtHand(context: context)
    }
}
