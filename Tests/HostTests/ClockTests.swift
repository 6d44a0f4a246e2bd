import WalletBridgeProtocol
import WalletBridgeTestSupport
import XCTest

/// `Clocks.sleep(until:)`, the wait for a deadline, on the system's clocks and on a test's
/// `ManualClock`. (Here rather than in ProtocolTests, which does not depend on the test
/// support target.)
final class ClockTests: XCTestCase {
    func testAManualSleeperWakesWhenTheClockReachesItsDeadlineAndNotBefore() async throws {
        let clock = ManualClock()
        let clocks = clock.clocks
        let deadline = clock.now + .seconds(300)
        let task = Task { try await clocks.sleep(until: deadline) }
        defer { task.cancel() }
        await clock.sleepers(atLeast: 1)
        XCTAssertEqual(clock.deadlines, [deadline])
        clock.advance(by: .seconds(299))
        XCTAssertEqual(clock.deadlines, [deadline], "woken before its deadline")
        clock.advance(by: .seconds(1))
        XCTAssertEqual(clock.deadlines, [], "still asleep at its deadline")
        try await task.value
    }

    func testAManualSleepForADeadlineThatHasPassedReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(1))
        try await clock.clocks.sleep(until: clock.now)
        try await clock.clocks.sleep(until: clock.now - .seconds(1))
        XCTAssertEqual(clock.deadlines, [])
    }

    func testCancellingAManualSleepEndsItWithCancellationError() async throws {
        let clock = ManualClock()
        let clocks = clock.clocks
        let task = Task { try await clocks.sleep(until: clock.now + .seconds(60)) }
        await clock.sleepers(atLeast: 1)
        task.cancel()
        await assertCancelled(task)
        XCTAssertEqual(clock.deadlines, [], "the cancelled sleeper left the clock")
        // A task cancelled before it sleeps does not sleep at all.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clocks.sleep(until: clock.now + .seconds(60))
        }
        await assertCancelled(early)
        XCTAssertEqual(clock.deadlines, [])
    }

    /// The system's sleep: a deadline passed returns at once, and cancellation ends a long one
    /// (nothing here waits for the deadline itself).
    func testTheSystemSleepReturnsForAPassedDeadlineAndEndsWhenCancelled() async throws {
        let clocks = Clocks.system
        let start = ContinuousClock.now
        try await clocks.sleep(until: clocks.monotonic() - .seconds(1))
        let task = Task { try await clocks.sleep(until: clocks.monotonic() + .seconds(3600)) }
        task.cancel()
        await assertCancelled(task)
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(60))
    }

    private func assertCancelled(
        _ task: Task<Void, any Error>, file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            try await task.value
            XCTFail("the sleep ended without its deadline", file: file, line: line)
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)", file: file, line: line)
        }
    }
}
