#if canImport(Glibc)
import Glibc
#endif
import Synchronization
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem

/// ssh's StrictModes for the configuration, the keystore and the sessions file: the file, and
/// every folder above it up to the home folder.
final class ChangeableByOthersTests: XCTestCase {
    private var root = ""
    private var home: String { root + "/home" }
    private var path: String { home + "/.config/wallet-bridge/config.json" }

    override func setUpWithError() throws {
        root = temporaryFolder(self)
        chmod(root, 0o755)
        for folder in [home, home + "/.config", home + "/.config/wallet-bridge"] {
            XCTAssertEqual(mkdir(folder, 0o755), 0)
        }
        writeBytes(Array("{}".utf8), path)
    }

    /// This user's private group in `groups`, which every other group is not.
    private let ownGroup: gid_t = 4242
    /// The accounts as the tests say: this user "me", whose primary group is `ownGroup`, named
    /// "me" and with nobody else in it; every other group is "staff", with "bob" in it.
    private var groups = UserGroups(
        me: { .init(name: "me", group: 4242) },
        group: { $0 == 4242 ? .init(name: "me", members: []) : .init(name: "staff", members: ["bob"]) },
        primaryMembers: { $0 == 4242 ? ["me"] : [] })

    private func reason(_ path: String? = nil) -> String? {
        ChangeableByOthers.reason(for: path ?? self.path, home: home, groups: groups)
    }

    func testEveryFolderUpToTheHomeFolderIsChecked() {
        XCTAssertNil(reason())
        for folder in [home + "/.config/wallet-bridge", home + "/.config", home] {
            chmod(folder, 0o757)
            XCTAssertEqual(
                reason(), "other users can write to the folder \(folder) (mode 0757); run: chmod go-w \(folder)")
            chmod(folder, 0o775)
            XCTAssertEqual(
                reason(),
                "other users can write to the folder \(folder) (mode 0775: writable by its group, the group staff (gid \(getgid())), which is not your own private group (a group named me that is your primary group and has only you in it)); run: chmod go-w \(folder)"
            )
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
            reason(),
            "other users can write to the folder \(home)/.config (mode 0777); run: chmod go-w \(home)/.config",
            "whoever can write there could have taken the file away")
    }

    func testOutsideTheHomeFolderTheWalkGoesToTheRootAndStickyFoldersAreFine() {
        let outside = root + "/elsewhere/deeper/keystore.json"
        XCTAssertEqual(mkdir(root + "/elsewhere", 0o755), 0)
        XCTAssertEqual(mkdir(root + "/elsewhere/deeper", 0o755), 0)
        XCTAssertNil(reason(outside), "the temporary folder is sticky, as /tmp is")
        chmod(root, 0o777)
        XCTAssertEqual(
            reason(outside), "other users can write to the folder \(root) (mode 0777); run: chmod go-w \(root)")
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
        XCTAssertEqual(
            reason(), "other users can write to the folder \(root) (mode 0777); run: chmod go-w \(root)",
            "above the file it leads to")
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
        XCTAssertEqual(
            reason(),
            "the folder \(home)/.config belongs to another user (uid 65534); run: sudo chown 0 \(home)/.config")
    }

    /// Where every user has a group of their own (umask 002), `~/.config` is 0775 and its group
    /// is the user's private group: writable by nobody else, as Debian's ssh accepts.
    func testWritableByThisUsersOwnPrivateGroupIsFine() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give a folder another group") }
        for target in [home + "/.config", path] { XCTAssertEqual(chown(target, getuid(), ownGroup), 0) }
        chmod(home + "/.config", 0o2775)
        chmod(path, 0o660)
        XCTAssertNil(reason(), "its own private group, nobody else in it")
        chmod(path, 0o600)  // the folder's group is judged below

        let folder = home + "/.config"
        func refused(_ why: String, line: UInt = #line) {
            XCTAssertEqual(
                reason(),
                "other users can write to the folder \(folder) (mode 02775: writable by its group, \(why)); run: chmod go-w \(folder)",
                line: line)
        }
        let privateGroup = groups
        let notMine =
            "which is not your own private group (a group named me that is your primary group and has only you in it)"
        groups.group = { _ in .init(name: "me", members: ["me", "bob"]) }
        refused("the group me (gid 4242), which has other members: bob")
        groups = privateGroup
        groups.primaryMembers = { _ in ["me", "carol"] }
        refused("the group me (gid 4242), which has other members: carol")
        groups = privateGroup
        groups.group = { _ in .init(name: "family", members: []) }
        refused("the group family (gid 4242), \(notMine)")
        groups = privateGroup
        groups.me = { .init(name: "me", group: 100) }
        refused("the group me (gid 4242), \(notMine)")
        groups = privateGroup
        groups.group = { _ in nil }
        refused("the group 4242, which has no name (only a private group of yours alone is accepted)")
        groups = privateGroup
        groups.me = { nil }
        refused("the group me (gid 4242), and this user has no account entry to check it against")

        groups = privateGroup
        chmod(home + "/.config", 0o2777)
        XCTAssertEqual(
            reason(), "other users can write to the folder \(folder) (mode 02777); run: chmod go-w \(folder)",
            "others are others")
    }

    /// The verdict on a group is looked up once per group for the life of the process: a host
    /// checks several files on every cold call and the agent at every connection, and walking
    /// every account (`getpwent`) can take seconds with a directory service (issue 33 round 2
    /// review, SHOULD 5).
    func testAGroupsAccountsAreLookedUpOncePerGroup() {
        let calls = Mutex<[String: Int]>([:])
        @Sendable func count(_ name: String) { calls.withLock { $0[name, default: 0] += 1 } }
        let counted = UserGroups(
            me: {
                count("me"); return .init(name: "me", group: 4242)
            },
            group: { gid in
                count("group \(gid)");
                return gid == 4242 ? .init(name: "me", members: []) : .init(name: "staff", members: ["bob"])
            },
            primaryMembers: { gid in
                count("primary \(gid)"); return gid == 4242 ? ["me"] : []
            })
        for _ in 0..<5 {
            XCTAssertNil(counted.whyShared(4242))
            XCTAssertEqual(
                counted.whyShared(100),
                "the group staff (gid 100), which is not your own private group (a group named me that is your primary group and has only you in it)"
            )
        }
        let copy = counted
        XCTAssertNil(copy.whyShared(4242), "a copy shares what was looked up")
        XCTAssertEqual(calls.withLock { $0 }, ["me": 2, "group 4242": 1, "primary 4242": 1, "group 100": 1])

        var changed = counted
        changed.primaryMembers = { _ in ["me", "carol"] }
        XCTAssertEqual(
            changed.whyShared(4242), "the group me (gid 4242), which has other members: carol",
            "other lookups, other verdicts")
    }

    func testTheSystemsAccountsAreRead() throws {
        let me = try XCTUnwrap(UserGroups.system.me())
        XCTAssertEqual(me.name, String(cString: getpwuid(getuid())!.pointee.pw_name))
        XCTAssertEqual(me.group, getpwuid(getuid())!.pointee.pw_gid)
        XCTAssertEqual(UserGroups.system.group(me.group)?.name, String(cString: getgrgid(me.group)!.pointee.gr_name))
        XCTAssertTrue(UserGroups.system.primaryMembers(me.group).contains(me.name))
        XCTAssertNotNil(UserGroups.system.whyShared(3_999_999), "a group with no entry")
    }
}
