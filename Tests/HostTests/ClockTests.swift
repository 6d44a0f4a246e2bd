import Synchronization
import WalletBridgeProtocol
import WalletBridgeTestSupport
import XCTest

/// `Clocks.sleep(until:)`, the wait for a deadline, on the system's clocks and on a test's
/// `ManualClock`. (Here rather than in ProtocolTests, which does not depend on the test
/// support target.) Every `sleep(until:)` here is the call under test, not a wait: on the
/// manual clock it ends when the test moves the clock, and the system's is only ever asked
/// for a deadline already passed or cancelled.
final class ClockTests: XCTestCase {
    func testAManualSleeperWakesWhenTheClockReachesItsDeadlineAndNotBefore() async throws {
        let clock = ManualClock()
        let clocks = clock.clocks
        let deadline = clock.now + .seconds(300)
        let task = Task { try await clocks.sleep(until: deadline) }
        defer { task.cancel() }
        await sleepers(on: clock)
        XCTAssertEqual(clock.deadlines, [deadline])
        clock.advance(by: .seconds(299))
        XCTAssertEqual(clock.deadlines, [deadline], "woken before its deadline")
        clock.advance(by: .seconds(1))
        guard clock.deadlines.isEmpty else { return XCTFail("still asleep at its deadline") }
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
        await sleepers(on: clock)
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

    /// `ManualClock.sleepers(atLeast: 1)`, bounded: a sleep that never waits fails, not hangs.
    private func sleepers(on clock: ManualClock) async {
        let waiting = expectation(description: "a sleeper waits")
        Task {
            await clock.sleepers(atLeast: 1)
            waiting.fulfill()
        }
        await fulfillment(of: [waiting], timeout: 10)
    }

    /// Ends with `CancellationError` within 10 seconds (a sleep that missed its cancellation
    /// fails, not hangs).
    private func assertCancelled(
        _ task: Task<Void, any Error>, file: StaticString = #filePath, line: UInt = #line
    ) async {
        let ended = expectation(description: "the sleep ended")
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        Task {
            let result = await task.result
            outcome.withLock { $0 = result }
            ended.fulfill()
        }
        await fulfillment(of: [ended], timeout: 10)
        switch outcome.withLock({ $0 }) {
        case nil: XCTFail("the sleep did not end", file: file, line: line)
        case .success: XCTFail("the sleep ended without its deadline", file: file, line: line)
        case .failure(let error): XCTAssertTrue(error is CancellationError, "\(error)", file: file, line: line)
        }
    }
}
