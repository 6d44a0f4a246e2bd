#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeFraming

/// Reads native-messaging frames from a descriptor (a socket or a pipe): the one reader under
/// the agent's connections (`next(deadline:)`) and every client's `Connection` (`wait`, `fill`
/// and `frame`, with the diagnostics of `FrameDecoder.next(atEnd:)`). It owns the decoder, the
/// buffer reads land in, whether the input has ended, and the deadlines.
///
/// A wait ends at the caller's deadline (nil: as long as it takes) and, once a frame has begun,
/// at most `frameTimeout` after its first byte; time between frames is not limited by it. Both
/// are measured with the `now` the reader was made with, and poll(2) waits for what that clock
/// says is left: a test that moves a `ManualClock` past a deadline sees the wait end when the
/// reader next looks (at once, or when a byte wakes it), not after the real time. Bytes that
/// are there are read before any deadline is looked at.
///
/// The stdio host's read loop (`StdioHost`) keeps a decoder of its own: it waits on stdin,
/// stdout and its wake-up pipe in one poll(2) (or sleeps in read(2)), and hands each frame to
/// the server where it lies in the buffer.
package struct FrameReader {
    package enum Failure: Error, Equatable {
        /// The peer closed the connection (or it was shut down from this side).
        case closed
        /// Nothing complete arrived before the deadline, or a frame begun was not finished
        /// within `frameTimeout`.
        case timedOut
        /// The peer sent a header announcing more than `maxFrameBytes` (`next(deadline:)` only).
        case framing(FramingError)
        /// The read or the wait failed; errno (EBADF for a descriptor closed under the reader).
        case system(Int32)
    }

    /// A wait or a read that failed: errno (EBADF for a descriptor closed under the reader).
    package struct SystemFailure: Error, Equatable {
        package let code: Int32
    }

    package let fd: Int32
    private var decoder: FrameDecoder
    /// Reused for every read: 4 KiB at first (most messages are small, and a cold call pays
    /// for every page it touches), twice as large after each read that fills it, up to 64 KiB.
    private var chunk = [UInt8](repeating: 0, count: 4096)
    private static let maxChunkBytes = 64 * 1024
    /// How long a frame may take to arrive once its first byte has; nil: as long as it takes.
    /// Time between frames is not limited by it: a host's kept connection waits for its next call.
    package var frameTimeout: Duration?
    /// When the first byte of the frame not yet complete arrived (only while `frameTimeout` is set).
    private var frameBegan: ContinuousClock.Instant?
    /// The input reached its end (or failed): no more bytes will come.
    package private(set) var ended = false
    /// The time every deadline is measured with.
    private let now: () -> ContinuousClock.Instant

    package init(
        fd: Int32, maxFrameBytes: Int = Frame.defaultMaxInboundBytes, frameTimeout: Duration? = nil,
        now: @escaping () -> ContinuousClock.Instant = { .now }
    ) {
        self.fd = fd
        decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        self.frameTimeout = frameTimeout
        self.now = now
    }

    /// The largest frame body accepted from now on.
    package var maxFrameBytes: Int {
        get { decoder.maxFrameBytes }
        set { decoder.maxFrameBytes = newValue }
    }

    // MARK: The agent's loop

    /// The next frame's body. Waits until `deadline` (nil: as long as it takes), and at most
    /// `frameTimeout` after the frame's first byte. A header over `maxFrameBytes` is refused as
    /// soon as it arrives; an input that ends, even inside a frame, is `.closed`.
    package mutating func next(deadline: ContinuousClock.Instant? = nil) throws(Failure) -> [UInt8] {
        while true {
            do {
                if let body = try decoder.nextFrame() {
                    // Bytes left over begin the next frame now.
                    frameBegan = frameTimeout != nil && decoder.bufferedByteCount > 0 ? now() : nil
                    return body
                }
            } catch {
                throw .framing(error)
            }
            if ended { throw .closed }
            let ready: Bool
            do throws(SystemFailure) {
                ready = try wait(until: deadline)
                if ready { try fill() }
            } catch {
                throw .system(error.code)
            }
            if !ready { throw .timedOut }
        }
    }

    // MARK: A client's steps

    /// Waits until the descriptor is readable (true) or the deadline passes (false): the
    /// caller's `deadline`, or the frame begun's own, whichever comes first. One poll(2).
    package mutating func wait(until deadline: ContinuousClock.Instant?) throws(SystemFailure) -> Bool {
        var until = deadline
        if let frameTimeout, let frameBegan {
            let frameDeadline = frameBegan + frameTimeout
            until = until.map { min($0, frameDeadline) } ?? frameDeadline
        }
        var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = SystemCall.poll(&watched, until: until, now: now)
        if ready < 0 { throw SystemFailure(code: errno) }
        if ready == 0 { return false }
        // A descriptor closed under the reader is never readable again: waiting on it would
        // return at once, round after round, until the deadline or forever.
        if watched.revents & Int16(POLLNVAL) != 0 { throw SystemFailure(code: EBADF) }
        return true
    }

    /// One read of what is there (a wait said so, or the descriptor is non-blocking): appended
    /// to what is buffered, or the input marked ended. A read that would block reads nothing.
    package mutating func fill() throws(SystemFailure) {
        let fd = self.fd
        let count = chunk.withUnsafeMutableBytes { raw in
            SystemCall.retryingInterrupts { Glibc.read(fd, raw.baseAddress!, raw.count) }
        }
        if count < 0 {
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK { return }
            // Nothing more will be read from it: waits end instead of polling it again.
            ended = true
            throw SystemFailure(code: code)
        }
        if count == 0 {
            ended = true
            return
        }
        if frameTimeout != nil, frameBegan == nil { frameBegan = now() }
        chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        if count == chunk.count, chunk.count < Self.maxChunkBytes {
            chunk = [UInt8](repeating: 0, count: chunk.count * 2)
        }
    }

    /// A frame already read, never waiting, judged as `FrameDecoder.next(atEnd:)` judges it
    /// (at the end once the input has ended): a header over the limit is told apart from stray
    /// output, and an input that ended inside a frame is a `FrameFault` that says so.
    package mutating func frame() -> FrameDecoder.Next {
        let next = decoder.next(atEnd: ended)
        if case .frame = next, frameTimeout != nil {
            frameBegan = decoder.bufferedByteCount > 0 ? now() : nil
        }
        return next
    }

    /// Bytes received but not yet returned as a frame.
    package var bufferedByteCount: Int { decoder.bufferedByteCount }

    /// The first bytes (at most 256) received but not yet part of a whole frame.
    package var pendingBytes: [UInt8] { decoder.pendingBytes }

    /// What a wait that timed out was stuck on: an oversized header whose body never came is
    /// still an oversized frame.
    package var faultAtTimeout: FrameFault? { decoder.faultAtTimeout }
}
