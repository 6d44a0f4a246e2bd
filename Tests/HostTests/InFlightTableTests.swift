import Dispatch
import Foundation
@testable import WalletBridgeHost
import WalletBridgeProtocol
import XCTest

final class InFlightTableTests: XCTestCase {
    /// A call leaves the table before its reply is written (whoever removes it answers). A
    /// shutdown that asked "is the table empty?" in between exited with the reply unwritten: 3
    /// session_connect calls in 1000, sent just before end of input, got no reply at all.
    func testShutdownWaitsForAReplyBeingWritten() {
        let table = InFlightTable(limit: 4)
        guard let key = table.reserve(deadline: nil, abort: { _ in }) else { return XCTFail("no slot") }
        let writing = DispatchSemaphore(value: 0)
        let mayFinishWriting = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            table.finish(key) {
                writing.signal()
                mayFinishWriting.wait()  // the reply is being written
            }
            finished.signal()
        }
        writing.wait()
        XCTAssertEqual(table.count, 0, "the call has left the table")
        XCTAssertFalse(table.waitUntilEmpty(timeout: .milliseconds(50)), "but its reply is not written yet")
        mayFinishWriting.signal()
        finished.wait()
        XCTAssertTrue(table.waitUntilEmpty(timeout: .seconds(5)))
    }

    func testTheSweepsAnswerCountsToo() {
        let table = InFlightTable(limit: 4)
        let answers = Answers()
        for _ in 0..<3 { XCTAssertNotNil(table.reserve(deadline: .now - .seconds(1), abort: { answers.add($0) })) }
        XCTAssertFalse(table.waitUntilEmpty(timeout: .milliseconds(1)))
        table.expire(now: .now)
        XCTAssertEqual(answers.codes, [-32001, -32001, -32001])
        XCTAssertTrue(table.waitUntilEmpty(timeout: .milliseconds(1)))
    }
}

private final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [RPCError] = []
    func add(_ error: RPCError) { lock.lock(); errors.append(error); lock.unlock() }
    var codes: [Int] { lock.lock(); defer { lock.unlock() }; return errors.map(\.code.rawValue) }
}
