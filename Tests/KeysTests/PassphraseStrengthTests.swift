@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys

final class PassphraseStrengthTests: XCTestCase {
    private let shortMessage = "it is shorter than \(PassphraseStrength.minimumLength) characters"
    private let labelMessage = "it contains the key's label"
    private let wordMessage = "it is a single dictionary word (with digits or symbols around it)"
    private let patternMessage = "it repeats or runs through too few characters (like aaaa or 1234)"

    /// The verdict through the public entry point: with /usr/share/dict/words when this machine
    /// has it. Only used where the file cannot change the outcome.
    private func weakness(_ text: String, label: String? = nil, dictionary: [String] = []) -> String? {
        PassphraseStrength.weakness(of: secure(text), label: label, dictionary: dictionary)
    }

    /// The verdict with exactly `systemWords` as the system list, whatever this machine has.
    private func weakness(_ text: String, systemWords: Set<[Unicode.Scalar]>) -> String? {
        PassphraseStrength.weakness(of: secure(text), label: nil, dictionary: [], systemWords: systemWords)
    }

    /// Refused with a message starting `reason`, which quotes neither the passphrase nor the label.
    private func assertRefused(
        _ text: String, _ reason: String, label: String? = nil, dictionary: [String] = [],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let message = weakness(text, label: label, dictionary: dictionary) else {
            return XCTFail("\(text) was accepted", file: file, line: line)
        }
        XCTAssertTrue(message.hasPrefix(reason), "\(text): \(message)", file: file, line: line)
        assertDoesNotQuote(message, text, label: label, file: file, line: line)
    }

    /// Not the passphrase, nor any 5 characters of it in a row without a space (" the " is no
    /// quote), nor the label.
    private func assertDoesNotQuote(
        _ message: String, _ text: String, label: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) {
        let message = message.lowercased()
        XCTAssertFalse(message.contains(text.lowercased()), "\(message) quotes \(text)", file: file, line: line)
        let characters = Array(text.lowercased())
        for start in 0..<max(characters.count - 4, 0) {
            let piece = String(characters[start..<start + 5])
            guard !piece.contains(" ") else { continue }
            XCTAssertFalse(message.contains(piece), "\(message) quotes part of \(text)", file: file, line: line)
        }
        if let label, label.count >= 3 {
            XCTAssertFalse(message.contains(label.lowercased()), "\(message) quotes the label", file: file, line: line)
        }
    }

    private func assertAccepted(
        _ text: String, label: String? = nil, dictionary: [String] = [], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertNil(weakness(text, label: label, dictionary: dictionary), text, file: file, line: line)
    }

    // MARK: Length

    func testShorterThanTheMinimumIsRefusedAndTheMinimumPasses() {
        XCTAssertEqual(PassphraseStrength.minimumLength, 10)
        assertRefused("Xk7#pQ2v!", shortMessage)
        assertAccepted("Xk7#pQ2v!m")
        XCTAssertEqual(weakness("")?.hasPrefix(shortMessage), true)
    }

    func testLengthIsCountedInUnicodeScalarsNotBytes() {
        // 9 scalars in 18 bytes: still too short; 10 scalars pass.
        assertRefused("äöüßéèêëï", shortMessage)
        assertAccepted("äöüßéèêëïî")
        // Case is folded beyond ASCII too: this is 4 distinct letters.
        assertRefused("ÄäÖöÜüßßÄäÖö", patternMessage)
    }

    func testInvalidUTF8IsJudgedOnItsLengthAlone() throws {
        let nine = PassphraseStrength.weakness(of: secure([UInt8](repeating: 0xFF, count: 9)), label: nil)
        XCTAssertTrue(try XCTUnwrap(nine).hasPrefix(shortMessage))
        // Twelve identical bytes would break the repeat rule if they were text.
        XCTAssertNil(PassphraseStrength.weakness(of: secure([UInt8](repeating: 0xFF, count: 12)), label: "aaa"))
        XCTAssertNil(PassphraseStrength.weakness(of: secure(Array("password".utf8) + [0xC3, 0x28]), label: nil))
    }

    // MARK: Label

    func testTheLabelIsRefusedInAnyCaseWhenItHasThreeCharactersOrMore() {
        assertRefused("my SAVINGS are safe", labelMessage, label: "Savings")
        assertRefused("savings account", labelMessage, label: "savings account")
        assertRefused("abc tulip violin", labelMessage, label: "abc")
        // Near misses: not the whole label, a label too short to count, or no label.
        assertAccepted("my saving is safe", label: "savings")
        assertAccepted("abstract violin 42", label: "ab")
        assertAccepted("my savings are safe", label: nil)
    }

    func testAPassphraseTakenFromTheLabelIsRefused() {
        let label = "holiday fund for the kids"
        assertRefused("fund for the kids", "it is part of the key's label", label: label)
        assertAccepted("fund for the cats", label: label)
    }

    // MARK: Dictionary words

    func testCommonPasswordsAreRefusedWithWhateverSurroundsThem() {
        // These are in the embedded list, so they are refused with or without a system word list.
        for text in [
            "password!!", "Password2024!", "  password  12", "!!trustno1!!", "123456789!", "abc123!!!!",
            "Qwertyuiop2024", "letmein 2024", "1qaz2wsx!!", "Walletbridge1", "correcthorsebatterystaple",
        ] {
            assertRefused(text, wordMessage)
        }
    }

    func testLookAlikeSubstitutionsAreUndone() {
        for text in ["P@ssw0rd2024!", "$unsh1ne!!!!", "4dmin1strat0r", "1etme1n!!!", "f00tb4ll 99", "pr1nc3$$ 1"] {
            assertRefused(text, wordMessage)
        }
    }

    func testNearMissesOfDictionaryWordsPass() {
        for text in [
            "passwordqz1!", "letmeinplease", "sunshine monkey dragon", "Password 2 go now", "p4ssw0rdx!!7",
            "abc123abc123x",
        ] {
            assertAccepted(text)
        }
    }

    func testInjectedWordsCountInAnyCase() {
        assertRefused("Zorblaxian77", wordMessage, dictionary: ["zorblaxian"])
        assertRefused("z0rbl4xian!!", wordMessage, dictionary: ["ZORBLAXIAN"])
        assertAccepted("Zorblaxian77")
        assertAccepted("Zorblaxian77", dictionary: ["zorblax"])
    }

    func testSeveralDictionaryWordsSeparatedBySpacesPass() {
        assertAccepted("correct horse battery staple")
        let bip39 = ["abandon", "ability", "able", "about", "above", "absent"]
        assertAccepted("abandon ability able about", dictionary: bip39)
        assertRefused("Abandon2024!", wordMessage, dictionary: bip39)
    }

    func testTheSystemWordListCountsWhenPresentAndIsNotNeeded() throws {
        let folder = temporaryFolder(self)
        let path = "\(folder)/words"
        writeBytes(Array("Aardvark\nzyzzyva\r\nxy\n\nÉmigré\n".utf8), path)

        let words = PassphraseStrength.words(inFile: path)
        XCTAssertEqual(
            words, Set(["aardvark", "zyzzyva", "émigré"].map { Array($0.unicodeScalars) }),
            "lowercased; 2 letters dropped")
        XCTAssertNotNil(weakness("Zyzzyva!2024", systemWords: words))
        XCTAssertNotNil(weakness("ÉMIGRÉ 2024", systemWords: words))
        XCTAssertNil(weakness("Zyzzyva!2024", systemWords: []))
        XCTAssertNil(weakness("x9!3#8$2%7^", systemWords: words), "a 2-letter entry is no reason to refuse")

        // Without the file, the embedded list still refuses what it lists.
        XCTAssertNotNil(weakness("Password2024!", systemWords: []))
        XCTAssertNil(weakness("correct horse battery staple", systemWords: words))

        XCTAssertEqual(PassphraseStrength.words(inFile: "\(folder)/absent"), [])
        XCTAssertEqual(PassphraseStrength.words(inFile: folder), [], "a folder is not a word list")
        XCTAssertEqual(PassphraseStrength.words(inFile: path, maxBytes: 8), [], "too large: ignored, not truncated")
    }

    // MARK: Repeats and runs

    func testRepeatsAndRunsAreRefused() {
        for text in [
            "aaaaaaaaaaaa", "abab abab abab", "aabbccddaabb", "abcdefghijk", "1234567890", "0987654321",
            "7890123456", "zyxwvutsrqpo", "xyzabcdefgh", "acegikmoqsu", "poiuytrewq", "asdfghjkl;",
            "abcabcabcabc", "horse horse horse", "Tulip7Tulip7", "a b c d e f g h",
        ] {
            guard let message = weakness(text) else { XCTFail("\(text) was accepted"); continue }
            // A keyboard row may be caught as a listed walk first; either way it is refused.
            XCTAssertTrue(message.hasPrefix(patternMessage) || message.hasPrefix(wordMessage), "\(text): \(message)")
            assertDoesNotQuote(message, text)
        }
        assertRefused("qwertyuiop", patternMessage)
    }

    func testNearMissesOfRepeatsAndRunsPass() {
        // Five distinct characters; a run broken once; a repeat broken once.
        for text in ["aabbccddeeab", "abcdefghijz", "1234567809", "horse horse house", "Tulip7Tulip8", "qwertyuiox"] {
            assertAccepted(text)
        }
    }

    // MARK: Strong passphrases

    func testRandomStringsPass() {
        assertAccepted("q7#Vm2$kP9!xL4wZ")
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            assertAccepted(String((0..<16).map { _ in alphabet.randomElement()! }))
        }
    }
}
