import WalletBridgeHost
import WalletBridgeProtocol

/// The host's server, built when a request first needs it: until then, requests that a host
/// can answer without its router are answered by `answerBeforeRouting`. A browser starts a host
/// for every `sendNativeMessage`, and such a host may then never build one. (The shipped host
/// passes none since it keeps no answer between hosts: docs/agent.md.)
///
/// Only a host's first message can be answered early: a browser gives a `sendNativeMessage`
/// host exactly one, so a second one is a port's, and the server is built for it (answering a
/// port's stream from the kept answer, a file read and a `stat` per input each time, made a
/// round trip 2.5 times as slow as the server's). Once built, the server answers everything. A
/// host still connected `Server.eventQuietPeriod` after an early reply is a port's too: it
/// builds the server then, to start its event sources.
/// The reader thread's alone (`ReadLoop`), like the loop that owns it.
final class ServerOnDemand {
    typealias AnswerBeforeRouting = (Request) -> [UInt8]?

    private(set) var server: Server?
    private let makeRouter: () throws -> Router
    private let answerBeforeRouting: AnswerBeforeRouting?
    private let configuration: HostConfiguration
    private let caller: Caller
    private let writer: FrameWriter
    private let session: Session
    /// When the early reply went out.
    private var earlyReplyAt: ContinuousClock.Instant?
    /// Whether a message came before this one.
    private var receivedBefore = false

    init(
        makeRouter: @escaping () throws -> Router, answerBeforeRouting: AnswerBeforeRouting?, configuration: HostConfiguration, caller: Caller,
        writer: FrameWriter, session: Session
    ) {
        (self.makeRouter, self.answerBeforeRouting, self.configuration) = (makeRouter, answerBeforeRouting, configuration)
        (self.caller, self.writer, self.session) = (caller, writer, session)
        if answerBeforeRouting == nil { _ = built() }
    }

    /// Answers one frame body, early if it can.
    func receive(_ body: UnsafeBufferPointer<UInt8>, receivedAt: ContinuousClock.Instant) {
        if server == nil, !receivedBefore, let reply = earlyReply(to: body) {
            receivedBefore = true
            writer.write(reply)
            earlyReplyAt = .now
            return
        }
        receivedBefore = true
        built()?.receive(body, receivedAt: receivedAt)
    }

    /// A single valid request that `answerBeforeRouting` answers, in a reply that fits.
    private func earlyReply(to body: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let answerBeforeRouting,
              case .single(let element)? = try? JSONParser.parseRequestDocument(body, maxDepth: configuration.maxJSONDepth),
              case .request(let request) = Request.parse(element), let reply = answerBeforeRouting(request),
              reply.count <= configuration.maxOutboundFrameBytes
        else { return nil }
        return reply
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
        if let earlyReplyAt { server.noteEarlierReply(at: earlyReplyAt) }
        self.server = server
        session.serving.withLock { $0 = (server, writer) }
        return server
    }

    var inFlightCount: Int { server?.inFlightCount ?? 0 }
    var unansweredCount: Int { server?.unansweredCount ?? 0 }
    var sweepInterval: Duration? { server?.sweepInterval }
    func expireOverdueRequests() { server?.expireOverdueRequests() }

    /// When `startEventSources` is due: as the server says, or, before it is built, a quiet
    /// period after the first early reply.
    var eventSourcesDueAt: ContinuousClock.Instant? {
        if let server { return server.eventSourcesDueAt }
        return earlyReplyAt.map { $0 + Server.eventQuietPeriod }
    }

    func startEventSources() { built()?.startEventSources() }
}
