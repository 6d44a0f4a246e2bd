#if canImport(Glibc)
import Glibc
#endif

/// The loops every POSIX caller writes, written once: retry a call a signal interrupted
/// (EINTR), write a whole buffer through short writes, and wait with poll(2) until a deadline,
/// again after EINTR with the time left. A loop that must see an interruption (the stdio
/// reader, which then reads a signal's wake-up byte) calls poll(2) itself.
package enum SystemCall {
    /// `call()`, again while it fails with EINTR. Its result otherwise, with errno as it left it.
    /// One for each result type the system calls have (`ssize_t`, `int`): a generic one
    /// compared its result with 0 through Int's BinaryInteger conformance, whose witness table
    /// the runtime builds on first use, in every host's first read.
    package static func retryingInterrupts(_ call: () -> Int) -> Int {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    package static func retryingInterrupts(_ call: () -> Int32) -> Int32 {
        Int32(truncatingIfNeeded: retryingInterrupts { Int(call()) })
    }

    /// Writes all of `bytes` with `write` (a `write(2)` or `send(2)` of a pointer and a count).
    /// Nil when all went out, else the errno of the failure (0 for a write that wrote nothing).
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, with write: (UnsafeRawPointer, Int) -> Int) -> Int32?
    {
        var offset = 0
        while offset < bytes.count {
            let written = retryingInterrupts { write(bytes.baseAddress! + offset, bytes.count - offset) }
            if written < 0 { return errno }
            if written == 0 { return 0 }
            offset += written
        }
        return nil
    }

    /// `writeAll` to the socket `fd` with send(2) and MSG_NOSIGNAL: a peer that went away is an
    /// EPIPE here, not a SIGPIPE that ends the process.
    @discardableResult
    package static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        writeAll(bytes) { pointer, count in Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL)) }
    }

    /// `writeAll` to `fd` with write(2).
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        writeAll(bytes) { pointer, count in Glibc.write(fd, pointer, count) }
    }

    /// poll(2) on the `count` descriptors at `descriptors` until one is ready or `deadline` passes
    /// (nil: no limit), again after EINTR with the timeout recomputed from `now`. Its result:
    /// the number ready, 0 once the deadline passed, or -1 with errno (never EINTR).
    package static func poll(
        _ descriptors: UnsafeMutablePointer<pollfd>?, count: Int, until deadline: ContinuousClock.Instant?,
        now: () -> ContinuousClock.Instant = { .now }
    ) -> Int32 {
        while true {
            let ready = Glibc.poll(descriptors, nfds_t(count), milliseconds(until: deadline, now: now))
            if ready >= 0 || errno != EINTR { return ready }
        }
    }

    /// `poll` on one descriptor: the usual wait, with nothing allocated.
    package static func poll(
        _ descriptor: inout pollfd, until deadline: ContinuousClock.Instant?,
        now: () -> ContinuousClock.Instant = { .now }
    ) -> Int32 {
        poll(&descriptor, count: 1, until: deadline, now: now)
    }

    /// `poll` on every descriptor of `descriptors`.
    package static func poll(
        _ descriptors: inout [pollfd], until deadline: ContinuousClock.Instant?,
        now: () -> ContinuousClock.Instant = { .now }
    ) -> Int32 {
        descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, count: $0.count, until: deadline, now: now) }
    }

    /// poll(2)'s timeout for `deadline`: rounded up, so a wait never ends before it; at most
    /// Int32.max; 0 for a deadline passed; -1 for none.
    package static func milliseconds(until deadline: ContinuousClock.Instant?, now: () -> ContinuousClock.Instant)
        -> Int32
    {
        guard let deadline else { return -1 }
        let remaining = deadline - now()
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let total = seconds.multipliedReportingOverflow(by: 1000)
        guard !total.overflow, total.partialValue < Int64(Int32.max) else { return Int32.max }
        let rounded = total.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(rounded, Int64(Int32.max)))
    }

    /// Sleeps for `duration` (nanosleep; a signal may end it early, which every caller
    /// tolerates: each looks again at what it waits for).
    package static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        nanosleep(&time, nil)
    }
}
