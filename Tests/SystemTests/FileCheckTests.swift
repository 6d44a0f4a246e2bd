#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeTestSupport
import XCTest
@_spi(KeptAnswer) import WalletBridgeSystem

/// `FileChecker`: when it tries to watch a file's folder. Not on the first look (a host started
/// for one message never pays for a watch); from the second on; after a failed try, not again
/// before `revalidateAfter`; and never again once watching.
final class FileCheckTests: XCTestCase {
    /// A stamp vouches for its version only once the file has been unchanged for
    /// `racyWithin` seconds of the filesystem's clock: before that, a next version written in
    /// the same tick on the inode this one freed could carry the same stamp.
    func testAStampIsRenewableOnlyOnceTheFileIsOldEnough() throws {
        let path = temporaryFolder(self) + "/keystore.json"
        writeBytes([1], path)
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        let changed = Int(info.st_ctim.tv_sec)
        for (now, renewable) in [
            (changed, false), (changed + FileChecker.racyWithin - 1, false), (changed + FileChecker.racyWithin, true),
        ] {
            let check = FileChecker(filesystemNow: { now }).look(at: path, now: .now)
            XCTAssertNotNil(check.stamp)
            XCTAssertEqual(check.renewableStamp != nil, renewable, "\(now - changed) s after the change")
            if renewable { XCTAssertEqual(check.renewableStamp, check.stamp) }
        }
        let missing = FileChecker(filesystemNow: { changed + 60 }).look(at: path + ".none", now: .now)
        XCTAssertNil(missing.stamp)
        XCTAssertNil(missing.renewableStamp)
    }

    func testTheFolderIsWatchedFromTheSecondLookAndAFailedTryWaitsRevalidateAfter() throws {
        // Watching stops for good in a process where a watched folder went away
        // (`FolderWatchTests`): the checker then never tries, which this test cannot see.
        try XCTSkipUnless(FolderWatch.isIntact, "watching ended for good in this process")
        let folder = temporaryFolder(self)
        let path = "\(folder)/keystore.json"
        writeBytes([1], path)
        let tries = WatchTries()
        let checker = FileChecker(watchFolder: { tries.record($0) })
        let start = ContinuousClock.now

        _ = checker.look(at: path, now: start)
        XCTAssertEqual(tries.folders, [], "tried on the first look")
        tries.answer = false
        _ = checker.look(at: path, now: start)
        XCTAssertEqual(tries.folders, [folder], "not tried on the second look")
        _ = checker.look(at: path, now: start + FileChecker.revalidateAfter - .nanoseconds(1))
        XCTAssertEqual(tries.folders.count, 1, "a failed try was tried again before revalidateAfter")
        tries.answer = true
        _ = checker.look(at: path, now: start + FileChecker.revalidateAfter)
        XCTAssertEqual(tries.folders, [folder, folder], "not tried again at revalidateAfter")
        _ = checker.look(at: path, now: start + .seconds(60))
        XCTAssertEqual(tries.folders.count, 2, "tried again while watching")

        let unwatchable = FileChecker(watchable: false, watchFolder: { tries.record($0) })
        for _ in 0..<3 { XCTAssertNil(unwatchable.look(at: path, now: start + .seconds(60)).generation) }
        XCTAssertEqual(tries.folders.count, 2, "a file on a network filesystem was watched")
    }
}

/// The folders a checker tried to watch, and what the try answers.
private final class WatchTries: Sendable {
    private let state = Mutex<(folders: [String], answer: Bool)>(([], false))
    var folders: [String] { state.withLock { $0.folders } }
    var answer: Bool {
        get { state.withLock { $0.answer } }
        set { state.withLock { $0.answer = newValue } }
    }

    func record(_ folder: String) -> Bool {
        state.withLock { state in
            state.folders.append(folder)
            return state.answer
        }
    }
}
