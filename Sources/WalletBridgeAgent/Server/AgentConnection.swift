#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeSessions
import WalletBridgeHost
import WalletBridgeProtocol

/// One client of the agent, served on its own thread: a client that sends garbage or stops
/// reading holds only this thread, never the agent or another client.
///
/// The first frame must be `agent.hello` (within `helloTimeout`); after it, a `Server` answers
/// the connection's requests with the router made for its caller. When the client closes the
/// connection, whatever it had in flight is cancelled, so its dialog closes.
struct AgentConnection {
    let fd: Int32
    /// The keystore this agent serves: a client that expects another is refused.
    let keystorePath: String
    /// Makes the router for a client whose hello said this, answering on this writer.
    let makeRouter: RouterMaker
    typealias RouterMaker = @Sendable (AgentProtocol.Hello.Params, SocketWriter) -> Router
    /// The connections each kind of client may hold: the hello says which this one counts as.
    let limits: ConnectionLimits
    /// The socket it came in on: the command line's admits only the command line.
    var door: ConnectionLimits.Door = .socket
    /// Runs after each frame is handled, when what it answered at once has been written.
    var afterEachRequest: @Sendable () -> Void = {}
    /// How long a frame may take to arrive once its first byte has (the hello's included);
    /// time between frames is not limited. `WALLET_BRIDGE_AGENT_READ_TIMEOUT_MS` sets it.
    var readTimeout: Duration = AgentTimeouts.read
    /// How long a new connection may take to say hello.
    var helloTimeout: Duration = AgentTimeouts.hello
    /// The agent's time (`AgentState.clocks`): the hello's and each frame's deadlines, and when
    /// each request was received.
    var clocks: Clocks = .system
    /// When the connection came, on `clocks`: the hello is due `helloTimeout` after it. Nil: when
    /// `serve` starts.
    var accepted: ContinuousClock.Instant?

    /// The requests of one connection: no timeout of their own (the host has its own and
    /// closes the connection when it passes), and a limit per client.
    static let configuration: HostConfiguration = {
        var configuration = HostConfiguration()
        configuration.requestTimeout = nil
        configuration.maxInFlight = 64
        configuration.maxInboundFrameBytes = AgentProtocol.maxRequestBytes
        return configuration
    }()

    /// Serves the connection until the client leaves, then closes it. The connection is
    /// counted as pending in `limits` when this starts; it leaves them when this ends.
    func serve() {
        defer { close(fd) }
        UnixSocket.setSendTimeout(fd, AgentTimeouts.send)
        let writer = SocketWriter(fd: fd)
        // The hello is small: a client's first frame holds no more than this until it has
        // said who it is.
        var reader = FrameReader(
            fd: fd, maxFrameBytes: AgentProtocol.maxHelloBytes, frameTimeout: readTimeout, now: clocks.monotonic)
        guard let (hello, holder) = greet(&reader, writer: writer) else {
            limits.abandon(at: door)
            return
        }
        defer { limits.leave(holder) }
        reader.maxFrameBytes = AgentProtocol.maxRequestBytes
        var configuration = Self.configuration
        configuration.clocks = clocks
        let server = Server(
            router: makeRouter(hello, writer), configuration: configuration,
            caller: Caller(arguments: hello.arguments), send: writer.send)
        while true {
            let body: [UInt8]
            do {
                body = try reader.next()
            } catch {
                if case .framing(let problem) = error {
                    writer.send(
                        Response.failure(id: .null, error: RPCError(.requestTooLarge, detail: problem.description)))
                } else if error == .timedOut {
                    Log.info("closed a connection whose frame did not arrive within \(readTimeout)")
                }
                break
            }
            server.receive(body)
            afterEachRequest()
        }
        server.cancelAll()
        _ = server.waitUntilIdle(timeout: AgentTimeouts.connectionDrain)
    }

    /// Reads and answers the hello, and counts the connection as the hello says; nil (after an
    /// error reply if one can be given) when the client said something else, spoke another
    /// version, said nothing in time, or its kind of client holds all its connections already.
    private func greet(_ reader: inout FrameReader, writer: SocketWriter) -> (
        AgentProtocol.Hello.Params, ConnectionLimits.Holder
    )? {
        func refuse(_ error: RPCError, id: RequestID = .null) -> (AgentProtocol.Hello.Params, ConnectionLimits.Holder)?
        {
            writer.send(Response.failure(id: id, error: error))
            return nil
        }
        let body: [UInt8]
        do {
            body = try reader.next(deadline: (accepted ?? clocks.monotonic()) + helloTimeout)
        } catch {
            if case .framing(let problem) = error {
                return refuse(RPCError(.requestTooLarge, detail: problem.description))
            }
            return nil
        }
        guard case .object(let members)? = try? JSONParser.parse(body, maxDepth: 8),
            members["method"] == .string(AgentProtocol.Hello.name),
            let idValue = members["id"], let id = RequestID(idValue)
        else {
            return refuse(RPCError(.invalidRequest, detail: "the first request must be \(AgentProtocol.Hello.name)"))
        }
        guard let params = AgentProtocol.Hello.Params(members["params"]) else {
            return refuse(
                RPCError(
                    .invalidParams,
                    detail: "\(AgentProtocol.Hello.name) takes version, arguments, browser_pid and keystore"), id: id)
        }
        guard params.version == AgentProtocol.version else {
            return refuse(
                RPCError(
                    code: .invalidParams, message: "Unsupported protocol version",
                    data: .object([
                        "supported": .number(JSONNumber(AgentProtocol.version))
                    ])), id: id)
        }
        guard params.keystore == keystorePath else {
            return refuse(
                RPCError(
                    code: .invalidParams, message: AgentProtocol.otherKeystore,
                    data: .object([
                        "serves": .string(keystorePath)
                    ])), id: id)
        }
        // The arguments are the host's own, as the browser gave them: an extension cannot
        // choose them, so it cannot count as another extension or as the command line.
        let holder: ConnectionLimits.Holder =
            params.control ? .control : .caller(SessionCaller(Caller(arguments: params.arguments)))
        let crowded: Bool
        do {
            crowded = try limits.admit(holder, at: door)
        } catch {
            Log.warning("refused a connection: \(error.problem)")
            var data: [String: JSONValue] = ["reason": error.reason.jsonValue, "problem": .string(error.problem)]
            if let limit = error.limit { data["limit"] = .number(JSONNumber(limit)) }
            return refuse(RPCError(.agentUnavailable, data: .object(data)), id: id)
        }
        var answer: [String: JSONValue] = [
            "version": .number(JSONNumber(AgentProtocol.version)), "pid": .number(JSONNumber(Int(getpid()))),
        ]
        if crowded { answer["crowded"] = true }
        let result = JSONValue.object(answer)
        writer.send(Response.success(id: id, encodedResult: result.jsonBytes))
        return (params, holder)
    }
}

/// Writes whole frames to a connection from any thread, one at a time. A client that stopped
/// reading makes a send time out; the connection is then shut down, which ends its reader too.
final class SocketWriter: Sendable {
    let fd: Int32
    private let lock = Mutex(())

    init(fd: Int32) { self.fd = fd }

    func send(_ body: [UInt8]) {
        lock.withLock { _ in
            if !UnixSocket.sendFrame(fd, body) { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }
}
