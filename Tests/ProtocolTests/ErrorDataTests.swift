import Foundation
@testable import WalletBridge
@testable import WalletBridgeHost
@testable import WalletBridgeProtocol
import XCTest

/// Every error's `data` is one shape (README, "Error codes"): an object, with `problem` in our
/// words and `field` naming the member at fault where there is one. Never a bare string, and
/// never the text of a Swift `DecodingError`, which is the standard library's English and may
/// echo the value sent.
private enum Mode: String, Codable, Sendable, CaseIterable { case user, guest }
private enum Level: Int, Codable, Sendable, CaseIterable { case low = 1, high = 2 }
/// Not CaseIterable: its values cannot be listed.
private enum Colour: String, Codable, Sendable { case red, blue }

private enum SetMode: RPCMethod {
    static let name = "setMode"
    struct Params: Codable, Sendable {
        var mode: Mode
        var level: Level?
        var colour: Colour?
        var nested: [Mode]?
    }
    typealias Result = String
}

/// A hand-written `init(from:)` that throws with text of its own, and with the standard
/// library's own (`Decimal`, `UUID`, `Date`'s texts are all Foundation's).
private enum Hand: RPCMethod {
    static let name = "hand"
    struct Params: Codable, Sendable {
        var token: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            token = try container.decode(String.self, forKey: .token)
            if token == "plain" {
                throw DecodingError.dataCorruptedError(
                    forKey: .token, in: container, debugDescription: "Swift's text: secret-\(token)")
            }
            if token == "ours" {
                throw DecodingError.paramsProblem(
                    "must be a known token", at: container.codingPath + [CodingKeys.token])
            }
            if token == "uuid" { _ = try container.decode(UUID.self, forKey: .token) }
        }
    }
    typealias Result = String
}

final class ErrorDataTests: XCTestCase {
    private let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: "setMode")

    private func error(_ router: Router, _ text: String, file: StaticString = #filePath, line: UInt = #line)
        async throws -> JSONValue
    {
        guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else {
            XCTFail("not a valid request: \(text)", file: file, line: line)
            return .null
        }
        let answered = await router.respond(to: request, context: context)
        let reply = try XCTUnwrap(answered, file: file, line: line)
        return try XCTUnwrap(
            JSONParser.parse(reply).objectValue?["error"], "no error: \(String(decoding: reply, as: UTF8.self))",
            file: file, line: line)
    }

    private func router() throws -> Router {
        var router = Router()
        try router.register(SetMode.self) { params, _ in params.mode.rawValue }
        try router.register(Hand.self) { params, _ in params.token }
        return router
    }

    func testAnInvalidEnumValueIsAnsweredInOurWordsWithItsChoices() async throws {
        let router = try router()
        let reply = try await error(router, #"{"jsonrpc":"2.0","method":"setMode","params":{"mode":"admin"},"id":1}"#)
        XCTAssertEqual(
            reply,
            [
                "code": -32602, "message": "Invalid params",
                "data": ["field": "mode", "problem": #"expected one of "user", "guest""#],
            ])
        XCTAssertFalse(reply.compactText.contains("admin"), "the value sent is not echoed: \(reply.compactText)")
        XCTAssertFalse(reply.compactText.contains("Cannot initialize"), reply.compactText)

        let level = try await error(
            router, #"{"jsonrpc":"2.0","method":"setMode","params":{"mode":"user","level":3},"id":1}"#)
        XCTAssertEqual(level.objectValue?["data"], ["field": "level", "problem": "expected one of 1, 2"])
        let nested = try await error(
            router, #"{"jsonrpc":"2.0","method":"setMode","params":{"mode":"user","nested":["guest","root"]},"id":1}"#)
        XCTAssertEqual(
            nested.objectValue?["data"], ["field": "nested[1]", "problem": #"expected one of "user", "guest""#])
        // Its values cannot be listed, and Swift's text is not ours to send.
        let colour = try await error(
            router, #"{"jsonrpc":"2.0","method":"setMode","params":{"mode":"user","colour":"green"},"id":1}"#)
        XCTAssertEqual(colour.objectValue?["data"], ["field": "colour", "problem": "not a value this field accepts"])
        // A wrong type is still a wrong type.
        let type = try await error(router, #"{"jsonrpc":"2.0","method":"setMode","params":{"mode":5},"id":1}"#)
        XCTAssertEqual(type.objectValue?["data"], ["field": "mode", "problem": "expected string"])
    }

    func testAHandWrittenDecodersTextReachesTheReplyOnlyWhenItSaysSo() async throws {
        let router = try router()
        let plain = try await error(router, #"{"jsonrpc":"2.0","method":"hand","params":{"token":"plain"},"id":1}"#)
        XCTAssertEqual(plain.objectValue?["data"], ["field": "token", "problem": "not a value this field accepts"])
        let ours = try await error(router, #"{"jsonrpc":"2.0","method":"hand","params":{"token":"ours"},"id":1}"#)
        XCTAssertEqual(ours.objectValue?["data"], ["field": "token", "problem": "must be a known token"])
        let uuid = try await error(router, #"{"jsonrpc":"2.0","method":"hand","params":{"token":"uuid"},"id":1}"#)
        XCTAssertEqual(uuid.objectValue?["data"], ["field": "token", "problem": "not a value this field accepts"])
    }

    func testMethodNotFoundHasTheSameShape() async throws {
        let router = try router()
        let reply = try await error(router, #"{"jsonrpc":"2.0","method":"nope","id":1}"#)
        XCTAssertEqual(
            reply, ["code": -32601, "message": "Method not found", "data": ["problem": #"no method named "nope""#]])
    }

    func testADetailIsAProblem() {
        XCTAssertEqual(
            RPCError(.invalidRequest, detail: "a batch must not be empty").data,
            ["problem": "a batch must not be empty"])
    }
}
