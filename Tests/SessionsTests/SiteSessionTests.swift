import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions

/// What a session service told the person and the extensions: the questions asked, the dialog
/// each signature would show, and the notifications.
private final class Record: Sendable {
    private let state = Mutex<(questions: [String], dialogs: [String], notifications: [(String, JSONValue)])>(
        ([], [], []))
    func ask(_ text: String) { state.withLock { $0.questions.append(text) } }
    func dialog(_ text: String) { state.withLock { $0.dialogs.append(text) } }
    func notify(_ method: String, _ params: JSONValue) { state.withLock { $0.notifications.append((method, params)) } }
    var questions: [String] { state.withLock { $0.questions } }
    var dialogs: [String] { state.withLock { $0.dialogs } }
    var notifications: [(String, JSONValue)] { state.withLock { $0.notifications } }
}

/// A person who says yes, and a signer that records the dialog the keystore wallet would show
/// (a `ConsentRequest` made inside the signature, as `KeystoreWallet` makes it), and signs with
/// 64 zero bytes.
private struct RecordingWallet: SessionWallet {
    static let solana = "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv"
    let record: Record
    var browserProcess: Int32?

    func accounts(context: RequestContext) throws -> SessionAccounts { SessionAccounts(solana: [Self.solana]) }
    func accountsAtHand(context: RequestContext) throws -> GetAccountsResult {
        GetAccountsResult(addresses: ["Bm4rtRGNkJ5bR6mXGkj3hjyxkGYeDg1EEnT4ZW5Q1IW="])
    }

    func ask(_ question: ConsentQuestion, for caller: Caller) async throws -> Result<Bool, ConsentRefusal> {
        record.ask(question.description)
        return .success(true)
    }

    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        var request = ConsentRequest(caller: context.caller, keyLabel: "main", shortAddress: "7S3P…AaKv", payloads: [])
        request.site = context.site
        record.dialog(request.description(for: .confirmation))
        let payload = Base64.decode(params.payloads[0]) ?? []
        return SignPayloadsResult(signed_payloads: [Base64.encode(payload + [UInt8](repeating: 0, count: 64))])
    }

    func signMessage(_ message: [UInt8], publicKey: [UInt8], context: RequestContext) async throws -> [UInt8] {
        var request = ConsentRequest(caller: context.caller, keyLabel: "main", shortAddress: "7S3P…AaKv", payloads: [])
        request.site = context.site
        record.dialog(request.description(for: .confirmation))
        return [UInt8](repeating: 0, count: 64)
    }

    func signEthereum(_ request: EthereumSigningRequest, context: RequestContext) async throws -> [UInt8] { [] }
    func signSolana(_ request: SolanaSigningRequest, context: RequestContext) async throws -> [[UInt8]] { [] }
}

/// Sessions per site (docs/sessions.md, "Sessions per site"): a session belongs to (caller,
/// origin), origins are taken only as a browser serializes them, and the site is named in the
/// dialogs and the notifications.
final class SiteSessionTests: XCTestCase {
    private let extensionOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
    private var caller: Caller { .chromeExtension(origin: extensionOrigin) }
    private let other = Caller.chromeExtension(origin: "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/")
    private let siteA = "http://127.0.0.1:8123", siteB = "http://127.0.0.1:8124"
    private let now = 1_800_000_000

    private func session(_ caller: Caller, origin: String?) -> Session {
        let solana = Namespace(
            chains: [SolanaChain.mainnet], methods: [SolanaMethod.signMessage], events: [SessionEvent.accountsChanged])
        return Session(
            caller: SessionCaller(caller), origin: origin, callerName: nil, metadata: PeerMetadata(name: "My dApp"),
            requiredNamespaces: ["solana": solana], optionalNamespaces: [:], namespaces: ["solana": solana],
            created: now, expiry: now + 3600)
    }

    private func service(_ sessions: [Session] = []) -> (SessionService, Record) {
        let record = Record()
        let store = SessionStore(inMemory: sessions, now: { [now] in now })
        var service = SessionService(store: store, wallet: RecordingWallet(record: record), lifetime: 604_800)
        service.clocks.wall = { [now] in now }
        service.announce = { [record] _, method, params in record.notify(method, params) }
        return (service, record)
    }

    private func context(_ caller: Caller, _ method: String) -> RequestContext {
        RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: method)
    }

    private func assertCode(
        _ code: Int, _ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            try await body()
            XCTFail("answered instead of \(code)", file: file, line: line)
        } catch let error as RPCError {
            XCTAssertEqual(Int(error.code.rawValue), code, "\(error)", file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    // MARK: The origin

    func testOriginsAsTheBrowserWritesThemAreTaken() throws {
        for origin in [
            "https://app.example.com", "http://127.0.0.1:8123", "http://localhost:3000",
            "https://xn--bcher-kva.example",
            "http://[::1]:8080", "https://[2001:db8::1]", "http://[1:0:0:2::3]", "http://[::]",
            "https://a_b.example.org:65535", "http://10.0.0.255:1",
        ] {
            XCTAssertTrue(SiteOrigin.isValid(origin), origin)
            XCTAssertEqual(try SiteOrigin.parse(.string(origin)), origin)
        }
        XCTAssertNil(try SiteOrigin.parse(nil))
        XCTAssertNil(try SiteOrigin.parse(.null))
    }

    func testAnythingElseIsRefusedNamingTheField() {
        for origin in [
            "", "null", "https://app.example.com/", "https://app.example.com/path", "https://app.example.com?q",
            "https://app.example.com#x",
            "HTTPS://app.example.com", "https://App.example.com", "https://app.example.com:443",
            "http://app.example.com:80",
            "http://app.example.com:0", "http://app.example.com:08080", "http://app.example.com:65536",
            "http://app.example.com:",
            "http://app.example.com:80a", "ftp://app.example.com",
            "chrome-extension://abcdefghijklmnopabcdefghijklmnop",
            "https://user@app.example.com", "https://app.example.com.", "https://.example.com",
            "https://app..example.com",
            "http://127.1", "http://0x7f.0.0.1", "http://127.0.0.01", "http://256.0.0.1", "http://1.2.3.4.5",
            "http://[::ABCD]", "http://[0:0:0:0:0:0:0:1]", "http://[::0001]", "http://[0::1]", "http://[1:2:3]",
            "http://[::1", "http://[::1]x", "http://::1", "https://bücher.example",
            "https://app.example.com ", " https://app.example.com", "https://app.exa mple.com",
            "https://app\u{0}.example.com",
            "https://" + String(repeating: "a", count: 64) + ".example",
            "https://" + String(repeating: "a.", count: 124) + "example",
        ] {
            XCTAssertFalse(SiteOrigin.isValid(origin), origin)
            XCTAssertThrowsError(try SiteOrigin.parse(.string(origin)), origin) { error in
                let error = error as? RPCError
                XCTAssertEqual(error?.code, .invalidParams)
                XCTAssertEqual(error?.data, ["field": "origin", "problem": .string(SiteOrigin.problem)])
            }
        }
        XCTAssertThrowsError(try SiteOrigin.parse(.number(JSONNumber(8123))))
        XCTAssertThrowsError(try SiteOrigin.parse(["host": "app.example.com"], field: "site")) { error in
            XCTAssertEqual((error as? RPCError)?.data, ["field": "site", "problem": .string(SiteOrigin.problem)])
        }
    }

    func testTheLengthIsBoundedInBytes() {
        // 255 bytes in all is the most: a host of 243 bytes and a 4-digit port.
        let labels =
            String(repeating: "a", count: 60) + "." + String(repeating: "b", count: 60) + "."
            + String(repeating: "c", count: 60)
            + "." + String(repeating: "d", count: 59)
        let longest = "https://" + labels + ":8443"
        XCTAssertEqual(longest.utf8.count, 255)
        XCTAssertTrue(SiteOrigin.isValid(longest))
        XCTAssertFalse(SiteOrigin.isValid("https://" + labels + ":18443"))
    }

    func testHostAndPortIsTheOriginWithoutItsScheme() {
        XCTAssertEqual(SiteOrigin.hostAndPort(of: "https://app.example.com"), "app.example.com")
        XCTAssertEqual(SiteOrigin.hostAndPort(of: "http://127.0.0.1:8123"), "127.0.0.1:8123")
        XCTAssertEqual(SiteOrigin.hostAndPort(of: "http://[::1]:8080"), "[::1]:8080")
        XCTAssertEqual(SiteOrigin.hostAndPort(of: "https://[2001:db8::1]"), "[2001:db8::1]")
        XCTAssertNil(SiteOrigin.hostAndPort(of: "https://app.example.com/"))
        XCTAssertNil(SiteOrigin.hostAndPort(of: "app.example.com"))
    }

    // MARK: The session and its file

    func testTheWireAndTheStoredFormCarryTheOrigin() throws {
        let site = session(caller, origin: siteA)
        guard case .object(let wire) = try SessionService.json(site.wire(accounts: SessionAccounts())) else {
            return XCTFail("not an object")
        }
        XCTAssertEqual(wire["origin"], .string(siteA))
        let ownWire = try SessionService.json(session(caller, origin: nil).wire(accounts: SessionAccounts()))
        guard case .object(let own) = ownWire else { return XCTFail("not an object") }
        XCTAssertNil(own["origin"], "absent, not null, for the extension's own session")

        let back = try Session(stored: try JSONParser.parse(site.stored().jsonBytes))
        XCTAssertEqual(back.origin, siteA)
        XCTAssertEqual(back, site)
        guard case .object(let summary) = site.summary else { return XCTFail("not an object") }
        XCTAssertEqual(summary["origin"], .string(siteA))
    }

    func testAFileWrittenBeforeSitesStillLoads() throws {
        let older = session(caller, origin: nil)
        guard case .object(let members) = older.stored() else { return XCTFail("not an object") }
        XCTAssertNil(members["origin"])
        XCTAssertNil(try Session(stored: .object(members)).origin)
    }

    func testAStoredOriginIsCheckedAsOnTheWire() {
        guard case .object(var members) = session(caller, origin: siteA).stored() else {
            return XCTFail("not an object")
        }
        members["origin"] = "https://app.example.com/path"
        XCTAssertThrowsError(try Session(stored: .object(members)))
    }

    func testANotificationNamesTheSessionsSite() {
        XCTAssertEqual(
            session(caller, origin: siteA).notification(["reason": "x"]).objectValue?["origin"], .string(siteA))
        let own = session(caller, origin: nil)
        XCTAssertEqual(own.notification(), ["topic": .string(own.topic)])
    }

    // MARK: The store

    func testTheStoreKeepsEachSitesSessionsApart() throws {
        let a = session(caller, origin: siteA), b = session(caller, origin: siteB), own = session(caller, origin: nil)
        let theirs = session(other, origin: siteA)
        let store = SessionStore(inMemory: [a, b, own, theirs], now: { [now] in now })
        let me = SessionCaller(caller)
        XCTAssertEqual(store.sessions(of: me, origin: siteA), [a])
        XCTAssertEqual(store.sessions(of: me, origin: siteB), [b])
        XCTAssertEqual(store.sessions(of: me, origin: nil), [own])
        XCTAssertEqual(store.sessions(of: me, origin: "http://127.0.0.1:8125"), [])
        XCTAssertEqual(store.session(topic: a.topic, caller: me, origin: siteA), a)
        XCTAssertNil(store.session(topic: a.topic, caller: me, origin: siteB))
        XCTAssertNil(store.session(topic: a.topic, caller: me, origin: nil))
        XCTAssertNil(store.session(topic: own.topic, caller: me, origin: siteA))
        XCTAssertNil(try store.extend(topic: a.topic, caller: me, origin: siteB, lifetime: 60))
        XCTAssertNil(try store.remove(topic: a.topic, caller: me, origin: nil))
        XCTAssertEqual(try store.extend(topic: a.topic, caller: me, origin: siteA, lifetime: 60)?.expiry, now + 60)
        XCTAssertEqual(try store.remove(topic: a.topic, caller: me, origin: siteA)?.topic, a.topic)
        XCTAssertEqual(store.all().count, 3)
    }

    func testRevokingASiteEndsItsSessionsOfEveryExtensionAndNoOther() throws {
        let a = session(caller, origin: siteA), b = session(caller, origin: siteB), own = session(caller, origin: nil)
        let theirs = session(other, origin: siteA)
        let store = SessionStore(inMemory: [a, b, own, theirs], now: { [now] in now })
        XCTAssertEqual(try store.remove(site: siteA).map(\.topic), [a.topic, theirs.topic])
        XCTAssertEqual(store.all().map(\.topic), [b.topic, own.topic])
        XCTAssertEqual(try store.remove(site: siteA), [])
    }

    // MARK: The service

    func testWalletlibsMethodsCountOnlyTheExtensionsOwnSessions() throws {
        let (withSite, _) = service([session(caller, origin: siteA)])
        let getAccounts = context(caller, "getAccounts")
        XCTAssertNil(
            try withSite.accountsIfConnected(context: getAccounts),
            "a site's session does not connect the extension itself")
        let (withOwn, _) = service([session(caller, origin: siteA), session(caller, origin: nil)])
        XCTAssertNotNil(try withOwn.accountsIfConnected(context: getAccounts))
    }

    func testTwoSitesOfOneExtensionGetTwoSessionsAndSeeOnlyTheirOwn() async throws {
        let (service, _) = service()
        let proposal: [String: JSONValue] = [
            "requiredNamespaces": [
                "solana": [
                    "chains": .array([.string(SolanaChain.mainnet.description)]), "methods": ["solana_signMessage"],
                    "events": [],
                ]
            ],
            "metadata": ["name": "My dApp"],
        ]
        var params = proposal
        params["origin"] = .string(siteA)
        let first = try await service.connect(.object(params), context: context(caller, "session_connect"))
        params["origin"] = .string(siteB)
        let second = try await service.connect(.object(params), context: context(caller, "session_connect"))
        XCTAssertEqual(first.objectValue?["origin"], .string(siteA))
        XCTAssertEqual(second.objectValue?["origin"], .string(siteB))
        let topicA = try XCTUnwrap(first.objectValue?["topic"]), topicB = try XCTUnwrap(second.objectValue?["topic"])
        XCTAssertNotEqual(topicA, topicB)

        func listed(_ origin: String?, by who: Caller? = nil) throws -> [JSONValue] {
            let params: JSONValue = origin.map { ["origin": .string($0)] } ?? [:]
            return try service.list(params, context: context(who ?? caller, "session_list")).objectValue?["sessions"]?
                .arrayValue ?? []
        }
        XCTAssertEqual(try listed(siteA).map { $0.objectValue?["topic"] }, [topicA])
        XCTAssertEqual(try listed(siteB).map { $0.objectValue?["topic"] }, [topicB])
        XCTAssertEqual(try listed(nil).count, 0, "the extension's own sessions are not its sites'")
        XCTAssertEqual(try listed(siteA, by: other).count, 0)

        // Site B cannot use, extend or end site A's session: 7001, as for an unknown topic.
        let request: JSONValue = [
            "topic": topicA, "origin": .string(siteB), "chainId": .string(SolanaChain.mainnet.description),
            "request": ["method": "solana_getAccounts"],
        ]
        await assertCode(7001) {
            _ = try await service.request(request, context: self.context(self.caller, "session_request"))
        }
        await assertCode(7001) {
            _ = try service.extend(
                ["topic": topicA, "origin": .string(self.siteB)], context: self.context(self.caller, "session_extend"))
        }
        await assertCode(7001) {
            _ = try service.disconnect(["topic": topicA], context: self.context(self.caller, "session_disconnect"))
        }
        await assertCode(-32602) {
            _ = try service.list(
                ["origin": "https://app.example.com/"], context: self.context(self.caller, "session_list"))
        }
        XCTAssertEqual(service.store.all().count, 2, "nothing ended")
    }

    func testTheConnectDialogNamesTheSiteApartFromWhatThePageSays() async throws {
        let (service, record) = service()
        let params: JSONValue = [
            "requiredNamespaces": [
                "solana": [
                    "chains": .array([.string(SolanaChain.mainnet.description)]), "methods": ["solana_signMessage"],
                    "events": [],
                ]
            ],
            "metadata": ["name": "My dApp", "url": "https://mydapp.example"],
            "origin": .string(siteA),
        ]
        _ = try await service.connect(params, context: context(caller, "session_connect"))
        let question = try XCTUnwrap(record.questions.first)
        XCTAssertTrue(
            question.contains(
                """
                The extension with ID abcdefghijklmnopabcdefghijklmnop
                asks to connect the site
                http://127.0.0.1:8123
                (as the extension reports it) to your wallet.
                It says it is: "My dApp", https://mydapp.example
                """), question)
    }

    func testTheConnectDialogOfTheExtensionItselfIsUnchanged() {
        let namespaces: Namespaces = ["solana": Namespace(chains: [SolanaChain.mainnet], methods: [], events: [])]
        let own = SessionConsent.connect(
            caller: caller, callerName: nil, metadata: PeerMetadata(name: "X"), namespaces: namespaces, keyCount: 1)
        XCTAssertTrue(
            own.description.hasPrefix(
                "The extension with ID abcdefghijklmnopabcdefghijklmnop\nasks to connect to your wallet.\n"))
        XCTAssertFalse(own.description.contains("site"))
    }

    func testASigningDialogInASiteSessionNamesTheSite() async throws {
        let site = session(caller, origin: siteA), own = session(caller, origin: nil)
        let (service, record) = service([site, own])
        for session in [site, own] {
            var params: [String: JSONValue] = [
                "topic": .string(session.topic), "chainId": .string(SolanaChain.mainnet.description),
                "request": [
                    "method": "solana_signMessage",
                    "params": [
                        "message": .string(Base58.encode(Array("hi".utf8))), "pubkey": .string(RecordingWallet.solana),
                    ],
                ],
            ]
            if let origin = session.origin { params["origin"] = .string(origin) }
            _ = try await service.request(.object(params), context: context(caller, "session_request"))
        }
        XCTAssertEqual(record.dialogs.count, 2)
        XCTAssertTrue(
            record.dialogs[0].hasPrefix(
                "The extension with ID abcdefghijklmnopabcdefghijklmnop\nfor the site http://127.0.0.1:8123 (as the extension reports it)\nasks to sign"
            ),
            record.dialogs[0])
        XCTAssertFalse(record.dialogs[1].contains("site"), record.dialogs[1])
    }

    func testNotificationsOfASiteSessionCarryItsOrigin() throws {
        let site = session(caller, origin: siteA), own = session(caller, origin: nil)
        let (service, record) = service([site, own])
        _ = try service.extend(
            ["topic": .string(site.topic), "origin": .string(siteA)], context: context(caller, "session_extend"))
        _ = try service.disconnect(
            ["topic": .string(site.topic), "origin": .string(siteA)], context: context(caller, "session_disconnect"))
        service.announceAccounts(SessionAccounts(solana: [RecordingWallet.solana]))
        let seen = record.notifications.map { ($0.0, $0.1.objectValue?["topic"], $0.1.objectValue?["origin"]) }
        XCTAssertEqual(seen.map(\.0), ["session_update", "session_delete", "session_event", "session_update"])
        XCTAssertEqual(seen[0].2, .string(siteA))
        XCTAssertEqual(seen[1].2, .string(siteA))
        XCTAssertEqual(seen[2].1, .string(own.topic))
        XCTAssertNil(seen[2].2, "absent for the extension's own session")
        XCTAssertNil(seen[3].2)
    }
}
