#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization
import WalletBridgeHost

/// Signals taken as readable events on a file descriptor (signalfd) instead of by a handler,
/// so the read loop's one `poll` sees them and no thread or async-signal-safe code is needed.
struct SignalInbox {
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
enum SignalBackstop {
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
