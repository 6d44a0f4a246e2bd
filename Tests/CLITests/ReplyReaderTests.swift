import WalletBridge
import XCTest

@testable import WalletBridgeCLI
@testable import WalletBridgeSystem

/// How `call` and `doctor` read a host's stdout: `FrameDecoder.next(atEnd:)` at the browsers' limit
/// (this file tested the CLI's own reader, which it replaced), and the words they print.
final class ReplyReaderTests: XCTestCase {
    private func frame(_ text: String) -> [UInt8] { try! Frame.encode(Array(text.utf8)) }

    func testFramesDeliveredOneByteAtATime() {
        var reader = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        let stream = frame(#"{"a":1}"#) + frame("[]")
        var frames: [String] = []
        for byte in stream {
            reader.append([byte])
            while case .frame(let body) = reader.next(atEnd: false) {
                frames.append(String(decoding: body, as: UTF8.self))
            }
        }
        XCTAssertEqual(frames, [#"{"a":1}"#, "[]"])
        XCTAssertEqual(reader.next(atEnd: true), .end)
    }

    func testAFrameOfExactlyTheLimitIsAccepted() {
        var reader = FrameDecoder(maxFrameBytes: 8)
        reader.append(frame("12345678"))
        XCTAssertEqual(reader.next(atEnd: true), .frame(Array("12345678".utf8)))
    }

    func testAnOversizedReplyIsTooLargeNotStray() {
        var reader = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        var header = withUnsafeBytes(of: UInt32(1_048_577)) { Array($0) }
        reader.append(header)
        XCTAssertEqual(reader.next(atEnd: false), .needMore, "waits for a body byte before judging")
        header.append(UInt8(ascii: "{"))
        reader = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        reader.append(header)
        XCTAssertEqual(reader.next(atEnd: false), .fault(.tooLarge(announced: 1_048_577, limit: 1_048_576)))
    }

    func testAnOversizedHeaderWhoseBodyNeverComesIsStillTooLarge() {
        var reader = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        reader.append(withUnsafeBytes(of: UInt32(2_000_000)) { Array($0) })
        XCTAssertEqual(reader.faultAtTimeout, .tooLarge(announced: 2_000_000, limit: 1_048_576))
        XCTAssertEqual(reader.next(atEnd: true), .fault(.tooLarge(announced: 2_000_000, limit: 1_048_576)))
    }

    func testTextOnStdoutIsStrayOutputWithTheLengthItDecodesTo() {
        var reader = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        reader.append(Array("Hello\n".utf8))
        let announced = Int(
            UInt32(littleEndian: Array("Hell".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }))
        XCTAssertEqual(
            reader.next(atEnd: false),
            .fault(.strayOutput(announced: announced, limit: 1_048_576, bytes: Array("Hello\n".utf8))))
    }

    func testBinaryGarbageAboveTheLimitIsStrayWhenTheBodyIsNotJSON() {
        var reader = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        reader.append([0x00, 0x00, 0xF0, 0x00, 0xFF])
        guard case .fault(.strayOutput) = reader.next(atEnd: false) else { return XCTFail("expected stray output") }
    }

    func testStdoutEndingMidFrameIsTruncated() {
        var reader = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        reader.append(Array(frame(#"{"a":1}"#).prefix(7)))
        XCTAssertEqual(reader.next(atEnd: false), .needMore)
        XCTAssertEqual(
            reader.next(atEnd: true),
            .fault(.truncated(announced: 7, received: 3, bytes: Array(frame(#"{"a":1}"#).prefix(7)))))
        var short = FrameDecoder(maxFrameBytes: Frame.maxOutboundBytes)
        short.append([0x01, 0x02])
        XCTAssertEqual(short.next(atEnd: true), .fault(.truncated(announced: nil, received: 2, bytes: [0x01, 0x02])))
    }

    func testHostErrorMessagesAreTheBrowserLikeOnes() {
        XCTAssertEqual(
            NativeHostError(.fault(.tooLarge(announced: 1_100_041, limit: 1_048_576))).summary,
            "Chrome and Firefox would drop the port: reply of 1100041 bytes exceeds 1048576")
        let stray = NativeHostError(
            .fault(.strayOutput(announced: 1_819_043_144, limit: 1_048_576, bytes: Array("Hello".utf8)))
        ).summary
        XCTAssertTrue(stray.hasPrefix("message of 1819043144 bytes exceeds the limit"), stray)
        XCTAssertTrue(stray.contains("Something printed to stdout"), stray)
    }

    func testExitStatusWords() {
        XCTAssertEqual(ExitStatus(raw: 3 << 8).description, "exited with status 3")
        XCTAssertTrue(ExitStatus(raw: 9).description.hasPrefix("was killed by signal 9"))
    }
}
