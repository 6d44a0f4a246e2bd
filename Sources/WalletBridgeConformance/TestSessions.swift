#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeSessions
import WalletBridgeTransactions

/// The conformance host's sessions: the real `SessionService` over the test keys, with
/// everything that would make an answer differ from one run to the next fixed, so that
/// Tests/Fixtures/sessions.json can pin whole sessions and signatures.
///
/// - The person: `WALLET_BRIDGE_TEST_CONSENT` decides every answer (`TestConsent`).
/// - The clock: `WALLET_BRIDGE_TEST_NOW` seconds since the epoch, `defaultNow` unless set. It
///   never moves, so expiries are exact.
/// - Topics: the n-th session opened is n in 64 hex digits (`...0001` first), not random.
/// - The store: in memory, with sessions already in it (`preseeded`, `preseededEthereum`,
///   `preseededTransactions`, `preseededSite`), so that a fixture of one request can use, extend or end one.
/// - No extension names: the host's parent is a test runner, not a browser with a profile.
package enum TestSessions {
    /// 2027-01-15T08:00:00Z: a fixed "now", far enough ahead that no real clock is near it.
    package static let defaultNow = 1_800_000_000
    /// The caller of the pre-seeded session: the Chrome origin the fixtures use elsewhere.
    package static let preseededCaller = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
    /// Fixed, and unlike any counted topic.
    package static let preseededTopic = String(repeating: "5eed", count: 16)
    /// Seconds a session lasts: the default `session_lifetime`.
    package static let lifetime = 604_800

    /// What the environment asks for, or why it cannot be had.
    package struct SetupError: Error, CustomStringConvertible {
        package let description: String
    }

    /// The session service the conformance host registers, over the keys of `keys`.
    package static func service(keys: InMemoryTestWallet) throws(SetupError) -> SessionService {
        let consent = try TestConsent.fromEnvironment()
        let now = try clock()
        let store = SessionStore(
            inMemory: [
                preseeded(now: now), preseededEthereum(now: now), preseededTransactions(now: now),
                preseededSite(now: now),
            ],
            now: { now })
        var service = SessionService(
            store: store, wallet: InMemorySessionWallet(keys: keys, consent: consent), lifetime: lifetime)
        service.clocks.wall = { now }
        if let timeout = try proposalTimeout() { service.proposalTimeout = timeout }
        let counter = TopicCounter()
        service.newTopic = { counter.next() }
        return service
    }

    /// The one session the host starts with: approved a day before `now` for `preseededCaller`,
    /// Solana mainnet (required) and devnet (optional), `solana_signMessage` and
    /// `solana_getAccounts`, `accountsChanged`. It expires 6 days after `now`, so that
    /// `session_extend` visibly moves it to 7.
    package static func preseeded(now: Int) -> Session {
        let created = now - 86_400
        return Session(
            topic: preseededTopic,
            caller: SessionCaller(.chromeExtension(origin: preseededCaller)),
            callerName: nil,
            metadata: PeerMetadata(
                name: "Fixture dApp", description: "The conformance host's pre-seeded session",
                url: "https://example.org",
                icons: ["https://example.org/icon.png"]),
            requiredNamespaces: [
                SolanaChain.namespace: Namespace(
                    chains: [SolanaChain.mainnet], methods: [SolanaMethod.signMessage, SolanaMethod.getAccounts],
                    events: [SessionEvent.accountsChanged])
            ],
            optionalNamespaces: [
                SolanaChain.namespace: Namespace(chains: [SolanaChain.devnet], methods: [SolanaMethod.signMessage])
            ],
            namespaces: [
                SolanaChain.namespace: Namespace(
                    chains: [SolanaChain.mainnet, SolanaChain.devnet],
                    methods: [SolanaMethod.signMessage, SolanaMethod.getAccounts],
                    events: [SessionEvent.accountsChanged])
            ],
            created: created,
            expiry: created + lifetime
        )
    }

    /// The caller of the pre-seeded Ethereum session: another extension, so that the Solana
    /// session's caller still lists one session.
    package static let preseededEthereumCaller = "chrome-extension://mnopmnopmnopmnopmnopmnopmnopmnop/"
    package static let preseededEthereumTopic = String(repeating: "e155", count: 16)

    /// The second session the host starts with, for `preseededEthereumCaller`: Ethereum mainnet
    /// (required), Polygon and Base (optional), every `eip155` method the wallet serves, `accountsChanged` and
    /// `chainChanged`; created and expiring as `preseeded`.
    package static func preseededEthereum(now: Int) -> Session {
        let created = now - 86_400
        let polygon = ChainID("eip155:137")!, base = ChainID("eip155:8453")!
        return Session(
            topic: preseededEthereumTopic,
            caller: SessionCaller(.chromeExtension(origin: preseededEthereumCaller)),
            callerName: nil,
            metadata: PeerMetadata(
                name: "Fixture Pay", description: "The conformance host's pre-seeded Ethereum session",
                url: "https://pay.example.org"),
            requiredNamespaces: [
                EIP155.namespace: Namespace(
                    chains: [EIP155.mainnet], methods: EIP155.methods, events: [SessionEvent.accountsChanged])
            ],
            optionalNamespaces: [
                EIP155.namespace: Namespace(
                    chains: [polygon, base], methods: EIP155.methods, events: [EIP155.chainChangedEvent])
            ],
            namespaces: [
                EIP155.namespace: Namespace(
                    chains: [EIP155.mainnet, polygon, base], methods: EIP155.methods,
                    events: [SessionEvent.accountsChanged, EIP155.chainChangedEvent])
            ],
            created: created,
            expiry: created + lifetime
        )
    }

    /// The caller of the pre-seeded session for Solana transactions: a third extension, so that
    /// the other sessions' callers still list one session each.
    package static let preseededTransactionsCaller = "chrome-extension://ponmponmponmponmponmponmponmponm/"
    package static let preseededTransactionsTopic = String(repeating: "501a", count: 16)

    /// The third session the host starts with, for `preseededTransactionsCaller`: Solana mainnet
    /// and devnet with every Solana method the wallet serves (transactions included), and
    /// `accountsChanged`; created and expiring as `preseeded`.
    package static func preseededTransactions(now: Int) -> Session {
        let created = now - 86_400
        let solana = Namespace(
            chains: [SolanaChain.mainnet, SolanaChain.devnet],
            methods: WalletSupport.default.namespaces[SolanaChain.namespace]?.methods ?? [],
            events: [SessionEvent.accountsChanged])
        return Session(
            topic: preseededTransactionsTopic,
            caller: SessionCaller(.chromeExtension(origin: preseededTransactionsCaller)),
            callerName: nil,
            metadata: PeerMetadata(
                name: "Fixture Swap", description: "The conformance host's pre-seeded session for transactions",
                url: "https://swap.example.org"),
            requiredNamespaces: [SolanaChain.namespace: solana],
            optionalNamespaces: [:],
            namespaces: [SolanaChain.namespace: solana],
            created: created,
            expiry: created + lifetime
        )
    }

    /// The site of the pre-seeded session of a site.
    package static let preseededSiteOrigin = "https://app.example.org"
    package static let preseededSiteTopic = String(repeating: "5173", count: 16)

    /// The fourth session the host starts with: `preseededCaller`'s for the site
    /// `preseededSiteOrigin`, Solana mainnet with `solana_signMessage` and `solana_getAccounts`,
    /// `accountsChanged`; created and expiring as `preseeded`. The caller's own session
    /// (`preseeded`) and this one never see each other: a session belongs to (caller, site).
    package static func preseededSite(now: Int) -> Session {
        let created = now - 86_400
        let solana = Namespace(
            chains: [SolanaChain.mainnet], methods: [SolanaMethod.signMessage, SolanaMethod.getAccounts],
            events: [SessionEvent.accountsChanged])
        return Session(
            topic: preseededSiteTopic,
            caller: SessionCaller(.chromeExtension(origin: preseededCaller)),
            origin: preseededSiteOrigin,
            callerName: nil,
            metadata: PeerMetadata(
                name: "Fixture Site", description: "The conformance host's pre-seeded session of a site",
                url: preseededSiteOrigin),
            requiredNamespaces: [SolanaChain.namespace: solana],
            optionalNamespaces: [:],
            namespaces: [SolanaChain.namespace: solana],
            created: created,
            expiry: created + lifetime
        )
    }

    /// `WALLET_BRIDGE_TEST_PROPOSAL_TIMEOUT_MS`: how long a proposal waits here (the shipped
    /// host's is the configuration's `proposal_timeout`); nil when unset.
    private static func proposalTimeout() throws(SetupError) -> Duration? {
        guard let text = Environment.string("WALLET_BRIDGE_TEST_PROPOSAL_TIMEOUT_MS") else { return nil }
        guard let milliseconds = Int(text), milliseconds > 0 else {
            throw SetupError(
                description:
                    "WALLET_BRIDGE_TEST_PROPOSAL_TIMEOUT_MS must be a positive number of milliseconds, not \(text)")
        }
        return .milliseconds(milliseconds)
    }

    /// `WALLET_BRIDGE_TEST_NOW`, or `defaultNow`. A value that is not a positive integer stops
    /// the host: a fixture that meant a clock must not run with another.
    private static func clock() throws(SetupError) -> Int {
        guard let text = Environment.string("WALLET_BRIDGE_TEST_NOW") else { return defaultNow }
        guard let seconds = Int(text), seconds > 0 else {
            throw SetupError(
                description: "WALLET_BRIDGE_TEST_NOW must be a positive number of seconds since the epoch, not \(text)")
        }
        return seconds
    }

    /// The topics of sessions opened here, one after the other from 1.
    private final class TopicCounter: Sendable {
        private let count = Atomic<UInt64>(0)

        func next() -> String {
            let n = count.add(1, ordering: .relaxed).newValue
            let digits = String(n, radix: 16)
            return String(repeating: "0", count: 64 - digits.count) + digits
        }
    }
}

/// How the conformance host's person answers every question, dialogs and signatures alike:
/// `WALLET_BRIDGE_TEST_CONSENT`.
package enum TestConsent: String, Sendable {
    /// Yes to everything (the default).
    case approve
    /// No to everything: 5000 for a proposal, 4001 for a signature in a session.
    case reject
    /// No answer, ever: only a deadline ends the wait (8000 for a proposal, with a short
    /// `WALLET_BRIDGE_TEST_PROPOSAL_TIMEOUT_MS`).
    case hang
    /// Nobody can be asked, as when pinentry cannot show a dialog: -1 with `no_prompt` for a
    /// proposal.
    case unavailable

    /// `WALLET_BRIDGE_TEST_CONSENT`, `approve` when unset. An unknown value stops the host.
    static func fromEnvironment() throws(TestSessions.SetupError) -> TestConsent {
        guard let text = Environment.string("WALLET_BRIDGE_TEST_CONSENT") else { return .approve }
        guard let consent = TestConsent(rawValue: text) else {
            throw TestSessions.SetupError(
                description: "WALLET_BRIDGE_TEST_CONSENT must be approve, reject, hang or unavailable, not \(text)")
        }
        return consent
    }
}

/// The test keys behind sessions, with a person who answers as `consent` says. Signing asks
/// that person too, as the keystore wallet asks for every signature; GetAccounts and
/// SignPayloads outside sessions stay the plain `InMemoryTestWallet`, which asks nobody.
struct InMemorySessionWallet: SessionWallet {
    let keys: InMemoryTestWallet
    let consent: TestConsent
    /// Never set: the conformance host names no extension from a browser profile.
    var browserProcess: Int32?

    init(keys: InMemoryTestWallet, consent: TestConsent) {
        self.keys = keys
        self.consent = consent
    }

    func accountsAtHand(context: RequestContext) throws -> GetAccountsResult {
        try keys.accountsAtHand(context: context)
    }

    func accounts(context: RequestContext) throws -> SessionAccounts {
        SessionAccounts(
            walletlibAddresses: try keys.accountsAtHand(context: context).addresses, eip155: keys.ethereumAddresses)
    }

    func ask(_ question: ConsentQuestion, for caller: Caller) async throws -> Result<Bool, ConsentRefusal> {
        switch consent {
        case .approve: return .success(true)
        case .reject: return .success(false)
        case .hang: try await Self.waitUntilCancelled()
        case .unavailable: return .failure(.unavailable("WALLET_BRIDGE_TEST_CONSENT is unavailable", fix: Self.fix))
        }
    }

    /// The answers of `KeystoreWallet.signPayloads` for each consent: signed, -3 `declined`,
    /// no answer, -3 `no_passphrase_prompt`.
    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        try await signed { try await keys.signPayloads(params, context: context) }
    }

    /// As `signPayloads` answers, for each consent.
    func signMessage(_ message: [UInt8], publicKey: [UInt8], context: RequestContext) async throws -> [UInt8] {
        try await signed { try keys.signSolana([message], publicKey: publicKey)[0] }
    }

    /// As `signPayloads` answers, for each consent.
    func signEthereum(_ request: EthereumSigningRequest, context: RequestContext) async throws -> [UInt8] {
        try Self.checkFits(request.transactionConsent, context: context, at: request.transactionField)
        return try await signed { try keys.signEthereum(request) }
    }

    /// As `signPayloads` answers, for each consent.
    func signSolana(_ request: SolanaSigningRequest, context: RequestContext) async throws -> [[UInt8]] {
        try Self.checkFits(request.consent, context: context, at: request.field)
        return try await signed { try keys.signSolana(request.messages, publicKey: request.publicKey) }
    }

    /// As the keystore wallet refuses before any dialog: transactions whose warnings about funds
    /// and actions that move funds cannot all be shown (`ConsentRequest.checkTransactionsFit`).
    private static func checkFits(_ consent: TransactionConsent?, context: RequestContext, at field: String) throws {
        var request = ConsentRequest(caller: context.caller, keyLabel: "test", shortAddress: "", payloads: [])
        request.site = context.site
        request.transactions = consent
        do throws(TransactionConsent.TooMuch) { try request.checkTransactionsFit() } catch {
            throw error.rpcError(at: field)
        }
    }

    /// What `sign` gives when the person approves; the keystore wallet's refusals otherwise.
    private func signed<T>(_ sign: () async throws -> T) async throws -> T {
        switch consent {
        case .approve:
            return try await sign()
        case .reject:
            throw RPCError(.notSigned, reason: .declined)
        case .hang:
            try await Self.waitUntilCancelled()
        case .unavailable:
            throw RPCError(.notSigned, reason: .noPassphrasePrompt, fix: Self.fix)
        }
    }

    /// What a person would be told to do when nobody can be asked.
    static let fix = "set WALLET_BRIDGE_TEST_CONSENT to approve, reject or hang"

    /// Sleeps until the task is cancelled (a proposal's or a request's deadline), then throws.
    private static func waitUntilCancelled() async throws -> Never {
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
