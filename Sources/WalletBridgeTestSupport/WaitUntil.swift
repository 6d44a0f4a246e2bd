#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import XCTest

/// How a test waits for what another thread or process does: it names the condition and how
/// long it may take, and this looks again every few milliseconds until it holds. Never a sleep
/// that hopes the thing has happened by then: on a loaded machine it may not have, and on an
/// idle one the sleep is time lost. A condition that never holds fails the test at the caller's
/// line, naming `what`, and throws, so that the test goes no further.
package func waitUntil(
    _ what: @autoclosure () -> String, within timeout: Duration = .seconds(10), file: StaticString = #filePath,
    line: UInt = #line, _ condition: () throws -> Bool
) throws {
    let deadline = ContinuousClock.now + timeout
    while !(try condition()) {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what(), timeout, file: file, line: line) }
        usleep(UInt32(lookAgainAfter / .microseconds(1)))
    }
}

/// `waitUntil` for a condition that awaits (an actor's state), waiting without holding a thread.
package func waitUntil(
    _ what: @autoclosure () -> String, within timeout: Duration = .seconds(10), file: StaticString = #filePath,
    line: UInt = #line, _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !(try await condition()) {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what(), timeout, file: file, line: line) }
        try await Task.sleep(for: lookAgainAfter)
    }
}

/// `waitUntil` for a condition that changes only when `wake` is signalled (each time a thread
/// the test watches did something): it looks again at each signal instead of every few
/// milliseconds, and at the deadline, once more, before it fails.
package func waitUntil(
    _ what: @autoclosure () -> String, within timeout: Duration = .seconds(10), wokenBy wake: DispatchSemaphore,
    file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool
) throws {
    let deadline = DispatchTime.now() + .nanoseconds(Int(timeout / .nanoseconds(1)))
    while !(try condition()) {
        let woken = wake.wait(timeout: deadline) == .success
        guard try woken || condition() else {
            throw WaitTimedOut(what(), timeout, file: file, line: line)
        }
    }
}

/// Short beside any deadline a test states, long enough not to take a core from what it waits for.
private let lookAgainAfter: Duration = .milliseconds(5)

/// A condition that did not hold in time; recorded as the test's failure when made.
package struct WaitTimedOut: Error, CustomStringConvertible {
    package let description: String

    init(_ what: String, _ timeout: Duration, file: StaticString, line: UInt) {
        description = "timed out after \(timeout) waiting until \(what)"
        XCTFail(description, file: file, line: line)
    }
}

/// Waits until a file written in `folder` now is stamped (st_mtim) later than `time`: the
/// file system stamps files from a coarse clock, which may still show a time before `time`
/// for a few milliseconds. A test that needs a change to show as one, or a file to be newer
/// than something, waits for this instead of sleeping for a guess at the clock's tick.
/// `folder`: one on the same file system as the files compared, and not one the code under test
/// looks at (the probe file it writes there changes the folder).
package func waitUntilFilesAreStamped(
    after time: timespec, in folder: String, file: StaticString = #filePath, line: UInt = #line
) throws {
    let probe = "\(folder)/.clock-probe"
    defer { unlink(probe) }
    try waitUntil("a file written in \(folder) is stamped after \(time)", file: file, line: line) {
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        _ = write(fd, "x", 1)
        close(fd)
        var info = stat()
        guard stat(probe, &info) == 0 else { return false }
        return (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) > (time.tv_sec, time.tv_nsec)
    }
}
