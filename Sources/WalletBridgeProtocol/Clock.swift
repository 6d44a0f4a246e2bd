#if canImport(Glibc)
import Glibc
#endif

/// The two times the bridge reads, and its one way to wait for a deadline, passed in rather
/// than used where they are needed, so that a test can move time on (quiet periods, grace,
/// timeouts, cache validity, session expiries) instead of sleeping through it.
///
/// Closures, not a `Clock` protocol: deadlines are mostly checked on plain threads (the read
/// loop, the agent's accept loop, a lock's holder), which only read the time, and every
/// deadline already is a `ContinuousClock.Instant`. Async code that waits for one (a proposal's
/// or a session request's expiry) does so through `sleep(until:)`, on the same clock.
package struct Clocks: Sendable {
    /// Monotonic time: deadlines, timeouts, how long since something happened.
    package var monotonic: @Sendable () -> ContinuousClock.Instant
    /// Wall-clock time in whole seconds since 1970 (what `time(nil)` gives): session expiries
    /// and times written to files or shown to people.
    package var wall: @Sendable () -> Int
    /// Waits until `monotonic` reaches a deadline; throws `CancellationError` when the task is
    /// cancelled first (`sleep(until:)`).
    package var sleeper: @Sendable (_ deadline: ContinuousClock.Instant) async throws -> Void

    package init(
        monotonic: @escaping @Sendable () -> ContinuousClock.Instant, wall: @escaping @Sendable () -> Int,
        sleeper: @escaping @Sendable (_ deadline: ContinuousClock.Instant) async throws -> Void
    ) {
        self.monotonic = monotonic
        self.wall = wall
        self.sleeper = sleeper
    }

    /// The system's clocks. Computed, not stored: closures that capture nothing need no lazy
    /// global, and no allocation, on a host's cold start.
    package static var system: Clocks {
        Clocks(
            monotonic: { ContinuousClock.now }, wall: { Int(time(nil)) },
            sleeper: { try await Task.sleep(until: $0, clock: .continuous) })
    }

    /// Returns once `monotonic` has reached `deadline` (at once when it already has); throws
    /// `CancellationError` when the task is cancelled first.
    package func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleeper(deadline)
    }
}
