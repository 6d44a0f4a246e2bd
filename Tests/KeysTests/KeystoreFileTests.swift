import Foundation
import WalletBridge
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys

/// The on-disk format: what decodes, and the clear error for everything that does not.
final class KeystoreFileTests: XCTestCase {
    private let path = "/test/keystore.json"

    private func sampleFile(keys: Int = 2) -> KeystoreFile {
        KeystoreFile(
            kdf: .init(salt: [UInt8](repeating: 1, count: 16), limits: .moderate),
            passphraseCheck: .init(
                nonce: [UInt8](repeating: 2, count: 24), ciphertext: [UInt8](repeating: 3, count: 16)),
            keys: (0..<keys).map { index in
                KeystoreFile.Entry(
                    publicKey: [UInt8](repeating: UInt8(10 + index), count: 32), label: "key \"\(index)\"",
                    created: "2025-01-31T12:00:00Z",
                    sealedSeed: .init(
                        nonce: [UInt8](repeating: 4, count: 24), ciphertext: [UInt8](repeating: 5, count: 48)))
            })
    }

    private func text(_ file: KeystoreFile) -> String { String(decoding: file.encode(), as: UTF8.self) }

    private func decode(_ text: String) throws -> KeystoreFile {
        try KeystoreFile.decode(Array(text.utf8), path: path)
    }

    private func assertDamaged(
        _ text: String, mentioning fragment: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try decode(text), file: file, line: line) { error in
            guard case KeystoreError.damaged(_, let reason) = error else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertTrue(reason.contains(fragment), "\(reason) lacks \(fragment)", file: file, line: line)
        }
    }

    func testEncodeDecodeRoundTrip() throws {
        for count in [0, 1, 3] {
            let file = sampleFile(keys: count)
            XCTAssertEqual(try decode(text(file)), file)
        }
    }

    func testEncodedFileIsReadableJSONWithFormatAndVersionFirst() throws {
        let encoded = text(sampleFile())
        XCTAssertTrue(encoded.hasPrefix("{\n  \"format\": \"wallet-bridge-keystore\",\n  \"version\": 2,\n"))
        XCTAssertTrue(encoded.contains("\"label\": \"key \\\"0\\\"\""), "labels are JSON-escaped")
        guard case .object(let members) = try JSONParser.parse(Array(encoded.utf8)),
            case .array(let keys)? = members["keys"]
        else {
            return XCTFail("not a JSON object with a keys array")
        }
        XCTAssertEqual(keys.count, 2)
    }

    func testEveryTruncationIsAClearErrorNotACrash() {
        let full = Array(text(sampleFile()).utf8)
        for length in 0..<full.count - 2 {  // the last two bytes are "}\n"; without "\n" it is still whole
            XCTAssertThrowsError(try KeystoreFile.decode(Array(full.prefix(length)), path: path)) { error in
                guard case KeystoreError.damaged = error else { return XCTFail("length \(length): \(error)") }
            }
        }
    }

    func testUnknownVersionsAreReportedAsSuch() {
        for version in ["3", "0", "\"2\"", "2.0", "null"] {
            let changed = text(sampleFile()).replacingFirst("\"version\": 2", with: "\"version\": \(version)")
            XCTAssertThrowsError(try decode(changed)) { error in
                guard case KeystoreError.unsupportedVersion(_, let shown) = error else {
                    return XCTFail("\(version): \(error)")
                }
                XCTAssertEqual(shown, version)
                XCTAssertTrue("\(error)".contains("newer wallet-bridge"))
            }
        }
        assertDamaged(text(sampleFile()).replacingFirst("\"version\": 2,", with: ""), mentioning: "version")
        assertDamaged(
            text(sampleFile()).replacingFirst("wallet-bridge-keystore", with: "something-else"), mentioning: "format")
    }

    func testVersionTwoMembersAreRequiredAndChecked() {
        let encoded = text(sampleFile())
        assertDamaged(encoded.replacingFirst("\"type\": \"ed25519\", ", with: ""), mentioning: "keys[0].type")
        assertDamaged(
            encoded.replacingFirst("\"type\": \"ed25519\"", with: "\"type\": \"rsa\""),
            mentioning: "keys[0].type is not one of: ed25519")
        assertDamaged(
            encoded.replacingFirst("\"origin\": {\"kind\": \"unknown\"}, ", with: ""), mentioning: "keys[0].origin")
        assertDamaged(
            encoded.replacingFirst("{\"kind\": \"unknown\"}", with: "{\"kind\": \"stolen\"}"),
            mentioning: "keys[0].origin.kind")
        assertDamaged(
            encoded.replacingFirst("{\"kind\": \"unknown\"}", with: "{\"kind\": \"recovery_phrase\"}"),
            mentioning: "keys[0].origin.path")
        assertDamaged(
            encoded.replacingFirst(
                "{\"kind\": \"unknown\"}", with: "{\"kind\": \"recovery_phrase\", \"path\": \"x y\"}"),
            mentioning: "keys[0].origin.path is not a derivation path")
        var withPath = sampleFile()
        withPath.keys[0].origin = .recoveryPhrase(path: "m/44'/501'/3'/0'")
        XCTAssertEqual(try decode(text(withPath)), withPath)
    }

    func testAVersionOneFileIsReadAndWrittenBackAsVersionOne() throws {
        var file = sampleFile()
        for index in file.keys.indices { file.keys[index].sealedVersion = 1 }
        let encoded = text(file)
        XCTAssertTrue(encoded.contains("\"version\": 1,"))
        XCTAssertFalse(encoded.contains("\"origin\""), "version 1 has no origin")
        XCTAssertEqual(try decode(encoded), file)
    }

    func testLimitsBelowInteractiveAreRefusedOutsideTheTests() throws {
        // An edited keystore with 1 pass over 8 KiB makes every offline guess almost free.
        let weakened = text(sampleFile())
            .replacingFirst("\"opslimit\": 3", with: "\"opslimit\": 1").replacingFirst(
                "\"memlimit\": 268435456", with: "\"memlimit\": 8192")
        let interactive = text(sampleFile())
            .replacingFirst("\"opslimit\": 3", with: "\"opslimit\": 2").replacingFirst(
                "\"memlimit\": 268435456", with: "\"memlimit\": 67108864")
        unsetenv(PasswordHash.Limits.testVariable)
        defer { useWeakKDF() }
        XCTAssertThrowsError(try decode(weakened)) { error in
            guard case KeystoreError.unacceptableLimits(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(
                reason,
                "opslimit 1 is outside 2...16 (libsodium's INTERACTIVE; weaker limits are for tests only, with WALLET_BRIDGE_TEST_WEAK_KDF=1)"
            )
        }
        XCTAssertEqual(try decode(interactive).kdf.limits, .interactive, "INTERACTIVE itself is accepted")

        useWeakKDF()
        XCTAssertEqual(try decode(weakened).kdf.limits, .weakestForTests, "the test suites' own keystores")
    }

    func testHostileLimitsAreRefused() {
        let hostile = text(sampleFile()).replacingFirst("\"memlimit\": 268435456", with: "\"memlimit\": 107374182400")
        XCTAssertThrowsError(try decode(hostile)) { error in
            guard case KeystoreError.unacceptableLimits(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("memlimit 107374182400"))
        }
        let slow = text(sampleFile()).replacingFirst("\"opslimit\": 3", with: "\"opslimit\": 4000000000")
        XCTAssertThrowsError(try decode(slow)) { error in
            guard case KeystoreError.unacceptableLimits = error else { return XCTFail("\(error)") }
        }
        assertDamaged(
            text(sampleFile()).replacingFirst("\"opslimit\": 3", with: "\"opslimit\": 1e3"), mentioning: "kdf.opslimit")
        assertDamaged(
            text(sampleFile()).replacingFirst("\"opslimit\": 3", with: "\"opslimit\": 99999999999999999999999"),
            mentioning: "kdf.opslimit")
    }

    func testFieldsOfTheWrongSizeOrTypeAreNamed() {
        let file = text(sampleFile())
        let salt = Base64.encode([UInt8](repeating: 1, count: 16))
        assertDamaged(file.replacingFirst(salt, with: Base64.encode([1, 2, 3])), mentioning: "kdf.salt")
        let publicKey = Base64.encode([UInt8](repeating: 10, count: 32))
        assertDamaged(file.replacingFirst(publicKey, with: "not base64!"), mentioning: "keys[0].public_key")
        let ciphertext = Base64.encode([UInt8](repeating: 5, count: 48))
        assertDamaged(
            file.replacingFirst(ciphertext, with: Base64.encode([UInt8](repeating: 5, count: 47))),
            mentioning: "keys[0].ciphertext")
        assertDamaged(file.replacingFirst("argon2id13", with: "scrypt"), mentioning: "kdf.algorithm")
        assertDamaged(file.replacingFirst("xchacha20poly1305-ietf", with: "aes"), mentioning: "cipher")
        assertDamaged(
            text(sampleFile(keys: 0)).replacingFirst("\"keys\": []", with: "\"keys\": {}"),
            mentioning: "\"keys\" is not an array")
        assertDamaged("[]", mentioning: "top level")
        assertDamaged("", mentioning: "empty")
    }

    func testDuplicateMembersAndRepeatedKeysAreRefused() {
        // A duplicate member is read differently by different JSON parsers: never guess.
        let doubled = text(sampleFile()).replacingFirst("\"version\": 2,", with: "\"version\": 2, \"version\": 2,")
        assertDamaged(doubled, mentioning: "duplicate key")
        var repeated = sampleFile()
        repeated.keys[1].publicKey = repeated.keys[0].publicKey
        assertDamaged(text(repeated), mentioning: "repeats the public key")
        var sameLabel = sampleFile()
        sameLabel.keys[1].label = sameLabel.keys[0].label
        assertDamaged(text(sameLabel), mentioning: "repeats the label")
    }

    func testLabelsThatCouldDisguiseAKeyAreRefused() {
        XCTAssertNil(KeystoreFile.labelProblem("savings 2025 ✓"))
        XCTAssertNil(KeystoreFile.labelProblem("tilde~ and \u{A0}no-break space"))
        for bad in [
            "", "line\nbreak", "bell\u{7}", "delete\u{7F}", "C1 \u{85} control", "rtl\u{202E}gnp", "\u{2066}iso",
            " padded",
            "x" + String(repeating: "y", count: 64),
        ] {
            XCTAssertNotNil(KeystoreFile.labelProblem(bad), bad.debugDescription)
        }
        var file = sampleFile()
        file.keys[0].label = "evil\u{202E}"
        assertDamaged(text(file), mentioning: "keys[0].label")
    }

    func testEntryLookupByBase64Base58AndLabel() {
        let file = sampleFile()
        let entry = file.keys[1]
        XCTAssertEqual(file.entry(matching: entry.address), entry)
        XCTAssertEqual(file.entry(matching: entry.displayAddress), entry)
        XCTAssertEqual(file.entry(matching: entry.label), entry)
        XCTAssertNil(file.entry(matching: "nothing"))
        XCTAssertEqual(file.entry(address: entry.address), entry)
        XCTAssertNil(file.entry(address: entry.displayAddress), "the protocol takes base64 only")
        XCTAssertEqual(entry.shortAddress, "\(entry.displayAddress.prefix(4))…\(entry.displayAddress.suffix(4))")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else {
            XCTFail("\(target) not found")
            return self
        }
        return replacingCharacters(in: range, with: replacement)
    }
}
