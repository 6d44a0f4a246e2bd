import Dispatch
import FuzzSupport
import Synchronization
import WalletBridge
import WalletBridgeConformance

// Input: one frame body. It goes through the real Server and Router, with the built-in wallet
// methods (over the in-memory test wallet) and custom methods registered as a developer would.
// Invariants: every call is answered or deliberately not (notifications), nothing hangs, and
// every reply is valid JSON-RPC 2.0 within the 1 MiB frame limit.
@main enum JSONRPCTarget {
    static let replies = Mutex<[[UInt8]]>([])

    static let server: Server = {
        var router = Router()
        do {
            try router.registerWallet(InMemoryTestWallet())
            try registerTestMethods(&router, .immediate)
        } catch {
            fatalError("router setup: \(error)")
        }
        var configuration = HostConfiguration()
        configuration.requestTimeout = nil
        return Server(
            router: router, configuration: configuration, caller: .chromeExtension(origin: "chrome-extension://fuzz/")
        ) { body in
            replies.withLock { $0.append(body) }
        }
    }()

    static func main() {
        fuzzMain { body in
            replies.withLock { $0.removeAll() }
            server.receive(body)
            require(server.waitUntilIdle(timeout: .seconds(10)), "a call did not finish within 10 s")
            for reply in replies.withLock({ $0 }) {
                require(reply.count <= Frame.maxOutboundBytes, "reply of \(reply.count) bytes exceeds the frame limit")
                guard let value = try? JSONParser.parse(reply, maxDepth: 1024) else {
                    return require(false, "reply is not JSON: \(String(decoding: reply.prefix(200), as: UTF8.self))")
                }
                switch value {
                case .array(let entries):
                    require(!entries.isEmpty, "an empty batch reply")
                    entries.forEach(checkResponse)
                default:
                    checkResponse(value)
                }
            }
        }
    }

    static func checkResponse(_ value: JSONValue) {
        guard case .object(let members) = value else { return require(false, "a reply is not an object") }
        require(members["jsonrpc"] == .string("2.0"), "reply without jsonrpc 2.0")
        require(members["id"] != nil, "reply without id")
        require((members["result"] == nil) != (members["error"] == nil), "reply needs exactly one of result and error")
        if case .object(let error)? = members["error"] {
            guard case .number? = error["code"], case .string? = error["message"] else {
                return require(false, "error object without a numeric code and a message")
            }
        }
    }
}
