#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
@testable import WalletBridgeHost
import WalletBridgeProtocol
@testable import WalletBridgeStdio
import XCTest
@testable import WalletBridgeSystem

/// Shutdown in process: anyone may ask for the end, only the loop's owner performs it, and the
/// first request decides the status. The session's exit is injected, so a test sees the status
/// instead of losing its process.
final class SessionTests: XCTestCase {
    /// The status a session ended with, recorded by its injected exit.
    private final class EndRecorder: Sendable {
        let status = Mutex<Int32?>(nil)
        let ended = DispatchSemaphore(value: 0)

        /// Records the status and ends the calling thread (never the test's own).
        var exit: @Sendable (Int32) -> Never {
            { [self] code in
                status.withLock { $0 = code }
                ended.signal()
                pthread_exit(nil)
            }
        }
    }

    /// Runs `body` on a thread of its own, as the reader thread would.
    private func onReaderThread(_ body: @escaping @Sendable () -> Void) {
        Thread { body() }.start()
    }

    func testTheFirstRequestedEndDecidesAndTheReaderPerformsIt() throws {
        let recorder = EndRecorder()
        let session = Session(configuration: HostConfiguration(), exit: recorder.exit)
        session.requestEnd(status: 3, reason: "first")
        session.requestEnd(status: 5, reason: "second")
        XCTAssertNil(recorder.status.withLock { $0 }, "a request only asks; nothing has ended yet")
        var wake = pollfd(fd: session.wakeFileDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&wake, 1, 1000), 1, "the request wakes the reader")
        onReaderThread { session.endIfRequested() }
        XCTAssertEqual(recorder.ended.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(recorder.status.withLock { $0 }, 3)
    }

    func testTheEndCancelsWhatRunsAndLetsItsAnswerOutWithinTheGrace() throws {
        let recorder = EndRecorder()
        var configuration = HostConfiguration()
        configuration.shutdownGrace = .seconds(2)
        let session = Session(configuration: configuration, exit: recorder.exit)
        var router = Router()
        try router.register(Wait.self) { _, _ in
            // Works until the end cancels it, then answers at once: a stream nobody writes to
            // ends only by cancellation.
            let (work, _) = AsyncStream<Void>.makeStream()
            for await _ in work {}
            try Task.checkCancellation()
            return NoResult()
        }
        let output = try Spawn.pipe()
        defer { close(output.read) }
        let writer = FrameWriter(fileDescriptor: output.write) {}
        let server = Server(
            router: router, configuration: configuration, caller: Caller(arguments: []), send: writer.write)
        session.serving.withLock { $0 = (server, writer) }
        server.receive(Array(#"{"jsonrpc":"2.0","method":"test.wait","id":7}"#.utf8))
        XCTAssertEqual(server.inFlightCount, 1)

        let started = ContinuousClock.now
        onReaderThread { session.end(status: 0, reason: "test") }
        XCTAssertEqual(recorder.ended.wait(timeout: .now() + 10), .success)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2), "the handler answered at once when cancelled")
        XCTAssertEqual(recorder.status.withLock { $0 }, 0)
        close(output.write)
        let reply = try XCTUnwrap(readFrame(output.read))
        guard case .object(let body) = try JSONParser.parse(reply), case .object(let error)? = body["error"] else {
            return XCTFail("not an error reply: \(String(decoding: reply, as: UTF8.self))")
        }
        XCTAssertEqual(
            error["code"], .number(JSONNumber(Int(ErrorCode.requestCancelled.rawValue))), "cancelled by the end")
    }

    private enum Wait: RPCMethod {
        static let name = "test.wait"
        typealias Params = NoParams
        typealias Result = NoResult
    }

    /// One frame's body from `fd`.
    private func readFrame(_ fd: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        guard bytes.count >= 4 else { return nil }
        let length = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        return bytes.count >= 4 + length ? Array(bytes[4..<(4 + length)]) : nil
    }
}
