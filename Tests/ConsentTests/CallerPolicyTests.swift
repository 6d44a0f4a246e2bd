import WalletBridge
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeConsent

final class CallerPolicyTests: XCTestCase {
    private let chrome = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private let firefox = Caller.firefoxAddon(
        id: "wallet@example.org", manifestPath: "/usr/lib/mozilla/native-messaging-hosts/x.json")
    private let stranger = Caller.chromeExtension(origin: "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/")

    private func allowed(_ policy: CallerPolicy, _ caller: Caller, _ method: String) -> Bool {
        let refusal = policy.refusal(for: RequestContext(caller: caller, requestID: nil, method: method))
        if let refusal { XCTAssertEqual(refusal.code, .authorizationFailed) }
        return refusal == nil
    }

    func testWithoutAPolicyEveryoneIsAllowed() {
        for caller in [chrome, firefox, stranger, .unidentified] {
            XCTAssertTrue(allowed(.allowAll, caller, GetAccounts.name))
            XCTAssertTrue(allowed(.allowAll, caller, "custom.method"))
        }
    }

    func testAllowListIsStrict() throws {
        let policy = CallerPolicy.allowList(
            try CallerPolicy.AllowList([
                "chrome-extension://abcdefghijklmnopabcdefghijklmnop/": ["*"],
                "wallet@example.org": [GetAccounts.name],
            ]))
        XCTAssertTrue(allowed(policy, chrome, SignPayloads.name))
        XCTAssertTrue(allowed(policy, chrome, "custom.method"))
        XCTAssertTrue(allowed(policy, firefox, GetAccounts.name))
        XCTAssertFalse(allowed(policy, firefox, SignPayloads.name))
        XCTAssertFalse(allowed(policy, firefox, "custom.method"))
        XCTAssertFalse(allowed(policy, stranger, GetAccounts.name))
        XCTAssertFalse(allowed(policy, .unidentified, GetAccounts.name))
        XCTAssertFalse(
            allowed(.allowList(try CallerPolicy.AllowList([:])), chrome, GetAccounts.name),
            "an empty policy allows nobody")
    }

    func testWildcardCallerCoversEveryoneElseIncludingTheUnidentified() throws {
        let policy = CallerPolicy.allowList(
            try CallerPolicy.AllowList(["*": [GetAccounts.name], "wallet@example.org": ["*"]]))
        XCTAssertTrue(allowed(policy, stranger, GetAccounts.name))
        XCTAssertTrue(allowed(policy, .unidentified, GetAccounts.name))
        XCTAssertFalse(allowed(policy, stranger, SignPayloads.name))
        XCTAssertTrue(allowed(policy, firefox, SignPayloads.name), "a named caller uses its own entry")
    }

    func testChromeOriginsMatchWithOrWithoutTheTrailingSlashButIdsExactly() throws {
        let policy = CallerPolicy.allowList(
            try CallerPolicy.AllowList([
                "chrome-extension://abcdefghijklmnopabcdefghijklmnop": ["*"], "Wallet@Example.org": ["*"],
            ]))
        XCTAssertTrue(allowed(policy, chrome, GetAccounts.name))
        XCTAssertFalse(allowed(policy, firefox, GetAccounts.name))
    }

    func testTwoNamesForOneCallerAreRefusedInsteadOfPickedAtRandom() {
        // With both, which entry applied used to follow a Dictionary's hash order: the same
        // configuration allowed everything in some runs and only GetAccounts in others.
        XCTAssertThrowsError(
            try CallerPolicy.AllowList([
                "chrome-extension://abcdefghijklmnopabcdefghijklmnop/": ["*"],
                "chrome-extension://abcdefghijklmnopabcdefghijklmnop": [GetAccounts.name],
            ])
        ) { error in
            XCTAssertEqual(
                "\(error)",
                #""chrome-extension://abcdefghijklmnopabcdefghijklmnop" and "chrome-extension://abcdefghijklmnopabcdefghijklmnop/" name the same caller; keep one of them"#
            )
        }
    }

    func testBrokenConfigurationDeniesEverything() {
        let policy = CallerPolicy.denyAll(reason: "not JSON")
        for caller in [chrome, firefox, .unidentified] { XCTAssertFalse(allowed(policy, caller, GetAccounts.name)) }
    }

    func testPolicyThroughTheRouterCoversCustomMethods() async throws {
        enum Custom: RPCMethod {
            static let name = "custom.method"
            typealias Result = String
        }
        var router = Router()
        try router.register(Custom.self) { _, _ in "ran" }
        let policy = CallerPolicy.allowList(try CallerPolicy.AllowList(["wallet@example.org": [GetAccounts.name]]))
        router.authorize { context throws(RPCError) in try policy.check(context) }
        let parsed = Request.parse(
            .object(["jsonrpc": .string("2.0"), "id": .number(JSONNumber(1)), "method": .string(Custom.name)]))
        guard case .request(let request) = parsed else { return XCTFail("\(parsed)") }
        let body = await router.respond(
            to: request, context: RequestContext(caller: firefox, requestID: request.id, method: Custom.name))
        let reply = try JSONParser.parse(try XCTUnwrap(body))
        guard case .object(let members) = reply, case .object(let error)? = members["error"] else {
            return XCTFail("\(reply)")
        }
        XCTAssertEqual(error["code"], JSONValue.number(JSONNumber(-1)))
    }
}

final class WalletConfigTests: XCTestCase {
    private func decode(_ text: String) throws -> WalletConfig {
        let folder = temporaryFolder(self)
        writeBytes(Array(text.utf8), "\(folder)/config.json")
        return try WalletConfig.load(path: "\(folder)/config.json")
    }

    func testMissingFileMeansDefaults() throws {
        let config = try WalletConfig.load(path: "/nonexistent/wallet-bridge/config.json")
        XCTAssertEqual(config, WalletConfig())
        XCTAssertEqual(config.policy, .allowAll)
        XCTAssertEqual(config.maxPayloads, 1024)
    }

    func testEveryMember() throws {
        let config = try decode(
            """
            {"allow": {"chrome-extension://a/": ["*"], "x@y": ["NATIVE_GET_ACCOUNTS_METHOD"]},
             "max_payloads": 16, "pinentry": "/usr/bin/pinentry-gnome3", "keystore": "/keys/k.json"}
            """)
        XCTAssertEqual(
            config.policy,
            .allowList(
                try CallerPolicy.AllowList(["chrome-extension://a": ["*"], "x@y": ["NATIVE_GET_ACCOUNTS_METHOD"]])))
        XCTAssertEqual(config.maxPayloads, 16)
        XCTAssertEqual(config.pinentry, "/usr/bin/pinentry-gnome3")
        XCTAssertEqual(config.keystore, "/keys/k.json")
        XCTAssertEqual(try decode("{}"), WalletConfig(), "a config without \"allow\" has no policy")
    }

    func testInvalidFilesAreErrorsAndTheHostThenDeniesEverything() throws {
        let invalid = [
            "", "{", "[]", #"{"alow": {}}"#, #"{"allow": []}"#, #"{"allow": {"x": "*"}}"#, #"{"allow": {"x": [1]}}"#,
            #"{"max_payloads": 0}"#, #"{"max_payloads": "8"}"#, #"{"max_payloads": 1.5}"#,
            #"{"keystore": "relative.json"}"#,
            #"{"pinentry": ""}"#, #"{"allow": {}, "allow": {}}"#,
            #"{"allow": {"chrome-extension://abcdefghijklmnopabcdefghijklmnop/": ["*"], "chrome-extension://abcdefghijklmnopabcdefghijklmnop": ["NATIVE_GET_ACCOUNTS_METHOD"]}}"#,
        ]
        let folder = temporaryFolder(self)
        for text in invalid {
            XCTAssertThrowsError(try decode(text), text) { error in
                XCTAssertTrue("\(error)".contains("is invalid"), "\(error)")
            }
            writeBytes(Array(text.utf8), "\(folder)/config.json")
            guard case .denyAll = WalletConfig.loadForHost(path: "\(folder)/config.json").policy else {
                return XCTFail("\(text) did not deny everything")
            }
        }
    }

    func testAFileOthersCanChangeIsNotUsedButAStickyFolderIsFine() throws {
        let folder = temporaryFolder(self)
        let path = "\(folder)/config.json"
        writeBytes(Array("{}".utf8), path)
        XCTAssertEqual(try WalletConfig.load(path: path), WalletConfig())

        chmod(path, 0o646)
        XCTAssertThrowsError(try WalletConfig.load(path: path)) { error in
            XCTAssertEqual((error as? WalletConfig.Invalid)?.kind, .changeableByOthers)
            XCTAssertEqual(
                "\(error)",
                "the configuration file \(path) is not used, because other users can write to the file \(path) (mode 0646); run: chmod go-w \(path)"
            )
        }
        chmod(path, 0o600)

        // A symlink is judged by what it points at, and by both folders.
        let elsewhere = temporaryFolder(self)
        chmod(elsewhere, 0o777)
        writeBytes(Array("{}".utf8), "\(elsewhere)/real.json")
        XCTAssertEqual(symlink("\(elsewhere)/real.json", "\(folder)/linked.json"), 0)
        XCTAssertThrowsError(try WalletConfig.load(path: "\(folder)/linked.json")) { error in
            XCTAssertTrue(
                "\(error)".contains("other users can write to the folder \(elsewhere) (mode 0777)"), "\(error)")
        }
        // The sticky bit (as on /tmp) keeps others from replacing a file this user owns.
        chmod(elsewhere, 0o1777)
        XCTAssertEqual(try WalletConfig.load(path: "\(folder)/linked.json"), WalletConfig())
    }

    func testAMissingFileWhereOthersCouldHaveRemovedItDeniesEverything() {
        // No file allows every caller: a file that whoever can write to its folder could have
        // renamed away is not taken as no file.
        let folder = temporaryFolder(self)
        let path = "\(folder)/config.json"
        XCTAssertEqual(try WalletConfig.load(path: path), WalletConfig())
        chmod(folder, 0o777)
        XCTAssertThrowsError(try WalletConfig.load(path: path)) { error in
            XCTAssertEqual((error as? WalletConfig.Invalid)?.kind, .changeableByOthers)
            XCTAssertTrue(
                "\(error)".contains(
                    "other users can write to the folder \(folder) (mode 0777); run: chmod go-w \(folder)"), "\(error)")
        }
        guard case .denyAll = WalletConfig.loadForHost(path: path).policy else {
            return XCTFail("a more permissive policy was applied")
        }
    }

    func testAFileOwnedByAnotherUserIsNotUsed() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give a file to another user") }
        let folder = temporaryFolder(self)
        let path = "\(folder)/config.json"
        writeBytes(Array("{}".utf8), path)
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        XCTAssertThrowsError(try WalletConfig.load(path: path)) { error in
            XCTAssertTrue("\(error)".contains("belongs to another user (uid 65534)"), "\(error)")
        }
    }

    func testAConfigurationThatCannotBeReadIsNotCalledAKeystore() throws {
        let folder = temporaryFolder(self)
        writeBytes([UInt8](repeating: 0x20, count: WalletConfig.maxFileBytes + 1), "\(folder)/huge.json")
        XCTAssertThrowsError(try WalletConfig.load(path: "\(folder)/huge.json")) { error in
            XCTAssertEqual(
                "\(error)",
                "the configuration file \(folder)/huge.json is invalid: it is 1048577 bytes, more than the 1048576 a configuration file may have"
            )
        }
        XCTAssertEqual(mkfifo("\(folder)/fifo.json", 0o600), 0)
        XCTAssertThrowsError(try WalletConfig.load(path: "\(folder)/fifo.json")) { error in
            XCTAssertEqual(
                "\(error)",
                "the configuration file \(folder)/fifo.json cannot be read: it is a FIFO (named pipe), not a regular file"
            )
        }
    }
}
