#if canImport(Glibc)
import Glibc
#endif
@preconcurrency import Dispatch
import Synchronization

/// Writes whole frames to a file descriptor: header and body in one buffer, under one lock, so
/// concurrent replies never interleave. The only code in the host that writes to stdout.
public final class FrameWriter: Sendable {
    private let fd: Int32
    private let broken = Mutex(false)
    private let onBroken: @Sendable () -> Void

    /// `onBroken` runs once, when the reader has gone away (EPIPE and the like).
    public init(fileDescriptor: Int32, onBroken: @escaping @Sendable () -> Void) {
        self.fd = fileDescriptor
        self.onBroken = onBroken
    }

    public func write(_ body: [UInt8]) {
        guard let frame = try? Frame.encode(body) else { return }  // bodies are size-checked upstream
        let failed: Bool = broken.withLock { broken in
            guard !broken else { return false }
            let ok = frame.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if written < 0 {
                        if errno == EINTR || errno == EAGAIN { continue }
                        return false
                    }
                    offset += written
                }
                return true
            }
            if !ok { broken = true }
            return !ok
        }
        if failed {
            Log.info("stdout closed by the reader; shutting down")
            onBroken()
        }
    }
}

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
/// Stdin is read on the calling thread; handlers run on Swift's concurrency pool. The process
/// ends (with cancellation of what is in flight and a bounded wait for their answers) on end of
/// input, on SIGTERM or SIGINT, when stdout's reader goes away, and when the parent dies.
public enum StdioHost {
    /// Runs until the session ends, then exits the process.
    ///
    /// `parent` is the process whose death ends the session. Read it with `getppid()` as the
    /// first thing `main` does: a browser that dies while the router is being built would
    /// otherwise leave the host recording init as its parent, and orphaned.
    public static func run(
        router: Router, configuration: HostConfiguration = .fromEnvironment(), arguments: [String], parent: pid_t = getppid()
    ) -> Never {
        signal(SIGPIPE, SIG_IGN)  // a closed stdout must be an EPIPE we handle, not a death
        let caller = Caller(arguments: arguments)
        Log.debug("serving \(caller) with \(router.methodNames.count) methods")

        let session = Session(configuration: configuration)
        let writer = FrameWriter(fileDescriptor: 1) { session.end(status: 0, reason: "stdout closed") }
        let server = Server(router: router, configuration: configuration, caller: caller, send: writer.write)
        session.server.withLock { $0 = server }
        session.watchSignals(andParent: parent)

        var decoder = FrameDecoder(maxFrameBytes: configuration.maxInboundFrameBytes)
        let chunkSize = 64 * 1024
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        while true {
            let count = read(0, chunk.baseAddress!, chunkSize)
            if count < 0 {
                if errno == EINTR { continue }
                session.end(status: 0, reason: "stdin read failed (errno \(errno))")
            }
            if count == 0 {
                if decoder.bufferedByteCount > 0 {
                    let announced = decoder.pendingFrameLength.map { " of a \($0)-byte frame" } ?? " of a frame header"
                    Log.warning("stdin closed after \(decoder.bufferedByteCount) bytes\(announced); the partial frame is dropped")
                }
                session.end(status: 0, reason: "end of input")
            }
            decoder.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
            do {
                while let body = try decoder.nextFrame() {
                    server.receive(body)
                }
            } catch {
                // Tell the extension why before going: the browser shows nothing otherwise.
                writer.write(Response.failure(id: .null, error: RPCError(.requestTooLarge, detail: error.description)))
                Log.error("\(error); set WALLET_BRIDGE_MAX_FRAME_BYTES to accept larger requests")
                session.end(status: 1, reason: "framing error")
            }
        }
    }
}

/// The one place the process ends, whichever event ends it first.
private final class Session: Sendable {
    let configuration: HostConfiguration
    let server = Mutex<Server?>(nil)
    private let ending = Mutex(false)
    private let signalQueue = DispatchQueue(label: "wallet-bridge.signals")
    /// Kept only so the sources stay alive. Written once, on the main thread, before any of
    /// them can fire, and never read.
    private nonisolated(unsafe) var sources: [any DispatchSourceProtocol] = []

    init(configuration: HostConfiguration) { self.configuration = configuration }

    func watchSignals(andParent parent: pid_t) {
        var installed: [any DispatchSourceProtocol] = []
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
            signal(signalNumber, SIG_IGN)  // let the dispatch source, not the default action, see it
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
            source.setEventHandler { [self] in
                end(status: 0, reason: "signal \(signalNumber)")
            }
            source.resume()
            installed.append(source)
        }
        // A browser that dies without closing our stdin (or a wrapper that keeps it open) must
        // not leave us orphaned. Polling getppid is used rather than PR_SET_PDEATHSIG, which
        // fires when the spawning *thread* exits, a normal event in a browser's launcher.
        let timer = DispatchSource.makeTimerSource(queue: signalQueue)
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.setEventHandler { [self] in
            if getppid() != parent { end(status: 0, reason: "parent process exited") }
        }
        timer.resume()
        installed.append(timer)
        sources = installed
    }

    /// Cancels what is in flight, closes child processes, gives handlers `shutdownGrace` to
    /// answer, and exits. Only the first caller proceeds; the process is about to exit, so any
    /// later caller just waits for that.
    func end(status: Int32, reason: String) -> Never {
        let first = ending.withLock { ending in
            defer { ending = true }
            return !ending
        }
        guard first else {
            // Another thread is already ending the process; park this one until it does.
            while true { pause() }
        }
        Log.info("shutting down: \(reason)")
        ChildProcesses.terminateAll()
        if let server = server.withLock({ $0 }) {
            server.cancelAll()
            if !server.waitUntilIdle(timeout: configuration.shutdownGrace) {
                Log.warning("\(server.inFlightCount) requests did not finish within the shutdown grace period")
            }
        }
        exit(status)
    }
}
