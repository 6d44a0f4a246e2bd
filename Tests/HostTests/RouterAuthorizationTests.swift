import WalletBridge
import XCTest

/// The router's authorization hook: what a caller policy plugs into.
final class RouterAuthorizationTests: XCTestCase {
    private enum Ping: RPCMethod {
        static let name = "test.ping"
        typealias Result = String
    }

    private func request(_ method: String, id: Int? = 1) -> Request {
        var members: [String: JSONValue] = ["jsonrpc": .string("2.0"), "method": .string(method)]
        if let id { members["id"] = .number(JSONNumber(id)) }
        guard case .request(let request) = Request.parse(.object(members)) else {
            preconditionFailure("invalid test request")
        }
        return request
    }

    private func context(_ caller: Caller, method: String) -> RequestContext {
        RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: method)
    }

    private func reply(_ router: Router, _ method: String, caller: Caller) async throws -> JSONValue {
        let body = await router.respond(to: request(method), context: context(caller, method: method))
        return try JSONParser.parse(try XCTUnwrap(body))
    }

    /// `rpc.discover` lists under every method the errors the check may throw: -32001 for a check
    /// installed without a list, the listed ones otherwise.
    func testRpcDiscoverListsTheRefusalsOfTheCheck() throws {
        func codes(_ router: Router) -> [[Int]] {
            (router.openRPCDocument.objectValue?["methods"]?.arrayValue ?? []).map { method in
                (method.objectValue?["errors"]?.arrayValue ?? []).compactMap { $0.objectValue?["code"]?.intValue }
            }
        }
        var router = Router()
        try router.register(Ping.self) { _, _ in "pong" }
        var standard = router
        standard.authorize { _ throws(RPCError) in }
        XCTAssertEqual(codes(standard), [[ErrorCode.authorizationFailed.rawValue]])
        var listed = router
        var refusals = [RPCError(.methodNotFound)]
        refusals.append(RPCError(code: 4100, message: "Unauthorized"))
        listed.authorize(refusals: refusals) { _ throws(RPCError) in }
        XCTAssertEqual(codes(listed), [[ErrorCode.methodNotFound.rawValue, 4100]])
    }

    func testWithoutAuthorizationEveryCallReachesItsHandler() async throws {
        var router = Router()
        try router.register(Ping.self) { _, _ in "pong" }
        let answer = try await reply(router, Ping.name, caller: .unidentified)
        XCTAssertEqual(
            answer, .object(["jsonrpc": .string("2.0"), "id": .number(JSONNumber(1)), "result": .string("pong")]))
    }

    func testRefusalIsAnsweredWithTheThrownErrorAndTheHandlerNeverRuns() async throws {
        var router = Router()
        let ran = Counter()
        try router.register(Ping.self) { _, _ in
            ran.increment()
            return "pong"
        }
        router.authorize { context throws(RPCError) in
            if context.caller.identity != "chrome-extension://allowed/" {
                throw RPCError(.authorizationFailed, detail: "not allowed")
            }
        }
        let refused = try await reply(router, Ping.name, caller: .chromeExtension(origin: "chrome-extension://other/"))
        XCTAssertEqual(
            refused,
            .object([
                "jsonrpc": .string("2.0"), "id": .number(JSONNumber(1)),
                "error": .object([
                    "code": .number(JSONNumber(-1)), "message": .string("Authorization failed"),
                    "data": ["problem": "not allowed"],
                ]),
            ]))
        XCTAssertEqual(ran.value, 0)

        let allowed = try await reply(
            router, Ping.name, caller: .chromeExtension(origin: "chrome-extension://allowed/"))
        guard case .object(let members) = allowed else { return XCTFail("not an object: \(allowed)") }
        XCTAssertEqual(members["result"], .string("pong"))
        XCTAssertEqual(ran.value, 1)
    }

    func testRefusalComesBeforeMethodLookupSoUnknownMethodsAreNotRevealed() async throws {
        var router = Router()
        router.authorize { _ throws(RPCError) in throw RPCError(.authorizationFailed) }
        let answer = try await reply(router, "no.such.method", caller: .unidentified)
        guard case .object(let members) = answer, case .object(let error)? = members["error"] else {
            return XCTFail("not an error reply: \(answer)")
        }
        XCTAssertEqual(error["code"], .number(JSONNumber(-1)))
    }

    func testTheCheckSeesTheCallersMethod() async throws {
        var router = Router()
        try router.register(Ping.self) { _, _ in "pong" }
        let seen = Recorder()
        router.authorize { context throws(RPCError) in seen.record(context.method) }
        _ = try await reply(router, Ping.name, caller: .unidentified)
        _ = try await reply(router, "other", caller: .unidentified)
        XCTAssertEqual(seen.values, [Ping.name, "other"])
    }

    func testRefusedNotificationGetsNoReply() async throws {
        var router = Router()
        router.authorize { _ throws(RPCError) in throw RPCError(.authorizationFailed) }
        let body = await router.respond(
            to: request(Ping.name, id: nil), context: context(.unidentified, method: Ping.name))
        XCTAssertNil(body)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func record(_ value: String) { lock.withLock { recorded.append(value) } }
    var values: [String] { lock.withLock { recorded } }
}
