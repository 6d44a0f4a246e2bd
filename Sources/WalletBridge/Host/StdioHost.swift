#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization

/// Child processes (pinentry) that must not outlive the host.
public enum ChildProcesses {
    private static let live = Mutex<Set<pid_t>>([])

    public static func register(_ pid: pid_t) { _ = live.withLock { $0.insert(pid) } }
    public static func unregister(_ pid: pid_t) { _ = live.withLock { $0.remove(pid) } }

    /// Sends SIGTERM to every registered child.
    public static func terminateAll() {
        for pid in live.withLock({ $0 }) { kill(pid, SIGTERM) }
    }
}

/// Serves a router over stdin and stdout, the way a browser runs a native host.
///
/// The calling thread reads stdin, waits for signals and for room in stdout's pipe in one
/// `poll(2)`, and checks on the parent and on request deadlines between reads; it never blocks
/// anywhere else, so a browser that stops reading cannot keep SIGTERM or a dead parent from
/// ending the host. Handlers run on Swift's concurrency pool, or on this thread for quick ones
/// (`Execution.immediate`): a `sendNativeMessage` call that asks for accounts starts no thread
/// at all. The process ends (with cancellation of what is in flight and a bounded wait for their
/// answers) on end of input, on SIGTERM, SIGINT or SIGHUP, when stdout's reader goes away, and
/// when the parent dies. Whatever the event, this thread ends it (see `Session`).
public enum StdioHost {
    /// How often the parent is checked when nothing else wakes the read loop.
    static let parentCheckInterval: Duration = .milliseconds(500)

    /// Runs until the session ends, then exits the process.
    ///
    /// `parent` is the process whose death ends the session. Read it with `getppid()` as the
    /// first thing `main` does: a browser that dies while the router is being built would
    /// otherwise leave the host recording init as its parent, and orphaned. Call `run` before
    /// anything starts a thread (a `Task`, Dispatch work): SIGTERM, SIGINT and SIGHUP are blocked
    /// here and read from a signalfd, and a thread started earlier would still take them with
    /// their default action, ending the process without its grace period.
    public static func run(
        router: Router, configuration: HostConfiguration = .fromEnvironment(), arguments: [String], parent: pid_t = getppid()
    ) -> Never {
        signal(SIGPIPE, SIG_IGN)  // a closed stdout must be an EPIPE we handle, not a death
        let signals = SignalInbox(SIGTERM, SIGINT, SIGHUP)
        let caller = Caller(arguments: arguments)
        Log.debug("serving \(caller) with \(router.methodNames.count) methods")

        let session = Session(configuration: configuration)
        if signals.fileDescriptor >= 0 { SignalBackstop.start(watching: signals.fileDescriptor, session: session) }
        // EPIPE can meet any thread that writes a reply, often from inside that reply's own
        // `InFlightTable.finish`: it only asks this thread to end the session.
        let writer = FrameWriter(fileDescriptor: 1) { session.requestEnd(status: 0, reason: "stdout closed") }
        let server = Server(router: router, configuration: configuration, caller: caller, send: writer.write)
        session.serving.withLock { $0 = (server, writer) }

        var decoder = FrameDecoder(maxFrameBytes: configuration.maxInboundFrameBytes)
        let chunkSize = 64 * 1024
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        let clock = ContinuousClock()
        var nextHousekeeping = clock.now + parentCheckInterval
        /// Complete frames may be left in the decoder when the output backlog stopped dispatch.
        var framesLeft = false
        var watched = [pollfd](repeating: pollfd(), count: 4)
        while true {
            // Deadlines matter only while something runs; the parent is checked regardless.
            let interval = server.inFlightCount > 0 ? min(server.sweepInterval ?? parentCheckInterval, parentCheckInterval) : parentCheckInterval
            nextHousekeeping = min(nextHousekeeping, clock.now + interval)
            let unsent = writer.unsentByteCount
            let backedUp = unsent > FrameWriter.backlogLimit
            // A negative descriptor is skipped by poll: no requests are read while the browser
            // is not taking replies, and stdout is watched only while something waits to go out.
            watched[0] = pollfd(fd: backedUp ? -1 : 0, events: Int16(POLLIN), revents: 0)
            watched[1] = pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)
            watched[2] = pollfd(fd: unsent > 0 ? 1 : -1, events: Int16(POLLOUT), revents: 0)
            watched[3] = pollfd(fd: session.wakeFileDescriptor, events: Int16(POLLIN), revents: 0)
            let wait = framesLeft && !backedUp ? 0 : max(0, (nextHousekeeping - clock.now) / .milliseconds(1))
            let ready = poll(&watched, nfds_t(watched.count), Int32(wait.rounded(.up)))
            if ready < 0, errno != EINTR {
                session.end(status: 1, reason: "poll failed (errno \(errno))")
            }
            // First: an end another thread asked for is not put off by more input.
            if watched[3].revents != 0 { session.endIfRequested() }
            if clock.now >= nextHousekeeping {
                session.endIfRequested()  // in case the wake-up pipe could not be made
                if getppid() != parent { session.end(status: 0, reason: "parent process exited") }
                server.expireOverdueRequests()
                nextHousekeeping = clock.now + interval
            }
            if watched[1].revents != 0, let number = signals.next() {
                session.end(status: 0, reason: "signal \(number)")
            }
            if watched[2].revents != 0 { writer.flush() }
            if watched[0].revents != 0 {
                let count = read(0, chunk.baseAddress!, chunkSize)
                if count < 0, errno != EINTR, errno != EAGAIN {
                    session.end(status: 0, reason: "stdin read failed (errno \(errno))")
                }
                if count == 0 {
                    // Requests already here are still answered, backlog or not.
                    dispatchFrames(from: &decoder, to: server, writer: writer, session: session, stopWhenBackedUp: false)
                    if decoder.bufferedByteCount > 0 {
                        let announced = decoder.pendingFrameLength.map { " of a \($0)-byte frame" } ?? " of a frame header"
                        Log.warning("stdin closed after \(decoder.bufferedByteCount) bytes\(announced); the partial frame is dropped")
                    }
                    session.end(status: 0, reason: "end of input")
                }
                if count > 0 {
                    decoder.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
                    if let length = decoder.pendingFrameLength, length > PipeSize.defaultBytes { PipeSize.enlarge(0) }
                    framesLeft = true
                }
            }
            if framesLeft, !writer.isBackedUp {
                framesLeft = dispatchFrames(from: &decoder, to: server, writer: writer, session: session, stopWhenBackedUp: true)
            }
        }
    }

    /// Hands every complete frame in `decoder` to `server`; the replies written meanwhile go out
    /// together. Returns true if it stopped early because the output backlog is full.
    @discardableResult
    private static func dispatchFrames(
        from decoder: inout FrameDecoder, to server: Server, writer: FrameWriter, session: Session, stopWhenBackedUp: Bool
    ) -> Bool {
        let outcome: Result<Bool, FramingError> = writer.batching {
            do throws(FramingError) {
                while try decoder.withNextFrame({ server.receive($0) }) {
                    if stopWhenBackedUp, writer.isBackedUp { return .success(true) }
                }
                return .success(false)
            } catch {
                return .failure(error)
            }
        }
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

/// Signals taken as readable events on a file descriptor (signalfd) instead of by a handler,
/// so the read loop's one `poll` sees them and no thread or async-signal-safe code is needed.
private struct SignalInbox {
    let fileDescriptor: Int32

    /// Blocks `numbers` in this thread, and so in every thread started after it (call it before
    /// any), and opens the descriptor that receives them.
    init(_ numbers: Int32...) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in numbers { sigaddset(&mask, number) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        fileDescriptor = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        if fileDescriptor < 0 {
            // Without it the signals keep their default action, which ends the process at once
            // (no grace period for running handlers) but still ends it.
            Log.warning("signalfd failed (errno \(errno)); SIGTERM will end the host without a grace period")
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        }
    }

    /// The next pending signal's number, if any.
    func next() -> Int32? {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        guard withUnsafeMutableBytes(of: &info, { read(fileDescriptor, $0.baseAddress, size) }) == size else { return nil }
        return Int32(info.ssi_signo)
    }
}

/// Ends the process on a signal when the reader thread cannot: a quick (`.immediate`) handler
/// runs on the reader thread, and one stuck in a system call (a read of a file that never
/// answers) would keep SIGTERM waiting in the signalfd forever.
///
/// Its own thread sees a pending signal in the same signalfd without consuming it. If the reader
/// has not begun the end within `readerResponseTime`, the reader is taken to be stuck: this
/// thread closes child processes (pinentry) at once and exits at the end of the grace period,
/// counted from the signal, as the reader's own end would have. It never ends the process while
/// the reader's end is under way: that end is bounded already.
private enum SignalBackstop {
    static let readerResponseTime: Duration = .milliseconds(100)

    static func start(watching signalDescriptor: Int32, session: Session) {
        let body = Unmanaged.passRetained(Watch(signalDescriptor: signalDescriptor, session: session)).toOpaque()
        var thread = pthread_t()
        // A small stack: it runs a few calls deep, and a default 8 MiB mapping is wasted work
        // on a host the browser may start for a single message.
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 64 * 1024)
        // Started after SignalInbox blocked the signals, so this thread never takes them itself.
        guard pthread_create(&thread, &attributes, { raw in
            Unmanaged<Watch>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, body) == 0 else {
            Unmanaged<Watch>.fromOpaque(body).release()
            Log.warning("cannot start the signal backstop thread (errno \(errno)); a handler stuck on the reader thread can delay SIGTERM")
            return
        }
        // Named here, before any request is read, for ps, gdb and the tests.
        _ = pthread_setname_np(thread, "signal-backstop")
        pthread_detach(thread)
    }

    private final class Watch {
        let signalDescriptor: Int32
        let session: Session
        init(signalDescriptor: Int32, session: Session) {
            self.signalDescriptor = signalDescriptor
            self.session = session
        }

        func run() {
            var watched = pollfd(fd: signalDescriptor, events: Int16(POLLIN), revents: 0)
            while poll(&watched, 1, -1) != 1 || watched.revents & Int16(POLLIN) == 0 {}
            let signalled = ContinuousClock.now
            let grace = session.configuration.shutdownGrace
            Thread.sleep(until: signalled + min(SignalBackstop.readerResponseTime, grace))
            guard !session.isEnding else { return }
            Log.error("a signal arrived while a handler blocked the reader thread; ending without it")
            ChildProcesses.terminateAll()
            Thread.sleep(until: signalled + grace)
            _exit(0)
        }
    }

    private enum Thread {
        /// usleep(3) in a loop: a signal's EINTR only shortens one round.
        static func sleep(until deadline: ContinuousClock.Instant) {
            while case let left = deadline - .now, left > .zero {
                usleep(UInt32(min(left / .microseconds(1), 1_000_000).rounded(.up)))
            }
        }
    }
}

/// The one place the process ends, whichever event ends it first.
///
/// Shutdown has one owner, the reader thread: any thread may *request* the end (`requestEnd`),
/// and only the reader *performs* it (`end`), from its loop, never from inside a handler or a
/// reply. A request can come from deep inside a handler's answer (a reply meets EPIPE while its
/// call is still in the in-flight table, on a pool thread or the reader's own), and ending from
/// there waited the whole grace for a call that could leave the table only once the end returned.
private final class Session: Sendable {
    let configuration: HostConfiguration
    let serving = Mutex<(server: Server, writer: FrameWriter)?>(nil)
    /// Set when the reader begins the end (see `SignalBackstop`).
    private let ending = Atomic<Bool>(false)
    var isEnding: Bool { ending.load(ordering: .acquiring) }
    /// The first end asked for: its status and its reason. Later ones are dropped.
    private let requested = Mutex<(status: Int32, reason: String)?>(nil)
    /// The reader polls this for `POLLIN`; a request writes one byte to `wakeWriteEnd`. -1 if
    /// the pipe could not be made: requests are then seen at the next housekeeping pass.
    let wakeFileDescriptor: Int32
    private let wakeWriteEnd: Int32

    init(configuration: HostConfiguration) {
        self.configuration = configuration
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)  // not inherited by pinentry
                _ = fcntl(end, F_SETFL, O_NONBLOCK)  // a request never blocks its thread
            }
        } else {
            Log.warning("cannot make the shutdown wake-up pipe (errno \(errno)); a closed stdout may take \(StdioHost.parentCheckInterval) to notice")
            ends = [-1, -1]
        }
        (wakeFileDescriptor, wakeWriteEnd) = (ends[0], ends[1])
    }

    /// Asks the reader thread to end the session. Safe from any thread, from inside a handler
    /// or a reply: it records the first request, wakes the reader and returns at once.
    func requestEnd(status: Int32, reason: String) {
        let first = requested.withLock { requested in
            guard requested == nil else { return false }
            requested = (status, reason)
            return true
        }
        if first, wakeWriteEnd >= 0 {
            var byte: UInt8 = 1
            _ = write(wakeWriteEnd, &byte, 1)
        }
    }

    /// Reader thread only: ends the session if another thread asked for it.
    func endIfRequested() {
        if let (status, reason) = requested.withLock({ $0 }) { end(status: status, reason: reason) }
    }

    /// Reader thread only, and never from inside a handler or a reply: cancels what is in
    /// flight, closes child processes, gives handlers `shutdownGrace` to answer and their
    /// replies the rest of it to reach the browser, and exits. An end requested earlier keeps
    /// its status and reason: the first event decides.
    func end(status: Int32, reason: String) -> Never {
        ending.store(true, ordering: .releasing)
        let (status, reason) = requested.withLock { requested in
            if requested == nil { requested = (status, reason) }
            return requested!
        }
        Log.info("shutting down: \(reason)")
        ChildProcesses.terminateAll()
        let deadline = ContinuousClock.now + configuration.shutdownGrace
        if let (server, writer) = serving.withLock({ $0 }) {
            server.cancelAll()
            if !server.waitUntilIdle(timeout: configuration.shutdownGrace) {
                Log.warning("\(server.inFlightCount) requests did not finish within the shutdown grace period")
            }
            writer.drain(until: deadline)
        }
        // `_exit`, not `exit`: everything the host writes goes out by write(2) as it happens, so
        // there is no stdio buffer to flush, and running the runtime's exit handlers and static
        // destructors only delayed the exit a browser waits for on every sendNativeMessage.
        _exit(status)
    }
}
