import Synchronization
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeAgent
import WalletBridgeHost
import WalletBridgeProtocol

/// The wallet of a host started by a browser: GetAccounts and SignPayloads go to the agent,
/// which holds the keys, asks the person, and signs (`Agent`). The host holds no secret.
///
/// GetAccounts of an extension with a session (docs/sessions.md) is read by the host itself
/// from the files the agent keeps (`ConnectedAccounts`), when they answer for certain;
/// otherwise it is a plain call on the host's reading thread over one connection kept for the
/// host's life; and an extension without a session is asked about on the pool
/// (`Router.Deferred`), as SignPayloads is, and so is a GetAccounts the agent refuses at once
/// because the extension's other ports hold all its connections (it waits its turn there). Requests read together share one answer: an answer
/// given after a request arrived is still an answer given between that request and its reply
/// (see `RequestContext.receivedAt`), so a burst of pipelined requests costs one read or one
/// round trip to the agent, not one each. SignPayloads has a connection of its own, closed when the request ends
/// for any reason: a request the extension gave up on (a timeout, a closed port) closes its
/// dialog in the agent.
///
/// When the agent is needed and cannot be reached or started, the request gets -32005 "Agent
/// unavailable" with `data.reason`, `data.problem` and `data.fix`.
public struct AgentBackedWallet: AccountsAtHand {
    let client: AgentClient
    /// The keystore and sessions files the agent keeps; nil asks the agent every time.
    let connected: ConnectedAccounts?
    private let lastAccounts = LastAnswer()

    package init(client: AgentClient, connected: ConnectedAccounts? = nil) {
        self.client = client
        self.connected = connected
    }

    public var getAccountsExecution: Execution { .immediate }

    public func accountsAtHand(context: RequestContext) throws -> GetAccountsResult {
        let mark = client.events.mark
        if let answer = lastAccounts.answer(notBefore: context.receivedAt, orHeardNothingSince: mark) { return answer }
        let askedAt = ContinuousClock.now
        if let answer = connected?.accounts(of: context.caller, notBefore: context.receivedAt) {
            lastAccounts.store(answer, askedAt: askedAt, mark: Self.markToKeep(answer, mark))
            return answer
        }
        let result: JSONValue
        do {
            // No busy wait on this thread: it reads the next request, stdin's end and SIGTERM.
            result = try client.call(AgentProtocol.AccountsIfConnected.name, params: Array("{}".utf8), busyWait: .zero)
        } catch .answered(let error) where error.code == AgentProtocol.consentNeeded {
            throw Router.Deferred()  // no session yet: `getAccounts` asks, off this thread
        } catch .unavailable(let unavailable) where unavailable.reason == AgentProtocol.tooManyConnections {
            throw Router.Deferred()  // the extension's other ports hold its connections: `getAccounts` waits its turn, off this thread
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
        lastAccounts.store(answer, askedAt: askedAt, mark: Self.markToKeep(answer, mark))
        return answer
    }

    /// The events mark to keep an answer under, for reuse while no event comes: every change of
    /// a connected extension's accounts is announced to it, so its answer keeps. An empty list
    /// is not kept: it is given to any caller, connected or not, and the first key made is
    /// announced only to the connected ones.
    private static func markToKeep(_ answer: GetAccountsResult, _ mark: Int?) -> Int? {
        answer.addresses.isEmpty ? nil : mark
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

/// The agent's last GetAccounts answer, when it was asked for, and the events mark then.
private final class LastAnswer: Sendable {
    private let stored = Mutex<(askedAt: ContinuousClock.Instant, mark: Int?, answer: GetAccountsResult)?>(nil)

    /// The stored answer if it was asked for at `instant` or later (requests read together), or
    /// if the host has listened to the agent's events since it was asked for and heard none
    /// (`EventWatch`), for at most `KeystoreReadCache.revalidateAfter`: on a port, a GetAccounts
    /// then costs no round trip to the agent. The agent announces new keys, not every change
    /// that makes the keystore untrusted (a folder above it made writable by others,
    /// `ChangeableByOthers`): that shows within the same second.
    func answer(notBefore instant: ContinuousClock.Instant, orHeardNothingSince mark: Int?) -> GetAccountsResult? {
        stored.withLock { stored in
            guard let stored else { return nil }
            if stored.askedAt >= instant { return stored.answer }
            guard let mark, stored.mark == mark, ContinuousClock.now - stored.askedAt < KeystoreReadCache.revalidateAfter else { return nil }
            return stored.answer
        }
    }

    func store(_ answer: GetAccountsResult, askedAt: ContinuousClock.Instant, mark: Int?) {
        stored.withLock { $0 = (askedAt, mark, answer) }
    }
}
