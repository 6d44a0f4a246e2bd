#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization

/// Counts the changes in a few folders, so that a file read earlier can be trusted again with an
/// atomic load instead of a `stat(2)`: while `generation` is what it was when the file was
/// stat'ed, nothing in its folder has changed since. A persistent port answers GetAccounts from
/// its copy of the keystore this way; the `stat` per request was about 2 µs of a 10 µs round
/// trip (BENCHMARKS.md, eighth to tenth rounds).
///
/// How: one inotify descriptor, set to send SIGIO to the host's reader thread when an event is
/// queued, and a handler that only adds one to the count. Aimed at that thread, not read by a
/// watching thread, because of when it arrives: the kernel makes the signal pending on the
/// reader inside the system call that changes the folder (the rename of a new keystore), and a
/// thread runs its pending handlers before it returns from any system call. A change completed
/// before a request's bytes were read has therefore been counted before the request is handled,
/// on whichever thread handles it. A watching thread might not have run yet.
///
/// Only a process that names its reader thread (`start`, by `StdioHost`) watches. Elsewhere
/// (the agent, tests, the command line) `watch` says no and callers `stat` as before. A watched
/// folder that is moved or deleted turns watching off for good (`isIntact`).
///
/// What it costs the reader thread: SIGIO's handler is this one's (an embedding program's own
/// SIGIO handler is replaced once a folder is watched), and every change in a watched folder
/// interrupts the reader once. Handlers are installed with `SA_RESTART`, so a blocking read
/// goes on; calls the kernel never restarts (`poll`, `nanosleep`) return early with EINTR,
/// which their callers handle. The keystore's folder is quiet; a keystore kept in a busy folder
/// (`/tmp`) makes the reader take a signal per change there.
package enum FolderWatch {
    /// Names the thread that gets the signals: the reader's, which reads every request. Call it
    /// on that thread. Nothing is made until a folder is watched.
    package static func start() {
        state.thread.store(wallet_bridge_thread_id(), ordering: .releasing)
    }

    /// Starts counting the changes in `folder` (once per folder). False when this process does
    /// not watch (no `start`), when the folder cannot be watched (missing, or out of inotify
    /// watches), or when a watched folder went away.
    package static func watch(folder: String) -> Bool {
        let thread = state.thread.load(ordering: .acquiring)
        guard thread != 0, isIntact else { return false }
        return state.folders.withLock { folders in
            if folders.contains(folder) { return true }
            guard let fd = descriptor(signalling: thread) else { return false }
            let events = UInt32(IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE)
                | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
            guard inotify_add_watch(fd, folder, events) >= 0 else {
                Log.debug("\(folder) is not watched for changes (errno \(errno)); it is checked on every call")
                return false
            }
            folders.insert(folder)
            Log.debug("changes in \(folder) are signalled to the reader thread")
            return true
        }
    }

    /// The number of changes counted so far. Read it before the `stat` it vouches for, and call
    /// `drain` in between.
    package static var generation: UInt64 { state.generation.load(ordering: .acquiring) }

    /// False for good once a watched folder was moved or deleted (its path may now lead to
    /// another folder, which is not watched).
    package static var isIntact: Bool { state.intact.load(ordering: .acquiring) }

    /// Reads the events queued so far. The kernel sends no signal for an event that repeats the
    /// last one still queued, so the queue must be emptied before a `stat` that the next change
    /// has to be counted after. Notes a watched folder that went away. False when the count can
    /// no longer be trusted (nothing is watched, or a watched folder went away).
    package static func drain() -> Bool {
        let fd = state.descriptor.load(ordering: .acquiring)
        guard fd >= 0, isIntact else { return false }
        let size = 4096  // whole events only: the largest is 16 bytes and a name of 255
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer in
            while true {
                let count = SystemCall.retryingInterrupts { read(fd, buffer.baseAddress!, size) }
                guard count > 0 else { return }
                var offset = 0
                while offset + 16 <= count {
                    // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
                    let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                    if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT) != 0 {
                        state.intact.store(false, ordering: .releasing)
                    }
                    offset += 16 + Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                }
            }
        }
        guard isIntact else {
            // Nothing is trusted on the count any more: no more signals for the reader either.
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_ASYNC)
            return false
        }
        return true
    }

    /// Ends watching in this process, for good: nothing is trusted on the count any more, and
    /// no signal comes. For tests, which watch in a process that goes on with other tests.
    package static func stopForGood() {
        state.intact.store(false, ordering: .releasing)
        state.thread.store(0, ordering: .releasing)
        let fd = state.descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 { close(fd) }
    }

    /// The inotify descriptor, made on the first watch: the handler goes in before the
    /// descriptor may signal (SIGIO's default action ends the process).
    private static func descriptor(signalling thread: pid_t) -> Int32? {
        let existing = state.descriptor.load(ordering: .acquiring)
        if existing >= 0 { return existing }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { return nil }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = onChange
        sigemptyset(&action.sa_mask)
        // Restarted: the reader's blocking read of stdin, or a handler's read of a file, goes on.
        action.sa_flags = SA_RESTART
        guard sigaction(SIGIO, &action, nil) == 0, wallet_bridge_signal_thread_on_input(fd, thread) == 0 else {
            close(fd)
            return nil
        }
        state.descriptor.store(fd, ordering: .releasing)
        return fd
    }

    private static let onChange: @convention(c) (Int32) -> Void = { _ in
        state.generation.wrappingAdd(1, ordering: .sequentiallyConsistent)
    }

    /// What the handler reads: made before it is installed; noncopyable, so no reference count.
    private static let state = State()

    private struct State: ~Copyable, @unchecked Sendable {
        let thread = Atomic<Int32>(0)
        let descriptor = Atomic<Int32>(-1)
        let generation = Atomic<UInt64>(0)
        let intact = Atomic<Bool>(true)
        let folders = Mutex<Set<String>>([])
    }
}
