#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization
import WalletBridgeFraming
import WalletBridgeHost
import WalletBridgeProtocol
import WalletBridgeSystem

/// Serves a router over stdin and stdout, the way a browser runs a native host.
///
/// The calling thread reads stdin, waits for a wake-up and for room in stdout's pipe in one
/// `poll(2)`, and checks on the parent and on request deadlines between reads; it never blocks
/// anywhere else, so a browser that stops reading cannot keep SIGTERM or a dead parent from
/// ending the host. The exception is a port's reader with nothing but the next request to wait
/// for: it waits in read(2) itself, as a C host does, and `ReaderWatch` watches the rest.
/// Handlers run on Swift's concurrency pool, or on this thread for quick ones
/// (`Execution.immediate`): a `sendNativeMessage` call that asks for accounts starts no thread
/// at all. The process ends (with cancellation of what is in flight and a bounded wait for their
/// answers) on end of input, on SIGTERM, SIGINT or SIGHUP, when stdout's reader goes away, and
/// when the parent dies. Whatever the event, the thread that holds the loop ends it: this one,
/// or the watch that took the loop from it while it slept in read(2) (see `Session`).
public enum StdioHost {
    /// How often the parent is checked when nothing else wakes the read loop.
    static let parentCheckInterval: Duration = .milliseconds(500)

    /// Runs until the session ends, then exits the process.
    ///
    /// `parent` is the process whose death ends the session. Read it with `getppid()` as the
    /// first thing `main` does: a browser that dies while the router is being built would
    /// otherwise leave the host recording init as its parent, and orphaned. SIGTERM, SIGINT and
    /// SIGHUP end the session from here on (see `Signals`).
    ///
    /// A person's command line is answered instead, and the process exits: `--version` prints
    /// `router.info.version`, `--help` the host's name and methods (`HostCommandLine`). A
    /// browser's arguments, and none, are always served.
    public static func run(
        router: Router, configuration: HostConfiguration = .fromEnvironment(), arguments: [String],
        parent: pid_t = getppid()
    ) -> Never {
        let program = CommandLine.arguments.first.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "host"
        if let answer = HostCommandLine.answer(arguments, router: router, program: program) {
            // A person's command line, never a browser's: the process answers and exits
            // without serving, so this is the one write to stdout besides the frame writer's.
            if !answer.errorOutput.isEmpty { Log.writeStderr(answer.errorOutput) }
            var output = answer.output
            output.withUTF8 { _ = SystemCall.writeAll(1, UnsafeRawBufferPointer($0)) }
            exit(answer.status)
        }
        run(makeRouter: { router }, configuration: configuration, arguments: arguments, parent: parent)
    }

    /// `run(router:...)` for a host that builds its router after the signals are in place,
    /// before its first read. A router that cannot be made ends the session with status 1.
    package static func run(
        makeRouter: @escaping () throws -> Router,
        configuration: HostConfiguration = .fromEnvironment(), arguments: [String], parent: pid_t = getppid()
    ) -> Never {
        signal(SIGPIPE, SIG_IGN)  // a closed stdout must be an EPIPE we handle, not a death
        let session = Session(configuration: configuration)
        Signals.install(wakeDescriptor: session.wakeWriteEnd, grace: configuration.shutdownGrace)
        // EPIPE can meet any thread that writes a reply, often from inside that reply's own
        // `InFlightTable.finish`: it only asks this thread to end the session.
        let writer = FrameWriter(fileDescriptor: 1) { session.requestEnd(status: 0, reason: "stdout closed") }
        session.serving.withLock { $0 = (nil, writer) }
        // Built before the first read: no request is answered before the router is (the
        // shipped host keeps no answer between hosts, docs/agent.md).
        let caller = Caller(arguments: arguments)
        let router: Router
        do {
            router = try makeRouter()
        } catch {
            Log.error("cannot start: \(error)")
            session.end(status: 1, reason: "cannot start")
        }
        Log.debug("serving \(caller) with \(router.methodNames.count) methods")
        let server = Server(router: router, configuration: configuration, caller: caller, send: writer.write)
        session.serving.withLock { $0 = (server, writer) }
        // Changes to the files a handler keeps copies of are signalled to this thread, which
        // reads every request: seen before the first request read after them (`FolderWatch`).
        FolderWatch.start()
        var loop = ReadLoop(
            server: server, writer: writer, session: session, parent: parent, configuration: configuration)
        loop.run()
    }
}

/// The reader thread's loop: one `poll(2)` on stdin, stdout (while replies wait) and the
/// session's wake-up pipe, then whatever became ready, then the housekeeping that is due. Or,
/// on a port with nothing in flight, a plain read(2) with `ReaderWatch` beside it.
private struct ReadLoop {
    let server: Server
    let writer: FrameWriter
    let session: Session
    let parent: pid_t
    var decoder: FrameDecoder
    static let chunkSize = 64 * 1024
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
    /// The server's clock (`HostConfiguration.clocks`): the events' due time comes from it.
    let now: @Sendable () -> ContinuousClock.Instant
    var nextHousekeeping: ContinuousClock.Instant
    /// Complete frames may be left in the decoder when the output backlog stopped dispatch.
    var framesLeft = false
    /// When stdin was last read: every frame in the decoder had arrived by then.
    var lastRead: ContinuousClock.Instant
    /// Frames handed to the server, counted up to 2: a second one makes the host a port's.
    var framesReceived = 0
    /// The watch that lets the reader sleep in read(2): made the first time it may.
    var watch = Watch.notMade
    enum Watch {
        case notMade
        case made(ReaderWatch)
        /// No thread could be made, or stdin is non-blocking: the reader polls, for good.
        case off
    }
    /// stdin, stdout and the wake-up pipe, in that order. Not an array: `[pollfd]` was a generic
    /// type for the runtime to build on every cold start. Never freed: the loop ends the process.
    let watched: UnsafeMutablePointer<pollfd> = {
        let watched = UnsafeMutablePointer<pollfd>.allocate(capacity: 3)
        watched.initialize(repeating: pollfd(), count: 3)
        return watched
    }()

    init(server: Server, writer: FrameWriter, session: Session, parent: pid_t, configuration: HostConfiguration) {
        (self.server, self.writer, self.session, self.parent) = (server, writer, session, parent)
        decoder = FrameDecoder(maxFrameBytes: configuration.maxInboundFrameBytes)
        now = configuration.clocks.monotonic
        nextHousekeeping = now() + StdioHost.parentCheckInterval
        lastRead = now()
    }

    mutating func run() -> Never {
        while true {
            // First, and before the round's timing: an idle port's reader has no deadline to
            // time, and this is the path of its every request.
            if let watch = watchIfIdle() {
                readWhileWatched(watch)
                continue
            }
            // Deadlines matter only while something runs; the parent is checked regardless.
            let parentCheck = StdioHost.parentCheckInterval
            let interval =
                server.inFlightCount > 0 ? min(server.sweepInterval ?? parentCheck, parentCheck) : parentCheck
            nextHousekeeping = earlier(nextHousekeeping, now() + interval)
            let eventsDue = server.eventSourcesDueAt
            if let eventsDue { nextHousekeeping = earlier(nextHousekeeping, eventsDue) }
            waitForEvents()
            // First: an end asked for by a signal or another thread is not put off by more input.
            if watched[2].revents != 0 { session.endIfRequested() }
            if isDue(nextHousekeeping) {
                session.endIfRequested()  // in case the wake-up pipe could not be made
                if getppid() != parent { session.end(status: 0, reason: "parent process exited") }
                server.expireOverdueRequests()
                // Still connected a while after the first reply: a port, which hears events.
                if let eventsDue, isDue(eventsDue) { server.startEventSources() }
                nextHousekeeping = now() + interval
            }
            if watched[1].revents != 0 { writer.flush() }
            if watched[0].revents != 0 { readInput() }
            if framesLeft, !writer.isBackedUp { framesLeft = dispatchFrames(stopWhenBackedUp: true) }
        }
    }

    /// Whether `instant` has come. Here and in `earlier`, Instant's own `<`: `>=` and `min`
    /// went through its Comparable conformance, whose witness table the runtime builds on first
    /// use, in every host.
    private func isDue(_ instant: ContinuousClock.Instant) -> Bool { !(now() < instant) }

    private func earlier(_ one: ContinuousClock.Instant, _ other: ContinuousClock.Instant) -> ContinuousClock.Instant {
        other < one ? other : one
    }

    /// Waits until something is ready or housekeeping is due.
    private mutating func waitForEvents() {
        let unsent = writer.unsentByteCount
        let backedUp = unsent > FrameWriter.backlogLimit
        // A negative descriptor is skipped by poll: no requests are read while the browser is
        // not taking replies, and stdout is watched only while something waits to go out.
        watched[0] = pollfd(fd: backedUp ? -1 : 0, events: Int16(POLLIN), revents: 0)
        watched[1] = pollfd(fd: unsent > 0 ? 1 : -1, events: Int16(POLLOUT), revents: 0)
        // Written to by another thread's end request and by the signal handler.
        watched[2] = pollfd(fd: session.wakeFileDescriptor, events: Int16(POLLIN), revents: 0)
        // Not `Duration / Duration`: its 128-bit arithmetic showed in a connected port's round trip.
        let wait = framesLeft && !backedUp ? 0 : SystemCall.milliseconds(until: nextHousekeeping, now: now)
        if poll(watched, 3, wait) < 0 {
            // EINTR: a signal's handler ran here; its wake-up byte is seen on the next round.
            if errno != EINTR { session.end(status: 1, reason: "poll failed (errno \(errno))") }
            for index in 0..<3 { watched[index].revents = 0 }
        }
    }

    /// The watch, when the reader has nothing to do but wait for the next request of a port:
    /// nothing in flight, no reply queued, no frame left, no housekeeping due, no event sources
    /// to start (`ReaderWatch`). Replies count until they are written, not until their call left
    /// the in-flight table: the first one decides when the event sources start, so it is looked
    /// at after them.
    private mutating func watchIfIdle() -> ReaderWatch? {
        if case .off = watch { return nil }
        guard framesReceived >= 2, !framesLeft, server.unansweredCount == 0, writer.unsentByteCount == 0,
            server.eventSourcesDueAt == nil, !isDue(nextHousekeeping)
        else { return nil }
        if case .made(let made) = watch { return made }
        // A non-blocking stdin (a socket that is stdout too, which `FrameWriter` made
        // non-blocking) would return at once, for ever: such a reader keeps polling.
        let made = ReaderWatch(session: session, writer: writer, parent: parent)
        guard fcntl(0, F_GETFL) & O_NONBLOCK == 0, made.start() else {
            watch = .off
            return nil
        }
        watch = .made(made)
        return made
    }

    /// Waits for the next request in read(2) itself, the watch looking after the rest.
    private mutating func readWhileWatched(_ watch: ReaderWatch) {
        guard let count = watch.readStdin(into: chunk) else { return session.endIfRequested() }
        if count < 0, errno == EINTR { return }  // a handler of someone else's: back to the loop
        if count < 0, errno == EAGAIN {
            self.watch = .off  // made non-blocking since: back to polling, for good
            return
        }
        takeInput(count)
        if framesLeft, !writer.isBackedUp { framesLeft = dispatchFrames(stopWhenBackedUp: true) }
    }

    /// Reads what stdin has; at its end, answers what is complete and ends the session.
    private mutating func readInput() {
        takeInput(SystemCall.retryingInterrupts { read(0, chunk.baseAddress!, Self.chunkSize) })
    }

    /// What a read of stdin returned: frames to dispatch, its end, or a failure.
    private mutating func takeInput(_ count: Int) {
        lastRead = now()
        if count < 0, errno != EAGAIN {
            session.end(status: 0, reason: "stdin read failed (errno \(errno))")
        }
        if count == 0 {
            // Requests already here are still answered, backlog or not.
            dispatchFrames(stopWhenBackedUp: false)
            if decoder.bufferedByteCount > 0 {
                let announced = decoder.pendingFrameLength.map { " of a \($0)-byte frame" } ?? " of a frame header"
                Log.warning(
                    "stdin closed after \(decoder.bufferedByteCount) bytes\(announced); the partial frame is dropped")
            }
            session.end(status: 0, reason: "end of input")
        }
        if count > 0 {
            decoder.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            if let length = decoder.pendingFrameLength, length > PipeSize.defaultBytes { PipeSize.enlarge(0) }
            framesLeft = true
        }
    }

    /// Hands every complete frame in the decoder to the server; the replies written meanwhile
    /// go out together. Returns true if it stopped early because the output backlog is full.
    @discardableResult
    private mutating func dispatchFrames(stopWhenBackedUp: Bool) -> Bool {
        let (server, writer, readAt) = (server, writer, lastRead)
        var received = framesReceived
        let outcome: Result<Bool, FramingError> = writer.batching {
            do throws(FramingError) {
                while try decoder.withNextFrame({ server.receive($0, receivedAt: readAt) }) {
                    received = min(received + 1, 2)
                    if stopWhenBackedUp, writer.isBackedUp { return .success(true) }
                }
                return .success(false)
            } catch {
                return .failure(error)
            }
        }
        framesReceived = received
        switch outcome {
        case .success(let stopped):
            return stopped
        case .failure(let framing):
            // Tell the extension why before going: the browser shows nothing otherwise.
            writer.write(Response.failure(id: .null, error: RPCError(.requestTooLarge, detail: framing.description)))
            Log.error("\(framing); set WALLET_BRIDGE_MAX_FRAME_BYTES to accept larger requests")
            session.end(status: 1, reason: "framing error")
        }
    }
}
