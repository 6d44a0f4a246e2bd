@testable import WalletBridgeFraming
@testable import WalletBridgeProtocol
import XCTest

/// The client's side of the protocol: `Response.parse`, `Request.encode`, and the diagnoses
/// `FrameDecoder.next(atEnd:)` gives for input that is not frames.
final class ClientProtocolTests: XCTestCase {
    private func parse(_ text: String) throws(Response.ParseError) -> Response.Parsed {
        try Response.parse(Array(text.utf8))
    }

    private func rejection(_ text: String, maxBytes: Int = Response.defaultMaxParsedBytes) -> Response.ParseError? {
        do {
            _ = try Response.parse(Array(text.utf8), maxBytes: maxBytes)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Response.parse

    func testParsesAResult() throws {
        let reply = try parse(#"{"jsonrpc":"2.0","id":7,"result":{"a":[1,null]}}"#)
        XCTAssertEqual(reply.id, .number(JSONNumber(7)))
        XCTAssertEqual(reply.outcome, .result(.object(["a": .array([.number(JSONNumber(1)), .null])])))
        XCTAssertEqual(try parse(#"{"jsonrpc":"2.0","id":"x","result":null}"#).outcome, .result(.null))
    }

    func testParsesAnErrorWithItsData() throws {
        let reply = try parse(
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"bad","data":{"reason":"x"}}}"#)
        XCTAssertEqual(reply.id, .null)
        XCTAssertEqual(
            reply.outcome, .error(RPCError(code: -32602, message: "bad", data: .object(["reason": .string("x")]))))
    }

    func testRejectsWhatIsNotAResponseNamingTheRule() {
        XCTAssertEqual(rejection("[1]"), .notResponse("a response is an object, this is an array"))
        XCTAssertEqual(rejection("3"), .notResponse("a response is an object, this is a number"))
        XCTAssertEqual(rejection(#"{"jsonrpc":"1.0","id":1,"result":1}"#), .notResponse("\"jsonrpc\" must be \"2.0\""))
        XCTAssertEqual(rejection(#"{"jsonrpc":"2.0","result":1}"#), .notResponse("no valid \"id\""))
        XCTAssertEqual(rejection(#"{"jsonrpc":"2.0","id":[1],"result":1}"#), .notResponse("no valid \"id\""))
        XCTAssertEqual(rejection(#"{"jsonrpc":"2.0","id":1}"#), .notResponse("neither \"result\" nor \"error\""))
        XCTAssertEqual(
            rejection(#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}"#),
            .notResponse("both \"result\" and \"error\""))
        XCTAssertEqual(
            rejection(#"{"jsonrpc":"2.0","id":1,"error":"no"}"#), .notResponse("\"error\" must be an object"))
        XCTAssertEqual(
            rejection(#"{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":""}}"#),
            .notResponse("error.code must be an integer"))
        // An integer no Int holds is not a code either, and no trap.
        XCTAssertEqual(
            rejection(#"{"jsonrpc":"2.0","id":1,"error":{"code":99999999999999999999999,"message":""}}"#),
            .notResponse("error.code must be an integer"))
        XCTAssertEqual(
            rejection(#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":2}}"#),
            .notResponse("error.message must be a string"))
        guard case .notJSON? = rejection(#"{"jsonrpc":"2.0","#) else { return XCTFail("not JSON") }
    }

    func testRejectsABodyOverTheLimitBeforeParsingIt() {
        // Not JSON at all, yet reported as too large: the length is checked first.
        XCTAssertEqual(rejection(String(repeating: "x", count: 11), maxBytes: 10), .tooLarge(bytes: 11, limit: 10))
        XCTAssertEqual(
            Response.ParseError.tooLarge(bytes: 11, limit: 10).description,
            "the response is 11 bytes, over the limit of 10")
    }

    func testParsesWhatTheHostWrites() throws {
        let success = Response.success(id: .string("a"), encodedResult: Array("[true]".utf8))
        XCTAssertEqual(
            try Response.parse(success), Response.Parsed(id: .string("a"), outcome: .result(.array([.bool(true)]))))
        let error = RPCError(.invalidParams, detail: "amount: must be a string")
        let failure = Response.failure(id: .number(JSONNumber(3)), error: error)
        XCTAssertEqual(try Response.parse(failure), Response.Parsed(id: .number(JSONNumber(3)), outcome: .error(error)))
    }

    // MARK: Request.encode

    func testEncodesARequestThatParsesBack() throws {
        let body = Request.encode(id: .number(JSONNumber(12)), method: "wallet\"x", params: .array([.string("é\n")]))
        XCTAssertEqual(
            String(decoding: body, as: UTF8.self), #"{"jsonrpc":"2.0","id":12,"method":"wallet\"x","params":["é\n"]}"#)
        let back = Request.parse(try JSONParser.parse(body))
        XCTAssertEqual(
            back, .request(Request(id: .number(JSONNumber(12)), method: "wallet\"x", params: .array([.string("é\n")]))))
    }

    func testEncodesANotificationWithoutIdAndParamsWhenNone() {
        XCTAssertEqual(
            String(decoding: Request.encode(id: nil, method: "ping", params: nil), as: UTF8.self),
            #"{"jsonrpc":"2.0","method":"ping"}"#)
        XCTAssertEqual(
            String(decoding: Request.encode(id: .null, method: "m", encodedParams: Array("{}".utf8)), as: UTF8.self),
            #"{"jsonrpc":"2.0","id":null,"method":"m","params":{}}"#)
        XCTAssertEqual(
            Request(id: .string("i"), method: "m", params: .object([:])).encoded,
            Array(#"{"jsonrpc":"2.0","id":"i","method":"m","params":{}}"#.utf8))
    }

    // MARK: FrameDecoder diagnostics

    private func decoder(_ bytes: [UInt8], limit: Int = 100) -> FrameDecoder {
        var decoder = FrameDecoder(maxFrameBytes: limit)
        decoder.append(bytes)
        return decoder
    }

    private func header(_ length: UInt32) -> [UInt8] { withUnsafeBytes(of: length) { Array($0) } }

    func testAFrameAndACleanEnd() throws {
        var decoder = decoder(try Frame.encode(Array("{}".utf8)))
        XCTAssertEqual(decoder.next(atEnd: false), .frame(Array("{}".utf8)))
        XCTAssertEqual(decoder.next(atEnd: false), .needMore)
        XCTAssertEqual(decoder.next(atEnd: true), .end)
    }

    func testTextWhereAHeaderBelongsIsStrayOutput() {
        var decoder = decoder(Array("Hello world".utf8))
        let length = Int(UInt32(littleEndian: 0x6C6C_6548))  // "Hell" read as a length
        XCTAssertEqual(
            decoder.next(atEnd: false),
            .fault(.strayOutput(announced: length, limit: 100, bytes: Array("Hello world".utf8))))
    }

    func testAnOversizedHeaderWaitsForItsFirstBodyByteToTellJSONFromText() {
        var decoder = decoder(header(200))
        XCTAssertEqual(decoder.next(atEnd: false), .needMore)
        XCTAssertEqual(decoder.faultAtTimeout, .tooLarge(announced: 200, limit: 100))
        decoder.append(Array("{".utf8))
        XCTAssertEqual(decoder.next(atEnd: false), .fault(.tooLarge(announced: 200, limit: 100)))
        var binary = self.decoder(header(200) + [0x01])
        XCTAssertEqual(
            binary.next(atEnd: false), .fault(.strayOutput(announced: 200, limit: 100, bytes: header(200) + [0x01])))
        var ended = self.decoder(header(200))
        XCTAssertEqual(ended.next(atEnd: true), .fault(.tooLarge(announced: 200, limit: 100)))
    }

    func testInputEndingInsideAFrameIsTruncated() {
        var short = decoder([0x05, 0x00])
        XCTAssertEqual(short.next(atEnd: false), .needMore)
        XCTAssertNil(short.faultAtTimeout)
        XCTAssertEqual(short.next(atEnd: true), .fault(.truncated(announced: nil, received: 2, bytes: [0x05, 0x00])))
        var cut = decoder(header(10) + Array("{\"a".utf8))
        XCTAssertEqual(
            cut.next(atEnd: true),
            .fault(.truncated(announced: 10, received: 3, bytes: header(10) + Array("{\"a".utf8))))
    }

    func testTheDiagnosesReadAsTheyAlwaysDid() {
        XCTAssertEqual(
            FrameFault.tooLarge(announced: 200, limit: 100).description,
            "Chrome and Firefox would drop the port: reply of 200 bytes exceeds 100")
        XCTAssertEqual(
            FrameFault.truncated(announced: nil, received: 1, bytes: [0x0A]).description,
            #"the host closed stdout after 1 byte, fewer than a frame's 4-byte length ("\n"); "#
                + "the browser would report a broken port. If these bytes are text, something printed to stdout.")
        XCTAssertTrue(
            FrameFault.strayOutput(announced: 1, limit: 0, bytes: Array("{}".utf8)).description
                .contains("it looks like JSON without the 4-byte length in front"))
        XCTAssertEqual(FrameFault.preview([0x00, 0x22, 0x41], limit: 2), #""\x00\""…"#)
        XCTAssertNil(FrameFault.stalled([]))
        XCTAssertEqual(
            FrameFault.stalled(Array("ab".utf8)),
            #"only 2 bytes on stdout, "ab", fewer than the 4-byte length a frame starts with"#)
        XCTAssertEqual(
            FrameFault.stalled(header(65) + [0x7B]),
            #""A\x00\x00\x00{" on stdout, read as a frame of 65 bytes that never came"#)
    }
}
