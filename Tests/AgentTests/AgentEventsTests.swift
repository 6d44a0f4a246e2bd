#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import WalletBridge
@testable import WalletBridgeAgent
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem
@testable import WalletBridgeSessions

/// The agent's events through a file per extension (`EventHub`), as a port's host hears them
/// (`EventFile`): with an inotify watch, and without one (a user's inotify instances run out
/// with hundreds of ports), by looking every few milliseconds.
final class AgentEventsTests: XCTestCase {
    func testAPortHearsEveryEventAfterItStartedOnceAndInOrderWithAWatch() throws {
        try hearsEveryEvent(watch: true)
    }

    func testAPortWithoutAnInotifyWatchHearsTheSameByLooking() throws {
        try hearsEveryEvent(watch: false)
    }

    private func hearsEveryEvent(watch: Bool) throws {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        let paths = AgentPaths(folder: folder, name: "agent", log: nil)
        writeBytes([], paths.socket)  // stands for the agent's socket: its removal ends `follow`
        let caller = SessionCaller(Caller(arguments: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))
        let other = SessionCaller(Caller(arguments: ["/x.json", "wallet@example.org"]))
        let hub = EventHub(paths: paths, epoch: "first")
        func event(_ name: String) -> JSONValue { .object(["topic": .string(name)]) }
        hub.publish(to: caller, method: "session_update", params: event("before the port listened"))

        let path = EventHub.file(paths, caller: caller)
        XCTAssertNotEqual(path, EventHub.file(paths, caller: other))
        let start = EventFile.position(of: path)
        guard let eventFile = EventFile(paths: paths, watch: watch, pollInterval: .milliseconds(5)) else {
            return XCTFail("no EventFile")
        }
        let heard = Mutex<[String]>([])
        // Signalled for each event heard: the test waits for the follower, never for time.
        let heardOne = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        XCTAssertTrue(
            Threads.start {
                var following = eventFile
                var position = start
                following.follow(path, from: &position) { method, params in
                    guard case .object(let members) = params, case .string(let topic)? = members["topic"] else {
                        return
                    }
                    heard.withLock { $0.append("\(method) \(topic)") }
                    heardOne.signal()
                }
                following.close()
                ended.signal()
            })
        func waitFor(_ last: String, line: UInt = #line) throws {
            try waitUntil(
                "\(last) is the last event heard (heard: \(heard.withLock { $0 }))", wokenBy: heardOne, line: line
            ) {
                heard.withLock { $0.last } == last
            }
        }
        hub.publish(to: caller, method: "session_update", params: event("1"))
        hub.publish(to: other, method: "session_delete", params: event("another extension's"))
        hub.publish(to: caller, method: "session_delete", params: event("2"))
        try waitFor("session_delete 2")
        // More than the file keeps, at once: the last `kept` are heard.
        for number in 3...(EventHub.kept + 10) {
            hub.publish(to: caller, method: "session_event", params: event("\(number)"))
        }
        try waitFor("session_event \(EventHub.kept + 10)")
        // Another agent numbers from 1 again: its events are all new. (It starts after this
        // one ended, whose last events were heard.)
        let next = EventHub(paths: paths, epoch: "second")
        next.publish(to: caller, method: "session_expire", params: event("from the next agent"))
        try waitFor("session_expire from the next agent")
        XCTAssertEqual(unlink(paths.socket), 0)
        XCTAssertEqual(ended.wait(timeout: .now() + 5), .success, "following did not end when the socket went")

        let all = heard.withLock { $0 }
        XCTAssertEqual(Array(all.prefix(2)), ["session_update 1", "session_delete 2"])
        XCTAssertEqual(all.last, "session_expire from the next agent")
        XCTAssertFalse(all.contains { $0.contains("before") || $0.contains("another") }, "\(all)")
        let numbers = all.dropFirst(2).dropLast().map { Int($0.split(separator: " ").last!)! }
        XCTAssertEqual(numbers, Array(numbers.sorted()), "in order, once each")
        XCTAssertEqual(Set(numbers).count, numbers.count)
        XCTAssertEqual(numbers.last, EventHub.kept + 10)
        XCTAssertEqual(fileMode(path).map { $0 & 0o777 }, 0o600)
    }

    private let chrome = SessionCaller(Caller(arguments: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))

    private func scratchPaths() -> AgentPaths {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        return AgentPaths(folder: folder, name: "agent", log: nil)
    }

    /// Large events: the file keeps as many of the last as a host reads, never more, so the
    /// host still hears the newest; one too large on its own is dropped, and the next is heard.
    func testTheEventsFileNeverGrowsBeyondWhatAHostReads() throws {
        let paths = scratchPaths()
        let hub = EventHub(paths: paths, epoch: "large")
        let path = EventHub.file(paths, caller: chrome)
        let large = JSONValue.object(["topic": .string(String(repeating: "x", count: 180_000))])
        for _ in 1...EventHub.kept { hub.publish(to: chrome, method: "session_update", params: large) }
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertLessThanOrEqual(Int(info.st_size), EventFile.maxFileBytes)
        XCTAssertEqual(
            EventFile.position(of: path), EventFile.Position(epoch: "large", last: EventHub.kept), "the newest is read")
        let tooLarge = JSONValue.object(["topic": .string(String(repeating: "y", count: EventFile.maxFileBytes))])
        hub.publish(to: chrome, method: "session_update", params: tooLarge)
        XCTAssertEqual(stat(path, &info), 0)
        XCTAssertLessThanOrEqual(Int(info.st_size), EventFile.maxFileBytes)
        hub.publish(to: chrome, method: "session_delete", params: .object(["topic": "small"]))
        XCTAssertEqual(EventFile.position(of: path), EventFile.Position(epoch: "large", last: EventHub.kept + 2))
    }

    /// A host reads only an events file that is this user's alone, as opened: not a link, not
    /// another's, not one others may read or write.
    func testAHostReadsNoEventsFileThatIsNotThisUsersAlone() throws {
        let paths = scratchPaths()
        let hub = EventHub(paths: paths, epoch: "mine")
        let path = EventHub.file(paths, caller: chrome)
        hub.publish(to: chrome, method: "session_update", params: .object(["topic": "t"]))
        XCTAssertEqual(EventFile.position(of: path).last, 1)
        XCTAssertEqual(chmod(path, 0o644), 0)
        XCTAssertEqual(EventFile.position(of: path), EventFile.Position(), "readable by others")
        XCTAssertEqual(chmod(path, 0o620), 0)
        XCTAssertEqual(EventFile.position(of: path), EventFile.Position(), "writable by the group")
        XCTAssertEqual(chmod(path, 0o600), 0)
        XCTAssertEqual(rename(path, path + ".real"), 0)
        XCTAssertEqual(symlink(path + ".real", path), 0)
        XCTAssertEqual(EventFile.position(of: path), EventFile.Position(), "a link")
    }

    /// The ports' hosts take no inotify instance each beyond the process's one (`FolderWatch`):
    /// a user has 128, and hundreds of ports took them all.
    func testEveryWatchOfAProcessIsOnItsOneInotifyInstance() throws {
        func instances() -> Int {
            guard let folder = opendir("/proc/self/fd") else { return -1 }
            defer { closedir(folder) }
            var count = 0
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                var target = [CChar](repeating: 0, count: 256)
                let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
                if length > 0,
                    String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        == "anon_inode:inotify"
                {
                    count += 1
                }
            }
            return count
        }
        let (one, two) = (scratchPaths(), scratchPaths())
        guard let first = EventFile(paths: one) else { return XCTFail("no EventFile") }
        defer { first.close() }
        let afterOne = instances()
        XCTAssertGreaterThan(afterOne, 0)
        guard let second = EventFile(paths: two) else { return XCTFail("no EventFile") }
        defer { second.close() }
        XCTAssertEqual(instances(), afterOne, "a second watch took a second instance")
        // Each subscriber gets its own events, whichever thread read them off the queue.
        let a = try XCTUnwrap(FolderWatch.subscribe(folder: one.folder, mask: UInt32(IN_CLOSE_WRITE)))
        let b = try XCTUnwrap(FolderWatch.subscribe(folder: two.folder, mask: UInt32(IN_CLOSE_WRITE)))
        defer { a.end(); b.end() }
        writeBytes([1], "\(one.folder)/for-a")
        XCTAssertEqual(b.next(), [], "b reads the queue: nothing of its own")
        var ready = pollfd(fd: a.wake, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&ready, 1, 0), 1, "a is woken for the event b read off the queue")
        XCTAssertEqual(a.next(), [FolderEvent(mask: UInt32(IN_CLOSE_WRITE), name: "for-a")])
        XCTAssertEqual(a.next(), [])
        XCTAssertEqual(instances(), afterOne)
    }

    /// Without a watch, a folder put in the place of the agent's is not the agent's: following
    /// ends as when the folder goes.
    func testLookingWithoutAWatchEndsWhenTheFolderIsReplaced() throws {
        let paths = scratchPaths()
        writeBytes([], paths.socket)
        guard let eventFile = EventFile(paths: paths, watch: false, pollInterval: .milliseconds(5)) else {
            return XCTFail("no EventFile")
        }
        defer { eventFile.close() }
        let moved = paths.folder + ".moved"
        XCTAssertEqual(rename(paths.folder, moved), 0)
        XCTAssertEqual(mkdir(paths.folder, 0o700), 0)
        XCTAssertEqual(rename(moved + "/agent.sock", paths.socket), 0)  // the same socket file, in the new folder
        addTeardownBlock { _ = try? removeTree(moved) }
        let ended = DispatchSemaphore(value: 0)
        let gone = Atomic<Bool>(false)
        let file = EventHub.file(paths, caller: chrome)
        XCTAssertTrue(
            Threads.start { [eventFile] in
                var following = eventFile
                var position = EventFile.Position()
                following.follow(file, from: &position) { _, _ in }
                gone.store(following.folderGone, ordering: .releasing)
                ended.signal()
            })
        XCTAssertEqual(ended.wait(timeout: .now() + 5), .success, "following went on in another folder")
        XCTAssertTrue(gone.load(ordering: .acquiring))
    }

    /// A crashed agent leaves its socket, which refuses; the next agent unlinks it and binds
    /// anew, and the file system may give the new socket the freed inode number at once. A port
    /// waiting for an agent tries again when a socket is made at the path, whatever its inode.
    func testAPortWaitingForAnAgentWakesForASocketMadeWithTheSameInode() throws {
        let paths = scratchPaths()
        let refusing = try UnixSocket.listen(at: paths.socket)
        close(refusing)  // the crashed agent's socket: there, and refusing
        guard let eventFile = EventFile(paths: paths) else { return XCTFail("no EventFile") }
        defer { eventFile.close() }
        let refused = try XCTUnwrap(Agent.socketIdentity(paths.socket))
        let woke = DispatchSemaphore(value: 0)
        XCTAssertTrue(
            Threads.start { [eventFile] in
                var waiting = eventFile
                // No timed retry within the test: only the socket made at the path wakes it.
                _ = waiting.waitForAgent(refused: true, refusedRetry: .seconds(3600))
                woke.signal()
            })
        // The same inode at the path again: made anew (IN_CREATE), as the next agent's bind.
        let kept = paths.folder + "/kept"
        XCTAssertEqual(link(paths.socket, kept), 0)
        XCTAssertEqual(unlink(paths.socket), 0)
        XCTAssertEqual(link(kept, paths.socket), 0)
        let again = try XCTUnwrap(Agent.socketIdentity(paths.socket))
        XCTAssert(again == refused, "not the same inode: the test proves nothing")
        XCTAssertEqual(woke.wait(timeout: .now() + 10), .success, "the port waits on for a socket with another inode")
        _ = try? removeTree(paths.folder)  // ends a wait that never woke
    }

    /// A socket that refuses and is never replaced (nothing in the folder changes) is tried
    /// again after `refusedRetry`, with a watch and without one; with none there, only its
    /// making wakes the wait.
    func testAPortWaitingOnARefusingSocketTriesItAgainInTime() throws {
        let paths = scratchPaths()
        writeBytes([], paths.socket)
        for watch in [true, false] {
            guard var eventFile = EventFile(paths: paths, watch: watch, pollInterval: .milliseconds(5)) else {
                return XCTFail("no EventFile")
            }
            defer { eventFile.close() }
            XCTAssertTrue(eventFile.waitForAgent(refused: true, refusedRetry: .milliseconds(20)), "watch: \(watch)")
        }
        XCTAssertEqual(unlink(paths.socket), 0)
        guard let eventFile = EventFile(paths: paths) else { return XCTFail("no EventFile") }
        defer { eventFile.close() }
        let woke = DispatchSemaphore(value: 0)
        XCTAssertTrue(
            Threads.start { [eventFile] in
                var waiting = eventFile
                XCTAssertTrue(waiting.waitForAgent(refused: false, refusedRetry: .milliseconds(1)))
                woke.signal()
            })
        XCTAssertEqual(woke.wait(timeout: .now() + .milliseconds(100)), .timedOut, "woke with no socket made")
        writeBytes([], paths.socket)
        XCTAssertEqual(woke.wait(timeout: .now() + 10), .success, "the socket's making did not wake it")
    }

    /// What a subscriber has not taken yet is bounded: past `FolderWatch.mailboxLimit` events it
    /// is "something changed" (IN_Q_OVERFLOW, as the kernel's own queue says it), and the
    /// folder's end is kept.
    func testASubscribersUntakenEventsAreBoundedAndKeepTheFoldersEnd() throws {
        let paths = scratchPaths()
        let subscription = try XCTUnwrap(
            FolderWatch.subscribe(folder: paths.folder, mask: UInt32(IN_CREATE | IN_DELETE_SELF)))
        defer { subscription.end() }
        for n in 0..<(3 * FolderWatch.mailboxLimit) { writeBytes([], "\(paths.folder)/f\(n)") }
        _ = try removeTree(paths.folder)
        let events = subscription.next()
        XCTAssertLessThanOrEqual(events.count, FolderWatch.mailboxLimit + 3, "unbounded: \(events.count)")
        XCTAssert(events.contains { $0.mask & UInt32(IN_Q_OVERFLOW) != 0 }, "nothing says events were dropped")
        XCTAssert(events.contains { $0.mask & UInt32(IN_IGNORED) != 0 }, "the folder's end was dropped")
    }
}
