import Foundation
import Synchronization
import WalletBridge
import XCTest

/// A wallet that signs with a fixed 64-byte "signature" and counts how often it was asked, for
/// what the bridge decides before any wallet runs.
private final class CountingWallet: WalletBackend {
    let signCalls = Mutex(0)

    func getAccounts(context: RequestContext) async throws -> GetAccountsResult { GetAccountsResult(addresses: []) }

    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        signCalls.withLock { $0 += 1 }
        return SignPayloadsResult(
            signed_payloads: params.payloads.map { payload in
                (Data(base64Encoded: payload)! + Data(repeating: 7, count: 64)).base64EncodedString()
            })
    }
}

final class WalletRoutingTests: XCTestCase {
    private func respond(
        _ router: Router, id: RequestID?, payloads: [String], maxReplyBytes: Int = Frame.maxOutboundBytes
    ) async throws -> String? {
        var members: [String: JSONValue] = [
            "jsonrpc": "2.0", "method": .string(SignPayloads.name),
            "params": ["address": "AAAA", "payloads": .array(payloads.map(JSONValue.string))],
        ]
        if let id { members["id"] = id.jsonValue }
        guard case .request(let request) = Request.parse(.object(members)) else { throw XCTSkip("not a request") }
        let context = RequestContext(
            caller: .unidentified, requestID: id, method: SignPayloads.name, maxReplyBytes: maxReplyBytes)
        return await router.respond(to: request, context: context).map { String(decoding: $0, as: UTF8.self) }
    }

    private func payload(_ count: Int) -> String { Data((0..<count).map { UInt8($0 % 251) }).base64EncodedString() }

    func testTheReplySizeIsKnownExactlyBeforeSigning() async throws {
        let wallet = CountingWallet()
        var router = Router()
        try router.registerWallet(wallet)
        // Every padding case (0, 1, 2 "="), empty-ish and long payloads, short and long ids.
        let cases: [(RequestID, [String])] = [
            (.number(JSONNumber(1)), [payload(1)]),
            (.string("an id with \"quotes\" and \u{e9}"), [payload(2), payload(3), payload(4)]),
            (.number(JSONNumber("12345678901234567890")!), (1...40).map(payload)),
            (.string(""), [payload(100_000), payload(5)]),
        ]
        for (id, payloads) in cases {
            let reply = try await respond(router, id: id, payloads: payloads)
            XCTAssertEqual(
                reply?.utf8.count, SignPayloadsResult.replyBytes(id: id, payloads: payloads), "\(id) \(payloads.count)")
        }
    }

    func testASignatureNobodyCouldReceiveIsRefusedBeforeTheWalletIsAsked() async throws {
        let wallet = CountingWallet()
        var router = Router()
        try router.registerWallet(wallet)

        // A notification gets no reply, so its signatures would be thrown away.
        let silent = try await respond(router, id: nil, payloads: [payload(10)])
        XCTAssertNil(silent)
        XCTAssertEqual(
            wallet.signCalls.withLock { $0 }, 0, "a notification reached the wallet (and its consent dialog)")

        // A reply one byte over the limit: -32000 with the size, and the wallet never runs.
        let id = RequestID.number(JSONNumber(1))
        let payloads = [payload(5000), payload(700)]
        let bytes = SignPayloadsResult.replyBytes(id: id, payloads: payloads)
        let refused = try await respond(router, id: id, payloads: payloads, maxReplyBytes: bytes - 1)
        XCTAssertEqual(
            refused,
            #"{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"data":{"bytes":\#(bytes),"limit":\#(bytes - 1)},"message":"Response too large"}}"#
        )
        XCTAssertEqual(wallet.signCalls.withLock { $0 }, 0)

        // At exactly the limit it is signed.
        let signed = try await respond(router, id: id, payloads: payloads, maxReplyBytes: bytes)
        XCTAssertEqual(signed?.utf8.count, bytes)
        XCTAssertEqual(wallet.signCalls.withLock { $0 }, 1)
    }
}
