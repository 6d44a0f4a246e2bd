#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge

/// A helper program (pinentry) started with posix_spawn, talking over one socket that is its
/// stdin and stdout. Registered with `ChildProcesses` for as long as it may be running, so the
/// host's SIGTERM handler terminates it too.
///
/// A socket rather than two pipes: writes use `send(MSG_NOSIGNAL)`, so a helper that died turns
/// into an EPIPE here, not a SIGPIPE that kills whoever spawned it (a test runner, say).
final class ChildProcess: Sendable {
    enum SpawnError: Error, Equatable {
        /// posix_spawn failed: `errno` says why (ENOENT: no such program).
        case failed(program: String, errno: Int32)
    }

    let pid: pid_t
    /// Our end of the socket. Closed by `close()`.
    let fd: Int32
    /// Whether the pid was reaped: after that it may belong to another process and must never
    /// be signalled. Checked and changed only under this lock.
    private let reaped = Mutex(false)

    private init(pid: pid_t, fd: Int32) {
        self.pid = pid
        self.fd = fd
    }

    /// Starts `program` (searched in PATH when it has no slash) with `arguments`.
    static func spawn(_ program: String, arguments: [String] = []) throws(SpawnError) -> ChildProcess {
        var sockets: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &sockets) == 0 else {
            throw .failed(program: program, errno: errno)
        }
        let (ours, theirs) = (sockets[0], sockets[1])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies: the child keeps fd 0 and 1 and nothing else.
        posix_spawn_file_actions_adddup2(&actions, theirs, 0)
        posix_spawn_file_actions_adddup2(&actions, theirs, 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The host ignores SIGPIPE, and a host built from the library may block or ignore other
        // signals; an ignored disposition and a blocked mask survive exec. Without this the
        // helper might never see the very SIGTERM meant to stop it.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        Glibc.close(theirs)
        guard status == 0 else {
            Glibc.close(ours)
            throw .failed(program: program, errno: status)
        }
        ChildProcesses.register(pid)
        return ChildProcess(pid: pid, fd: ours)
    }

    /// Sends `signal` unless the process was already reaped.
    func signal(_ signalNumber: Int32) {
        reaped.withLock { reaped in
            if !reaped { _ = kill(pid, signalNumber) }
        }
    }

    /// Reaps the process, giving it `grace` to exit on its own and then killing it.
    func waitForExit(grace: Duration) {
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
    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    func close() { _ = Glibc.close(fd) }
}
