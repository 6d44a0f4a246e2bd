import WalletBridge
@testable import WalletBridgeSessions
import XCTest

/// The session methods' results, and the namespace methods' results inside `session_request`'s,
/// are derived from their types (with the constraints each type states next to its members),
/// and say what the hand-written schemas they replaced said (`handWrittenSessionMethods`, the five
/// methods as `rpc.discover` described them before); the only differences are listed here.
final class SessionSchemaDerivationTests: XCTestCase {
    /// What derivation says that the hand-written schemas did not, on purpose: nothing. (A
    /// `required` list now follows declaration order; it is compared as the set it is.)
    /// Where the derived schemas say more than the hand-written ones did, on purpose: a session's
    /// expiry as the host writes it is a positive time a JavaScript number holds exactly, which
    /// clients now check against these schemas.
    private static let intentionalDifferences: Set<String> = [
        "session_connect.result.schema.properties.expiry: added maximum, minimum",
        "session_extend.result.schema.properties.expiry: added maximum, minimum",
        "session_list.result.schema.properties.sessions.items.properties.expiry: added maximum, minimum",
    ]

    private func handWritten() throws -> [String: JSONValue] {
        let methods = try JSONParser.parse(Array(handWrittenSessionMethods.utf8)).arrayValue ?? []
        return Dictionary(
            uniqueKeysWithValues: methods.compactMap { method in
                method.objectValue?["name"]?.stringValue.map { ($0, method) }
            })
    }

    private var derived: [JSONValue] {
        [
            OpenRPC.method(SessionService.Connect.self), OpenRPC.method(SessionService.List.self),
            OpenRPC.method(SessionService.Request.self), OpenRPC.method(SessionService.Extend.self),
            OpenRPC.method(SessionService.Disconnect.self),
        ]
    }

    func testTheDerivedSessionSchemasSayWhatTheHandWrittenOnesSaid() throws {
        let before = try handWritten()
        XCTAssertEqual(before.count, 5, "the fixture holds the five session methods")
        var differences: Set<String> = []
        for method in derived {
            let object = method.objectValue ?? [:]
            let name = object["name"]?.stringValue ?? "?"
            XCTAssertNil(object["x-derivation-problems"], name)
            guard let old = before[name]?.objectValue else {
                XCTFail("\(name) is not in the fixture")
                continue
            }
            // The errors the router adds to every method (-1) are the document's, not the type's.
            for key in ["summary", "paramStructure", "params", "x-params-schema", "result"] {
                Self.differences(old[key] ?? .null, object[key] ?? .null, at: "\(name).\(key)", into: &differences)
            }
        }
        XCTAssertEqual(differences, Self.intentionalDifferences)
    }

    func testTheComparisonSeesAChangedConstraint() throws {
        // The comparison above can fail: the same session schema with its topic's pattern gone.
        let before = try handWritten()
        guard case .object(var connect)? = before["session_connect"], case .object(var result)? = connect["result"],
            case .object(var schema)? = result["schema"], case .object(var properties)? = schema["properties"],
            case .object(var topic)? = properties["topic"]
        else { return XCTFail("the fixture's session_connect has no result topic") }
        topic["pattern"] = nil
        properties["topic"] = .object(topic)
        schema["properties"] = .object(properties)
        result["schema"] = .object(schema)
        connect["result"] = .object(result)
        var differences: Set<String> = []
        let original = before["session_connect"]?.objectValue?["result"] ?? .null
        Self.differences(connect["result"] ?? .null, original, at: "session_connect.result", into: &differences)
        XCTAssertEqual(differences, ["session_connect.result.schema.properties.topic: added pattern"])
    }

    func testNoSessionMethodStatesItsResultSchemaByHand() {
        XCTAssertNil(SessionService.Connect.resultSchema)
        XCTAssertNil(SessionService.List.resultSchema)
        XCTAssertNil(SessionService.Request.resultSchema)
        XCTAssertNil(SessionService.Extend.resultSchema)
        XCTAssertNil(SessionService.Disconnect.resultSchema)
    }

    /// Where `new` differs from `old`: a keyword added or removed, or a value changed. `required`
    /// is compared as a set (derivation lists members in declaration order).
    static func differences(_ old: JSONValue, _ new: JSONValue, at path: String, into found: inout Set<String>) {
        switch (old, new) {
        case (.object(let old), .object(let new)):
            let added = Set(new.keys).subtracting(old.keys).sorted()
            let removed = Set(old.keys).subtracting(new.keys).sorted()
            if !added.isEmpty { found.insert("\(path): added \(added.joined(separator: ", "))") }
            if !removed.isEmpty { found.insert("\(path): removed \(removed.joined(separator: ", "))") }
            for key in Set(old.keys).intersection(new.keys) {
                if key == "required", let oldList = old[key]?.arrayValue, let newList = new[key]?.arrayValue {
                    if Set(oldList.compactMap(\.stringValue)) != Set(newList.compactMap(\.stringValue)) {
                        found.insert("\(path).required: changed")
                    }
                    continue
                }
                differences(old[key]!, new[key]!, at: "\(path).\(key)", into: &found)
            }
        case (.array(let old), .array(let new)) where old.count == new.count:
            for (index, pair) in zip(old, new).enumerated() {
                differences(pair.0, pair.1, at: "\(path)[\(index)]", into: &found)
            }
        default:
            if old != new { found.insert("\(path): changed") }
        }
    }
}
