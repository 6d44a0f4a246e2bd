import Dispatch
import Synchronization
import WalletBridgeProtocol
import WalletBridgeTestSupport
import XCTest

/// `Clocks.sleep(until:)`, the wait for a deadline, and `Clocks.schedule(at:on:_:)`, work run
/// at one, on the system's clocks and on a test's `ManualClock`. (Here rather than in
/// ProtocolTests, which does not depend on the test support target.) Every `sleep(until:)`
/// here is the call under test, not a wait: on the manual clock it ends when the test moves the
/// clock, and the system's is only ever asked for a deadline already passed or cancelled. The
/// system's scheduling is asked for one deadline a few milliseconds off: that is what it does.
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

    /// Work scheduled on the manual clock runs when an advance reaches its deadline, not before,
    /// once, on the queue it was given, and has run when that advance returns.
    func testManualScheduledWorkRunsOnItsQueueWhenAnAdvanceReachesItsDeadline() throws {
        let clock = ManualClock()
        let queue = DispatchQueue(label: "clock-tests.scheduled")
        let onQueue = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: onQueue, value: true)
        let runs = Mutex<[Bool]>([])
        let deadline = clock.now + .seconds(300)
        clock.clocks.schedule(at: deadline, on: queue) {
            runs.withLock { $0.append(DispatchQueue.getSpecific(key: onQueue) == true) }
        }
        XCTAssertEqual(clock.deadlines, [deadline])
        clock.advance(by: .seconds(300) - .nanoseconds(1))
        XCTAssertEqual(runs.withLock { $0 }, [], "ran before its deadline")
        XCTAssertEqual(clock.deadlines, [deadline])
        clock.advance(by: .nanoseconds(1))
        XCTAssertEqual(runs.withLock { $0 }, [true], "ran once, on its queue, by the end of the advance")
        XCTAssertEqual(clock.deadlines, [])
        clock.advance(by: .seconds(300))
        XCTAssertEqual(runs.withLock { $0 }, [true], "ran once")
    }

    /// One advance past several deadlines runs each piece of work due, soonest first, and
    /// leaves the rest; work for a deadline already reached runs without an advance.
    func testOneManualAdvanceRunsTheWorkDueInDeadlineOrder() throws {
        let clock = ManualClock()
        let clocks = clock.clocks
        let queue = DispatchQueue(label: "clock-tests.order")
        let ran = Mutex<[Int]>([])
        for seconds in [30, 10, 20, 40] {
            clocks.schedule(at: clock.now + .seconds(seconds), on: queue) { ran.withLock { $0.append(seconds) } }
        }
        clock.advance(by: .seconds(35))
        XCTAssertEqual(ran.withLock { $0 }, [10, 20, 30])
        XCTAssertEqual(clock.deadlines, [clock.now + .seconds(5)])
        let passed = DispatchSemaphore(value: 0)
        clocks.schedule(at: clock.now, on: queue) { passed.signal() }
        XCTAssertEqual(passed.wait(timeout: .now() + 10), .success, "work for a deadline reached did not run")
        XCTAssertEqual(ran.withLock { $0 }, [10, 20, 30])
    }

    /// The system's scheduling: work runs on its queue once the deadline has passed, and not
    /// before; work for a deadline passed runs at once.
    func testTheSystemsScheduledWorkRunsOnItsQueueAtItsDeadline() throws {
        let clocks = Clocks.system
        let queue = DispatchQueue(label: "clock-tests.system")
        let onQueue = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: onQueue, value: true)
        let ran = DispatchSemaphore(value: 0)
        let runs = Mutex<[(at: ContinuousClock.Instant, onQueue: Bool)]>([])
        let deadline = clocks.monotonic() + .milliseconds(50)
        clocks.schedule(at: deadline, on: queue) {
            runs.withLock { $0.append((clocks.monotonic(), DispatchQueue.getSpecific(key: onQueue) == true)) }
            ran.signal()
        }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "the work did not run")
        let run = try XCTUnwrap(runs.withLock { $0.first })
        XCTAssertGreaterThanOrEqual(run.at, deadline, "ran before its deadline")
        XCTAssertTrue(run.onQueue, "ran on another queue")
        clocks.schedule(at: clocks.monotonic() - .seconds(1), on: queue) { ran.signal() }
        XCTAssertEqual(ran.wait(timeout: .now() + 10), .success, "work for a deadline passed did not run")
        XCTAssertEqual(runs.withLock { $0.count }, 1)
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
