#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import WalletBridgeSystem
import XCTest

/// `SystemCall.poll`, the one wait with a deadline: its timeout, and its retry after a signal,
/// over a real pipe. Deadlines are already passed or descriptors already ready: nothing sleeps.
final class SystemCallTests: XCTestCase {
    private let start = ContinuousClock.now

    func testPollTimeoutsRoundUpAndNeverOverflow() {
        let now = start
        XCTAssertEqual(SystemCall.milliseconds(until: nil, now: { now }), -1)
        XCTAssertEqual(SystemCall.milliseconds(until: now, now: { now }), 0)
        XCTAssertEqual(SystemCall.milliseconds(until: now - .seconds(1), now: { now }), 0)
        XCTAssertEqual(SystemCall.milliseconds(until: now + .nanoseconds(1), now: { now }), 1)
        XCTAssertEqual(SystemCall.milliseconds(until: now + .milliseconds(2), now: { now }), 2)
        XCTAssertEqual(SystemCall.milliseconds(until: now + .microseconds(1500), now: { now }), 2)
        XCTAssertEqual(SystemCall.milliseconds(until: now + .seconds(Int64(Int32.max)), now: { now }), Int32.max)
        XCTAssertEqual(SystemCall.milliseconds(until: now + .seconds(Int64.max / 2), now: { now }), Int32.max)
    }

    func testPollEndsAtAPassedDeadlineAndReportsAReadyDescriptor() throws {
        let pipe = try Spawn.pipe(nonBlocking: true)
        defer { close(pipe.read); close(pipe.write) }
        var one = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(SystemCall.poll(&one, until: start - .seconds(1)), 0, "a passed deadline waits 0 ms")
        var byte: UInt8 = 1
        XCTAssertEqual(write(pipe.write, &byte, 1), 1)
        XCTAssertEqual(SystemCall.poll(&one, until: nil), 1)
        XCTAssertNotEqual(one.revents & Int16(POLLIN), 0)
        var several = [
            pollfd(fd: pipe.write, events: 0, revents: 0), pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0),
        ]
        XCTAssertEqual(SystemCall.poll(&several, until: start), 1)
        XCTAssertNotEqual(several[1].revents & Int16(POLLIN), 0)
    }

    /// A signal that interrupts the wait does not end it: poll(2) is called again, with the
    /// timeout taken anew from `now` (each call of `now` is one call of poll(2)).
    func testPollGoesOnAfterASignal() throws {
        let pipe = try Spawn.pipe(nonBlocking: true)
        defer { close(pipe.read); close(pipe.write) }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        XCTAssertEqual(sigaction(SIGUSR2, &action, &previous), 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let polls = Box()
        let waiter = pthread_self()
        let writer = pipe.write
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // Signals the waiter until one interrupts its poll (then `now` is called again),
            // then makes the pipe readable; bounded so that a failure cannot hang the suite.
            let giveUp = ContinuousClock.now + .seconds(20)
            while polls.count.load(ordering: .acquiring) < 2, ContinuousClock.now < giveUp {
                pthread_kill(waiter, SIGUSR2)
                sched_yield()
            }
            var byte: UInt8 = 1
            _ = write(writer, &byte, 1)
            done.signal()
        }
        var one = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(3600)
        let ready = SystemCall.poll(&one, until: deadline) {
            polls.count.add(1, ordering: .acquiringAndReleasing)
            return .now
        }
        let code = errno
        done.wait()
        XCTAssertEqual(ready, 1, "ended by errno \(code)")
        XCTAssertGreaterThanOrEqual(polls.count.load(ordering: .acquiring), 2, "never interrupted")
    }

    private final class Box: Sendable {
        let count = Atomic<Int>(0)
    }
}
