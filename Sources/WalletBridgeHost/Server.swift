import Synchronization
import WalletBridgeProtocol
import WalletBridgeSystem

/// Turns inbound frame bodies into handler calls and handler results into outbound frame
/// bodies. It does no I/O of its own: `send` writes one frame, atomically, and must be safe to
/// call from any thread. `StdioHost` wires it to stdin and stdout; tests may wire it to anything.
public final class Server: Sendable {
    public typealias Send = @Sendable ([UInt8]) -> Void

    let router: Router
    let configuration: HostConfiguration
    let caller: Caller
    private let transmit: Send
    private let inFlight: InFlightTable
    /// When the first reply went out (nil before it), as a `Duration` since `keptTimeOrigin`:
    /// a stored `ContinuousClock.Instant` has no fixed layout, and would have the runtime work
    /// out this class's layout on every host's cold start.
    private let firstReplyAt = Mutex<Duration?>(nil)
    /// Whether the event sources started.
    private let eventsStarted = Atomic<Bool>(false)
    /// The clock deadlines and the events' quiet period are counted in: the configuration's.
    private let now: @Sendable () -> ContinuousClock.Instant

    public init(router: Router, configuration: HostConfiguration, caller: Caller, send: @escaping Send) {
        self.router = router
        self.configuration = configuration
        self.caller = caller
        self.now = configuration.clocks.monotonic
        self.transmit = send
        self.inFlight = InFlightTable(limit: configuration.maxInFlight)
    }

    /// Writes a reply, noting when the first one went out (see `eventSourcesDueAt`).
    private func send(_ reply: [UInt8]) {
        transmit(reply)
        guard router.hasEventSources else { return }
        firstReplyAt.withLock { if $0 == nil { $0 = keptTimeOrigin.duration(to: now()) } }
    }

    /// How long after its first reply a host waits before it starts its event sources: a host
    /// started for one message (`runtime.sendNativeMessage`) has its input closed by the browser
    /// by then, and ends without them; a port's host is still there.
    public static let eventQuietPeriod: Duration = .milliseconds(200)

    /// When the owner should call `startEventSources`: `eventQuietPeriod` after the first
    /// reply; nil before that reply, once they started, or when the router has none.
    package var eventSourcesDueAt: ContinuousClock.Instant? {
        guard !eventsStarted.load(ordering: .acquiring) else { return nil }
        return firstReplyAt.withLock { $0 }.map { keptTimeOrigin + $0 + Self.eventQuietPeriod }
    }

    /// Starts the router's event sources, once (`Router.addEventSource`). Never before a reply:
    /// the browser takes a one-message host's first frame as its reply. `StdioHost` calls it at
    /// `eventSourcesDueAt` if its input is still open; an owner that knows it serves a port may
    /// call it after the first reply.
    public func startEventSources() {
        guard router.hasEventSources, firstReplyAt.withLock({ $0 }) != nil,
            !eventsStarted.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        let notify: Router.Notify = { [transmit, configuration] method, params in
            let body = JSONValue.object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
                .jsonBytes
            guard body.count <= configuration.maxOutboundFrameBytes else {
                Log.warning(
                    "notification \(method) of \(body.count) bytes dropped: browsers drop the port above \(configuration.maxOutboundFrameBytes)"
                )
                return
            }
            transmit(body)
        }
        router.startEventSources(notify)
    }

    /// How often the owner should call `expireOverdueRequests`, or nil when requests never time
    /// out: a quarter of the timeout, between 5 and 250 ms. One periodic sweep for all requests,
    /// instead of a timer per request, keeps the per-call cost a table insert.
    package var sweepInterval: Duration? {
        configuration.requestTimeout.map { min(max($0 / 4, .milliseconds(5)), .milliseconds(250)) }
    }

    /// Answers every request that has run past its deadline with `requestTimedOut` and cancels
    /// its handler. `StdioHost` calls this from its read loop every `sweepInterval`.
    package func expireOverdueRequests() { inFlight.expire(now: now()) }

    /// Requests currently being handled.
    package var inFlightCount: Int { inFlight.count }

    /// Batch entries that may ask the person and wait for the one before them to answer. A
    /// test observation, read by no production code (`ServerTests`): it is how a test knows the
    /// later entries of a batch reached their wait, without sleeping for a while that might be
    /// too short; nothing else the server shows tells an entry waiting from one not started.
    internal var entriesWaitingForTheOneBefore: Int { chained.load(ordering: .relaxed) }
    private let chained = Atomic<Int>(0)

    /// Requests being handled or whose reply is being written: 0 once every reply is out (and
    /// `eventSourcesDueAt` knows of the first).
    package var unansweredCount: Int { inFlight.unansweredCount }

    /// Handles one inbound frame body. Returns once every handler it started has either
    /// answered or moved to the pool (see `Execution`); they answer through `send` in whatever
    /// order they finish.
    public func receive(_ body: [UInt8], receivedAt: ContinuousClock.Instant? = nil) {
        body.withUnsafeBufferPointer { receive($0, receivedAt: receivedAt) }
    }

    /// `receive(_:)` for a frame body still in the reader's buffer: nothing of it is kept.
    /// `receivedAt` is when its bytes were read (see `RequestContext.receivedAt`); nil: now, on
    /// the configuration's clock.
    public func receive(_ body: UnsafeBufferPointer<UInt8>, receivedAt: ContinuousClock.Instant? = nil) {
        let receivedAt = receivedAt ?? now()
        let document: RequestDocument
        do {
            document = try JSONParser.parseRequestDocument(body, maxDepth: configuration.maxJSONDepth)
        } catch {
            send(Response.failure(id: .null, error: RPCError(.parseError, detail: error.description)))
            return
        }
        let entries: [RequestElement]
        switch document {
        case .single(let element):
            dispatch(Request.parse(element), receivedAt: receivedAt) { [self] reply in
                if let reply { send(reply) }
            }
            return
        case .batch(let elements):
            entries = elements
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
        // Entries that may ask the person run one after another, in request order (each after
        // the one before it has answered), so that their dialogs come in that order, each with
        // the whole request timeout from its own start; the others run at once.
        var lastAsking: Task<Void, Never>?
        for (index, entry) in entries.enumerated() {
            lastAsking = dispatch(Request.parse(entry), receivedAt: receivedAt, after: lastAsking) { reply in
                batch.fill(index, with: reply)
            }
        }
    }

    /// Cancels every running handler; each still answers if it can.
    public func cancelAll() { inFlight.cancelAll() }

    /// Waits for running handlers to answer, at most `timeout`. True if all did.
    public func waitUntilIdle(timeout: Duration) -> Bool { inFlight.waitUntilEmpty(timeout: timeout) }

    /// Answers an invalid entry at once, or starts the handler for a valid one. `reply` gets
    /// exactly one call: a body that fits in a frame, or nil for a notification.
    /// `after`: a batch's last entry that may ask the person; a handler that may ask too starts
    /// once that one has finished. Returns what the next such entry waits for.
    @discardableResult
    private func dispatch(
        _ parsed: Request.Parsed, receivedAt: ContinuousClock.Instant, after: Task<Void, Never>? = nil,
        reply: @escaping @Sendable ([UInt8]?) -> Void
    ) -> Task<Void, Never>? {
        switch parsed {
        case .invalid(let id, let reason):
            reply(Response.failure(id: id, error: RPCError(.invalidRequest, detail: reason)))
            return after
        case .request(let request):
            let id = request.id
            let context = RequestContext(
                caller: caller, requestID: id, method: request.method,
                maxReplyBytes: configuration.maxOutboundFrameBytes, receivedAt: receivedAt)
            let route = router.route(named: request.method)
            let asks = route?.asksThePerson == true
            // An unknown method and a synchronous `.immediate` handler are answered by a plain
            // call, right here: no task, no table entry (nothing can time out or be cancelled
            // before the call returns).
            if route?.isPlainCall ?? true {
                guard case .answered(let body) = router.respondNow(to: request, via: route, context: context) else {
                    // The quick half asked for its fallback, which runs like any asynchronous handler.
                    let started = dispatchToTask(
                        request, route: route, context: context, deferred: true, after: asks ? after : nil, reply: reply
                    )
                    return asks ? started ?? after : after
                }
                reply(fitted(body, id: id))
                return after
            }
            let started = dispatchToTask(
                request, route: route, context: context, deferred: false, after: asks ? after : nil, reply: reply)
            return asks ? started ?? after : after
        }
    }

    /// Starts the handler in a task, with a deadline and a place in the in-flight table.
    /// `deferred`: the quick half already ran and asked for the fallback.
    @discardableResult
    private func dispatchToTask(
        _ request: Request, route: Router.Route?, context: RequestContext, deferred: Bool, after: Task<Void, Never>?,
        reply: @escaping @Sendable ([UInt8]?) -> Void
    ) -> Task<Void, Never>? {
        let id = request.id
        let answer: @Sendable ([UInt8]?) -> Void = { [self] body in reply(fitted(body, id: id)) }
        // A batch entry that waits for the one before it gets its deadline when its turn comes
        // (`run`): the whole timeout for its own dialog, however long the ones before took.
        let deadline = after == nil ? configuration.requestTimeout.map { now() + $0 } : nil
        guard
            let key = inFlight.reserve(
                deadline: deadline,
                abort: { error in
                    answer(id.map { Response.failure(id: $0, error: error) })
                })
        else {
            Log.warning("shedding \(request.method): \(configuration.maxInFlight) requests already in flight")
            let detail = "the limit of \(configuration.maxInFlight) requests in flight is reached"
            answer(id.map { Response.failure(id: $0, error: RPCError(.overloaded, detail: detail)) })
            return nil
        }
        // `Task.immediate` runs on this thread until the handler first suspends; when it
        // returns, the call may already be answered.
        // Closure literals, not one stored closure for both: converting a stored closure to
        // the task's operation type added thunks to every call.
        let task =
            if let after {
                Task {
                    await self.run(
                        request, via: route, context: context, deferred: deferred, key: key, after: after,
                        answer: answer)
                }
            } else if route?.execution == .immediate {
                Task.immediate {
                    await self.run(request, via: route, context: context, deferred: deferred, key: key, answer: answer)
                }
            } else {
                Task {
                    await self.run(request, via: route, context: context, deferred: deferred, key: key, answer: answer)
                }
            }
        inFlight.attach(task, to: key)
        return task
    }

    /// Runs the handler, once `after` has finished, and answers, unless a timeout or shutdown
    /// answered first.
    private nonisolated(nonsending) func run(
        _ request: Request, via route: Router.Route?, context: RequestContext, deferred: Bool, key: InFlightTable.Key,
        after: Task<Void, Never>? = nil, answer: ([UInt8]?) -> Void
    ) async {
        if let after {
            chained.add(1, ordering: .relaxed)
            await after.value
            chained.subtract(1, ordering: .relaxed)
            // Shut down while it waited: nobody is asked.
            if Task.isCancelled {
                _ = inFlight.finish(key) {
                    answer(request.id.map { Response.failure(id: $0, error: RPCError(.requestCancelled)) })
                }
                return
            }
            inFlight.start(key, deadline: configuration.requestTimeout.map { now() + $0 })
        }
        let body = await router.respond(to: request, via: route, context: context, skippingQuickHalf: deferred)
        inFlight.finish(key) { answer(body) }
    }

    /// `body` if it fits in a frame, else the error that says it did not; nil for a notification.
    private func fitted(_ body: [UInt8]?, id: RequestID?) -> [UInt8]? {
        guard let id, let body else { return nil }
        return body.count <= configuration.maxOutboundFrameBytes ? body : tooLarge(id: id, bytes: body.count)
    }

    private func tooLarge(id: RequestID, bytes: Int) -> [UInt8] {
        Log.warning(
            "reply of \(bytes) bytes replaced by an error: browsers drop the port above \(configuration.maxOutboundFrameBytes)"
        )
        return Response.failure(
            id: id, error: .responseTooLarge(bytes: bytes, limit: configuration.maxOutboundFrameBytes))
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
