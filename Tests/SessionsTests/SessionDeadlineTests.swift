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

    func accounts(context: RequestContext) throws -> SessionAccounts { SessionAccounts(eip155: [Self.address]) }
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

    /// Ends only by cancellation (an hour is forever for a test).
    private static func waitForever() async throws { try await Task.sleep(for: .seconds(3600)) }
}

/// The deadlines the service waited for.
private final class Deadlines: Sendable {
    private let asked = Mutex<[ContinuousClock.Instant]>([])
    func record(_ deadline: ContinuousClock.Instant) { asked.withLock { $0.append(deadline) } }
    var all: [ContinuousClock.Instant] { asked.withLock { $0 } }
}

/// The 8000 of a proposal's and a request's deadline, minutes away, seen at once through the
/// session service's clock seam (`sleepUntil`): the deadline asked for is recorded, and the
/// wait ends at once, as if that time had passed.
final class SessionDeadlineTests: XCTestCase {
    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let now = 1_800_000_000
    /// The service's monotonic time: a deadline is exactly its timeout after the question.
    private let clock = ManualClock()

    private func service(store: SessionStore = SessionStore(inMemory: [])) -> (SessionService, Deadlines) {
        let deadlines = Deadlines()
        var service = SessionService(store: store, wallet: SilentWallet(), lifetime: 604_800)
        service.now = { [now] in now }
        service.monotonic = clock.clocks.monotonic
        service.sleepUntil = { [deadlines] deadline in deadlines.record(deadline) }
        return (service, deadlines)
    }

    private func context(_ method: String) -> RequestContext {
        RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: method)
    }

    private func assertExpired(_ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line)
        async
    {
        do {
            try await body()
            XCTFail("answered instead of expiring", file: file, line: line)
        } catch let error as RPCError {
            XCTAssertEqual(error.code.rawValue, 8000, "\(error)", file: file, line: line)
            XCTAssertEqual(error.message, "Session request expired", file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    /// Asked `expected` after the service's now.
    private func assertDeadline(
        _ deadlines: Deadlines, is expected: Duration,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let asked = deadlines.all
        XCTAssertEqual(asked.count, 1, file: file, line: line)
        guard let deadline = asked.first else { return }
        XCTAssertEqual(deadline - clock.now, expected, "asked \(deadline - clock.now)", file: file, line: line)
    }

    func testAProposalNobodyAnswersIs8000AtItsTimeout() async throws {
        for timeout in [SessionService.defaultProposalTimeout, Duration.seconds(42)] {
            var (service, deadlines) = service()
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
            let start = ContinuousClock.now
            await assertExpired { _ = try await service.connect(proposal, context: context("session_connect")) }
            XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "waited for the deadline")
            assertDeadline(deadlines, is: timeout)
            XCTAssertEqual(service.store.all().count, 0, "no session from an expired proposal")
        }
        XCTAssertEqual(SessionService.defaultProposalTimeout, .seconds(300), "WalletKit's 5 minutes")
    }

    func testARequestWhoseExpiryPassesIs8000() async throws {
        let session = Session(
            caller: SessionCaller(caller), callerName: nil, metadata: PeerMetadata(name: "Example dApp"),
            requiredNamespaces: ["eip155": Namespace(chains: [ChainID("eip155:1")!], methods: ["personal_sign"])],
            optionalNamespaces: [:],
            namespaces: ["eip155": Namespace(chains: [ChainID("eip155:1")!], methods: ["personal_sign"])], created: now,
            expiry: now + 604_800)
        let (service, deadlines) = service(store: SessionStore(inMemory: [session], now: { [now] in now }))
        // The shortest expiry a request may name: 5 minutes from now.
        let request: JSONValue = .object([
            "topic": .string(session.topic), "chainId": .string("eip155:1"), "expiry": .number(JSONNumber(now + 300)),
            "request": .object([
                "method": .string("personal_sign"),
                "params": .array([.string("0x.org sign-in"), .string(SilentWallet.address)]),
            ]),
        ])
        let start = ContinuousClock.now
        await assertExpired { _ = try await service.request(request, context: context("session_request")) }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5), "waited for the deadline")
        assertDeadline(deadlines, is: .seconds(300))
    }
}
