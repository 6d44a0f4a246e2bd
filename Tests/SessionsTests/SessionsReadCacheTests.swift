#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeKeys
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSessions

/// The sessions file as a looking host keeps it (`SessionsReadCache`): what it answers is what
/// `SessionStore.peek` answers for the file as it stands, on every call.
final class SessionsReadCacheTests: XCTestCase {
    private let chrome = SessionCaller(.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"))
    private let other = SessionCaller(.chromeExtension(origin: "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"))

    private func peek(_ cache: SessionsReadCache, _ path: String, _ clock: ManualClock) -> [String]? {
        cache.peek(
            path, maxBytes: SessionStore.maxFileBytes, lifetime: SessionStore.defaultLifetime, notBefore: clock.now,
            now: clock.wall)?
            .map(\.topic)
    }

    private func uncached(_ path: String, _ clock: ManualClock) -> [String]? {
        SessionStore.peek(
            path, maxBytes: SessionStore.maxFileBytes, lifetime: SessionStore.defaultLifetime, now: clock.wall)?
            .map(\.topic)
    }

    func testEveryNewVersionOfTheFileIsSeenOnTheNextCall() throws {
        let clock = ManualClock(wall: 1_700_000_000)
        let path = temporaryFolder(self) + "/s.json"
        let cache = SessionsReadCache(clocks: clock.clocks, filesystemNow: { Int(time(nil)) + 60 })
        XCTAssertEqual(peek(cache, path, clock), [], "no file: no sessions")

        let store = SessionStore(path: path, now: clock.clocks.wall)
        let first = exampleSession(chrome, created: clock.wall)
        try store.add(first)
        for _ in 0..<3 {
            clock.advance(by: .milliseconds(1))
            XCTAssertEqual(peek(cache, path, clock), [first.topic])
        }
        let second = exampleSession(other, created: clock.wall)
        try store.add(second)
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(peek(cache, path, clock), uncached(path, clock))
        XCTAssertEqual(peek(cache, path, clock)?.sorted(), [first.topic, second.topic].sorted())
        _ = try store.remove(topic: first.topic)
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(peek(cache, path, clock), [second.topic], "a removed session is not answered for")
        XCTAssertEqual(unlink(path), 0)
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(peek(cache, path, clock), [], "the file went: no sessions")
    }

    /// Requests read before the file was looked at share that look (`RequestContext.receivedAt`),
    /// even when the file changed since: their answers were given between their arrival and
    /// their replies.
    func testRequestsReadBeforeALookShareIt() throws {
        let clock = ManualClock(wall: 1_700_000_000)
        let path = temporaryFolder(self) + "/s.json"
        let cache = SessionsReadCache(clocks: clock.clocks, filesystemNow: { Int(time(nil)) + 60 })
        let store = SessionStore(path: path, now: clock.clocks.wall)
        let first = exampleSession(chrome, created: clock.wall)
        try store.add(first)
        let receivedAt = clock.now
        XCTAssertEqual(peek(cache, path, clock), [first.topic])
        writeBytes(Array("junk".utf8), path)
        XCTAssertEqual(
            cache.peek(
                path, maxBytes: SessionStore.maxFileBytes, lifetime: SessionStore.defaultLifetime,
                notBefore: receivedAt,
                now: clock.wall
            )?
            .map(\.topic), [first.topic], "read with the first request")
        clock.advance(by: .milliseconds(1))
        XCTAssertNil(peek(cache, path, clock), "a damaged file is the agent's to answer for")
        XCTAssertNil(uncached(path, clock))
    }

    func testAFileOthersCouldHaveWrittenOrALinkIsNeverAnsweredFrom() throws {
        let clock = ManualClock(wall: 1_700_000_000)
        let folder = temporaryFolder(self)
        let path = folder + "/s.json"
        let cache = SessionsReadCache(clocks: clock.clocks, filesystemNow: { Int(time(nil)) + 60 })
        try SessionStore(path: path, now: clock.clocks.wall).add(exampleSession(chrome, created: clock.wall))
        XCTAssertNotNil(peek(cache, path, clock))
        chmod(path, 0o666)
        clock.advance(by: .milliseconds(1))
        XCTAssertNil(peek(cache, path, clock), "other users can write to the file")
        chmod(path, 0o600)
        clock.advance(by: .milliseconds(1))
        XCTAssertNotNil(peek(cache, path, clock))
        rename(path, folder + "/elsewhere.json")
        symlink(folder + "/elsewhere.json", path)
        clock.advance(by: .milliseconds(1))
        XCTAssertNil(peek(cache, path, clock), "a symbolic link")
    }

    /// A session to last longer than the lifetime from now is the agent's to cap: never
    /// answered for, however often the kept copy is asked.
    func testAForgedExpiryIsRefusedOnEveryCall() throws {
        let clock = ManualClock(wall: 1_700_000_000)
        let path = temporaryFolder(self) + "/s.json"
        let cache = SessionsReadCache(clocks: clock.clocks, filesystemNow: { Int(time(nil)) + 60 })
        try SessionStore(path: path, now: clock.clocks.wall).add(
            exampleSession(chrome, created: clock.wall, lifetime: 3600))
        let receivedAt = clock.now
        for lifetime in [3600, 60] {
            let answer = cache.peek(
                path, maxBytes: SessionStore.maxFileBytes, lifetime: lifetime, notBefore: receivedAt, now: clock.wall)
            XCTAssertEqual(answer == nil, lifetime == 60, "lifetime \(lifetime)")
        }
    }

    /// What the cache is for: an unchanged file is read once, however many calls look at it; each
    /// new version once more.
    func testAnUnchangedFileIsReadOncePerVersion() throws {
        let clock = ManualClock(wall: 1_700_000_000)
        let path = temporaryFolder(self) + "/s.json"
        let reads = Mutex(0)
        let cache = SessionsReadCache(
            clocks: clock.clocks, filesystemNow: { Int(time(nil)) + 60 },
            read: { path, maxBytes in
                reads.withLock { $0 += 1 }
                return SessionStore.read(path, maxBytes: maxBytes)
            })
        let store = SessionStore(path: path, now: clock.clocks.wall)
        let first = exampleSession(chrome, created: clock.wall)
        try store.add(first)
        for _ in 0..<5 {
            clock.advance(by: .milliseconds(1))
            XCTAssertEqual(peek(cache, path, clock), [first.topic])
        }
        XCTAssertEqual(reads.withLock { $0 }, 1, "read again although unchanged")
        let second = exampleSession(other, created: clock.wall)
        try store.add(second)
        for _ in 0..<3 {
            clock.advance(by: .milliseconds(1))
            XCTAssertEqual(peek(cache, path, clock)?.sorted(), [first.topic, second.topic].sorted())
        }
        XCTAssertEqual(reads.withLock { $0 }, 2, "one read per version")
    }
}
