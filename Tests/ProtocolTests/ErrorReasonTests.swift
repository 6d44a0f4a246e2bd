import WalletBridgeProtocol
import XCTest

// `data.reason`: one catalogue (ErrorReason.swift), the errors built from it, and read back. The
// JS side and README are checked against the same file by js/test/errors.test.js.
final class ErrorReasonTests: XCTestCase {
    func testAnErrorWithAReasonIsTheWireShapeItReplaces() {
        let declined = RPCError(.notSigned, reason: .declined)
        XCTAssertEqual(declined.data, .object(["reason": .string("declined")]))
        XCTAssertEqual(
            String(decoding: declined.jsonValue.jsonBytes, as: UTF8.self),
            #"{"code":-3,"data":{"reason":"declined"},"message":"Payload not signed"}"#)

        let nobody = RPCError(.authorizationFailed, reason: .noPrompt, fix: "install pinentry-gnome3")
        XCTAssertEqual(
            String(decoding: nobody.jsonValue.jsonBytes, as: UTF8.self),
            #"{"code":-1,"data":{"fix":"install pinentry-gnome3","reason":"no_prompt"},"message":"Authorization failed"}"#
        )
    }

    func testTheReasonIsReadBackOnlyWhenItIsTheCatalogues() {
        XCTAssertEqual(RPCError(.notSigned, reason: .keyDamaged).reason, .keyDamaged)
        // From the wire: other members beside it do not matter.
        let busy = RPCError(
            .agentUnavailable, data: ["reason": "too_many_connections", "problem": "busy", "limit": 32])
        XCTAssertEqual(busy.reason, .tooManyConnections)
        XCTAssertNil(RPCError(.notSigned, data: ["reason": "tired"]).reason, "not a reason of the catalogue")
        XCTAssertNil(RPCError(.notSigned, data: ["reason": 3]).reason)
        XCTAssertNil(RPCError(.notSigned, detail: "declined").reason)
        XCTAssertNil(RPCError(.notSigned).reason)
    }

    func testTheCatalogueIsDistinctSnakeCaseWords() {
        let values = ErrorReason.allCases.map(\.rawValue)
        XCTAssertEqual(Set(values).count, values.count)
        for value in values {
            XCTAssertTrue(value.allSatisfy { $0 == "_" || ("a"..."z").contains($0) }, value)
            XCTAssertEqual(ErrorReason(rawValue: value)?.jsonValue, .string(value))
        }
        XCTAssertEqual(values.count, 16)
    }
}
