@preconcurrency import Dispatch
import Synchronization

/// Turns inbound frame bodies into handler calls and handler results into outbound frame
/// bodies. It does no I/O of its own: `send` writes one frame, atomically, and must be safe to
/// call from any thread. `StdioHost` wires it to stdin and stdout; tests may wire it to anything.
public final class Server: Sendable {
    public typealias Send = @Sendable ([UInt8]) -> Void

    let router: Router
    let configuration: HostConfiguration
    let caller: Caller
    private let send: Send
    private let inFlight: InFlightTable
    private let sweeper: DispatchSourceTimer?

    public init(router: Router, configuration: HostConfiguration, caller: Caller, send: @escaping Send) {
        self.router = router
        self.configuration = configuration
        self.caller = caller
        self.send = send
        let inFlight = InFlightTable(limit: configuration.maxInFlight)
        self.inFlight = inFlight
        if let timeout = configuration.requestTimeout {
            // One timer for all requests, instead of a sleeping task per request: the per-call
            // cost stays a table insert. Granularity is a quarter of the timeout, at most 250 ms.
            let interval = min(max(timeout / 4, .milliseconds(5)), .milliseconds(250))
            let timer = DispatchSource.makeTimerSource(queue: .global())
            let milliseconds = Int(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
            timer.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
            timer.setEventHandler { inFlight.expire(now: .now) }
            timer.resume()
            self.sweeper = timer
        } else {
            self.sweeper = nil
        }
    }

    deinit { sweeper?.cancel() }

    /// Requests currently being handled.
    public var inFlightCount: Int { inFlight.count }

    /// Handles one inbound frame body. Returns at once; handlers run concurrently and answer
    /// through `send` in whatever order they finish.
    public func receive(_ body: [UInt8]) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body, maxDepth: configuration.maxJSONDepth)
        } catch {
            send(Response.failure(id: .null, error: RPCError(.parseError, detail: error.description)))
            return
        }
        guard case .array(let entries) = value else {
            dispatch(Request.parse(value)) { [self] reply in
                if let reply { send(reply) }
            }
            return
        }
        guard !entries.isEmpty else {
            send(Response.failure(id: .null, error: RPCError(.invalidRequest, detail: "a batch must not be empty")))
            return
        }
        guard entries.count <= configuration.maxBatchEntries else {
            let detail = "a batch of \(entries.count) requests exceeds the limit of \(configuration.maxBatchEntries)"
            send(Response.failure(id: .null, error: RPCError(.invalidRequest, detail: detail)))
            return
        }
        let batch = BatchReply(count: entries.count) { [self] replies in
            guard !replies.isEmpty else { return }  // only notifications: no reply at all
            let joined = Response.batch(replies)
            if joined.count <= configuration.maxOutboundFrameBytes {
                send(joined)
            } else {
                send(tooLarge(id: .null, bytes: joined.count))
            }
        }
        for (index, entry) in entries.enumerated() {
            dispatch(Request.parse(entry)) { reply in batch.fill(index, with: reply) }
        }
    }

    /// Cancels every running handler; each still answers if it can.
    public func cancelAll() { inFlight.cancelAll() }

    /// Waits for running handlers to answer, at most `timeout`. True if all did.
    public func waitUntilIdle(timeout: Duration) -> Bool { inFlight.waitUntilEmpty(timeout: timeout) }

    /// Answers an invalid entry at once, or starts the handler for a valid one. `reply` gets
    /// exactly one call: a body that fits in a frame, or nil for a notification.
    private func dispatch(_ parsed: Request.Parsed, reply: @escaping @Sendable ([UInt8]?) -> Void) {
        switch parsed {
        case .invalid(let id, let reason):
            reply(Response.failure(id: id, error: RPCError(.invalidRequest, detail: reason)))
        case .request(let request):
            let id = request.id
            let limit = configuration.maxOutboundFrameBytes
            let answer: @Sendable ([UInt8]?) -> Void = { [self] body in
                guard let id, let body else { return reply(nil) }
                reply(body.count <= limit ? body : tooLarge(id: id, bytes: body.count))
            }
            let deadline = configuration.requestTimeout.map { ContinuousClock.now + $0 }
            guard let key = inFlight.reserve(deadline: deadline, abort: { error in
                answer(id.map { Response.failure(id: $0, error: error) })
            }) else {
                Log.warning("shedding \(request.method): \(configuration.maxInFlight) requests already in flight")
                let detail = "the limit of \(configuration.maxInFlight) requests in flight is reached"
                return answer(id.map { Response.failure(id: $0, error: RPCError(.overloaded, detail: detail)) })
            }
            let context = RequestContext(caller: caller, requestID: id, method: request.method)
            let task = Task { [router, inFlight] in
                let body = await router.respond(to: request, context: context)
                inFlight.finish(key) { answer(body) }
            }
            inFlight.attach(task, to: key)
        }
    }

    private func tooLarge(id: RequestID, bytes: Int) -> [UInt8] {
        Log.warning("reply of \(bytes) bytes replaced by an error: browsers drop the port above \(configuration.maxOutboundFrameBytes)")
        let data: JSONValue = .object([
            "bytes": .number(JSONNumber(bytes)),
            "limit": .number(JSONNumber(configuration.maxOutboundFrameBytes)),
        ])
        return Response.failure(id: id, error: RPCError(.responseTooLarge, data: data))
    }
}

/// Collects a batch's replies in request order and hands them over once all are in.
final class BatchReply: Sendable {
    private let slots: Mutex<(replies: [[UInt8]?], missing: Int)>
    private let complete: @Sendable ([[UInt8]]) -> Void

    init(count: Int, complete: @escaping @Sendable ([[UInt8]]) -> Void) {
        slots = Mutex((Array(repeating: nil, count: count), count))
        self.complete = complete
    }

    func fill(_ index: Int, with reply: [UInt8]?) {
        let finished: [[UInt8]]? = slots.withLock { slots in
            slots.replies[index] = reply
            slots.missing -= 1
            return slots.missing == 0 ? slots.replies.compactMap { $0 } : nil
        }
        if let finished { complete(finished) }
    }
}
