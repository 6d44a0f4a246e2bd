#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol

/// The session methods of docs/sessions.md (`session_connect`, `session_list`,
/// `session_request`, `session_extend`, `session_disconnect`), and the rule that walletlib's
/// GetAccounts and SignPayloads need a session. Served by the agent, which keeps the store and
/// passes `announce`d events to the extensions' ports.
///
/// Every method acts for the caller the browser named (`RequestContext.caller`) and the site
/// its params name (`origin`, which the extension takes from what the browser told it about the
/// page): a session belongs to one extension and one site (or none: the extension's own), and
/// no other extension, nor the same extension for another site, can see, use, extend or end it.
package struct SessionService: Sendable {
    package let store: SessionStore
    /// The keys, the dialogs and the signing: the keystore's in the agent, an in-memory one in
    /// the conformance host.
    package var wallet: any SessionWallet
    /// Seconds a session lasts from its approval or its last extension (`session_lifetime`).
    package var lifetime: Int
    package var support = WalletSupport.default
    /// Tells the caller's ports (`session_update`, `session_delete`, …); the agent's event hub.
    package var announce: @Sendable (_ caller: SessionCaller, _ method: String, _ params: JSONValue) -> Void = {
        _, _, _ in
    }
    /// Sessions' times and requests' expiries (`wall`), and the deadlines of proposals and
    /// requests (`monotonic`), waited for with `sleep(until:)`: a test moves them on to see the
    /// 8000 of a deadline minutes away without waiting for it.
    package var clocks = Clocks.system
    /// Names each new session. Random in the agent; the conformance host counts instead, so
    /// that the fixtures can pin a whole session.
    package var newTopic: @Sendable () -> String = Session.newTopic

    /// How long a proposal, or GetAccounts' and SignPayloads' question to connect, waits for
    /// the person (`proposal_timeout`; WalletKit's 5 minutes by default).
    package var proposalTimeout: Duration = Self.defaultProposalTimeout
    package static let defaultProposalTimeout: Duration = .seconds(300)
    /// The expiry a request may name: from 5 minutes to 7 days from now (WalletKit's bounds).
    package static let requestExpiryRange = 300...604_800
    /// What GetAccounts approves for an extension without a session (walletlib's methods).
    package static let walletlibNamespaces: Namespaces = [
        SolanaChain.namespace: Namespace(
            chains: [SolanaChain.mainnet], methods: [SolanaMethod.signMessage], events: [SessionEvent.accountsChanged])
    ]

    package init(store: SessionStore, wallet: any SessionWallet, lifetime: Int) {
        (self.store, self.wallet, self.lifetime) = (store, wallet, lifetime)
    }

    // MARK: The methods

    /// Each method's params are a type (SessionParams.swift) whose members' readers name the
    /// exact field that is wrong (`requiredNamespaces.solana.chains[1]`).
    package enum Connect: RPCMethod {
        package static let name = "session_connect"
        package typealias Params = SessionConnectParams
        package typealias Result = SessionWire
        package static var asksThePerson: Bool { true }
    }

    package enum List: RPCMethod {
        package static let name = "session_list"
        package typealias Params = SessionListParams
        package typealias Result = SessionListResult
    }

    package enum Request: RPCMethod {
        package static let name = "session_request"
        package typealias Params = SessionRequestParams
        package typealias Result = SessionRequestResult
        package static var asksThePerson: Bool { true }
    }

    package enum Extend: RPCMethod {
        package static let name = "session_extend"
        package typealias Params = SessionExtendParams
        package typealias Result = SessionExtendResult
    }

    package enum Disconnect: RPCMethod {
        package static let name = "session_disconnect"
        package typealias Params = SessionDisconnectParams
        package typealias Result = SessionDisconnectResult
    }

    /// `session_connect`: checks the proposal, asks the person, and answers the session.
    package func connect(_ params: SessionConnectParams, context: RequestContext) async throws -> SessionWire {
        let origin = params.origin?.origin
        let required = params.requiredNamespaces?.namespaces ?? [:]
        let optional = params.optionalNamespaces?.namespaces ?? [:]
        let metadata = params.metadata.metadata
        var approved = try Namespaces.approve(required: required, optional: optional, support: support)
        let accounts = try wallet.accounts(context: context)
        try Self.keepNamespacesWithAccounts(&approved, required: required, accounts: accounts)
        let callerName = await wallet.callerName(of: context.caller)
        let question = SessionConsent.connect(
            caller: context.caller, callerName: callerName, origin: origin, metadata: metadata, namespaces: approved,
            keyCount: accounts.count(in: approved.keys))
        try await askOrThrow(
            question, for: context.caller, expiring: clocks.monotonic() + proposalTimeout,
            rejected: RPCError(.userRejected))
        let session = try open(
            caller: context.caller, origin: origin, callerName: callerName, metadata: metadata, required: required,
            optional: optional,
            approved: approved)
        return session.wire(accounts: accounts)
    }

    /// A session shows accounts in every namespace it holds: a required namespace the wallet
    /// has no key for is 5103 (saying which key to make); an optional one is left out.
    private static func keepNamespacesWithAccounts(
        _ approved: inout Namespaces, required: Namespaces, accounts: SessionAccounts
    ) throws(RPCError) {
        let noKey = RPCError(
            .unsupportedAccounts,
            data: .object(["problem": .string("the wallet has no key: `wallet-bridge keys create` makes one")]))
        guard !accounts.solana.isEmpty || !accounts.eip155.isEmpty else { throw noKey }
        for name in approved.keys.sorted() where accounts.addresses(in: name).isEmpty {
            guard required[name] == nil else {
                let make =
                    name == EIP155.namespace
                    ? "`wallet-bridge keys create --type ethereum`" : "`wallet-bridge keys create`"
                throw RPCError(
                    .unsupportedAccounts,
                    data: .object([
                        "problem": .string("the wallet has no key for the \(name) namespace: \(make) makes one"),
                        "namespaces": .array([.string(name)]),
                    ]))
            }
            approved[name] = nil
        }
        guard !approved.isEmpty else { throw noKey }
    }

    /// `session_list`: the caller's live sessions for the site `origin` names (its own without
    /// one), oldest first.
    package func list(_ params: SessionListParams, context: RequestContext) throws -> SessionListResult {
        let origin = params.origin?.origin
        let accounts = try wallet.accounts(context: context)
        let sessions = store.sessions(of: SessionCaller(context.caller), origin: origin)
        return SessionListResult(sessions: sessions.map { $0.wire(accounts: accounts) })
    }

    /// `session_request`: one request inside a session, checked against it.
    package func request(_ params: SessionRequestParams, context: RequestContext) async throws -> SessionRequestResult {
        let session = try liveSession(topic: params.topic.topic, origin: params.origin?.origin, context: context)
        let (chain, method) = (params.chainId.chain, params.request.method)
        guard session.namespaces.holds(chain) else {
            throw RPCError(.unauthorizedChain, data: .object(["chainId": .string(chain.description)]))
        }
        guard session.namespaces.allows(method: method, on: chain) else {
            var data: [String: JSONValue] = ["method": .string(String(method.prefix(256)))]
            if let instead = Self.insteadOfSending[method] { data["problem"] = .string(instead) }
            throw RPCError(.unauthorizedMethod, data: .object(data))
        }
        var deadline: ContinuousClock.Instant?
        if let seconds = params.expiry?.seconds {
            let fromNow = seconds - clocks.wall()
            guard Self.requestExpiryRange.contains(fromNow) else {
                throw Self.invalid("expiry", "must be between 5 minutes and 7 days from now")
            }
            deadline = clocks.monotonic() + .seconds(fromNow)
        }
        // The dialogs it opens name the session's site (`ConsentRequest.site`).
        var sited = context
        sited.site = session.origin
        let request = InnerRequest(
            session: session, method: method, params: params.request.params, chain: chain, context: sited,
            deadline: deadline, clocks: clocks)
        return try await dispatch(request)
    }

    /// What 3001 says of the methods that send a transaction, which no session allows: the
    /// wallet has no network, so it signs, and the extension sends.
    static let insteadOfSending: [String: String] = sendingAdvice.mapValues { "\(noNetwork): \($0)" }

    /// For each method that sends, what to do instead.
    private static let sendingAdvice: [String: String] = [
        EIP155.sendTransactionMethod:
            "sign with eth_signTransaction, then broadcast the signed transaction with eth_sendRawTransaction "
            + "from the extension",
        SolanaMethod.signAndSendTransaction:
            "sign with solana_signTransaction, then send the signed transaction from the extension (sendTransaction)",
    ]
    private static let noNetwork = "the wallet has no network and sends nothing"

    /// What 5101 says when a proposal requires methods that send: nil when `methods` has none.
    static func sendingProblem(_ methods: [String]) -> String? {
        let sending = Namespace.unique(methods.filter { sendingAdvice[$0] != nil })
        guard !sending.isEmpty else { return nil }
        return "\(noNetwork), so it offers no \(sending.joined(separator: " or ")): "
            + sending.compactMap { sendingAdvice[$0] }.joined(separator: "; ")
    }

    /// `session_extend`: the session lasts `lifetime` from now.
    package func extend(_ params: SessionExtendParams, context: RequestContext) throws -> SessionExtendResult {
        let (origin, topic) = (params.origin?.origin, params.topic.topic)
        let caller = SessionCaller(context.caller)
        guard let session = try store.extend(topic: topic, caller: caller, origin: origin, lifetime: lifetime) else {
            throw RPCError(.noSessionForTopic)
        }
        announceUpdate(session, context: context)
        return SessionExtendResult(expiry: session.expiry)
    }

    /// `session_disconnect`: ends the session; the caller's other ports hear `session_delete`.
    package func disconnect(
        _ params: SessionDisconnectParams, context: RequestContext
    ) throws -> SessionDisconnectResult {
        let (origin, topic) = (params.origin?.origin, params.topic.topic)
        let reason = params.reason?.json ?? Self.userDisconnected
        guard let session = try store.remove(topic: topic, caller: SessionCaller(context.caller), origin: origin) else {
            throw RPCError(.noSessionForTopic)
        }
        notify(session, "session_delete", ["reason": reason])
        return SessionDisconnectResult()
    }

    /// WalletConnect's reason for a session the person ended.
    package static let userDisconnected: JSONValue = .object([
        "code": .number(JSONNumber(ErrorCode.userDisconnected.rawValue)), "message": .string("User disconnected"),
    ])

    // MARK: Events

    /// Tells `session`'s caller's ports `method`, with `members`, the session's topic and its
    /// origin (`Session.notification`).
    package func notify(_ session: Session, _ method: String, _ members: [String: JSONValue] = [:]) {
        announce(session.caller, method, session.notification(members))
    }

    /// The keystore's accounts now (none when it cannot be read).
    package func currentAccounts() -> SessionAccounts {
        (try? wallet.accounts(
            context: RequestContext(
                caller: .unidentified, requestID: nil, method: "keys", receivedAt: clocks.monotonic())))
            ?? SessionAccounts()
    }

    /// Tells each live session's ports that its accounts are now `accounts`: a `session_event`
    /// (`accountsChanged`, its chain's CAIP-10 accounts) per chain, for sessions that asked for
    /// that event, and a `session_update` with the namespaces' new accounts for every session.
    package func announceAccounts(_ accounts: SessionAccounts) {
        for session in store.all() {
            if session.namespaces.values.contains(where: { $0.events.contains(SessionEvent.accountsChanged) }) {
                for chain in session.namespaces.allChains
                where session.namespaces[chain.namespace]?.events.contains(SessionEvent.accountsChanged) == true {
                    notify(
                        session, "session_event",
                        [
                            "chainId": .string(chain.description),
                            "event": .object([
                                "name": .string(SessionEvent.accountsChanged),
                                "data": .array(
                                    accounts.addresses(in: chain.namespace).map { .string("\(chain):\($0)") }),
                            ]),
                        ])
                }
            }
            notify(
                session, "session_update",
                [
                    "namespaces": session.namespaces.json(accounts: accounts),
                    "expiry": .number(JSONNumber(session.expiry)),
                ])
        }
    }

    // MARK: walletlib's methods under sessions

    /// GetAccounts: the addresses for a caller with a session; a caller without one is asked
    /// about once ("… wants to see your accounts"), and approving opens a session.
    package func accounts(context: RequestContext) async throws -> GetAccountsResult {
        try await ensureSession(for: context, allowing: nil)
        return try wallet.accountsAtHand(context: context)
    }

    /// GetAccounts without a dialog: the addresses for a caller with a session; nil for one
    /// without (which `accounts` would ask about).
    package func accountsIfConnected(context: RequestContext) throws -> GetAccountsResult? {
        let addresses = try wallet.accountsAtHand(context: context).addresses
        let known = store.snapshot()
        let caller = SessionCaller(context.caller)
        return ConnectedRule.accounts(addresses: addresses, sessions: known.sessions, caller: caller, now: known.now)
    }

    /// SignPayloads: needs a session that allows signing; without one the person is asked to
    /// connect first, then, as always, to sign.
    package func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult
    {
        try await ensureSession(for: context, allowing: SolanaMethod.signMessage)
        return try await wallet.signPayloads(params, context: context)
    }

    /// A caller that has a live session (that allows `method` somewhere, when given) goes on
    /// at once; any other is asked to connect with walletlib's namespaces.
    private func ensureSession(for context: RequestContext, allowing method: String?) async throws {
        let caller = SessionCaller(context.caller)
        let sessions = store.sessions(of: caller, origin: nil)
        let allowed = sessions.contains { session in
            method.map { method in
                session.namespaces.allChains.contains { session.namespaces.allows(method: method, on: $0) }
            } ?? true
        }
        if allowed { return }
        let keyCount = try wallet.accounts(context: context).solana.count
        // Nothing to see: no one is asked to approve an empty list (the next call after a key
        // is made asks).
        if keyCount == 0, method == nil { return }
        let callerName = await wallet.callerName(of: context.caller)
        let question = SessionConsent.seeAccounts(caller: context.caller, callerName: callerName, keyCount: keyCount)
        let declined = RPCError(.authorizationFailed, reason: .declined)
        try await askOrThrow(
            question, for: context.caller, expiring: clocks.monotonic() + proposalTimeout, rejected: declined)
        // It said nothing about itself: the session says how it came about instead.
        let metadata = PeerMetadata(name: "(none: connected by GetAccounts or SignPayloads)")
        _ = try open(
            caller: context.caller, origin: nil, callerName: callerName, metadata: metadata,
            required: Self.walletlibNamespaces,
            optional: [:],
            approved: Self.walletlibNamespaces)
    }

    // MARK: Parts

    private func open(
        caller: Caller, origin: String?, callerName: String?, metadata: PeerMetadata, required: Namespaces,
        optional: Namespaces,
        approved: Namespaces
    ) throws(RPCError) -> Session {
        let created = clocks.wall()
        let session = Session(
            topic: newTopic(), caller: SessionCaller(caller), origin: origin, callerName: callerName,
            metadata: metadata,
            requiredNamespaces: required, optionalNamespaces: optional, namespaces: approved, created: created,
            expiry: created + lifetime)
        try store.add(session)
        Log.info(
            "session \(session.topic.prefix(8))… opened for \(caller)\(origin.map { " and the site \($0)" } ?? "")")
        return session
    }

    /// Asks in turn; throws `rejected` when the person says no, 8000 when `deadline` passes
    /// first (the dialog is closed), and -1 with `no_prompt` when nobody can be asked.
    private func askOrThrow(
        _ question: ConsentQuestion, for caller: Caller, expiring deadline: ContinuousClock.Instant, rejected: RPCError
    ) async throws {
        let answer = try await Self.withDeadline(deadline, clocks: clocks) {
            try await wallet.ask(question, for: caller)
        }
        switch answer {
        case .success(true): return
        case .success(false), .failure(.declined): throw rejected
        case .failure(.unavailable(_, let fix)):
            throw RPCError(.authorizationFailed, reason: .noPrompt, fix: fix)
        case .failure(.wrongPassphrase): throw rejected
        }
    }

    /// `solana_signMessage`: the message signed by the key it names, after the person's consent.
    fileprivate func signMessage(
        _ params: SolanaSignMessage.Params, _ request: InnerRequest
    ) async throws -> SolanaSignMessage.Result {
        let context = request.context
        // A request whose port closed meanwhile goes no further.
        try Task.checkCancellation()
        let (pubkey, message) = (params.pubkey, params.message)
        let accounts = try wallet.accounts(context: context).solana
        guard accounts.contains(Base58.encode(pubkey)) else { throw Self.noSuchSolanaAccount(accounts) }
        let signature = try await request.sign { [wallet] in
            try await wallet.signMessage(message, publicKey: pubkey, context: context)
        }
        guard signature.count == Ed25519.signatureBytes else {
            throw RPCError(.internalError, data: .object(["problem": .string("the signature has an unexpected shape")]))
        }
        return SolanaSignMessage.Result(signature: Base58.encode(signature))
    }

    /// The live session `topic` names, of the caller for the site `origin` names; 7001 when
    /// there is none, whatever the reason.
    private func liveSession(topic: String, origin: String?, context: RequestContext) throws -> Session {
        guard let session = store.session(topic: topic, caller: SessionCaller(context.caller), origin: origin) else {
            throw RPCError(.noSessionForTopic)
        }
        return session
    }

    private func announceUpdate(_ session: Session, context: RequestContext) {
        let accounts = (try? wallet.accounts(context: context)) ?? SessionAccounts()
        notify(
            session, "session_update",
            [
                "namespaces": session.namespaces.json(accounts: accounts),
                "expiry": .number(JSONNumber(session.expiry)),
            ])
    }

    /// Runs `body`, and cancels it when `deadline` passes first on `clocks`: 8000 "Session
    /// request expired". Cancelling closes any dialog it has open.
    static func withDeadline<T: Sendable>(
        _ deadline: ContinuousClock.Instant, clocks: Clocks, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await clocks.sleep(until: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw RPCError(.sessionRequestExpired)
            }
            return value
        }
    }

    static func invalid(_ field: String, _ problem: String) -> RPCError { .invalidParams(field, problem) }
}

/// `session_list`'s answer.
package struct SessionListResult: Codable, Equatable, Sendable {
    package var sessions: [SessionWire]
}

/// `session_request`'s answer: the namespace method's result, encoded as its type says. Its
/// schema is theirs, one of (`SessionSchemas.requestResult`): which one, the inner method decides.
package struct SessionRequestResult: Codable, Sendable, JSONSchemaPlaceholding {
    package let value: any Encodable & Sendable
    package static var jsonSchema: JSONValue { SessionSchemas.requestResult }
    package static var schemaPlaceholder: Self { Self(JSONValue.null) }

    init(_ value: any Encodable & Sendable) { self.value = value }

    /// A result read back (a client's) is kept as the JSON it was.
    package init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }

    package func encode(to encoder: any Encoder) throws {
        // Through a container, so the encoder sees the value's own type (a `JSONValue` is then
        // written as parsed).
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// `session_extend`'s answer: the session's new expiry, in seconds since 1970.
package struct SessionExtendResult: Codable, Equatable, Sendable, JSONSchemaConstraining {
    package var expiry: Int
    package static var memberConstraints: [String: JSONValue] { ["expiry": SessionSchemas.expiryConstraint] }
}

/// `session_disconnect`'s answer: `{}`.
package struct SessionDisconnectResult: Codable, Equatable, Sendable, JSONSchemaConstraining {
    /// An object with no members (derivation sees one whose members it cannot name).
    package static var typeConstraints: [String: JSONValue] { ["properties": .null, "maxProperties": 0] }
    package init() {}
    package init(from decoder: any Decoder) throws { _ = try decoder.container(keyedBy: NoKeys.self) }
    package func encode(to encoder: any Encoder) throws { _ = encoder.container(keyedBy: NoKeys.self) }
    private enum NoKeys: CodingKey {}
}

/// `solana_signMessage`: `{"message", "pubkey"}` (base58) → `{"signature"}` (base58).
enum SolanaSignMessage: NamespaceMethod {
    static let name = SolanaMethod.signMessage

    /// `{"message", "pubkey"}`, both in base58.
    struct Params: Codable, Sendable, Equatable, JSONSchemaConstraining {
        let pubkey: [UInt8]
        let message: [UInt8]

        private enum CodingKeys: String, CodingKey { case message, pubkey }

        init(pubkey: [UInt8], message: [UInt8]) { (self.pubkey, self.message) = (pubkey, message) }

        init(from decoder: any Decoder) throws {
            let members = try NamespaceParams.object(
                decoder, keyedBy: CodingKeys.self, expected: "expected {\"message\", \"pubkey\"}")
            // Both are bounded by their length before they are decoded (`Base58`); the pubkey
            // first, as the cheaper.
            pubkey = try members.decodeMember(SolanaPublicKeyMember.self, forKey: .pubkey).bytes
            message = try members.decodeMember(SolanaMessageMember.self, forKey: .message).bytes
        }

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: CodingKeys.self)
            try members.encode(SolanaMessageMember(bytes: message), forKey: .message)
            try members.encode(SolanaPublicKeyMember(bytes: pubkey), forKey: .pubkey)
        }

        static var typeConstraints: [String: JSONValue] { ["title": "SignMessageParams"] }
        static var memberConstraints: [String: JSONValue] {
            [
                "message": ["description": "The bytes to sign, in base58"],
                "pubkey": ["description": "The account to sign with: one of the session's keys, in base58"],
            ]
        }
    }

    struct Result: Codable, Sendable, JSONSchemaConstraining {
        let signature: String
        static var typeConstraints: [String: JSONValue] { ["title": "SignMessageResult"] }
        static var memberConstraints: [String: JSONValue] { ["signature": SessionSchemas.signature] }
    }

    static func run(_ params: Params, _ request: InnerRequest, _ service: SessionService) async throws -> Result {
        try await service.signMessage(params, request)
    }
}

/// One request inside a session, checked against it: what each namespace's methods take.
struct InnerRequest: Sendable {
    /// The live session the request is made in.
    let session: Session
    let method: String
    let params: JSONValue?
    let chain: ChainID
    let context: RequestContext
    /// The request's `expiry`, when it named one.
    let deadline: ContinuousClock.Instant?
    /// `SessionService.clocks`, on which the deadline passes.
    let clocks: Clocks

    /// Runs a signature, within the deadline when there is one; the person's refusal (-3
    /// `declined` from the wallet) is EIP-1193's and WalletConnect's 4001.
    func sign<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            if let deadline { return try await SessionService.withDeadline(deadline, clocks: clocks, body) }
            return try await body()
        } catch let error as RPCError where error.code == .notSigned && error.reason == .declined {
            throw RPCError(.userRejectedRequest)
        }
    }
}

extension Session {
    /// What `wallet-bridge sessions list` shows: who, what they said, what they may do, until
    /// when. No accounts: those are the keystore's keys.
    package var summary: JSONValue {
        var members: [String: JSONValue] = [
            "topic": .string(topic),
            "caller": .object(["kind": .string(caller.kind.rawValue), "id": .string(caller.id)]),
            "metadata": metadata.json, "namespaces": namespaces.json(),
            "created": .number(JSONNumber(created)), "expiry": .number(JSONNumber(expiry)),
        ]
        if let callerName { members["callerName"] = .string(callerName) }
        if let origin { members["origin"] = .string(origin) }
        return .object(members)
    }
}

/// walletlib's two methods, each needing a session (`SessionService.accounts`,
/// `SessionService.signPayloads`), behind the router's usual checks for SignPayloads.
struct SessionGatedWallet: WalletBackend {
    let service: SessionService

    /// On the reading thread until it first suspends: a caller with a session is answered
    /// there, as the keystore wallet answers (only a caller without one waits for a dialog).
    var getAccountsExecution: Execution { .immediate }

    func getAccounts(context: RequestContext) async throws -> GetAccountsResult {
        try await service.accounts(context: context)
    }

    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        try await service.signPayloads(params, context: context)
    }
}

extension Router {
    /// Registers the session methods and walletlib's two under sessions (docs/sessions.md).
    package mutating func registerSessions(_ service: SessionService) throws(RouterError) {
        try registerWallet(SessionGatedWallet(service: service))
        try registerSessionMethods(service)
    }

    /// Registers the five `session_*` methods alone, leaving GetAccounts and SignPayloads to
    /// another wallet: the conformance host keeps its test wallet's, which the fixtures of
    /// wallet.json pin without sessions.
    package mutating func registerSessionMethods(_ service: SessionService) throws(RouterError) {
        try register(SessionService.Connect.self) { params, context in
            try await service.connect(params, context: context)
        }
        try register(SessionService.List.self, execution: .immediate) { params, context in
            try service.list(params, context: context)
        }
        try register(SessionService.Request.self) { params, context in
            try await service.request(params, context: context)
        }
        try register(SessionService.Extend.self, execution: .immediate) { params, context in
            try service.extend(params, context: context)
        }
        try register(SessionService.Disconnect.self, execution: .immediate) { params, context in
            try service.disconnect(params, context: context)
        }
    }
}
