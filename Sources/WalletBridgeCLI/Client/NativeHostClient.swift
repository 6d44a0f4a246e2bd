#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeSystem
import WalletBridgeClient

/// One host process, talked to the way a browser's port talks to it: frames in, frames out,
/// stderr collected. Every wait has a deadline; nothing here blocks without one. The frames and
/// the waits are `Connection`'s; this adds the process and its stderr.
///
/// Used by `doctor` (one request through each manifest) and by `call` (one request, or many
/// over several connections at once; see `HostConnection.pump(_:until:)`).
final class HostConnection {
    let command: HostCommand
    let process: HostProcess
    let connection: Connection
    private let stderr = StderrTail()

    static let stderrTailBytes = 4096

    init(_ command: HostCommand) throws(NativeHostError) {
        self.command = command
        process = try HostProcess(command)
        connection = Connection(
            input: process.stdoutFD, output: process.stdinFD, maxFrameBytes: Frame.maxOutboundBytes, now: { .now })
        // Drained with the replies, so that a chatty host never blocks on a full stderr pipe.
        connection.sideReaders = [
            (
                process.stderrFD,
                { [stderr, process] fd in
                    if stderr.read(fd) { return true }
                    process.closeErrors()
                    return false
                }
            )
        ]
    }

    /// The end of the host's stderr, as text.
    var stderrTail: String { String(decoding: stderr.bytes, as: UTF8.self) }

    /// The host closed its stdout.
    var stdoutEnded: Bool { connection.inputEnded }

    /// Queues one frame; `flush` or `pump` writes it as the host reads.
    func enqueue(_ body: [UInt8], id: RequestID?) {
        connection.send(body, id: id)
    }

    /// Writes all queued frames, reading stdout and stderr meanwhile so a host that answers
    /// while we write cannot deadlock us. A host that stopped reading is left to `receive`.
    func flush(until deadline: ContinuousClock.Instant, timeout: Duration) throws(NativeHostError) {
        do {
            try connection.flush(until: deadline)
        } catch .outputClosed {
            return
        } catch .timedOut {
            throw failure(.timedOut(timeout, waitingFor: "room in the host's stdin (it is not reading)"))
        } catch {
            throw failure(error, timeout: timeout)
        }
    }

    /// The next frame body the host writes, or the reason there will be none.
    func receive(until deadline: ContinuousClock.Instant, timeout: Duration) throws(NativeHostError) -> [UInt8] {
        let body: [UInt8]?
        do {
            body = try connection.nextFrame(until: deadline)
        } catch {
            throw failure(error, timeout: timeout)
        }
        guard let body else { throw failure(.exitedWithoutReply(waitForExit(until: .now + .seconds(2)))) }
        return body
    }

    /// A frame already read, if there is one. Throws when stdout cannot be frames.
    func nextFrame() throws(NativeHostError) -> [UInt8]? {
        do {
            return try connection.frame()
        } catch {
            throw failure(error, timeout: .zero)
        }
    }

    /// Ends the session as a browser does: close stdin, give the host `grace` to exit, then
    /// SIGTERM, then SIGKILL. Returns how it ended.
    @discardableResult
    func close(grace: Duration) -> ExitStatus {
        closeInput()
        if let status = waitForExit(until: .now + grace) { return status }
        process.send(signal: SIGTERM)
        if let status = waitForExit(until: .now + .seconds(1)) { return status }
        process.send(signal: SIGKILL)
        return process.waitForExit()
    }

    /// Closes the host's stdin, and forgets what was still to be written to it.
    func closeInput() {
        connection.discardOutput()
        process.closeInput()
    }

    /// Waits for the process to end, still draining its output, until `deadline`.
    func waitForExit(until deadline: ContinuousClock.Instant) -> ExitStatus? {
        while true {
            if let status = process.reap() {
                _ = Self.pump([self], until: .now)  // what it wrote just before exiting
                return status
            }
            if ContinuousClock.now >= deadline { return nil }
            // Short slices: waitpid cannot be polled, and the host may keep its pipes open.
            _ = Self.pump([self], until: min(deadline, .now + .milliseconds(10)))
        }
    }

    func failure(_ kind: NativeHostError.Kind) -> NativeHostError {
        NativeHostError(kind, stderrTail: stderrTail)
    }

    /// The words for what the connection met, as the browser would see it.
    func failure(_ error: Connection.Failure, timeout: Duration, waitingFor: String = "reply") -> NativeHostError {
        switch error {
        case .closed, .system, .outputClosed:
            return failure(.exitedWithoutReply(waitForExit(until: .now + .seconds(2))))
        case .fault(let fault):
            return failure(.fault(fault))
        case .timedOut(let received):
            return failure(.timedOut(timeout, waitingFor: waitingFor, received: received))
        case .notResponse(.notJSON(let reason), let body):
            return failure(.notJSON(reason: reason, bytes: body))
        case .notResponse(let problem, let body):
            return failure(.notJSONRPC(reason: problem.reason, bytes: body))
        case .unexpected(let id, let body):
            return failure(.notJSONRPC(reason: "id \(id) answers no request in flight", bytes: body))
        }
    }

    /// One round of I/O over several connections: waits (until `deadline`) for any of their
    /// pipes to be ready, then writes and reads what it can. False when the deadline passed
    /// with nothing ready. A failed read ends that host's stdout, as the end of file does.
    static func pump(_ connections: [HostConnection], until deadline: ContinuousClock.Instant) -> Bool {
        (try? Connection.pump(connections.map(\.connection), until: deadline)) ?? true
    }
}

/// The end of what a host writes on stderr: the last `HostConnection.stderrTailBytes` or more.
private final class StderrTail {
    private(set) var bytes: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

    /// Reads what is there; false at the end of file (or on an error, which ends it too).
    func read(_ fd: Int32) -> Bool {
        let count = chunk.withUnsafeMutableBytes { raw in
            SystemCall.retryingInterrupts { Glibc.read(fd, raw.baseAddress, raw.count) }
        }
        if count < 0 && errno == EAGAIN { return true }
        guard count > 0 else { return false }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > HostConnection.stderrTailBytes * 2 {
            bytes.removeFirst(bytes.count - HostConnection.stderrTailBytes)
        }
        return true
    }
}

extension Response.Parsed {
    /// A host's reply, checked the way an extension's client library would check it.
    init(reply body: [UInt8]) throws(NativeHostError) {
        do {
            self = try Response.parse(body, maxBytes: Frame.maxOutboundBytes)
        } catch .notJSON(let reason) {
            throw NativeHostError(.notJSON(reason: reason, bytes: body))
        } catch {
            throw NativeHostError(.notJSONRPC(reason: error.reason, bytes: body))
        }
    }
}
