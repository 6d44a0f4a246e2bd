#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import XCTest

/// The count of changes that lets a port trust its copy of the keystore without a `stat`. In
/// this process: `start` aims the signals at the test's thread, so a change is counted before
/// the system call that made it returns. The test ends watching for good (`stopForGood`): the
/// process goes on with other tests, which then `stat` as before.
final class FolderWatchTests: XCTestCase {
    func testChangesAreCountedAtOnceUntilTheFolderIsMovedAway() throws {
        defer { FolderWatch.stopForGood() }
        let folder = temporaryFolder(self)
        XCTAssertFalse(FolderWatch.watch(folder: folder), "no reader thread named: nothing is watched")
        FolderWatch.start()
        XCTAssertTrue(FolderWatch.watch(folder: folder))
        XCTAssertFalse(FolderWatch.watch(folder: "\(folder)/missing"))
        FolderWatch.drain()
        let start = FolderWatch.generation
        usleep(20_000)
        XCTAssertEqual(FolderWatch.generation, start, "nothing changed")

        func write(_ name: String, _ text: String) {
            let fd = open("\(folder)/\(name)", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            XCTAssertGreaterThanOrEqual(fd, 0)
            XCTAssertEqual(text.utf8.count, Array(text.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) })
            close(fd)
        }
        write("keystore.json", "{}")
        let created = FolderWatch.generation
        XCTAssertGreaterThan(created, start, "counted before the writer went on")
        // The same change again: counted only once the queue is emptied (the kernel merges an
        // event into the same one still queued), which is why a `stat` comes after `drain`.
        FolderWatch.drain()
        write("keystore.json", "{}")
        XCTAssertGreaterThan(FolderWatch.generation, created)
        XCTAssertEqual(rename("\(folder)/keystore.json", "\(folder)/renamed.json"), 0)
        let renamed = FolderWatch.generation
        XCTAssertTrue(FolderWatch.isIntact)

        XCTAssertEqual(rename(folder, "\(folder).moved"), 0)
        defer { rename("\(folder).moved", folder) }
        XCTAssertGreaterThan(FolderWatch.generation, renamed)
        FolderWatch.drain()
        XCTAssertFalse(FolderWatch.isIntact, "a moved folder's path may lead to another folder now")
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        XCTAssertFalse(FolderWatch.watch(folder: folder), "nothing is trusted on the count any more")
        rmdir(folder)
    }
}
