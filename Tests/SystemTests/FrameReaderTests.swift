#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import WalletBridgeFraming
import WalletBridgeSystem
import WalletBridgeTestSupport
import XCTest

/// `FrameReader`, the one reader of frames from a socket or a pipe, over real socket pairs: its
/// deadlines on its own clock (a `ManualClock`: nothing is waited out), the agent's strict loop,
/// and a client's steps with their diagnostics.
final class FrameReaderTests: XCTestCase {
    private var ends: [Int32] = [-1, -1]
    private var watchdog: DispatchWorkItem?

    override func setUp() {
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends), 0)
        // Should a reader wait for real, this ends the wait (a read at the end): its test fails
        // instead of hanging.
        let fd = ends[1]
        let watchdog = DispatchWorkItem { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 10, execute: watchdog)
        self.watchdog = watchdog
    }

    override func tearDown() {
        watchdog?.cancel()
        close(ends[0])
        close(ends[1])
    }

    private func send(_ bytes: [UInt8]) {
        XCTAssertNil(bytes.withUnsafeBytes { SystemCall.sendAll(ends[0], $0) })
    }

    private func header(_ length: UInt32) -> [UInt8] { withUnsafeBytes(of: length) { Array($0) } }

    /// A frame begun times out `frameTimeout` after its first byte on the reader's clock; before
    /// it, the clock may run as long as it likes, and bytes already there are read whatever the
    /// clock says.
    func testAFrameBegunTimesOutOnTheReadersClockButNotTheWaitBeforeOne() throws {
        let clock = ManualClock()
        var reader = FrameReader(fd: ends[1], frameTimeout: .seconds(10), now: { clock.now })
        clock.advance(by: .seconds(3600))
        // A whole frame and, read with it, the first bytes of the next, which begin it.
        send(try Frame.encode([7]) + header(10) + [1, 2])
        XCTAssertEqual(try reader.next(deadline: clock.now), [7])
        clock.advance(by: .seconds(10))
        XCTAssertEqual(failure(&reader, deadline: nil), .timedOut, "the frame's own deadline")
    }

    /// The agent's loop refuses a header over the limit as soon as it arrives (no body byte
    /// waited for), and an input that ends inside a frame is a close.
    func testTheStrictLoopRefusesAnOversizedHeaderAtOnceAndAnEndInsideAFrameIsAClose() throws {
        var reader = FrameReader(fd: ends[1], maxFrameBytes: 100)
        send(header(101))
        XCTAssertEqual(failure(&reader, deadline: nil), .framing(.frameTooLarge(length: 101, limit: 100)))
        var other: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &other), 0)
        defer { close(other[1]) }
        var ending = FrameReader(fd: other[1])
        XCTAssertNil([UInt8](header(10) + [1, 2]).withUnsafeBytes { SystemCall.sendAll(other[0], $0) })
        close(other[0])
        XCTAssertEqual(failure(&ending, deadline: nil), .closed)
    }

    /// A client's steps: `wait` and `fill` until the input ends, then `frame` names what it left
    /// unfinished. A frame larger than the first read buffer arrives whole across many reads.
    func testAClientsStepsReadLargeFramesAndNameAnInputThatEndedInsideAFrame() throws {
        var reader = FrameReader(fd: ends[1], now: { .now })
        let large = [UInt8](repeating: 0x41, count: 300_000)
        let frame = try Frame.encode(large)
        let writer = DispatchSemaphore(value: 0)
        let end = ends[0]
        DispatchQueue.global().async {
            _ = frame.withUnsafeBytes { SystemCall.sendAll(end, $0) }
            let rest: [UInt8] = withUnsafeBytes(of: UInt32(10)) { Array($0) } + [1, 2]
            _ = rest.withUnsafeBytes { SystemCall.sendAll(end, $0) }
            _ = shutdown(end, Int32(SHUT_WR))
            writer.signal()
        }
        var frames: [[UInt8]] = []
        var fault: FrameFault?
        // Bounded: a reader that never saw the end would loop here, not hang the suite.
        reading: for _ in 0..<100_000 {
            switch reader.frame() {
            case .frame(let body): frames.append(body)
            case .fault(let found):
                fault = found
                break reading
            case .end: break reading
            case .needMore:
                guard try reader.wait(until: .now + .seconds(10)) else { return XCTFail("timed out") }
                try reader.fill()
            }
        }
        XCTAssertEqual(writer.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(frames, [large])
        XCTAssertTrue(reader.ended)
        XCTAssertEqual(fault, .truncated(announced: 10, received: 2, bytes: header(10) + [1, 2]))
    }
}

/// How `reader`'s next read failed; nil when it read a frame.
private func failure(_ reader: inout FrameReader, deadline: ContinuousClock.Instant?) -> FrameReader.Failure? {
    do {
        _ = try reader.next(deadline: deadline)
        return nil
    } catch {
        return error
    }
}
