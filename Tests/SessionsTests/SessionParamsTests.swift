import WalletBridge
@testable import WalletBridgeWallet
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeSystem
@testable import WalletBridgeTransactions
import XCTest

/// The session methods' params are types read by the one params decoder: their schemas are
/// derived like any method's (none is stated by hand), and a bad member is the -32602 its reader
/// always gave, naming the same field.
final class SessionParamsTests: XCTestCase {
    private func described<M: RPCMethod>(_ method: M.Type) -> [String: JSONValue] {
        OpenRPC.method(M.self).objectValue ?? [:]
    }

    private func params<M: RPCMethod>(_ method: M.Type) -> [(name: String, required: Bool)] {
        (described(M.self)["params"]?.arrayValue ?? []).compactMap { param in
            guard let name = param.objectValue?["name"]?.stringValue,
                case .bool(let required)? = param.objectValue?["required"]
            else {
                return nil
            }
            return (name, required)
        }
    }

    func testEverySessionMethodsParamsSchemaIsDerivedFromItsType() {
        XCTAssertNil(SessionService.Connect.paramsSchema)
        XCTAssertNil(SessionService.List.paramsSchema)
        XCTAssertNil(SessionService.Request.paramsSchema)
        XCTAssertNil(SessionService.Extend.paramsSchema)
        XCTAssertNil(SessionService.Disconnect.paramsSchema)
        for method in [
            described(SessionService.Connect.self), described(SessionService.List.self),
            described(SessionService.Request.self),
            described(SessionService.Extend.self), described(SessionService.Disconnect.self),
        ] {
            XCTAssertNil(method["x-derivation-problems"], "\(method["name"] ?? .null)")
            XCTAssertEqual(method["paramStructure"], "by-name")
        }
        // In the order they are read, each member's schema its reader's.
        XCTAssertEqual(
            params(SessionService.Request.self).map(\.name), ["origin", "topic", "chainId", "request", "expiry"])
        XCTAssertEqual(params(SessionService.Request.self).map(\.required), [false, true, true, true, false])
        XCTAssertEqual(
            params(SessionService.Connect.self).map(\.name),
            ["origin", "requiredNamespaces", "optionalNamespaces", "metadata"])
        XCTAssertEqual(params(SessionService.Connect.self).map(\.required), [false, false, false, true])
        XCTAssertEqual(params(SessionService.Disconnect.self).map(\.name), ["origin", "topic", "reason"])
        let topic = described(SessionService.Extend.self)["x-params-schema"]?.objectValue?["properties"]?.objectValue?[
            "topic"]
        XCTAssertEqual(topic, SessionSchemas.topic)
    }

    private func invalid<P: Decodable>(_ type: P.Type, _ json: JSONValue) -> JSONValue? {
        do {
            _ = try JSONValueDecoder().decodeParams(P.self, from: json)
            XCTFail("read \(json)")
            return nil
        } catch let error as RPCError {
            XCTAssertEqual(error.code, .invalidParams)
            return error.data
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    func testABadMemberIsNamedByItsReader() {
        let topic = JSONValue.string(String(repeating: "a", count: 64))
        XCTAssertEqual(
            invalid(SessionExtendParams.self, [:]), ["field": "topic", "problem": "expected 64 lowercase hex digits"])
        XCTAssertEqual(invalid(SessionExtendParams.self, "x"), ["field": "params", "problem": "expected an object"])
        XCTAssertEqual(
            invalid(SessionRequestParams.self, ["topic": topic, "chainId": "solana", "request": ["method": "m"]]),
            ["field": "chainId", "problem": "expected a CAIP-2 chain id such as \(SolanaChain.mainnet)"])
        XCTAssertEqual(
            invalid(SessionRequestParams.self, ["topic": topic, "chainId": "eip155:1", "request": ["params": []]]),
            ["field": "request.method", "problem": "expected a string"])
        XCTAssertEqual(
            invalid(
                SessionRequestParams.self,
                ["topic": topic, "chainId": "eip155:1", "request": ["method": "m"], "expiry": 1.5]),
            ["field": "expiry", "problem": "expected whole seconds since the Unix epoch"])
        XCTAssertEqual(
            invalid(
                SessionConnectParams.self,
                ["requiredNamespaces": ["solana": ["chains": ["eip155:1"], "methods": [], "events": []]]]),
            [
                "field": "requiredNamespaces.solana.chains[0]",
                "problem": "a chain of the \"eip155\" namespace, listed under \"solana\"",
            ])
        XCTAssertEqual(
            invalid(SessionConnectParams.self, [:]),
            ["field": "metadata", "problem": "required: an object with at least a name"])
        XCTAssertEqual(
            invalid(SessionListParams.self, ["origin": "https://app.example.com/"])?.objectValue?["field"], "origin")
    }

    /// An optional member given as null reads as left out, as in any method's params: `[]` and
    /// no params read as `{}`.
    func testNullReadsAsLeftOut() throws {
        let topic = JSONValue.string(String(repeating: "a", count: 64))
        let request = try JSONValueDecoder().decodeParams(
            SessionRequestParams.self,
            from: [
                "topic": topic, "chainId": "eip155:1", "request": ["method": "eth_chainId"], "expiry": .null,
                "origin": .null,
            ])
        XCTAssertNil(request.expiry)
        XCTAssertNil(request.origin)
        let disconnect = try JSONValueDecoder().decodeParams(
            SessionDisconnectParams.self, from: ["topic": topic, "reason": .null])
        XCTAssertNil(disconnect.reason)
        XCTAssertNil(try JSONValueDecoder().decodeParams(SessionListParams.self, from: []).origin)
    }
}
