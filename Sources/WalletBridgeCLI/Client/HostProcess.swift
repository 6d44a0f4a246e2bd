#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// How a browser starts a native host: the arguments after the path.
enum BrowserLaunch: Sendable, Equatable, CustomStringConvertible {
    /// Chrome family: argv[1] is the caller's origin.
    case chrome(origin: String)
    /// Firefox family: argv[1] is the manifest's absolute path, argv[2] the add-on ID.
    case firefox(manifestPath: String, addonID: String)

    /// Stand-ins for a caller when none is given: well-formed, and obviously not a real one.
    static let placeholderOrigin = "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"
    static let placeholderAddonID = "wallet-bridge-call@placeholder"

    var arguments: [String] {
        switch self {
        case .chrome(let origin): [origin]
        case .firefox(let manifestPath, let addonID): [manifestPath, addonID]
        }
    }

    var description: String {
        switch self {
        case .chrome(let origin): "as Chrome for \(origin)"
        case .firefox(_, let addonID): "as Firefox for \(addonID)"
        }
    }
}

/// What to start, exactly as the browser would: this path, these arguments, the binary's
/// folder as working directory, and the caller's environment.
struct HostCommand: Sendable {
    var path: String
    var launch: BrowserLaunch
    var environment: [String: String]

    var workingDirectory: String { Path.parent(path) }
}

/// How a process ended, from `waitpid`'s status word.
struct ExitStatus: Sendable, Equatable, CustomStringConvertible {
    let raw: Int32

    var exitCode: Int32? { raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil }
    var signal: Int32? { raw & 0x7F == 0 ? nil : raw & 0x7F }

    var description: String {
        if let exitCode { return "exited with status \(exitCode)" }
        let number = signal ?? 0
        let name = strsignal(number).map { String(cString: $0) } ?? "signal"
        return "was killed by signal \(number) (\(name))"
    }
}

/// A started host with pipes on stdin, stdout and stderr. The descriptors are non-blocking;
/// `HostConnection` does the reading and writing.
final class HostProcess {
    let pid: pid_t
    private(set) var stdinFD: Int32
    private(set) var stdoutFD: Int32
    private(set) var stderrFD: Int32
    private(set) var exitStatus: ExitStatus?

    /// Why the kernel refused to run `path`. ENOENT for a file that exists means its `#!`
    /// interpreter is missing: name that interpreter (and a carriage return at the end of the
    /// line, a script saved with Windows line ends), not "No such file or directory".
    static func startFailure(_ path: String, code: Int32) -> String {
        let reason = String(cString: strerror(code))
        guard code == ENOENT || code == EACCES, FileSystem.status(path)?.kind == .file,
              let bytes = FileSystem.readPrefix(path, limit: 256), bytes.starts(with: Array("#!".utf8)) else {
            if code == EACCES, let blocked = FileSystem.untraversableAncestor(of: path) {
                return "\(reason): you may not enter the folder \(blocked)"
            }
            return reason
        }
        let line = bytes.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }
        let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        let interpreterBytes = trimmed.prefix { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
        let endsInCR = line.last == UInt8(ascii: "\r")
        var words = "its #! line names the interpreter \(JSONText.preview(interpreterBytes, limit: 200))"
        if endsInCR {
            let bare = String(decoding: interpreterBytes.filter { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
            words += ", and the line ends in a carriage return (\\r: the script has Windows line ends), so the kernel looks for \(JSONText.quoted(bare + "\r")), which does not exist; convert the script to Unix line ends (dos2unix, or sed -i 's/\\r$//')"
        } else if code == ENOENT {
            words += ", which does not exist; install it or correct the #! line"
        } else {
            words += ", which you may not execute"
        }
        return "\(reason) (\(words))"
    }

    /// Starts `command` with posix_spawn. Fails, with the C library's reason, when the kernel
    /// refuses to run the file (missing, not executable, a folder, a bad `#!` line).
    init(_ command: HostCommand) throws(NativeHostError) {
        // A host that dies before reading its input must give us EPIPE, not kill us.
        signal(SIGPIPE, SIG_IGN)
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                let code = errno
                for pair in pipes { pair.forEach { _ = close($0) } }
                throw NativeHostError(.cannotStart(path: command.path, reason: String(cString: strerror(code))))
            }
            // Close-on-exec everywhere: the child gets only the dup2'd copies as 0, 1 and 2.
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            pipes.append(ends)
        }
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Linked directly (declared in CLinux), not looked up with dlsym, which finds nothing
        // in the fully static shipped binary.
        _ = posix_spawn_file_actions_addchdir_np(&actions, command.workingDirectory)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Browsers start hosts with default signal handling; we ignore SIGPIPE, and an ignored
        // disposition would otherwise survive exec.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = [command.path] + command.launch.arguments
        let envp = command.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let result = withCStrings(argv) { cArgv in
            withCStrings(envp) { cEnvp in
                posix_spawn(&child, command.path, &actions, &attributes, cArgv, cEnvp)
            }
        }
        _ = close(input[0])
        _ = close(output[1])
        _ = close(errors[1])
        guard result == 0 else {
            _ = close(input[1])
            _ = close(output[0])
            _ = close(errors[0])
            throw NativeHostError(.cannotStart(path: command.path, reason: Self.startFailure(command.path, code: result)))
        }
        pid = child
        stdinFD = input[1]
        stdoutFD = output[0]
        stderrFD = errors[0]
        for fd in [stdinFD, stdoutFD, stderrFD] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        closeInput()
        if stdoutFD >= 0 { close(stdoutFD) }
        if stderrFD >= 0 { close(stderrFD) }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }

    /// Closes the host's stdin: what a browser does when the port disconnects.
    func closeInput() {
        if stdinFD >= 0 {
            close(stdinFD)
            stdinFD = -1
        }
    }

    func closeOutput() {
        if stdoutFD >= 0 {
            close(stdoutFD)
            stdoutFD = -1
        }
    }

    func closeErrors() {
        if stderrFD >= 0 {
            close(stderrFD)
            stderrFD = -1
        }
    }

    /// The exit status if the process has ended; never blocks.
    @discardableResult
    func reap() -> ExitStatus? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exitStatus = ExitStatus(raw: status) }
        return exitStatus
    }

    /// Sends a signal unless the process has already been reaped (its pid may be reused).
    func send(signal number: Int32) {
        if reap() == nil { kill(pid, number) }
    }

    /// Blocks until the process ends. Only after SIGKILL, which it cannot ignore.
    func waitForExit() -> ExitStatus {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = ExitStatus(raw: status)
        return exitStatus!
    }

}

/// Runs `body` with a NULL-terminated C array of the strings, as execve wants.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
