import Foundation
@testable import WalletBridge
@testable import WalletBridgeHost
@testable import WalletBridgeProtocol
import XCTest

// Issue 12, item 31: JSONValue and ErrorCode from literals, as a custom method's handler writes
// them.

private enum Decline: RPCMethod {
    static let name = "decline"
    typealias Result = NoResult
}

final class LiteralTests: XCTestCase {
    private let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: "decline")

    func testJSONValueFromLiterals() {
        let value: JSONValue = [
            "reason": "declined", "ratio": 1.5, "ok": true, "none": .null, "list": [1, 2], "text": "x",
        ]
        XCTAssertEqual(
            value,
            .object([
                "reason": .string("declined"), "ratio": .number(JSONNumber(validatedLiteral: "1.5")), "ok": .bool(true),
                "none": .null, "list": .array([.number(JSONNumber(1)), .number(JSONNumber(2))]), "text": .string("x"),
            ]))
        XCTAssertEqual(
            String(decoding: value.jsonBytes, as: UTF8.self),
            #"{"list":[1,2],"none":null,"ok":true,"ratio":1.5,"reason":"declined","text":"x"}"#)
        let reason = "declined"
        let interpolated: JSONValue = "user \(reason)"
        XCTAssertEqual(interpolated, .string("user declined"))
        let optional: JSONValue? = nil  // still Optional's nil, not JSON null
        XCTAssertNil(optional)
        XCTAssertEqual(
            RPCError(.notSigned, data: ["reason": "declined"]).data, .object(["reason": .string("declined")]))
    }

    func testErrorCodeFromAnIntegerLiteral() async throws {
        let error = RPCError(code: -32099, message: "Quota exceeded", data: ["retry_after": 30])
        XCTAssertEqual(error.code, ErrorCode(rawValue: -32099))
        let code: ErrorCode = -1
        XCTAssertEqual(code, .authorizationFailed)

        var router = Router()
        try router.register(Decline.self) { _, _ in
            throw RPCError(code: -32099, message: "Quota exceeded", data: ["retry_after": 30])
        }
        let text = #"{"jsonrpc":"2.0","method":"decline","id":1}"#
        guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else {
            return XCTFail(text)
        }
        let reply = await router.respond(to: request, context: context).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(
            reply,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32099,"data":{"retry_after":30},"message":"Quota exceeded"}}"#)
    }
}
