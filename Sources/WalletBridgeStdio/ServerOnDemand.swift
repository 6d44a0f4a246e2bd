import WalletBridgeHost
import WalletBridgeProtocol

/// The host's server, built from the host's `makeRouter` when the host starts, before its first
/// read; a router that cannot be made ends the session with status 1.
/// (No request is answered before the router is built: the shipped host keeps no answer
/// between hosts, docs/agent.md.)
/// The reader thread's alone (`ReadLoop`), like the loop that owns it.
final class ServerOnDemand {
    private(set) var server: Server?
    private let makeRouter: () throws -> Router
    private let configuration: HostConfiguration
    private let caller: Caller
    private let writer: FrameWriter
    private let session: Session

    init(makeRouter: @escaping () throws -> Router, configuration: HostConfiguration, caller: Caller, writer: FrameWriter, session: Session) {
        (self.makeRouter, self.configuration) = (makeRouter, configuration)
        (self.caller, self.writer, self.session) = (caller, writer, session)
        _ = built()
    }

    /// Answers one frame body.
    func receive(_ body: UnsafeBufferPointer<UInt8>, receivedAt: ContinuousClock.Instant) {
        built()?.receive(body, receivedAt: receivedAt)
    }

    /// The server, built now if need be; nil when the router cannot be made (the session then
    /// ends with status 1).
    @discardableResult
    private func built() -> Server? {
        if let server { return server }
        let router: Router
        do {
            router = try makeRouter()
        } catch {
            Log.error("cannot start: \(error)")
            session.requestEnd(status: 1, reason: "cannot start")
            return nil
        }
        Log.debug("serving \(caller) with \(router.methodNames.count) methods")
        let server = Server(router: router, configuration: configuration, caller: caller, send: writer.write)
        self.server = server
        session.serving.withLock { $0 = (server, writer) }
        return server
    }

    var inFlightCount: Int { server?.inFlightCount ?? 0 }
    var unansweredCount: Int { server?.unansweredCount ?? 0 }
    var sweepInterval: Duration? { server?.sweepInterval }
    func expireOverdueRequests() { server?.expireOverdueRequests() }

    /// When `startEventSources` is due, as the server says.
    var eventSourcesDueAt: ContinuousClock.Instant? { server?.eventSourcesDueAt }

    func startEventSources() { built()?.startEventSources() }
}
