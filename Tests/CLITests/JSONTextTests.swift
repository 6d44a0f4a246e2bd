import XCTest

@testable import WalletBridgeCLI

final class JSONTextTests: XCTestCase {
    func testPrettyKeepsMemberOrderAndLexemes() {
        let compact = #"{"jsonrpc":"2.0","id":1.50,"result":{"z":[],"a":{},"s":"a,b:{c}\"d","n":[1e3,-0]}}"#
        XCTAssertEqual(
            JSONText.pretty(Array(compact.utf8)),
            #"""
            {
              "jsonrpc": "2.0",
              "id": 1.50,
              "result": {
                "z": [],
                "a": {},
                "s": "a,b:{c}\"d",
                "n": [
                  1e3,
                  -0
                ]
              }
            }
            """#)
    }

    func testPrettyDropsInsignificantWhitespaceOnly() {
        XCTAssertEqual(JSONText.pretty(Array("[ 1 , \"a b\" ]".utf8)), "[\n  1,\n  \"a b\"\n]")
    }

    func testPreviewEscapesControlBytes() {
        XCTAssertEqual(JSONText.preview(Array("Hi\n\u{01}\"".utf8)), #""Hi\n\x01\"""#)
        XCTAssertEqual(JSONText.preview(Array(repeating: UInt8(ascii: "x"), count: 5), limit: 3), "\"xxx\"…")
    }
}
