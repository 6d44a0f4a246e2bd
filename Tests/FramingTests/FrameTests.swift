import WalletBridge
import XCTest

final class FrameTests: XCTestCase {
    private func frames(_ bodies: [String]) throws -> [UInt8] {
        try bodies.flatMap { try Frame.encode(Array($0.utf8)) }
    }

    private func drain(_ decoder: inout FrameDecoder) throws -> [String] {
        var out: [String] = []
        while let body = try decoder.nextFrame() { out.append(String(decoding: body, as: UTF8.self)) }
        return out
    }

    func testEncodeWritesNativeEndianLengthThenBody() throws {
        let frame = try Frame.encode(Array("{}".utf8))
        XCTAssertEqual(frame, [2, 0, 0, 0, UInt8(ascii: "{"), UInt8(ascii: "}")])  // little-endian hosts
    }

    func testOneByteAtATime() throws {
        let stream = try frames(["{\"a\":1}", "[]", ""])
        var decoder = FrameDecoder()
        var got: [String] = []
        for byte in stream {
            decoder.append([byte])
            got += try drain(&decoder)
        }
        XCTAssertEqual(got, ["{\"a\":1}", "[]", ""])
        XCTAssertEqual(decoder.bufferedByteCount, 0)
    }

    func testEverySplitPointOfTwoFrames() throws {
        let stream = try frames(["hello", "world!"])
        for split in 0...stream.count {
            var decoder = FrameDecoder()
            decoder.append(Array(stream[..<split]))
            var got = try drain(&decoder)
            decoder.append(Array(stream[split...]))
            got += try drain(&decoder)
            XCTAssertEqual(got, ["hello", "world!"], "split at \(split)")
        }
    }

    func testSeveralFramesInOneRead() throws {
        var decoder = FrameDecoder()
        decoder.append(try frames(["1", "22", "333"]))
        XCTAssertEqual(try drain(&decoder), ["1", "22", "333"])
    }

    func testPartialHeaderAndBodyReportWhatIsPending() throws {
        var decoder = FrameDecoder()
        decoder.append([10, 0])
        XCTAssertNil(try decoder.nextFrame())
        XCTAssertNil(decoder.pendingFrameLength)
        decoder.append([0, 0, 1, 2])
        XCTAssertNil(try decoder.nextFrame())
        XCTAssertEqual(decoder.pendingFrameLength, 10)
        XCTAssertEqual(decoder.bufferedByteCount, 6)
    }

    func testLengthAboveMaximumIsRejectedFromTheHeaderAlone() {
        var decoder = FrameDecoder(maxFrameBytes: 100)
        decoder.append([101, 0, 0, 0])
        XCTAssertThrowsError(try decoder.nextFrame()) { error in
            XCTAssertEqual(error as? FramingError, .frameTooLarge(length: 101, limit: 100))
        }
    }

    func testLengthAtMaximumIsAccepted() throws {
        var decoder = FrameDecoder(maxFrameBytes: 3)
        decoder.append(try frames(["abc"]))
        XCTAssertEqual(try drain(&decoder), ["abc"])
    }

    func testMaxUInt32HeaderIsRejectedByDefault() {
        var decoder = FrameDecoder()
        decoder.append([0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertThrowsError(try decoder.nextFrame())
    }

    func testAnnouncedLengthReservesNothing() throws {
        // A header announcing 60 MiB followed by a few bytes must not grow the buffer to 60 MiB.
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0xC0, 0x03, 1, 2, 3])
        XCTAssertNil(try decoder.nextFrame())
        XCTAssertEqual(decoder.bufferedByteCount, 7)
    }
}
