import Synchronization
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent

/// One consent dialog at a time, in arrival order; a bounded queue; a cancelled waiter leaves
/// without being shown. Each body waits on a gate the test opens, so nothing depends on timing:
/// the test waits for the queue's own `waiting` count before it starts the next request.
final class ConsentQueueTests: XCTestCase {
    /// What the bodies did, in order, and how many ran at once at most.
    private actor Recorder {
        private(set) var events: [String] = []
        private(set) var running = 0
        private(set) var mostRunning = 0

        func start(_ name: String) {
            events.append("start \(name)")
            running += 1
            mostRunning = max(mostRunning, running)
        }

        func end(_ name: String) {
            events.append("end \(name)")
            running -= 1
        }
    }

    /// A body blocks on `wait()` until the test calls `open()`.
    private struct Gate: Sendable {
        private let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (stream, continuation) = AsyncStream<Void>.makeStream()
        }

        func open() { continuation.finish() }

        func wait() async {
            for await _ in stream {}
        }
    }

    /// Starts a request whose body records its start, waits for `gate`, and records its end.
    private func request(
        _ name: String, _ queue: ConsentQueue, _ recorder: Recorder, _ gate: Gate, caller: String = "a"
    ) -> Task<String, any Error> {
        Task {
            try await queue.run(for: caller) {
                await recorder.start(name)
                await gate.wait()
                await recorder.end(name)
                return name
            }
        }
    }

    func testBodiesRunOneAtATimeInArrivalOrder() async throws {
        let queue = ConsentQueue()
        let recorder = Recorder()
        let gates = (0..<4).map { _ in Gate() }

        var tasks: [Task<String, any Error>] = []
        tasks.append(request("0", queue, recorder, gates[0]))
        try await waitUntil("the first body runs") { await recorder.events == ["start 0"] }
        for index in 1..<4 {
            tasks.append(request("\(index)", queue, recorder, gates[index]))
            try await waitUntil("\(index) requests wait") { await queue.waiting == index }
        }
        let waitingWhileBlocked = await queue.waiting
        XCTAssertEqual(waitingWhileBlocked, 3)
        let eventsWhileBlocked = await recorder.events
        XCTAssertEqual(eventsWhileBlocked, ["start 0"], "nobody else starts while the first dialog is shown")

        // Opened last to first: each body still waits for its turn.
        for gate in gates.reversed() { gate.open() }
        var results: [String] = []
        for task in tasks { results.append(try await task.value) }

        XCTAssertEqual(results, ["0", "1", "2", "3"])
        let events = await recorder.events
        XCTAssertEqual(events, ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
        let mostRunning = await recorder.mostRunning
        XCTAssertEqual(mostRunning, 1, "two bodies overlapped")
        let waiting = await queue.waiting
        XCTAssertEqual(waiting, 0)
    }

    func testAFailingBodyPassesItsErrorOnAndTheQueueGoesOn() async throws {
        struct Refused: Error, Equatable {}
        let queue = ConsentQueue()
        do {
            _ = try await queue.run(for: "a") { () async throws -> Int in throw Refused() }
            XCTFail("the body's error was not thrown")
        } catch {
            XCTAssertTrue(error is Refused, "\(error)")
        }
        let value = try await queue.run(for: "a") { 42 }
        XCTAssertEqual(value, 42, "the queue was left busy by a failing body")
    }

    func testPastTheLimitARequestIsRefusedAtOnce() async throws {
        let queue = ConsentQueue(limit: 2, perCallerLimit: 8)
        XCTAssertEqual(queue.limit, 2)
        let recorder = Recorder()
        let gates = (0..<3).map { _ in Gate() }

        let first = request("0", queue, recorder, gates[0])
        try await waitUntil("the first body runs") { await recorder.events == ["start 0"] }
        let second = request("1", queue, recorder, gates[1])
        try await waitUntil("one request waits") { await queue.waiting == 1 }
        let third = request("2", queue, recorder, gates[2])
        try await waitUntil("two requests wait") { await queue.waiting == 2 }

        do {
            _ = try await queue.run(for: "a") {
                await recorder.start("refused")
                return "refused"
            }
            XCTFail("a third waiter was accepted past the limit of 2")
        } catch {
            XCTAssertEqual((error as? ConsentQueue.Full)?.perCaller, false, "\(error)")
        }
        let waiting = await queue.waiting
        XCTAssertEqual(waiting, 2, "the refused request did not join the queue")

        for gate in gates { gate.open() }
        let results = [try await first.value, try await second.value, try await third.value]
        XCTAssertEqual(results, ["0", "1", "2"])
        let events = await recorder.events
        XCTAssertFalse(events.contains("start refused"), "the refused body ran: \(events)")
        XCTAssertEqual(events, ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"])

        // Once drained, the queue takes requests again.
        let value = try await queue.run(for: "a") { "again" }
        XCTAssertEqual(value, "again")
    }

    func testACancelledWaiterLeavesWithoutBeingShown() async throws {
        let queue = ConsentQueue()
        let recorder = Recorder()
        let gates = (0..<3).map { _ in Gate() }

        let first = request("0", queue, recorder, gates[0])
        try await waitUntil("the first body runs") { await recorder.events == ["start 0"] }
        let second = request("1", queue, recorder, gates[1])
        try await waitUntil("one request waits") { await queue.waiting == 1 }
        let third = request("2", queue, recorder, gates[2])
        try await waitUntil("two requests wait") { await queue.waiting == 2 }

        second.cancel()
        try await waitUntil("the cancelled request leaves the queue") { await queue.waiting == 1 }
        do {
            _ = try await second.value
            XCTFail("a cancelled waiter returned a result")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let eventsAfterCancel = await recorder.events
        XCTAssertEqual(eventsAfterCancel, ["start 0"], "the first dialog is still the only one shown")

        for gate in gates { gate.open() }
        let results = [try await first.value, try await third.value]
        XCTAssertEqual(results, ["0", "2"])
        let events = await recorder.events
        XCTAssertEqual(events, ["start 0", "end 0", "start 2", "end 2"], "the cancelled body never ran")
        let waiting = await queue.waiting
        XCTAssertEqual(waiting, 0)
    }

    func testARequestCancelledBeforeItArrivesAtABusyQueueNeverWaits() async throws {
        let queue = ConsentQueue()
        let recorder = Recorder()
        let gate = Gate()
        let first = request("0", queue, recorder, gate)
        try await waitUntil("the first body runs") { await recorder.events == ["start 0"] }

        try await assertCancelledBeforeItsTurn("late", queue, recorder)
        let waiting = await queue.waiting
        XCTAssertEqual(waiting, 0)

        gate.open()
        let result = try await first.value
        XCTAssertEqual(result, "0")
        let events = await recorder.events
        XCTAssertEqual(events, ["start 0", "end 0"])
    }

    func testARequestCancelledOnAnIdleQueueIsNotShownAndFreesTheQueue() async throws {
        let queue = ConsentQueue()
        let recorder = Recorder()
        try await assertCancelledBeforeItsTurn("cancelled", queue, recorder)
        let events = await recorder.events
        XCTAssertEqual(events, [], "nobody is asked for a request whose caller left")
        // The turn it took was given back.
        let value = try await queue.run(for: "a") { "next" }
        XCTAssertEqual(value, "next")
    }

    /// A request whose task is cancelled before it asks: it throws CancellationError and its
    /// body never runs.
    private func assertCancelledBeforeItsTurn(_ name: String, _ queue: ConsentQueue, _ recorder: Recorder) async throws
    {
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await queue.run(for: "a") {
                await recorder.start(name)
                return name
            }
        }
        do {
            _ = try await cancelled.value
            XCTFail("a cancelled request ran")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    // MARK: Fairness between callers (issue 33, item 5)

    /// Queues `names` of `caller` behind the dialog shown, each in line before the next is
    /// sent; their bodies end at once when their turn comes.
    private func queue(
        _ names: [String], of caller: String, _ queue: ConsentQueue, _ recorder: Recorder
    ) async throws -> [Task<String, any Error>] {
        var tasks: [Task<String, any Error>] = []
        for name in names {
            let before = await queue.waiting
            let open = Gate()
            open.open()
            tasks.append(request(name, queue, recorder, open, caller: caller))
            try await waitUntil("\(name) waits") { await queue.waiting == before + 1 }
        }
        return tasks
    }

    func testCallersTakeTurnsSoOnesStreamDoesNotHoldUpAnother() async throws {
        let queue = ConsentQueue()
        let recorder = Recorder()
        let shown = Gate()
        let first = request("a0", queue, recorder, shown, caller: "a")
        try await waitUntil("a's first dialog is shown") { await recorder.events == ["start a0"] }
        let a = try await self.queue(["a1", "a2", "a3"], of: "a", queue, recorder)
        let b = try await self.queue(["b1", "b2"], of: "b", queue, recorder)
        let c = try await self.queue(["c1"], of: "c", queue, recorder)
        let waitingForA = await queue.waiting(for: "a")
        XCTAssertEqual(waitingForA, 3)

        shown.open()
        for task in [first] + a + b + c { _ = try await task.value }
        let started = await recorder.events.filter { $0.hasPrefix("start") }.map { String($0.dropFirst(6)) }
        XCTAssertEqual(started, ["a0", "b1", "c1", "a1", "b2", "a2", "a3"], "callers did not take turns")
    }

    func testPastItsOwnLimitACallerIsRefusedAndOthersStillWait() async throws {
        let queue = ConsentQueue(limit: 10, perCallerLimit: 2)
        let recorder = Recorder()
        let shown = Gate()
        let first = request("a0", queue, recorder, shown, caller: "a")
        try await waitUntil("a's first dialog is shown") { await recorder.events == ["start a0"] }
        let a = try await self.queue(["a1", "a2"], of: "a", queue, recorder)
        let third = Task { try await queue.run(for: "a") { "a3" } }
        let refused = Mutex<(any Error)?>(nil)
        Task { do { _ = try await third.value } catch { refused.withLock { $0 = error } } }
        // An async condition, so that the wait suspends rather than holding a thread of the pool
        // the queue's tasks run on.
        try await waitUntil("a third waiter of one caller is refused at once, past its limit of 2") { () async in
            refused.withLock { $0 != nil }
        }
        XCTAssertEqual((refused.withLock { $0 } as? ConsentQueue.Full)?.perCaller, true)
        let b = try await self.queue(["b1", "b2"], of: "b", queue, recorder)
        shown.open()
        for task in [first] + a + b { _ = try await task.value }
        let started = await recorder.events.filter { $0.hasPrefix("start") }.count
        XCTAssertEqual(started, 5, "another caller was refused for the first one's requests")
    }

    func testRefuseAllRefusesTheCallersWaitingAndNewRequestsForAWhile() async throws {
        let clock = ManualClock()
        let queue = ConsentQueue(refuseAllDuration: .seconds(600), now: { clock.now })
        let recorder = Recorder()
        let shown = Gate()
        let first = request("a0", queue, recorder, shown, caller: "a")
        try await waitUntil("a's first dialog is shown") { await recorder.events == ["start a0"] }
        let a = try await self.queue(["a1", "a2"], of: "a", queue, recorder)
        let b = try await self.queue(["b1"], of: "b", queue, recorder)

        await queue.refuseAll("a")  // what the dialog's third button does
        try await waitUntil("a's waiting requests leave the queue") { await queue.waiting == 1 }
        for task in a {
            do {
                _ = try await task.value
                XCTFail("a waiting request of a refused caller was shown")
            } catch {
                XCTAssertTrue(error is ConsentQueue.RefusedAll, "\(error)")
            }
        }
        let waiting = await queue.waiting
        XCTAssertEqual(waiting, 1, "only b waits")
        shown.open()
        _ = try await first.value
        _ = try await b[0].value
        let started = await recorder.events.filter { $0.hasPrefix("start") }
        XCTAssertEqual(started, ["start a0", "start b1"])

        clock.advance(by: .seconds(599))
        do {
            _ = try await queue.run(for: "a") { "too soon" }
            XCTFail("a new request of a refused caller was shown within the while")
        } catch {
            XCTAssertTrue(error is ConsentQueue.RefusedAll, "\(error)")
        }
        let other = try await queue.run(for: "b") { "b again" }
        XCTAssertEqual(other, "b again")
        clock.advance(by: .seconds(1))
        let again = try await queue.run(for: "a") { "a again" }
        XCTAssertEqual(again, "a again", "the caller is asked again once the while has passed")
    }
}
