#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys

/// GetAccounts' cache of the keystore, without a watch (no reader thread is named here): one
/// check per call, and every kind of change seen on the next call. With the watch: FolderWatchTests,
/// and the host's in Tests/system/test_wallet.py.
final class KeystoreReadCacheTests: XCTestCase {
    private var keystore = Keystore(path: "")

    override func setUpWithError() throws {
        useWeakKDF()
        keystore = Keystore(path: "\(temporaryFolder(self))/keystore.json")
    }

    /// The filesystem's clock a minute on: a file written by the test is old enough for its
    /// stamp to vouch for it (`FileChecker.racyWithin`), so the stamp's comparison is what decides.
    static let aMinuteOn: @Sendable () -> Int = { Int(time(nil)) + 60 }

    /// The addresses served, checked against the file they were encoded from.
    private func addresses(_ read: KeystoreReadCache.Contents) -> [String] {
        XCTAssertEqual(read.addresses, read.file?.keys.map(\.address) ?? [], "the cached addresses are the file's")
        return read.addresses
    }

    func testASecondReadOfAnUnchangedFileComesFromTheCache() throws {
        // The filesystem's clock a minute on: the file's stamp is old enough to vouch for it.
        let cache = KeystoreReadCache(filesystemNow: Self.aMinuteOn)
        let entry = try keystore.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        let first = try cache.read(keystore)
        XCTAssertTrue(first.fresh)
        XCTAssertEqual(addresses(first), [entry.address])
        let second = try cache.read(keystore)
        XCTAssertFalse(second.fresh, "the file did not change, so it was not read again")
        XCTAssertEqual(addresses(second), [entry.address])
    }

    /// A file changed within `FileChecker.racyWithin` of the look is read again: its stamp
    /// could be the next version's too (written in the same tick, on the inode this one freed).
    func testAFileChangedJustNowIsReadAgainRatherThanTrustedOnItsStamp() throws {
        // The filesystem's clock stands at the file's own change time, however slow the machine.
        let cache = KeystoreReadCache(filesystemNow: { [path = keystore.path] in
            var info = stat()
            return stat(path, &info) == 0 ? Int(info.st_ctim.tv_sec) : 0
        })
        let entry = try keystore.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        XCTAssertTrue(try cache.read(keystore).fresh)
        let second = try cache.read(keystore)
        XCTAssertTrue(second.fresh, "changed a moment ago: read again")
        XCTAssertEqual(addresses(second), [entry.address])
    }

    func testAKeyAddedByAnotherWriterIsSeenOnTheNextRead() throws {
        let cache = KeystoreReadCache(filesystemNow: Self.aMinuteOn)
        XCTAssertEqual(addresses(try cache.read(keystore)), [], "no keystore yet")
        let first = try keystore.importKey(secure(testSeedA), label: "one", passphrase: secure("right"))
        XCTAssertEqual(addresses(try cache.read(keystore)), [first.address])
        // A writer replaces the file by rename: a new inode.
        let second = try keystore.importKey(secure(testSeedB), label: "two", passphrase: secure("right"))
        let read = try cache.read(keystore)
        XCTAssertTrue(read.fresh)
        XCTAssertEqual(addresses(read), [first.address, second.address])
    }

    func testRequestsReadBeforeTheLastCheckShareItAndLaterOnesCheckAgain() throws {
        let cache = KeystoreReadCache(filesystemNow: Self.aMinuteOn)
        let first = try keystore.importKey(secure(testSeedA), label: "one", passphrase: secure("right"))
        let arrived = ContinuousClock.now  // a batch of requests read at this instant
        XCTAssertEqual(addresses(try cache.read(keystore, notBefore: arrived)), [first.address])
        let second = try keystore.importKey(secure(testSeedB), label: "two", passphrase: secure("right"))
        // Checked after the batch arrived: still a valid answer to it, and no stat is made.
        let sameBatch = try cache.read(keystore, notBefore: arrived)
        XCTAssertFalse(sameBatch.fresh)
        XCTAssertEqual(addresses(sameBatch), [first.address])
        // A request that arrives after the change is checked again and sees it.
        let later = try cache.read(keystore, notBefore: .now)
        XCTAssertTrue(later.fresh)
        XCTAssertEqual(addresses(later), [first.address, second.address])
    }

    func testAnEditInPlaceOfTheSameSizeIsSeen() throws {
        let cache = KeystoreReadCache(filesystemNow: Self.aMinuteOn)
        try keystore.importKey(secure(testSeedA), label: "aaaa", passphrase: secure("right"))
        XCTAssertEqual(try cache.read(keystore).file?.keys.map(\.label), ["aaaa"])
        // Same size, same inode, written in place (as an editor might): mtime and ctime move.
        let original = try readBytes(keystore.path)
        let edited = Array(
            String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"aaaa\"", with: "\"bbbb\"").utf8)
        XCTAssertEqual(edited.count, original.count)
        var before = stat()
        stat(keystore.path, &before)
        // The edit must change the stamps, which the file system takes from a coarse clock.
        // (The probe goes in a folder of its own on the same file system, so that it changes
        // nothing the cache looks at.)
        try waitUntilFilesAreStamped(after: before.st_ctim, in: temporaryFolder(self))
        let fd = open(keystore.path, O_WRONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = edited.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        close(fd)
        var after = stat()
        stat(keystore.path, &after)
        XCTAssertEqual(before.st_ino, after.st_ino, "the edit kept the inode")
        let read = try cache.read(keystore)
        XCTAssertTrue(read.fresh)
        XCTAssertEqual(read.file?.keys.map(\.label), ["bbbb"])
    }

    func testADeletedKeystoreIsNoLongerServed() throws {
        let cache = KeystoreReadCache(filesystemNow: Self.aMinuteOn)
        try keystore.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        XCTAssertEqual(addresses(try cache.read(keystore)).count, 1)
        unlink(keystore.path)
        XCTAssertNil(try cache.read(keystore).file)
    }

    func testAFIFOPutInPlaceIsRefusedNotServedFromTheCache() throws {
        let cache = KeystoreReadCache(filesystemNow: Self.aMinuteOn)
        try keystore.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        XCTAssertEqual(addresses(try cache.read(keystore)).count, 1)
        unlink(keystore.path)
        XCTAssertEqual(mkfifo(keystore.path, 0o600), 0)
        XCTAssertThrowsError(try cache.read(keystore))
    }

    /// The race of another user who can write to the keystore's folder: the keystore taken away,
    /// the check finds no file, and theirs is renamed into place before the read. What is read
    /// then is theirs, and is judged as every other read is.
    func testAFileRenamedInAfterTheCheckFoundNoneIsJudgedByWhoCanChangeIt() throws {
        let folder = String(keystore.path[..<keystore.path.lastIndex(of: "/")!])
        let path = keystore.path, theirs = folder + "/theirs.json"
        let their = try Keystore(path: theirs).importKey(secure(testSeedB), label: "theirs", passphrase: secure("x"))
        let cache = KeystoreReadCache(statFile: { checked, info in
            let found = lstat(checked, info)
            rename(theirs, path)
            return found
        })
        XCTAssertEqual(chmod(folder, 0o777), 0)
        defer { chmod(folder, 0o700) }
        let read = try cache.read(keystore)
        XCTAssertEqual(read.addresses, [their.address], "the race was won: their file was read")
        XCTAssertNotNil(read.changeableByOthers, "and it is not to be given to anyone")
    }
}
