#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization
import WalletBridgeFraming
import WalletBridgeHost
import WalletBridgeSystem

/// Writes whole frames to a file descriptor, under one lock, so concurrent replies never
/// interleave. The only code in the host that writes to stdout.
///
/// **Never stalls the reading thread.** A pipe (what a browser gives) is switched to
/// non-blocking writes: what the pipe does not take now stays queued, and `StdioHost`'s read
/// loop writes it out when `poll` says the pipe has room (or, while the reader sleeps in read(2),
/// its `ReaderWatch`). The thread that created the writer (the reader, which also takes signals,
/// watches the parent and times requests out) therefore never waits on a browser that stops
/// reading. Other threads do wait, outside the lock, while
/// more than `backlogLimit` is queued, and the reader stops taking requests meanwhile: memory
/// stays bounded. Not a pipe or socket (a file, a terminal): plain blocking writes.
///
/// **Batches.** Inside `batching`, frames are gathered and go out together in one `writev(2)`
/// (at the latest when the batch ends or 64 KiB have gathered): a reader that answers a burst of
/// pipelined requests pays one system call and one wake-up of the browser, not one per reply.
package final class FrameWriter: Sendable {
    private struct State {
        var broken = false
        var batching = false
        /// Bytes queued for the pipe; `pending[sent...]` are still to go.
        var pending: [UInt8] = []
        var sent = 0
        var unsent: Int { pending.count - sent }
    }

    private static let batchLimit = 64 * 1024
    /// Queued output above which the reader stops taking requests and other threads wait to
    /// write: a megabyte reply and then some.
    package static let backlogLimit = 4 * 1_048_576
    private let fd: Int32
    private let nonBlocking: Bool
    private let owner: pthread_t
    private let state = Mutex(State())
    private let onBroken: @Sendable () -> Void

    /// `onBroken` runs once, when the reader has gone away (EPIPE and the like), on whichever
    /// thread was writing: often a handler's, inside its reply. It must return promptly, not end
    /// the process there (`StdioHost` asks its reader thread to). Create the writer on the
    /// thread that will call `flush` when `poll` reports room.
    package init(fileDescriptor: Int32, onBroken: @escaping @Sendable () -> Void) {
        self.fd = fileDescriptor
        self.onBroken = onBroken
        self.owner = pthread_self()
        var info = stat()
        let isPipe =
            fstat(fileDescriptor, &info) == 0
            && (info.st_mode & S_IFMT == S_IFIFO || info.st_mode & S_IFMT == S_IFSOCK)
        let flags = fcntl(fileDescriptor, F_GETFL)
        self.nonBlocking = isPipe && flags >= 0 && fcntl(fileDescriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Bytes queued that the pipe has not taken yet. Poll for `POLLOUT` while this is nonzero.
    package var unsentByteCount: Int { state.withLock { $0.unsent } }

    /// True while the queue is over `backlogLimit`: the reader takes no requests meanwhile.
    package var isBackedUp: Bool { unsentByteCount > Self.backlogLimit }

    package func write(_ body: [UInt8]) {
        guard let length = UInt32(exactly: body.count) else { return }  // bodies are size-checked upstream
        if body.count > PipeSize.defaultBytes { PipeSize.enlarge(fd) }
        let mayWait = nonBlocking && pthread_equal(pthread_self(), owner) == 0
        while true {
            enum Outcome { case done, failed, wait }
            let outcome: Outcome = state.withLock { state in
                guard !state.broken else { return .done }
                if mayWait, state.unsent > Self.backlogLimit { return .wait }
                if state.batching, state.unsent + Frame.headerBytes + body.count <= Self.batchLimit {
                    Frame.withHeader(length: length) { state.pending.append(contentsOf: $0) }
                    state.pending.append(contentsOf: body)
                    return .done
                }
                // What is queued, then this frame's header and body: one writev, and the body
                // is copied only if the pipe does not take all of it.
                var ok = false
                Frame.withHeader(length: length) { header in
                    ok = body.withUnsafeBytes { body in send(&state, then: header, body) }
                }
                return ok ? .done : .failed
            }
            switch outcome {
            case .done: return
            case .failed: return reportBroken()
            case .wait: waitForRoom(milliseconds: 100)
            }
        }
    }

    /// Runs `body`, gathering the frames written meanwhile (from any thread) and writing them
    /// together when it returns.
    package func batching<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.batching = true }
        defer {
            state.withLock { $0.batching = false }
            flush()
        }
        return try body()
    }

    /// Writes what is queued, as far as the pipe takes it now.
    package func flush() {
        let failed = state.withLock { state in !state.broken && state.unsent > 0 && !send(&state) }
        if failed { reportBroken() }
    }

    /// Keeps writing what is queued until it is all out, the reader is gone, or `deadline`
    /// (measured with `now`, the host's clock). For shutdown: replies already produced should
    /// reach the browser before the exit.
    package func drain(until deadline: ContinuousClock.Instant, now: () -> ContinuousClock.Instant) {
        while unsentByteCount > 0, !state.withLock({ $0.broken }) {
            let left = deadline - now()
            guard left > .zero else { return }
            waitForRoom(milliseconds: Int32(min(left / .milliseconds(1), 100).rounded(.up)))
            flush()
        }
    }

    private func waitForRoom(milliseconds: Int32) {
        var room = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = poll(&room, 1, milliseconds)
    }

    private func reportBroken() {
        Log.info("stdout closed by the reader; shutting down")
        onBroken()
    }

    /// Writes the queue and then `header` and `body`, as much as the pipe takes (all of it, when
    /// blocking). What is left of them joins the queue. False when the reader has gone away.
    private func send(
        _ state: inout State, then header: UnsafeRawBufferPointer = .init(start: nil, count: 0),
        _ body: UnsafeRawBufferPointer = .init(start: nil, count: 0)
    ) -> Bool {
        let (written, ok) = state.pending.withUnsafeBytes { pending in
            writeAll(UnsafeRawBufferPointer(rebasing: pending[state.sent...]), header, body)
        }
        guard ok else {
            state.broken = true
            return false
        }
        let queued = state.unsent
        if written < queued {
            state.sent += written
            state.pending.append(contentsOf: header)
            state.pending.append(contentsOf: body)
        } else {
            state.pending.removeAll(keepingCapacity: state.pending.capacity <= Self.batchLimit)
            state.sent = 0
            var skip = written - queued
            func keepUnwritten(_ part: UnsafeRawBufferPointer) {
                if skip >= part.count {
                    skip -= part.count
                } else {
                    state.pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: part[skip...]))
                    skip = 0
                }
            }
            keepUnwritten(header)
            keepUnwritten(body)
        }
        if state.sent > 0, state.sent >= state.unsent {
            // Drop what went out once it outweighs what is left: amortised O(1) per byte.
            state.pending.removeSubrange(0..<state.sent)
            state.sent = 0
        }
        return true
    }

    /// Writes the three parts in order until all is written or, on a non-blocking pipe, the
    /// pipe is full. Returns how much was written, and false for an error that ends the session.
    /// The vectors are on the stack: arrays of them were two generic types for the runtime to
    /// build at every host's first reply.
    private func writeAll(
        _ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer, _ third: UnsafeRawBufferPointer
    ) -> (written: Int, ok: Bool) {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: 3) { vectors in
            var count = 0
            func add(_ part: UnsafeRawBufferPointer) {
                guard part.count > 0 else { return }
                vectors[count] = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: part.baseAddress), iov_len: part.count)
                count += 1
            }
            add(first)
            add(second)
            add(third)
            var next = 0
            var total = 0
            while next < count {
                let written = SystemCall.retryingInterrupts {
                    writev(fd, vectors.baseAddress! + next, Int32(count - next))
                }
                if written < 0 {
                    if errno == EAGAIN { return (total, true) }  // full: the rest waits for POLLOUT
                    return (total, false)
                }
                total += written
                var remaining = written
                while next < count, remaining >= vectors[next].iov_len {
                    remaining -= vectors[next].iov_len
                    next += 1
                }
                if remaining > 0 {
                    vectors[next].iov_base += remaining
                    vectors[next].iov_len -= remaining
                }
            }
            return (total, true)
        }
    }
}

/// Browsers talk to a host over pipes of 64 KiB, so a message of a megabyte takes sixteen rounds
/// of fill, wake and drain, and a handler writing a large reply waits on each of them. Once a
/// large message shows up, the pipe is grown to 1 MiB, the most an unprivileged process may ask
/// for: a whole reply then goes in one write, and signing keeps close to libsodium's own rate.
/// Small messages never pay for the system call.
enum PipeSize {
    static let defaultBytes = 65_536
    private static let enlarged = Mutex<Set<Int32>>([])

    /// Grows `fd`'s pipe to 1 MiB, once. Not a pipe, or over the user's pipe quota: the call
    /// fails and the pipe keeps working as it was.
    static func enlarge(_ fd: Int32) {
        guard enlarged.withLock({ $0.insert(fd).inserted }) else { return }
        if fcntl(fd, F_SETPIPE_SZ, 1 << 20) < 0 { Log.debug("pipe of fd \(fd) left at its size (errno \(errno))") }
    }
}
