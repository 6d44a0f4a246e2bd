#if canImport(Glibc)
import Glibc
#endif

/// The two loops every POSIX caller writes, written once: retry a call a signal interrupted
/// (EINTR), and write a whole buffer through short writes. Poll loops keep their own EINTR
/// handling, since they recompute their timeout.
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
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, with write: (UnsafeRawPointer, Int) -> Int) -> Int32? {
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

    /// Sleeps for `duration` (nanosleep; a signal may end it early, which every caller
    /// tolerates: each looks again at what it waits for).
    package static func pause(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        nanosleep(&time, nil)
    }
}
