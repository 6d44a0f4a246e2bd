#if canImport(Glibc)
import Glibc
#endif

/// The two times the bridge reads, passed in rather than read where they are used, so that a
/// test can move time on (quiet periods, grace, timeouts, cache validity, session expiries)
/// instead of sleeping through it.
///
/// Closures, not a `Clock` protocol: deadlines are checked on plain threads (the read loop, the
/// agent's accept loop, a lock's holder), where an async `sleep(until:)` has no use, and every
/// deadline already is a `ContinuousClock.Instant`.
package struct Clocks: Sendable {
    /// Monotonic time: deadlines, timeouts, how long since something happened.
    package var monotonic: @Sendable () -> ContinuousClock.Instant
    /// Wall-clock time in whole seconds since 1970 (what `time(nil)` gives): session expiries
    /// and times written to files or shown to people.
    package var wall: @Sendable () -> Int

    package init(
        monotonic: @escaping @Sendable () -> ContinuousClock.Instant, wall: @escaping @Sendable () -> Int
    ) {
        self.monotonic = monotonic
        self.wall = wall
    }

    /// The system's clocks. Computed, not stored: closures that capture nothing need no lazy
    /// global on a host's cold start.
    package static var system: Clocks {
        Clocks(monotonic: { ContinuousClock.now }, wall: { Int(time(nil)) })
    }
}
