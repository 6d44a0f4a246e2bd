import Foundation
@testable import WalletBridge
@testable import WalletBridgeHost
@testable import WalletBridgeProtocol
import XCTest

// Issue 12, item 4: a JSONValue number given to `encode(to:)` is written exactly as parsed, or,
// for an encoder that can only take Int64, UInt64 and Double, as the same number; when no such
// type holds it (1e400, a 40-digit integer), encoding throws instead of writing 0 or a rounded
// value.

/// A result whose `encode(to:)` hands its JSONValue the encoder itself, as a hand-written
/// `Encodable` does, instead of going through a container's `encode(_:)`.
private struct Forwarding: Codable, Sendable {
    var value: JSONValue
    init(_ value: JSONValue) { self.value = value }
    init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

private enum Forward: RPCMethod {
    static let name = "forward"
    typealias Params = JSONValue
    typealias Result = Forwarding
}

final class JSONValueEncodingTests: XCTestCase {
    private let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: "forward")

    private func call(_ router: Router, params: String) async throws -> String? {
        let text = #"{"jsonrpc":"2.0","method":"forward","params":"# + params + #","id":1}"#
        guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else {
            XCTFail("not a valid request: \(text)")
            return nil
        }
        return await router.respond(to: request, context: context).map { String(decoding: $0, as: UTF8.self) }
    }

    private static let forty = "1234567890123456789012345678901234567890"

    func testEncodeToTheHostsEncoderKeepsEveryLexeme() async throws {
        var router = Router()
        // A bare number handed the encoder itself: containers already passed their elements on
        // as JSONValues, but a lone number went through `encode(Int64)` or `encode(Double)`.
        try router.register(Forward.self) { params, _ in
            guard case .array(let elements) = params, let first = elements.first else { return Forwarding(params) }
            return Forwarding(first)
        }
        for literal in ["1e400", "-1e400", Self.forty, "1.50", "-0", "1E+2", "0.30000000000000001"] {
            let reply = try await call(router, params: "[\(literal)]")
            XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":"# + literal + "}", literal)
        }
        let numbers = "[1e400,-1e400,\(Self.forty),1.50]"
        let reply = try await call(router, params: "[\(numbers)]")
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":"# + numbers + "}")
    }

    func testEncodeToAForeignEncoderThrowsForANumberItCannotHold() throws {
        for literal in ["1e400", "-1e400", Self.forty, "1e-400", "0.30000000000000001"] {
            let value = JSONValue.number(try XCTUnwrap(JSONNumber(literal)))
            XCTAssertThrowsError(try JSONEncoder().encode(value), literal) { error in
                guard case EncodingError.invalidValue(_, let context)? = error as? EncodingError else {
                    return XCTFail("\(literal): \(error)")
                }
                XCTAssertTrue(context.debugDescription.contains(literal), context.debugDescription)
            }
            XCTAssertThrowsError(try JSONEncoder().encode(["n": value]), literal)
        }
    }

    func testEncodeToAForeignEncoderKeepsTheNumberWhenItCan() throws {
        let cases: [(String, String)] = [
            ("1.50", "1.5"), ("0.1", "0.1"), ("-7", "-7"), ("12345678901234567890", "12345678901234567890"),
            ("-9223372036854775808", "-9223372036854775808"), ("1e2", "100"), ("2.5E-3", "0.0025"),
        ]
        for (literal, written) in cases {
            let value = JSONValue.number(try XCTUnwrap(JSONNumber(literal)))
            let encoded = try JSONEncoder().encode([value])
            XCTAssertEqual(String(decoding: encoded, as: UTF8.self), "[\(written)]", literal)
            // And back: the same number, though a foreign coder does not keep its spelling.
            let decoded = try JSONDecoder().decode([JSONValue].self, from: encoded)
            guard case .number(let number)? = decoded.first else { return XCTFail(literal) }
            XCTAssertEqual(Double(number.literal), Double(literal), literal)
        }
    }

    func testJSONNumberFromALiteralIsValidated() {
        XCTAssertEqual(JSONNumber("1.50")?.literal, "1.50")
        XCTAssertEqual(JSONNumber(Self.forty)?.literal, Self.forty)
        for bad in ["", "01", "1.", ".5", "+1", " 1", "1 ", "NaN", "inf", "0x10", "1e", "--1"] {
            XCTAssertNil(JSONNumber(bad), bad)
        }
    }
}
