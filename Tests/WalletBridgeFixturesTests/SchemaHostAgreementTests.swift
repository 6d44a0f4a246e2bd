import WalletBridge
import WalletBridgeConformance
@testable import WalletBridgeFixtures
import XCTest

/// The schemas `rpc.discover` derives against what the host really does: each params value is
/// sent to a router and checked against the method's `x-params-schema`, and the two verdicts
/// must be the same. The values are the edges: every fixed-width integer's bounds and one past
/// them (beyond 2^53 too, where a validator that compares in `Double` would round), and the
/// positional form of a method that also takes names (`[40, 2]`), with an extra item.
final class SchemaHostAgreementTests: XCTestCase {
    private struct Value<T: FixedWidthInteger & Codable & Sendable>: RPCMethod {
        struct Params: Codable, Sendable { var value: T }
        typealias Result = NoResult
        static var name: String { "value.\(T.self)" }
    }

    private static func register<T: FixedWidthInteger & Codable & Sendable>(_: T.Type, in router: inout Router) throws {
        try router.register(Value<T>.self) { _, _ in NoResult() }
    }

    /// The host's verdict: true when it answered with a result, false for -32602.
    private func hostAccepts(
        _ router: Router, _ method: String, _ params: JSONValue, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Bool {
        let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: method)
        let reply = await router.respond(
            to: Request(id: .number(JSONNumber(1)), method: method, params: params), context: context)
        let answer = try XCTUnwrap(reply.map { try JSONParser.parse($0) }?.objectValue, file: file, line: line)
        if answer["result"] != nil { return true }
        XCTAssertEqual(
            answer["error"]?.objectValue?["code"], -32602, "\(method) \(params.compactText): \(answer)", file: file,
            line: line)
        return false
    }

    /// Whether the method's `x-params-schema` in the router's own document takes `params`.
    private func schemaAccepts(
        _ router: Router, _ method: String, _ params: JSONValue, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Bool {
        let methods = try XCTUnwrap(router.openRPCDocument.objectValue?["methods"]?.arrayValue, file: file, line: line)
        let object = try XCTUnwrap(
            methods.first { $0.objectValue?["name"]?.stringValue == method }?.objectValue, file: file, line: line)
        let schema = try XCTUnwrap(
            object["x-params-schema"], "\(method) has no x-params-schema", file: file, line: line)
        return JSONSchemaValidator(root: router.openRPCDocument).problems(params, against: schema, at: "params").isEmpty
    }

    private func assertAgree(
        _ router: Router, _ method: String, _ params: JSONValue, hostAccepts expected: Bool,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let host = try await hostAccepts(router, method, params, file: file, line: line)
        XCTAssertEqual(host, expected, "the host on \(method) \(params.compactText)", file: file, line: line)
        let schema = try schemaAccepts(router, method, params, file: file, line: line)
        XCTAssertEqual(
            schema, host,
            "x-params-schema of \(method) on \(params.compactText): the host \(host ? "takes" : "refuses") it",
            file: file, line: line)
    }

    func testIntegerBoundsAreTheHostsExactly() async throws {
        var router = Router()
        try Self.register(Int8.self, in: &router)
        try Self.register(Int16.self, in: &router)
        try Self.register(Int32.self, in: &router)
        try Self.register(Int64.self, in: &router)
        try Self.register(Int.self, in: &router)
        try Self.register(UInt8.self, in: &router)
        try Self.register(UInt16.self, in: &router)
        try Self.register(UInt32.self, in: &router)
        try Self.register(UInt64.self, in: &router)
        try Self.register(UInt.self, in: &router)
        // Each type's bounds as decimal text, and the integers one past them.
        let bounds: [(String, String, String)] = [
            ("Int8", "-128", "127"), ("Int16", "-32768", "32767"), ("Int32", "-2147483648", "2147483647"),
            ("Int64", "-9223372036854775808", "9223372036854775807"), ("Int", String(Int.min), String(Int.max)),
            ("UInt8", "0", "255"), ("UInt16", "0", "65535"), ("UInt32", "0", "4294967295"),
            ("UInt64", "0", "18446744073709551615"), ("UInt", "0", String(UInt.max)),
        ]
        for (type, minimum, maximum) in bounds {
            let method = "value.\(type)"
            func params(_ literal: String) -> JSONValue { ["value": .number(JSONNumber(literal)!)] }
            try await assertAgree(router, method, params(minimum), hostAccepts: true)
            try await assertAgree(router, method, params(maximum), hostAccepts: true)
            try await assertAgree(router, method, params(Self.plusOne(maximum)), hostAccepts: false)
            try await assertAgree(router, method, params(Self.minusOne(minimum)), hostAccepts: false)
        }
    }

    func testAMethodThatTakesNamesOrPositionsIsDescribedBothWays() async throws {
        var router = Router()
        try registerTestMethods(&router)  // the conformance host's subtract: [42, 23] or {"minuend", "subtrahend"}
        try await assertAgree(router, "subtract", [40, 2], hostAccepts: true)
        try await assertAgree(router, "subtract", ["minuend": 40, "subtrahend": 2], hostAccepts: true)
        // Extra positions are ignored, as unknown members are; the schema says so.
        try await assertAgree(router, "subtract", [40, 2, 7], hostAccepts: true)
        try await assertAgree(router, "subtract", ["minuend": 40, "subtrahend": 2, "note": "x"], hostAccepts: true)
        try await assertAgree(router, "subtract", [40], hostAccepts: false)
        try await assertAgree(router, "subtract", ["40", 2], hostAccepts: false)
        try await assertAgree(router, "subtract", ["minuend": 40], hostAccepts: false)
    }

    /// `conform`'s check of a fixture against `rpc.discover` holds both forms to the whole-params
    /// schema: an extra position the host ignored is no drift.
    func testTheFixtureCheckReadsBothForms() throws {
        var router = Router()
        try registerTestMethods(&router)
        let check = try OpenRPCCheck(document: router.openRPCDocument)
        for params: JSONValue in [[40, 2], [40, 2, 7], ["minuend": 40, "subtrahend": 2]] {
            XCTAssertEqual(
                check.check(request: ["method": "subtract", "params": params], response: ["result": 38]).failures, [],
                params.compactText)
        }
        XCTAssertEqual(
            check.check(request: ["method": "subtract", "params": ["40", 2]], response: ["result": 38]).failures.count,
            1)
    }

    /// A decimal integer's text plus or minus one, for numbers no Swift integer holds.
    private static func plusOne(_ text: String) -> String {
        text.hasPrefix("-") ? "-" + decrement(String(text.dropFirst())) : increment(text)
    }

    private static func minusOne(_ text: String) -> String {
        if text == "0" { return "-1" }
        return text.hasPrefix("-") ? "-" + increment(String(text.dropFirst())) : decrement(text)
    }

    private static func increment(_ digits: String) -> String {
        var result = Array(digits.utf8)
        var index = result.count - 1
        while index >= 0, result[index] == UInt8(ascii: "9") { result[index] = UInt8(ascii: "0"); index -= 1 }
        if index < 0 { result.insert(UInt8(ascii: "1"), at: 0) } else { result[index] += 1 }
        return String(decoding: result, as: UTF8.self)
    }

    private static func decrement(_ digits: String) -> String {
        var result = Array(digits.utf8)
        var index = result.count - 1
        while result[index] == UInt8(ascii: "0") { result[index] = UInt8(ascii: "9"); index -= 1 }
        result[index] -= 1
        let text = String(decoding: result, as: UTF8.self).drop { $0 == "0" }
        return text.isEmpty ? "0" : String(text)
    }
}
