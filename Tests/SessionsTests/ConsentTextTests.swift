import Foundation
import WalletBridge
@testable import WalletBridgeWallet
import XCTest
@testable import WalletBridgeSystem
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions

/// What the consent dialog says: each payload as text or as its size and hash, who asks, with
/// which key; and that no caller-chosen text can reshape the dialog or overflow one Assuan line.
final class ConsentTextTests: XCTestCase {
    private let extensionID = "abcdefghijklmnopabcdefghijklmnop"
    private var chrome: Caller { .chromeExtension(origin: "chrome-extension://\(extensionID)/") }

    private func request(
        _ payloads: [PayloadSummary], caller: Caller? = nil, callerName: String? = nil, label: String = "main"
    ) -> ConsentRequest {
        ConsentRequest(
            caller: caller ?? chrome, callerName: callerName, keyLabel: label, shortAddress: "7xKX…3fGh",
            payloads: payloads)
    }

    private func text(_ string: String) -> PayloadSummary { PayloadSummary(bytes: Array(string.utf8)) }

    /// Whether any scalar of `scalars` is in `text`, compared as scalars (not characters).
    private func hasAnyScalar(of scalars: String, in text: String) -> Bool {
        text.unicodeScalars.contains { scalars.unicodeScalars.contains($0) }
    }

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
        for bytes: [UInt8] in [
            [0x48, 0x00, 0x49], [0x41, 0x1B, 0x5B, 0x32, 0x4A], [0x41, 0x7F], [0x07], Array("a\u{85}b".utf8),
        ] {
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
        XCTAssertEqual(
            PayloadSummary.sha256Hex(Array("abc".utf8)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(PayloadSummary.sha256Hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    // MARK: The description

    func testTheWholeConfirmationDescription() {
        let description = request([text("hello")], callerName: "Phantom").description(for: .confirmation)
        XCTAssertEqual(
            description,
            """
            The extension with ID abcdefghijklmnopabcdefghijklmnop,
            installed as "Phantom",
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
            XCTAssertTrue(unnamed.hasPrefix("The extension with ID \(extensionID)\nasks to sign"), unnamed)
            let named = request([text("x")], callerName: "Phantom").description(for: approval)
            XCTAssertTrue(
                named.hasPrefix("The extension with ID \(extensionID),\ninstalled as \"Phantom\",\nasks to sign"), named
            )

            let firefox = Caller.firefoxAddon(
                id: "wallet@example.org", manifestPath: "/usr/lib/mozilla/native-messaging-hosts/x.json")
            let addon = request([text("x")], caller: firefox, callerName: "My Firefox Wallet").description(
                for: approval)
            XCTAssertTrue(
                addon.hasPrefix(
                    "The Firefox add-on with ID wallet@example.org,\ninstalled as \"My Firefox Wallet\",\nasks to sign"),
                addon)
            let unnamedAddon = request([text("x")], caller: firefox).description(for: approval)
            XCTAssertTrue(
                unnamedAddon.hasPrefix("The Firefox add-on with ID wallet@example.org\nasks to sign"), unnamedAddon)

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
        let description = request([text("Sign in to Example"), PayloadSummary(bytes: binary)]).description(
            for: .confirmation)
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
        XCTAssertTrue(
            description.contains("1. Text: \"\(String(repeating: "a", count: 147))…\" (147 of 500 bytes shown)\n"),
            description)
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

    func testControlCharactersInNamesAreShownAsTheirCodes() {
        let description = request(
            [text("x")], callerName: "Evil\nSign, or Refuse.\u{07}\u{202E}", label: "la\u{1B}[2Jbel\r"
        ).description(for: .confirmation)
        XCTAssertTrue(description.contains("installed as \"Evil\\nSign, or Refuse.\\u{7}\\u{202E}\","), description)
        XCTAssertTrue(description.contains("with your key \"la\\u{1B}[2Jbel\\r\""), description)
        XCTAssertFalse(hasAnyScalar(of: "\u{1B}\u{202E}\r\u{07}", in: description), description)
        XCTAssertEqual(description.split(separator: "\n", omittingEmptySubsequences: false).count, 6, description)
    }

    func testLongNamesAreCut() {
        let description = request(
            [text("x")], callerName: String(repeating: "N", count: 300), label: String(repeating: "L", count: 300)
        )
        .description(for: .confirmation)
        // 80 and 64 bytes, the ellipsis's 3 included.
        XCTAssertTrue(description.contains("\"\(String(repeating: "N", count: 77))…\""), description)
        XCTAssertTrue(description.contains("\"\(String(repeating: "L", count: 61))…\""), description)
        XCTAssertFalse(description.contains(String(repeating: "N", count: 78)), description)
    }

    // MARK: Text that others choose

    /// Every scalar that breaks a line in a GTK or Qt label or on a terminal (Unicode's
    /// mandatory breaks: LF, CR, VT, FF, NEL, the line and paragraph separators), with what a
    /// dialog shows in its place.
    static let lineBreaks: [(text: String, shown: String)] = [
        ("\n", "\\n"), ("\r", "\\r"), ("\r\n", "\\r\\n"), ("\u{0B}", "\\u{B}"), ("\u{0C}", "\\u{C}"),
        ("\u{85}", "\\u{85}"), ("\u{2028}", "\\u{2028}"), ("\u{2029}", "\\u{2029}"),
    ]

    /// Control and format characters (Cc, Cf) and invisible fillers: bidi overrides,
    /// embeddings, isolates and marks, zero-width characters, a soft hyphen, a tag character,
    /// a terminal's escape and bell, a C1 control, a Hangul filler.
    static let invisibles: [(text: String, shown: String)] = [
        ("\u{202E}", "\\u{202E}"), ("\u{202A}", "\\u{202A}"), ("\u{2066}", "\\u{2066}"), ("\u{2069}", "\\u{2069}"),
        ("\u{200F}", "\\u{200F}"), ("\u{061C}", "\\u{61C}"), ("\u{200B}", "\\u{200B}"), ("\u{2060}", "\\u{2060}"),
        ("\u{FEFF}", "\\u{FEFF}"), ("\u{AD}", "\\u{AD}"), ("\u{E0041}", "\\u{E0041}"), ("\u{1B}", "\\u{1B}"),
        ("\u{07}", "\\u{7}"), ("\u{9B}", "\\u{9B}"), ("\u{7F}", "\\u{7F}"), ("\u{00}", "\\u{0}"),
        ("\u{3164}", "\\u{3164}"),
    ]

    /// Marks that read as the dialog's own double quote, and the backslash that marks them.
    static let quotes: [(text: String, shown: String)] = [
        ("\"", "\\\""), ("\u{201C}", "\\\u{201C}"), ("\u{201D}", "\\\u{201D}"), ("\u{201E}", "\\\u{201E}"),
        ("\u{201F}", "\\\u{201F}"), ("\u{AB}", "\\\u{AB}"), ("\u{BB}", "\\\u{BB}"), ("\u{FF02}", "\\\u{FF02}"),
        ("\u{2033}", "\\\u{2033}"), ("\u{301D}", "\\\u{301D}"), ("\u{301E}", "\\\u{301E}"), ("\u{2E42}", "\\\u{2E42}"),
        ("\u{02BA}", "\\\u{02BA}"), ("\\", "\\\\"),
        // Two single quotes side by side read as a double one; one alone (an apostrophe) does not.
        ("''", "\\'\\'"), ("\u{2019}\u{2019}", "\\\u{2019}\\\u{2019}"), ("'\"", "\\'\\\""),
    ]

    /// The review's case: an installed name that puts a made-up ID where a person reads the ID.
    func testAnInstalledNameCannotPutAnotherIDBeforeTheRealOne() {
        let forged = "Phantom\" (ID bfnaelmomeimhlpmgjnjophhpkkoljpa)"
        XCTAssertEqual(
            request([text("x")], callerName: forged).description(for: .confirmation),
            """
            The extension with ID abcdefghijklmnopabcdefghijklmnop,
            installed as "Phantom\\" (ID bfnaelmomeimhlpmgjnjophhpkkoljpa)",
            asks to sign 1 payload with your key "main" (7xKX…3fGh):
            1. Text: "x"

            Sign, or Refuse.
            """)
    }

    func testNoLineBreakInAnInstalledNameStartsALine() {
        for approval in [ConsentRequest.Approval.passphrase, .confirmation] {
            for (scalar, shown) in Self.lineBreaks {
                let description = request(
                    [text("x")], callerName: "Phantom\(scalar)The extension with ID bfnaelmomeimhlpmgjnjophhpkkoljpa"
                )
                .description(for: approval)
                let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
                XCTAssertEqual(lines.count, 6, "\(scalar.debugDescription): \(description)")
                XCTAssertEqual(lines[0], "The extension with ID \(extensionID),")
                XCTAssertEqual(
                    lines[1], "installed as \"Phantom\(shown)The extension with ID bfnaelmomeimhlpmgjnjophhpkkoljpa\",")
                XCTAssertFalse(
                    hasAnyScalar(of: "\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}", in: description),
                    description.debugDescription)
            }
        }
    }

    func testInvisibleCharactersInAnInstalledNameAreShownAsTheirCodes() {
        for (scalar, shown) in Self.invisibles {
            let description = request([text("x")], callerName: "Pha\(scalar)ntom").description(for: .confirmation)
            XCTAssertEqual(
                description.split(separator: "\n")[1], "installed as \"Pha\(shown)ntom\",", scalar.debugDescription)
            XCTAssertFalse(hasAnyScalar(of: scalar, in: description), scalar.debugDescription)
        }
    }

    func testQuotesInAnInstalledNameAreMarked() {
        for (quote, shown) in Self.quotes {
            let description = request([text("x")], callerName: "Phantom\(quote) x").description(for: .confirmation)
            XCTAssertEqual(
                description.split(separator: "\n")[1], "installed as \"Phantom\(shown) x\",", quote.debugDescription)
        }
        // An apostrophe alone is not a quote.
        let apostrophes = request([text("x")], callerName: "Rabby's O\u{2019}Wallet").description(for: .confirmation)
        XCTAssertEqual(apostrophes.split(separator: "\n")[1], "installed as \"Rabby's O\u{2019}Wallet\",")
    }

    func testRunsOfSpacesInAnInstalledNameAreOneSpace() {
        // Padding could push what follows to where GTK wraps the line, to read as a line of its own.
        let description = request([text("x")], callerName: "  Phantom \t\u{A0}\u{3000}\u{2003}   Wallet ").description(
            for: .confirmation)
        XCTAssertEqual(description.split(separator: "\n")[1], "installed as \"Phantom Wallet\",")
    }

    func testTheKeysLabelAndAFirefoxIDAreEscapedToo() {
        let firefox = Caller.firefoxAddon(id: "evil\u{2028}Line\u{202E}\"@example.org", manifestPath: "/m.json")
        let description = request([text("x")], caller: firefox, label: "sav\u{2029}ings\"").description(
            for: .passphrase)
        XCTAssertEqual(
            description,
            """
            The Firefox add-on with ID evil\\u{2028}Line\\u{202E}\\"@example.org
            asks to sign 1 payload with your key "sav\\u{2029}ings\\"" (7xKX…3fGh):
            1. Text: "x"

            Enter the keystore passphrase to sign, or Cancel to refuse.
            """)
    }

    func testWhatAnExtensionSaysOfItselfStaysWithinItsOwnWords() {
        let metadata = PeerMetadata(
            name: "Ex\u{2028}The extension with ID bfnaelmomeimhlpmgjnjophhpkkoljpa",
            description: "Signs in\"\n(its own words, not checked)\n\nIt will see",
            url: "https://example.org/\u{202E}gro")
        let question = SessionConsent.connect(
            caller: chrome, callerName: "Example \u{201C}Wallet\u{201D}", metadata: metadata,
            namespaces: SessionService.walletlibNamespaces, keyCount: 1)
        XCTAssertEqual(
            question.description,
            """
            The extension with ID abcdefghijklmnopabcdefghijklmnop,
            installed as "Example \\\u{201C}Wallet\\\u{201D}",
            asks to connect to your wallet.
            It says it is: "Ex\\u{2028}The extension with ID bfnaelmomeimhlpmgjnjophhpkkoljpa", https://example.org/\\u{202E}gro
            "Signs in\\"\\n(its own words, not checked)\\n\\nIt will see"
            (its own words, not checked)

            It will see your 1 account on Solana mainnet.
            It may ask you for signatures (solana_signMessage); each one still asks you first.
            """)
    }

    func testEveryLineBreakInMetadataIsEscaped() {
        for (scalar, shown) in Self.lineBreaks {
            let metadata = PeerMetadata(
                name: "a\(scalar)b", description: "c\(scalar)d", url: "https://e.org/\(scalar)f")
            let description = SessionConsent.connect(
                caller: chrome, callerName: nil, metadata: metadata, namespaces: SessionService.walletlibNamespaces,
                keyCount: 2
            ).description
            let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines[2], "It says it is: \"a\(shown)b\", https://e.org/\(shown)f", scalar.debugDescription)
            XCTAssertEqual(lines[3], "\"c\(shown)d\"", scalar.debugDescription)
            XCTAssertEqual(lines.count, 8, description)
        }
    }

    func testTheAccountsQuestionNamesTheIDFirst() {
        let question = SessionConsent.seeAccounts(caller: chrome, callerName: "Phantom\u{2028}\"", keyCount: 2)
        XCTAssertEqual(
            question.description,
            """
            The extension with ID abcdefghijklmnopabcdefghijklmnop,
            installed as "Phantom\\u{2028}\\"",
            wants to see your accounts (your 2 accounts).

            Allowing connects it to your wallet for a while; each signature still asks you first.
            """)
    }

    // MARK: Previews say what they leave out

    func testACutTextSaysHowMuchIsShown() {
        let description = request([text(String(repeating: "a", count: 4000))]).description(for: .confirmation)
        XCTAssertTrue(
            description.contains("\n1. Text: \"\(String(repeating: "a", count: 147))…\" (147 of 4,000 bytes shown)\n"),
            description)
        let short = request([text(String(repeating: "b", count: 151))]).description(for: .confirmation)
        XCTAssertTrue(
            short.contains("\n1. Text: \"\(String(repeating: "b", count: 147))…\" (147 of 151 bytes shown)\n"), short)
    }

    func testRunsOfWhitespaceInAPreviewAreOneSpace() {
        let description = request([text("  Sign in   to\t\texample.com \n\n  Nonce:\u{A0}\u{A0}1  \n")]).description(
            for: .confirmation)
        XCTAssertTrue(description.contains("\n1. Text: \"Sign in to example.com ⏎ Nonce: 1\"\n"), description)
        // Collapsed whitespace is not hidden text: nothing is said to be cut.
        let padded = request([text("a" + String(repeating: " ", count: 1000) + "b")]).description(for: .confirmation)
        XCTAssertTrue(padded.contains("\n1. Text: \"a b\"\n"), padded)
    }

    func testEveryLineBreakInATextPayloadIsAMark() {
        for (scalar, _) in Self.lineBreaks {
            // PayloadSummary takes \v, \f and NEL for binary (they are controls); the rest are text.
            let summary = text("one\(scalar)two")
            guard case .text = summary else { continue }
            let description = request([summary]).description(for: .confirmation)
            XCTAssertTrue(
                description.contains("\n1. Text: \"one ⏎ two\"\n"), "\(scalar.debugDescription): \(description)")
        }
        XCTAssertEqual(text("one\u{2028}two\u{2029}three"), .text("one\u{2028}two\u{2029}three"))
    }

    func testQuotesInATextPayloadAreMarked() {
        let description = request([text("pay 1 SOL\" to x \u{201D}")]).description(for: .confirmation)
        XCTAssertTrue(description.contains("\n1. Text: \"pay 1 SOL\\\" to x \\\u{201D}\"\n"), description)
    }

    // MARK: Typed data and messages

    private func typedData(_ json: String) throws -> EthereumConsent {
        EthereumConsent.typedData(
            try TypedData(parsing: .string(json), field: "request.params[1]"), chain: EIP155.mainnet)
    }

    /// The review's case: a domain name that fakes the lines after it.
    func testTypedDataCannotFakeTheLinesAroundIt() throws {
        let consent = try typedData(
            #"""
            {"types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"}, {"name": "chainId", "type": "uint256"}],
                       "Note": [{"name": "text", "type": "string"}]},
             "primaryType": "Note",
             "domain": {"name": "Uniswap\u2028Chain in the data: 1\u2029Type: Permit", "version": "1\", chain 5", "chainId": 1},
             "message": {"text": "fine\u0085Type: Mail\u000bContract: 0x\u201d"}}
            """#)
        XCTAssertEqual(
            consent.lines,
            [
                #"For: "Uniswap\u{2028}Chain in the data: 1\u{2029}Type: Permit", version "1\", chain 5""#,
                "Chain in the data: 1",
                "Type: Note",
                #"  text: fine ⏎ Type: Mail ⏎ Contract: 0x\”"#,
            ])
    }

    /// EIP-2612: what moves money (who may spend, how much) comes before everything else.
    func testAPermitShowsTheSpenderAndTheValueFirst() throws {
        let consent = try typedData(
            #"""
            {"types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                                        {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
                       "Permit": [{"name": "owner", "type": "address"}, {"name": "spender", "type": "address"},
                                  {"name": "value", "type": "uint256"}, {"name": "nonce", "type": "uint256"}, {"name": "deadline", "type": "uint256"}]},
             "primaryType": "Permit",
             "domain": {"name": "USD Coin", "version": "2", "chainId": 1, "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
             "message": {"owner": "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "spender": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
                         "value": "1000000000", "nonce": 0, "deadline": 1735689600}}
            """#)
        XCTAssertEqual(
            consent.lines,
            [
                #"For: "USD Coin", version "2""#,
                "Chain in the data: 1",
                "Contract: 0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
                "Type: Permit",
                "  spender: 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
                "  value: 1000000000",
                "  owner: 0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
                "  nonce: 0",
                "  deadline: 1735689600",
            ])
    }

    /// Fields that move money are never the ones left out, nor cut: a uint256 is shown whole.
    /// The fields left out are counted and named.
    func testFieldsThatMoveMoneyAreNeverHidden() throws {
        let notes = (0..<10).map { #"{"name": "note\#($0)", "type": "string"}"# }.joined(separator: ", ")
        let values = (0..<10).map { #""note\#($0)": "\#(String(repeating: "x", count: 50))""# }.joined(separator: ", ")
        let maximum = "115792089237316195423570985008687907853269984665640564039457584007913129639935"
        let consent = try typedData(
            #"""
            {"types": {"EIP712Domain": [{"name": "name", "type": "string"}],
                       "Order": [\#(notes), {"name": "spender", "type": "address"}, {"name": "value", "type": "uint256"}]},
             "primaryType": "Order", "domain": {"name": "Shop"},
             "message": {\#(values), "spender": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826", "value": "\#(maximum)"}}
            """#)
        let fifty = String(repeating: "x", count: 50)
        XCTAssertEqual(
            consent.lines,
            [
                #"For: "Shop""#,
                "Type: Order",
                "  spender: 0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
                "  value: \(maximum)",
                "  note0: \(fifty)",
                "  note1: \(fifty)",
                "  …8 of 12 fields not shown: note2, note3, note4, note5, note6, note7, note8, note9",
            ])
    }

    func testACutFieldSaysHowMuchIsShown() throws {
        let consent = try typedData(
            #"""
            {"types": {"EIP712Domain": [{"name": "name", "type": "string"}], "Memo": [{"name": "memo", "type": "string"}]},
             "primaryType": "Memo", "domain": {"name": "Notes"},
             "message": {"memo": "\#(String(repeating: "m", count: 300))   \#(String(repeating: " ", count: 2000))"}}
            """#)
        XCTAssertEqual(
            consent.lines,
            [
                #"For: "Notes""#, "Type: Memo",
                "  memo: \(String(repeating: "m", count: 53))… (53 of 2,303 bytes shown)",
            ])
    }

    func testAPersonalSignMessageIsPreviewedLikeAPayload() {
        let text = EthereumConsent.message(
            Array("  Sign in to \"example.org\"\u{2028}\u{2028}Nonce:   1 ".utf8), chain: EIP155.mainnet)
        XCTAssertEqual(text.lines, [#"Text: "Sign in to \"example.org\" ⏎ Nonce: 1""#])
        let long = EthereumConsent.message(Array(String(repeating: "z", count: 1000).utf8), chain: EIP155.mainnet)
        XCTAssertEqual(long.lines, ["Text: \"\(String(repeating: "z", count: 147))…\" (147 of 1,000 bytes shown)"])
        let binary = EthereumConsent.message([UInt8](repeating: 0xAB, count: 4000), chain: EIP155.mainnet)
        XCTAssertEqual(
            binary.lines, ["4,000 bytes, not text: 0x\(String(repeating: "ab", count: 72))… (72 of 4,000 bytes shown)"])
    }

    // MARK: One Assuan line

    /// `SETDESC <description>` must be one Assuan line (1000 bytes with the line feed): the
    /// description must never depend on the escape's cut.
    private func assertFitsOneAssuanLine(_ description: String, file: StaticString = #filePath, line: UInt = #line) {
        let whole = Assuan.escape(description, maxBytes: 100_000)
        let fitted = Assuan.escape(description, maxBytes: 990)
        XCTAssertEqual(
            fitted, whole, "the description is \(whole.utf8.count) bytes escaped, more than 990", file: file, line: line
        )
    }

    func testALongRequestFitsOneAssuanLine() {
        let firefox = Caller.firefoxAddon(
            id: String(repeating: "i", count: 300) + "@example.org", manifestPath: "/m.json")
        for caller in [chrome, firefox] {
            for count in [3, 4, 1000] {
                let payloads = (0..<count).map {
                    text(String(repeating: "Sign in to a very long example. ", count: 40) + "\($0)")
                }
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
        assertFitsOneAssuanLine(
            request(payloads, callerName: String(repeating: "W", count: 300)).description(for: .passphrase))
    }

    /// Text that takes the most bytes per character: four-byte UTF-8 scalars, and `%`, which
    /// Assuan writes as three bytes. The limits are counted in characters, so these are the
    /// requests that could overflow the line.
    func testTheWidestTextStillFitsOneAssuanLine() {
        let widest = [
            String(repeating: "🙂", count: 1000), String(repeating: "%", count: 1000),
            String(repeating: "世", count: 1000),
        ]
        for filler in widest {
            let payloads = (0..<3).map { _ in text(filler) }
            let description = request(payloads, callerName: filler, label: filler).description(for: .passphrase)
            assertFitsOneAssuanLine(description)
        }
    }

    /// A preview looks at what it can show, not at the rest of a payload of a megabyte or more
    /// (which it once turned into a string per character), and still counts every byte.
    /// Speed is not asserted here (no timed unit tests): the preview walks only what it shows,
    /// and what this checks is that the figures stay exact when it stops early.
    func testAPreviewOfAHugeTextCountsWhatItDoesNotShowExactly() {
        let huge = String(repeating: "a\u{2028}%\"", count: 1 << 20)  // 6 MiB, every kind of escape
        let preview = DisplayText.preview(huge, maxBytes: 150, lineBreaks: .marked)
        XCTAssertEqual(preview.totalBytes, 6 << 20)
        XCTAssertEqual(preview.text, String(repeating: "a ⏎ %\\\"", count: 13) + "a…")
        XCTAssertEqual(preview.shownBytes, 13 * 6 + 1)
    }
}
