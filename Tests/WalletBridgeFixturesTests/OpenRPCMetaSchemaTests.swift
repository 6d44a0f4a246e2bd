import WalletBridge
import WalletBridgeConformance
@testable import WalletBridgeFixtures
import WalletBridgeWallet
import XCTest

/// The OpenRPC meta-schema shipped in the binary (`describe --check`): every document a host
/// built on the library answers is valid, and a damaged one is not, as Python's `jsonschema`
/// judges them with the same meta-schema (Tests/system/test_openrpc.py).
final class OpenRPCMetaSchemaTests: XCTestCase {
    /// The conformance host's document: every kind of method the library describes, the
    /// session methods' hand-written schemas among them.
    private static func document() throws -> JSONValue {
        var router = Router()
        let keys = InMemoryTestWallet()
        try router.registerWallet(keys)
        try router.registerSessionMethods(TestSessions.service(keys: keys))
        try registerTestMethods(&router)
        router.info = OpenRPC.Info(title: "conformance", version: "1.0.0")
        return router.openRPCDocument
    }

    private func damaged(_ change: (inout [String: JSONValue]) -> Void) throws -> JSONValue {
        guard case .object(var members) = try Self.document() else { throw XCTSkip("not an object") }
        change(&members)
        return .object(members)
    }

    /// The first method, changed.
    private func damagedMethod(_ change: (inout [String: JSONValue]) -> Void) throws -> JSONValue {
        try damaged { document in
            guard case .array(var methods)? = document["methods"], case .object(var method) = methods[0] else { return }
            change(&method)
            methods[0] = .object(method)
            document["methods"] = .array(methods)
        }
    }

    func testTheShippedMetaSchemaIsReadAndEveryKeywordButFormatIsChecked() throws {
        let schema = try XCTUnwrap(OpenRPCMetaSchema.document)
        XCTAssertEqual(schema.objectValue?["$id"], "https://meta.open-rpc.org/")
        XCTAssertEqual(JSONSchemaValidator().notChecked(in: schema), ["format"])
    }

    func testEveryDocumentTheLibraryWritesIsValid() throws {
        XCTAssertEqual(OpenRPCMetaSchema.problems(in: try Self.document()), [])
    }

    func testADamagedDocumentIsNot() throws {
        let noInfo = try damaged { $0["info"] = nil }
        XCTAssertEqual(OpenRPCMetaSchema.problems(in: noInfo), [#"document: the required member "info" is missing"#])
        let badType = try damagedMethod { method in
            method["result"] = ["name": "result", "schema": ["type": "integr"]]
        }
        let typeProblems = OpenRPCMetaSchema.problems(in: badType)
        XCTAssertEqual(typeProblems.count, 1, "\(typeProblems)")
        XCTAssertTrue(
            typeProblems.first?.hasPrefix("document.methods[0]: matches none of the 2 allowed forms (oneOf)") == true,
            "\(typeProblems)")
        let badStructure = try damagedMethod { $0["paramStructure"] = "by-guess" }
        XCTAssertTrue(
            OpenRPCMetaSchema.problems(in: badStructure).first?.contains(
                #"document.methods[0].paramStructure: "by-guess" is not one of ["by-position","by-name","either"]"#)
                == true,
            "\(OpenRPCMetaSchema.problems(in: badStructure))")
        let badVersion = try damaged { $0["openrpc"] = 1.2 }
        XCTAssertEqual(
            OpenRPCMetaSchema.problems(in: badVersion), ["document.openrpc: expected string, got a number (1.2)"])
        XCTAssertEqual(OpenRPCMetaSchema.problems(in: []), ["document: expected object, got an array"])
    }
}
