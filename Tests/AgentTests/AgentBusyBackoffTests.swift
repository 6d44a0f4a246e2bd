#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge
@testable import WalletBridgeAgent
import WalletBridgeTestSupport
import XCTest

/// A host refused for `too_many_connections` tries again (docs/agent.md, Limits): with pauses
/// that grow, never a busy loop, and never past its time. On a fake clock: its `sleep` moves it.
final class AgentBusyBackoffTests: XCTestCase {
    /// The test's clock, and the pauses asked of it.
    private final class FakeClock: @unchecked Sendable {
        let manual = ManualClock()
        var now: ContinuousClock.Instant { manual.now }
        var slept: [Duration] = []
    }

    private func backoff(within: Duration, shortening: Double, _ clock: FakeClock) -> BusyBackoff {
        BusyBackoff(
            within: within, now: { clock.now },
            sleep: {
                clock.slept.append($0); clock.manual.advance(by: $0)
            },
            shortening: { shortening })
    }

    func testPausesDoubleFrom20MsTo500MsAndStopAtTheDeadline() {
        let clock = FakeClock()
        let started = clock.now
        var busy = backoff(within: .seconds(5), shortening: 1, clock)
        while busy.pause() {}
        let ms = clock.slept.map { $0 / .milliseconds(1) }
        XCTAssertEqual(ms, [20, 40, 80, 160, 320] + Array(repeating: 500, count: 8))  // 4.62 s; a 9th 500 would end past 5 s
        XCTAssertLessThanOrEqual(clock.now - started, .seconds(5), "past its time")
        XCTAssertGreaterThan(clock.now - started + .milliseconds(500), .seconds(5), "gave up with a try's time left")
    }

    func testEachPauseIsShortenedByTheRandomFactor() {
        let clock = FakeClock()
        var busy = backoff(within: .seconds(1), shortening: 0.5, clock)
        XCTAssertTrue(busy.pause())
        XCTAssertTrue(busy.pause())
        XCTAssertEqual(clock.slept, [.milliseconds(10), .milliseconds(20)])
    }

    func testNoTimeMeansNoTryAndNoSleep() {
        let clock = FakeClock()
        var busy = backoff(within: .zero, shortening: 1, clock)
        XCTAssertFalse(busy.pause())
        XCTAssertEqual(clock.slept, [])
    }
}

/// A call on its own connection, cancelled from another thread (`CancellableCall`): the
/// cancellation shuts down the connection open then, never a descriptor number closed since.
final class CancellableCallTests: XCTestCase {
    func testACancelAfterTheConnectionClosedShutsDownNothingThatReusedItsNumber() throws {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        let number = pair[0]
        let call = CancellableCall()
        XCTAssertTrue(call.adopt(number))
        call.close(Connection(fd: number, now: { .now }))
        close(pair[1])
        // Another connection of the process gets the number.
        var other: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &other), 0)
        XCTAssertEqual(dup2(other[0], number), number)
        defer { close(number); close(other[0]); close(other[1]) }
        call.cancel()
        var byte: UInt8 = 7
        XCTAssertEqual(send(number, &byte, 1, Int32(MSG_NOSIGNAL)), 1, "the cancel shut down another connection")
        XCTAssertFalse(call.adopt(other[1]), "a connection opened after the cancel was taken")
    }
}
