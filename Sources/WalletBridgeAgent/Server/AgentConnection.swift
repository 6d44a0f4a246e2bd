#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge

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
    /// Where a connection that said `agent.subscribe` hears events; left when it closes.
    let events: EventHub
    /// Runs after each frame is handled, when what it answered at once has been written.
    var afterEachRequest: @Sendable () -> Void = {}
    /// How long a new connection may take to say hello.
    static let helloTimeout: Duration = .seconds(5)
    /// How long a reply may wait for a client that does not read.
    static let sendTimeout: Duration = .seconds(10)

    /// The requests of one connection: no timeout of their own (the host has its own and
    /// closes the connection when it passes), and a limit per client.
    static let configuration: HostConfiguration = {
        var configuration = HostConfiguration()
        configuration.requestTimeout = nil
        configuration.maxInFlight = 64
        return configuration
    }()

    /// Serves the connection until the client leaves, then closes it.
    func serve() {
        defer { close(fd) }
        UnixSocket.setSendTimeout(fd, Self.sendTimeout)
        let writer = SocketWriter(fd: fd)
        defer { events.unsubscribe(writer) }
        var reader = FrameReader(fd: fd, maxFrameBytes: Self.configuration.maxInboundFrameBytes)
        guard let hello = greet(&reader, writer: writer) else { return }
        let server = Server(
            router: makeRouter(hello, writer), configuration: Self.configuration, caller: Caller(arguments: hello.arguments), send: writer.send)
        while true {
            let body: [UInt8]
            do {
                body = try reader.next()
            } catch {
                if case .framing(let problem) = error {
                    writer.send(Response.failure(id: .null, error: RPCError(.requestTooLarge, detail: problem.description)))
                }
                break
            }
            server.receive(body)
            afterEachRequest()
        }
        server.cancelAll()
        _ = server.waitUntilIdle(timeout: .seconds(2))
    }

    /// Reads and answers the hello; nil (after an error reply if one can be given) when the
    /// client said something else, spoke another version, or said nothing in time.
    private func greet(_ reader: inout FrameReader, writer: SocketWriter) -> AgentProtocol.Hello.Params? {
        guard let body = try? reader.next(deadline: .now + Self.helloTimeout) else { return nil }
        func refuse(_ error: RPCError, id: RequestID = .null) -> AgentProtocol.Hello.Params? {
            writer.send(Response.failure(id: id, error: error))
            return nil
        }
        guard case .object(let members)? = try? JSONParser.parse(body, maxDepth: 8),
              members["method"] == .string(AgentProtocol.Hello.name),
              let idValue = members["id"], let id = RequestID(idValue) else {
            return refuse(RPCError(.invalidRequest, detail: "the first request must be \(AgentProtocol.Hello.name)"))
        }
        guard let params = AgentProtocol.Hello.Params(members["params"]) else {
            return refuse(RPCError(.invalidParams, detail: "\(AgentProtocol.Hello.name) takes version, arguments, browser_pid and keystore"), id: id)
        }
        guard params.version == AgentProtocol.version else {
            return refuse(RPCError(code: .invalidParams, message: "Unsupported protocol version", data: .object([
                "supported": .number(JSONNumber(AgentProtocol.version)),
            ])), id: id)
        }
        guard params.keystore == keystorePath else {
            return refuse(RPCError(code: .invalidParams, message: AgentProtocol.otherKeystore, data: .object([
                "serves": .string(keystorePath),
            ])), id: id)
        }
        let result = JSONValue.object(["version": .number(JSONNumber(AgentProtocol.version)), "pid": .number(JSONNumber(Int(getpid())))])
        writer.send(Response.success(id: id, encodedResult: result.jsonBytes))
        return params
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
