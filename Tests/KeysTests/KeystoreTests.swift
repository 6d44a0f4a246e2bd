#if canImport(Glibc)
import Glibc
#endif
import Foundation
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys

final class KeystoreTests: XCTestCase {
    private var folder = ""
    private var keystore = Keystore(path: "")

    override func setUp() {
        useWeakKDF()
        folder = temporaryFolder(self)
        keystore = Keystore(path: "\(folder)/store/keystore.json")
    }

    func testNoKeystoreMeansNoKeys() throws {
        XCTAssertFalse(keystore.exists)
        XCTAssertNil(try keystore.read())
        XCTAssertEqual(try keystore.keys(), [])
    }

    func testCreateListAndUnlockAndSign() throws {
        let created = try keystore.create(label: "main", passphrase: secure("pass one"))
        XCTAssertTrue(keystore.exists)
        let file = try XCTUnwrap(try keystore.read())
        XCTAssertEqual(file.keys, [created])
        XCTAssertEqual(created.label, "main")
        XCTAssertEqual(created.publicKey.count, 32)
        XCTAssertEqual(file.kdf.limits, .weakestForTests, "the test-only weak limits were stored in the file")

        let secretKey = try Keystore.unlock(created, in: file, passphrase: secure("pass one"))
        XCTAssertEqual(secretKey.count, 64)
        XCTAssertEqual(Array(secretKey.bytes[32...]), created.publicKey)
        let message = Array("sign me".utf8)
        let signature = secretKey.withUnsafeBytes { Ed25519.sign(message, secretKey: $0) }
        XCTAssertTrue(Ed25519.verify(signature, message: message, publicKey: created.publicKey))
    }

    func testSecondKeyNeedsTheSamePassphraseAndGetsADefaultLabel() throws {
        try keystore.create(label: "first", passphrase: secure("pass"))
        XCTAssertThrowsError(try keystore.create(label: nil, passphrase: secure("other"))) { error in
            XCTAssertEqual(error as? KeystoreError, .wrongPassphrase)
        }
        let second = try keystore.create(label: nil, passphrase: secure("pass"))
        XCTAssertEqual(second.label, "key 2")
        XCTAssertEqual(try keystore.keys().map(\.label), ["first", "key 2"])
        XCTAssertThrowsError(try keystore.create(label: "first", passphrase: secure("pass"))) { error in
            XCTAssertEqual(error as? KeystoreError, .duplicateLabel("first"))
        }
        XCTAssertThrowsError(try keystore.create(label: "bad\nlabel", passphrase: secure("pass"))) { error in
            guard case .invalidLabel? = error as? KeystoreError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try Keystore(path: "\(folder)/other.json").create(label: nil, passphrase: secure(""))) {
            error in
            XCTAssertEqual(error as? KeystoreError, .emptyPassphrase)
        }
    }

    func testWrongPassphraseIsToldApartFromADamagedEntry() throws {
        let entry = try keystore.create(label: "main", passphrase: secure("right"))
        let file = try XCTUnwrap(try keystore.read())
        XCTAssertThrowsError(try Keystore.unlock(entry, in: file, passphrase: secure("wrong"))) { error in
            XCTAssertEqual(error as? KeystoreError, .wrongPassphrase)
        }
        var tampered = file
        tampered.keys[0].sealedSeed.ciphertext[7] ^= 0x40
        XCTAssertThrowsError(try Keystore.unlock(tampered.keys[0], in: tampered, passphrase: secure("right"))) {
            error in
            XCTAssertEqual(error as? KeystoreError, .keyDamaged(address: entry.address))
        }
    }

    func testTamperedCiphertextOnDiskIsAClearError() throws {
        try keystore.create(label: "main", passphrase: secure("right"))
        var text = String(decoding: try readBytes(keystore.path), as: UTF8.self)
        let entry = try XCTUnwrap(try keystore.read()?.keys.first)
        let original = Base64.encode(entry.sealedSeed.ciphertext)
        var altered = entry.sealedSeed.ciphertext
        altered[0] ^= 1
        text = text.replacingFirst(original, with: Base64.encode(altered))
        writeBytes(Array(text.utf8), keystore.path)
        XCTAssertThrowsError(try keystore.verify(passphrase: secure("right"))) { error in
            XCTAssertEqual(error as? KeystoreError, .keyDamaged(address: entry.address))
            XCTAssertTrue("\(error)".contains("altered or corrupted"))
        }
    }

    func testEntriesCannotBeSwappedOrTheirPublicKeyReplaced() throws {
        let first = try keystore.create(label: "a", passphrase: secure("pass"))
        let second = try keystore.create(label: "b", passphrase: secure("pass"))
        let file = try XCTUnwrap(try keystore.read())

        // Seed of `a` filed under the public key of `b`: the associated data no longer matches.
        var swapped = file
        swapped.keys[1].sealedSeed = file.keys[0].sealedSeed
        XCTAssertThrowsError(try Keystore.unlock(swapped.keys[1], in: swapped, passphrase: secure("pass"))) { error in
            XCTAssertEqual(error as? KeystoreError, .keyDamaged(address: second.address))
        }
        // An attacker's public key put in front of a victim's ciphertext.
        var replaced = file
        replaced.keys[0].publicKey = publicKey(ofSeed: testSeedA)
        XCTAssertThrowsError(try Keystore.unlock(replaced.keys[0], in: replaced, passphrase: secure("pass"))) { error in
            guard case .keyDamaged? = error as? KeystoreError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try Keystore.unlock(first, in: file, passphrase: secure("pass")).count, 64)
    }

    func testPassphraseCheckFromAnotherKeystoreDoesNotOpenThisOne() throws {
        try keystore.create(label: "a", passphrase: secure("mine"))
        let other = Keystore(path: "\(folder)/other/keystore.json")
        try other.create(label: "b", passphrase: secure("theirs"))
        var mine = try XCTUnwrap(try keystore.read())
        let theirs = try XCTUnwrap(try other.read())
        // The attacker copies their own salt and check into my file, hoping "theirs" opens it.
        mine.kdf = theirs.kdf
        mine.passphraseCheck = theirs.passphraseCheck
        XCTAssertThrowsError(try Keystore.unlock(mine.keys[0], in: mine, passphrase: secure("theirs"))) { error in
            guard case .keyDamaged? = error as? KeystoreError else { return XCTFail("\(error)") }
        }
    }

    func testChangePassphraseReencryptsEverything() throws {
        let a = try keystore.create(label: "a", passphrase: secure("old"))
        let b = try keystore.create(label: "b", passphrase: secure("old"))
        let before = try XCTUnwrap(try keystore.read())
        try keystore.changePassphrase(from: secure("old"), to: secure("new"))
        let after = try XCTUnwrap(try keystore.read())
        XCTAssertNotEqual(after.kdf.salt, before.kdf.salt, "fresh salt")
        XCTAssertNotEqual(after.keys[0].sealedSeed.nonce, before.keys[0].sealedSeed.nonce, "fresh nonces")
        XCTAssertEqual(after.keys.map(\.publicKey), [a.publicKey, b.publicKey])
        XCTAssertEqual(try keystore.verify(passphrase: secure("new")), 2)
        XCTAssertThrowsError(try keystore.verify(passphrase: secure("old"))) { error in
            XCTAssertEqual(error as? KeystoreError, .wrongPassphrase)
        }
        XCTAssertThrowsError(try keystore.changePassphrase(from: secure("old"), to: secure("x"))) { error in
            XCTAssertEqual(error as? KeystoreError, .wrongPassphrase)
        }
        XCTAssertThrowsError(try keystore.changePassphrase(from: secure("new"), to: secure(""))) { error in
            XCTAssertEqual(error as? KeystoreError, .emptyPassphrase)
        }
        XCTAssertEqual(try keystore.read(), after, "a refused change writes nothing")
    }

    func testImportSeedAndSecretKeyAndRefuseMismatchedHalves() throws {
        let fromSeed = try keystore.importKey(secure(testSeedA), label: "seed", passphrase: secure("p"))
        XCTAssertEqual(fromSeed.publicKey, publicKey(ofSeed: testSeedA))
        XCTAssertThrowsError(try keystore.importKey(secure(testSeedA), label: "again", passphrase: secure("p"))) {
            error in
            XCTAssertEqual(error as? KeystoreError, .duplicateKey(address: fromSeed.address))
        }
        let secretKey = testSeedB + publicKey(ofSeed: testSeedB)
        let fromSecretKey = try keystore.importKey(secure(secretKey), label: "sk", passphrase: secure("p"))
        XCTAssertEqual(fromSecretKey.publicKey, publicKey(ofSeed: testSeedB))

        let mismatched = [UInt8](repeating: 0xC3, count: 32) + publicKey(ofSeed: testSeedB)
        XCTAssertThrowsError(try keystore.importKey(secure(mismatched), label: "bad", passphrase: secure("p"))) {
            error in
            guard case .invalidSecretKey(let reason)? = error as? KeystoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("not the public key"))
        }
        XCTAssertThrowsError(try keystore.importKey(secure([1, 2, 3]), label: "short", passphrase: secure("p")))
        let file = try XCTUnwrap(try keystore.read())
        let unlocked = try Keystore.unlock(fromSecretKey, in: file, passphrase: secure("p"))
        XCTAssertEqual(unlocked.bytes, secretKey)
    }

    func testRenameAndDeleteSelectByAddressOrLabel() throws {
        let a = try keystore.create(label: "a", passphrase: secure("p"))
        let b = try keystore.create(label: "b", passphrase: secure("p"))
        XCTAssertEqual(try keystore.rename(a.displayAddress, to: "savings", passphrase: secure("p")).label, "savings")
        XCTAssertThrowsError(try keystore.rename("savings", to: "b", passphrase: secure("p"))) { error in
            XCTAssertEqual(error as? KeystoreError, .duplicateLabel("b"))
        }
        XCTAssertEqual(
            try keystore.rename("savings", to: "savings", passphrase: secure("p")).label, "savings",
            "renaming to the same label is fine")
        XCTAssertThrowsError(try keystore.rename("nobody", to: "x", passphrase: secure("p"))) { error in
            XCTAssertEqual(error as? KeystoreError, .noSuchKey("nobody"))
        }
        XCTAssertEqual(try keystore.delete(b.address).publicKey, b.publicKey)
        XCTAssertEqual(try keystore.keys().map(\.label), ["savings"])
        try keystore.delete("savings")
        XCTAssertEqual(try keystore.keys(), [])
        XCTAssertThrowsError(try keystore.create(label: nil, passphrase: secure("other"))) { error in
            XCTAssertEqual(error as? KeystoreError, .wrongPassphrase, "an empty keystore keeps its passphrase")
        }
    }

    func testFileIs0600InA0700FolderWhateverTheUmask() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        try keystore.create(label: "main", passphrase: secure("p"))
        XCTAssertEqual(fileMode(keystore.path), 0o600)
        XCTAssertEqual(fileMode("\(folder)/store"), 0o700)
        XCTAssertEqual(keystore.exposureWarnings(), [])
        chmod(keystore.path, 0o644)
        XCTAssertEqual(keystore.exposureWarnings().count, 1)
        try keystore.rename("main", to: "renamed", passphrase: secure("p"))
        XCTAssertEqual(fileMode(keystore.path), 0o600, "every write restores 0600")
    }

    func testNoTemporaryFilesAreLeftAndStaleOnesAreRemoved() throws {
        try keystore.create(label: "main", passphrase: secure("p"))
        XCTAssertEqual(directoryEntries("\(folder)/store"), ["keystore.json"])
        // What a writer killed before its rename leaves behind.
        writeBytes(Array("half a keystore".utf8), "\(folder)/store/.keystore.json.tmp-99999-abc")
        XCTAssertEqual(try keystore.keys().count, 1, "readers ignore leftovers")
        try keystore.create(label: "second", passphrase: secure("p"))
        XCTAssertEqual(directoryEntries("\(folder)/store"), ["keystore.json"])
    }

    func testConcurrentWritersDoNotLoseEachOthersKeys() throws {
        try keystore.create(label: "seed", passphrase: secure("p"))
        let store = keystore
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            do {
                try store.create(label: "parallel \(index)", passphrase: secure("p"))
            } catch {
                XCTFail("\(error)")
            }
        }
        XCTAssertEqual(try keystore.keys().count, 9)
    }

    func testUnreadableAndOddPathsGiveClearErrors() throws {
        mkdir("\(folder)/afolder", 0o700)
        XCTAssertThrowsError(try Keystore(path: "\(folder)/afolder").read()) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
        writeBytes([UInt8](repeating: 0x20, count: KeystoreFile.maxFileBytes + 1), "\(folder)/huge.json")
        XCTAssertThrowsError(try Keystore(path: "\(folder)/huge.json").read()) { error in
            guard case .damaged? = error as? KeystoreError else { return XCTFail("\(error)") }
        }
    }

    func testAFIFOAtTheKeystorePathIsRefusedAtOnceInsteadOfWaitedOn() throws {
        // Opening a FIFO for reading waits for a writer: GetAccounts and `keys list` hung.
        XCTAssertEqual(mkfifo("\(folder)/keystore.json", 0o600), 0)
        let started = ContinuousClock.now
        XCTAssertThrowsError(try Keystore(path: "\(folder)/keystore.json").keys()) { error in
            XCTAssertEqual(
                "\(error)", "cannot read \(folder)/keystore.json: it is a FIFO (named pipe), not a regular file")
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
    }

    func testASymlinkedKeystoreIsWrittenThroughAndStaysALink() throws {
        // Say the real file lives in a synced folder and the usual path links to it.
        let synced = "\(folder)/synced"
        mkdir(synced, 0o700)
        let real = Keystore(path: "\(synced)/keystore.json")
        let created = try real.create(label: "main", passphrase: secure("pass"))
        mkdir("\(folder)/store", 0o700)
        XCTAssertEqual(symlink("\(synced)/keystore.json", keystore.path), 0)

        try keystore.rename("main", to: "renamed", passphrase: secure("pass"))
        try keystore.create(label: "second", passphrase: secure("pass"))
        var info = stat()
        XCTAssertEqual(lstat(keystore.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link was replaced by a plain file")
        XCTAssertEqual(try real.keys().map(\.label), ["renamed", "second"], "the link's target got the changes")
        XCTAssertEqual(try real.keys().first?.publicKey, created.publicKey)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: "\(folder)/store"), ["keystore.json"],
            "nothing left beside the link")

        // A link to nowhere is an error, not a plain file put in its place.
        unlink("\(synced)/keystore.json")
        XCTAssertThrowsError(try keystore.create(label: "x", passphrase: secure("pass"))) { error in
            XCTAssertTrue("\(error)".contains("cannot follow the symbolic link \(keystore.path)"), "\(error)")
        }
        XCTAssertEqual(lstat(keystore.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK)
    }
}
