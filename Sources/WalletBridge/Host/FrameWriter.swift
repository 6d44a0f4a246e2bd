#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization

/// Writes whole frames to a file descriptor, under one lock, so concurrent replies never
/// interleave. The only code in the host that writes to stdout.
///
/// Inside `batching`, frames are gathered and go out together in one `write(2)` (at the latest
/// when the batch ends or 64 KiB have gathered): a reader that answers a burst of pipelined
/// requests pays one system call and one wake-up of the browser, not one per reply.
public final class FrameWriter: Sendable {
    private struct State {
        var broken = false
        var batching = false
        var pending: [UInt8] = []
    }

    private static let batchLimit = 64 * 1024
    private let fd: Int32
    private let state = Mutex(State())
    private let onBroken: @Sendable () -> Void

    /// `onBroken` runs once, when the reader has gone away (EPIPE and the like).
    public init(fileDescriptor: Int32, onBroken: @escaping @Sendable () -> Void) {
        self.fd = fileDescriptor
        self.onBroken = onBroken
    }

    public func write(_ body: [UInt8]) {
        guard var length = UInt32(exactly: body.count) else { return }  // bodies are size-checked upstream
        if body.count > PipeSize.defaultBytes { PipeSize.enlarge(fd) }
        let failed: Bool = state.withLock { state in
            guard !state.broken else { return false }
            let gather = state.batching && state.pending.count + Frame.headerBytes + body.count <= Self.batchLimit
            if gather {
                withUnsafeBytes(of: &length) { state.pending.append(contentsOf: $0) }  // native byte order
                state.pending.append(contentsOf: body)
                return false
            }
            // Whatever was gathered, then this frame's header and body: one writev, no copy.
            let ok = state.pending.withUnsafeBytes { pending in
                withUnsafeBytes(of: &length) { header in
                    body.withUnsafeBytes { body in writeAll([pending, header, body]) }
                }
            }
            state.pending.removeAll(keepingCapacity: state.pending.capacity <= Self.batchLimit)
            if !ok { state.broken = true }
            return !ok
        }
        if failed { reportBroken() }
    }

    /// Runs `body`, gathering the frames written meanwhile (from any thread) and writing them
    /// together when it returns.
    public func batching<T>(_ body: () throws -> T) rethrows -> T {
        state.withLock { $0.batching = true }
        defer { endBatch() }
        return try body()
    }

    private func endBatch() {
        let failed: Bool = state.withLock { state in
            state.batching = false
            guard !state.broken, !state.pending.isEmpty else { return false }
            let ok = state.pending.withUnsafeBytes { writeAll([$0]) }
            state.pending.removeAll(keepingCapacity: true)
            if !ok { state.broken = true }
            return !ok
        }
        if failed { reportBroken() }
    }

    private func reportBroken() {
        Log.info("stdout closed by the reader; shutting down")
        onBroken()
    }

    /// Writes every byte of `parts` in order, however the kernel splits the writes.
    private func writeAll(_ parts: [UnsafeRawBufferPointer]) -> Bool {
        var vectors = parts.filter { $0.count > 0 }.map { iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count) }
        var first = 0
        while first < vectors.count {
            let written = vectors.withUnsafeBufferPointer { writev(fd, $0.baseAddress! + first, Int32(vectors.count - first)) }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            var remaining = written
            while first < vectors.count, remaining >= vectors[first].iov_len {
                remaining -= vectors[first].iov_len
                first += 1
            }
            if remaining > 0 {
                vectors[first].iov_base += remaining
                vectors[first].iov_len -= remaining
            }
        }
        return true
    }
}

/// Browsers talk to a host over pipes of 64 KiB, so a message of a megabyte takes sixteen rounds
/// of fill, wake and drain, and a handler writing a large reply waits on each of them. Once a
/// large message shows up, the pipe is grown to 1 MiB, the most an unprivileged process may ask
/// for: a whole reply then goes in one write (signing: 81% to 84% of raw libsodium, bench/).
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
