import Synchronization
import WalletBridgeProtocol
import WalletBridgeWallet
@_spi(KeptAnswer) import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeAgent
import WalletBridgeHost

/// The wallet of a host started by a browser: GetAccounts and SignPayloads go to the agent,
/// which holds the keys, asks the person, and signs (`Agent`). The host holds no secret.
///
/// GetAccounts of an extension with a session (docs/sessions.md) is read by the host itself
/// from the files the agent keeps (`ConnectedAccounts`), when they answer for certain;
/// otherwise it is a plain call on the host's reading thread over one connection kept for the
/// host's life; and an extension without a session is asked about on the pool
/// (`AtHand.askOffThread`), as SignPayloads is, and so is a GetAccounts the agent refuses at once
/// because the extension's other ports hold all its connections (it waits its turn there). Requests read together share one answer: an answer
/// given after a request arrived is still an answer given between that request and its reply
/// (see `RequestContext.receivedAt`), so a burst of pipelined requests costs one read or one
/// round trip to the agent, not one each. SignPayloads has a connection of its own, closed when the request ends
/// for any reason: a request the extension gave up on (a timeout, a closed port) closes its
/// dialog in the agent.
///
/// When the agent is needed and cannot be reached or started, the request gets -32005 "Agent
/// unavailable" with `data.reason`, `data.problem` and `data.fix`.
package struct AgentBackedWallet: AccountsUsuallyAtHand {
    let client: AgentClient
    /// The keystore and sessions files the agent keeps; nil asks the agent every time.
    let connected: ConnectedAccounts?
    /// The last GetAccounts answer, kept under the agent's events mark when it was asked for
    /// (`EventWatch`): while the host has listened and heard no event since, for at most
    /// `KeystoreReadCache.revalidateAfter`, a GetAccounts on a port costs no round trip to the
    /// agent. The agent announces new keys, not every change that makes the keystore untrusted
    /// (a folder above it made writable by others, `ChangeableByOthers`): that shows within the
    /// same second.
    private let lastAccounts = LastAccounts()
    /// The time answers are kept by (`Clocks`); a test moves its own.
    private let clocks: Clocks

    package init(client: AgentClient, connected: ConnectedAccounts? = nil, clocks: Clocks = .system) {
        self.client = client
        self.connected = connected
        self.clocks = clocks
    }

    package var getAccountsExecution: Execution { .immediate }

    package func accountsAtHand(context: RequestContext) throws -> AtHand {
        let mark = client.events.mark.map { UInt64(truncatingIfNeeded: $0) }
        let askedAt = clocks.monotonic()
        if let kept = lastAccounts.kept.answer(notBefore: context.receivedAt, now: askedAt, mark: mark) {
            return .answer(kept.value)
        }
        if let answer = connected?.accounts(of: context.caller, notBefore: context.receivedAt) {
            keep(answer, askedAt: askedAt, mark: mark)
            return .answer(answer)
        }
        let result: JSONValue
        do {
            // No busy wait on this thread: it reads the next request, stdin's end and SIGTERM.
            result = try client.call(AgentProtocol.AccountsIfConnected.name, params: Array("{}".utf8), busyWait: .zero)
        } catch .answered(let error) where error.code == AgentProtocol.consentNeeded {
            return .askOffThread  // no session yet: `getAccounts` asks
        } catch .unavailable(let unavailable) where unavailable.reason == .tooManyConnections {
            return .askOffThread  // the extension's other ports hold its connections: `getAccounts` waits its turn
        } catch {
            throw Self.rpcError(error)
        }
        // Read by hand, not with Codable: this is the cold call's path.
        guard case .object(let members) = result, case .array(let values)? = members["addresses"],
            case let addresses = values.compactMap({ value -> String? in
                if case .string(let address) = value { address } else { nil }
            }),
            addresses.count == values.count
        else {
            throw Self.rpcError(
                .unavailable(
                    .init(reason: .notResponding, problem: "the agent's accounts are not a list of addresses", fix: nil)
                ))
        }
        let answer = GetAccountsResult(addresses: addresses)
        keep(answer, askedAt: askedAt, mark: mark)
        return .answer(answer)
    }

    /// Keeps `answer` for the requests read before `askedAt`, and, under the events mark, for
    /// reuse while no event comes: every change of a connected extension's accounts is announced
    /// to it, so its answer keeps. An empty list is not kept under the mark: it is given to any
    /// caller, connected or not, and the first key made is announced only to the connected ones.
    private func keep(_ answer: GetAccountsResult, askedAt: ContinuousClock.Instant, mark: UInt64?) {
        let expiresAt = askedAt + KeystoreReadCache.revalidateAfter
        let mark = answer.addresses.isEmpty ? nil : mark
        lastAccounts.kept.keep(answer, KeptAnswer.Validity(takenAt: askedAt, mark: mark, expiresAt: expiresAt))
    }

    /// GetAccounts for a caller without a session: the agent asks the person to connect it
    /// (docs/sessions.md), on a connection of its own whose closing closes the dialog.
    package func getAccounts(context: RequestContext) async throws -> GetAccountsResult {
        do {
            return try await client.callOnOwnConnection(GetAccounts.self, NoParams())
        } catch let error as AgentClient.CallError {
            throw Self.rpcError(error)
        }
    }

    package func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult
    {
        do {
            return try await client.callOnOwnConnection(SignPayloads.self, params)
        } catch let error as AgentClient.CallError {
            throw Self.rpcError(error)
        }
    }

    /// Passes a session method on to the agent (docs/sessions.md): those that may ask the
    /// person on a connection of their own, like SignPayloads, whose closing closes the dialog;
    /// the others on the kept connection. The params go as they came: the agent reads them as
    /// `M.Params`.
    package func forward<M: RPCMethod>(
        _ method: M.Type, _ params: JSONValue?, asksThePerson: Bool
    ) async throws -> JSONValue {
        let params: JSONValue? = params ?? .object([:])
        do {
            if asksThePerson { return try await client.callOnOwnConnection(Forwarded<M>.self, params) }
            return try client.call(Forwarded<M>.self, params)
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

/// `M` on the wire between the host and the agent: its params and result as JSON.
private enum Forwarded<M: RPCMethod>: RPCMethod {
    typealias Params = JSONValue?
    typealias Result = JSONValue
    static var name: String { M.name }
}

/// The kept answer, shared by the wallet's copies (the router's handlers hold one each).
private final class LastAccounts: Sendable {
    let kept = KeptAnswer<GetAccountsResult>()
}
