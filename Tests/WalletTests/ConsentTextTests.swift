import Foundation
import WalletBridge
@testable import WalletBridgeWallet
import XCTest

/// What the consent dialog says: each payload as text or as its size and hash, who asks, with
/// which key; and that no caller-chosen text can reshape the dialog or overflow one Assuan line.
final class ConsentTextTests: XCTestCase {
    private let extensionID = "abcdefghijklmnopabcdefghijklmnop"
    private var chrome: Caller { .chromeExtension(origin: "chrome-extension://\(extensionID)/") }

    private func request(
        _ payloads: [PayloadSummary], caller: Caller? = nil, callerName: String? = nil, label: String = "main"
    ) -> ConsentRequest {
        ConsentRequest(caller: caller ?? chrome, callerName: callerName, keyLabel: label, shortAddress: "7xKX…3fGh", payloads: payloads)
    }

    private func text(_ string: String) -> PayloadSummary { PayloadSummary(bytes: Array(string.utf8)) }

    /// SHA-256 in hex, computed by coreutils, not by libsodium.
    private func sha256sum(_ bytes: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let line = String(decoding: data, as: UTF8.self)
        return String(line.prefix { $0 != " " })
    }

    // MARK: PayloadSummary

    func testPrintableUTF8IsText() {
        XCTAssertEqual(text("hello"), .text("hello"))
        XCTAssertEqual(text("tab\tseparated"), .text("tab\tseparated"))
        XCTAssertEqual(text("Grüße, 世界 🙂"), .text("Grüße, 世界 🙂"))
        XCTAssertEqual(text("windows\r\nline"), .text("windows\r\nline"))
    }

    func testASignInWithSolanaMessageIsText() {
        let message = """
            example.com wants you to sign in with your Solana account:
            7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU

            Sign in to Example.

            URI: https://example.com/login
            Version: 1
            Chain ID: mainnet
            Nonce: 32891756
            Issued At: 2025-01-31T12:00:00Z
            """
        XCTAssertTrue(message.contains("\n"))
        XCTAssertEqual(text(message), .text(message))
    }

    func testBytesWithControlCharactersAreBinary() throws {
        for bytes: [UInt8] in [[0x48, 0x00, 0x49], [0x41, 0x1B, 0x5B, 0x32, 0x4A], [0x41, 0x7F], [0x07], Array("a\u{85}b".utf8)] {
            guard case .binary(let count, let prefix) = PayloadSummary(bytes: bytes) else {
                return XCTFail("\(bytes) was shown as text")
            }
            XCTAssertEqual(count, bytes.count)
            XCTAssertEqual(prefix, String(try sha256sum(bytes).prefix(16)))
        }
    }

    func testFormatAndPrivateUseCharactersAreBinary() {
        // A right-to-left override or an invisible character could make text read as something else.
        for string in ["pay \u{202E}evil", "zero\u{200B}width", "private \u{E000}", "bom \u{FEFF}"] {
            guard case .binary = text(string) else { return XCTFail("\(string.debugDescription) was shown as text") }
        }
    }

    func testInvalidUTF8IsBinary() throws {
        for bytes: [UInt8] in [[0xFF, 0xFE], [0x61, 0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
            guard case .binary(let count, let prefix) = PayloadSummary(bytes: bytes) else {
                return XCTFail("\(bytes) was shown as text")
            }
            XCTAssertEqual(count, bytes.count)
            XCTAssertEqual(prefix, String(try sha256sum(bytes).prefix(16)))
        }
    }

    func testAnEmptyPayloadIsBinaryOfZeroBytes() {
        // The SHA-256 of nothing: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.
        XCTAssertEqual(PayloadSummary(bytes: []), .binary(byteCount: 0, sha256Prefix: "e3b0c44298fc1c14"))
    }

    func testTheHashPrefixIsTheFirst16HexDigitsOfSHA256() throws {
        let bytes: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let expected = try sha256sum(bytes)
        XCTAssertEqual(expected.count, 64)
        XCTAssertEqual(PayloadSummary(bytes: bytes), .binary(byteCount: 300, sha256Prefix: String(expected.prefix(16))))
        XCTAssertEqual(PayloadSummary.sha256Hex(bytes), expected)
    }

    func testSHA256HexOfABC() {
        XCTAssertEqual(PayloadSummary.sha256Hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(PayloadSummary.sha256Hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    // MARK: The description

    func testTheWholeConfirmationDescription() {
        let description = request([text("hello")], callerName: "Phantom").description(for: .confirmation)
        XCTAssertEqual(description, """
            The extension "Phantom" (ID abcdefghijklmnopabcdefghijklmnop)
            asks to sign 1 payload with your key "main" (7xKX…3fGh):
            1. Text: "hello"

            Sign, or Refuse.
            """)
    }

    func testThePassphraseDescriptionAsksForThePassphrase() {
        let passphrase = request([text("hello")]).description(for: .passphrase)
        let confirmation = request([text("hello")]).description(for: .confirmation)
        XCTAssertTrue(passphrase.contains("Enter the keystore passphrase to sign"), passphrase)
        XCTAssertTrue(passphrase.contains("Cancel to refuse"), passphrase)
        XCTAssertFalse(confirmation.contains("passphrase"), confirmation)
        XCTAssertTrue(confirmation.hasSuffix("Sign, or Refuse."), confirmation)
        // The rest is the same.
        XCTAssertEqual(passphrase.split(separator: "\n").dropLast(), confirmation.split(separator: "\n").dropLast())
    }

    func testNamesTheCallersIDAndItsNameWhenKnown() {
        for approval in [ConsentRequest.Approval.passphrase, .confirmation] {
            let unnamed = request([text("x")]).description(for: approval)
            XCTAssertTrue(unnamed.hasPrefix("The extension (ID \(extensionID))\n"), unnamed)
            let named = request([text("x")], callerName: "Phantom").description(for: approval)
            XCTAssertTrue(named.hasPrefix("The extension \"Phantom\" (ID \(extensionID))\n"), named)

            let firefox = Caller.firefoxAddon(id: "wallet@example.org", manifestPath: "/usr/lib/mozilla/native-messaging-hosts/x.json")
            let addon = request([text("x")], caller: firefox, callerName: "My Firefox Wallet").description(for: approval)
            XCTAssertTrue(addon.hasPrefix("The Firefox add-on \"My Firefox Wallet\" (ID wallet@example.org)\n"), addon)
            let unnamedAddon = request([text("x")], caller: firefox).description(for: approval)
            XCTAssertTrue(unnamedAddon.hasPrefix("The Firefox add-on (ID wallet@example.org)\n"), unnamedAddon)

            let nobody = request([text("x")], caller: .unidentified).description(for: approval)
            XCTAssertTrue(nobody.hasPrefix("A program that was not started by a browser\n"), nobody)
        }
    }

    func testNamesTheKeyAndTheCount() {
        let one = request([text("a")], label: "savings").description(for: .confirmation)
        XCTAssertTrue(one.contains("asks to sign 1 payload with your key \"savings\" (7xKX…3fGh):"), one)
        let three = request([text("a"), text("b"), text("c")], label: "savings").description(for: .passphrase)
        XCTAssertTrue(three.contains("asks to sign 3 payloads with your key \"savings\" (7xKX…3fGh):"), three)
        XCTAssertFalse(three.contains("more."), "exactly three are all shown: \(three)")
    }

    func testPreviewsTextAndBinaryPayloads() throws {
        let binary: [UInt8] = [0x00, 0x01, 0x02, 0xFF]
        let prefix = String(try sha256sum(binary).prefix(16))
        let description = request([text("Sign in to Example"), PayloadSummary(bytes: binary)]).description(for: .confirmation)
        XCTAssertTrue(description.contains("\n1. Text: \"Sign in to Example\"\n"), description)
        XCTAssertTrue(description.contains("\n2. 4 bytes of binary data, SHA-256 \(prefix)…\n"), description)
    }

    func testShowsThreePayloadsAndCountsTheRest() {
        let payloads = (1...5).map { text("payload \($0)") }
        let description = request(payloads).description(for: .confirmation)
        XCTAssertTrue(description.contains("asks to sign 5 payloads"), description)
        for index in 1...3 { XCTAssertTrue(description.contains("\(index). Text: \"payload \(index)\""), description) }
        XCTAssertFalse(description.contains("payload 4"), description)
        XCTAssertFalse(description.contains("4. "), description)
        XCTAssertTrue(description.contains("\n…and 2 more.\n"), description)

        let many = request((1...1000).map { text("p\($0)") }).description(for: .confirmation)
        XCTAssertTrue(many.contains("asks to sign 1000 payloads"), many)
        XCTAssertTrue(many.contains("\n…and 997 more.\n"), many)
    }

    func testCutsALongTextWithAnEllipsis() {
        let long = String(repeating: "a", count: 500)
        let description = request([text(long)]).description(for: .confirmation)
        // 150 bytes as pinentry receives them, the ellipsis's 3 included.
        XCTAssertTrue(description.contains("1. Text: \"\(String(repeating: "a", count: 147))…\"\n"), description)
        XCTAssertFalse(description.contains(String(repeating: "a", count: 148)), description)

        // Exactly at the limit: not cut.
        let exact = String(repeating: "b", count: 150)
        let whole = request([text(exact)]).description(for: .confirmation)
        XCTAssertTrue(whole.contains("1. Text: \"\(exact)\"\n"), whole)
    }

    func testLineBreaksInsideATextPayloadAreShownAsMarks() {
        let description = request([text("line one\nline two\r\n\nline three")]).description(for: .confirmation)
        XCTAssertTrue(description.contains("1. Text: \"line one ⏎ line two ⏎ line three\"\n"), description)
        // The payload does not add lines of its own to the dialog.
        let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 5, description)
        XCTAssertFalse(description.contains("\r"), description)
    }

    func testControlCharactersInNamesBecomeQuestionMarks() {
        let description = request(
            [text("x")], callerName: "Evil\nSign, or Refuse.\u{07}\u{202E}", label: "la\u{1B}[2Jbel\r"
        ).description(for: .confirmation)
        XCTAssertTrue(description.contains("\"Evil?Sign, or Refuse.??\""), description)
        XCTAssertTrue(description.contains("with your key \"la?[2Jbel?\""), description)
        XCTAssertFalse(description.contains("\u{1B}"), description)
        XCTAssertFalse(description.contains("\u{202E}"), description)
        XCTAssertFalse(description.contains("\r"), description)
        XCTAssertEqual(description.split(separator: "\n", omittingEmptySubsequences: false).count, 5, description)
    }

    func testLongNamesAreCut() {
        let description = request([text("x")], callerName: String(repeating: "N", count: 300), label: String(repeating: "L", count: 300))
            .description(for: .confirmation)
        // 80 and 64 bytes, the ellipsis's 3 included.
        XCTAssertTrue(description.contains("\"\(String(repeating: "N", count: 77))…\""), description)
        XCTAssertTrue(description.contains("\"\(String(repeating: "L", count: 61))…\""), description)
        XCTAssertFalse(description.contains(String(repeating: "N", count: 78)), description)
    }

    // MARK: One Assuan line

    /// `SETDESC <description>` must be one Assuan line (1000 bytes with the line feed): the
    /// description must never depend on the escape's cut.
    private func assertFitsOneAssuanLine(_ description: String, file: StaticString = #filePath, line: UInt = #line) {
        let whole = Assuan.escape(description, maxBytes: 100_000)
        let fitted = Assuan.escape(description, maxBytes: 990)
        XCTAssertEqual(fitted, whole, "the description is \(whole.utf8.count) bytes escaped, more than 990", file: file, line: line)
    }

    func testALongRequestFitsOneAssuanLine() {
        let firefox = Caller.firefoxAddon(id: String(repeating: "i", count: 300) + "@example.org", manifestPath: "/m.json")
        for caller in [chrome, firefox] {
            for count in [3, 4, 1000] {
                let payloads = (0..<count).map { text(String(repeating: "Sign in to a very long example. ", count: 40) + "\($0)") }
                for approval in [ConsentRequest.Approval.passphrase, .confirmation] {
                    let description = request(
                        payloads, caller: caller, callerName: String(repeating: "Wallet Name ", count: 30),
                        label: String(repeating: "label-", count: 40)
                    ).description(for: approval)
                    assertFitsOneAssuanLine(description)
                }
            }
        }
    }

    func testLongBinaryPayloadsFitOneAssuanLine() {
        let payloads = (0..<5).map { index in PayloadSummary(bytes: [UInt8](repeating: UInt8(index), count: 100_000)) }
        assertFitsOneAssuanLine(request(payloads, callerName: String(repeating: "W", count: 300)).description(for: .passphrase))
    }

    /// Text that takes the most bytes per character: four-byte UTF-8 scalars, and `%`, which
    /// Assuan writes as three bytes. The limits are counted in characters, so these are the
    /// requests that could overflow the line.
    func testTheWidestTextStillFitsOneAssuanLine() {
        let widest = [String(repeating: "🙂", count: 1000), String(repeating: "%", count: 1000), String(repeating: "世", count: 1000)]
        for filler in widest {
            let payloads = (0..<3).map { _ in text(filler) }
            let description = request(payloads, callerName: filler, label: filler).description(for: .passphrase)
            assertFitsOneAssuanLine(description)
        }
    }
}
