#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeClient
import WalletBridgeFraming
import WalletBridgeProtocol
import XCTest

/// `Connection` over real descriptors (a socketpair, a pair of pipes), the peer played by the
/// test. Waits end at deadlines measured by a fixed clock, so nothing here sleeps.
final class ConnectionTests: XCTestCase {
    private var descriptors: [Int32] = []
    /// The clock every connection here reads: it stands still, so a deadline at `start` has passed.
    private let start = ContinuousClock.now

    override func tearDown() {
        for fd in descriptors { close(fd) }
        descriptors = []
    }

    private func socketPair() -> (client: Int32, peer: Int32) {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        descriptors += pair
        return (pair[0], pair[1])
    }

    private func pipePair() -> (read: Int32, write: Int32) {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&pair), 0)
        descriptors += pair
        return (pair[0], pair[1])
    }

    private func connection(_ input: Int32, _ output: Int32, limit: Int = Frame.maxOutboundBytes) -> Connection {
        let now = start
        return Connection(input: input, output: output, maxFrameBytes: limit, now: { now })
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) {
        XCTAssertEqual(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }, bytes.count)
    }

    private func writeFrame(_ fd: Int32, _ text: String) throws {
        write(fd, try Frame.encode(Array(text.utf8)))
    }

    /// Frames the peer has been sent, read without waiting for more than is there.
    private func readFrames(_ fd: Int32, count: Int) throws -> [String] {
        var decoder = FrameDecoder()
        var bodies: [String] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bodies.count < count {
            if let body = try decoder.nextFrame() {
                bodies.append(String(decoding: body, as: UTF8.self))
                continue
            }
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            guard got > 0 else { XCTFail("the peer's input ended"); break }
            decoder.append(Array(chunk[0..<got]))
        }
        return bodies
    }

    /// What `body` threw: a `Connection.Failure`, or a test failure for anything else.
    private func failure(_ body: () throws -> Void) -> Connection.Failure? {
        do {
            try body()
            return nil
        } catch let failure as Connection.Failure {
            return failure
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testRepliesAreMatchedByIdAndNotificationsQueuedInOrder() throws {
        let (client, peer) = socketPair()
        let connection = connection(client, client)
        let first = connection.send(method: "a", encodedParams: Array("[1]".utf8))
        let second = connection.send(method: "b", encodedParams: nil)
        XCTAssertEqual(connection.inFlight, [first, second])
        try connection.flush(until: nil)
        XCTAssertEqual(
            try readFrames(peer, count: 2),
            [
                #"{"jsonrpc":"2.0","id":1,"method":"a","params":[1]}"#, #"{"jsonrpc":"2.0","id":2,"method":"b"}"#,
            ])
        try writeFrame(peer, #"{"jsonrpc":"2.0","method":"changed","params":{"n":1}}"#)
        try writeFrame(peer, #"{"jsonrpc":"2.0","id":2,"result":"two"}"#)
        try writeFrame(peer, #"{"jsonrpc":"2.0","method":"changed","params":{"n":2}}"#)
        try writeFrame(peer, #"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"no"}}"#)
        XCTAssertEqual(
            try connection.reply(to: first, until: self.start).outcome, .error(RPCError(code: -32000, message: "no")))
        XCTAssertEqual(connection.inFlight, [])
        // Kept for its own caller, though it came first.
        XCTAssertEqual(try connection.reply(to: second, until: start).outcome, .result(.string("two")))
        XCTAssertEqual(connection.nextNotification()?.params, .object(["n": .number(JSONNumber(1))]))
        XCTAssertEqual(connection.nextNotification()?.params, .object(["n": .number(JSONNumber(2))]))
        XCTAssertNil(connection.nextNotification())
    }

    func testADeadlineThatPassedEndsTheWaitWithWhatCame() throws {
        let (client, peer) = socketPair()
        let connection = connection(client, client)
        let id = connection.send(method: "slow", encodedParams: nil)
        try connection.flush(until: start)
        XCTAssertEqual(failure { _ = try connection.reply(to: id, until: self.start) }, .timedOut(received: []))
        write(peer, Array("ab".utf8))
        XCTAssertEqual(
            failure { _ = try connection.reply(to: id, until: self.start) }, .timedOut(received: Array("ab".utf8)))
    }

    /// A descriptor closed under the connection is a failure at once, not a wait that returns
    /// at once round after round (poll's POLLNVAL) until the deadline. The one connection here
    /// on the real clock, so that a connection that spun would end in a timeout, not hang.
    func testAnInputClosedUnderTheConnectionIsAFailureNotASpin() throws {
        var pair: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        descriptors.append(pair[1])
        let connection = Connection(
            input: pair[0], output: pair[0], maxFrameBytes: Frame.maxOutboundBytes, now: { ContinuousClock.now })
        let id = connection.send(method: "m", encodedParams: nil)
        try connection.flush(until: nil)
        close(pair[0])
        XCTAssertEqual(
            failure { _ = try connection.reply(to: id, until: ContinuousClock.now + .seconds(2)) }, .system(EBADF))
    }

    func testAnOversizedHeaderAtTheDeadlineIsAFaultNotATimeout() {
        let (client, peer) = socketPair()
        let connection = connection(client, client, limit: 10)
        let id = connection.send(method: "m", encodedParams: nil)
        write(peer, withUnsafeBytes(of: UInt32(50)) { Array($0) })
        XCTAssertEqual(
            failure { _ = try connection.reply(to: id, until: self.start) }, .fault(.tooLarge(announced: 50, limit: 10))
        )
    }

    func testAnInputThatEndsIsClosedOrTruncated() throws {
        let (client, peer) = socketPair()
        let connection = connection(client, client)
        let id = connection.send(method: "m", encodedParams: nil)
        try connection.flush(until: nil)
        shutdown(peer, Int32(SHUT_WR))
        XCTAssertEqual(failure { _ = try connection.reply(to: id, until: self.start) }, .closed)

        let (other, otherPeer) = socketPair()
        let cut = self.connection(other, other)
        let cutID = cut.send(method: "m", encodedParams: nil)
        write(otherPeer, withUnsafeBytes(of: UInt32(9)) { Array($0) } + Array("{".utf8))
        shutdown(otherPeer, Int32(SHUT_WR))
        XCTAssertEqual(
            failure { _ = try cut.reply(to: cutID, until: self.start) },
            .fault(.truncated(announced: 9, received: 1, bytes: [9, 0, 0, 0, UInt8(ascii: "{")])))
    }

    func testAReplyToNoRequestAndABodyThatIsNoResponseAreFailures() throws {
        let (client, peer) = socketPair()
        let connection = connection(client, client)
        let id = connection.send(method: "m", encodedParams: nil)
        try writeFrame(peer, #"{"jsonrpc":"2.0","id":5,"result":1}"#)
        XCTAssertEqual(
            failure { _ = try connection.reply(to: id, until: self.start) },
            .unexpected(.number(JSONNumber(5)), body: Array(#"{"jsonrpc":"2.0","id":5,"result":1}"#.utf8)))
        try writeFrame(peer, #"{"jsonrpc":"2.0","id":1}"#)
        XCTAssertEqual(
            failure { _ = try connection.reply(to: id, until: self.start) },
            .notResponse(
                .notResponse("neither \"result\" nor \"error\""), body: Array(#"{"jsonrpc":"2.0","id":1}"#.utf8)))
    }

    func testWritingToAPeerThatLeftIsOutputClosedWithoutSIGPIPE() {
        let (client, peer) = socketPair()
        close(peer)
        descriptors.removeAll { $0 == peer }
        let connection = connection(client, client)
        connection.send(method: "m", encodedParams: nil)
        XCTAssertEqual(failure { try connection.flush(until: nil) }, .outputClosed(EPIPE))
    }

    /// Over pipes (a host's stdin and stdout), a request larger than the pipe holds is written as
    /// the peer reads it: a flush that cannot finish by its deadline says so instead of blocking.
    func testAFlushIntoAFullPipeWaitsOnlyUntilItsDeadline() throws {
        let requests = pipePair(), replies = pipePair()
        XCTAssertEqual(fcntl(requests.write, F_SETFL, fcntl(requests.write, F_GETFL) | O_NONBLOCK), 0)
        let connection = connection(replies.read, requests.write)
        let params = Array(("[\"" + String(repeating: "x", count: 300_000) + "\"]").utf8)
        let id = connection.send(method: "big", encodedParams: params)
        XCTAssertEqual(failure { try connection.flush(until: self.start) }, .timedOut(received: []))
        XCTAssertTrue(connection.hasPendingOutput)
        // The peer reads the rest as the connection writes it, then answers.
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        let expected = Frame.headerBytes + Request.encode(id: id, method: "big", encodedParams: params).count
        while received.count < expected {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(requests.read, $0.baseAddress!, $0.count) }
            XCTAssertGreaterThan(got, 0)
            received += chunk[0..<got]
            _ = failure { try connection.flush(until: self.start) }
        }
        XCTAssertFalse(connection.hasPendingOutput)
        var decoder = FrameDecoder()
        decoder.append(received)
        XCTAssertEqual(try decoder.nextFrame(), Request.encode(id: id, method: "big", encodedParams: params))
        try writeFrame(replies.write, #"{"jsonrpc":"2.0","id":1,"result":true}"#)
        XCTAssertEqual(try connection.reply(to: id, until: self.start).outcome, .result(.bool(true)))
    }

    func testNextFrameHandsOverTheBytesAndNilAtTheEnd() throws {
        let (client, peer) = socketPair()
        let connection = connection(client, client)
        try writeFrame(peer, "not json")
        shutdown(peer, Int32(SHUT_WR))
        XCTAssertEqual(try connection.nextFrame(until: start), Array("not json".utf8))
        XCTAssertNil(try connection.nextFrame(until: start))
    }

    func testPumpServesSeveralConnectionsAndSideReaders() throws {
        let (a, aPeer) = socketPair(), (b, bPeer) = socketPair()
        let side = pipePair()
        let first = connection(a, a), second = connection(b, b)
        var heard: [UInt8] = []
        second.sideReaders = [
            (
                side.read,
                { fd in
                    var byte: UInt8 = 0
                    guard Glibc.read(fd, &byte, 1) == 1 else { return false }
                    heard.append(byte)
                    return true
                }
            )
        ]
        let firstID = first.send(method: "m", encodedParams: nil),
            secondID = second.send(method: "m", encodedParams: nil)
        try writeFrame(bPeer, #"{"jsonrpc":"2.0","id":1,"result":"b"}"#)
        write(side.write, [0x2A])
        XCTAssertTrue(try Connection.pump([first, second], until: start))
        XCTAssertNil(try first.takeReply(to: firstID))
        XCTAssertEqual(try second.takeReply(to: secondID)?.outcome, .result(.string("b")))
        XCTAssertEqual(heard, [0x2A])
        XCTAssertEqual(try readFrames(aPeer, count: 1), [#"{"jsonrpc":"2.0","id":1,"method":"m"}"#])
        XCTAssertFalse(try Connection.pump([first, second], until: start))
    }
}
