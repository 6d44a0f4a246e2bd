#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// The one way this package starts a child process: pinentry for the wallet, a host for `call`,
/// the hosts under test. posix_spawn, with the given descriptors as the child's stdin, stdout and
/// stderr, the default disposition for the signals a parent may ignore or block, an empty signal
/// mask, and no other descriptor: ours are close-on-exec, and any this process inherited without
/// it (a test runner's pipes, say) are closed in the child too. An agent that kept a copy of a
/// pipe's write end would keep its reader waiting for the end of the output.
package enum Spawn {
    /// posix_spawn or pipe2 failed; `code` is the errno value (ENOENT: no such program).
    package struct Failure: Error, Equatable {
        package let code: Int32
        package var reason: String { String(cString: strerror(code)) }
    }

    /// Starts `program` with `arguments` (argv[0] is `program`) and returns its pid.
    /// - `standardStreams`: the descriptors that become the child's 0, 1 and 2, in that order
    ///   (fewer leave the rest as they are; one may appear twice).
    /// - `environment`: nil passes this process's own.
    /// - `searchPath`: look `program` up in PATH when it has no slash, as a shell would.
    /// - `workingDirectory`: nil keeps this process's.
    /// - `newSession`: the child leads a session of its own (setsid), so that no signal sent to
    ///   this process's group or session reaches it: for the agent a host starts, which must
    ///   outlive the host.
    package static func start(
        _ program: String, arguments: [String] = [], standardStreams: [Int32], environment: [String: String]? = nil,
        searchPath: Bool = false, workingDirectory: String? = nil, newSession: Bool = false
    ) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copies: the child keeps these and nothing else.
        for (target, source) in standardStreams.enumerated() {
            posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
        }
        // Linked directly (declared in CLinux), not looked up with dlsym, which finds nothing in
        // the fully static shipped binary; and no chdir in this multi-threaded process.
        if let workingDirectory { _ = posix_spawn_file_actions_addchdir_np(&actions, workingDirectory) }
        _ = posix_spawn_file_actions_addclosefrom_np(&actions, Int32(max(standardStreams.count, 3)))

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The host ignores SIGPIPE, and a host built from the library may ignore or block other
        // signals; an ignored disposition and a blocked mask survive exec. Without this a helper
        // might never see the very SIGTERM meant to stop it, and a host under `call` would not
        // start the way a browser starts it.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGALRM] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (newSession ? POSIX_SPAWN_SETSID : 0)))

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { variables in
            variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = (envp ?? []).withUnsafeBufferPointer { envpBuffer in
            let environmentPointer = envp == nil ? environ : UnsafeMutablePointer(mutating: envpBuffer.baseAddress)
            return searchPath
                ? posix_spawnp(&pid, program, &actions, &attributes, argv, environmentPointer)
                : posix_spawn(&pid, program, &actions, &attributes, argv, environmentPointer)
        }
        guard status == 0 else { throw Failure(code: status) }
        return pid
    }

    /// A pipe whose ends are close-on-exec (and non-blocking if asked) from the start.
    package static func pipe(nonBlocking: Bool = false) throws(Failure) -> (read: Int32, write: Int32) {
        // A tuple, not an array: every host makes a pipe at start (its wake-up pipe), and an
        // `[Int32]` was a generic type for the runtime to build on every cold start.
        var ends: (Int32, Int32) = (-1, -1)
        let status = withUnsafeMutableBytes(of: &ends) {
            pipe2($0.baseAddress!.assumingMemoryBound(to: Int32.self), O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0))
        }
        guard status == 0 else { throw Failure(code: errno) }
        return ends
    }
}

/// How a child process ended, from `waitpid`'s status word.
package struct ExitStatus: Sendable, Equatable, CustomStringConvertible {
    package let raw: Int32

    package init(raw: Int32) { self.raw = raw }

    package var exitCode: Int32? { raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil }
    package var signal: Int32? { raw & 0x7F == 0 ? nil : raw & 0x7F }

    package var description: String {
        if let exitCode { return "exited with status \(exitCode)" }
        let number = signal ?? 0
        let name = strsignal(number).map { String(cString: $0) } ?? "signal"
        return "was killed by signal \(number) (\(name))"
    }
}
