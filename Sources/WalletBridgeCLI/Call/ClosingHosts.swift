#if canImport(Glibc)
import Glibc
#endif

extension HostConnection {
    /// Ends several sessions at once, each as `close(grace:)` ends one (close stdin, wait its
    /// grace, SIGTERM, wait a second, SIGKILL), but with all the waits running together: ten
    /// hung hosts cost one grace, not ten. Output is drained meanwhile, so that a host blocked
    /// writing can still exit.
    static func close(_ sessions: [(connection: HostConnection, grace: Duration)]) {
        struct Pending {
            let connection: HostConnection
            var deadline: ContinuousClock.Instant
            var terminated = false
        }
        let start = ContinuousClock.now
        var pending: [Pending] = sessions.map { session in
            session.connection.closeInput()
            return Pending(connection: session.connection, deadline: start + session.grace)
        }
        while !pending.isEmpty {
            let now = ContinuousClock.now
            var next: [Pending] = []
            for var entry in pending {
                if entry.connection.process.reap() != nil {
                    _ = pump([entry.connection], until: now)  // what it wrote just before exiting
                    continue
                }
                if now >= entry.deadline {
                    if entry.terminated {
                        entry.connection.process.send(signal: SIGKILL)
                        _ = entry.connection.process.waitForExit()  // SIGKILL cannot be ignored
                        continue
                    }
                    entry.connection.process.send(signal: SIGTERM)
                    entry.terminated = true
                    entry.deadline = now + .seconds(1)
                }
                next.append(entry)
            }
            pending = next
            guard let soonest = pending.map(\.deadline).min() else { break }
            // Short slices: waitpid cannot be polled, and a host may keep its pipes open.
            _ = pump(pending.map(\.connection), until: min(soonest, ContinuousClock.now + .milliseconds(10)))
        }
    }
}
