#if canImport(Glibc)
import Glibc
#endif
import Foundation
import WalletBridge
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeSystem
import WalletBridgeConsent

/// The pinentry client against Tests/Support/fake-pinentry, which speaks real Assuan.
final class PinentryTests: XCTestCase {
    private var folder = ""
    private var logPath: String { "\(folder)/pinentry.log" }

    override func setUp() {
        folder = temporaryFolder(self)
        for name in Self.scriptVariables { unsetenv(name) }
        setenv("FAKE_PINENTRY_LOG", logPath, 1)
    }

    override func tearDown() {
        for name in Self.scriptVariables { unsetenv(name) }
    }

    private static let scriptVariables = [
        "FAKE_PINENTRY_MODE", "FAKE_PINENTRY_PASSPHRASES", "FAKE_PINENTRY_LOG", "FAKE_PINENTRY_CONFIRM",
        "FAKE_PINENTRY_CONNECT",
    ]

    private let request = ConsentRequest(
        caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"),
        keyLabel: "savings", shortAddress: "7xKX…3fGh",
        payloads: [
            .text("Sign in to example.com"), .binary(byteCount: 40, sha256Prefix: "0123456789abcdef"), .text("three"),
        ])

    private func answers(_ lines: [String]) {
        let path = "\(folder)/answers"
        writeBytes(Array(lines.map { $0 + "\n" }.joined().utf8), path)
        setenv("FAKE_PINENTRY_PASSPHRASES", path, 1)
    }

    private func log() throws -> [[String: Any]] {
        let text = String(decoding: try readBytes(logPath), as: UTF8.self)
        return try text.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    private func commands() throws -> [(String, String)] {
        try log().compactMap { record in
            (record["command"] as? String).map { ($0, record["argument"] as? String ?? "") }
        }
    }

    func testAnswerIsPassedOnAndThePromptNamesCallerKeyAndCount() async throws {
        answers(["correct horse %1\\"])
        let got = try await PinentrySource(program: fakePinentryPath).obtain(for: request) { passphrase in
            String(decoding: passphrase.bytes, as: UTF8.self)
        }
        XCTAssertEqual(got, "correct horse %1\\", "percent escapes decoded exactly")
        let sent = try commands()
        XCTAssertEqual(sent.map(\.0), ["SETTITLE", "SETDESC", "SETPROMPT", "SETOK", "SETCANCEL", "GETPIN", "BYE"])
        let description = try XCTUnwrap(sent.first { $0.0 == "SETDESC" }?.1)
        XCTAssertTrue(description.hasPrefix("The extension with ID abcdefghijklmnopabcdefghijklmnop\n"), description)
        XCTAssertTrue(description.contains("\"savings\" (7xKX…3fGh)"), description)
        XCTAssertTrue(description.contains("3 payloads"), description)
        XCTAssertTrue(description.contains("\n\n"), "line breaks survive the escaping")
        XCTAssertEqual(try log().last?["event"] as? String, "exit", "pinentry got BYE and exited by itself")
    }

    func testConfirmationShowsSignAndRefuseAndAsksNoPassphrase() async throws {
        let answer = try await PinentrySource(program: fakePinentryPath).confirm(request)
        XCTAssertEqual(answer, .once)
        let sent = try commands()
        XCTAssertEqual(sent.map(\.0), ["SETTITLE", "SETDESC", "SETOK", "SETCANCEL", "CONFIRM", "BYE"])
        XCTAssertEqual(sent.first { $0.0 == "SETOK" }?.1, "_Sign")
        XCTAssertEqual(sent.first { $0.0 == "SETCANCEL" }?.1, "_Refuse")
        let description = try XCTUnwrap(sent.first { $0.0 == "SETDESC" }?.1)
        XCTAssertTrue(description.contains("1. Text: \"Sign in to example.com\""), description)
        XCTAssertTrue(description.hasSuffix("Sign, or Refuse."), description)

        setenv("FAKE_PINENTRY_CONFIRM", "refuse", 1)
        defer { unsetenv("FAKE_PINENTRY_CONFIRM") }
        do {
            _ = try await PinentrySource(program: fakePinentryPath).confirm(request)
            XCTFail("a refused confirmation approved")
        } catch {
            XCTAssertEqual(error as? ConsentRefusal, .declined)
        }
    }

    func testAQuestionShowsItsTextAndButtonsAndAnswersWhichWasPressed() async throws {
        let question = ConsentQuestion(
            title: "wallet-bridge: connect", description: "Connect?\nIt says: 100% fine", approve: "_Connect",
            reject: "_Reject")
        let approved = try await PinentrySource(program: fakePinentryPath).ask(question)
        XCTAssertTrue(approved)
        let sent = try commands()
        XCTAssertEqual(sent.map(\.0), ["SETTITLE", "SETDESC", "SETOK", "SETCANCEL", "CONFIRM", "BYE"])
        XCTAssertEqual(
            sent.map(\.1).prefix(4), ["wallet-bridge: connect", "Connect?\nIt says: 100% fine", "_Connect", "_Reject"])

        // The scripted pinentry answers a "_Connect" button by FAKE_PINENTRY_CONNECT.
        setenv("FAKE_PINENTRY_CONNECT", "refuse", 1)
        defer { unsetenv("FAKE_PINENTRY_CONNECT") }
        let rejected = try await PinentrySource(program: fakePinentryPath).ask(question)
        XCTAssertFalse(rejected)
        let fromFile = try await PassphraseFileSource(path: "/nonexistent").ask(question)
        XCTAssertTrue(fromFile, "the passphrase file's automation approves without asking")
    }

    func testPinentryStillAsksWhenItsGuardCannotStart() async throws {
        var source = PinentrySource(program: fakePinentryPath)
        source.guardExecutable = "/nonexistent/wallet-bridge"
        let answer = try await source.confirm(request)
        XCTAssertEqual(answer, .once)
        XCTAssertEqual(try commands().map(\.0), ["SETTITLE", "SETDESC", "SETOK", "SETCANCEL", "CONFIRM", "BYE"])
    }

    func testTheThirdButtonIsOfferedOnlyWhenAllowingIsOnAndAnswersRemember() async throws {
        setenv("FAKE_PINENTRY_CONFIRM", "allow", 1)
        defer { unsetenv("FAKE_PINENTRY_CONFIRM") }
        // Not offered: "not confirmed" is a refusal.
        do {
            _ = try await PinentrySource(program: fakePinentryPath).confirm(request)
            XCTFail("not confirmed, without the offer, approved")
        } catch {
            XCTAssertEqual(error as? ConsentRefusal, .declined)
        }
        XCTAssertFalse(try commands().contains { $0.0 == "SETNOTOK" })
        var offering = request
        offering.rememberMinutes = 5
        let answer = try await PinentrySource(program: fakePinentryPath).confirm(offering)
        XCTAssertEqual(answer, .remember)
        XCTAssertEqual(try commands().filter { $0.0 == "SETNOTOK" }.map(\.1), ["Sign and _allow 5 min"])
        XCTAssertTrue(offering.description(for: .confirmation).contains("for the next 5 minutes without asking"))
    }

    /// Issue 33, item 5: "Refuse all from this extension" is the third button when offered
    /// (instead of "Sign and allow"), and pressing it says so; Refuse is still a plain refusal.
    func testRefuseAllIsTheThirdButtonWhenOfferedAndSaysSoWhenPressed() async throws {
        setenv("FAKE_PINENTRY_CONFIRM", "allow", 1)  // presses the third button
        setenv("FAKE_PINENTRY_CONNECT", "allow", 1)
        defer { unsetenv("FAKE_PINENTRY_CONFIRM"); unsetenv("FAKE_PINENTRY_CONNECT") }
        var offering = request
        offering.offersRefuseAll = true
        offering.rememberMinutes = nil
        do {
            _ = try await PinentrySource(program: fakePinentryPath).confirm(offering)
            XCTFail("the third button approved")
        } catch {
            XCTAssertTrue(error is RefusedAllFromCaller, "\(error)")
        }
        XCTAssertEqual(try commands().filter { $0.0 == "SETNOTOK" }.map(\.1), ["Refuse _all from this extension"])

        var question = ConsentQuestion(
            title: "wallet-bridge: connect", description: "Connect?", approve: "_Connect", reject: "_Reject")
        question.offersRefuseAll = true
        do {
            _ = try await PinentrySource(program: fakePinentryPath).ask(question)
            XCTFail("the third button approved the connection")
        } catch {
            XCTAssertTrue(error is RefusedAllFromCaller, "\(error)")
        }
        XCTAssertEqual(try commands().filter { $0.0 == "SETNOTOK" }.count, 2)

        setenv("FAKE_PINENTRY_CONFIRM", "refuse", 1)
        do {
            _ = try await PinentrySource(program: fakePinentryPath).confirm(offering)
            XCTFail("Refuse approved")
        } catch {
            XCTAssertEqual(error as? ConsentRefusal, .declined, "Refuse refuses this request only")
        }
    }

    func testWrongPassphrasesAreAskedAgainWithAnErrorThenRefused() async throws {
        answers(["one", "two", "three", "four"])
        let seen = Recorder()
        do {
            _ = try await PinentrySource(program: fakePinentryPath, maxAttempts: 3).obtain(for: request) {
                passphrase -> Bool? in
                seen.add(String(decoding: passphrase.bytes, as: UTF8.self))
                return nil
            }
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error as? ConsentRefusal, .wrongPassphrase)
        }
        XCTAssertEqual(seen.values, ["one", "two", "three"])
        let sent = try commands()
        XCTAssertEqual(sent.filter { $0.0 == "GETPIN" }.count, 3)
        XCTAssertEqual(
            sent.filter { $0.0 == "SETERROR" }.map(\.1),
            ["Wrong passphrase (attempt 2 of 3).", "Wrong passphrase (attempt 3 of 3)."])
    }

    func testSecondAttemptCanSucceed() async throws {
        answers(["typo", "right"])
        let got = try await PinentrySource(program: fakePinentryPath).obtain(for: request) { passphrase -> String? in
            let text = String(decoding: passphrase.bytes, as: UTF8.self)
            return text == "right" ? "unlocked" : nil
        }
        XCTAssertEqual(got, "unlocked")
    }

    func testCancelIsDeclined() async throws {
        setenv("FAKE_PINENTRY_MODE", "cancel", 1)
        await assertRefusal(.declined)
    }

    func testPinentryThatCannotShowADialogIsUnavailable() async throws {
        setenv("FAKE_PINENTRY_MODE", "no-display", 1)
        // Debian's default pinentry (curses) with no terminal: said in words a person can act on.
        await assertRefusal(
            .unavailable(
                "\(fakePinentryPath) could not ask: it needs a terminal or a display, and has neither (pinentry could not ask: ERR 83918950 Inappropriate ioctl for device <Pinentry>)"
            ))
        setenv("FAKE_PINENTRY_MODE", "exit", 1)
        await assertRefusal(nil)
    }

    func testMissingProgramIsUnavailable() async throws {
        await assertRefusal(
            .unavailable("cannot start the pinentry program \"/nonexistent/pinentry\": No such file or directory"),
            program: "/nonexistent/pinentry")
    }

    private func assertRefusal(_ expected: ConsentRefusal?, program: String? = nil, line: UInt = #line) async {
        do {
            _ = try await PinentrySource(program: program ?? fakePinentryPath).obtain(for: request) { _ in true }
            XCTFail("no refusal", line: line)
        } catch let refusal as ConsentRefusal {
            if let expected {
                XCTAssertEqual(refusal, expected, line: line)
            } else if case .unavailable = refusal {
            } else {
                XCTFail("\(refusal)", line: line)
            }
        } catch {
            XCTFail("\(error)", line: line)
        }
    }

    func testCancellingTheTaskTerminatesPinentry() async throws {
        setenv("FAKE_PINENTRY_MODE", "hang", 1)
        let source = PinentrySource(program: fakePinentryPath)
        let request = self.request
        let task = Task { try await source.obtain(for: request) { _ in true } }
        let pid = try await waitForPinentryToAsk()
        XCTAssertEqual(kill(pid, 0), 0, "pinentry is running")
        let started = ContinuousClock.now
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("not cancelled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3))
        XCTAssertEqual(kill(pid, 0), -1, "pinentry is gone (and reaped)")
        XCTAssertEqual(try log().last?["event"] as? String, "terminated")
    }

    private func waitForPinentryToAsk() async throws -> pid_t {
        var pid: pid_t?
        // An async condition, so that the wait suspends rather than holding a thread of the pool.
        try await waitUntil("pinentry asks for the passphrase", within: .seconds(5)) { () async in
            // Not log(): its XCTUnwrap would record a failure while the file does not exist yet.
            if (try? AtomicFile.read(logPath, maxBytes: 1 << 20)) != nil, let records = try? log(),
                records.contains(where: { $0["command"] as? String == "GETPIN" }),
                let first = records.first?["pid"] as? Int
            {
                pid = pid_t(first)
            }
            return pid != nil
        }
        return try XCTUnwrap(pid)
    }

    func testPassphraseFileSourceTriesOnceAndStripsOneNewline() async throws {
        let path = "\(folder)/passphrase"
        writeBytes(Array("secret\n".utf8), path)
        let got = try await PassphraseFileSource(path: path).obtain(for: request) {
            String(decoding: $0.bytes, as: UTF8.self)
        }
        XCTAssertEqual(got, "secret")
        let counter = Recorder()
        do {
            _ = try await PassphraseFileSource(path: path).obtain(for: request) { _ -> Bool? in
                counter.add("tried")
                return nil
            }
            XCTFail("accepted")
        } catch {
            XCTAssertEqual(error as? ConsentRefusal, .wrongPassphrase)
        }
        XCTAssertEqual(counter.values.count, 1)
        do {
            _ = try await PassphraseFileSource(path: "\(folder)/missing").obtain(for: request) { _ in true }
            XCTFail("read a missing file")
        } catch {
            guard case .unavailable? = error as? ConsentRefusal else { return XCTFail("\(error)") }
        }
    }

    func testConsentTextForEachKindOfCaller() {
        var request = self.request
        request.caller = .firefoxAddon(id: "wallet@example.org", manifestPath: "/m.json")
        request.payloads = [.text("hello")]
        XCTAssertTrue(
            request.description(for: .passphrase).hasPrefix(
                "The Firefox add-on with ID wallet@example.org\nasks to sign 1 payload with"))
        request.callerName = "My Wallet"
        XCTAssertTrue(
            request.description(for: .confirmation).hasPrefix(
                "The Firefox add-on with ID wallet@example.org,\ninstalled as \"My Wallet\",\nasks"))
        request.caller = .unidentified
        XCTAssertTrue(request.description(for: .passphrase).hasPrefix("A program that was not started by a browser"))
        request.caller = .firefoxAddon(id: "evil\nLine\u{202E}", manifestPath: "/m.json")
        request.callerName = nil
        XCTAssertTrue(
            request.description(for: .passphrase).hasPrefix("The Firefox add-on with ID evil\\nLine\\u{202E}\nasks"),
            request.description(for: .passphrase))
    }
}
