import WalletBridge
@testable import WalletBridgeWallet
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeSystem
@testable import WalletBridgeTransactions
import XCTest

/// The namespace methods as types (NamespaceMethods.swift): the table `session_request`
/// dispatches by, and what it and the schema say of each.
final class NamespaceMethodsTests: XCTestCase {
    /// Every method a session can allow has a type: one the wallet offers without would be
    /// approved, then answered -32601.
    func testEveryOfferedMethodHasAType() {
        for (namespace, offered) in WalletSupport.default.namespaces {
            for method in offered.methods {
                XCTAssertNotNil(
                    SessionService.namespaceMethods[method], "\(namespace) offers \(method), which has no type")
            }
        }
        XCTAssertEqual(
            SessionService.namespaceMethods.count, SessionService.namespaceMethodTypes.count, "a name given twice")
    }

    /// The inner request's schema describes exactly the methods whose types read their params.
    func testTheSchemaDescribesTheMethodsThatReadParams() {
        XCTAssertEqual(
            SessionSchemas.checkedMethods.map(\.method),
            [
                "solana_signMessage", "solana_signTransaction", "solana_signAllTransactions", "solana_signIn",
                "personal_sign", "eth_signTypedData_v4", "eth_signTransaction",
            ])
    }

    /// Params go through the router's decoder at their place, `request.params`, and a fault keeps the
    /// reader's words.
    func testParamsAreReadByTheDecoderWithTheReadersWords() throws {
        let decoder = JSONValueDecoder()
        let address = JSONValue.string("0x" + String(repeating: "ab", count: 20))
        let path = NamespaceParams.path
        let good = try decoder.decode(PersonalSign.Params.self, from: [.string("0x68656c6c6f"), address], at: path)
        XCTAssertEqual(good.message, "0x68656c6c6f")
        XCTAssertThrowsError(try decoder.decode(PersonalSign.Params.self, from: [.string(""), address], at: path)) {
            XCTAssertEqual(
                ($0 as? RPCError)?.data,
                [
                    "field": "request.params[0]", "problem": "the message is empty: there is nothing to sign",
                ])
        }
        XCTAssertThrowsError(try decoder.decode(SolanaSignMessage.Params.self, from: .null, at: path)) {
            XCTAssertEqual(
                ($0 as? RPCError)?.data, ["field": "request.params", "problem": "expected {\"message\", \"pubkey\"}"])
        }
    }

    /// A typed result is written with its members in sorted order, as the JSON objects the
    /// namespace methods answered with before were, so that the bytes on the wire did not move.
    func testTypedResultsWriteTheirMembersInSortedOrder() throws {
        func bytes(_ result: some Encodable) throws -> String {
            var bytes: [UInt8] = []
            try ResultEncoder.encode(result, into: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        XCTAssertEqual(
            try bytes(SolanaSignAllTransactions.Result(signatures: ["s"], transactions: ["t"])),
            #"{"signatures":["s"],"transactions":["t"]}"#)
        XCTAssertEqual(
            try bytes(SolanaSignTransaction.Result(signature: "s", transaction: "t")),
            #"{"signature":"s","transaction":"t"}"#)
        XCTAssertEqual(
            try bytes(SolanaSignIn.Result(address: "a", message: "m", signature: "s")),
            #"{"address":"a","message":"m","signature":"s"}"#)
    }
}
