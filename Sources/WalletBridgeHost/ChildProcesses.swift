#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Child processes (pinentry) that must not outlive the host.
package enum ChildProcesses {
    private static let live = Mutex<Set<pid_t>>([])

    package static func register(_ pid: pid_t) { _ = live.withLock { $0.insert(pid) } }
    package static func unregister(_ pid: pid_t) { _ = live.withLock { $0.remove(pid) } }

    /// Sends SIGTERM to every registered child.
    package static func terminateAll() {
        for pid in live.withLock({ $0 }) { kill(pid, SIGTERM) }
    }
}
