#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeSystem

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
            let bytes = FileSystem.readPrefix(path, limit: 256), bytes.starts(with: Array("#!".utf8))
        else {
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
            words +=
                ", and the line ends in a carriage return (\\r: the script has Windows line ends), so the kernel looks for \(JSONText.quoted(bare + "\r")), which does not exist; convert the script to Unix line ends (dos2unix, or sed -i 's/\\r$//')"
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
        var pipes: [(read: Int32, write: Int32)] = []
        for _ in 0..<3 {
            do {
                pipes.append(try Spawn.pipe())
            } catch {
                for pair in pipes { _ = close(pair.read); _ = close(pair.write) }
                throw NativeHostError(.cannotStart(path: command.path, reason: error.reason))
            }
        }
        let (input, output, errors) = (pipes[0], pipes[1], pipes[2])
        let started: Result<pid_t, Spawn.Failure> = Result { () throws(Spawn.Failure) in
            try Spawn.start(
                command.path, arguments: command.launch.arguments,
                standardStreams: [input.read, output.write, errors.write],
                environment: command.environment, workingDirectory: command.workingDirectory)
        }
        _ = close(input.read)
        _ = close(output.write)
        _ = close(errors.write)
        let child: pid_t
        switch started {
        case .success(let pid):
            child = pid
        case .failure(let failure):
            _ = close(input.write)
            _ = close(output.read)
            _ = close(errors.read)
            throw NativeHostError(
                .cannotStart(path: command.path, reason: Self.startFailure(command.path, code: failure.code)))
        }
        pid = child
        stdinFD = input.write
        stdoutFD = output.read
        stderrFD = errors.read
        for fd in [stdinFD, stdoutFD, stderrFD] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        closeInput()
        if stdoutFD >= 0 { close(stdoutFD) }
        if stderrFD >= 0 { close(stderrFD) }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = SystemCall.retryingInterrupts { waitpid(pid, &status, 0) }
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
        _ = SystemCall.retryingInterrupts { waitpid(pid, &status, 0) }
        exitStatus = ExitStatus(raw: status)
        return exitStatus!
    }

}
