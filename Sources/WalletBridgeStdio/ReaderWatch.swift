#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeHost
import WalletBridgeSystem

/// Lets the reader of a busy port wait for the next request in a plain blocking read(2), as a C
/// host does, instead of a `poll(2)` and then the read: the `poll` is one more system call per
/// request, a sizeable part of a round trip (BENCHMARKS.md).
///
/// A reader asleep in read(2) cannot see a signal (the handlers restart the read), another
/// thread's end request, or its parent's death, which `poll` woke it for. This thread watches
/// those instead, and when one comes while the reader sleeps, it takes the read loop over
/// (`takeOver`) and ends the session itself, with the same grace (`Session.end`). The reader,
/// should its read return after that, finds the loop taken and waits for the exit.
///
/// The reader sleeps in read(2) only when it has nothing else to watch: no request in flight
/// (their deadlines need sweeping), no reply waiting for room in stdout, no event sources still
/// to start. The thread starts the first time that is so on a port (after its second frame),
/// so a host started for one `sendNativeMessage` never makes it.
final class ReaderWatch: Sendable {
    private let session: Session
    private let writer: FrameWriter
    private let parent: pid_t
    /// `awake`, `asleep` (in read(2), the loop may be taken), or `takenOver`.
    private let state = Atomic<Int>(awake)
    private static let awake = 0
    private static let asleep = 1
    private static let takenOver = 2

    init(session: Session, writer: FrameWriter, parent: pid_t) {
        (self.session, self.writer, self.parent) = (session, writer, parent)
    }

    /// Starts the watching thread. False if it cannot be made: the reader then goes on polling.
    func start() -> Bool {
        var thread = pthread_t()
        let watch = Unmanaged.passRetained(self).toOpaque()
        let made = pthread_create(
            &thread, nil,
            { watch in
                Unmanaged<ReaderWatch>.fromOpaque(watch!).takeRetainedValue().run()
            }, watch)
        guard made == 0 else {
            Unmanaged<ReaderWatch>.fromOpaque(watch).release()
            Log.debug("no reader watch (error \(made)); the reader keeps polling")
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Reader thread: a blocking `read(0, ...)` into `buffer`, with the loop open to being
    /// taken over meanwhile. Returns the read's result (errno as it left it), or nil when the
    /// end was asked for before the read began (the reader then ends the session itself).
    /// Never returns once the loop was taken over.
    func readStdin(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        state.store(Self.asleep, ordering: .sequentiallyConsistent)
        // After the store: an end asked for before it is seen here, one after it by the watch.
        if session.isEndRequested {
            reclaim()
            return nil
        }
        let count = read(0, buffer.baseAddress!, buffer.count)
        let error = errno
        reclaim()
        errno = error
        return count
    }

    /// Takes the loop back from the watch, or waits for the exit if the watch has it.
    private func reclaim() {
        guard
            state.compareExchange(expected: Self.asleep, desired: Self.awake, ordering: .sequentiallyConsistent)
                .exchanged
        else {
            while true { pause() }
        }
    }

    /// The watching thread: every `StdioHost.parentCheckInterval`, or at once when the wake-up
    /// pipe is written (an end request, a signal), it looks at what would end the session, and
    /// ends it if the reader sleeps. While the reader is awake, the reader does that itself; an
    /// end pending meanwhile is looked at again every 5 ms, in case the reader goes to sleep
    /// without having seen it. Replies other threads left queued (events, on a full pipe) are
    /// written out as stdout takes them, as the reader's `poll` would.
    private func run() -> UnsafeMutableRawPointer? {
        var watched = (pollfd(), pollfd())
        let interval = Int32(StdioHost.parentCheckInterval / .milliseconds(1))
        var endPending = false
        while true {
            if endPending {
                usleep(5_000)  // the wake-up pipe stays readable: a poll would return at once
            } else {
                watched.0 = pollfd(fd: session.wakeFileDescriptor, events: Int16(POLLIN), revents: 0)
                watched.1 = pollfd(fd: writer.unsentByteCount > 0 ? 1 : -1, events: Int16(POLLOUT), revents: 0)
                _ = withUnsafeMutablePointer(to: &watched) { pair in
                    pair.withMemoryRebound(to: pollfd.self, capacity: 2) { poll($0, 2, interval) }
                }
                if watched.1.revents != 0 { writer.flush() }
            }
            let parentGone = getppid() != parent
            endPending = parentGone || watched.0.revents != 0 || session.isEndRequested
            guard endPending, takeOver() else { continue }
            session.endIfRequested()
            session.end(status: 0, reason: "parent process exited")
        }
    }

    /// Takes the loop from a sleeping reader. False while it is awake.
    private func takeOver() -> Bool {
        state.compareExchange(expected: Self.asleep, desired: Self.takenOver, ordering: .sequentiallyConsistent)
            .exchanged
    }
}
