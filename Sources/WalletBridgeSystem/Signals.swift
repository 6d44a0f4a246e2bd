#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// SIGTERM, SIGINT and SIGHUP, which end the host.
///
/// A handler records the first one and wakes the reader thread through the session's wake-up
/// pipe; the reader ends the session from its loop (`Session`), with the grace period for what
/// is in flight. (A port's reader asleep in read(2) is not woken: its `ReaderWatch` polls the
/// pipe, and ends the session in its place.) The handler also arms a backstop timer, because the reader may not come:
/// a quick (`.immediate`) handler runs on the reader thread, and one stuck in a system call (a
/// read of a file that never answers) would keep the signal waiting forever. If the reader has
/// not begun the end within `readerResponseTime`, the timer's handler closes child processes
/// (pinentry) and exits at the end of the grace period, counted from the signal, as the
/// reader's own end would have. It never ends the process while the reader's end is under way:
/// that end is bounded already.
///
/// Handlers, not a signalfd and a watching thread: starting a thread is a large part of a cold
/// call, and handlers are process-wide, so a thread started at any time (the pool, Dispatch)
/// cannot take a signal with its default action. Everything the handlers touch is made before
/// they are installed, and they only load and store atomics and make async-signal-safe calls
/// (write, setitimer, kill, _exit).
package enum Signals {
    static let readerResponseTime: Duration = .milliseconds(100)

    /// Installs the handlers. `wakeDescriptor` is the write end of the reader's wake-up pipe (-1
    /// if there is none: the reader then sees the signal at its next housekeeping pass).
    package static func install(wakeDescriptor: Int32, grace: Duration) {
        ChildProcesses.prepare()
        state.wakeDescriptor.store(wakeDescriptor, ordering: .releasing)
        let response = min(readerResponseTime, grace)
        state.responseMicroseconds.store(microseconds(response), ordering: .releasing)
        state.restOfGraceMicroseconds.store(microseconds(grace - response), ordering: .releasing)
        install(onTermination, for: SIGTERM)
        install(onTermination, for: SIGINT)
        install(onTermination, for: SIGHUP)
        install(onBackstopTimer, for: SIGALRM)
    }

    /// The first signal caught, if any.
    package static var caught: Int32? {
        let number = state.caught.load(ordering: .acquiring)
        return number == 0 ? nil : number
    }

    /// Tells the backstop that the reader is ending the session itself.
    package static func readerIsEnding() { state.readerEnding.store(true, ordering: .releasing) }

    /// One signal at a time: a variadic list was an `[Int32]`, a generic type for the runtime to
    /// build on every cold start.
    private static func install(_ handler: @convention(c) (Int32) -> Void, for number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        // Restarted, not EINTR: a handler's read of a slow file goes on as if nothing happened.
        action.sa_flags = SA_RESTART
        if sigaction(number, &action, nil) != 0 {
            Log.warning("cannot handle signal \(number) (errno \(errno)); it will end the host without a grace period")
        }
    }

    private static func microseconds(_ duration: Duration) -> Int {
        max(1, Int(duration / .microseconds(1)))
    }

    /// What the handlers read. Made, with everything in it, before they are installed; a
    /// noncopyable struct, so reading it takes no reference count.
    private static let state = State()

    private struct State: ~Copyable, @unchecked Sendable {
        let caught = Atomic<Int32>(0)
        let readerEnding = Atomic<Bool>(false)
        let wakeDescriptor = Atomic<Int32>(-1)
        let responseMicroseconds = Atomic<Int>(0)
        let restOfGraceMicroseconds = Atomic<Int>(0)
        /// 0 while the timer is not armed, 1 while it waits for the reader, 2 for the exit.
        let backstopStage = Atomic<Int>(0)
        /// Whether the backstop's log line is written (the log level), and the program's name
        /// for it: a handler cannot format a string, so the line goes out in pieces.
        let logsError = Log.level >= .error
        let programName: UnsafeRawBufferPointer = {
            let fallback: StaticString = "wallet-bridge"
            guard let path = CommandLine.unsafeArgv[0], path[0] != 0 else {
                return UnsafeRawBufferPointer(start: fallback.utf8Start, count: fallback.utf8CodeUnitCount)
            }
            let name = strrchr(path, Int32(UInt8(ascii: "/"))).map { $0 + 1 } ?? path
            return UnsafeRawBufferPointer(start: name, count: strlen(name))
        }()
        /// The rest of the line, as `Log` writes an error.
        let stuckMessage: StaticString =
            ": error: a signal arrived while a handler blocked the reader thread; ending without it\n"
    }

    private static let onTermination: @convention(c) (Int32) -> Void = { number in
        let savedErrno = errno
        defer { errno = savedErrno }
        guard state.caught.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing).exchanged
        else { return }
        var byte: UInt8 = 1
        _ = write(state.wakeDescriptor.load(ordering: .acquiring), &byte, 1)
        state.backstopStage.store(1, ordering: .releasing)
        armTimer(microseconds: state.responseMicroseconds.load(ordering: .acquiring))
    }

    private static let onBackstopTimer: @convention(c) (Int32) -> Void = { _ in
        let savedErrno = errno
        defer { errno = savedErrno }
        switch state.backstopStage.load(ordering: .acquiring) {
        case 1:
            guard !state.readerEnding.load(ordering: .acquiring) else { return }
            if state.logsError {
                _ = write(2, state.programName.baseAddress, state.programName.count)
                _ = write(2, state.stuckMessage.utf8Start, state.stuckMessage.utf8CodeUnitCount)
            }
            ChildProcesses.terminateAll()
            state.backstopStage.store(2, ordering: .releasing)
            armTimer(microseconds: state.restOfGraceMicroseconds.load(ordering: .acquiring))
        case 2:
            _exit(0)
        default:
            return  // a SIGALRM that is not ours
        }
    }

    private static func armTimer(microseconds: Int) {
        var timer = itimerval(
            it_interval: timeval(tv_sec: 0, tv_usec: 0),
            it_value: timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000))
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
    }
}
