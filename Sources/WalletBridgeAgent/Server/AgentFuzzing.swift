#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeSystem
import WalletBridgeHost
import WalletBridgeProtocol

/// The agent's socket protocol for the fuzzer (fuzz/Sources/fuzz-agent-protocol), which is a
/// package of its own and so cannot see `package` declarations. Not API: `@_spi(Fuzzing)`
/// import only.
@_spi(Fuzzing) public enum AgentFuzzing {
    /// Serves `bytes` as one client's whole stream, through the real connection code (hello,
    /// frames, server) over a real socket pair, to a router with an in-memory GetAccounts.
    /// Returns what the agent wrote back: nil if it wrote something that is not a sequence of
    /// whole frames, each a JSON object (a reply) or array (a batch's replies).
    public static func serveOneClient(_ bytes: [UInt8]) -> [[UInt8]]? {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return []
        }
        let (client, agent) = (ends[0], ends[1])
        // The client writes from its own thread (the input may exceed the socket's buffer),
        // then closes its writing half, as a client that has said everything.
        let written = Threads.start {
            _ = bytes.withUnsafeBytes { SystemCall.sendAll(client, $0) }
            _ = shutdown(client, Int32(SHUT_WR))
        }
        guard written else { return [] }
        let limits = ConnectionLimits()
        guard limits.arrive() else { return [] }
        let served = Threads.start {
            AgentConnection(
                fd: agent, keystorePath: "/fuzz/keystore.json", makeRouter: { _, _ in router }, limits: limits
            ).serve()
        }
        guard served else { return [] }
        var reader = FrameReader(fd: client)
        var replies: [[UInt8]] = []
        while let reply = try? reader.next(deadline: .now + .seconds(10)) { replies.append(reply) }
        close(client)
        for reply in replies {
            switch try? JSONParser.parse(reply) {
            case .object?, .array?: continue
            default: return nil
            }
        }
        return replies
    }

    private static let router: Router = {
        var router = Router()
        _ = try? router.register(GetAccounts.self, execution: .immediate) { _, _ in
            GetAccountsResult(addresses: ["AA=="])
        }
        return router
    }()
}
