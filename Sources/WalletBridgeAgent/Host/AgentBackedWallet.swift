import Synchronization
import WalletBridge
import WalletBridgeWallet

/// The wallet of a host started by a browser: GetAccounts and SignPayloads go to the agent,
/// which holds the keys, asks the person, and signs (`Agent`). The host holds no secret.
///
/// GetAccounts is a plain call on the host's reading thread over one connection kept for the
/// host's life, for an extension with a session (docs/sessions.md); one without is asked about
/// on the pool (`Router.Deferred`), as SignPayloads is. Requests read together share one answer: an answer the agent gave after a
/// request arrived is still an answer given between that request and its reply (see
/// `RequestContext.receivedAt`), so a burst of pipelined requests costs one round trip to the
/// agent, not one each. SignPayloads has a connection of its own, closed when the request ends
/// for any reason: a request the extension gave up on (a timeout, a closed port) closes its
/// dialog in the agent.
///
/// When the agent cannot be reached or started, both get -32005 "Agent unavailable" with
/// `data.reason`, `data.problem` and `data.fix`.
public struct AgentBackedWallet: AccountsAtHand {
    let client: AgentClient
    private let lastAccounts = LastAnswer()

    package init(client: AgentClient) {
        self.client = client
    }

    public var getAccountsExecution: Execution { .immediate }

    public func accountsAtHand(context: RequestContext) throws -> GetAccountsResult {
        if let answer = lastAccounts.answer(notBefore: context.receivedAt) { return answer }
        let askedAt = ContinuousClock.now
        let result: JSONValue
        do {
            result = try client.call(AgentProtocol.AccountsIfConnected.name, params: Array("{}".utf8))
        } catch .answered(let error) where error.code == AgentProtocol.consentNeeded {
            throw Router.Deferred()  // no session yet: `getAccounts` asks, off this thread
        } catch {
            throw Self.rpcError(error)
        }
        // Read by hand, not with Codable: this is the cold call's path (bench/).
        guard case .object(let members) = result, case .array(let values)? = members["addresses"],
              case let addresses = values.compactMap({ value -> String? in if case .string(let address) = value { address } else { nil } }),
              addresses.count == values.count else {
            throw Self.rpcError(.unavailable(.init(reason: "not_responding", problem: "the agent's accounts are not a list of addresses", fix: nil)))
        }
        let answer = GetAccountsResult(addresses: addresses)
        lastAccounts.store(answer, askedAt: askedAt)
        return answer
    }

    /// GetAccounts for a caller without a session: the agent asks the person to connect it
    /// (docs/sessions.md), on a connection of its own whose closing closes the dialog.
    public func getAccounts(context: RequestContext) async throws -> GetAccountsResult {
        do {
            return try await client.callOnOwnConnection(GetAccounts.self, NoParams())
        } catch let error as AgentClient.CallError {
            throw Self.rpcError(error)
        }
    }

    public func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        do {
            return try await client.callOnOwnConnection(SignPayloads.self, params)
        } catch let error as AgentClient.CallError {
            throw Self.rpcError(error)
        }
    }

    /// Passes a session method on to the agent (docs/sessions.md): those that may ask the
    /// person on a connection of their own, like SignPayloads, whose closing closes the dialog;
    /// the others on the kept connection.
    package func forward<M: RPCMethod>(_ method: M.Type, _ params: JSONValue?, asksThePerson: Bool) async throws -> JSONValue
    where M.Params == JSONValue?, M.Result == JSONValue {
        let params: JSONValue? = params ?? .object([:])
        do {
            if asksThePerson { return try await client.callOnOwnConnection(M.self, params) }
            return try client.call(M.self, params)
        } catch let error as AgentClient.CallError {
            throw Self.rpcError(error)
        }
    }

    private static func rpcError(_ error: AgentClient.CallError) -> RPCError {
        switch error {
        case .answered(let error):
            return error
        case .unavailable(let unavailable):
            Log.error("the wallet agent is unavailable: \(unavailable)")
            return unavailable.rpcError
        }
    }
}

/// The agent's last GetAccounts answer and when it was asked for.
private final class LastAnswer: Sendable {
    private let stored = Mutex<(askedAt: ContinuousClock.Instant, answer: GetAccountsResult)?>(nil)

    func answer(notBefore instant: ContinuousClock.Instant) -> GetAccountsResult? {
        stored.withLock { stored in
            guard let stored, stored.askedAt >= instant else { return nil }
            return stored.answer
        }
    }

    func store(_ answer: GetAccountsResult, askedAt: ContinuousClock.Instant) {
        stored.withLock { $0 = (askedAt, answer) }
    }
}
