import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions

/// A person who never answers: every question and every signature waits until cancelled.
private struct SilentWallet: SessionWallet {
    static let address = "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
    var browserProcess: Int32?
    /// Each `accounts` call's `RequestContext.receivedAt`.
    let keyReads = KeyReads()

    func accounts(context: RequestContext) throws -> SessionAccounts {
        keyReads.times.withLock { $0.append(context.receivedAt) }
        return SessionAccounts(eip155: [Self.address])
    }
    func accountsAtHand(context: RequestContext) throws -> GetAccountsResult { GetAccountsResult(addresses: []) }

    func ask(_ question: ConsentQuestion, for caller: Caller) async throws -> Result<Bool, ConsentRefusal> {
        try await Self.waitForever()
        return .success(true)
    }

    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        try await Self.waitForever()
        return SignPayloadsResult(signed_payloads: [])
    }

    func signMessage(_ message: [UInt8], publicKey: [UInt8], context: RequestContext) async throws -> [UInt8] {
        try await Self.waitForever()
        return []
    }

    func signEthereum(_ request: EthereumSigningRequest, context: RequestContext) async throws -> [UInt8] {
        try await Self.waitForever()
        return []
    }

    func signSolana(_ request: SolanaSigningRequest, context: RequestContext) async throws -> [[UInt8]] {
        try await Self.waitForever()
        return []
    }

    /// A clock nobody moves: a wait on it ends only by cancellation.
    private static let stopped = ManualClock()
    private static func waitForever() async throws { try await stopped.sleep(until: stopped.now + .seconds(1)) }
}

private final class KeyReads: Sendable {
    let times = Mutex<[ContinuousClock.Instant]>([])
}

/// The 8000 of a proposal's and a request's deadline, minutes away, seen at once through the
/// session service's clocks: the test waits until the service waits on its `ManualClock`, moves
/// time to just before the deadline (the wait goes on), then onto it (the wait ends: 8000).
final class SessionDeadlineTests: XCTestCase {
    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let clock = ManualClock()
    private var now: Int { clock.wall }

    private let wallet = SilentWallet()

    private func service(store: SessionStore = SessionStore(inMemory: [])) -> SessionService {
        var service = SessionService(store: store, wallet: wallet, lifetime: 604_800)
        service.clocks = clock.clocks
        return service
    }

    private func context(_ method: String) -> RequestContext {
        RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: method, receivedAt: clock.now)
    }

    /// Runs `body` until it waits on the clock, then moves the clock to a moment before
    /// `timeout` has passed (the wait goes on) and onto it (the wait ends, and `body` throws
    /// 8000).
    private func assertExpires(
        after timeout: Duration, file: StaticString = #filePath, line: UInt = #line,
        _ body: @escaping @Sendable () async throws -> Void
    ) async {
        let askedAt = clock.now
        let task = Task { try await body() }
        defer { task.cancel() }
        // Bounded: a service that ends without waiting on the clock must fail, not hang.
        let waiting = expectation(description: "the service waits on its clock")
        Task { [clock] in
            await clock.sleepers(atLeast: 1)
            waiting.fulfill()
        }
        await fulfillment(of: [waiting], timeout: 10)
        XCTAssertEqual(
            clock.deadlines.map { $0 - askedAt }, [timeout], "the deadline waited for", file: file, line: line)
        clock.advance(by: timeout - .milliseconds(1))
        XCTAssertEqual(clock.deadlines.count, 1, "expired before its deadline", file: file, line: line)
        clock.advance(by: .milliseconds(1))
        guard clock.deadlines.isEmpty else {
            return XCTFail("still waiting at its deadline", file: file, line: line)
        }
        do {
            try await task.value
            XCTFail("answered instead of expiring", file: file, line: line)
        } catch let error as RPCError {
            XCTAssertEqual(error.code.rawValue, 8000, "\(error)", file: file, line: line)
            XCTAssertEqual(error.message, "Session request expired", file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testAProposalNobodyAnswersIs8000AtItsTimeout() async throws {
        for timeout in [SessionService.defaultProposalTimeout, Duration.seconds(42)] {
            var service = service()
            service.proposalTimeout = timeout
            let proposal: JSONValue = .object([
                "requiredNamespaces": .object([
                    "eip155": .object([
                        "chains": .array([.string("eip155:1")]), "methods": .array([.string("personal_sign")]),
                        "events": .array([]),
                    ])
                ]),
                "metadata": .object(["name": .string("Example dApp")]),
            ])
            let context = context("session_connect")
            await assertExpires(after: timeout) { [service] in
                _ = try await service.connect(proposal, context: context)
            }
            XCTAssertEqual(service.store.all().count, 0, "no session from an expired proposal")
        }
        XCTAssertEqual(SessionService.defaultProposalTimeout, .seconds(300), "WalletKit's 5 minutes")
    }

    func testARequestWhoseExpiryPassesIs8000() async throws {
        let now = now
        let session = Session(
            caller: SessionCaller(caller), callerName: nil, metadata: PeerMetadata(name: "Example dApp"),
            requiredNamespaces: ["eip155": Namespace(chains: [ChainID("eip155:1")!], methods: ["personal_sign"])],
            optionalNamespaces: [:],
            namespaces: ["eip155": Namespace(chains: [ChainID("eip155:1")!], methods: ["personal_sign"])], created: now,
            expiry: now + 604_800)
        let service = service(store: SessionStore(inMemory: [session], now: clock.clocks.wall))
        // The shortest expiry a request may name, 5 minutes from now, and a longer one.
        for fromNow in [300, 3600] {
            let request: JSONValue = .object([
                "topic": .string(session.topic), "chainId": .string("eip155:1"),
                "expiry": .number(JSONNumber(clock.wall + fromNow)),
                "request": .object([
                    "method": .string("personal_sign"),
                    "params": .array([.string("0x.org sign-in"), .string(SilentWallet.address)]),
                ]),
            ])
            let context = context("session_request")
            await assertExpires(after: .seconds(fromNow)) { _ = try await service.request(request, context: context) }
        }
    }

    /// The agent's own look at the keys (when the keystore changed) is a request made now on
    /// its clock: a cache must not answer it with what it saw before (`RequestContext.receivedAt`).
    func testTheServicesOwnLookAtTheKeysIsMadeNowOnItsClock() {
        let service = service()
        clock.advance(by: .seconds(3600))
        XCTAssertEqual(service.currentAccounts().eip155, [SilentWallet.address])
        XCTAssertEqual(wallet.keyReads.times.withLock { $0 }, [clock.now])
    }
}
