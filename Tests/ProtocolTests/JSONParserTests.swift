import WalletBridge
import XCTest

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
    }

    func testScalarsAndContainers() throws {
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse(" true "), .bool(true))
        XCTAssertEqual(try parse("\"a\\u00e9\""), .string("aé"))
        XCTAssertEqual(try parse("[1,{\"k\":[]}]"), .array([.number(JSONNumber(1)), .object(["k": .array([])])]))
    }

    func testNumberLexemesAreKept() throws {
        for literal in ["0", "-0", "1.50", "1e3", "1E+3", "-2.5e-10", String(repeating: "9", count: 10_000)] {
            guard case .number(let number) = try parse(literal) else { return XCTFail(literal) }
            XCTAssertEqual(number.literal, literal)
        }
    }

    func testInvalidNumbersAreRejected() {
        for literal in ["01", "1.", ".5", "+1", "1e", "-", "0x10", "Infinity", "NaN"] {
            XCTAssertThrowsError(try parse(literal), literal)
        }
    }

    func testDepthLimitIsAnErrorNotACrash() throws {
        XCTAssertNoThrow(try parse(String(repeating: "[", count: 10) + String(repeating: "]", count: 10), maxDepth: 10))
        XCTAssertThrowsError(
            try parse(String(repeating: "[", count: 11) + String(repeating: "]", count: 11), maxDepth: 10))
        // 100,000 levels: rejected at the limit, long before the stack would run out.
        XCTAssertThrowsError(try parse(String(repeating: "[", count: 100_000)))
    }

    func testDuplicateKeysAreRejected() {
        XCTAssertThrowsError(try parse(#"{"a":1,"a":1}"#)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, "duplicate key \"a\"")
        }
    }

    func testStringsMustBeValidUTF8WithEscapedControls() {
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]))
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0x61, 0x5C, 0x6E, 0xFF, 0x22]))  // after an escape too
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0x0A, 0x22]))
        XCTAssertThrowsError(try parse("\"\\ud800\""))
        XCTAssertThrowsError(try parse("\"\\udc00\""))
        XCTAssertEqual(try parse("\"\\ud83d\\ude00\""), .string("😀"))
    }

    func testByteOrderMarkAndTrailingDataAreRejected() {
        XCTAssertThrowsError(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        XCTAssertThrowsError(try parse("{} {}"))
        XCTAssertThrowsError(try parse(""))
    }

    func testWriterRoundTrips() throws {
        let text = #"{"a":[1,2.50,"x\"\\\n\u0001"],"b":null,"c":true}"#
        let value = try parse(text)
        XCTAssertEqual(String(decoding: value.jsonBytes, as: UTF8.self), text)
    }
}
