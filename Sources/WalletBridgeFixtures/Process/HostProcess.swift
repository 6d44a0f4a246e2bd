#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Glibc
import Synchronization
import WalletBridge
import WalletBridgeSystem
import WalletBridgeClient

/// A host executable run as a real child process over real pipes: the way a browser runs it.
/// Every read is bounded by a deadline, and output that a browser would not accept as frames
/// (stray bytes, a frame cut off, a frame over the browsers' 1 MiB) is an error, not a guess.
public final class HostProcess {
    /// What can go wrong talking to the process.
    public enum Failure: Error, CustomStringConvertible {
        case timedOut(String)
        case spawnFailed(String)
        /// Writing to the host's stdin failed: it closed it or exited.
        case inputClosed(errno: Int32)
        /// Output a browser would not take as frames: stray bytes, a frame cut off, a header
        /// announcing more than browsers accept (text on stdout, usually).
        case notFrames(FrameFault)

        public var description: String {
            switch self {
            case .timedOut(let what): "timed out waiting for \(what)"
            case .spawnFailed(let why): "could not start the host: \(why)"
            case .inputClosed(let code): "the host stopped reading its stdin (\(String(cString: strerror(code))))"
            case .notFrames(let fault): fault.description
            }
        }
    }

    /// The host's process ID, for signals.
    public let pid: pid_t
    /// Our ends of the host's stdin and stdout pipes (-1 once closed), for tests that look at them.
    public private(set) var stdinFD: Int32
    public private(set) var stdoutFD: Int32
    /// Read, and closed at its end, by the reader that drains it.
    private let stderrFD: Int32
    /// Reads the host's stdout (only: what goes to stdin is written here, perhaps from another
    /// thread), with its deadlines and its diagnoses of output that is not frames.
    private let output: Connection
    private var exitStatus: Int32?

    /// Starts `executable` with `arguments` after argv[0], this process's environment plus
    /// `environment`, and `WALLET_BRIDGE_LOG=error` unless either sets it. `isolated` leaves out
    /// the `WALLET_BRIDGE_*` and `XDG_*` variables of this process's own environment, for the
    /// shipped binary run against a scratch `HOME`. `workingDirectory` nil keeps this process's.
    public init(
        executable: String, arguments: [String] = [], environment: [String: String] = [:], isolated: Bool = false,
        workingDirectory: String? = nil
    ) throws {
        // A host that exits while a background writer still feeds its stdin must give that
        // writer EPIPE, not SIGPIPE: the signal's default action killed the whole test run.
        signal(SIGPIPE, SIG_IGN)
        var env = ProcessInfo.processInfo.environment
        if isolated { env = env.filter { !$0.key.hasPrefix("WALLET_BRIDGE_") && !$0.key.hasPrefix("XDG_") } }
        env["WALLET_BRIDGE_LOG"] = env["WALLET_BRIDGE_LOG"] ?? "error"
        for (key, value) in environment { env[key] = value }

        let input = try Spawn.pipe(), output = try Spawn.pipe(), errors = try Spawn.pipe()
        let started = Result { () throws(Spawn.Failure) in
            try Spawn.start(
                executable, arguments: arguments, standardStreams: [input.read, output.write, errors.write],
                environment: env,
                workingDirectory: workingDirectory)
        }
        close(input.read); close(output.write); close(errors.write)
        guard case .success(let child) = started else {
            close(input.write); close(output.read); close(errors.read)
            let reason = if case .failure(let failure) = started { failure.reason } else { "" }
            throw Failure.spawnFailed("\(executable): \(reason)")
        }
        pid = child
        stdinFD = input.write
        stdoutFD = output.read
        stderrFD = errors.read
        self.output = Connection(
            input: output.read, output: input.write, maxFrameBytes: Frame.maxOutboundBytes, now: { .now })
        // Drain stderr continuously so a chatty host never blocks on a full pipe. A serial queue
        // of its own gets a thread of its own (libdispatch's overcommit pool), and neither takes
        // one of the concurrency pool's nor needs Foundation's `Thread`: the shipped binary links
        // this library, and no Foundation beyond FoundationEssentials.
        DispatchQueue(label: "wallet-bridge.host-stderr").async { [stderrFD, stderrBox, stderrDone] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(stderrFD, &chunk, chunk.count)
                if count <= 0 { break }
                stderrBox.append(chunk[0..<count])
            }
            close(stderrFD)  // this reader's alone: a long run of hosts must not run out of descriptors
            stderrDone.signal()
        }
    }

    private let stderrBox = ByteBox()
    private let stderrDone = DispatchSemaphore(value: 0)

    /// What the host wrote on stderr so far.
    public var stderrText: String { String(decoding: stderrBox.bytes, as: UTF8.self) }

    deinit {
        if exitStatus == nil { kill(pid, SIGKILL); _ = try? waitForExit(timeout: 5) }
        if stdinFD >= 0 { close(stdinFD) }
        if stdoutFD >= 0 { close(stdoutFD) }
    }

    /// `body` with its 4-byte native-endian length in front (`Frame.encode`). A body of 4 GiB or
    /// more has no such length: a test that makes one stops here, as it always did.
    public static func frame(_ body: [UInt8]) -> [UInt8] {
        do {
            return try Frame.encode(body)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Writes raw bytes to the host's stdin, all of them or an error.
    public func write(_ bytes: [UInt8]) throws { try Self.writeAll(bytes, to: stdinFD) }

    /// Writes on another thread, so the test can read replies while a large input still goes in
    /// (the host answers as it reads; both pipes would otherwise fill and deadlock).
    public func writeInBackground(_ bytes: [UInt8]) {
        let fd = stdinFD
        DispatchQueue(label: "wallet-bridge.host-stdin").async { try? Self.writeAll(bytes, to: fd) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws {
        if let code = bytes.withUnsafeBytes({ SystemCall.writeAll(fd, $0) }) {
            throw Failure.inputClosed(errno: code)
        }
    }

    /// Writes one frame.
    public func send(_ body: [UInt8]) throws { try write(Self.frame(body)) }
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Closes the host's stdin: what a browser does when the port disconnects.
    public func closeStdin() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    /// Closes our end of the host's stdout, as a browser that goes away does: the host's next
    /// write meets EPIPE.
    public func closeStdout() {
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
    }

    /// The next frame body, or nil at a clean end of output (between frames). Throws on
    /// timeout and on output that is not frames.
    public func readFrame(timeout: TimeInterval = 5) throws -> [UInt8]? {
        let deadline = ContinuousClock.now + .milliseconds(Int64((max(0, timeout) * 1000).rounded(.up)))
        do {
            return try output.nextFrame(until: deadline)
        } catch .fault(let fault) {
            throw Failure.notFrames(fault)
        } catch .timedOut(let received) {
            guard received.count >= Frame.headerBytes else { throw Failure.timedOut("a frame header") }
            let length = received.prefix(Frame.headerBytes).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            throw Failure.timedOut("a \(length)-byte frame body")
        } catch {
            // A read that failed ends the output as its end of file does.
            return nil
        }
    }

    /// Waits for the process to exit and returns its status (128+signal when killed).
    @discardableResult
    public func waitForExit(timeout: TimeInterval = 5) throws -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if Date() > deadline { throw Failure.timedOut("the host to exit") }
            usleep(2000)
        }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        exitStatus = code
        // stderr reaches end of file once the host (and anything that inherited it) is gone.
        _ = stderrDone.wait(timeout: .now() + 2)
        return code
    }
}

/// Bytes appended from one thread and read from another.
private final class ByteBox: Sendable {
    private let storage = Mutex<[UInt8]>([])
    func append(_ bytes: ArraySlice<UInt8>) { storage.withLock { $0.append(contentsOf: bytes) } }
    var bytes: [UInt8] { storage.withLock { $0 } }
}
