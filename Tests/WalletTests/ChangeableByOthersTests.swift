#if canImport(Glibc)
import Glibc
#endif
@testable import WalletBridgeWallet
import XCTest

/// ssh's StrictModes for the configuration, the keystore and the sessions file: the file, and
/// every folder above it up to the home folder.
final class ChangeableByOthersTests: XCTestCase {
    private var root = ""
    private var home: String { root + "/home" }
    private var path: String { home + "/.config/wallet-bridge/config.json" }

    override func setUpWithError() throws {
        root = temporaryFolder(self)
        chmod(root, 0o755)
        for folder in [home, home + "/.config", home + "/.config/wallet-bridge"] { XCTAssertEqual(mkdir(folder, 0o755), 0) }
        writeBytes(Array("{}".utf8), path)
    }

    private func reason(_ path: String? = nil) -> String? { ChangeableByOthers.reason(for: path ?? self.path, home: home) }

    func testEveryFolderUpToTheHomeFolderIsChecked() {
        XCTAssertNil(reason())
        for folder in [home + "/.config/wallet-bridge", home + "/.config", home] {
            chmod(folder, 0o775)
            XCTAssertEqual(reason(), "other users can write to the folder \(folder) (mode 0775); run: chmod go-w \(folder)")
            chmod(folder, 0o755)
        }
        chmod(root, 0o777)
        XCTAssertNil(reason(), "above the home folder is not looked at")
    }

    func testAMissingFileIsJudgedByTheFoldersThatExist() {
        unlink(path)
        XCTAssertNil(reason(), "missing, in folders only this user can change")
        rmdir(home + "/.config/wallet-bridge")
        chmod(home + "/.config", 0o777)
        XCTAssertEqual(
            reason(), "other users can write to the folder \(home)/.config (mode 0777); run: chmod go-w \(home)/.config",
            "whoever can write there could have taken the file away")
    }

    func testOutsideTheHomeFolderTheWalkGoesToTheRootAndStickyFoldersAreFine() {
        let outside = root + "/elsewhere/deeper/keystore.json"
        XCTAssertEqual(mkdir(root + "/elsewhere", 0o755), 0)
        XCTAssertEqual(mkdir(root + "/elsewhere/deeper", 0o755), 0)
        XCTAssertNil(reason(outside), "the temporary folder is sticky, as /tmp is")
        chmod(root, 0o777)
        XCTAssertEqual(reason(outside), "other users can write to the folder \(root) (mode 0777); run: chmod go-w \(root)")
        chmod(root, 0o1777)
        XCTAssertNil(reason(outside))
    }

    func testALinkIsJudgedAlongBothWays() {
        let elsewhere = root + "/elsewhere"
        XCTAssertEqual(mkdir(elsewhere, 0o755), 0)
        writeBytes(Array("{}".utf8), elsewhere + "/real.json")
        unlink(path)
        XCTAssertEqual(symlink(elsewhere + "/real.json", path), 0)
        XCTAssertNil(reason())
        chmod(root, 0o777)
        XCTAssertEqual(reason(), "other users can write to the folder \(root) (mode 0777); run: chmod go-w \(root)", "above the file it leads to")
    }

    func testALinkThatLeadsNowhereIsJudgedByWhereItLeads() {
        let elsewhere = root + "/elsewhere"
        XCTAssertEqual(mkdir(elsewhere, 0o777), 0)
        chmod(elsewhere, 0o777)
        unlink(path)
        XCTAssertEqual(symlink(elsewhere + "/gone.json", path), 0)
        XCTAssertEqual(
            reason(), "other users can write to the folder \(elsewhere) (mode 0777); run: chmod go-w \(elsewhere)",
            "whoever can write there decides whether the file exists")
    }

    func testAFolderOfAnotherUserAboveTheFileIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give a folder to another user") }
        XCTAssertEqual(chown(home + "/.config", 65534, 65534), 0)
        XCTAssertEqual(reason(), "the folder \(home)/.config belongs to another user (uid 65534); run: sudo chown 0 \(home)/.config")
    }
}
