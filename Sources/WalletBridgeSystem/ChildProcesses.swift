#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Child processes (pinentry) that must not outlive the host.
///
/// A fixed table of atomic slots rather than a locked set: `terminateAll` must be safe in a
/// signal handler (the signal backstop), where taking a lock or allocating is not.
package enum ChildProcesses {
    /// Pinentry runs one at a time; a handful of slots is plenty.
    private static let capacity = 16
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<pid_t>> = {
        let slots = UnsafeMutablePointer<Atomic<pid_t>>.allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(0)) }
        return slots
    }()

    /// Makes the table now, so that the first use in a signal handler allocates nothing.
    package static func prepare() { _ = slots }

    /// Records `pid`. False when every slot is taken (then it is not ended with the host).
    @discardableResult
    package static func register(_ pid: pid_t) -> Bool {
        for index in 0..<capacity
        where slots[index].compareExchange(expected: 0, desired: pid, ordering: .acquiringAndReleasing).exchanged {
            return true
        }
        Log.warning("more than \(capacity) child processes at once; process \(pid) may outlive the host")
        return false
    }

    package static func unregister(_ pid: pid_t) {
        for index in 0..<capacity
        where slots[index].compareExchange(expected: pid, desired: 0, ordering: .acquiringAndReleasing).exchanged {
            return
        }
    }

    /// Sends SIGTERM to every registered child. Async-signal-safe once `prepare` has run.
    package static func terminateAll() {
        for index in 0..<capacity {
            let pid = slots[index].load(ordering: .acquiring)
            if pid > 0 { kill(pid, SIGTERM) }
        }
    }
}
