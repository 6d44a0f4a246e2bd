#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeFraming
import WalletBridgeProtocol
import WalletBridgeSystem

/// The client side of JSON-RPC over native-messaging frames, on a pair of file descriptors
/// (a host's stdin and stdout, or one socket twice): requests written, replies matched to them
/// by id, notifications queued in arrival order. Every wait ends at a deadline the caller
/// gives (nil: as long as it takes), measured with the `now` it was made with, so a test can
/// drive it with a clock of its own. Frames are read by a `FrameReader`, as the agent reads them.
///
/// The descriptors stay the caller's: the connection never closes them. It works on blocking
/// and non-blocking ones alike: it writes first and waits only when a write would block, and
/// reads only what poll(2) says is there.
package final class Connection {
    /// Where replies are read from.
    package let input: Int32
    /// Where requests are written.
    package let output: Int32
    private var reader: FrameReader
    /// Frames queued and not yet written, from `outboundOffset` on.
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    /// send(2) with MSG_NOSIGNAL, so that a peer gone away is an error and not SIGPIPE; write(2)
    /// once `output` turns out not to be a socket.
    private var writesWithSend = true
    private let now: () -> ContinuousClock.Instant
    private var nextNumber = 1
    // Arrays, not a set and a dictionary: a client has one or a few requests in flight, and the
    // agent's client is on the cold call's path, where hashing and their storage cost more.
    /// Requests written whose reply has not been taken.
    private var pending: [RequestID] = []
    /// Replies that came while the caller waited for another.
    private var arrived: [Response.Parsed] = []
    /// Notifications from the peer, oldest first, from `notificationsStart` on.
    private var notificationQueue: [Request] = []
    private var notificationsStart = 0
    /// The input reached its end: no more bytes will come.
    package var inputEnded: Bool { reader.ended }
    /// Why writing failed (EPIPE: the peer stopped reading); nothing more is written then.
    package private(set) var outputError: Int32?
    /// Other descriptors waited on with this connection's own (a child's stderr, drained so that
    /// it never blocks on a full pipe): when one is ready its handler reads it; a handler that
    /// returns false is done, and the descriptor is no longer watched.
    package var sideReaders: [(fd: Int32, read: (Int32) -> Bool)] = []

    /// Why a wait ended without what it waited for.
    package enum Failure: Error, Sendable, Equatable {
        /// The input ended cleanly between frames.
        case closed
        /// The input is not frames, or not frames this reader accepts (`FrameFault` says which).
        case fault(FrameFault)
        /// The deadline passed; `received` holds the first bytes short of a whole frame.
        case timedOut(received: [UInt8])
        /// Reading failed: errno.
        case system(Int32)
        /// Writing failed (EPIPE: the peer stopped reading): errno.
        case outputClosed(Int32)
        /// A frame that is neither a response nor a notification.
        case notResponse(Response.ParseError, body: [UInt8])
        /// A response whose id answers no request in flight.
        case unexpected(RequestID, body: [UInt8])
    }

    /// `maxFrameBytes`: the largest frame read (a browser takes at most `Frame.maxOutboundBytes`
    /// from a host). `now` measures the deadlines of every wait.
    package init(input: Int32, output: Int32, maxFrameBytes: Int, now: @escaping () -> ContinuousClock.Instant) {
        self.input = input
        self.output = output
        self.now = now
        reader = FrameReader(fd: input, maxFrameBytes: maxFrameBytes, now: now)
    }

    // MARK: Writing

    /// Queues a request with the next numeric id (1, 2, ...) and returns that id. `params` are
    /// already JSON, nil for none.
    @discardableResult
    package func send(method: String, encodedParams: [UInt8]?) -> RequestID {
        let id = RequestID.number(JSONNumber(nextNumber))
        nextNumber += 1
        send(Request.encode(id: id, method: method, encodedParams: encodedParams), id: id)
        return id
    }

    /// Queues a frame body; `id` (nil for a notification or raw bytes) is awaited as a reply.
    package func send(_ body: [UInt8], id: RequestID?) {
        if let id { pending.append(id) }
        // A body of 4 GiB or more has no frame header: it cannot be a request a client builds.
        guard let length = UInt32(exactly: body.count) else { preconditionFailure("a frame body over 4 GiB") }
        outbound.reserveCapacity(outbound.count + Frame.headerBytes + body.count)
        Frame.withHeader(length: length) { outbound.append(contentsOf: $0) }
        outbound.append(contentsOf: body)
    }

    /// Forgets what is queued and writes nothing more: for a caller about to close `output`.
    package func discardOutput() {
        outbound = []
        outboundOffset = 0
        if outputError == nil { outputError = EBADF }
    }

    /// Whether queued bytes wait to be written.
    package var hasPendingOutput: Bool { outboundOffset < outbound.count && outputError == nil }

    /// Writes everything queued, reading meanwhile so that a peer that answers as it reads
    /// cannot deadlock the two. On a blocking descriptor that is one write.
    package func flush(until deadline: ContinuousClock.Instant?) throws(Failure) {
        while outboundOffset < outbound.count {
            if let outputError { throw .outputClosed(outputError) }
            if writeSome() { continue }
            guard try wait(until: deadline) else { throw timeout() }
        }
    }

    /// Writes what the descriptor takes now; false when it would block.
    private func writeSome() -> Bool {
        while outboundOffset < outbound.count {
            let written = outbound.withUnsafeBytes { raw in
                let start = raw.baseAddress! + outboundOffset, count = raw.count - outboundOffset
                return SystemCall.retryingInterrupts {
                    writesWithSend
                        ? Glibc.send(output, start, count, Int32(MSG_NOSIGNAL)) : Glibc.write(output, start, count)
                }
            }
            if written < 0 {
                let code = errno
                if code == ENOTSOCK, writesWithSend {
                    writesWithSend = false
                    continue
                }
                if code == EAGAIN || code == EWOULDBLOCK { return false }
                outputError = code
                return true
            }
            outboundOffset += written
        }
        outbound.removeAll(keepingCapacity: outbound.capacity <= 1 << 20)
        outboundOffset = 0
        return true
    }

    // MARK: Reading

    /// The reply to `id`, waiting until `deadline` for it. Replies to other requests are kept
    /// for their own callers, notifications queued.
    package func reply(to id: RequestID, until deadline: ContinuousClock.Instant?) throws(Failure) -> Response.Parsed {
        if let reply = takeArrived(id) { return reply }
        while true {
            if let reply = try takeReply(to: id) { return reply }
            if inputEnded { throw reader.bufferedByteCount == 0 ? .closed : failureAtEnd() }
            try flushWhilePending()
            guard try wait(until: deadline) else { throw timeout() }
        }
    }

    /// The reply to `id` if it has arrived (never waits): for a caller that waits on several
    /// connections at once (`pump`).
    package func takeReply(to id: RequestID) throws(Failure) -> Response.Parsed? {
        if let reply = takeArrived(id) { return reply }
        while let body = try frame() {
            guard let reply = try route(body) else { continue }
            if reply.id == id { return reply }
            arrived.append(reply)
        }
        return nil
    }

    /// The next frame body as it came, matched to nothing, waiting until `deadline`; nil at a
    /// clean end of the input. For a caller that reports on the reply's bytes themselves (`call`
    /// prints them, `doctor` names what is wrong with them).
    package func nextFrame(until deadline: ContinuousClock.Instant?) throws(Failure) -> [UInt8]? {
        while true {
            if let body = try frame() { return body }
            if inputEnded { return nil }
            try flushWhilePending()
            guard try wait(until: deadline) else { throw timeout() }
        }
    }

    /// A frame already read, if there is one; never waits.
    package func frame() throws(Failure) -> [UInt8]? {
        switch reader.frame() {
        case .frame(let body): return body
        case .needMore, .end: return nil
        case .fault(let fault): throw .fault(fault)
        }
    }

    /// The oldest notification not yet taken.
    package func nextNotification() -> Request? {
        guard notificationsStart < notificationQueue.count else { return nil }
        defer {
            notificationsStart += 1
            if notificationsStart == notificationQueue.count {
                notificationQueue.removeAll(keepingCapacity: true)
                notificationsStart = 0
            }
        }
        return notificationQueue[notificationsStart]
    }

    /// Requests written whose replies have not been taken.
    package var inFlight: [RequestID] { pending }

    /// A reply to `id` read earlier, while waiting for another.
    private func takeArrived(_ id: RequestID) -> Response.Parsed? {
        guard let index = arrived.firstIndex(where: { $0.id == id }) else { return nil }
        return arrived.remove(at: index)
    }

    /// A frame read: a reply to a request in flight (returned), or a notification (queued).
    private func route(_ body: [UInt8]) throws(Failure) -> Response.Parsed? {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw .notResponse(.notJSON(error.description), body: body)
        }
        if case .object(let members) = value, members["method"] != nil, members["id"] == nil {
            if case .request(let notification) = Request.parse(value) {
                notificationQueue.append(notification)
                return nil
            }
        }
        let reply: Response.Parsed
        do {
            reply = try Response.parse(value)
        } catch {
            throw .notResponse(error, body: body)
        }
        guard let index = pending.firstIndex(of: reply.id) else { throw .unexpected(reply.id, body: body) }
        pending.remove(at: index)
        return reply
    }

    /// What an input that ended left unfinished.
    private func failureAtEnd() -> Failure {
        if case .fault(let fault) = reader.frame() { return .fault(fault) }
        return .closed
    }

    /// The timeout, or what it was stuck on: an oversized header whose body never came is still
    /// an oversized frame.
    private func timeout() -> Failure {
        if let fault = reader.faultAtTimeout { return .fault(fault) }
        return .timedOut(received: reader.pendingBytes)
    }

    private func flushWhilePending() throws(Failure) {
        if outboundOffset < outbound.count, outputError == nil { _ = writeSome() }
    }

    // MARK: Waiting

    /// One wait on this connection's descriptors (and its side readers'): false when `deadline`
    /// passed with none ready.
    private func wait(until deadline: ContinuousClock.Instant?) throws(Failure) -> Bool {
        if sideReaders.isEmpty, !hasPendingOutput, !inputEnded {
            // The usual wait, for a reply: one descriptor, nothing allocated.
            do throws(FrameReader.SystemFailure) {
                guard try reader.wait(until: deadline) else { return false }
                try reader.fill()
            } catch {
                throw .system(error.code)
            }
            return true
        }
        return try Self.pump([self], until: deadline)
    }

    /// One round of I/O over several connections: waits (until `deadline`) for any of their
    /// descriptors to be ready, then writes and reads what it can. False when the deadline
    /// passed with nothing ready. Throws the first read failure.
    @discardableResult
    package static func pump(_ connections: [Connection], until deadline: ContinuousClock.Instant?) throws(Failure)
        -> Bool
    {
        var descriptors: [pollfd] = []
        var owners: [Connection] = []
        for connection in connections {
            for fd in connection.interests() {
                descriptors.append(fd)
                owners.append(connection)
            }
        }
        guard let first = connections.first else { return false }
        let ready = SystemCall.poll(&descriptors, until: deadline, now: first.now)
        if ready < 0 { throw .system(errno) }
        if ready == 0 { return false }
        for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
            try owners[index].service(descriptor)
        }
        return true
    }

    private func interests() -> [pollfd] {
        var list: [pollfd] = []
        // `output` may be `input` (a socket): one entry for both, as poll(2) reports per entry.
        let writing = hasPendingOutput
        if !inputEnded {
            let events = Int16(POLLIN) | (writing && output == input ? Int16(POLLOUT) : 0)
            list.append(pollfd(fd: input, events: events, revents: 0))
        }
        if writing, output != input || inputEnded {
            list.append(pollfd(fd: output, events: Int16(POLLOUT), revents: 0))
        }
        for side in sideReaders { list.append(pollfd(fd: side.fd, events: Int16(POLLIN), revents: 0)) }
        return list
    }

    private func service(_ descriptor: pollfd) throws(Failure) {
        // A descriptor closed under the connection is never readable or writable again: waiting
        // on it would return at once, round after round, until the deadline or forever.
        if descriptor.revents & Int16(POLLNVAL) != 0 { throw .system(EBADF) }
        let readable = descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        if descriptor.fd == input, !inputEnded, readable { try readSome() }
        if descriptor.fd == output, hasPendingOutput, descriptor.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 {
            _ = writeSome()
        }
        if descriptor.fd != input, descriptor.fd != output,
            let index = sideReaders.firstIndex(where: { $0.fd == descriptor.fd }),
            !sideReaders[index].read(descriptor.fd)
        {
            sideReaders.remove(at: index)
        }
    }

    /// One read of what is there (poll said so, or the descriptor is non-blocking).
    private func readSome() throws(Failure) {
        do throws(FrameReader.SystemFailure) {
            try reader.fill()
        } catch {
            throw .system(error.code)
        }
    }
}
