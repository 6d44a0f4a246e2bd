@testable import WalletBridge
@testable import WalletBridgeHost
@testable import WalletBridgeProtocol
import XCTest

/// The server reads request objects into slots (`JSONParser.parseRequestDocument`) instead of a
/// dictionary. It must accept, refuse and read exactly what the general parser followed by
/// `Request.parse` does: checked here on edge cases and on generated, often broken, requests.
final class RequestDocumentTests: XCTestCase {
    private func assertAgree(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(text.utf8)
        let general = Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(bytes) }
        let slotted = Result { () throws(JSONParseError) -> RequestDocument in
            try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                try JSONParser.parseRequestDocument(buffer)
            }
        }
        switch (general, slotted) {
        case (.failure(let expected), .failure(let actual)):
            XCTAssertEqual(actual, expected, text, file: file, line: line)
        case (.success(.array(let entries)), .success(.batch(let elements))):
            XCTAssertEqual(elements.map(Request.parse), entries.map(Request.parse), text, file: file, line: line)
        case (.success(let value), .success(.single(let element))):
            XCTAssertEqual(Request.parse(element), Request.parse(value), text, file: file, line: line)
        default:
            XCTFail(
                "the parsers disagree on \(text.debugDescription): \(general) against \(slotted)", file: file,
                line: line)
        }
    }

    func testEdgeCases() {
        for text in [
            #"{"jsonrpc":"2.0","method":"m","id":1}"#,
            #"{"jsonrpc":"2.0","method":"m","params":{"a":[1,{"b":null}]},"id":"x","extra":true}"#,
            #"{"\u006Asonrpc":"2.0","m\u0065thod":"m","id":1}"#,  // escaped names mean the same
            #"{"jsonrpc":"2.0","method":"m","method":"n","id":1}"#,  // duplicate known member
            #"{"jsonrpc":"2.0","method":"m","x":1,"x":2,"id":1}"#,  // duplicate unknown member
            #"{"jsonrpc":"2.0","method":"m","\u0069d":1,"id":2}"#,  // duplicate through an escape
            #"{"jsonrpc":"2.0","method":"m","id":1,}"#, #"{"jsonrpc" "2.0"}"#, #"{"jsonrpc":"2.0""#,
            #"{"jsonrpc":"2.0","method":"m","id":1} x"#, #"{1:2}"#, "{}", "{ }", "[]", "[ ]", "[1,2]",
            #"[{"jsonrpc":"2.0","method":"m","id":1},5,{"method":"x"}]"#, #"[{"jsonrpc":"2.0","method":"m"},]"#,
            #""just a string""#, "42", "null", "", " ", "\u{FEFF}{}", #"{"id":"\u{0}"}"#,
            #"{"method":"\ud800"}"#, #"{"params":"s","jsonrpc":"2.0","method":"m","id":1}"#,
            String(repeating: "[", count: 200) + String(repeating: "]", count: 200),
            "[" + String(repeating: "{\"a\":", count: 130) + "1" + String(repeating: "}", count: 130) + "]",
        ] {
            assertAgree(text)
        }
    }

    func testGeneratedRequests() {
        var generator = SystemRandomNumberGenerator()
        let names = [
            "jsonrpc", "id", "method", "params", "x", #"\u006Dethod"#, "i\\u0064", "idd", "", "métho", "params ",
        ]
        let values = [
            #""2.0""#, "1", "-1.50", "null", "true", #""m""#, "[]", "{}", #"[1,"a"]"#, #"{"k":{"j":[null]}}"#,
            #""\u00e9\n""#,
        ]
        for _ in 0..<3_000 {
            func object() -> String {
                let members = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                    "\"\(names.randomElement(using: &generator)!)\":\(values.randomElement(using: &generator)!)"
                }
                return "{" + members.joined(separator: Bool.random(using: &generator) ? "," : " , ") + "}"
            }
            var text =
                Int.random(in: 0..<4, using: &generator) == 0
                ? "[" + (0..<Int.random(in: 0...4, using: &generator)).map { _ in object() }.joined(separator: ",")
                    + "]"
                : object()
            // Break a quarter of them: cut the text short, or replace one character.
            switch Int.random(in: 0..<8, using: &generator) {
            case 0 where !text.isEmpty: text = String(text.prefix(Int.random(in: 0..<text.count, using: &generator)))
            case 1 where !text.isEmpty:
                var characters = Array(text)
                characters[Int.random(in: 0..<characters.count, using: &generator)] = [
                    ",", ":", "\"", "}", "]", "\\", " ",
                ].randomElement(using: &generator)!
                text = String(characters)
            default: break
            }
            assertAgree(text)
        }
    }
}
