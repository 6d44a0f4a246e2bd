@testable import WalletBridgeProtocol
import XCTest

// What a type states of its members beyond their Swift types (`JSONSchemaConstraining`), merged
// into the schema derived from it, for params and results alike.

private struct Transfer: Codable, Sendable, JSONSchemaConstraining {
    enum Speed: String, Codable, CaseIterable { case slow, fast }
    struct Memo: Codable, Sendable, JSONSchemaConstraining {
        var text: String
        static var typeConstraints: [String: JSONValue] { ["title": .null, "description": "A note"] }
        static var memberConstraints: [String: JSONValue] { ["text": ["maxLength": 256]] }
    }
    var to: String
    var amount: Int
    var speed: Speed
    var memo: Memo?
    var tags: [String]
    static var typeConstraints: [String: JSONValue] { ["title": "TokenTransfer", "additionalProperties": false] }
    static var memberConstraints: [String: JSONValue] {
        [
            "to": ["pattern": "^0x[0-9a-fA-F]{40}$", "description": "The recipient"],
            "amount": ["minimum": 1],
            "speed": ["enum": ["slow"]],
            "tags": ["maxItems": 4, "items": ["type": "string", "minLength": 1]],
        ]
    }
}

/// A constraint left behind by a renamed member.
private struct Renamed: Codable, Sendable, JSONSchemaConstraining {
    var recipient: String
    static var memberConstraints: [String: JSONValue] { ["to": ["pattern": "^0x"]] }
}

private struct Misconstrained: Codable, Sendable, JSONSchemaConstraining {
    var recipient: String
    static var memberConstraints: [String: JSONValue] { ["recipient": "^0x"] }
}

/// Positional params: the first a string, the second an integer that may be left out, read as
/// `personal_sign`'s and `eth_signTransaction`'s are (no loop, no `decodeNil`).
private struct Pair: Decodable, Sendable, JSONSchemaConstraining {
    var name: String
    var count: Int?
    init(from decoder: any Decoder) throws {
        var positions = try decoder.unkeyedContainer()
        name = try positions.decode(String.self)
        count = positions.isAtEnd ? nil : try positions.decode(Int.self)
    }
    static var typeConstraints: [String: JSONValue] { ["title": "Pair", "maxItems": 2, "additionalItems": .null] }
    static var memberConstraints: [String: JSONValue] { ["[0]": ["minLength": 1], "[1]": ["minimum": 0]] }
}

/// A list member read through a nested container, absent or null being none.
private struct Tagged: Decodable, Sendable {
    var tags: [String]?
    private enum CodingKeys: String, CodingKey { case tags }
    init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        guard members.contains(.tags), try !members.decodeNil(forKey: .tags) else { return }
        var list = try members.nestedUnkeyedContainer(forKey: .tags)
        var tags: [String] = []
        while !list.isAtEnd { tags.append(try list.decode(String.self)) }
        self.tags = tags
    }
}

/// An optional member whose constraint says how it takes null.
private struct Note: Decodable, Sendable, JSONSchemaConstraining {
    var text: String?
    var memo: String?
    static var memberConstraints: [String: JSONValue] {
        ["text": ["type": ["string", "null"], "maxLength": 8], "memo": ["maxLength": 8]]
    }
}

private enum Send: RPCMethod {
    static let name = "send"
    typealias Params = Transfer
    typealias Result = Transfer.Memo
}

final class JSONSchemaConstraintsTests: XCTestCase {
    private let intSchema: JSONValue = [
        "type": "integer", "minimum": .number(JSONNumber(validatedLiteral: String(Int.min))),
        "maximum": .number(JSONNumber(validatedLiteral: String(Int.max))),
    ]
    private let memo: JSONValue = [
        "type": "object", "description": "A note", "properties": ["text": ["type": "string", "maxLength": 256]],
        "required": ["text"],
    ]

    func testEachMembersConstraintsAreMergedIntoItsDerivedSchema() {
        let derived = JSONSchemaDerivation.schema(for: Transfer.self)
        XCTAssertEqual(derived.problems, [])
        var amount = intSchema.objectValue ?? [:]
        amount["minimum"] = 1
        XCTAssertEqual(
            derived.schema,
            [
                "type": "object", "title": "TokenTransfer", "additionalProperties": false,
                "properties": [
                    "to": ["type": "string", "pattern": "^0x[0-9a-fA-F]{40}$", "description": "The recipient"],
                    "amount": .object(amount),
                    "speed": ["enum": ["slow"]],
                    // An optional member's constraints go on its own schema, then null is allowed.
                    "memo": ["anyOf": [memo, ["type": "null"]]],
                    "tags": ["type": "array", "maxItems": 4, "items": ["type": "string", "minLength": 1]],
                ],
                "required": ["to", "amount", "speed", "tags"],
            ])
    }

    func testAConstraintOfAMemberTheTypeDoesNotDecodeIsAProblem() {
        let derived = JSONSchemaDerivation.schema(for: Renamed.self)
        XCTAssertEqual(derived.problems, ["the value: Renamed constrains the member to, which it does not decode"])
        XCTAssertEqual(derived.schema.objectValue?["properties"], ["recipient": ["type": "string"]])
    }

    func testAConstraintThatIsNotAnObjectOfKeywordsIsAProblem() {
        let derived = JSONSchemaDerivation.schema(for: Misconstrained.self)
        XCTAssertEqual(
            derived.problems,
            ["the value: Misconstrained's constraint of the member recipient is not an object of keywords"])
        XCTAssertEqual(derived.schema.objectValue?["properties"], ["recipient": ["type": "string"]])
    }

    func testAResultsOptionalMembersAreNotNull() {
        // Written by the synthesised encoder, a nil member is left out, never null.
        let result = JSONSchemaDerivation.resultSchema(for: Transfer.self).schema
        XCTAssertEqual(result.objectValue?["properties"]?.objectValue?["memo"], memo)
        let params = JSONSchemaDerivation.schema(for: Transfer.self).schema
        XCTAssertEqual(params.objectValue?["properties"]?.objectValue?["memo"], ["anyOf": [memo, ["type": "null"]]])
    }

    func testAMethodsDescriptionCarriesTheConstraints() {
        let method = OpenRPC.method(Send.self).objectValue ?? [:]
        XCTAssertNil(method["x-derivation-problems"])
        XCTAssertEqual(method["result"], ["name": "result", "schema": memo])
        let to = method["params"]?.arrayValue?.first { $0.objectValue?["name"] == "to" }
        XCTAssertEqual(
            to?.objectValue?["schema"],
            ["type": "string", "pattern": "^0x[0-9a-fA-F]{40}$", "description": "The recipient"])
        XCTAssertEqual(method["x-params-schema"]?.objectValue?["title"], "TokenTransfer")
    }

    /// A position's constraints are named by its place, `[0]`; a last position read after
    /// `isAtEnd` without a loop may be left out, and is not also null (nothing asked `decodeNil`).
    func testPositionsAreConstrainedByTheirPlaceAndALastOneMayBeLeftOut() {
        let derived = JSONSchemaDerivation.paramsSchema(for: Pair.self)
        XCTAssertEqual(derived.problems, [])
        var count = intSchema.objectValue ?? [:]
        count["minimum"] = 0
        XCTAssertEqual(
            derived.schema,
            [
                "title": "Pair", "type": "array", "items": [["type": "string", "minLength": 1], .object(count)],
                "minItems": 1, "maxItems": 2,
            ])
    }

    /// A member read through a nested container after `decodeNil(forKey:)` is optional, as a
    /// member read by `decodeIfPresent` is.
    func testANestedContainerAfterANilCheckIsOptional() {
        let derived = JSONSchemaDerivation.schema(for: Tagged.self)
        XCTAssertEqual(derived.problems, [])
        XCTAssertNil(derived.schema.objectValue?["required"])
        XCTAssertEqual(
            derived.schema.objectValue?["properties"],
            ["tags": ["anyOf": [["type": "array", "items": ["type": "string"]], ["type": "null"]]]])
    }

    /// A constraint whose `type` lists null is the member's whole word on null; one that does
    /// not is allowed null after it, as any optional member is.
    func testAConstraintThatTakesNullIsNotAllowedNullAgain() {
        let derived = JSONSchemaDerivation.schema(for: Note.self)
        XCTAssertEqual(derived.problems, [])
        XCTAssertEqual(
            derived.schema.objectValue?["properties"],
            [
                "text": ["type": ["string", "null"], "maxLength": 8],
                "memo": ["anyOf": [["type": "string", "maxLength": 8], ["type": "null"]]],
            ])
    }
}
