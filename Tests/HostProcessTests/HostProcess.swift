import Foundation
import Glibc
import WalletBridgeHost
import XCTest

/// A built executable of this package, run as a real child process over real pipes: the way a
/// browser runs the host. Every read is bounded by a deadline.
final class HostProcess {
    enum Failure: Error, CustomStringConvertible {
        case timedOut(String)
        case spawnFailed(String)
        var description: String {
            switch self {
            case .timedOut(let what): "timed out waiting for \(what)"
            case .spawnFailed(let why): "could not start the host: \(why)"
            }
        }
    }

    let pid: pid_t
    private(set) var stdinFD: Int32
    private(set) var stdoutFD: Int32
    let stderrFD: Int32
    private var outBuffer: [UInt8] = []
    private var exitStatus: Int32?

    /// The folder holding the package's built executables (the test bundle sits beside them).
    static var buildDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["WALLET_BRIDGE_BUILD_DIR"] {
            return URL(fileURLWithPath: override)
        }
        let me = URL(fileURLWithPath: try! FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        return me.deletingLastPathComponent()
    }

    static func executable(_ name: String) throws -> String {
        let path = buildDirectory.appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Failure.spawnFailed("\(path) is missing: run `swift build` before `swift test`")
        }
        return path
    }

    /// `isolated` leaves out the `WALLET_BRIDGE_*` and `XDG_*` variables of the test's own
    /// environment, for the shipped binary run against a scratch `HOME`.
    init(executable: String, arguments: [String] = [], environment: [String: String] = [:], isolated: Bool = false) throws {
        // A host that exits while a background writer still feeds its stdin must give that
        // writer EPIPE, not SIGPIPE: the signal's default action killed the whole test run.
        signal(SIGPIPE, SIG_IGN)
        var env = ProcessInfo.processInfo.environment
        if isolated { env = env.filter { !$0.key.hasPrefix("WALLET_BRIDGE_") && !$0.key.hasPrefix("XDG_") } }
        env["WALLET_BRIDGE_LOG"] = env["WALLET_BRIDGE_LOG"] ?? "error"
        for (key, value) in environment { env[key] = value }

        let input = try Spawn.pipe(), output = try Spawn.pipe(), errors = try Spawn.pipe()
        let started = Result { () throws(Spawn.Failure) in
            try Spawn.start(executable, arguments: arguments, standardStreams: [input.read, output.write, errors.write], environment: env)
        }
        close(input.read); close(output.write); close(errors.write)
        guard case .success(let child) = started else {
            close(input.write); close(output.read); close(errors.read)
            throw Failure.spawnFailed("posix_spawn: \(started)")
        }
        pid = child
        stdinFD = input.write
        stdoutFD = output.read
        stderrFD = errors.read
        // Drain stderr continuously so a chatty host never blocks on a full pipe.
        stderrReader = Thread { [stderrFD, stderrBox, stderrDone] in
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(stderrFD, &chunk, chunk.count)
                if count <= 0 { break }
                stderrBox.append(chunk[0..<count])
            }
            stderrDone.signal()
        }
        stderrReader.start()
    }

    private var stderrReader: Thread!
    private let stderrBox = ByteBox()
    private let stderrDone = DispatchSemaphore(value: 0)

    /// What the host wrote on stderr so far.
    var stderrText: String { String(decoding: stderrBox.bytes, as: UTF8.self) }

    deinit {
        if exitStatus == nil { kill(pid, SIGKILL); _ = try? waitForExit(timeout: 5) }
        if stdinFD >= 0 { close(stdinFD) }
        if stdoutFD >= 0 { close(stdoutFD) }
    }

    static func frame(_ body: [UInt8]) -> [UInt8] {
        var length = UInt32(body.count)
        return withUnsafeBytes(of: &length) { Array($0) } + body
    }

    func write(_ bytes: [UInt8]) throws { try Self.writeAll(bytes, to: stdinFD) }

    /// Writes on another thread, so the test can read replies while a large input still goes in
    /// (the host answers as it reads; both pipes would otherwise fill and deadlock).
    func writeInBackground(_ bytes: [UInt8]) {
        let fd = stdinFD
        Thread { try? Self.writeAll(bytes, to: fd) }.start()
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure.spawnFailed("write to host stdin: errno \(errno)")
            }
            offset += written
        }
    }

    func send(_ body: [UInt8]) throws { try write(Self.frame(body)) }
    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func closeStdin() {
        if stdinFD >= 0 { close(stdinFD); stdinFD = -1 }
    }

    /// Closes our end of the host's stdout, as a browser that goes away does: the host's next
    /// write meets EPIPE.
    func closeStdout() {
        if stdoutFD >= 0 { close(stdoutFD); stdoutFD = -1 }
    }

    /// Reads until `count` buffered bytes are available, or end of output (false).
    private func fill(_ count: Int, deadline: Date, what: String) throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while outBuffer.count < count {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure.timedOut(what) }
            var descriptor = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(min(remaining * 1000, 60_000)) + 1)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            let got = read(stdoutFD, &chunk, chunk.count)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { return false }
            outBuffer.append(contentsOf: chunk[0..<got])
        }
        return true
    }

    /// The next frame body, or nil at end of output. Throws on timeout.
    func readFrame(timeout: TimeInterval = 5) throws -> [UInt8]? {
        let deadline = Date().addingTimeInterval(timeout)
        guard try fill(4, deadline: deadline, what: "a frame header") else {
            XCTAssertTrue(outBuffer.isEmpty, "host wrote \(outBuffer.count) stray bytes that are not a frame")
            return nil
        }
        let length = outBuffer.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        guard try fill(4 + Int(length), deadline: deadline, what: "a \(length)-byte frame body") else {
            XCTFail("host output ended inside a frame (announced \(length) bytes, got \(outBuffer.count - 4))")
            return nil
        }
        let body = Array(outBuffer[4..<4 + Int(length)])
        outBuffer.removeFirst(4 + Int(length))
        return body
    }

    /// Waits for the process to exit and returns its status (128+signal when killed).
    @discardableResult
    func waitForExit(timeout: TimeInterval = 5) throws -> Int32 {
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
final class ByteBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []
    func append(_ bytes: ArraySlice<UInt8>) { lock.lock(); storage.append(contentsOf: bytes); lock.unlock() }
    var bytes: [UInt8] { lock.lock(); defer { lock.unlock() }; return storage }
}
