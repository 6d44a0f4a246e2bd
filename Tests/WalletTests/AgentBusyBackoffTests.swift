import WalletBridge
@testable import WalletBridgeAgent
import XCTest

/// A host refused for `too_many_connections` tries again (docs/agent.md, Limits): with pauses
/// that grow, never a busy loop, and never past its time.
final class AgentBusyBackoffTests: XCTestCase {
    func testPausesGrowAndStopAtTheDeadline() {
        let clock = ContinuousClock()
        var backoff = BusyBackoff(within: .milliseconds(400))
        var pauses: [Duration] = []
        let started = clock.now
        while true {
            let before = clock.now
            guard backoff.pause() else { break }
            pauses.append(clock.now - before)
        }
        let took = clock.now - started
        XCTAssertLessThanOrEqual(took, .milliseconds(450), "past its time")
        // 20, 40, 80, 160 ms at most (each shortened by up to half): 4 to 7 tries in 400 ms.
        XCTAssert((3...8).contains(pauses.count), "\(pauses.count) tries: \(pauses)")
        XCTAssert(pauses.allSatisfy { $0 >= .milliseconds(10) }, "a pause under 10 ms: \(pauses)")
        XCTAssertGreaterThan(pauses.last!, pauses.first!, "the pauses do not grow: \(pauses)")
    }

    func testNoTimeMeansNoTry() {
        var backoff = BusyBackoff(within: .zero)
        let clock = ContinuousClock()
        let started = clock.now
        XCTAssertFalse(backoff.pause())
        XCTAssertLessThan(clock.now - started, .milliseconds(5))
    }
}
