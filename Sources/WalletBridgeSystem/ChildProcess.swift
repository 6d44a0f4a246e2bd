#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A helper program (pinentry) started with posix_spawn, talking over one socket that is its
/// stdin and stdout. Registered with `ChildProcesses` for as long as it may be running, so the
/// host's SIGTERM handler terminates it too.
///
/// A socket rather than two pipes: writes use `send(MSG_NOSIGNAL)`, so a helper that died turns
/// into an EPIPE here, not a SIGPIPE that kills whoever spawned it (a test runner, say).
package final class ChildProcess: Sendable {
    package enum SpawnError: Error, Equatable {
        /// posix_spawn failed: `errno` says why (ENOENT: no such program).
        case failed(program: String, errno: Int32)
    }

    package let pid: pid_t
    /// Our end of the socket. Closed by `close()`.
    package let fd: Int32
    /// Whether the pid was reaped: after that it may belong to another process and must never
    /// be signalled. Checked and changed only under this lock.
    private let reaped = Mutex(false)

    private init(pid: pid_t, fd: Int32) {
        self.pid = pid
        self.fd = fd
    }

    /// Starts `program` (searched in PATH when it has no slash) with `arguments`.
    package static func spawn(_ program: String, arguments: [String] = []) throws(SpawnError) -> ChildProcess {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw .failed(program: program, errno: errno)
        }
        let (ours, theirs) = (sockets[0], sockets[1])
        let pid: pid_t
        do {
            pid = try Spawn.start(program, arguments: arguments, standardStreams: [theirs, theirs], searchPath: true)
        } catch {
            Glibc.close(theirs)
            Glibc.close(ours)
            throw .failed(program: program, errno: error.code)
        }
        Glibc.close(theirs)
        ChildProcesses.register(pid)
        return ChildProcess(pid: pid, fd: ours)
    }

    /// Sends `signal` unless the process was already reaped.
    package func signal(_ signalNumber: Int32) {
        reaped.withLock { reaped in
            if !reaped { _ = kill(pid, signalNumber) }
        }
    }

    /// Reaps the process, giving it `grace` to exit on its own and then killing it.
    package func waitForExit(grace: Duration) {
        let deadline = ContinuousClock.now + grace
        var killed = false
        while true {
            let done: Bool = reaped.withLock { reaped in
                if reaped { return true }
                // Look without reaping first, so the pid leaves ChildProcesses while it still
                // cannot be reused: the host's SIGTERM handler must never hit a stranger.
                var info = siginfo_t()
                let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
                if result == 0, info._sifields._sigchld.si_pid == pid {
                    ChildProcesses.unregister(pid)
                    var status: Int32 = 0
                    _ = waitpid(pid, &status, 0)
                    reaped = true
                    return true
                }
                if result != 0, errno == ECHILD {
                    ChildProcesses.unregister(pid)
                    reaped = true
                    return true
                }
                return false
            }
            if done { return }
            if !killed, ContinuousClock.now >= deadline {
                signal(SIGKILL)
                killed = true
            }
            usleep(5_000)
        }
    }

    /// Writes all of `bytes`. False when the helper has gone away.
    package func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        SystemCall.sendAll(fd, bytes) == nil
    }

    package func close() { _ = Glibc.close(fd) }
}
