#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeTestSupport
import XCTest
import WalletBridgeSystem

/// The count of changes that lets a port trust its copy of the keystore without a `stat`. In
/// this process: `start` aims the signals at the test's thread, so a change is counted before
/// the system call that made it returns. The test ends watching for good (`stopForGood`): the
/// process goes on with other tests, which then `stat` as before.
final class FolderWatchTests: XCTestCase {
    func testChangesAreCountedAtOnceUntilTheFolderIsMovedAway() throws {
        defer { FolderWatch.stopForGood() }
        let folder = temporaryFolder(self)
        let file = "\(folder)/keystore.json"
        XCTAssertFalse(FolderWatch.watch(folder: folder), "no reader thread named: nothing is watched")
        FolderWatch.start()
        XCTAssertTrue(FolderWatch.watch(folder: folder))
        XCTAssertFalse(FolderWatch.watch(folder: "\(folder)/missing"))
        XCTAssertTrue(FolderWatch.drain())
        let start = FolderWatch.generation
        // What is not a change of the watched folder counts nothing: a file made in another
        // folder, and a look at the watched one. (Nothing to wait for: a change is counted
        // before the call that made it returns.)
        let elsewhere = temporaryFolder(self)
        let unwatched = open("\(elsewhere)/other.json", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(unwatched, 0)
        close(unwatched)
        var info = stat()
        XCTAssertEqual(stat(folder, &info), 0)
        XCTAssertEqual(FolderWatch.generation, start, "nothing of the watched folder changed")

        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let created = FolderWatch.generation
        XCTAssertGreaterThan(created, start, "counted before the writer went on")
        XCTAssertTrue(FolderWatch.drain())

        // Another subscriber's thread reads the same queue and would take the first event
        // before the second could merge into it: an earlier test's port may still be ending.
        try waitUntil("an earlier test's subscription is closed") { FolderWatch.subscriberCount == 0 }
        XCTAssertTrue(FolderWatch.drain())
        let quietGeneration = FolderWatch.generation
        // The same change twice: the kernel merges the second event into the first, still
        // queued, and sends no signal for it. Once the queue is emptied, it counts again: why
        // `drain` comes before the `stat` the count vouches for.
        XCTAssertEqual(chmod(file, 0o640), 0)
        let changed = FolderWatch.generation
        XCTAssertGreaterThan(changed, quietGeneration)
        XCTAssertEqual(chmod(file, 0o640), 0)
        XCTAssertEqual(FolderWatch.generation, changed, "merged into the queued event: not signalled")
        XCTAssertTrue(FolderWatch.drain())
        XCTAssertEqual(chmod(file, 0o640), 0)
        XCTAssertGreaterThan(FolderWatch.generation, changed, "after the drain, the same change is signalled")

        XCTAssertEqual(rename(file, "\(folder)/renamed.json"), 0)
        let renamed = FolderWatch.generation
        XCTAssertTrue(FolderWatch.drain())
        XCTAssertTrue(FolderWatch.isIntact)

        // Another thread's watch of another folder (a host's of the agent's) on the same
        // instance: its events signal the reader too, since the signal is the instance's.
        let other = temporaryFolder(self)
        let subscription = try XCTUnwrap(FolderWatch.subscribe(folder: other, mask: UInt32(IN_CLOSE_WRITE)))
        defer { subscription.end() }
        XCTAssertNotEqual(fcntl(subscription.descriptor, F_GETFL) & O_ASYNC, 0)
        writeBytes([1], "\(other)/events")
        XCTAssertGreaterThan(FolderWatch.generation, renamed, "an event in a subscriber's folder is signalled")
        let beforeMove = FolderWatch.generation
        XCTAssertEqual(subscription.next().map(\.name), ["events"])

        XCTAssertEqual(rename(folder, "\(folder).moved"), 0)
        defer { rename("\(folder).moved", folder) }
        XCTAssertGreaterThan(FolderWatch.generation, beforeMove)
        // The subscriber reads the queue first, and with it the keystore folder's end: the
        // reader is signalled no more, though `drain` never gets to read that end.
        XCTAssertEqual(subscription.next(), [])
        XCTAssertFalse(FolderWatch.isIntact)
        XCTAssertEqual(
            fcntl(subscription.descriptor, F_GETFL) & O_ASYNC, 0, "the reader still takes a signal per change")
        let afterEnd = FolderWatch.generation
        writeBytes([2], "\(other)/events")
        XCTAssertEqual(FolderWatch.generation, afterEnd, "signalled after the keystore folder went")
        XCTAssertFalse(FolderWatch.drain(), "a moved folder's path may lead to another folder now")
        XCTAssertFalse(FolderWatch.isIntact)
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        XCTAssertFalse(FolderWatch.watch(folder: folder), "nothing is trusted on the count any more")
        rmdir(folder)
    }
}
