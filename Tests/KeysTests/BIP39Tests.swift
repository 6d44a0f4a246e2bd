import Foundation
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys

/// BIP-39 against the reference: the Trezor test vectors (vectors.json in the sdist of PyPI's
/// `mnemonic` 0.21, whose english.txt the word list is generated from), passphrase "TREZOR".
final class BIP39Tests: XCTestCase {
    /// (entropy, phrase, seed with passphrase "TREZOR"), all 24 English vectors: 8 each of 12,
    /// 18 and 24 words. Tests/Support/bip39-trezor-vectors.json, which the system tests read too.
    static let trezorVectors: [(entropy: String, phrase: String, seed: String)] = {
        let url = URL(fileURLWithPath: "\(packageRoot)/Tests/Support/bip39-trezor-vectors.json")
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let english = object["english"] as? [[String]]
        else { return [] }
        return english.map { (entropy: $0[0], phrase: $0[1], seed: $0[2]) }
    }()

    func testTrezorVectorsEntropyToPhraseToSeed() throws {
        XCTAssertEqual(Set(Self.trezorVectors.map { $0.phrase.split(separator: " ").count }), [12, 18, 24])
        for vector in Self.trezorVectors {
            let phrase = BIP39.phrase(entropy: secure(bytes(hex: vector.entropy)))
            XCTAssertEqual(text(phrase), vector.phrase)
            XCTAssertEqual(text(try BIP39.normalize(secure(vector.phrase))), vector.phrase)
            let seed = try BIP39.seed(phrase: phrase, passphrase: secure("TREZOR"))
            XCTAssertEqual(Hex.encode(seed.bytes), vector.seed, vector.phrase)
        }
    }

    /// The empty passphrase, checked against Python's `mnemonic` (Mnemonic.to_seed(phrase, "")).
    func testSeedWithEmptyPassphrase() throws {
        let seed = try BIP39.seed(phrase: secure(abandonAbout), passphrase: secure(""))
        XCTAssertEqual(
            Hex.encode(seed.bytes),
            "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4"
        )
    }

    func testNormalizeAcceptsAnyCaseAndAnyASCIIWhitespace() throws {
        let typed =
            "\t  Legal WINNER thank\n\nyear wave\r\nsausage worth\u{0B}useful\u{0C}legal   winner ThAnK yellow \n"
        XCTAssertEqual(
            text(try BIP39.normalize(secure(typed))),
            "legal winner thank year wave sausage worth useful legal winner thank yellow")
    }

    func testWrongWordCountIsRefused() {
        let eleven = "ozone drill grab fiber curtain grace pudding thank cruise elder eight"
        XCTAssertEqual(refusal(eleven), .wordCount(11))
        XCTAssertEqual(
            refusal(eleven)?.description, "a recovery phrase has 12, 15, 18, 21 or 24 words; this one has 11")
        assertNoWordEchoed(eleven)
        XCTAssertEqual(refusal(""), .wordCount(0))
        XCTAssertEqual(refusal(" \n\t "), .wordCount(0))
        XCTAssertEqual(refusal(Array(repeating: "zoo", count: 25).joined(separator: " ")), .wordCount(25))
    }

    func testUnknownWordIsRefusedByPositionWithoutEchoingIt() {
        // "curtain" misspelt as word 5.
        let typo = "ozone drill grab fiber curtainz grace pudding thank cruise elder eight picnic"
        XCTAssertEqual(refusal(typo), .unknownWord(position: 5))
        XCTAssertEqual(refusal(typo)?.description, "word 5 is not in the BIP-39 English word list")
        assertNoWordEchoed(typo)
        // A prefix, a non-letter, a non-ASCII letter: none is a word.
        let valid = "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic"
        XCTAssertEqual(refusal(phrase(valid, replacing: "picnic", with: "pic")), .unknownWord(position: 12))
        XCTAssertEqual(refusal(phrase(valid, replacing: "grab", with: "gr4b")), .unknownWord(position: 3))
        XCTAssertEqual(refusal(phrase(valid, replacing: "drill", with: "dr\u{00EF}ll")), .unknownWord(position: 2))
        XCTAssertEqual(refusal("aaa drill"), .wordCount(2), "the count is checked first")
        // The first and the last word of the list are found (the binary search's edges).
        XCTAssertEqual(refusal(Array(repeating: "abandon", count: 11).joined(separator: " ") + " about"), nil)
        XCTAssertEqual(refusal(Array(repeating: "zoo", count: 11).joined(separator: " ") + " wrong"), nil)
        XCTAssertEqual(
            refusal(Array(repeating: "zoo", count: 11).joined(separator: " ") + " zzz"), .unknownWord(position: 12))
        XCTAssertEqual(refusal("a" + String(repeating: " abandon", count: 11)), .unknownWord(position: 1))
    }

    func testWrongChecksumIsRefused() {
        // Two words of a valid phrase swapped.
        let swapped = "drill ozone grab fiber curtain grace pudding thank cruise elder eight picnic"
        XCTAssertEqual(refusal(swapped), .checksum)
        XCTAssertEqual(
            refusal(swapped)?.description,
            "the phrase's checksum does not match: a word is wrong or the words are out of order")
        assertNoWordEchoed(swapped)
        XCTAssertEqual(refusal(Array(repeating: "abandon", count: 12).joined(separator: " ")), .checksum)
        XCTAssertEqual(refusal(Array(repeating: "abandon", count: 24).joined(separator: " ")), .checksum)
    }

    func testEveryChecksumBitCounts() throws {
        // For each length, the right last word and its neighbours in the list, which differ
        // from it in the checksum bits only (the low ENT/32 bits of the last word).
        for vector in Self.trezorVectors {
            var words = vector.phrase.split(separator: " ").map(String.init)
            let last = try XCTUnwrap(BIP39.englishWords.firstIndex(of: words.last!))
            for neighbour in [last - 1, last + 1] where BIP39.englishWords.indices.contains(neighbour) {
                let checksumBits = words.count / 3
                guard neighbour >> checksumBits == last >> checksumBits else { continue }
                words[words.count - 1] = BIP39.englishWords[neighbour]
                XCTAssertEqual(refusal(words.joined(separator: " ")), .checksum, vector.phrase)
            }
        }
    }

    func testNonASCIIPassphraseIsRefused() throws {
        let phrase = try BIP39.normalize(secure(abandonAbout))
        XCTAssertThrowsError(try BIP39.seed(phrase: phrase, passphrase: secure("caf\u{00E9}"))) { error in
            XCTAssertEqual(error as? BIP39.Problem, .nonASCIIPassphrase)
            XCTAssertTrue("\(error)".contains("ASCII"))
            XCTAssertTrue("\(error)".contains("NFKD"))
        }
        XCTAssertNoThrow(try BIP39.seed(phrase: phrase, passphrase: secure("~ ASCII only, 0-9 \u{7F}")))
    }

    func testGeneratedPhrasesAreValidAndFresh() throws {
        for count in BIP39.wordCounts {
            let first = BIP39.generate(wordCount: count)
            let second = BIP39.generate(wordCount: count)
            XCTAssertEqual(text(first).split(separator: " ", omittingEmptySubsequences: false).count, count)
            XCTAssertEqual(text(try BIP39.normalize(first)), text(first), "generated phrases are already normalized")
            XCTAssertNoThrow(try BIP39.normalize(second))
            XCTAssertFalse(first.constantTimeEquals(second))
        }
    }

    /// The list is english.txt: 2048 words whose SHA-256, one a line, is the hash the generated
    /// file records (and BIP-39's published english.txt has).
    func testWordListIsTheStandardOne() throws {
        let englishTxtSHA256 = "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda"
        XCTAssertEqual(BIP39.englishWords.count, 2048)
        let joined = Array((BIP39.englishWords.joined(separator: "\n") + "\n").utf8)
        XCTAssertEqual(Hex.encode(Sodium.sha256(joined)), englishTxtSHA256)
        let generated = String(
            decoding: try readBytes("\(packageRoot)/Sources/WalletBridgeKeys/Recovery/BIP39EnglishWords.swift"),
            as: UTF8.self)
        XCTAssertTrue(generated.contains("// SHA-256 of english.txt: \(englishTxtSHA256)\n"))
        // The lookup is a binary search in byte order.
        XCTAssertEqual(
            BIP39.englishWords, BIP39.englishWords.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        XCTAssertEqual(BIP39.wordCounts, [12, 15, 18, 21, 24])
    }

    // MARK: - Helpers

    private let abandonAbout =
        "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    /// The problem `normalize` reports for `typed`, or nil when it accepts it.
    private func refusal(_ typed: String) -> BIP39.Problem? {
        do {
            _ = try BIP39.normalize(secure(typed))
            return nil
        } catch {
            return error
        }
    }

    /// The refusal's message names no word of `typed`, in any case.
    private func assertNoWordEchoed(_ typed: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let message = refusal(typed)?.description.lowercased() else {
            return XCTFail("accepted", file: file, line: line)
        }
        for word in typed.lowercased().split(separator: " ") {
            XCTAssertFalse(message.contains(word), "\"\(message)\" contains \"\(word)\"", file: file, line: line)
        }
    }

    /// `phrase` with its word `word` replaced.
    private func phrase(_ phrase: String, replacing word: String, with replacement: String) -> String {
        phrase.split(separator: " ").map { $0 == word ? replacement : String($0) }.joined(separator: " ")
    }

    private func text(_ secret: SecureBytes) -> String { String(decoding: secret.bytes, as: UTF8.self) }
}

/// Bytes from lowercase hex (test vectors only).
private func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    precondition(digits.count % 2 == 0)
    func nibble(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10 }
    return stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
}
