import Foundation
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeTransactions

/// Sign-ins (docs/sign-in.md): the EIP-4361 parser, the Sign In With Solana message builder,
/// the site check, and what `personal_sign` and `solana_signIn` show and answer.
final class SignInTests: XCTestCase {
    // MARK: EIP-4361: the EIP's own examples

    /// The EIP's example message, with `first` as its first line's start.
    private static func example(_ first: String = "example.com") -> String {
        """
        \(first) wants you to sign in with your Ethereum account:
        0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

        I accept the ExampleOrg Terms of Service: https://example.com/tos

        URI: https://example.com/login
        Version: 1
        Chain ID: 1
        Nonce: 32891756
        Issued At: 2021-09-30T16:25:24Z
        Resources:
        - ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
        - https://example.com/my-web2-claim.json
        """
    }

    func testTheEIPsExamplesParse() throws {
        let plain = try EthereumSignIn(parsing: Self.example())
        XCTAssertNil(plain.scheme)
        XCTAssertEqual(plain.domain, "example.com")
        XCTAssertEqual(plain.address.description, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2")
        XCTAssertEqual(plain.statement, "I accept the ExampleOrg Terms of Service: https://example.com/tos")
        XCTAssertEqual(plain.uri, "https://example.com/login")
        XCTAssertEqual(plain.version, "1")
        XCTAssertEqual(plain.chainID, "1")
        XCTAssertEqual(plain.nonce, "32891756")
        XCTAssertEqual(plain.issuedAt, "2021-09-30T16:25:24Z")
        XCTAssertNil(plain.expirationTime)
        XCTAssertEqual(
            plain.resources,
            [
                "ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/",
                "https://example.com/my-web2-claim.json",
            ])

        let port = try EthereumSignIn(parsing: Self.example("example.com:3388"))
        XCTAssertEqual(port.domain, "example.com:3388")
        let scheme = try EthereumSignIn(parsing: Self.example("https://example.com"))
        XCTAssertEqual(scheme.scheme, "https")
        XCTAssertEqual(scheme.domain, "example.com")
    }

    func testEveryOptionalFieldAndNoStatement() throws {
        let text = """
            localhost:8123 wants you to sign in with your Ethereum account:
            0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2


            URI: http://localhost:8123/
            Version: 1
            Chain ID: 137
            Nonce: abcDEF123456
            Issued At: 2024-02-29T23:59:60.123+05:30
            Expiration Time: 2024-03-01T00:00:00z
            Not Before: 2024-02-29t00:00:00Z
            Request ID: some-id:@!$&'()*+,;=%20
            Resources:
            """
        let signIn = try EthereumSignIn(parsing: text)
        XCTAssertNil(signIn.statement)
        XCTAssertEqual(signIn.chainID, "137")
        XCTAssertEqual(signIn.expirationTime, "2024-03-01T00:00:00z")
        XCTAssertEqual(signIn.notBefore, "2024-02-29t00:00:00Z")
        XCTAssertEqual(signIn.requestID, "some-id:@!$&'()*+,;=%20")
        XCTAssertEqual(signIn.resources, [])
        XCTAssertEqual(signIn.address, EthereumAddress("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2"))
    }

    /// Each a change to the EIP's example that the grammar does not allow.
    func testMalformedMessagesAreNotSignIns() {
        let example = Self.example()
        let cases: [(String, String)] = [
            ("a trailing line break", example + "\n"),
            ("CR LF line ends", example.replacingOccurrences(of: "\n", with: "\r\n")),
            ("no nonce", example.replacingOccurrences(of: "Nonce: 32891756\n", with: "")),
            ("a nonce of 7", example.replacingOccurrences(of: "32891756", with: "3289175")),
            ("a nonce with a dash", example.replacingOccurrences(of: "32891756", with: "3289-1756")),
            ("version 2", example.replacingOccurrences(of: "Version: 1", with: "Version: 2")),
            ("a bad checksum", example.replacingOccurrences(of: "0xC02aaA39", with: "0xc02aaA39")),
            ("39 hex digits", example.replacingOccurrences(of: "Cc2\n", with: "Cc\n")),
            ("30 February", example.replacingOccurrences(of: "2021-09-30", with: "2021-02-30")),
            ("no time zone", example.replacingOccurrences(of: "16:25:24Z", with: "16:25:24")),
            ("hour 24", example.replacingOccurrences(of: "16:25:24Z", with: "24:25:24Z")),
            (
                "fields out of order",
                example.replacingOccurrences(of: "Version: 1\nChain ID: 1", with: "Chain ID: 1\nVersion: 1")
            ),
            ("an unknown field", example.replacingOccurrences(of: "Resources:", with: "Color: blue\nResources:")),
            ("a statement of two lines", example.replacingOccurrences(of: "Service: https", with: "Service:\nhttps")),
            ("a statement with a non-ASCII letter", example.replacingOccurrences(of: "accept", with: "accépt")),
            ("a statement with %", example.replacingOccurrences(of: "accept", with: "100% accept")),
            (
                "a domain with a space",
                example.replacingOccurrences(of: "example.com wants", with: "example .com wants")
            ),
            ("no domain", example.replacingOccurrences(of: "example.com wants", with: " wants")),
            ("a relative URI", example.replacingOccurrences(of: "URI: https://example.com/login", with: "URI: /login")),
            ("a URI with a space", example.replacingOccurrences(of: "example.com/login", with: "example.com/log in")),
            (
                "a resource without its dash",
                example.replacingOccurrences(of: "- https://example.com/my", with: "https://example.com/my")
            ),
            ("no empty line after the address", example.replacingOccurrences(of: "Cc2\n\n", with: "Cc2\n")),
            ("chain id in hex", example.replacingOccurrences(of: "Chain ID: 1", with: "Chain ID: 0x1")),
            (
                "an Ethereum account of another kind",
                example.replacingOccurrences(of: "Ethereum account", with: "Solana account")
            ),
        ]
        for (name, text) in cases {
            XCTAssertThrowsError(try EthereumSignIn(parsing: text), name)
        }
        // Only the first counts as reading like a sign-in to a person.
        for (name, text) in cases.dropLast() {
            guard case .malformed = EthereumSignIn.read(Array(text.utf8)) else {
                return XCTFail("\(name): not malformed")
            }
        }
        XCTAssertEqual(EthereumSignIn.read(Array("hello".utf8)), .other)
    }

    // MARK: Sign In With Solana: the wallet-standard's vectors

    func testTheWalletStandardsVectorsAreBuiltExactly() {
        let title = "solana.com wants you to sign in with your Solana account:\nA"
        let cases: [(SolanaSignInInput, String)] = [
            (SolanaSignInInput(), title),
            (SolanaSignInInput(statement: "S"), title + "\n\nS"),
            (SolanaSignInInput(statement: "S\n\nS"), title + "\n\nS\n\nS"),
            (SolanaSignInInput(uri: "https://solana.com"), title + "\n\nURI: https://solana.com"),
            (SolanaSignInInput(statement: "S", uri: "https://solana.com"), title + "\n\nS\n\nURI: https://solana.com"),
            (
                SolanaSignInInput(statement: "S\n\nS", uri: "https://solana.com"),
                title + "\n\nS\n\nS\n\nURI: https://solana.com"
            ),
        ]
        for (input, text) in cases {
            XCTAssertEqual(input.messageText(domain: "solana.com", address: "A"), text)
        }
    }

    func testEveryFieldInItsOrderAndEmptyOnesLeftOut() {
        let input = SolanaSignInInput(
            statement: "", uri: "https://a.example", version: "1", chainId: "mainnet", nonce: "n0nce123",
            issuedAt: "2024-01-01T00:00:00Z",
            expirationTime: "2024-01-02T00:00:00Z", notBefore: "", requestId: "r1",
            resources: ["https://a.example/x", "ipfs://y"])
        XCTAssertEqual(
            input.messageText(domain: "a.example", address: "B"),
            """
            a.example wants you to sign in with your Solana account:
            B

            URI: https://a.example
            Version: 1
            Chain ID: mainnet
            Nonce: n0nce123
            Issued At: 2024-01-01T00:00:00Z
            Expiration Time: 2024-01-02T00:00:00Z
            Request ID: r1
            Resources:
            - https://a.example/x
            - ipfs://y
            """)
        XCTAssertEqual(
            SolanaSignInInput(resources: []).messageText(domain: "d", address: "A"),
            "d wants you to sign in with your Solana account:\nA\n\nResources:")
    }

    func testTheInputIsBoundedAndItsFieldsAreOneLine() {
        func problem(_ params: JSONValue) -> String? {
            do {
                _ = try JSONValueDecoder().decode(SolanaSignInInput.self, from: params, at: NamespaceParams.path)
                return nil
            } catch {
                guard case .object(let data)? = (error as? RPCError)?.data, case .string(let field)? = data["field"]
                else { return "?" }
                return field
            }
        }
        XCTAssertNil(problem([:]))
        XCTAssertNil(problem(["statement": "two\nlines", "domain": .null]))
        XCTAssertEqual(problem(.null), "request.params")
        XCTAssertEqual(
            problem(["domain": "evil.example wants you to sign in with your Solana account:\nX"]),
            "request.params.domain")
        XCTAssertEqual(problem(["domain": "a b"]), "request.params.domain")
        XCTAssertEqual(problem(["uri": "https://a.example/\u{202E}"]), "request.params.uri")
        XCTAssertEqual(problem(["nonce": 5]), "request.params.nonce")
        XCTAssertEqual(problem(["statement": "hello\nURI: https://good.example"]), "request.params.statement")
        XCTAssertEqual(problem(["statement": "URI: https://good.example"]), "request.params.statement")
        XCTAssertEqual(problem(["statement": "Resources:\n- https://good.example"]), "request.params.statement")
        XCTAssertEqual(problem(["statement": "hello\r"]), "request.params.statement")
        XCTAssertEqual(problem(["resources": ["https://ok.example", "two\nlines"]]), "request.params.resources[1]")
        XCTAssertEqual(problem(["resources": .array(Array(repeating: "x", count: 33))]), "request.params.resources")
        XCTAssertEqual(problem(["requestId": .string(String(repeating: "x", count: 1025))]), "request.params.requestId")
    }

    // MARK: The site check

    func testTheDomainAndURIAreCheckedAgainstTheSite() {
        let site = "https://app.example.com"
        func matches(_ domain: String, scheme: String? = nil, uri: String? = nil, site: String = site) -> Bool? {
            SignInCheck(domain: domain, scheme: scheme, uri: uri, site: site).record.matchesSite
        }
        XCTAssertEqual(matches("app.example.com", uri: "https://app.example.com/login"), true)
        XCTAssertEqual(matches("APP.example.com:443", scheme: "HTTPS", uri: "https://App.Example.com:443/"), true)
        XCTAssertEqual(matches("127.0.0.1:8123", uri: "http://127.0.0.1:8123/", site: "http://127.0.0.1:8123"), true)
        XCTAssertEqual(matches("example.com"), false)
        XCTAssertEqual(matches("evil.example.com"), false)
        XCTAssertEqual(matches("app.example.com:8443"), false)
        XCTAssertEqual(matches("app.example.com", scheme: "http"), false)
        XCTAssertEqual(matches("app.example.com", uri: "https://evil.example/login"), false)
        XCTAssertEqual(matches("app.example.com", uri: "https://app.example.com@evil.example/"), false)
        XCTAssertEqual(matches("app.example.com", uri: "urn:example"), false)
        XCTAssertEqual(matches("user@app.example.com"), false)

        let phishing = SignInCheck(domain: "bank.example", scheme: nil, uri: "https://bank.example/", site: site)
        XCTAssertEqual(phishing.warnings.map(\.severity), [.trust, .trust])
        XCTAssertTrue(
            phishing.warnings[0].text.hasPrefix(
                "This sign-in is for bank.example, but the request comes from the site https://app.example.com"))
        XCTAssertEqual(
            phishing.record,
            AuditLog.SignInRecord(domain: "bank.example", uri: "https://bank.example/", site: site, matchesSite: false))

        let unchecked = SignInCheck(domain: "bank.example", scheme: nil, uri: nil, site: nil)
        XCTAssertTrue(unchecked.warnings[0].text.hasPrefix("This sign-in cannot be checked against a site"))
        XCTAssertNil(unchecked.record.matchesSite)
        XCTAssertEqual(SignInCheck.domain(of: "http://127.0.0.1:8123"), "127.0.0.1:8123")
    }

    // MARK: personal_sign and solana_signIn in a session

    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let now = 1_800_000_000
    private var wallet = RecordingSessionWallet()
    private let cow = RecordingSessionWallet.ethereumAddresses[0]

    private func call(
        _ method: String, _ params: JSONValue, chain: ChainID, origin: String?
    ) async throws -> JSONValue {
        let namespaces: Namespaces = [
            SolanaChain.namespace: WalletSupport.default.namespaces[SolanaChain.namespace]!,
            EIP155.namespace: Namespace(chains: [EIP155.mainnet, ChainID("eip155:137")!], methods: EIP155.methods),
        ]
        let session = Session(
            caller: SessionCaller(caller), origin: origin, callerName: nil,
            metadata: PeerMetadata(name: "Example dApp"),
            requiredNamespaces: namespaces, optionalNamespaces: [:], namespaces: namespaces, created: now,
            expiry: now + 604_800)
        var service = SessionService(
            store: SessionStore(inMemory: [session], now: { [now] in now }), wallet: wallet, lifetime: 604_800)
        service.clocks.wall = { [now] in now }
        var request: [String: JSONValue] = [
            "topic": .string(session.topic), "chainId": .string(chain.description),
            "request": .object(["method": .string(method), "params": params]),
        ]
        // A session of a site is used by naming it (docs/sessions.md).
        if let origin { request["origin"] = .string(origin) }
        return try await service.request(
            .object(request),
            context: RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: "session_request"))
    }

    /// A SIWE message for `domain` signed by `address` on `chain`.
    private func siwe(_ domain: String, address: String? = nil, chain: String = "1", uri: String? = nil) -> String {
        """
        \(domain) wants you to sign in with your Ethereum account:
        \(address ?? cow.description)

        Sign in to the app's page (terms: https://app.example.com/tos)

        URI: \(uri ?? "https://\(domain)/login")
        Version: 1
        Chain ID: \(chain)
        Nonce: 32891756
        Issued At: 2021-09-30T16:25:24Z
        """
    }

    private func personalSign(_ text: String, origin: String?, chain: ChainID = EIP155.mainnet) async throws
        -> EthereumConsent
    {
        wallet = RecordingSessionWallet()
        _ = try await call(
            "personal_sign", [.string(Hex.prefixed(Array(text.utf8))), .string(cow.description)], chain: chain,
            origin: origin)
        return try XCTUnwrap(wallet.asked.ethereum.withLock { $0.last?.consent })
    }

    func testASignInForItsOwnSiteIsShownAsOneWithoutWarnings() async throws {
        let consent = try await personalSign(siwe("app.example.com"), origin: "https://app.example.com")
        XCTAssertEqual(consent.kind, "a sign-in (Sign-In with Ethereum, personal_sign)")
        XCTAssertEqual(
            consent.lines,
            [
                "Domain: app.example.com", "Account: \(cow)",
                "Statement: \"Sign in to the app's page (terms: https://app.example.com/tos)\"",
                "URI: https://app.example.com/login", "Version: 1", "Chain ID: 1", "Nonce: 32891756",
                "Issued At: 2021-09-30T16:25:24Z",
            ])
        XCTAssertEqual(
            consent.signIn,
            AuditLog.SignInRecord(
                domain: "app.example.com", uri: "https://app.example.com/login", site: "https://app.example.com",
                matchesSite: true))
    }

    func testASignInForAnotherSiteLeadsWithTheWarningNamingBoth() async throws {
        let consent = try await personalSign(siwe("bank.example"), origin: "http://127.0.0.1:8123")
        XCTAssertEqual(
            consent.lines.prefix(2),
            [
                "⚠ This sign-in is for bank.example, but the request comes from the site http://127.0.0.1:8123 (as the extension "
                    + "reports it)",
                "⚠ Its URI https://bank.example/login is not on that site either",
            ])
        XCTAssertEqual(consent.lines.dropFirst(2).first, "Domain: bank.example")
        XCTAssertEqual(consent.signIn?.matchesSite, false)
        XCTAssertEqual(consent.signIn?.site, "http://127.0.0.1:8123")
        // The dialog lays it out as a transaction's (within the room it has, never "Sign and
        // allow"), the same lines first.
        let signing = try XCTUnwrap(wallet.asked.ethereum.withLock { $0.last })
        XCTAssertEqual(
            signing.transactionConsent?.subject,
            "a sign-in (Sign-In with Ethereum, personal_sign) on Ethereum (eip155:1)")
        XCTAssertEqual(signing.transactionConsent?.lines(budget: SignInConsent.budget), consent.lines)
    }

    func testTheAccountAndTheChainAreCheckedAgainstTheRequest() async throws {
        let other = "0x0000000000000000000000000000000000000001"
        let consent = try await personalSign(
            siwe("app.example.com", address: other, chain: "0137"), origin: "https://app.example.com")
        XCTAssertEqual(
            consent.lines.prefix(2),
            [
                "⚠ The message names the account \(other), but the key that signs is \(cow)",
                "⚠ The message is for chain ID 0137, but the request is for Ethereum (eip155:1)",
            ])
        let polygon = try await personalSign(
            siwe("app.example.com", chain: "137"), origin: "https://app.example.com", chain: ChainID("eip155:137")!)
        XCTAssertFalse(polygon.lines.contains { $0.hasPrefix("⚠") }, "\(polygon.lines)")
    }

    func testASessionWithoutASiteGetsTheNotice() async throws {
        let consent = try await personalSign(siwe("app.example.com"), origin: nil)
        XCTAssertTrue(consent.lines[0].hasPrefix("⚠ This sign-in cannot be checked against a site"), consent.lines[0])
        XCTAssertEqual(
            consent.signIn, AuditLog.SignInRecord(domain: "app.example.com", uri: "https://app.example.com/login"))
    }

    func testMalformedSignInTextIsSignedAsPlainTextWithANotice() async throws {
        let text = siwe("app.example.com").replacingOccurrences(of: "Nonce: 32891756", with: "Nonce: short")
        let consent = try await personalSign(text, origin: "https://app.example.com")
        XCTAssertEqual(consent.kind, "a message (personal_sign)")
        XCTAssertEqual(consent.lines.count, 2)
        XCTAssertEqual(
            consent.lines[0],
            "⚠ This reads like a sign-in, but is not a well-formed one (EIP-4361: line 9 should be a "
                + "nonce of at least 8 letters and digits): it is shown, and signed, as the plain text it is")
        XCTAssertTrue(
            consent.lines.last?.hasPrefix("Text: \"app.example.com wants you to sign in") == true, "\(consent.lines)")
        XCTAssertNil(consent.signIn)
    }

    func testWhatTheSiteWritesCannotChangeTheDialogsLayout() async throws {
        // A statement cannot hold these (the grammar), but a resource's URI and the domain's
        // length can be the site's choice: escaped, and wrapped, never a line of their own.
        let long = "app.example.com/" + String(repeating: "a", count: 150)
        let consent = try await personalSign(
            siwe("app.example.com", uri: "https://\(long)"), origin: "https://app.example.com")
        XCTAssertTrue(consent.lines.allSatisfy { DisplayText.cost($0) <= TransactionConsent.maxLineBytes })
        XCTAssertTrue(
            consent.lines.contains { $0.hasPrefix("URI: https://app.example.com/aaa") && $0.contains("bytes shown)") })

        // A Solana statement may have lines of its own, and quotes: shown on one line, marked.
        wallet = RecordingSessionWallet()
        let statement = "Line one\n\nLine \"two\" \\ three"
        _ = try await call(
            "solana_signIn", ["statement": .string(statement)], chain: SolanaChain.mainnet,
            origin: "https://app.example.com")
        let lines = try XCTUnwrap(wallet.asked.solana.withLock { $0.last?.consent }).lines(budget: 600)
        XCTAssertEqual(
            lines.first { $0.hasPrefix("Statement:") }, "Statement: \"Line one ⏎ Line \\\"two\\\" \\\\ three\"")
        // Control and format characters (bidi overrides, ESC) are refused before any dialog.
        for hidden in ["\u{202E}", "\u{1B}[2J", "\u{2028}"] {
            do {
                _ = try await call(
                    "solana_signIn", ["statement": .string("a" + hidden)], chain: SolanaChain.mainnet, origin: nil)
                XCTFail("signed a statement with \(hidden.unicodeScalars.first!.value)")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .invalidParams)
            }
        }
    }

    func testSolanaSignInFillsTheDomainAndAddressAndSignsTheExactMessage() async throws {
        let answer = try await call(
            "solana_signIn",
            ["statement": "Sign in to the app", "uri": "https://app.example.com/", "chainId": "mainnet"],
            chain: SolanaChain.mainnet, origin: "https://app.example.com")
        let key = RecordingSessionWallet.keys[0]
        guard case .object(let result) = answer, case .string(let message)? = result["message"],
            case .string(let signature)? = result["signature"]
        else { return XCTFail("\(answer)") }
        XCTAssertEqual(result["address"], .string(key.base58))
        XCTAssertEqual(
            message,
            """
            app.example.com wants you to sign in with your Solana account:
            \(key.base58)

            Sign in to the app

            URI: https://app.example.com/
            Chain ID: mainnet
            """)
        XCTAssertTrue(
            Ed25519.verify(
                try XCTUnwrap(Base58.decode(signature, maxBytes: 64)), message: Array(message.utf8),
                publicKey: key.publicKey))
        let signing = try XCTUnwrap(wallet.asked.solana.withLock { $0.last })
        XCTAssertEqual(signing.method, "solana_signIn")
        XCTAssertEqual(signing.messages, [Array(message.utf8)])
        XCTAssertEqual(
            signing.signIn,
            AuditLog.SignInRecord(
                domain: "app.example.com", uri: "https://app.example.com/", site: "https://app.example.com",
                matchesSite: true))
        XCTAssertEqual(signing.consent.subject, "a sign-in (Sign In With Solana) on Solana mainnet")
        XCTAssertFalse(signing.consent.lines(budget: 600).contains { $0.hasPrefix("⚠") })
    }

    func testSolanaSignInForAnotherDomainOrChainLeadsWithTheWarnings() async throws {
        let second = RecordingSessionWallet.keys[1]
        _ = try await call(
            "solana_signIn", ["domain": "bank.example", "address": .string(second.base58), "chainId": "devnet"],
            chain: SolanaChain.mainnet, origin: "http://127.0.0.1:8123")
        let signing = try XCTUnwrap(wallet.asked.solana.withLock { $0.last })
        XCTAssertEqual(signing.publicKey, second.publicKey)
        let lines = signing.consent.lines(budget: 600)
        XCTAssertEqual(
            lines.prefix(3),
            [
                "⚠ This sign-in is for bank.example, but the request comes from the site http://127.0.0.1:8123 (as the extension "
                    + "reports it)",
                "⚠ The message is for devnet, but the request is for Solana mainnet",
                "Domain: bank.example",
            ])
        XCTAssertEqual(signing.signIn?.matchesSite, false)
    }

    func testSolanaSignInRefusesWhatItCannotSign() async throws {
        func field(_ params: JSONValue, origin: String?) async -> String? {
            do {
                _ = try await call("solana_signIn", params, chain: SolanaChain.mainnet, origin: origin)
                XCTFail("signed")
                return nil
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .invalidParams)
                guard case .object(let data)? = error.data, case .string(let field)? = data["field"] else { return nil }
                return field
            } catch {
                XCTFail("\(error)")
                return nil
            }
        }
        let nobody = Base58.encode([UInt8](repeating: 7, count: 32))
        let noDomain = await field([:], origin: nil)
        XCTAssertEqual(noDomain, "request.params.domain")
        let notOurs = await field(["address": .string(nobody)], origin: "https://app.example.com")
        XCTAssertEqual(notOurs, "request.params.address")
        let notAKey = await field(["address": "0xabc"], origin: "https://app.example.com")
        XCTAssertEqual(notAKey, "request.params.address")
        let tooLong = await field(
            ["domain": .string(String(repeating: "a", count: 700))], origin: "https://app.example.com")
        XCTAssertEqual(tooLong, "request.params")
        XCTAssertTrue(wallet.asked.solana.withLock { $0.isEmpty })
    }

    func testTheAuditLogRecordsTheSignIn() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        var entry = AuditLog.Entry(
            decision: .approved, caller: caller, callerName: nil, address: "a", label: "main", payloadHashes: [],
            approval: .confirmation)
        entry.ethereum = .init(method: "personal_sign", chain: "eip155:1", digest: [1, 2])
        entry.signIn = AuditLog.SignInRecord(
            domain: "bank.example", uri: "https://bank.example/", site: "http://127.0.0.1:8123", matchesSite: false)
        AuditLog(path: path).record(entry)
        entry.signIn = AuditLog.SignInRecord(domain: "app.example")
        AuditLog(path: path).record(entry)
        let lines = try String(decoding: readBytes(path), as: UTF8.self).split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        guard lines.count == 2 else { return XCTFail("\(lines)") }
        XCTAssertEqual(
            lines[0]["sign_in"] as? NSDictionary,
            [
                "domain": "bank.example", "uri": "https://bank.example/", "site": "http://127.0.0.1:8123",
                "matches_site": false,
            ] as NSDictionary)
        XCTAssertEqual(lines[1]["sign_in"] as? NSDictionary, ["domain": "app.example"] as NSDictionary)
    }

    func testSignInIsASupportedSigningMethod() {
        XCTAssertTrue(WalletSupport.default.namespaces[SolanaChain.namespace]!.methods.contains("solana_signIn"))
        XCTAssertTrue(SolanaMethod.signingMethods.contains("solana_signIn"))
    }

    // MARK: Review of issue 37

    /// A malformed sign-in still names a domain on its first line, which lenient parsers
    /// (viem's) take as the sign-in's: when it is not the site, the dialog leads with the
    /// warning naming both, before the notice that it is not well-formed.
    func testAMalformedSignInForAnotherSiteLeadsWithTheWarningNamingBoth() async throws {
        // Two line breaks after the address where EIP-4361 has three (no statement).
        func text(_ domain: String) -> String {
            "\(domain) wants you to sign in with your Ethereum account:\n\(cow)\n\nURI: https://bank.example/login\nVersion: 1\n"
                + "Chain ID: 1\nNonce: 32891756\nIssued At: 2021-09-30T16:25:24Z"
        }
        let consent = try await personalSign(text("bank.example"), origin: "https://app.example.com")
        XCTAssertEqual(consent.kind, "a message (personal_sign)")
        XCTAssertTrue(consent.readsAsSignIn)
        XCTAssertEqual(
            consent.lines.first,
            "⚠ This sign-in is for bank.example, but the request comes from the site "
                + "https://app.example.com (as the extension reports it)")
        XCTAssertTrue(
            consent.lines[1].hasPrefix("⚠ This reads like a sign-in, but is not a well-formed one"), consent.lines[1])
        let withScheme = try await personalSign(text("https://bank.example"), origin: "https://app.example.com")
        XCTAssertTrue(
            withScheme.lines[0].hasPrefix("⚠ This sign-in is for https://bank.example, but"), withScheme.lines[0])
        // Its own site: only the notice.
        let own = try await personalSign(text("bank.example"), origin: "https://bank.example")
        XCTAssertEqual(own.lines.count, 2)
        XCTAssertTrue(own.lines[0].hasPrefix("⚠ This reads like a sign-in"), own.lines[0])
        // No scheme is https: an http site that is not this computer gets the warning.
        let http = try await personalSign(text("bank.example"), origin: "http://bank.example")
        XCTAssertTrue(http.lines[0].hasPrefix("⚠ This sign-in is for bank.example, but"), http.lines[0])
    }

    /// EIP-4361: a domain without a scheme is for https. A loopback host also matches http:
    /// a site in development on this computer.
    func testASchemelessDomainIsHTTPSExceptOnALoopbackHost() {
        func matches(_ domain: String, scheme: String? = nil, site: String, https: Bool = true) -> Bool? {
            SignInCheck(domain: domain, scheme: scheme, uri: nil, site: site, schemelessIsHTTPS: https).record
                .matchesSite
        }
        XCTAssertEqual(matches("app.example.com", site: "https://app.example.com"), true)
        XCTAssertEqual(matches("app.example.com", site: "http://app.example.com"), false)
        XCTAssertEqual(matches("app.example.com:80", site: "http://app.example.com"), false)
        XCTAssertEqual(matches("app.example.com", scheme: "http", site: "http://app.example.com"), true)
        XCTAssertEqual(matches("10.0.0.1:8123", site: "http://10.0.0.1:8123"), false)
        for site in [
            "http://127.0.0.1:8123", "http://127.1.2.3", "http://localhost:3000", "http://[::1]:8080", "https://[::1]",
        ] {
            XCTAssertEqual(matches(SiteOrigin.hostAndPort(of: site)!, site: site), true, site)
        }
        XCTAssertEqual(matches("LOCALHOST:3000", site: "http://localhost:3000"), true)
        XCTAssertEqual(matches("localhost.example:3000", site: "http://localhost.example:3000"), false)
        // Sign In With Solana's format has no scheme to name: its domain is the host and port.
        XCTAssertEqual(matches("app.example.com", site: "http://app.example.com", https: false), true)
        XCTAssertEqual(matches("evil.example", site: "http://app.example.com", https: false), false)
    }

    /// A URI's origin is read only from an RFC 3986 authority: a backslash, which browsers read
    /// as "/", would otherwise hide the site a browser sees (evil.example) behind "@".
    func testAURIWithBytesOutsideRFC3986HasNoOrigin() async throws {
        let tricky = "http://evil.example\\@127.0.0.1:8123/"
        XCTAssertNil(SignInCheck.webOrigin(of: tricky))
        XCTAssertEqual(SignInCheck.webOrigin(of: "http://user@127.0.0.1:8123/x"), "http://127.0.0.1:8123")
        let check = SignInCheck(domain: "127.0.0.1:8123", scheme: nil, uri: tricky, site: "http://127.0.0.1:8123")
        XCTAssertEqual(check.record.matchesSite, false)

        func field(_ params: JSONValue) async -> String? {
            do {
                _ = try await call("solana_signIn", params, chain: SolanaChain.mainnet, origin: "http://127.0.0.1:8123")
                XCTFail("signed")
            } catch let error as RPCError {
                XCTAssertEqual(error.code, .invalidParams)
                if case .object(let data)? = error.data, case .string(let field)? = data["field"] { return field }
            } catch {
                XCTFail("\(error)")
            }
            return nil
        }
        let uri = await field(["uri": .string(tricky)])
        XCTAssertEqual(uri, "request.params.uri")
        let resource = await field(["resources": ["https://app.example.com/a", .string(tricky)]])
        XCTAssertEqual(resource, "request.params.resources[1]")
        let words = await field(["resources": ["not a uri"]])
        XCTAssertEqual(words, "request.params.resources[0]")
        XCTAssertTrue(wallet.asked.solana.withLock { $0.isEmpty })
        _ = try await call(
            "solana_signIn", ["uri": "http://127.0.0.1:8123/login", "resources": ["ipfs://bafy/x"]],
            chain: SolanaChain.mainnet,
            origin: "http://127.0.0.1:8123")
        XCTAssertEqual(wallet.asked.solana.withLock { $0.last?.signIn?.matchesSite }, true)
    }

    /// EIP-4361: wallets must show the resources. Their count is always shown; as many as fit
    /// are listed, the rest counted.
    func testManyResourcesAreCountedAndListedAsFarAsTheyFit() async throws {
        let resources = (0..<40).map { "- https://app.example.com/resources/\($0)" }.joined(separator: "\n")
        let consent = try await personalSign(
            siwe("app.example.com") + "\nResources:\n" + resources, origin: "https://app.example.com")
        XCTAssertNotNil(consent.signIn)
        let start = try XCTUnwrap(consent.lines.firstIndex(of: "Resources (40):"), "\(consent.lines)")
        let listed = consent.lines[(start + 1)...].prefix { $0.hasPrefix("  - ") }
        XCTAssertGreaterThan(listed.count, 0)
        XCTAssertEqual(listed.first, "  - https://app.example.com/resources/0")
        XCTAssertEqual(consent.lines[start + 1 + listed.count], "  …and \(40 - listed.count) more resources not shown")
        // The statement and URI still fit after them.
        XCTAssertTrue(consent.lines.contains("URI: https://app.example.com/login"), "\(consent.lines)")
        // A few are all listed, and nothing counted.
        let two = try await personalSign(
            siwe("app.example.com")
                + "\nResources:\n- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/\n"
                + "- https://app.example.com/claim.json", origin: "https://app.example.com")
        let at = try XCTUnwrap(two.lines.firstIndex(of: "Resources (2):"), "\(two.lines)")
        XCTAssertEqual(
            two.lines[(at + 1)...].prefix(2),
            [
                "  - ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/",
                "  - https://app.example.com/claim.json",
            ])
        XCTAssertFalse(two.lines.contains { $0.contains("resources not shown") || $0.contains("resource not shown") })
    }
}
