import Foundation
@testable import WalletBridge
@testable import WalletBridgeHost
@testable import WalletBridgeProtocol
import XCTest

// What a developer writing a method of their own relies on (issue 12, items 4 and 31): literals
// for JSONValue and ErrorCode, optional params, `params: []` and empty params structs, and
// JSONValue numbers that survive `encode(to:)`.

private struct Filter: Codable, Sendable {
    var name: String
    var limit: Int?
}

/// `Params = Inner?`: params may be left out.
private enum Search: RPCMethod {
    static let name = "search"
    typealias Params = Filter?
    typealias Result = String
}

/// Object-shaped params whose fields are all optional: `{}` is accepted, so `[]` must be too.
private enum Page: RPCMethod {
    static let name = "page"
    struct Params: Codable, Sendable { var limit: Int?; var after: String? }
    typealias Result = Int
}

/// Object-shaped params with a required field: `{}` is refused, so `[]` must be too.
private enum Lookup: RPCMethod {
    static let name = "lookup"
    struct Params: Codable, Sendable { var key: String }
    typealias Result = String
}

/// An empty params struct: takes nothing, so a non-empty array is a mistake.
private enum Empty: RPCMethod {
    static let name = "empty"
    struct Params: Codable, Sendable {}
    typealias Result = String
}

/// Both positional (`[2, 3]`) and named (`{"base": 2, "exponent": 3}`) params, as README shows.
private enum Power: RPCMethod {
    static let name = "power"
    struct Params: Codable, Sendable {
        var base: Int
        var exponent: Int
        init(from decoder: any Decoder) throws {
            if var positional = try? decoder.unkeyedContainer() {
                base = try positional.decode(Int.self)
                exponent = try positional.decode(Int.self)
            } else {
                let named = try decoder.container(keyedBy: CodingKeys.self)
                base = try named.decode(Int.self, forKey: .base)
                exponent = try named.decode(Int.self, forKey: .exponent)
            }
        }
    }
    typealias Result = Int
}

private enum Decline: RPCMethod {
    static let name = "decline"
    typealias Result = NoResult
}

final class CustomMethodTests: XCTestCase {
    private let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: "custom")

    private func respond(_ router: Router, _ text: String) async throws -> String? {
        guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else {
            XCTFail("not a valid request: \(text)")
            return nil
        }
        return await router.respond(to: request, context: context).map { String(decoding: $0, as: UTF8.self) }
    }

    private func call(_ router: Router, _ method: String, params: String?) async throws -> String? {
        let member = params.map { #","params":"# + $0 } ?? ""
        return try await respond(router, #"{"jsonrpc":"2.0","method":""# + method + #"""# + member + #","id":1}"#)
    }

    // MARK: item 31: params

    func testOptionalParamsMayBeLeftOut() async throws {
        var router = Router()
        try router.register(Search.self) { filter, _ in
            guard let filter else { return "everything" }
            return "\(filter.name) up to \(filter.limit.map(String.init) ?? "any")"
        }
        var reply = try await call(router, "search", params: nil)
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":"everything"}"#)
        reply = try await call(router, "search", params: #"{"name":"a","limit":3}"#)
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":"a up to 3"}"#)
        // Present but wrong is still wrong: an Optional does not swallow errors.
        reply = try await call(router, "search", params: "{}")
        XCTAssertEqual(
            reply,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"field":"name","problem":"required field is missing"},"message":"Invalid params"}}"#
        )
        reply = try await call(router, "search", params: #"{"name":5}"#)
        XCTAssertEqual(
            reply,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"field":"name","problem":"expected string"},"message":"Invalid params"}}"#
        )
        reply = try await call(router, "search", params: "[1]")
        XCTAssertEqual(
            reply,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"problem":"expected object"},"message":"Invalid params"}}"#
        )
    }

    func testEmptyArrayIsAcceptedExactlyWhenAnEmptyObjectIs() async throws {
        var router = Router()
        try router.register(Page.self) { params, _ in params.limit ?? 10 }
        try router.register(Lookup.self) { params, _ in params.key }
        try router.register(Search.self) { filter, _ in filter?.name ?? "everything" }
        for params in ["[]", "{}"] {
            let page = try await call(router, "page", params: params)
            XCTAssertEqual(page, #"{"jsonrpc":"2.0","id":1,"result":10}"#, params)
            let lookup = try await call(router, "lookup", params: params)
            XCTAssertEqual(
                lookup,
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"field":"key","problem":"required field is missing"},"message":"Invalid params"}}"#,
                params)
            let search = try await call(router, "search", params: params)
            XCTAssertEqual(
                search,
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"field":"name","problem":"required field is missing"},"message":"Invalid params"}}"#,
                params)
        }
        // Only for the params as a whole: an empty array inside them is still not an object.
        struct Nested: Codable, Sendable { var inner: Page.Params }
        enum Wrapper: RPCMethod { static let name = "wrapper"; typealias Params = Nested; typealias Result = Int }
        try router.register(Wrapper.self) { params, _ in params.inner.limit ?? 10 }
        let nested = try await call(router, "wrapper", params: #"{"inner":[]}"#)
        XCTAssertEqual(
            nested,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"field":"inner","problem":"expected object"},"message":"Invalid params"}}"#
        )
        // Array-shaped params are unchanged: `[]` is an empty array, `{}` is not an array.
        enum Numbers: RPCMethod { static let name = "numbers"; typealias Params = [Int]; typealias Result = Int }
        try router.register(Numbers.self) { numbers, _ in numbers.count }
        let empty = try await call(router, "numbers", params: "[]")
        XCTAssertEqual(empty, #"{"jsonrpc":"2.0","id":1,"result":0}"#)
    }

    func testAnEmptyParamsStructRefusesANonEmptyArray() async throws {
        var router = Router()
        try router.register(Empty.self) { _, _ in "ok" }
        for params in [nil, "[]", "{}", #"{"unknown":1}"#] {
            let reply = try await call(router, "empty", params: params)
            XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":"ok"}"#, params ?? "(none)")
        }
        for params in ["[1]", "[null]", "[[]]", #"["a","b"]"#] {
            let reply = try await call(router, "empty", params: params)
            XCTAssertEqual(
                reply,
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"problem":"expected object"},"message":"Invalid params"}}"#,
                params)
        }
        // The same through an Optional.
        enum MaybeEmpty: RPCMethod {
            static let name = "maybe"; typealias Params = Empty.Params?; typealias Result = String
        }
        try router.register(MaybeEmpty.self) { params, _ in params == nil ? "none" : "some" }
        let none = try await call(router, "maybe", params: nil)
        XCTAssertEqual(none, #"{"jsonrpc":"2.0","id":1,"result":"none"}"#)
        let some = try await call(router, "maybe", params: "[]")
        XCTAssertEqual(some, #"{"jsonrpc":"2.0","id":1,"result":"some"}"#)
        let refused = try await call(router, "maybe", params: "[1]")
        XCTAssertEqual(
            refused,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"problem":"expected object"},"message":"Invalid params"}}"#
        )
    }

    func testParamsThatReadTheirInputAreNotMistakenForEmpty() async throws {
        var router = Router()
        try router.register(Power.self) { params, _ in Int(pow(Double(params.base), Double(params.exponent))) }
        enum Echo: RPCMethod { static let name = "echo"; typealias Params = JSONValue; typealias Result = JSONValue }
        try router.register(Echo.self) { params, _ in params }
        enum Numbers: RPCMethod { static let name = "numbers"; typealias Params = [Int]; typealias Result = Int }
        try router.register(Numbers.self) { numbers, _ in numbers.reduce(0, +) }
        enum Blob: RPCMethod { static let name = "blob"; typealias Params = [Data]; typealias Result = Int }
        try router.register(Blob.self) { blobs, _ in blobs.count }
        var reply = try await call(router, "power", params: "[2,3]")
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":8}"#)
        reply = try await call(router, "power", params: #"{"base":2,"exponent":3}"#)
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":8}"#)
        reply = try await call(router, "power", params: "[2]")
        XCTAssertEqual(
            reply,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"field":"[1]","problem":"expected integer, found null or nothing"},"message":"Invalid params"}}"#
        )
        reply = try await call(router, "echo", params: "[1,2]")
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":[1,2]}"#)
        reply = try await call(router, "numbers", params: "[1,2]")
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":3}"#)
        reply = try await call(router, "blob", params: #"["AA=="]"#)
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":1}"#)
    }

    func testNoParamsAndNoResult() async throws {
        var router = Router()
        try router.register(Decline.self) { _, _ in NoResult() }
        for params in [nil, "[]", "{}"] {
            let reply = try await call(router, "decline", params: params)
            XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":null}"#, params ?? "(none)")
        }
        for params in ["[1]", #"{"a":1}"#] {
            let reply = try await call(router, "decline", params: params)
            XCTAssertEqual(
                reply,
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"problem":"this method takes no parameters"},"message":"Invalid params"}}"#,
                params)
        }
    }

    /// The rows of README's "Params and results" table not covered above.
    func testArrayShapedAndJSONValueParams() async throws {
        var router = Router()
        enum Numbers: RPCMethod { static let name = "numbers"; typealias Params = [Int]; typealias Result = Int }
        try router.register(Numbers.self) { numbers, _ in numbers.count }
        enum Echo: RPCMethod { static let name = "echo"; typealias Params = JSONValue; typealias Result = JSONValue }
        try router.register(Echo.self) { params, _ in params }
        enum MaybeAny: RPCMethod {
            static let name = "maybe-any"; typealias Params = JSONValue?; typealias Result = JSONValue
        }
        try router.register(MaybeAny.self) { params, _ in params ?? "left out" }
        let expectedArray =
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"data":{"problem":"expected array"},"message":"Invalid params"}}"#
        var reply = try await call(router, "numbers", params: nil)
        XCTAssertEqual(reply, expectedArray)
        reply = try await call(router, "numbers", params: "{}")
        XCTAssertEqual(reply, expectedArray)
        reply = try await call(router, "echo", params: nil)
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":{}}"#)
        reply = try await call(router, "echo", params: "[]")
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":[]}"#)
        reply = try await call(router, "maybe-any", params: nil)
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":"left out"}"#)
        reply = try await call(router, "maybe-any", params: "[]")
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":[]}"#)
    }
}
