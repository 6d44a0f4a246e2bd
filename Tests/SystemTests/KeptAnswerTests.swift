import WalletBridgeTestSupport
@testable import WalletBridgeWallet
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@_spi(KeptAnswer) @testable import WalletBridgeSystem
@testable import WalletBridgeTransactions
import XCTest

/// When a kept answer holds (`KeptAnswer.Validity`): for requests read before it was taken,
/// under the same event mark until it expires, and again after a check finds its files as kept.
final class KeptAnswerTests: XCTestCase {
    private let clock = ManualClock()

    private func stamp(inode: UInt64) -> FileStamp {
        let time = FileStamp.Instant(seconds: 1_800_000_000, nanoseconds: 0)
        return FileStamp(device: 1, inode: inode, size: 10, mode: 0o100600, owner: 1000, modified: time, changed: time)
    }

    private func validity(mark: UInt64?, stamp: FileStamp? = nil) -> KeptAnswer<String>.Validity {
        KeptAnswer<String>.Validity(takenAt: clock.now, mark: mark, expiresAt: clock.now + .seconds(1), stamp: stamp)
    }

    func testNothingKeptIsNoAnswer() {
        XCTAssertNil(KeptAnswer<String>().answer(notBefore: clock.now, now: clock.now, mark: 1))
    }

    func testARequestReadBeforeTheAnswerWasTakenSharesIt() {
        let kept = KeptAnswer<String>()
        let readAt = clock.now
        clock.advance(by: .milliseconds(5))
        kept.keep("answer", validity(mark: nil))
        let found = kept.answer(notBefore: readAt, now: clock.now, mark: nil)
        XCTAssertEqual(found?.value, "answer")
        XCTAssertEqual(found?.onTheMark, false)
        clock.advance(by: .seconds(5))
        XCTAssertEqual(
            kept.answer(notBefore: readAt, now: clock.now, mark: nil)?.value, "answer",
            "however long ago: it was read together")
    }

    func testALaterRequestGetsItOnlyUnderTheSameMarkBeforeItExpires() {
        let kept = KeptAnswer<String>()
        kept.keep("answer", validity(mark: 7))
        clock.advance(by: .milliseconds(999))
        let found = kept.answer(notBefore: clock.now, now: clock.now, mark: 7)
        XCTAssertEqual(found?.value, "answer")
        XCTAssertEqual(found?.onTheMark, true)
        XCTAssertNil(kept.answer(notBefore: clock.now, now: clock.now, mark: 8), "an event came since")
        XCTAssertNil(kept.answer(notBefore: clock.now, now: clock.now, mark: nil), "nobody listens now")
        clock.advance(by: .milliseconds(1))
        XCTAssertNil(
            kept.answer(notBefore: clock.now, now: clock.now, mark: 7),
            "expired: what events cannot say is looked at again")
    }

    func testAnAnswerKeptWithoutAMarkIsNotGivenOnAnyMark() {
        let kept = KeptAnswer<String>()
        kept.keep("answer", validity(mark: nil))
        clock.advance(by: .milliseconds(1))
        XCTAssertNil(kept.answer(notBefore: clock.now, now: clock.now, mark: 0))
    }

    func testACheckThatFindsTheFilesAsKeptRenewsIt() {
        let kept = KeptAnswer<String>()
        kept.keep("answer", validity(mark: 1, stamp: stamp(inode: 5)))
        clock.advance(by: .seconds(2))
        XCTAssertNil(kept.answer(notBefore: clock.now, now: clock.now, mark: 1))
        XCTAssertNil(kept.renewed(validity(mark: 2, stamp: stamp(inode: 6)), update: { $0 + " again" }), "another file")
        XCTAssertNil(kept.answer(notBefore: clock.now, now: clock.now, mark: 2), "a failed check changes nothing")
        XCTAssertNil(kept.renewed(validity(mark: 2), update: { $0 }), "no file: nothing to check")
        XCTAssertEqual(
            kept.renewed(validity(mark: 2, stamp: stamp(inode: 5)), update: { $0 + " again" }), "answer again")
        clock.advance(by: .milliseconds(1))
        XCTAssertEqual(
            kept.answer(notBefore: clock.now, now: clock.now, mark: 2)?.value, "answer again",
            "renewed under the new mark")
    }

    func testKeepingNothingForgets() {
        let kept = KeptAnswer<String>()
        let readAt = clock.now
        kept.keep("answer", validity(mark: nil))
        kept.keep(nil, validity(mark: nil))
        XCTAssertNil(kept.answer(notBefore: readAt, now: clock.now, mark: nil))
    }
}
