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
