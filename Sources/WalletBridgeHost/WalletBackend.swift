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

/// What a wallet whose accounts are usually at hand says of one GetAccounts on the reading
/// thread: the answer, or that this call must be asked off that thread (`getAccounts`, on the
/// pool: a dialog, or a wait for the agent's turn).
public enum AtHand: Sendable {
    case answer(GetAccountsResult)
    case askOffThread
}

/// A wallet whose GetAccounts is answered on the reading thread when it can be, and otherwise
/// by `getAccounts` on the pool: the agent-backed wallet (a connected extension is answered at
/// once, one without a session is asked about).
public protocol AccountsUsuallyAtHand: WalletBackend {
    func accountsAtHand(context: RequestContext) throws -> AtHand
}
