#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// The two times the bridge reads, and its two ways to act at a deadline, passed in rather
/// than used where they are needed, so that a test can move time on (quiet periods, grace,
/// timeouts, cache validity, session expiries) instead of sleeping through it.
///
/// Closures, not a `Clock` protocol: deadlines are mostly checked on plain threads (the read
/// loop, the agent's accept loop, a lock's holder), which only read the time, and every
/// deadline already is a `ContinuousClock.Instant`. Async code that waits for one (a proposal's
/// or a session request's expiry) does so through `sleep(until:)`, on the same clock; code
/// that is not async and must stay so (a host's cold call, where starting Swift concurrency's
/// runtime costs time) has work run then on a Dispatch queue, through `schedule(at:on:_:)`.
package struct Clocks: Sendable {
    /// Monotonic time: deadlines, timeouts, how long since something happened.
    package var monotonic: @Sendable () -> ContinuousClock.Instant
    /// Wall-clock time in whole seconds since 1970 (what `time(nil)` gives): session expiries
    /// and times written to files or shown to people.
    package var wall: @Sendable () -> Int
    /// Waits until `monotonic` reaches a deadline; throws `CancellationError` when the task is
    /// cancelled first (`sleep(until:)`).
    package var sleeper: @Sendable (_ deadline: ContinuousClock.Instant) async throws -> Void
    /// Runs `work` on `queue` once `monotonic` has reached `deadline` (`schedule(at:on:_:)`).
    package var scheduler:
        @Sendable (
            _ deadline: ContinuousClock.Instant, _ queue: DispatchQueue, _ work: @escaping @Sendable () -> Void
        ) -> Void

    /// `scheduler` is required, not the system's by default: a clock whose time is not the
    /// system's would have its work run on the system's time instead.
    package init(
        monotonic: @escaping @Sendable () -> ContinuousClock.Instant, wall: @escaping @Sendable () -> Int,
        sleeper: @escaping @Sendable (_ deadline: ContinuousClock.Instant) async throws -> Void,
        scheduler:
            @escaping @Sendable (
                _ deadline: ContinuousClock.Instant, _ queue: DispatchQueue, _ work: @escaping @Sendable () -> Void
            ) -> Void
    ) {
        self.monotonic = monotonic
        self.wall = wall
        self.sleeper = sleeper
        self.scheduler = scheduler
    }

    /// The system's clocks. Computed, not stored: closures that capture nothing need no lazy
    /// global, and no allocation, on a host's cold start.
    package static var system: Clocks {
        Clocks(
            monotonic: { ContinuousClock.now }, wall: { Int(time(nil)) },
            sleeper: { try await Task.sleep(until: $0, clock: .continuous) },
            scheduler: { deadline, queue, work in
                queue.asyncAfter(deadline: dispatchTime(of: deadline), execute: work)
            })
    }

    /// `deadline` on Dispatch's clock, which is not `ContinuousClock`: now there, plus what is
    /// left until it here (nothing when it has passed; a wait longer than 2^32 seconds, 136
    /// years, is cut to that, which Int nanoseconds can hold).
    private static func dispatchTime(of deadline: ContinuousClock.Instant) -> DispatchTime {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return .now() }
        let (seconds, attoseconds) = left.components
        let nanoseconds = Int(min(seconds, 1 << 32)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return .now() + .nanoseconds(nanoseconds)
    }

    /// Returns once `monotonic` has reached `deadline` (at once when it already has); throws
    /// `CancellationError` when the task is cancelled first.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleeper(deadline)
    }

    /// Runs `work` on `queue` once `monotonic` has reached `deadline` (as soon as it can when it
    /// already has), without a task: the system's is `DispatchQueue.asyncAfter`.
    package func schedule(
        at deadline: ContinuousClock.Instant, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void
    ) {
        scheduler(deadline, queue, work)
    }
}
