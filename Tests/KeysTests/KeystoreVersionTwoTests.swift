import Foundation
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys

/// Keystore format version 2: origins, metadata sealed with each seed, the migration from
/// version 1, and backups.
final class KeystoreVersionTwoTests: XCTestCase {
    private var folder = ""
    private var keystore = Keystore(path: "")

    override func setUp() {
        useWeakKDF()
        folder = temporaryFolder(self)
        keystore = Keystore(path: "\(folder)/keystore.json")
    }

    /// Tests/Support/keystore-v1.json was written by the version 1 release (`keys import` of
    /// the seeds 01…20 and 65…84, hex), with this passphrase and the test-only Argon2 limits.
    private let versionOnePassphrase = "version one passphrase"
    private let versionOneSeeds: [[UInt8]] = [Array(1...32), Array(101...132)]

    private func copyVersionOne() throws {
        try FileManager.default.copyItem(atPath: "\(packageRoot)/Tests/Support/keystore-v1.json", toPath: keystore.path)
    }

    private func secretKey(_ label: String, _ passphrase: String) throws -> [UInt8] {
        let file = try XCTUnwrap(try keystore.read())
        let entry = try XCTUnwrap(file.entry(matching: label))
        return try Keystore.unlock(entry, in: file, passphrase: secure(passphrase)).bytes
    }

    /// Rewrites the keystore file's text with `edit`.
    private func tamper(_ edit: (String) -> String) throws {
        let text = String(decoding: try readBytes(keystore.path), as: UTF8.self)
        let edited = edit(text)
        XCTAssertNotEqual(edited, text, "the edit changed something")
        writeBytes(Array(edited.utf8), keystore.path)
    }

    func testOriginsAreRecordedAndWrittenAsVersionTwo() throws {
        let generated = try keystore.create(label: "made here", passphrase: secure("p"))
        let imported = try keystore.importKey(
            secure(Array(repeating: 7, count: 32)), label: "imported", passphrase: secure("p"))
        let phrase = try BIP39.normalize(
            secure(Array(repeating: "abandon", count: 11).joined(separator: " ") + " about"))
        let derived = try keystore.addFromPhrase(
            phrase, bip39Passphrase: secure(""), path: .solana(account: 2), label: "phrase", passphrase: secure("p"))
        let file = try XCTUnwrap(try keystore.read())
        XCTAssertEqual(file.version, 2)
        XCTAssertEqual(file.keys.map(\.origin), [.generated, .imported, .recoveryPhrase(path: "m/44'/501'/2'/0'")])
        XCTAssertEqual([generated, imported, derived].map(\.type), [.ed25519, .ed25519, .ed25519])
        let text = String(decoding: try readBytes(keystore.path), as: UTF8.self)
        XCTAssertTrue(text.contains(#""version": 2"#))
        XCTAssertTrue(text.contains(#""origin": {"kind": "recovery_phrase", "path": "m/44'/501'/2'/0'"}"#), text)
        XCTAssertTrue(text.contains(#""type": "ed25519""#))
        for label in ["made here", "imported", "phrase"] { XCTAssertEqual(try secretKey(label, "p").count, 64) }
    }

    /// A key made with a BIP-39 passphrase says so: the words alone do not bring it back.
    func testABIP39PassphraseIsRecordedAndSealed() throws {
        let phrase = try BIP39.normalize(
            secure(Array(repeating: "abandon", count: 11).joined(separator: " ") + " about"))
        let with = try keystore.addFromPhrase(
            phrase, bip39Passphrase: secure("TREZOR"), path: .solanaDefault, label: "with", passphrase: secure("p"))
        let without = try keystore.addFromPhrase(
            phrase, bip39Passphrase: secure(""), path: .solanaDefault, label: "without", passphrase: secure("p"))
        XCTAssertNotEqual(with.publicKey, without.publicKey, "the passphrase makes another wallet")
        XCTAssertEqual(
            try keystore.read()?.keys.map(\.origin),
            [
                .recoveryPhrase(path: "m/44'/501'/0'/0'", bip39Passphrase: true),
                .recoveryPhrase(path: "m/44'/501'/0'/0'"),
            ])
        XCTAssertTrue(
            String(decoding: try readBytes(keystore.path), as: UTF8.self).contains(#""bip39_passphrase": true}"#))
        try tamper { $0.replacingFirst(#", "bip39_passphrase": true}"#, with: "}") }
        XCTAssertThrowsError(try secretKey("with", "p"), "the flag is sealed with the seed")
    }

    func testVersionOneIsReadAndMigratedByTheNextChangeMadeWithThePassphrase() throws {
        try copyVersionOne()
        let before = try XCTUnwrap(try keystore.read())
        XCTAssertEqual(before.version, 1)
        XCTAssertEqual(before.keys.map(\.label), ["first v1", "second v1"])
        XCTAssertEqual(before.keys.map(\.origin), [.unknown, .unknown])
        XCTAssertEqual(
            try secretKey("first v1", versionOnePassphrase), versionOneSeeds[0] + publicKey(ofSeed: versionOneSeeds[0]))

        // Deleting needs no passphrase, so nothing can be re-sealed: the file stays version 1.
        try keystore.delete("second v1")
        XCTAssertEqual(try keystore.read()?.version, 1)
        XCTAssertTrue(String(decoding: try readBytes(keystore.path), as: UTF8.self).contains(#""version": 1"#))

        // Adding a key has the passphrase: every entry becomes version 2 in the same write.
        try keystore.create(label: "new", passphrase: secure(versionOnePassphrase))
        let after = try XCTUnwrap(try keystore.read())
        XCTAssertEqual(after.version, 2)
        XCTAssertEqual(after.keys.map(\.origin), [.unknown, .generated])
        XCTAssertEqual(after.keys.first?.publicKey, before.keys.first?.publicKey)
        XCTAssertEqual(
            try secretKey("first v1", versionOnePassphrase), versionOneSeeds[0] + publicKey(ofSeed: versionOneSeeds[0]))
    }

    func testAVersionOneFileMigratesOnRenameAndOnAPassphraseChange() throws {
        try copyVersionOne()
        try keystore.rename("first v1", to: "first", passphrase: secure(versionOnePassphrase))
        XCTAssertEqual(try keystore.read()?.version, 2)
        XCTAssertEqual(
            try secretKey("second v1", versionOnePassphrase), versionOneSeeds[1] + publicKey(ofSeed: versionOneSeeds[1])
        )

        try FileManager.default.removeItem(atPath: keystore.path)
        try copyVersionOne()
        try keystore.changePassphrase(from: secure(versionOnePassphrase), to: secure("new one"))
        XCTAssertEqual(try keystore.read()?.version, 2)
        XCTAssertEqual(try secretKey("first v1", "new one").prefix(32).map { $0 }, versionOneSeeds[0])
    }

    func testRenameNeedsTheRightPassphrase() throws {
        try keystore.create(label: "main", passphrase: secure("p"))
        XCTAssertThrowsError(try keystore.rename("main", to: "other", passphrase: secure("wrong"))) { error in
            XCTAssertEqual(error as? KeystoreError, .wrongPassphrase)
        }
        XCTAssertEqual(try keystore.keys().map(\.label), ["main"])
        try keystore.rename("main", to: "other", passphrase: secure("p"))
        XCTAssertEqual(try secretKey("other", "p").count, 64, "the renamed entry still opens")
    }

    /// Whoever can write the file but lacks the passphrase cannot relabel, re-date or re-origin
    /// a key, nor slip in a public key of their own: the entry no longer opens.
    func testPublicMembersAreSealedWithTheSeed() throws {
        let main = try keystore.create(label: "main", passphrase: secure("p"))
        try keystore.create(label: "spare", passphrase: secure("p"))
        let pristine = try readBytes(keystore.path)
        let mallory = Base64.encode(publicKey(ofSeed: Array(repeating: 9, count: 32)))
        let edits: [(String, (String) -> String)] = [
            ("label", { $0.replacingFirst(#""label": "main""#, with: #""label": "savings""#) }),
            ("created", { $0.replacingFirst(main.created, with: "2001-01-01T00:00:00Z") }),
            (
                "origin",
                { $0.replacingFirst(#"{"kind": "generated"}, "nonce""#, with: #"{"kind": "imported"}, "nonce""#) }
            ),
            ("public key", { $0.replacingFirst(main.address, with: mallory) }),
        ]
        for (member, edit) in edits {
            writeBytes(pristine, keystore.path)
            try tamper(edit)
            let file = try XCTUnwrap(try keystore.read())
            XCTAssertThrowsError(try Keystore.unlock(file.keys[0], in: file, passphrase: secure("p")), member) {
                error in
                guard case .keyDamaged = error as? KeystoreError else { return XCTFail("\(member): \(error)") }
            }
            XCTAssertThrowsError(try keystore.verify(passphrase: secure("p")), member)
            XCTAssertEqual(
                try Keystore.unlock(file.keys[1], in: file, passphrase: secure("p")).count, 64,
                "\(member): the other key is untouched")
        }
    }

    /// A version 1 entry cannot be passed off as version 2, nor the other way round.
    func testVersionsCannotBeSwapped() throws {
        try copyVersionOne()
        try tamper {
            $0.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#)
                .replacingOccurrences(
                    of: #"{"public_key""#, with: #"{"type": "ed25519", "origin": {"kind": "unknown"}, "public_key""#)
        }
        let file = try XCTUnwrap(try keystore.read())
        XCTAssertThrowsError(try Keystore.unlock(file.keys[0], in: file, passphrase: secure(versionOnePassphrase)))
    }

    func testBackupRoundTripKeepsLabelsOriginsAndSecrets() throws {
        let main = try keystore.create(label: "main", passphrase: secure("p"))
        let phrase = try BIP39.normalize(
            secure(Array(repeating: "abandon", count: 11).joined(separator: " ") + " about"))
        try keystore.addFromPhrase(
            phrase, bip39Passphrase: secure(""), path: .solanaDefault, label: "phrase", passphrase: secure("p"))
        let secrets = try ["main", "phrase"].map { try secretKey($0, "p") }
        let backupPath = "\(folder)/backups/all.json"

        let written = try keystore.exportBackup(
            [], passphrase: secure("p"), to: backupPath, backupPassphrase: secure("backup pass"))
        XCTAssertEqual(written.map(\.label), ["main", "phrase"])
        XCTAssertEqual(fileMode(backupPath), 0o600)
        XCTAssertThrowsError(
            try keystore.exportBackup([], passphrase: secure("p"), to: backupPath, backupPassphrase: secure("b")),
            "a backup never replaces a file")
        try keystore.delete("main")
        try keystore.delete("phrase")

        XCTAssertThrowsError(
            try keystore.importBackup(from: backupPath, backupPassphrase: secure("p"), passphrase: secure("p"))
        ) { error in
            XCTAssertEqual(
                error as? KeystoreError, .wrongBackupPassphrase(path: backupPath), "the backup has its own passphrase")
        }
        let restored = try keystore.importBackup(
            from: backupPath, backupPassphrase: secure("backup pass"), passphrase: secure("p"))
        XCTAssertEqual(restored.added.map(\.label), ["main", "phrase"])
        XCTAssertEqual(restored.added.map(\.origin), [.generated, .recoveryPhrase(path: "m/44'/501'/0'/0'")])
        XCTAssertEqual(restored.added.first?.created, main.created)
        XCTAssertEqual(try ["main", "phrase"].map { try secretKey($0, "p") }, secrets)

        let again = try keystore.importBackup(
            from: backupPath, backupPassphrase: secure("backup pass"), passphrase: secure("p"))
        XCTAssertEqual(again.added, [])
        XCTAssertEqual(again.alreadyHeld.map(\.label), ["main", "phrase"])
    }

    func testABackupOfNamedKeysAndALabelClashOnRestore() throws {
        try keystore.create(label: "main", passphrase: secure("p"))
        let spare = try keystore.create(label: "spare", passphrase: secure("p"))
        let backupPath = "\(folder)/spare.json"
        XCTAssertEqual(
            try keystore.exportBackup(
                [spare.displayAddress], passphrase: secure("p"), to: backupPath, backupPassphrase: secure("b")
            ).map(\.label), ["spare"])
        XCTAssertThrowsError(
            try keystore.exportBackup(
                ["nobody"], passphrase: secure("p"), to: "\(folder)/x.json", backupPassphrase: secure("b")))
        try keystore.delete("spare")
        try keystore.create(label: "spare", passphrase: secure("p"))  // another key takes the label
        let restored = try keystore.importBackup(
            from: backupPath, backupPassphrase: secure("b"), passphrase: secure("p"))
        XCTAssertEqual(restored.added.map(\.label), ["spare (2)"])
        XCTAssertEqual(restored.added.first?.publicKey, spare.publicKey)
    }

    func testABackupCanStartANewKeystoreAndAVersionOneKeystoreCanBeBackedUp() throws {
        try copyVersionOne()
        let backupPath = "\(folder)/v1-backup.json"
        _ = try keystore.exportBackup(
            ["first v1"], passphrase: secure(versionOnePassphrase), to: backupPath, backupPassphrase: secure("b"))
        let fresh = Keystore(path: "\(folder)/fresh/keystore.json")
        let restored = try fresh.importBackup(
            from: backupPath, backupPassphrase: secure("b"), passphrase: secure("fresh pass"))
        XCTAssertEqual(restored.added.map(\.origin), [.unknown])
        let file = try XCTUnwrap(try fresh.read())
        XCTAssertEqual(
            try Keystore.unlock(file.keys[0], in: file, passphrase: secure("fresh pass")).bytes.prefix(32).map { $0 },
            versionOneSeeds[0])
    }

    func testRawSecretExportGivesTheSecretKey() throws {
        let seed: [UInt8] = Array(40...71)
        try keystore.importKey(secure(seed), label: "k", passphrase: secure("p"))
        let (entry, secret) = try keystore.exportSecretKey("k", passphrase: secure("p"))
        XCTAssertEqual(entry.label, "k")
        XCTAssertEqual(secret.bytes, seed + publicKey(ofSeed: seed))
        XCTAssertThrowsError(try keystore.exportSecretKey("k", passphrase: secure("wrong")))
    }
}
