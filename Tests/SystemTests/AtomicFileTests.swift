#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys
@testable import WalletBridgeSystem

/// `AtomicFile` reports its own error; the keystore says it in the words it always used.
final class AtomicFileTests: XCTestCase {
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
