import WalletBridgeKeys
import WalletBridgeTestSupport
import XCTest

/// A new key's `created` time comes from the keystore's wall clock (`Keystore.wall`).
final class KeystoreClockTests: XCTestCase {
    func testANewKeysCreationTimeIsReadFromTheKeystoresWallClock() throws {
        useWeakKDF()
        var keystore = Keystore(path: "\(temporaryFolder(self))/store/keystore.json")
        keystore.wall = ManualClock(wall: 1_800_000_000).clocks.wall
        let created = try keystore.create(label: "main", passphrase: secure("pass one"))
        XCTAssertEqual(created.created, "2027-01-15T08:00:00Z")
        XCTAssertEqual(try keystore.read()?.keys.first?.created, "2027-01-15T08:00:00Z")
    }
}
