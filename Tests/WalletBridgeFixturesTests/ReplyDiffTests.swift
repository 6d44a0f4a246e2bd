import WalletBridge
import WalletBridgeFixtures
import XCTest

/// The diff a developer reads when a reply is wrong: each difference at its JSON path.
final class ReplyDiffTests: XCTestCase {
    private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8), maxDepth: 512) }

    private func diff(_ expected: String, _ actual: String) throws -> [String] {
        ReplyDiff.differences(expected: try json(expected), actual: try json(actual))
    }

    func testARenamedMemberIsMissingOnOneSideAndUnexpectedOnTheOther() throws {
        XCTAssertEqual(
            try diff(
                #"{"id": 1, "result": {"signed_payloads": ["a"]}}"#, #"{"id": 1, "result": {"signedPayloads": ["a"]}}"#),
            [
                #"result.signedPayloads: unexpected member (got ["a"])"#,
                #"result.signed_payloads: missing (expected ["a"])"#,
            ])
    }

    func testAWrongTypeShowsBothValues() throws {
        XCTAssertEqual(
            try diff(#"{"result": {"pong": "5"}}"#, #"{"result": {"pong": 5}}"#), [#"result.pong: expected "5", got 5"#]
        )
        XCTAssertEqual(try diff(#"{"result": [1]}"#, #"{"result": {"0": 1}}"#), [#"result: expected [1], got {"0":1}"#])
    }

    func testAChangedErrorCode() throws {
        XCTAssertEqual(
            try diff(
                #"{"error": {"code": -32050, "message": "Empty ping"}}"#,
                #"{"error": {"code": -32602, "message": "Invalid params"}}"#),
            ["error.code: expected -32050, got -32602", #"error.message: expected "Empty ping", got "Invalid params""#])
    }

    func testArrayElementsHaveTheirIndex() throws {
        XCTAssertEqual(
            try diff(
                #"{"result": {"signed_payloads": ["abc", "x"]}}"#, #"{"result": {"signed_payloads": ["abd", "x"]}}"#),
            [#"result.signed_payloads[0]: expected "abc", got "abd""#])
        XCTAssertEqual(
            try diff(#"[1, 2, 3]"#, #"[1, 5]"#),
            [
                "reply: expected 3 elements, got 2 elements", "[1]: expected 2, got 5", "[2]: missing (expected 3)",
            ])
        XCTAssertEqual(
            try diff(#"{"a": []}"#, #"{"a": [true]}"#),
            ["a: expected 0 elements, got 1 element", "a[0]: unexpected element (got true)"])
    }

    /// As JSONSemantics compares: by value, whatever the lexeme, and key order ignored.
    func testNumbersCompareByValue() throws {
        XCTAssertEqual(try diff(#"{"a": 1000, "b": 0.5, "c": -0}"#, #"{"c": 0, "b": 5e-1, "a": 1e3}"#), [])
        XCTAssertEqual(
            try diff(#"{"a": 12345678901234567890}"#, #"{"a": 12345678901234567891}"#),
            ["a: expected 12345678901234567890, got 12345678901234567891"], "digits beyond a Double still count")
    }

    func testKeysThatAreNotNamesAreQuoted() throws {
        XCTAssertEqual(
            try diff(#"{"result": {"a b": 1, "0x": 1}}"#, #"{"result": {"a b": 2, "0x": 2}}"#),
            [#"result["0x"]: expected 1, got 2"#, #"result["a b"]: expected 1, got 2"#])
    }

    /// A long string is cut to a window around the first difference: that is what a person looks for.
    func testLongStringsAreShortenedAroundTheDifference() throws {
        let prefix = String(repeating: "a", count: 100)
        let lines = try diff(#"{"s": "\#(prefix)XYZ\#(prefix)"}"#, #"{"s": "\#(prefix)XQZ\#(prefix)"}"#)
        XCTAssertEqual(lines.count, 1)
        let line = try XCTUnwrap(lines.first)
        // 20 characters before the first difference, then what differs.
        let before = String(repeating: "a", count: 19) + "X"
        XCTAssertTrue(line.hasPrefix(#"s: expected …"\#(before)YZ"#), line)
        XCTAssertTrue(line.contains(#", got …"\#(before)QZ"#), line)
        XCTAssertTrue(line.contains("… (203 characters)"), line)
        XCTAssertLessThan(line.count, 200, line)
    }

    func testProblemsEndWithBothRepliesCompactWithLongStringsCut() throws {
        let long = String(repeating: "x", count: 10_000)
        let problems = ReplyDiff.problems(
            expected: try json(#"{"id": 1, "result": "\#(long)"}"#), actual: try json(#"{"id": 1, "result": null}"#))
        XCTAssertEqual(problems.count, 3)
        XCTAssertTrue(problems[0].hasPrefix(#"result: expected "xxxxxxxxxx"#), problems[0])
        XCTAssertTrue(problems[0].hasSuffix(#"…[10000 characters]", got null"#), problems[0])
        XCTAssertEqual(
            problems[1],
            #"expected reply: {"id":1,"result":"\#(String(repeating: "x", count: 60))…[10000 characters]"}"#)
        XCTAssertEqual(problems[2], #"actual reply:   {"id":1,"result":null}"#)
    }

    func testManyDifferencesAreCapped() throws {
        let expected = JSONValue.array((0..<30).map { .number(JSONNumber($0)) })
        let actual = JSONValue.array((0..<30).map { .number(JSONNumber($0 + 1)) })
        let lines = ReplyDiff.differences(expected: expected, actual: actual, limit: 5)
        XCTAssertEqual(lines.count, 6)
        XCTAssertEqual(lines.last, "… and 25 more differences")
    }
}
