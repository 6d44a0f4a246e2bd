import Dispatch
import Synchronization
import WalletBridgeProtocol

/// Time that moves only when a test says so: hand `clocks` to the code under test, then
/// `advance(by:)` past a timeout, a grace, a cache's validity or an expiry instead of sleeping
/// through it. Safe to read and move from any thread.
///
/// Both clocks move together. The monotonic one starts at the real monotonic time when it is
/// made, so that an instant taken from the real clock just before stays comparable; the wall
/// one starts at `wall` (seconds since 1970) and moves in whole seconds as the advances add up.
///
/// Code that waits (`Clocks.sleep(until:)`) waits until an advance reaches its deadline, or
/// until its task is cancelled: `sleepers(atLeast:)` lets the test see it waiting first. Work
/// scheduled for a deadline (`Clocks.schedule(at:on:_:)`) runs on its queue when an advance
/// reaches it, and the advance returns once it has run.
package final class ManualClock: Sendable {
    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Scheduled {
        let deadline: ContinuousClock.Instant
        let queue: DispatchQueue
        let work: @Sendable () -> Void
    }

    private struct State {
        var offset: Duration = .zero
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        /// Work waiting for its deadline, in the order it was scheduled.
        var scheduled: [Scheduled] = []
        /// Tests waiting for a number of sleepers (`sleepers(atLeast:)`).
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes out the watchers whose count is reached.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let count = sleepers.count
            let done = watchers.filter { $0.count <= count }.map(\.continuation)
            watchers.removeAll { $0.count <= count }
            return done
        }
    }

    private let start: ContinuousClock.Instant
    private let wallStart: Int
    private let state = Mutex(State())

    package init(wall: Int = 1_800_000_000, monotonic: ContinuousClock.Instant = .now) {
        start = monotonic
        wallStart = wall
    }

    /// Moves both clocks on by `duration` (never back: a monotonic clock does not go back),
    /// wakes every sleeper whose deadline is now reached, and runs the scheduled work whose
    /// deadline is, soonest first, each on its queue. They have left `deadlines` when it returns,
    /// and that work has run: what it did is there for the test to see. So a test never advances
    /// on a queue such work is scheduled on, nor while it holds what the work needs.
    package func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock moved back")
        let (woken, due): ([Sleeper], [Scheduled]) = state.withLock { state in
            state.offset += duration
            let now = start + state.offset
            let woken = state.sleepers.filter { $0.value.deadline <= now }
            for id in woken.keys { state.sleepers[id] = nil }
            let due = state.scheduled.filter { $0.deadline <= now }
            state.scheduled.removeAll { $0.deadline <= now }
            return (Array(woken.values), due)
        }
        for sleeper in woken { sleeper.continuation.resume() }
        guard !due.isEmpty else { return }
        let ran = DispatchGroup()
        for item in due.sorted(by: { $0.deadline < $1.deadline }) {
            item.queue.async(group: ran, execute: item.work)
        }
        ran.wait()
    }

    /// The monotonic time now.
    package var now: ContinuousClock.Instant { start + state.withLock { $0.offset } }

    /// The wall time now, in whole seconds since 1970.
    package var wall: Int {
        let seconds = state.withLock { $0.offset }.components.seconds
        return wallStart + Int(seconds)
    }

    /// The deadlines that code is waiting for now (sleepers and scheduled work), soonest first.
    package var deadlines: [ContinuousClock.Instant] {
        state.withLock { $0.sleepers.values.map(\.deadline) + $0.scheduled.map(\.deadline) }.sorted()
    }

    /// Returns once at least `count` sleepers wait on this clock: the code under test has
    /// reached its wait, so an advance now is one it sees.
    package func sleepers(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.sleepers.count < count else { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// `Clocks.sleep(until:)` on this clock.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case waits, due, cancelled }
                // Cancellation is marked before its handler runs: either the check here sees
                // it, or the handler finds the sleeper to wake.
                let (outcome, watchers): (Outcome, [CheckedContinuation<Void, Never>]) = state.withLock { state in
                    if Task.isCancelled { return (.cancelled, []) }
                    if start + state.offset >= deadline { return (.due, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (.waits, state.satisfiedWatchers())
                }
                switch outcome {
                case .waits: for watcher in watchers { watcher.resume() }
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// `Clocks.schedule(at:on:_:)` on this clock: `work` runs on `queue` when an advance reaches
    /// `deadline`, or at once (not waited for) when the clock has reached it already.
    package func schedule(
        at deadline: ContinuousClock.Instant, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void
    ) {
        let due = state.withLock { state in
            guard start + state.offset < deadline else { return true }
            state.scheduled.append(Scheduled(deadline: deadline, queue: queue, work: work))
            return false
        }
        if due { queue.async(execute: work) }
    }

    /// The seam the code under test takes.
    package var clocks: Clocks {
        Clocks(
            monotonic: { self.now }, wall: { self.wall }, sleeper: { try await self.sleep(until: $0) },
            scheduler: { self.schedule(at: $0, on: $1, $2) })
    }
}
