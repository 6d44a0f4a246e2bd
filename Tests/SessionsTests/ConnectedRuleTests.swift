#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeTestSupport
@testable import WalletBridgeWallet
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@_spi(KeptAnswer) @testable import WalletBridgeSystem
@testable import WalletBridgeTransactions
import XCTest

/// The one rule "this caller is connected, so these are its addresses" (`ConnectedRule`), and
/// the agent (`SessionService.accountsIfConnected`, from memory) and the host
/// (`ConnectedAccounts`, from the agent's files) answering by it alike.
final class ConnectedRuleTests: XCTestCase {
    private let chrome = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let other = Caller.chromeExtension(origin: "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/")
    private let now = 1_800_000_000
    private let keys = ["key-one", "key-two"]

    private func session(_ caller: Caller, origin: String? = nil, created: Int, expiry: Int) -> Session {
        let namespaces: Namespaces = [
            "solana": Namespace(
                chains: [SolanaChain.mainnet], methods: ["solana_signMessage"], events: ["accountsChanged"])
        ]
        return Session(
            caller: SessionCaller(caller), origin: origin, callerName: nil, metadata: PeerMetadata(name: "test"),
            requiredNamespaces: namespaces, optionalNamespaces: [:], namespaces: namespaces, created: created,
            expiry: expiry)
    }

    func testTheRuleOverEveryCase() {
        let live = session(chrome, created: now - 10, expiry: now + 10)
        let cases: [(String, addresses: [String], sessions: [Session], caller: Caller, expected: [String]?)] = [
            ("no session", keys, [], chrome, nil),
            ("a live session of its own", keys, [live], chrome, keys),
            ("expired a second ago", keys, [session(chrome, created: now - 10, expiry: now - 1)], chrome, nil),
            ("expiring at exactly now", keys, [session(chrome, created: now - 10, expiry: now)], chrome, nil),
            ("expiring a second from now", keys, [session(chrome, created: now - 10, expiry: now + 1)], chrome, keys),
            ("another extension's session", keys, [session(other, created: now - 10, expiry: now + 10)], chrome, nil),
            (
                "a session of one of its sites only", keys,
                [session(chrome, origin: "https://app.example.org", created: now - 10, expiry: now + 10)],
                chrome, nil
            ),
            (
                "a site's session beside its own", keys,
                [session(chrome, origin: "https://app.example.org", created: now - 10, expiry: now + 10), live],
                chrome, keys
            ),
            (
                "an expired one beside a live one", keys, [session(chrome, created: now - 10, expiry: now - 5), live],
                chrome, keys
            ),
            ("no key and no session: nothing to ask about", [], [], chrome, []),
            ("every key removed while connected", [], [live], chrome, []),
            ("no key, for a caller nobody connected", [], [live], other, []),
            ("an unidentified caller", keys, [live], .unidentified, nil),
        ]
        for (name, addresses, sessions, caller, expected) in cases {
            let answer = ConnectedRule.accounts(
                addresses: addresses, sessions: sessions, caller: SessionCaller(caller), now: now)
            XCTAssertEqual(answer?.addresses, expected, name)
        }
    }

    /// The agent and the host give the same answer at every step: the agent from the sessions it
    /// holds and the keystore it reads, the host from the files the agent writes.
    func testTheAgentAndTheHostAgree() throws {
        useWeakKDF()
        let keystorePath = "\(temporaryFolder(self))/keystore.json"
        let clock = ManualClock(wall: Int(time(nil)))
        let store = SessionStore(path: SessionStore.path(forKeystore: keystorePath), now: clock.clocks.wall)
        var agent = SessionService(
            store: store,
            wallet: KeystoreWallet(
                keystore: Keystore(path: keystorePath), maxPayloads: KeystoreWallet.defaultMaxPayloads,
                passphrases: PassphraseFileSource(path: "/dev/null"), clocks: clock.clocks),
            lifetime: SessionStore.defaultLifetime)
        agent.clocks = clock.clocks
        let host = ConnectedAccounts(keystorePath: keystorePath, clocks: clock.clocks)

        func answers(_ caller: Caller, _ step: String, file: StaticString = #filePath, line: UInt = #line) throws
            -> [String]?
        {
            // A moment later than the last look: what changed since is to be seen (`KeptAnswer`).
            clock.advance(by: .milliseconds(1))
            let context = RequestContext(
                caller: caller, requestID: nil, method: GetAccounts.name, receivedAt: clock.now)
            let fromAgent = try agent.accountsIfConnected(context: context)?.addresses
            let fromHost = host.accounts(of: caller, notBefore: clock.now)?.addresses
            XCTAssertEqual(fromAgent, fromHost, "\(step): the agent and the host disagree", file: file, line: line)
            return fromAgent
        }

        XCTAssertEqual(try answers(chrome, "no keystore"), [])
        let keystore = Keystore(path: keystorePath)
        let entry = try keystore.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        XCTAssertNil(try answers(chrome, "a key, no session"))
        try store.add(session(chrome, origin: "https://app.example.org", created: clock.wall, expiry: clock.wall + 60))
        XCTAssertNil(try answers(chrome, "a session of one of its sites"))
        try store.add(session(chrome, created: clock.wall, expiry: clock.wall + 60))
        XCTAssertEqual(try answers(chrome, "connected"), [entry.address])
        XCTAssertNil(try answers(other, "another extension"))
        clock.advance(by: .seconds(59))
        XCTAssertEqual(try answers(chrome, "a second before the expiry"), [entry.address])
        clock.advance(by: .seconds(1))
        XCTAssertNil(try answers(chrome, "at the expiry"))
        try store.add(session(chrome, created: clock.wall, expiry: clock.wall + 60))
        XCTAssertEqual(try answers(chrome, "connected again"), [entry.address])
        _ = try keystore.delete(entry.address)
        XCTAssertEqual(try answers(chrome, "its key removed"), [])
        XCTAssertEqual(try answers(other, "its key removed, another extension"), [])
    }
}
