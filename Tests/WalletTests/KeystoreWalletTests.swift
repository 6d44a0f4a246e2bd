import Foundation
import Synchronization
import WalletBridge
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeConsent
import WalletBridgeKeys

/// A passphrase source that answers from a list, as a person at a pinentry would.
private struct ScriptedSource: PassphraseSource {
    enum Answer: Sendable { case passphrase(String), cancel }
    let answers: [Answer]
    let asked = Recorder()

    func obtain<T: Sendable>(for request: ConsentRequest, attempt: @Sendable (SecureBytes) async throws -> T?)
        async throws -> T
    {
        for answer in answers {
            asked.add(request.description(for: .passphrase))
            switch answer {
            case .cancel: throw ConsentRefusal.declined
            case .passphrase(let text): if let result = try await attempt(secure(text)) { return result }
            }
        }
        throw ConsentRefusal.wrongPassphrase
    }

    func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation {
        asked.add(request.description(for: .confirmation))
        if case .cancel? = answers.first { throw ConsentRefusal.declined }
        return .once
    }

    func ask(_ question: ConsentQuestion) async throws -> Bool {
        asked.add(question.description)
        if case .cancel? = answers.first { return false }
        return true
    }
}

final class KeystoreWalletTests: XCTestCase {
    private var keystore = Keystore(path: "")
    private var entry: KeystoreFile.Entry!
    private let context = RequestContext(
        caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"),
        requestID: .number(JSONNumber(1)),
        method: SignPayloads.name)

    override func setUpWithError() throws {
        useWeakKDF()
        keystore = Keystore(path: "\(temporaryFolder(self))/keystore.json")
        entry = try keystore.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
    }

    private func wallet(_ answers: [ScriptedSource.Answer], maxPayloads: Int = 4) -> (KeystoreWallet, ScriptedSource) {
        let source = ScriptedSource(answers: answers)
        return (KeystoreWallet(keystore: keystore, maxPayloads: maxPayloads, passphrases: source), source)
    }

    private func sign(_ wallet: KeystoreWallet, address: String? = nil, _ payloads: [String]) async throws
        -> SignPayloadsResult
    {
        try await wallet.signPayloads(
            SignPayloadsParams(address: address ?? entry.address, payloads: payloads), context: context)
    }

    private func assertError(_ expected: RPCError, _ body: () async throws -> Void, line: UInt = #line) async {
        do {
            try await body()
            XCTFail("no error", line: line)
        } catch {
            XCTAssertEqual(error as? RPCError, expected, line: line)
        }
    }

    func testGetAccountsListsTheKeystoreWithoutAskingAnyone() async throws {
        let (wallet, source) = wallet([])
        let second = try keystore.importKey(secure(testSeedB), label: "second", passphrase: secure("right"))
        let result = try await wallet.getAccounts(context: context)
        XCTAssertEqual(result.addresses, [entry.address, second.address])
        XCTAssertEqual(source.asked.values, [])
        let empty = KeystoreWallet(keystore: Keystore(path: "/nonexistent/keystore.json"), passphrases: source)
        let none = try await empty.getAccounts(context: context)
        XCTAssertEqual(none.addresses, [])
    }

    func testNoAccountIsGivenFromAKeystoreOthersCanChange() async throws {
        _ = try keystore.importKey(
            secure([UInt8](repeating: 0x11, count: 32)), type: .secp256k1, label: "eth", passphrase: secure("right"))
        let (wallet, source) = wallet([.passphrase("right")])
        // A context per call: calls read together share one check of the file.
        func now() -> RequestContext {
            RequestContext(caller: context.caller, requestID: context.requestID, method: GetAccounts.name)
        }
        XCTAssertEqual(try wallet.accounts(context: now()).eip155.count, 1)
        let folder = String(keystore.path[..<keystore.path.lastIndex(of: "/")!])
        for (path, mode, restore) in [(keystore.path, 0o666, 0o600), (folder, 0o777, 0o700)]
            as [(String, mode_t, mode_t)]
        {
            chmod(path, mode)
            // GetAccounts, and a session's accounts (solana_getAccounts, eth_accounts).
            await assertError(KeystoreWallet.keystoreChangeableByOthers) {
                _ = try await wallet.getAccounts(context: now())
            }
            await assertError(KeystoreWallet.keystoreChangeableByOthers) { _ = try wallet.accounts(context: now()) }
            await assertError(RPCError(.notSigned, data: .object(["reason": "keystore_writable_by_others"]))) {
                _ = try await self.sign(wallet, ["aGk="])
            }
            chmod(path, restore)
            XCTAssertEqual(try wallet.accounts(context: now()).eip155.count, 1, "fixed: listed again")
        }
        XCTAssertEqual(source.asked.values, [], "nobody asked")
    }

    func testGetAccountsIsServedOnTheReaderThreadOnlyFromALocalFilesystem() throws {
        let (wallet, _) = wallet([])
        XCTAssertEqual(wallet.getAccountsExecution, .immediate, "a temporary folder is local")
        // A keystore that does not exist yet is judged by the nearest folder that does.
        let future = KeystoreWallet(
            keystore: Keystore(path: "/tmp/not/yet/there/keystore.json"),
            passphrases: PassphraseFileSource(path: "/dev/null"))
        XCTAssertEqual(future.getAccountsExecution, .immediate)
    }

    func testGetAccountsRunsNoArgon2EvenWithTheMostExpensiveStoredLimits() async throws {
        var file = try XCTUnwrap(try keystore.read())
        file.kdf.limits = .maximum  // 16 passes over 1 GiB: seconds per derivation if it ran
        writeBytes(file.encode(), keystore.path)
        let started = ContinuousClock.now
        let result = try await wallet([]).0.getAccounts(context: context)
        XCTAssertEqual(result.addresses, [entry.address])
        // No Argon2 ran: at these limits one would take far longer.
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
    }

    func testSignsEveryPayloadInTheMobileWalletAdapterLayout() async throws {
        let (wallet, source) = wallet([.passphrase("right")])
        let payloads = [Array("hello".utf8), [0, 1, 2, 255], [UInt8](repeating: 7, count: 1000)]
        let result = try await sign(wallet, payloads.map(Base64.encode))
        XCTAssertEqual(result.signed_payloads.count, payloads.count)
        for (signed, payload) in zip(result.signed_payloads, payloads) {
            let bytes = try XCTUnwrap(Base64.decode(signed))
            XCTAssertEqual(Array(bytes.prefix(payload.count)), payload)
            XCTAssertEqual(bytes.count, payload.count + 64)
            XCTAssertTrue(Ed25519.verify(Array(bytes.suffix(64)), message: payload, publicKey: entry.publicKey))
        }
        XCTAssertEqual(source.asked.values.count, 1)
        XCTAssertTrue(source.asked.values[0].contains("3 payloads"))
        XCTAssertTrue(source.asked.values[0].contains("\"main\" (\(entry.shortAddress))"))
    }

    func testUnknownAddressIsInvalidParamsAndAsksNobody() async throws {
        let (wallet, source) = wallet([.passphrase("right")])
        let expected = RPCError(
            .invalidParams,
            data: .object(["field": .string("address"), "problem": .string("no account with this address")]))
        await assertError(expected) {
            _ = try await self.sign(wallet, address: Base64.encode(publicKey(ofSeed: testSeedB)), ["aGk="])
        }
        await assertError(expected) { _ = try await self.sign(wallet, address: self.entry.displayAddress, ["aGk="]) }
        await assertError(expected) { _ = try await self.sign(wallet, address: "not base64", ["aGk="]) }
        XCTAssertEqual(source.asked.values, [])
    }

    func testBadPayloadsAreRejectedBeforeAnyoneIsAsked() async throws {
        let (wallet, source) = wallet([.passphrase("right")])
        await assertError(.invalidPayloads(valid: [true, false, false])) {
            _ = try await self.sign(wallet, ["aGk=", "***", ""])
        }
        await assertError(.invalidPayloads(valid: [])) { _ = try await self.sign(wallet, []) }
        let tooMany = RPCError(
            .tooManyPayloads, data: .object(["count": .number(JSONNumber(5)), "max": .number(JSONNumber(4))]))
        await assertError(tooMany) { _ = try await self.sign(wallet, Array(repeating: "aGk=", count: 5)) }
        XCTAssertEqual(source.asked.values, [])
    }

    func testRefusalsAreNotSignedWithAReason() async throws {
        func notSigned(_ reason: String) -> RPCError {
            RPCError(.notSigned, data: .object(["reason": .string(reason)]))
        }
        await assertError(notSigned("declined")) { _ = try await self.sign(self.wallet([.cancel]).0, ["aGk="]) }
        await assertError(notSigned("wrong_passphrase")) {
            _ = try await self.sign(self.wallet([.passphrase("a"), .passphrase("b")]).0, ["aGk="])
        }
        let (retried, source) = wallet([.passphrase("typo"), .passphrase("right")])
        let retriedResult = try await sign(retried, ["aGk="])
        XCTAssertEqual(retriedResult.signed_payloads.count, 1)
        XCTAssertEqual(source.asked.values.count, 2)

        var file = try XCTUnwrap(try keystore.read())
        file.keys[0].sealedSeed.ciphertext[0] ^= 1
        writeBytes(file.encode(), keystore.path)
        await assertError(notSigned("key_damaged")) {
            _ = try await self.sign(self.wallet([.passphrase("right")]).0, ["aGk="])
        }
    }

    func testUnreadableKeystoreIsAnInternalErrorThatNamesNoPath() async throws {
        writeBytes(Array("{\"format\": \"wallet-bri".utf8), keystore.path)
        do {
            _ = try await wallet([]).0.getAccounts(context: context)
            XCTFail("read a truncated keystore")
        } catch let error as RPCError {
            XCTAssertEqual(error.code, .internalError)
            XCTAssertFalse("\(error.data ?? .null)".contains(keystore.path))
        }
    }

    func testConsentDialogsRunOneAtATime() async throws {
        actor Overlap {
            var current = 0
            var maximum = 0
            var entered = 0
            /// How many dialogs had opened before this one.
            func enter() -> Int {
                current += 1
                maximum = max(maximum, current)
                entered += 1
                return entered - 1
            }
            func leave() { current -= 1 }
        }
        /// The wallet, once made: its source asks how many requests are in line.
        final class Line: Sendable { let wallet = Mutex<KeystoreWallet?>(nil) }
        /// A dialog that stays open until every request not yet answered waits in line behind
        /// it, or, were they not kept in line, opens a dialog beside it.
        struct SlowSource: PassphraseSource {
            let overlap: Overlap
            let line: Line
            func obtain<T: Sendable>(for request: ConsentRequest, attempt: @Sendable (SecureBytes) async throws -> T?)
                async throws -> T
            {
                let before = await overlap.enter()
                try await waitUntil("the other requests wait in line") {
                    let inLine = line.wallet.withLock { $0?.signatureRequestsInLine ?? 0 }
                    let overlapped = await overlap.maximum > 1
                    return inLine >= 5 - before || overlapped
                }
                await overlap.leave()
                guard let result = try await attempt(secure("right")) else { throw ConsentRefusal.wrongPassphrase }
                return result
            }
            func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation { .once }
            func ask(_ question: ConsentQuestion) async throws -> Bool { true }
        }
        let overlap = Overlap()
        let line = Line()
        let wallet = KeystoreWallet(keystore: keystore, passphrases: SlowSource(overlap: overlap, line: line))
        line.wallet.withLock { $0 = wallet }
        let address = entry.address
        let context = self.context
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    try await wallet.signPayloads(
                        SignPayloadsParams(address: address, payloads: ["aGk="]), context: context
                    ).signed_payloads.count
                }
            }
            for try await count in group { XCTAssertEqual(count, 1) }
        }
        let maximum = await overlap.maximum
        XCTAssertEqual(maximum, 1)
    }
}
