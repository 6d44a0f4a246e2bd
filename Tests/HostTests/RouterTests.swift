import Foundation
@testable import WalletBridge
@testable import WalletBridgeHost
@testable import WalletBridgeProtocol
import XCTest

private enum Double2: RPCMethod {
    static let name = "double"
    struct Params: Codable, Sendable { var value: Int }
    typealias Result = Int
}

private enum Ping: RPCMethod {
    static let name = "ping"
    typealias Result = String
}

private enum Pong: RPCMethod {
    static let name = "pong"
    typealias Result = String
}

private enum Reserved: RPCMethod {
    static let name = "rpc.secret"
    typealias Result = String
}

final class RouterTests: XCTestCase {
    private let context = RequestContext(caller: .unidentified, requestID: .number(JSONNumber(1)), method: "double")

    private func respond(_ router: Router, _ text: String) async throws -> String? {
        guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else {
            XCTFail("not a valid request: \(text)")
            return nil
        }
        return await router.respond(to: request, context: context).map { String(decoding: $0, as: UTF8.self) }
    }

    func testRegisteringANameTwiceThrows() throws {
        var router = Router()
        try router.register(Double2.self) { params, _ in params.value * 2 }
        XCTAssertThrowsError(try router.register(Double2.self) { params, _ in params.value * 3 }) { error in
            XCTAssertEqual(error as? RouterError, .duplicateMethod("double"))
        }
    }

    func testReservedNamesCannotBeRegistered() {
        var router = Router()
        XCTAssertThrowsError(try router.register(Reserved.self) { _, _ in "" }) { error in
            XCTAssertEqual(error as? RouterError, .reservedName("rpc.secret"))
        }
    }

    func testTypedParamsAndResult() async throws {
        var router = Router()
        try router.register(Double2.self) { params, _ in params.value * 2 }
        let reply = try await respond(router, #"{"jsonrpc":"2.0","method":"double","params":{"value":21},"id":1}"#)
        XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":42}"#)
    }

    func testNotificationsGetNoReply() async throws {
        var router = Router()
        try router.register(Ping.self) { _, _ in "pong" }
        let reply = try await respond(router, #"{"jsonrpc":"2.0","method":"ping"}"#)
        XCTAssertNil(reply)
    }

    func testHandlerSeesItsContext() async throws {
        var router = Router()
        let seen = SendableBox<RequestContext?>(nil)
        try router.register(Ping.self) { _, context in
            seen.value = context
            return "pong"
        }
        let request = Request(id: .string("x"), method: "ping", params: nil)
        let context = RequestContext(
            caller: .firefoxAddon(id: "a@b", manifestPath: "/m.json"), requestID: .string("x"), method: "ping")
        _ = await router.respond(to: request, context: context)
        XCTAssertEqual(seen.value?.caller.identity, "a@b")
        XCTAssertEqual(seen.value?.requestID, .string("x"))
    }

    func testCallerFromArguments() {
        XCTAssertEqual(
            Caller(arguments: ["chrome-extension://abc/"]), .chromeExtension(origin: "chrome-extension://abc/"))
        XCTAssertEqual(
            Caller(arguments: ["chrome-extension://abc/", "--parent-window=7"]).identity, "chrome-extension://abc/")
        XCTAssertEqual(
            Caller(arguments: ["/home/u/.mozilla/native-messaging-hosts/x.json", "a@b"]),
            .firefoxAddon(id: "a@b", manifestPath: "/home/u/.mozilla/native-messaging-hosts/x.json"))
        XCTAssertEqual(Caller(arguments: []), .unidentified)
        XCTAssertEqual(Caller(arguments: ["keys", "list"]), .unidentified)
        XCTAssertFalse(Caller.isBrowserLaunch(["install", "--browser", "firefox"]))
    }

    func testErrorCatalogueHasDistinctCodesWithCorrectSigns() {
        let codes = ErrorCode.catalogue.map(\.code.rawValue)
        XCTAssertEqual(Set(codes).count, codes.count)
        // JSON-RPC's and the wallet's are negative; the sessions' are WalletConnect's and
        // EIP-1193's positive numbers.
        XCTAssertTrue(codes.allSatisfy { $0 < 0 || (3000..<9000).contains($0) }, "\(codes)")
        XCTAssertEqual(ErrorCode.parseError.rawValue, -32700)
        XCTAssertEqual(ErrorCode.notSigned.standardMessage, "Payload not signed")
    }

    /// A handler registered with `makingHandler` is made on its method's first call: not when it
    /// is registered, nor when the router is described or another method is called; and once.
    func testAHandlerIsMadeOnItsMethodsFirstCallOnly() async throws {
        var router = Router()
        let made = SendableBox(0)
        try router.register(
            Double2.self,
            makingHandler: {
                made.value += 1
                return { params, _ in params.value * 2 }
            })
        try router.register(Ping.self) { _, _ in "pong" }
        XCTAssertEqual(router.methodNames, ["double", "ping"])
        XCTAssertEqual(router.openRPCDocument.objectValue?["methods"]?.arrayValue?.count, 2)
        let pong = try await respond(router, #"{"jsonrpc":"2.0","method":"ping","id":1}"#)
        XCTAssertEqual(pong, #"{"jsonrpc":"2.0","id":1,"result":"pong"}"#)
        XCTAssertEqual(made.value, 0, "made before its method was called")
        for value in 1...3 {
            let reply = try await respond(
                router, #"{"jsonrpc":"2.0","method":"double","params":{"value":\#(value)},"id":1}"#)
            XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":\#(value * 2)}"#)
        }
        XCTAssertEqual(made.value, 1, "made once")
    }

    /// First calls that arrive together all get an answer from a made handler, whichever of them
    /// made it.
    func testConcurrentFirstCallsAreAllAnswered() async throws {
        var made = Router()
        try made.register(Double2.self, makingHandler: { { params, _ in params.value * 2 } })
        let (router, context) = (made, context)
        let replies = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for value in 0..<64 {
                group.addTask {
                    let text = #"{"jsonrpc":"2.0","method":"double","params":{"value":\#(value)},"id":1}"#
                    guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else {
                        return (value, nil)
                    }
                    let body = await router.respond(to: request, context: context)
                    return (value, body.map { String(decoding: $0, as: UTF8.self) })
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        XCTAssertEqual(replies.count, 64)
        for (value, reply) in replies {
            XCTAssertEqual(reply, #"{"jsonrpc":"2.0","id":1,"result":\#(value * 2)}"#)
        }
    }

    /// A router is a value: methods registered on a copy are the copy's alone.
    func testACopyRegistersMethodsOfItsOwn() async throws {
        var router = Router()
        try router.register(Ping.self) { _, _ in "pong" }
        var copy = router
        try copy.register(Double2.self) { params, _ in params.value * 2 }
        XCTAssertEqual(router.methodNames, ["ping"])
        XCTAssertEqual(copy.methodNames, ["double", "ping"])
        let unknown = try await respond(router, #"{"jsonrpc":"2.0","method":"double","params":{"value":1},"id":1}"#)
        XCTAssertEqual(unknown?.contains("-32601"), true, unknown ?? "no reply")
        try router.register(Double2.self) { params, _ in params.value * 3 }
        let tripled = try await respond(router, #"{"jsonrpc":"2.0","method":"double","params":{"value":1},"id":1}"#)
        XCTAssertEqual(tripled, #"{"jsonrpc":"2.0","id":1,"result":3}"#)
    }

    /// A name is found among many, and a name that only shares a length or a beginning with a
    /// registered one is not.
    func testEachNameFindsItsOwnHandler() async throws {
        var router = Router()
        try router.register(Ping.self) { _, _ in "pong" }
        try router.register(Double2.self) { params, _ in params.value * 2 }
        try router.register(Pong.self) { _, _ in "ping" }
        let ping = try await respond(router, #"{"jsonrpc":"2.0","method":"ping","id":1}"#)
        XCTAssertEqual(ping, #"{"jsonrpc":"2.0","id":1,"result":"pong"}"#)
        let pong = try await respond(router, #"{"jsonrpc":"2.0","method":"pong","id":1}"#)
        XCTAssertEqual(pong, #"{"jsonrpc":"2.0","id":1,"result":"ping"}"#)
        for name in ["pin", "pingg", "doubl"] {
            let reply = try await respond(router, #"{"jsonrpc":"2.0","method":"\#(name)","id":1}"#)
            XCTAssertEqual(reply?.contains("-32601"), true, reply ?? "no reply")
        }
    }
}

final class SendableBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

private enum Describe: RPCMethod {
    static let name = "describe"
    typealias Params = JSONValue
    struct Result: Codable, Sendable {
        var echoed: JSONValue
        var count: Int
    }
}

final class ResultEncodingTests: XCTestCase {
    /// Found by fuzz-json-rpc: raw JSON nested in a result used to go through Double, so 1e400
    /// failed (-32603) and long integers were rounded.
    func testRawJSONInsideAResultIsWrittenExactly() async throws {
        var router = Router()
        try router.register(Describe.self) { params, _ in .init(echoed: params, count: 1) }
        let text =
            #"{"jsonrpc":"2.0","method":"describe","params":[1e400,123456789012345678901234567890,1.50],"id":1e400}"#
        guard case .request(let request) = Request.parse(try JSONParser.parse(Array(text.utf8))) else {
            return XCTFail()
        }
        let context = RequestContext(caller: .unidentified, requestID: request.id, method: request.method)
        let reply = await router.respond(to: request, context: context).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(
            reply,
            #"{"jsonrpc":"2.0","id":1e400,"result":{"echoed":[1e400,123456789012345678901234567890,1.50],"count":1}}"#)
    }

    func testStringsAreEscapedAsJSONRequires() throws {
        var out: [UInt8] = []
        JSONWriter.writeString("a\"b\\c\n\u{1}\u{8}é/", into: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #""a\"b\\c\n\u0001\bé/""#)
    }
}

final class ByteScanTests: XCTestCase {
    /// The word-at-a-time scan must find exactly what a byte loop finds, wherever the special
    /// byte sits relative to the 8-byte words.
    func testAgreesWithAByteLoopOnRandomInput() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [
            0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, 0x41,
        ]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? UInt8(ascii: "a") : alphabet.randomElement(using: &generator)!
            }
            let start = Int.random(in: 0...count, using: &generator)
            let expected = bytes[start...].firstIndex { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } ?? count
            let found = bytes.withUnsafeBufferPointer { ByteScan.firstSpecial(in: $0, from: start) }
            XCTAssertEqual(found, expected, "\(bytes) from \(start)")
        }
    }
}
