import WalletBridgeWallet
import XCTest

/// BIP-39 against the reference: the Trezor test vectors (vectors.json in the sdist of PyPI's
/// `mnemonic` 0.21, whose english.txt the word list is generated from), passphrase "TREZOR".
final class BIP39Tests: XCTestCase {
    /// (entropy, phrase, seed with passphrase "TREZOR"), all 24 English vectors: 8 each of 12,
    /// 18 and 24 words.
    static let trezorVectors: [(entropy: String, phrase: String, seed: String)] = [
        ("00000000000000000000000000000000",
         "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
         "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"),
        ("7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
         "legal winner thank year wave sausage worth useful legal winner thank yellow",
         "2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607"),
        ("80808080808080808080808080808080",
         "letter advice cage absurd amount doctor acoustic avoid letter advice cage above",
         "d71de856f81a8acc65e6fc851a38d4d7ec216fd0796d0a6827a3ad6ed5511a30fa280f12eb2e47ed2ac03b5c462a0358d18d69fe4f985ec81778c1b370b652a8"),
        ("ffffffffffffffffffffffffffffffff",
         "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong",
         "ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069"),
        ("000000000000000000000000000000000000000000000000",
         "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon agent",
         "035895f2f481b1b0f01fcf8c289c794660b289981a78f8106447707fdd9666ca06da5a9a565181599b79f53b844d8a71dd9f439c52a3d7b3e8a79c906ac845fa"),
        ("7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
         "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal will",
         "f2b94508732bcbacbcc020faefecfc89feafa6649a5491b8c952cede496c214a0c7b3c392d168748f2d4a612bada0753b52a1c7ac53c1e93abd5c6320b9e95dd"),
        ("808080808080808080808080808080808080808080808080",
         "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter always",
         "107d7c02a5aa6f38c58083ff74f04c607c2d2c0ecc55501dadd72d025b751bc27fe913ffb796f841c49b1d33b610cf0e91d3aa239027f5e99fe4ce9e5088cd65"),
        ("ffffffffffffffffffffffffffffffffffffffffffffffff",
         "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo when",
         "0cd6e5d827bb62eb8fc1e262254223817fd068a74b5b449cc2f667c3f1f985a76379b43348d952e2265b4cd129090758b3e3c2c49103b5051aac2eaeb890a528"),
        ("0000000000000000000000000000000000000000000000000000000000000000",
         "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art",
         "bda85446c68413707090a52022edd26a1c9462295029f2e60cd7c4f2bbd3097170af7a4d73245cafa9c3cca8d561a7c3de6f5d4a10be8ed2a5e608d68f92fcc8"),
        ("7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f",
         "legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth useful legal winner thank year wave sausage worth title",
         "bc09fca1804f7e69da93c2f2028eb238c227f2e9dda30cd63699232578480a4021b146ad717fbb7e451ce9eb835f43620bf5c514db0f8add49f5d121449d3e87"),
        ("8080808080808080808080808080808080808080808080808080808080808080",
         "letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless",
         "c0c519bd0e91a2ed54357d9d1ebef6f5af218a153624cf4f2da911a0ed8f7a09e2ef61af0aca007096df430022f7a2b6fb91661a9589097069720d015e4e982f"),
        ("ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
         "zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo vote",
         "dd48c104698c30cfe2b6142103248622fb7bb0ff692eebb00089b32d22484e1613912f0a5b694407be899ffd31ed3992c456cdf60f5d4564b8ba3f05a69890ad"),
        ("9e885d952ad362caeb4efe34a8e91bd2",
         "ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic",
         "274ddc525802f7c828d8ef7ddbcdc5304e87ac3535913611fbbfa986d0c9e5476c91689f9c8a54fd55bd38606aa6a8595ad213d4c9c9f9aca3fb217069a41028"),
        ("6610b25967cdcca9d59875f5cb50b0ea75433311869e930b",
         "gravity machine north sort system female filter attitude volume fold club stay feature office ecology stable narrow fog",
         "628c3827a8823298ee685db84f55caa34b5cc195a778e52d45f59bcf75aba68e4d7590e101dc414bc1bbd5737666fbbef35d1f1903953b66624f910feef245ac"),
        ("68a79eaca2324873eacc50cb9c6eca8cc68ea5d936f98787c60c7ebc74e6ce7c",
         "hamster diagram private dutch cause delay private meat slide toddler razor book happy fancy gospel tennis maple dilemma loan word shrug inflict delay length",
         "64c87cde7e12ecf6704ab95bb1408bef047c22db4cc7491c4271d170a1b213d20b385bc1588d9c7b38f1b39d415665b8a9030c9ec653d75e65f847d8fc1fc440"),
        ("c0ba5a8e914111210f2bd131f3d5e08d",
         "scheme spot photo card baby mountain device kick cradle pact join borrow",
         "ea725895aaae8d4c1cf682c1bfd2d358d52ed9f0f0591131b559e2724bb234fca05aa9c02c57407e04ee9dc3b454aa63fbff483a8b11de949624b9f1831a9612"),
        ("6d9be1ee6ebd27a258115aad99b7317b9c8d28b6d76431c3",
         "horn tenant knee talent sponsor spell gate clip pulse soap slush warm silver nephew swap uncle crack brave",
         "fd579828af3da1d32544ce4db5c73d53fc8acc4ddb1e3b251a31179cdb71e853c56d2fcb11aed39898ce6c34b10b5382772db8796e52837b54468aeb312cfc3d"),
        ("9f6a2878b2520799a44ef18bc7df394e7061a224d2c33cd015b157d746869863",
         "panda eyebrow bullet gorilla call smoke muffin taste mesh discover soft ostrich alcohol speed nation flash devote level hobby quick inner drive ghost inside",
         "72be8e052fc4919d2adf28d5306b5474b0069df35b02303de8c1729c9538dbb6fc2d731d5f832193cd9fb6aeecbc469594a70e3dd50811b5067f3b88b28c3e8d"),
        ("23db8160a31d3e0dca3688ed941adbf3",
         "cat swing flag economy stadium alone churn speed unique patch report train",
         "deb5f45449e615feff5640f2e49f933ff51895de3b4381832b3139941c57b59205a42480c52175b6efcffaa58a2503887c1e8b363a707256bdd2b587b46541f5"),
        ("8197a4a47f0425faeaa69deebc05ca29c0a5b5cc76ceacc0",
         "light rule cinnamon wrap drastic word pride squirrel upgrade then income fatal apart sustain crack supply proud access",
         "4cbdff1ca2db800fd61cae72a57475fdc6bab03e441fd63f96dabd1f183ef5b782925f00105f318309a7e9c3ea6967c7801e46c8a58082674c860a37b93eda02"),
        ("066dca1a2bb7e8a1db2832148ce9933eea0f3ac9548d793112d9a95c9407efad",
         "all hour make first leader extend hole alien behind guard gospel lava path output census museum junior mass reopen famous sing advance salt reform",
         "26e975ec644423f4a4c4f4215ef09b4bd7ef924e85d1d17c4cf3f136c2863cf6df0a475045652c57eb5fb41513ca2a2d67722b77e954b4b3fc11f7590449191d"),
        ("f30f8c1da665478f49b001d94c5fc452",
         "vessel ladder alter error federal sibling chat ability sun glass valve picture",
         "2aaa9242daafcee6aa9d7269f17d4efe271e1b9a529178d7dc139cd18747090bf9d60295d0ce74309a78852a9caadf0af48aae1c6253839624076224374bc63f"),
        ("c10ec20dc3cd9f652c7fac2f1230f7a3c828389a14392f05",
         "scissors invite lock maple supreme raw rapid void congress muscle digital elegant little brisk hair mango congress clump",
         "7b4a10be9d98e6cba265566db7f136718e1398c71cb581e1b2f464cac1ceedf4f3e274dc270003c670ad8d02c4558b2f8e39edea2775c9e232c7cb798b069e88"),
        ("f585c11aec520db57dd353c69554b21a89b20fb0650966fa0a9d6f74fd989d8f",
         "void come effort suffer camp survey warrior heavy shoot primary clutch crush open amazing screen patrol group space point ten exist slush involve unfold",
         "01f5bced59dec48e362f2c45b5de68b9fd6c92c6634f44d6d40aab69056506f0e35524a518034ddc1192e1dacd32c1ed3eaa3c3b131c88ed8e7e54c49a5d0998"),
    ]

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
            "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4")
    }

    func testNormalizeAcceptsAnyCaseAndAnyASCIIWhitespace() throws {
        let typed = "\t  Legal WINNER thank\n\nyear wave\r\nsausage worth\u{0B}useful\u{0C}legal   winner ThAnK yellow \n"
        XCTAssertEqual(
            text(try BIP39.normalize(secure(typed))),
            "legal winner thank year wave sausage worth useful legal winner thank yellow")
    }

    func testWrongWordCountIsRefused() {
        let eleven = "ozone drill grab fiber curtain grace pudding thank cruise elder eight"
        XCTAssertEqual(refusal(eleven), .wordCount(11))
        XCTAssertEqual(refusal(eleven)?.description, "a recovery phrase has 12, 15, 18, 21 or 24 words; this one has 11")
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
        XCTAssertEqual(refusal(Array(repeating: "zoo", count: 11).joined(separator: " ") + " zzz"), .unknownWord(position: 12))
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
            decoding: try readBytes("\(packageRoot)/Sources/WalletBridgeWallet/Recovery/BIP39EnglishWords.swift"), as: UTF8.self)
        XCTAssertTrue(generated.contains("// SHA-256 of english.txt: \(englishTxtSHA256)\n"))
        // The lookup is a binary search in byte order.
        XCTAssertEqual(BIP39.englishWords, BIP39.englishWords.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        XCTAssertEqual(BIP39.wordCounts, [12, 15, 18, 21, 24])
    }

    // MARK: - Helpers

    private let abandonAbout = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

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
