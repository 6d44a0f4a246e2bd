#if canImport(Glibc)
import Glibc
#endif
@testable import WalletBridgeAgent
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem

/// Where the agent's socket lives: the runtime folder, or without one a private folder in the
/// home, never a name in /tmp that another user could make first.
final class AgentPathsTests: XCTestCase {
    private func folders(_ variables: [String: String]) -> UserFolders {
        UserFolders(variable: { variables[$0] }, userID: getuid())
    }

    func testWithoutARuntimeFolderTheAgentsFolderIsInTheHomeNotInTmp() {
        XCTAssertEqual(
            AgentPaths.folder(folders(["HOME": "/home/me", "XDG_RUNTIME_DIR": "/run/user/1000"])),
            "/run/user/1000/wallet-bridge")
        XCTAssertEqual(AgentPaths.folder(folders(["HOME": "/home/me"])), "/home/me/.cache/wallet-bridge/run")
        XCTAssertEqual(
            AgentPaths.folder(folders(["HOME": "/home/me", "XDG_CACHE_HOME": "/c"])), "/c/wallet-bridge/run")
        // A relative XDG value is ignored, as the specification says.
        XCTAssertEqual(
            AgentPaths.folder(folders(["HOME": "/home/me", "XDG_RUNTIME_DIR": "run"])),
            "/home/me/.cache/wallet-bridge/run")
        let paths = AgentPaths.forKeystore(
            "/home/me/.local/share/wallet-bridge/keystore.json", folders: folders(["HOME": "/home/me"]))
        XCTAssertTrue(paths.socket.hasPrefix("/home/me/.cache/wallet-bridge/run/agent-"), paths.socket)
    }

    func testTheFallbackFolderIsMadePrivateWithItsParentsAndAnotherUsersIsRefusedWithAFixThatWorks() throws {
        let home = temporaryFolder(self)
        let user = folders(["HOME": home])
        let folder = AgentPaths.folder(user)
        XCTAssertEqual(folder, "\(home)/.cache/wallet-bridge/run")
        try AgentPaths.prepare(folder, folders: user)
        var info = stat()
        XCTAssertEqual(stat(folder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        XCTAssertEqual(info.st_uid, getuid())

        chmod(folder, 0o755)
        XCTAssertThrowsError(try AgentPaths.prepare(folder, folders: user)) { error in
            XCTAssertEqual((error as? AgentPaths.Unsafe)?.fix, "run `chmod 700 \(folder)`")
        }
        chmod(folder, 0o700)
        guard getuid() == 0 else { return }  // only root can make a folder another user's
        XCTAssertEqual(chown(folder, 65534, 65534), 0)
        XCTAssertThrowsError(try AgentPaths.prepare(folder, folders: user)) { error in
            // In the home folder, "remove it" is advice its owner can follow.
            XCTAssertEqual((error as? AgentPaths.Unsafe)?.fix, "remove it; the next request makes a new one")
        }
    }

    func testTheFallbackFoldersParentsMustNotBeChangeableByOthers() throws {
        let home = temporaryFolder(self)
        let user = folders(["HOME": home])
        let folder = AgentPaths.folder(user)
        try AgentPaths.prepare(folder, folders: user)
        for parent in ["\(home)/.cache/wallet-bridge", "\(home)/.cache", home] {
            XCTAssertEqual(chmod(parent, 0o777), 0)
            XCTAssertThrowsError(try AgentPaths.prepare(folder, folders: user), parent) { error in
                let fix = (error as? AgentPaths.Unsafe)?.fix ?? ""
                XCTAssertTrue(fix.contains("other users can write to the folder \(parent)"), fix)
                XCTAssertTrue(fix.contains("chmod go-w \(parent)"), fix)
            }
            XCTAssertThrowsError(
                try AgentPaths.check(folder, missingIsFine: true, home: home), "a client checks it too")
            XCTAssertEqual(chmod(parent, 0o755), 0)
        }
        XCTAssertNoThrow(try AgentPaths.prepare(folder, folders: user))
        // A folder writable by all with the sticky bit (/tmp) keeps others from renaming ours.
        XCTAssertEqual(chmod(home, 0o1777), 0)
        XCTAssertNoThrow(try AgentPaths.prepare(folder, folders: user))
        XCTAssertEqual(chmod(home, 0o700), 0)
    }

    func testAMissingRuntimeFolderIsNotMadeAndTheAdviceNamesTheFallback() {
        let scratch = temporaryFolder(self)
        let user = folders(["HOME": "/home/me", "XDG_RUNTIME_DIR": "\(scratch)/gone"])
        XCTAssertThrowsError(try AgentPaths.prepare(AgentPaths.folder(user), folders: user)) { error in
            let fix = (error as? AgentPaths.Unsafe)?.fix ?? ""
            XCTAssertTrue(fix.contains("XDG_RUNTIME_DIR names \(scratch)/gone, which does not exist"), fix)
            XCTAssertTrue(fix.contains("/home/me/.cache/wallet-bridge/run"), fix)
        }
        XCTAssertFalse(FileManagerFree.exists("\(scratch)/gone"))
    }
}

private enum FileManagerFree {
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }
}
