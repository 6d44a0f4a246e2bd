#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys
@testable import WalletBridgeSystem

/// `AtomicFile` reports its own error; the keystore says it in the words it always used.
final class AtomicFileTests: XCTestCase {
    func testAPathSplitsAtItsLastSlashByteAsTheKernelSplitsIt() {
        XCTAssertTrue(AtomicFile.split("/home/me/keys.json") == ("/home/me", "keys.json"))
        XCTAssertTrue(AtomicFile.split("/keys.json") == ("/", "keys.json"))
        XCTAssertTrue(AtomicFile.split("keys.json") == (".", "keys.json"))
        XCTAssertTrue(AtomicFile.split("/home/me/") == ("/home/me", ""))
        XCTAssertTrue(AtomicFile.split("/home/mé/clé.json") == ("/home/mé", "clé.json"))
        // A combining mark after a slash makes one Character of the two, yet the kernel still
        // separates there: so must the folder walks and atomic writes.
        XCTAssertTrue(AtomicFile.split("/home/me/\u{301}x") == ("/home/me", "\u{301}x"))
    }

    func testAFolderThatIsAFileIsAnAtomicFileError() throws {
        let file = temporaryFolder(self) + "/plain"
        try AtomicFile.replace(file, with: [1], mode: 0o600)
        XCTAssertThrowsError(try AtomicFile.ensureFolder(file)) { error in
            let expected = AtomicFileError(path: file, operation: "use", reason: "not a folder")
            XCTAssertEqual(error as? AtomicFileError, expected)
            XCTAssertEqual("\(error)", "cannot use \(file): not a folder")
        }
    }

    func testTheKeystoreSaysItAsIO() throws {
        let file = temporaryFolder(self) + "/plain"
        try AtomicFile.replace(file, with: [1], mode: 0o600)
        // A keystore whose folder is a file: its first key has nowhere to go.
        let keystore = Keystore(path: file + "/keystore.json")
        XCTAssertThrowsError(try keystore.create(label: "main", passphrase: secure("pass"))) { error in
            XCTAssertEqual(error as? KeystoreError, .io(path: file, operation: "use", reason: "not a folder"))
            XCTAssertEqual("\(error)", "cannot use \(file): not a folder")
        }
    }

    func testALockFailureBecomesTheCallersError() {
        let missing = temporaryFolder(self) + "/missing"
        XCTAssertThrowsError(
            try AtomicFile.withFolderLock(missing, failed: KeystoreError.init) { () throws(KeystoreError) in }
        ) { error in
            let reason = String(cString: strerror(ENOENT))
            XCTAssertEqual(error as? KeystoreError, .io(path: missing, operation: "open the folder", reason: reason))
        }
    }
}
