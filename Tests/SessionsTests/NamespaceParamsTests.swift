import Foundation
import WalletBridge
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeTransactions
import XCTest

/// The namespace methods' params as Codable types (NamespaceParams.swift): each writes the wire
/// form it reads, as the fixtures send it, reads back what it wrote, and has its schema derived;
/// the derived schemas say what the hand-written ones they replaced said.
final class NamespaceParamsTests: XCTestCase {
    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The inner request's params of the case `name` of the fixture file `file`.
    private func sent(_ file: String, _ name: String) throws -> JSONValue {
        let document = try JSONParser.parse(Array(Data(contentsOf: Self.fixtures.appendingPathComponent(file))))
        let cases = document.objectValue?["cases"]?.arrayValue ?? []
        let found = cases.first { $0.objectValue?["name"]?.stringValue == name }
        let outer = found?.objectValue?["request"]?.objectValue?["params"]?.objectValue
        return try XCTUnwrap(outer?["request"]?.objectValue?["params"], "\(file) has no case \(name) with params")
    }

    private func decode<P: Decodable>(_ type: P.Type, _ params: JSONValue) throws -> P {
        try JSONValueDecoder().decode(P.self, from: params, at: NamespaceParams.path)
    }

    /// `params` read, then written, is `params` again (the encoding is the wire form the fixture
    /// sends), and what is written reads back as the same value.
    private func assertRoundTrip<P: Codable & Equatable>(
        _ type: P.Type, _ params: JSONValue, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let value = try decode(P.self, params)
        let written = try SessionService.json(value)
        XCTAssertEqual(written, params, "written as sent", file: file, line: line)
        XCTAssertEqual(try decode(P.self, written), value, "read back", file: file, line: line)
    }

    func testSolanaParamsWriteWhatTheyRead() throws {
        try assertRoundTrip(SolanaSignMessage.Params.self, sent("sessions.json", "request-sign-message"))
        try assertRoundTrip(SolanaSignTransaction.Params.self, sent("sessions.json", "request-sign-transfer"))
        try assertRoundTrip(
            SolanaSignTransaction.Params.self, sent("sessions.json", "request-sign-pubkey-second-signer"))
        try assertRoundTrip(SolanaSignAllTransactions.Params.self, sent("sessions.json", "request-sign-all"))
        // No fixture signs in: the input test_sign_in.py sends, with every member given.
        try assertRoundTrip(
            SolanaSignIn.Params.self,
            [
                "domain": "127.0.0.1:8123", "address": "AKnL4NNf3DGWZJS6cPknBuEGnVsV4A4m5tgebLHaRSZ9",
                "statement": "Sign in to the example dApp", "uri": "http://127.0.0.1:8123/", "version": "1",
                "chainId": "mainnet", "nonce": "oBbLoEldZs", "issuedAt": "2026-11-28T09:15:00Z",
                "expirationTime": "2026-11-28T09:25:00Z", "notBefore": "2026-11-28T09:15:00Z", "requestId": "r-1",
                "resources": ["https://example.org/terms"],
            ])
        try assertRoundTrip(SolanaSignIn.Params.self, [:])
    }

    func testEthereumParamsWriteWhatTheyRead() throws {
        try assertRoundTrip(PersonalSign.Params.self, sent("ethereum.json", "personal-sign-hex"))
        try assertRoundTrip(EthSignTypedDataV4.Params.self, sent("ethereum.json", "sign-typed-data-object"))
        try assertRoundTrip(EthSignTypedDataV4.Params.self, sent("ethereum.json", "sign-typed-data-mail"))
        try assertRoundTrip(EthSignTransaction.Params.self, sent("ethereum.json", "sign-transaction-fee-market"))
        try assertRoundTrip(
            EthSignTransaction.Params.self, sent("ethereum.json", "sign-transaction-serialized-address"))
        try assertRoundTrip(UnreadParams.self, sent("ethereum.json", "eth-accounts"))
    }

    /// An address is written as its EIP-55 checksum, whatever case it was read in: the same
    /// address, read back.
    func testAnAddressIsWrittenChecksummed() throws {
        let lower = "0x" + "cd2a3d9f938e13cd947ec05abc7fe734df8dd826"
        let params = try decode(PersonalSign.Params.self, ["0x00", .string(lower)])
        XCTAssertEqual(try SessionService.json(params), ["0x00", "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"])
        XCTAssertEqual(try decode(PersonalSign.Params.self, SessionService.json(params)), params)
    }

    /// A fault names its place under `request.params`, where the params sit in `session_request`'s.
    func testAFaultNamesItsPlaceUnderTheRequest() throws {
        func field(_ type: any Decodable.Type, _ params: JSONValue) -> String? {
            do {
                _ = try JSONValueDecoder().decode(type, from: params, at: NamespaceParams.path)
                return nil
            } catch {
                return (error as? RPCError)?.data?.objectValue?["field"]?.stringValue ?? "not -32602: \(error)"
            }
        }
        let address = JSONValue.string("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")
        XCTAssertEqual(field(PersonalSign.Params.self, [5, address]), "request.params[0]")
        XCTAssertEqual(field(EthSignTypedDataV4.Params.self, [address, [:], 1]), "request.params")
        XCTAssertEqual(field(EthSignTransaction.Params.self, []), "request.params")
        XCTAssertNil(field(EthSignTransaction.Params.self, ["0x00", .null]), "a null address is read when it runs")
        XCTAssertEqual(
            field(SolanaSignAllTransactions.Params.self, ["transactions": [5]]), "request.params.transactions[0]")
        XCTAssertEqual(
            field(SolanaSignIn.Params.self, ["resources": ["https://a.example", 5]]), "request.params.resources[1]")
        XCTAssertEqual(field(SolanaSignIn.Params.self, ["resources": "https://a.example"]), "request.params.resources")
        XCTAssertNil(field(SolanaSignIn.Params.self, ["resources": .null, "domain": .null]))
    }

    /// A `DecodingError` that no reader worded is -32602 at its place all the same.
    func testAnUnwordedDecodingFaultIsInvalidParamsAtItsPlace() throws {
        struct Counted: Decodable { let count: Int }
        XCTAssertThrowsError(try decode(Counted.self, ["count": "many"])) { error in
            guard let error = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(
                NamespaceParams.rpcError(error).data,
                ["field": "request.params.count", "problem": "not a value this field accepts"])
        }
        XCTAssertThrowsError(try decode(Counted.self, [:])) { error in
            guard let error = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(
                NamespaceParams.rpcError(error).data,
                ["field": "request.params.count", "problem": "required field is missing"])
        }
    }

    // MARK: The schemas

    /// What derivation says that the hand-written schemas did not, on purpose: nothing. The
    /// `required` lists are compared as sets: derivation lists members in the order the params
    /// read them (`solana_signMessage`'s pubkey first, the cheaper to check).
    static let intentionalDifferences: Set<String> = []

    /// The namespace methods' params schemas as `session_request`'s schema held them while they
    /// were written by hand (`handWrittenSessionMethods`), by method.
    private func handWritten() throws -> [String: JSONValue] {
        let methods = try JSONParser.parse(Array(handWrittenSessionMethods.utf8)).arrayValue ?? []
        let request = methods.first { $0.objectValue?["name"] == "session_request" }
        let inner = request?.objectValue?["x-params-schema"]?.objectValue?["properties"]?.objectValue?["request"]
        var found: [String: JSONValue] = [:]
        for branch in inner?.objectValue?["anyOf"]?.arrayValue ?? [] {
            let properties = branch.objectValue?["properties"]?.objectValue
            guard let method = properties?["method"]?.objectValue?["const"]?.stringValue else { continue }
            found[method] = properties?["params"]
        }
        return found
    }

    func testEachDerivedParamsSchemaSaysWhatTheHandWrittenOneSaid() throws {
        let before = try handWritten()
        XCTAssertEqual(before.count, 7, "the fixture holds the seven methods that read their params")
        var differences: Set<String> = []
        for method in SessionService.namespaceMethodTypes {
            XCTAssertNil(method.paramsSchema, "\(method.name) states its params schema by hand")
            let derived = method.describedParams
            XCTAssertEqual(derived.problems, [], method.name)
            guard let old = before[method.name] else {
                XCTAssertEqual(derived.schema, [:], "\(method.name) reads no params")
                continue
            }
            SessionSchemaDerivationTests.differences(old, derived.schema, at: method.name, into: &differences)
        }
        XCTAssertEqual(differences, Self.intentionalDifferences)
    }
}
