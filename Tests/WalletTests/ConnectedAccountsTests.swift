#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions

/// The host's own answer to a connected extension's GetAccounts, from the agent's files: given
/// only where the agent would give the same, nil (ask the agent) everywhere else.
final class ConnectedAccountsTests: XCTestCase {
    private let chrome = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let other = Caller.chromeExtension(origin: "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/")
    private var keystorePath = ""

    override func setUpWithError() throws {
        useWeakKDF()
        keystorePath = "\(temporaryFolder(self))/keystore.json"
    }

    private var sessionsPath: String { SessionStore.path(forKeystore: keystorePath) }

    /// A session of `caller` written as the agent writes it (through `SessionStore`).
    private func connect(_ caller: Caller, origin: String? = nil, created: Int = Int(time(nil)), lifetime: Int = 3600)
        throws
    {
        let namespaces: Namespaces = [
            "solana": Namespace(
                chains: [SolanaChain.mainnet], methods: ["solana_signMessage"], events: ["accountsChanged"])
        ]
        let session = Session(
            caller: SessionCaller(caller), origin: origin, callerName: nil, metadata: PeerMetadata(name: "test"),
            requiredNamespaces: namespaces,
            optionalNamespaces: [:], namespaces: namespaces, created: created, expiry: created + lifetime)
        try SessionStore(path: sessionsPath, now: { created }).add(session)
    }

    private func accounts(_ caller: Caller, _ connected: ConnectedAccounts? = nil) -> [String]? {
        (connected ?? ConnectedAccounts(keystorePath: keystorePath)).accounts(of: caller, notBefore: .now)?.addresses
    }

    func testAConnectedCallerGetsTheKeystoresAddressesAndOthersGetNil() throws {
        let entry = try Keystore(path: keystorePath).importKey(
            secure(testSeedA), label: "main", passphrase: secure("right"))
        XCTAssertNil(accounts(chrome), "no sessions file: the agent must ask")
        try connect(chrome)
        XCTAssertEqual(accounts(chrome), [entry.address])
        XCTAssertNil(accounts(other), "another extension's session is not this one's")
        XCTAssertNil(accounts(.unidentified))
    }

    /// walletlib's GetAccounts is the extension's own call: a session of one of its sites does
    /// not connect it, as the agent's `accountsIfConnected` says.
    func testASessionOfASiteIsNotTheExtensionsOwn() throws {
        let entry = try Keystore(path: keystorePath).importKey(
            secure(testSeedA), label: "main", passphrase: secure("right"))
        try connect(chrome, origin: "https://app.example.org")
        XCTAssertNil(accounts(chrome))
        try connect(chrome)
        XCTAssertEqual(accounts(chrome), [entry.address])
    }

    func testFilesOthersCanChangeAreLeftToTheAgent() throws {
        _ = try Keystore(path: keystorePath).importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        try connect(chrome)
        XCTAssertNotNil(accounts(chrome))
        for path in [keystorePath, sessionsPath] {
            chmod(path, 0o666)
            XCTAssertNil(accounts(chrome), "\(path) writable by others")
            chmod(path, 0o600)
        }
        let folder = AtomicFile.split(keystorePath).folder
        chmod(folder, 0o777)
        XCTAssertNil(accounts(chrome), "its folder writable by others")
        chmod(folder, 0o700)
        XCTAssertNotNil(accounts(chrome))
    }

    func testAnExpiredSessionIsNoSession() throws {
        _ = try Keystore(path: keystorePath).importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        try connect(chrome, created: Int(time(nil)) - 7200, lifetime: 3600)
        XCTAssertNil(accounts(chrome))
    }

    /// Live until its expiry on the host's wall clock (`Clocks`), gone from that second on.
    func testASessionEndsAtItsExpiryOnTheHostsClock() throws {
        let entry = try Keystore(path: keystorePath)
            .importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        let clock = ManualClock(wall: Int(time(nil)))
        try connect(chrome, created: clock.wall, lifetime: 3600)
        let connected = ConnectedAccounts(keystorePath: keystorePath, clocks: clock.clocks)
        XCTAssertEqual(accounts(chrome, connected), [entry.address])
        clock.advance(by: .seconds(3599))
        XCTAssertEqual(accounts(chrome, connected), [entry.address], "a second before its expiry")
        clock.advance(by: .seconds(1))
        XCTAssertNil(accounts(chrome, connected), "at its expiry")
    }

    func testAKeyAddedLaterIsSeenOnTheNextCall() throws {
        let keystore = Keystore(path: keystorePath)
        let first = try keystore.importKey(secure(testSeedA), label: "one", passphrase: secure("right"))
        try connect(chrome)
        let connected = ConnectedAccounts(keystorePath: keystorePath)
        XCTAssertEqual(accounts(chrome, connected), [first.address])
        let second = try keystore.importKey(secure(testSeedB), label: "two", passphrase: secure("right"))
        XCTAssertEqual(accounts(chrome, connected), [first.address, second.address])
    }

    func testNoKeyIsAnEmptyListForAnyCallerAsTheAgentAnswers() throws {
        XCTAssertEqual(accounts(other), [], "no keystore: nothing to ask about")
    }

    func testASessionsFileLargerThanIsWorthReadingIsLeftToTheAgent() throws {
        _ = try Keystore(path: keystorePath).importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        try connect(chrome)
        XCTAssertNotNil(accounts(chrome))
        var other = 0
        while (try? AtomicFile.read(sessionsPath, maxBytes: 1 << 20))??.count ?? 0
            <= ConnectedAccounts.largestSessionsFileReadHere
        {
            other += 1
            try connect(
                .chromeExtension(origin: "chrome-extension://\(String(repeating: "b", count: 24))\(100_000 + other)/"))
        }
        XCTAssertNil(accounts(chrome), "\(other + 1) sessions: cheaper to ask the agent, which holds them in memory")
    }

    func testADamagedSessionsFileIsLeftToTheAgentAndNotMoved() throws {
        _ = try Keystore(path: keystorePath).importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        writeBytes(Array("{\"version\": 1, \"sessions\": [{\"topic\": 3}]}".utf8), sessionsPath)
        XCTAssertNil(accounts(chrome))
        XCTAssertNotNil(fileMode(sessionsPath), "only the agent sets a damaged file aside")
    }

    func testADamagedKeystoreIsLeftToTheAgent() throws {
        try connect(chrome)
        writeBytes(Array("{\"format\": ".utf8), keystorePath)
        XCTAssertNil(accounts(chrome))
    }

    /// A session that is to last longer than `session_lifetime` from now was never approved in
    /// a dialog (the agent sets every expiry at most that far ahead): a forged file, or a
    /// lifetime made shorter since. The host does not answer from such a file, whether or not an
    /// agent runs; the agent caps the session when it loads the file (SessionStoreTests), and
    /// ends it then.
    func testASessionLastingLongerThanTheLifetimeAllowsIsLeftToTheAgent() throws {
        let entry = try Keystore(path: keystorePath).importKey(
            secure(testSeedA), label: "main", passphrase: secure("right"))
        let now = Int(time(nil))
        try connect(chrome, created: now, lifetime: 3600)
        XCTAssertEqual(
            accounts(chrome, ConnectedAccounts(keystorePath: keystorePath, lifetime: 7200)), [entry.address],
            "within the lifetime")
        XCTAssertNil(
            accounts(chrome, ConnectedAccounts(keystorePath: keystorePath, lifetime: 600)),
            "a lifetime made shorter since")

        try connect(other, created: now, lifetime: 2_085_000_000 - now)  // until 2036
        XCTAssertNil(accounts(other), "a forged expiry")
        XCTAssertNil(accounts(chrome), "nor anything else from that file")
        XCTAssertEqual(
            accounts(other, ConnectedAccounts(keystorePath: keystorePath, lifetime: 2_085_000_000 - now + 60)),
            [entry.address])
    }
}
