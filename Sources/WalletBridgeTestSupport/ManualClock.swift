import Synchronization
import WalletBridgeProtocol

/// Time that moves only when a test says so: hand `clocks` to the code under test, then
/// `advance(by:)` past a timeout, a grace, a cache's validity or an expiry instead of sleeping
/// through it. Safe to read and move from any thread.
///
/// Both clocks move together. The monotonic one starts at the real monotonic time when it is
/// made, so that an instant taken from the real clock just before stays comparable; the wall
/// one starts at `wall` (seconds since 1970) and moves in whole seconds as the advances add up.
package final class ManualClock: Sendable {
    private let start: ContinuousClock.Instant
    private let wallStart: Int
    private let offset = Mutex<Duration>(.zero)

    package init(wall: Int = 1_800_000_000, monotonic: ContinuousClock.Instant = .now) {
        start = monotonic
        wallStart = wall
    }

    /// Moves both clocks on by `duration` (never back: a monotonic clock does not go back).
    package func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock moved back")
        offset.withLock { $0 += duration }
    }

    /// The monotonic time now.
    package var now: ContinuousClock.Instant { start + offset.withLock { $0 } }

    /// The wall time now, in whole seconds since 1970.
    package var wall: Int {
        let seconds = offset.withLock { $0 }.components.seconds
        return wallStart + Int(seconds)
    }

    /// The seam the code under test takes.
    package var clocks: Clocks {
        Clocks(monotonic: { self.now }, wall: { self.wall })
    }
}
