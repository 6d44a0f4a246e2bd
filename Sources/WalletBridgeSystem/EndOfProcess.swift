import Synchronization

/// Work to do as the process ends on purpose (its input closed, a signal it caught, `agent
/// stop`), after its handlers have answered: what is kept in memory to be written later, such
/// as the audit log's counts of refusals (`AuditLog`). Not from a signal handler: a process
/// killed outright loses it.
package enum EndOfProcess {
    private static let work = Mutex<[@Sendable () -> Void]>([])

    /// `body` runs once, when the process ends.
    package static func register(_ body: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(body) }
    }

    /// Runs what was registered; `Session.end` and the agent's end call it.
    package static func run() {
        for body in work.withLock({ work in
            defer { work.removeAll() }; return work
        }) { body() }
    }
}
