import WalletBridge
@testable import WalletBridgeFixtures
import XCTest

/// The JSON Schema subset `conform` checks fixtures with, and the OpenRPC check built on it.
final class SchemaValidationTests: XCTestCase {
    private let validator = JSONSchemaValidator()

    private func problems(_ value: JSONValue, _ schema: JSONValue) -> [String] {
        validator.problems(value, against: schema, at: "v")
    }

    func testTypes() {
        XCTAssertEqual(problems("x", ["type": "string"]), [])
        XCTAssertEqual(problems(5, ["type": "string"]), ["v: expected string, got a number (5)"])
        XCTAssertEqual(problems(.number(JSONNumber("1e3")!), ["type": "integer"]), [], "an integer whatever its lexeme")
        XCTAssertEqual(problems(1.5, ["type": "integer"]), ["v: expected integer, got a number (1.5)"])
        XCTAssertEqual(problems(.null, ["type": ["string", "null"]]), [])
        XCTAssertEqual(problems([:], ["type": "array"]), ["v: expected array, got an object"])
        XCTAssertEqual(problems(true, true), [])
        XCTAssertEqual(problems(true, false), ["v: no value is allowed here"])
    }

    func testPropertyNames() {
        let schema: JSONValue = ["type": "object", "propertyNames": ["pattern": "^[a-z]+$", "maxLength": 3]]
        XCTAssertEqual(problems(["ab": 1, "abc": 2], schema), [])
        XCTAssertEqual(
            problems(["ab": 1, "Ab": 2, "abcd": 3], schema),
            [
                #"v (the member name "Ab"): "Ab" does not match the pattern ^[a-z]+$"#,
                #"v (the member name "abcd"): 4 characters, more than 3"#,
            ])
        XCTAssertEqual(JSONSchemaValidator().notChecked(in: schema), [])
    }

    func testObjects() {
        let schema: JSONValue = [
            "type": "object",
            "properties": ["name": ["type": "string"], "age": ["type": "integer", "minimum": 0]],
            "required": ["name"],
            "additionalProperties": false,
        ]
        XCTAssertEqual(problems(["name": "a", "age": 3], schema), [])
        XCTAssertEqual(
            problems(["age": -1], schema),
            [
                "v: the required member \"name\" is missing", "v.age: -1 is less than the minimum 0",
            ])
        XCTAssertEqual(
            problems(["name": "a", "nick": "b"], schema),
            ["v: the member \"nick\" is not allowed (the schema lists age, name)"])
        let map: JSONValue = [
            "type": "object", "patternProperties": ["^[a-z]+$": ["type": "integer"]], "additionalProperties": false,
        ]
        XCTAssertEqual(problems(["ab": 1], map), [])
        XCTAssertEqual(
            problems(["ab": "x", "A1": 1], map),
            [
                "v: the member \"A1\" is not allowed (the schema lists )",
                "v.ab: expected integer, got a string (\"x\")",
            ])
        XCTAssertEqual(problems([:], ["minProperties": 1]), ["v: 0 members, fewer than 1"])
    }

    func testArrays() {
        XCTAssertEqual(
            problems(["a", 1], ["type": "array", "items": ["type": "string"]]),
            ["v[1]: expected string, got a number (1)"])
        let tuple: JSONValue = [
            "type": "array", "items": [["type": "string"], ["type": "integer"]], "additionalItems": false,
            "minItems": 1,
        ]
        XCTAssertEqual(problems(["a", 2], tuple), [])
        XCTAssertEqual(problems(["a", 2, 3], tuple), ["v: 3 elements, the schema allows 2"])
        XCTAssertEqual(problems([], tuple), ["v: 0 elements, fewer than 1"])
        XCTAssertEqual(
            problems([1, 1.0], ["uniqueItems": true]),
            ["v[1]: repeats an earlier element, and the elements must be unique"])
    }

    func testStringsNumbersAndValues() {
        XCTAssertEqual(problems("é", ["maxLength": 1]), [], "characters are code points")
        XCTAssertEqual(
            problems("abc", ["maxLength": 2, "minLength": 4]),
            ["v: 3 characters, fewer than 4", "v: 3 characters, more than 2"])
        XCTAssertEqual(
            problems("0xzz", ["pattern": "^0x[0-9a-f]+$"]), ["v: \"0xzz\" does not match the pattern ^0x[0-9a-f]+$"])
        XCTAssertEqual(problems(10, ["exclusiveMaximum": 10]), ["v: 10 must be less than 10"])
        XCTAssertEqual(problems(7, ["multipleOf": 2]), ["v: 7 is not a multiple of 2"])
        XCTAssertEqual(problems("sell", ["enum": ["buy", "hold"]]), ["v: \"sell\" is not one of [\"buy\",\"hold\"]"])
        XCTAssertEqual(problems(1000, ["const": .number(JSONNumber("1e3")!)]), [], "numbers compare by value")
    }

    func testIntegerBoundsCompareExactlyBeyondDoublePrecision() {
        func number(_ literal: String) -> JSONValue { .number(JSONNumber(literal)!) }
        let int64: JSONValue = [
            "type": "integer", "minimum": number("-9223372036854775808"), "maximum": number("9223372036854775807"),
        ]
        XCTAssertEqual(problems(number("9223372036854775807"), int64), [])
        XCTAssertEqual(problems(number("-9223372036854775808"), int64), [])
        // Both round to the same Double (2^63): only an exact comparison tells them apart.
        XCTAssertEqual(
            problems(number("9223372036854775808"), int64),
            ["v: 9223372036854775808 is more than the maximum 9223372036854775807"])
        XCTAssertEqual(
            problems(number("-9223372036854775809"), int64),
            ["v: -9223372036854775809 is less than the minimum -9223372036854775808"])
        XCTAssertEqual(problems(number("18446744073709551616"), ["maximum": number("18446744073709551615")]).count, 1)
        XCTAssertEqual(problems(number("-0"), ["minimum": 0, "exclusiveMaximum": 1]), [])
        XCTAssertEqual(
            problems(number("1e400"), ["maximum": number("18446744073709551615")]).count, 1,
            "not an integer lexeme: compared in Double")
        XCTAssertEqual(problems(number("2.5"), ["maximum": 2]), ["v: 2.5 is more than the maximum 2"])
    }

    func testCombinationsAndReferences() {
        let nullableString: JSONValue = ["anyOf": [["type": "string"], ["type": "null"]]]
        XCTAssertEqual(problems(.null, nullableString), [])
        XCTAssertEqual(
            problems(1, nullableString),
            ["v: matches none of the 2 allowed forms (anyOf); the first says: v: expected string, got a number (1)"])
        XCTAssertEqual(
            problems(2, ["oneOf": [["type": "integer"], ["type": "number"]]]),
            ["v: matches 2 of the forms that oneOf allows, not exactly one"])
        XCTAssertEqual(problems(2, ["not": ["type": "integer"]]), ["v: matches a form the schema excludes (not)"])
        XCTAssertEqual(
            problems("x", ["allOf": [["type": "string"], ["minLength": 2]]]), ["v: 1 characters, fewer than 2"])

        let document: JSONValue = [
            "components": ["schemas": ["Id": ["type": "integer"], "Loop": ["$ref": "#/components/schemas/Loop"]]]
        ]
        let withRoot = JSONSchemaValidator(root: document)
        XCTAssertEqual(
            withRoot.problems("x", against: ["$ref": "#/components/schemas/Id"], at: "v"),
            ["v: expected integer, got a string (\"x\")"])
        XCTAssertEqual(
            withRoot.problems(1, against: ["$ref": "#/components/schemas/Nope"], at: "v"),
            ["v: $ref #/components/schemas/Nope points nowhere in the document"])
        XCTAssertEqual(
            withRoot.problems(1, against: ["$ref": "#/components/schemas/Loop"], at: "v").first?.contains(
                "a $ref cycle?"), true)
    }

    func testWhatIsNotCheckedIsSaid() {
        let schema: JSONValue = [
            "type": "object", "title": "T", "x-note": 1,
            "properties": ["a": ["format": "date-time"], "b": ["if": true]],
        ]
        XCTAssertEqual(validator.notChecked(in: schema), ["format", "if"])
    }

    // MARK: OpenRPCCheck

    private let document: JSONValue = [
        "openrpc": "1.2.6",
        "info": ["title": "t", "version": "1"],
        "methods": [
            [
                "name": "ping", "paramStructure": "either",
                "params": [
                    ["name": "who", "required": true, "schema": ["type": "string"]],
                    ["name": "times", "required": false, "schema": ["type": "integer"]],
                ],
                "x-params-schema": [
                    "type": "object", "properties": ["who": ["type": "string"], "times": ["type": "integer"]],
                    "required": ["who"],
                ],
                "result": [
                    "name": "r",
                    "schema": ["type": "object", "properties": ["pong": ["type": "string"]], "required": ["pong"]],
                ],
                "errors": [["code": -32050, "message": "Empty ping"]],
            ],
            [
                "name": "sum", "paramStructure": "by-position", "params": [],
                "x-params-schema": ["type": "array", "items": ["type": "integer"]],
                "result": ["name": "r", "schema": ["type": "integer"]], "errors": [],
            ],
            [
                "name": "reset", "paramStructure": "either", "params": [],
                "result": ["name": "r", "schema": ["type": "null"]], "errors": [],
                "x-derivation-problems": ["result: something"],
            ],
        ],
    ]

    private func check(_ request: JSONValue, _ response: JSONValue) throws -> (failures: [String], warnings: [String]) {
        try OpenRPCCheck(document: document).check(request: request, response: response)
    }

    func testACaseThatAgreesWithTheDocumentPasses() throws {
        let outcome = try check(["method": "ping", "params": ["who": "a"]], ["result": ["pong": "x"]])
        XCTAssertEqual(outcome.failures, [])
        XCTAssertEqual(
            try check(["method": "ping", "params": ["a", 2]], ["result": ["pong": "x"]]).failures, [],
            "either: by position too")
        XCTAssertEqual(try check(["method": "sum", "params": [1, 2]], ["result": 3]).failures, [])
        XCTAssertEqual(try check(["method": "reset"], ["result": .null]).failures, [])
        XCTAssertEqual(try check(["method": "ping"], ["error": ["code": -32050]]).failures, [])
        XCTAssertEqual(
            try check(["method": "ping"], ["error": ["code": -32602]]).failures, [], "generic codes need no declaration"
        )
        XCTAssertEqual(try check(["method": "nope"], ["error": ["code": -32601]]).failures, [])
    }

    func testDriftFromTheDocumentFails() throws {
        XCTAssertEqual(
            try check(["method": "ping", "params": ["whom": "a"]], ["result": ["pong": "x"]]).failures,
            [
                "params: the required member \"who\" is missing"
            ])
        XCTAssertEqual(
            try check(["method": "ping", "params": ["who": 5]], ["result": ["pong": "x"]]).failures,
            [
                "params.who: expected string, got a number (5)"
            ])
        XCTAssertEqual(
            try check(["method": "ping", "params": ["who": "a"]], ["result": ["pung": "x"]]).failures,
            [
                "result: the required member \"pong\" is missing"
            ])
        XCTAssertEqual(
            try check(["method": "ping", "params": ["a", "b"]], ["result": ["pong": "x"]]).failures,
            [
                "params[1]: expected integer, got a string (\"b\")"
            ])
        XCTAssertEqual(
            try check(["method": "reset", "params": ["x": 1]], ["result": .null]).failures,
            [
                "params: reset takes none, and was given {\"x\":1}"
            ])
        XCTAssertEqual(
            try check(["method": "ping"], ["error": ["code": -32051]]).failures,
            [
                "error.code -32051 is not among ping's errors in rpc.discover (it documents -32050); declare it in the method's `errors`"
            ])
        XCTAssertEqual(
            try check(["method": "gone"], ["result": 1]).failures,
            [
                "gone answered with a result, but the host's rpc.discover document does not list it"
            ])
    }

    func testAnIncompleteDescriptionIsAWarning() throws {
        let outcome = try check(["method": "reset"], ["result": .null])
        XCTAssertEqual(outcome.failures, [])
        XCTAssertEqual(
            outcome.warnings,
            [
                "the host derived reset's schemas only in part, so they were checked only as far as they go: result: something"
            ])
    }

    func testOnlyADocumentIsTaken() {
        XCTAssertThrowsError(try OpenRPCCheck(document: ["methods": []]))
        XCTAssertThrowsError(try OpenRPCCheck(document: ["openrpc": "1.2.6"]))
        XCTAssertThrowsError(try OpenRPCCheck(document: ["openrpc": "1.2.6", "methods": [["params": []]]]))
    }
}
