@testable import WalletBridgeHost
@testable import WalletBridgeProtocol
import XCTest

// The schemas `rpc.discover` derives from Swift types (JSONSchemaDerivation), and the OpenRPC
// method objects and document made of them.

private struct Order: Codable, Sendable {
    enum Side: String, Codable, CaseIterable { case buy, sell }
    struct Limit: Codable { var price: Double; var until: Int? }
    var symbol: String
    var side: Side
    var quantity: UInt8
    var limit: Limit?
    var tags: [String]
    var notes: [String: Int]
    var flags: Set<Bool>
    var extra: JSONValue
}

/// Takes `{"a", "b"}` or `[a, b]`, as a hand-written initializer that tries both.
private struct Pair: Codable, Sendable {
    var a: String
    var b: Int?
    init(from decoder: any Decoder) throws {
        if var positional = try? decoder.unkeyedContainer() {
            a = try positional.decode(String.self)
            b = try positional.decodeIfPresent(Int.self)
        } else {
            let named = try decoder.container(keyedBy: CodingKeys.self)
            a = try named.decode(String.self, forKey: .a)
            b = try named.decodeIfPresent(Int.self, forKey: .b)
        }
    }
}

/// Takes `[x, y]` only: positions, no names.
private struct Point: Codable, Sendable {
    var x: Int
    var y: Int
    init(from decoder: any Decoder) throws {
        var positional = try decoder.unkeyedContainer()
        x = try positional.decode(Int.self)
        y = try positional.decode(Int.self)
    }
}

/// Every fixed-width integer, for their bounds.
private struct Widths: Codable, Sendable {
    var i8: Int8, i16: Int16, i32: Int32, i64: Int64, i: Int
    var u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64, u: UInt
}

/// Checks more than types: derivation cannot see that, and must say so.
private struct NonEmpty: Codable, Sendable {
    var name: String
    var after: Int
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        guard !name.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container, debugDescription: "empty")
        }
        after = try container.decode(Int.self, forKey: .after)
    }
}

private final class Tree: Codable, @unchecked Sendable {
    var children: [Tree] = []
}

/// States its own schema: a string of base58.
private struct Base58Text: Codable, Sendable, JSONSchemaDescribing {
    var text: String
    init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
    static var jsonSchema: JSONValue { ["type": "string", "pattern": "^[1-9A-HJ-NP-Za-km-z]+$"] }
}

private struct Transfer: Codable, Sendable {
    var to: Base58Text
    var lamports: Int
}

private enum PlaceOrder: RPCMethod {
    static let name = "place_order"
    typealias Params = Order
    struct Result: Codable, Sendable { var id: String }
    static var summary: String? { "Places an order." }
    static var errors: [RPCError] { [RPCError(code: -32050, message: "Market closed")] }
}

private enum SumAll: RPCMethod {
    static let name = "sum_all"
    typealias Params = [Int]
    typealias Result = Int
}

private enum Either: RPCMethod {
    static let name = "either"
    typealias Params = Pair
    typealias Result = NoResult
}

private enum Plot: RPCMethod {
    static let name = "plot"
    typealias Params = Point
    typealias Result = NoResult
}

private enum Maybe: RPCMethod {
    static let name = "maybe"
    typealias Params = Transfer?
    typealias Result = Bool
}

private enum Free: RPCMethod {
    static let name = "free"
    typealias Params = JSONValue
    typealias Result = JSONValue
    static var paramsSchema: JSONValue? {
        [
            "type": "object", "title": "FreeParams",
            "properties": ["when": ["type": "integer"], "what": ["type": "string"]], "required": ["what"],
        ]
    }
    static var resultSchema: JSONValue? { ["type": "array", "items": ["type": "string"]] }
}

private enum Checked: RPCMethod {
    static let name = "checked"
    typealias Params = NonEmpty
    typealias Result = NoResult
}

/// `Int`'s schema: both bounds, as the host refuses what is outside them.
private let intSchema: JSONValue = [
    "type": "integer", "minimum": .number(JSONNumber(Int.min)), "maximum": .number(JSONNumber(Int.max)),
]

final class JSONSchemaDerivationTests: XCTestCase {
    func testASynthesisedStructDerivesExactly() {
        let derived = JSONSchemaDerivation.schema(for: Order.self)
        XCTAssertEqual(derived.problems, [])
        XCTAssertEqual(
            derived.schema,
            [
                "type": "object",
                "title": "Order",
                "properties": [
                    "symbol": ["type": "string"],
                    "side": ["enum": ["buy", "sell"]],
                    "quantity": ["type": "integer", "minimum": 0, "maximum": 255],
                    // Optional members may also be null: the standard decoders read null as absent.
                    "limit": [
                        "anyOf": [
                            [
                                "type": "object", "title": "Order.Limit",
                                "properties": [
                                    "price": ["type": "number"], "until": ["anyOf": [intSchema, ["type": "null"]]],
                                ],
                                "required": ["price"],
                            ], ["type": "null"],
                        ]
                    ],
                    "tags": ["type": "array", "items": ["type": "string"]],
                    "notes": ["type": "object", "additionalProperties": intSchema],
                    "flags": ["type": "array", "items": ["type": "boolean"], "uniqueItems": true],
                    "extra": [:],
                ],
                "required": ["symbol", "side", "quantity", "tags", "notes", "flags", "extra"],
            ])
    }

    func testEveryFixedWidthIntegerHasBothBounds() throws {
        let derived = JSONSchemaDerivation.schema(for: Widths.self)
        XCTAssertEqual(derived.problems, [])
        let properties = try XCTUnwrap(derived.schema.objectValue?["properties"]?.objectValue)
        // The bounds as the host's decoder reads them: exact decimal lexemes, beyond 2^53 too.
        func integer(_ minimum: String, _ maximum: String) -> JSONValue {
            ["type": "integer", "minimum": .number(JSONNumber(minimum)!), "maximum": .number(JSONNumber(maximum)!)]
        }
        XCTAssertEqual(properties["i8"], integer("-128", "127"))
        XCTAssertEqual(properties["i16"], integer("-32768", "32767"))
        XCTAssertEqual(properties["i32"], integer("-2147483648", "2147483647"))
        XCTAssertEqual(properties["i64"], integer("-9223372036854775808", "9223372036854775807"))
        XCTAssertEqual(properties["i"], integer(String(Int.min), String(Int.max)))
        XCTAssertEqual(properties["u8"], integer("0", "255"))
        XCTAssertEqual(properties["u16"], integer("0", "65535"))
        XCTAssertEqual(properties["u32"], integer("0", "4294967295"))
        XCTAssertEqual(properties["u64"], integer("0", "18446744073709551615"))
        XCTAssertEqual(properties["u"], integer("0", String(UInt.max)))
    }

    func testAnInitializerThatChecksValuesIsReportedNotGuessed() {
        let derived = JSONSchemaDerivation.schema(for: NonEmpty.self)
        XCTAssertEqual(derived.problems.count, 1)
        XCTAssertTrue(derived.problems[0].contains("NonEmpty's init(from:) threw"), derived.problems[0])
        // What it read before it threw is kept; what came after is not claimed.
        XCTAssertEqual(derived.schema.objectValue?["properties"], ["name": ["type": "string"]])
    }

    func testARecursiveTypeIsReported() {
        let derived = JSONSchemaDerivation.schema(for: Tree.self)
        XCTAssertTrue(derived.problems.contains { $0.contains("Tree contains itself") }, "\(derived.problems)")
    }

    func testATypeMayStateItsOwnSchema() {
        let derived = JSONSchemaDerivation.schema(for: Transfer.self)
        XCTAssertEqual(derived.problems, [])
        XCTAssertEqual(derived.schema.objectValue?["properties"]?.objectValue?["to"], Base58Text.jsonSchema)
    }

    func testMethodObjects() throws {
        let order = try XCTUnwrap(OpenRPC.method(PlaceOrder.self).objectValue)
        XCTAssertEqual(order["name"], "place_order")
        XCTAssertEqual(order["summary"], "Places an order.")
        XCTAssertEqual(order["paramStructure"], "by-name")
        // Descriptors in declaration order, not sorted: the order a person reads them in.
        XCTAssertEqual(
            order["params"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue },
            ["symbol", "side", "quantity", "limit", "tags", "notes", "flags", "extra"])
        XCTAssertEqual(order["params"]?.arrayValue?[3].objectValue?["required"], false)
        XCTAssertEqual(order["x-params-schema"], JSONSchemaDerivation.schema(for: Order.self).schema)
        XCTAssertEqual(
            order["result"],
            [
                "name": "PlaceOrder.Result",
                "schema": [
                    "type": "object", "title": "PlaceOrder.Result", "properties": ["id": ["type": "string"]],
                    "required": ["id"],
                ],
            ])
        XCTAssertEqual(order["errors"], [["code": -32050, "message": "Market closed"]])
        XCTAssertNil(order["x-derivation-problems"])

        let sum = try XCTUnwrap(OpenRPC.method(SumAll.self).objectValue)
        XCTAssertEqual(sum["paramStructure"], "by-position")
        XCTAssertEqual(sum["params"], [])  // a variadic list: only the whole-params schema can say it
        XCTAssertEqual(sum["x-params-schema"], ["type": "array", "items": intSchema])

        let either = try XCTUnwrap(OpenRPC.method(Either.self).objectValue)
        XCTAssertEqual(either["paramStructure"], "either")
        XCTAssertEqual(
            either["params"],
            [
                ["name": "a", "required": true, "schema": ["type": "string"]],
                ["name": "b", "required": false, "schema": ["anyOf": [intSchema, ["type": "null"]]]],
            ])
        // The whole params: both forms the host takes, by name and by position.
        let optionalInteger: JSONValue = ["anyOf": [intSchema, ["type": "null"]]]
        XCTAssertEqual(
            either["x-params-schema"],
            [
                "title": "Pair",
                "anyOf": [
                    [
                        "type": "object", "properties": ["a": ["type": "string"], "b": optionalInteger],
                        "required": ["a"],
                    ],
                    // Extra positions are read by no one and ignored, as unknown members are: said so.
                    [
                        "type": "array", "items": [["type": "string"], optionalInteger], "additionalItems": true,
                        "minItems": 1,
                    ],
                ],
            ])

        let plot = try XCTUnwrap(OpenRPC.method(Plot.self).objectValue)
        XCTAssertEqual(plot["paramStructure"], "by-position")
        XCTAssertEqual(
            plot["params"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }, ["param1", "param2"])
        XCTAssertEqual(
            plot["x-params-schema"],
            [
                "type": "array", "items": [intSchema, intSchema],
                "additionalItems": true, "minItems": 2,
            ])
        XCTAssertEqual(either["result"]?.objectValue?["schema"], ["type": "null"])

        let maybe = try XCTUnwrap(OpenRPC.method(Maybe.self).objectValue)
        XCTAssertEqual(maybe["x-params-optional"], true)
        XCTAssertEqual(maybe["params"]?.arrayValue?.map { $0.objectValue?["required"] }, [false, false])

        let free = try XCTUnwrap(OpenRPC.method(Free.self).objectValue)
        XCTAssertEqual(free["paramStructure"], "by-name")
        XCTAssertEqual(
            free["params"],
            [
                ["name": "what", "required": true, "schema": ["type": "string"]],
                ["name": "when", "required": false, "schema": ["type": "integer"]],
            ])
        XCTAssertEqual(free["result"], ["name": "result", "schema": ["type": "array", "items": ["type": "string"]]])

        let checked = try XCTUnwrap(OpenRPC.method(Checked.self).objectValue)
        XCTAssertEqual(checked["x-derivation-problems"]?.arrayValue?.count, 1)
    }

    func testNoParamsTakesNone() throws {
        let method = try XCTUnwrap(OpenRPC.method(GetAccounts.self).objectValue)
        XCTAssertEqual(method["params"], [])
        XCTAssertNil(method["x-params-schema"])
        XCTAssertEqual(method["errors"], [["code": -1, "message": "Authorization failed"]])
    }

    func testTheDocumentListsEveryMethodAndTheRefusalsOfTheCallerCheck() async throws {
        // Unnamed, a host is its executable, unversioned.
        XCTAssertEqual(Router().info.version, "unversioned")
        XCTAssertEqual(Router().info.title, CommandLine.arguments[0].split(separator: "/").last.map(String.init))
        var router = Router()
        router.info = OpenRPC.Info(title: "orders", version: "2.0.0")
        try router.register(SumAll.self) { numbers, _ in numbers.reduce(0, +) }
        try router.register(PlaceOrder.self) { _, _ in .init(id: "1") }
        router.authorize(refusals: [RPCError(.authorizationFailed), RPCError(code: 4100, message: "Unauthorized")]) {
            _ throws(RPCError) in
        }
        let document = try XCTUnwrap(router.openRPCDocument.objectValue)
        XCTAssertEqual(document["openrpc"], "1.2.6")
        XCTAssertEqual(document["info"], ["title": "orders", "version": "2.0.0"])
        let methods = try XCTUnwrap(document["methods"]?.arrayValue)
        XCTAssertEqual(methods.compactMap { $0.objectValue?["name"]?.stringValue }, ["place_order", "sum_all"])
        XCTAssertEqual(
            methods[0].objectValue?["errors"],
            [
                ["code": -32050, "message": "Market closed"], ["code": -1, "message": "Authorization failed"],
                ["code": 4100, "message": "Unauthorized"],
            ])

        // rpc.discover answers it, takes no params, and is not a registered method.
        let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: "rpc.discover")
        func respond(_ text: String) async throws -> JSONValue? {
            guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else { return nil }
            return try await router.respond(to: request, context: context).map { try JSONParser.parse($0) }
        }
        let reply = try await respond(#"{"jsonrpc":"2.0","method":"rpc.discover","id":1}"#)
        XCTAssertEqual(reply?.objectValue?["result"], router.openRPCDocument)
        let withParams = try await respond(#"{"jsonrpc":"2.0","method":"rpc.discover","params":{"x":1},"id":2}"#)
        XCTAssertEqual(withParams?.objectValue?["error"]?.objectValue?["code"], -32602)
        XCTAssertEqual(router.methodNames, ["place_order", "sum_all"])
    }

    func testTheCallerCheckCoversDiscoveryToo() async throws {
        var router = Router()
        try router.register(SumAll.self) { numbers, _ in numbers.reduce(0, +) }
        router.authorize { _ throws(RPCError) in throw RPCError(.authorizationFailed) }
        guard
            case .request(let request) = Request.parse(
                try JSONParser.parse(Array(#"{"jsonrpc":"2.0","method":"rpc.discover","id":1}"#.utf8)))
        else {
            return XCTFail("not a request")
        }
        let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: "rpc.discover")
        let reply = try await router.respond(to: request, context: context).map { try JSONParser.parse($0) }
        // A refused caller learns nothing of the methods.
        XCTAssertEqual(reply?.objectValue?["error"]?.objectValue?["code"], -1)
    }
}
