#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeSystem

/// One host process, talked to the way a browser's port talks to it: frames in, frames out,
/// stderr collected. Every wait has a deadline; nothing here blocks without one.
///
/// Used by `doctor` (one request through each manifest) and by `call` (one request, or many
/// over several connections at once; see `HostConnection.pump(_:until:)`).
final class HostConnection {
    let command: HostCommand
    let process: HostProcess
    private var reader = ReplyReader()
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var stderrBytes: [UInt8] = []
    private(set) var stdoutEnded = false
    /// The host stopped reading (EPIPE): it exited or closed stdin.
    private(set) var inputBroken = false

    static let stderrTailBytes = 4096

    init(_ command: HostCommand) throws(NativeHostError) {
        self.command = command
        process = try HostProcess(command)
    }

    /// The end of the host's stderr, as text.
    var stderrTail: String { String(decoding: stderrBytes, as: UTF8.self) }

    /// Queues one frame; `pump` writes it as the host reads.
    func enqueue(_ body: [UInt8]) {
        // Bodies are JSON we built from a command line, far below 4 GiB.
        output.append(contentsOf: try! Frame.encode(body))
    }

    var hasPendingOutput: Bool { outputOffset < output.count }

    /// Writes all queued frames, reading stdout and stderr meanwhile so a host that answers
    /// while we write cannot deadlock us.
    func flush(until deadline: ContinuousClock.Instant, timeout: Duration) throws(NativeHostError) {
        while hasPendingOutput && !inputBroken {
            guard Self.pump([self], until: deadline) else {
                throw failure(.timedOut(timeout, waitingFor: "room in the host's stdin (it is not reading)"))
            }
        }
    }

    /// The next frame body the host writes, or the reason there will be none.
    func receive(until deadline: ContinuousClock.Instant, timeout: Duration) throws(NativeHostError) -> [UInt8] {
        while true {
            if let body = try nextFrame() { return body }
            if stdoutEnded { throw failure(.exitedWithoutReply(waitForExit(until: .now + .seconds(2)))) }
            if !Self.pump([self], until: deadline) {
                if let fault = reader.faultAtTimeout() { throw failure(.fault(fault)) }
                throw failure(.timedOut(timeout, waitingFor: "reply", received: reader.pendingBytes))
            }
        }
    }

    /// A frame already read, if there is one. Throws when stdout cannot be frames.
    func nextFrame() throws(NativeHostError) -> [UInt8]? {
        switch reader.next(atEnd: stdoutEnded) {
        case .frame(let body): return body
        case .needMore, .end: return nil
        case .fault(let fault): throw failure(.fault(fault))
        }
    }

    /// Ends the session as a browser does: close stdin, give the host `grace` to exit, then
    /// SIGTERM, then SIGKILL. Returns how it ended.
    @discardableResult
    func close(grace: Duration) -> ExitStatus {
        process.closeInput()
        if let status = waitForExit(until: .now + grace) { return status }
        process.send(signal: SIGTERM)
        if let status = waitForExit(until: .now + .seconds(1)) { return status }
        process.send(signal: SIGKILL)
        return process.waitForExit()
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

    /// One round of I/O over several connections: waits (until `deadline`) for any of their
    /// pipes to be ready, then writes and reads what it can. False when the deadline passed
    /// with nothing ready.
    static func pump(_ connections: [HostConnection], until deadline: ContinuousClock.Instant) -> Bool {
        var descriptors: [pollfd] = []
        var owners: [(HostConnection, Int32)] = []
        for connection in connections {
            for (fd, events) in connection.interests() {
                descriptors.append(pollfd(fd: fd, events: events, revents: 0))
                owners.append((connection, fd))
            }
        }
        let remaining = deadline - ContinuousClock.now
        let milliseconds = max(0, min(Int64(Int32.max), remaining.components.seconds * 1000 + (remaining.components.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
        let ready = descriptors.withUnsafeMutableBufferPointer { buffer in
            poll(buffer.baseAddress, nfds_t(buffer.count), Int32(milliseconds))
        }
        if ready < 0 { return errno == EINTR }
        if ready == 0 { return false }
        for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
            owners[index].0.service(fd: descriptor.fd, events: descriptor.revents)
        }
        return true
    }

    private func interests() -> [(Int32, Int16)] {
        var list: [(Int32, Int16)] = []
        if hasPendingOutput && !inputBroken && process.stdinFD >= 0 { list.append((process.stdinFD, Int16(POLLOUT))) }
        if process.stdoutFD >= 0 { list.append((process.stdoutFD, Int16(POLLIN))) }
        if process.stderrFD >= 0 { list.append((process.stderrFD, Int16(POLLIN))) }
        return list
    }

    private func service(fd: Int32, events: Int16) {
        if fd == process.stdinFD {
            writePending()
        } else if fd == process.stdoutFD {
            if let bytes = readAvailable(fd) { reader.append(bytes) } else { stdoutEnded = true; process.closeOutput() }
        } else if fd == process.stderrFD {
            if let bytes = readAvailable(fd) {
                stderrBytes.append(contentsOf: bytes)
                if stderrBytes.count > Self.stderrTailBytes * 2 { stderrBytes.removeFirst(stderrBytes.count - Self.stderrTailBytes) }
            } else {
                process.closeErrors()
            }
        }
    }

    private func writePending() {
        while hasPendingOutput {
            let written = output.withUnsafeBytes { raw in
                SystemCall.retryingInterrupts { write(process.stdinFD, raw.baseAddress! + outputOffset, raw.count - outputOffset) }
            }
            if written < 0 {
                if errno == EAGAIN { return }
                inputBroken = true  // EPIPE: the host is gone or closed stdin
                return
            }
            outputOffset += written
        }
        output.removeAll(keepingCapacity: true)
        outputOffset = 0
    }

    /// What can be read now; nil at end of file (or on an error, which ends the stream too).
    private func readAvailable(_ fd: Int32) -> [UInt8]? {
        var collected: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in SystemCall.retryingInterrupts { read(fd, raw.baseAddress, raw.count) } }
            if count > 0 {
                collected.append(contentsOf: chunk[0..<count])
                if collected.count >= 4 << 20 { return collected }  // let the reader look at it
                continue
            }
            if count < 0 && errno == EAGAIN { return collected }
            return collected.isEmpty ? nil : collected  // EOF (reported on the next read)
        }
    }
}

/// A JSON-RPC 2.0 response, checked the way an extension's client library would check it.
struct RPCReply: Sendable {
    enum Outcome: Sendable {
        case result(JSONValue)
        case error(code: Int, message: String)
    }

    var id: JSONValue
    var outcome: Outcome
    var body: [UInt8]

    init(parsing body: [UInt8]) throws(NativeHostError) {
        self.body = body
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw NativeHostError(.notJSON(reason: error.description, bytes: body))
        }
        func shape(_ reason: String) -> NativeHostError { NativeHostError(.notJSONRPC(reason: reason, bytes: body)) }
        guard case .object(let members) = value else { throw shape("a response is an object, this is \(value.typeName == "array" ? "an array" : "a \(value.typeName)")") }
        guard members["jsonrpc"] == .string("2.0") else { throw shape("\"jsonrpc\" must be \"2.0\"") }
        guard let id = members["id"], RequestID(id) != nil else { throw shape("no valid \"id\"") }
        self.id = id
        switch (members["result"], members["error"]) {
        case (let result?, nil):
            outcome = .result(result)
        case (nil, .object(let error)?):
            guard case .number(let number)? = error["code"], let code = Int(number.literal) else { throw shape("error.code must be an integer") }
            guard case .string(let message)? = error["message"] else { throw shape("error.message must be a string") }
            outcome = .error(code: code, message: message)
        case (nil, _?):
            throw shape("\"error\" must be an object")
        case (_?, _?):
            throw shape("both \"result\" and \"error\"")
        case (nil, nil):
            throw shape("neither \"result\" nor \"error\"")
        }
    }
}
