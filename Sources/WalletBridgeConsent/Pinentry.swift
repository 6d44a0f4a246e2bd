#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import WalletBridgeSystem
import WalletBridgeKeys

/// Asks for the passphrase with GnuPG's pinentry, which works without a terminal (a browser
/// starts the host with none) and draws its own dialog. Entering the passphrase is the consent;
/// Cancel refuses. A wrong passphrase is reported in the same dialog and asked again, up to
/// `maxAttempts` times.
public struct PinentrySource: PassphraseSource {
    /// The program: a path, or a name searched in PATH.
    public let program: String
    /// Passphrases accepted before giving up with `wrongPassphrase`.
    public let maxAttempts: Int

    /// What to tell the person when `program` cannot ask (see `PinentryChoice`).
    public let fix: String?

    /// The `wallet-bridge` executable that runs pinentry under `PinentryGuard`, which ends it
    /// if this process is killed; nil runs pinentry directly.
    package var guardExecutable: String?

    public init(program: String, maxAttempts: Int = 3, fix: String? = nil) {
        self.program = program
        self.maxAttempts = maxAttempts
        self.fix = fix
    }

    /// The source for `choice`.
    package init(_ choice: PinentryChoice, guardExecutable: String? = nil) {
        self.init(program: choice.program, fix: choice.fix)
        self.guardExecutable = guardExecutable
    }

    /// Pinentry conversations block on a pipe for as long as a person takes to answer, so they
    /// run here and never on the cooperative pool.
    private static let queue = DispatchQueue(label: "wallet-bridge.pinentry")

    /// Starts pinentry, shows `request`, and offers each passphrase typed to `attempt`.
    public func obtain<T: Sendable>(
        for request: ConsentRequest, attempt: @Sendable (SecureBytes) async throws -> T?
    ) async throws -> T {
        try await withConversation { conversation in
            try await converse(conversation, request: request, attempt: attempt)
        }
    }

    /// Shows `request` with Sign and Refuse buttons (Assuan's CONFIRM): consent while the keys
    /// are unlocked, with no passphrase. The third button (SETNOTOK), when there is one:
    /// "Refuse all from this extension" (`offersRefuseAll`, throws `RefusedAllFromCaller`), or
    /// else, when the request offers remembering, "Sign and allow" (answers `.remember`).
    public func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation {
        try await withConversation { conversation in
            try await Blocking.run(on: Self.queue) {
                try conversation.command("SETTITLE", request.title)
                try conversation.command("SETDESC", request.description(for: .confirmation))
                try? conversation.command("SETOK", "_Sign")
                try? conversation.command("SETCANCEL", "_Refuse")
                // Without an offer there is no third button, and "not confirmed" is a refusal.
                if request.offersRefuseAll {
                    let offered = (try? conversation.command("SETNOTOK", Self.refuseAllLabel)) != nil
                    switch try conversation.confirm() {
                    case .approved: return .once
                    case .notConfirmed where offered: throw RefusedAllFromCaller()
                    case .notConfirmed, .cancelled: throw ConsentRefusal.declined
                    }
                }
                let offered =
                    request.rememberMinutes.map {
                        (try? conversation.command("SETNOTOK", "Sign and _allow \($0) min")) != nil
                    } ?? false
                switch try conversation.confirm() {
                case .approved: return .once
                case .notConfirmed where offered: return .remember
                case .notConfirmed, .cancelled: throw ConsentRefusal.declined
                }
            }
        }
    }

    /// The third button of a dialog that offers to refuse everything from its caller.
    package static let refuseAllLabel = "Refuse _all from this extension"

    /// Shows `question` with its two buttons (Assuan's CONFIRM), and "Refuse all from this
    /// extension" as a third when it offers it.
    public func ask(_ question: ConsentQuestion) async throws -> Bool {
        try await withConversation { conversation in
            try await Blocking.run(on: Self.queue) {
                try conversation.command("SETTITLE", question.title)
                try conversation.command("SETDESC", question.description)
                try? conversation.command("SETOK", question.approve)
                try? conversation.command("SETCANCEL", question.reject)
                let offered =
                    question.offersRefuseAll && (try? conversation.command("SETNOTOK", Self.refuseAllLabel)) != nil
                switch try conversation.confirm() {
                case .approved: return true
                case .notConfirmed where offered: throw RefusedAllFromCaller()
                case .notConfirmed, .cancelled: return false
                }
            }
        }
    }

    /// Starts pinentry, runs `body` with the conversation, and ends it whatever happens: on
    /// cancellation the dialog is closed at once.
    private func withConversation<T: Sendable>(_ body: (PinentryConversation) async throws -> T) async throws -> T {
        try Task.checkCancellation()
        let program = self.program
        if PinentryChoice.needsTerminal(program), !PinentryChoice.hasTerminal {
            throw ConsentRefusal.unavailable(
                "\(program) asks only in a terminal, and the host has none (a browser starts it without one)", fix: fix)
        }
        let conversation: PinentryConversation
        do {
            conversation = try await Blocking.run(on: Self.queue) { [guardExecutable] in
                try PinentryConversation.start(program, guardedBy: guardExecutable)
            }
        } catch let failure as PinentryConversation.Failure {
            throw refusal(failure)
        }
        do {
            let result = try await withTaskCancellationHandler {
                try await body(conversation)
            } onCancel: {
                conversation.abort()
            }
            await conversation.finish(on: Self.queue)
            return result
        } catch {
            await conversation.finish(on: Self.queue)
            if Task.isCancelled { throw CancellationError() }
            if let failure = error as? PinentryConversation.Failure { throw refusal(failure) }
            throw error
        }
    }

    private func refusal(_ failure: PinentryConversation.Failure) -> ConsentRefusal {
        switch failure {
        case .cannotStart(let detail): .unavailable(detail, fix: fix)
        case .broken(let detail) where detail.contains("ERR \(Assuan.noTerminalCode)"):
            // pinentry-curses with no terminal, often as Debian's default `pinentry`.
            .unavailable(
                "\(program) could not ask: it needs a terminal or a display, and has neither (\(detail))", fix: fix)
        case .broken(let detail): .unavailable(detail, fix: fix)
        case .aborted: .declined
        }
    }

    private func converse<T: Sendable>(
        _ conversation: PinentryConversation, request: ConsentRequest,
        attempt: @Sendable (SecureBytes) async throws -> T?
    ) async throws -> T {
        try await Blocking.run(on: Self.queue) {
            try conversation.command("SETTITLE", request.title)
            try conversation.command("SETDESC", request.description(for: .passphrase))
            try conversation.command("SETPROMPT", request.prompt)
            // Older pinentries lack these; they only label the buttons, so a refusal is fine.
            try? conversation.command("SETOK", "_Sign")
            try? conversation.command("SETCANCEL", "_Cancel")
        }
        var errorText: String?
        for number in 1...maxAttempts {
            let shownError = errorText
            let passphrase = try await Blocking.run(on: Self.queue) { try conversation.getPin(error: shownError) }
            guard let passphrase else { throw ConsentRefusal.declined }
            if let result = try await attempt(passphrase) { return result }
            errorText = "Wrong passphrase (attempt \(number + 1) of \(maxAttempts))."
        }
        throw ConsentRefusal.wrongPassphrase
    }
}

/// One pinentry process and the Assuan conversation with it. Its methods block and run on the
/// pinentry queue; `abort` may be called from any thread to end them.
final class PinentryConversation: Sendable {
    enum Failure: Error {
        /// The program could not be started.
        case cannotStart(String)
        /// It started but answered with something other than what Assuan allows, went away,
        /// or refused a command: a pinentry that cannot show a dialog (pinentry-curses with
        /// no terminal) ends up here.
        case broken(String)
        /// `abort` was called.
        case aborted

    }

    private let process: ChildProcess
    private let program: String
    private let aborted = Atomic<Bool>(false)
    /// A Mutex only to make the class Sendable: the queue already serialises all use.
    private let lineBuffer = Mutex(SecureBytes(count: Assuan.maxLineBytes + 1))

    private init(process: ChildProcess, program: String) {
        self.process = process
        self.program = program
    }

    static func start(_ program: String, guardedBy guardExecutable: String? = nil) throws(Failure)
        -> PinentryConversation
    {
        let process: ChildProcess
        do {
            // Without its guard (the binary was removed since the agent started, say), pinentry
            // still asks: a dialog matters more than its cleanup after a kill.
            process =
                if let guardExecutable,
                    let guarded = try? ChildProcess.spawn(
                        guardExecutable, arguments: PinentryGuard.arguments(for: program))
                {
                    guarded
                } else {
                    try ChildProcess.spawn(program)
                }
        } catch {
            guard case .failed(_, let code) = error else { throw .cannotStart(program) }
            throw .cannotStart("cannot start the pinentry program \"\(program)\": \(String(cString: strerror(code)))")
        }
        let conversation = PinentryConversation(process: process, program: program)
        do {
            // The server speaks first: "OK Pleased to meet you".
            _ = try conversation.readUntilDone(collecting: nil)
        } catch {
            conversation.abort()
            process.close()
            process.waitForExit(grace: .milliseconds(500))
            throw error
        }
        return conversation
    }

    /// Sends `command` with a percent-escaped parameter and waits for its OK.
    func command(_ command: String, _ parameter: String) throws(Failure) {
        let line = "\(command) \(Assuan.escape(parameter, maxBytes: Assuan.maxLineBytes - command.utf8.count - 2))\n"
        try send(line)
        _ = try readUntilDone(collecting: nil)
    }

    /// Shows the dialog (with `error` above the field after a wrong attempt) and returns the
    /// passphrase, or nil when the person cancelled.
    func getPin(error: String?) throws(Failure) -> SecureBytes? {
        if let error { try command("SETERROR", error) }
        try send("GETPIN\n")
        let pin = SecureBytes(count: PassphraseInput.maxBytes)
        do {
            let length = try readUntilDone(collecting: pin)
            return pin.prefix(length)
        } catch .broken(let detail) where detail.hasPrefix("ERR ") {
            // Cancel, a closed window or a timeout: every ERR to GETPIN is a refusal. Other
            // codes (no display, no terminal) mean no dialog could be shown at all.
            if detail.hasPrefix("ERR \(Assuan.cancelledCode)") || detail.hasPrefix("ERR \(Assuan.notConfirmedCode)") {
                return nil
            }
            throw .broken("pinentry could not ask: \(detail)")
        }
    }

    /// A confirmation's outcome: OK, the NOTOK button ("not confirmed"), or Cancel (or a closed
    /// dialog).
    enum ConfirmOutcome { case approved, notConfirmed, cancelled }

    /// Shows a confirmation (CONFIRM) and returns which button the person pressed.
    func confirm() throws(Failure) -> ConfirmOutcome {
        try send("CONFIRM\n")
        do {
            _ = try readUntilDone(collecting: nil)
            return .approved
        } catch .broken(let detail) where detail.hasPrefix("ERR \(Assuan.notConfirmedCode)") {
            return .notConfirmed
        } catch .broken(let detail) where detail.hasPrefix("ERR \(Assuan.cancelledCode)") {
            return .cancelled
        }
    }

    /// Ends the conversation: BYE, close, and reap the process (killing it if it lingers).
    func finish(on queue: DispatchQueue) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                if !aborted.load(ordering: .relaxed) {
                    // Wait for BYE's OK before closing, so pinentry exits cleanly instead of
                    // failing to write it; a pinentry that does not answer is killed below.
                    try? send("BYE\n")
                    _ = try? readUntilDone(collecting: nil, deadline: .now + .seconds(2))
                }
                process.close()
                process.waitForExit(grace: .seconds(2))
                continuation.resume()
            }
        }
    }

    /// Stops a conversation from any thread: the blocked read notices within 100 ms, and the
    /// process gets SIGTERM (which makes a real pinentry close its dialog).
    func abort() {
        aborted.store(true, ordering: .relaxed)
        process.signal(SIGTERM)
    }

    private func send(_ line: String) throws(Failure) {
        var bytes = Array(line.utf8)
        guard bytes.withUnsafeBytes({ process.send($0) }) else { throw .broken("pinentry went away") }
        bytes.removeAll()
    }

    /// Reads lines until OK (returns the data length written into `data`) or ERR (throws
    /// `.broken("ERR …")`). `D` lines are decoded into `data`, or refused when none is
    /// expected; status lines and comments are skipped; an INQUIRE is answered with CAN.
    private func readUntilDone(collecting data: SecureBytes?, deadline: ContinuousClock.Instant? = nil) throws(Failure)
        -> Int
    {
        var dataLength = 0
        while true {
            let response: Assuan.Response = try lineBuffer.withLock { buffer throws(Failure) in
                let length = try readLine(into: buffer, deadline: deadline)
                return try buffer.withUnsafeBytes { raw throws(Failure) -> Assuan.Response in
                    let line = UnsafeRawBufferPointer(rebasing: raw[0..<length])
                    let response = Assuan.classify(line)
                    if response == .data {
                        guard let data else { throw .broken("pinentry sent data that was not asked for") }
                        let payload = UnsafeRawBufferPointer(rebasing: line[min(2, line.count)...])
                        let decoded = data.withUnsafeMutableBytes {
                            Assuan.decodeData(payload, into: $0, at: dataLength)
                        }
                        guard let decoded else { throw .broken("pinentry sent a malformed or oversized data line") }
                        dataLength = decoded
                    }
                    buffer.withUnsafeMutableBytes { Sodium.memzero($0) }  // may have held the passphrase
                    return response
                }
            }
            switch response {
            case .ok: return dataLength
            case .error(let code, let message): throw .broken("ERR \(code) \(message.prefix(200))")
            case .inquire: try send("CAN\n")
            case .data, .status, .comment: continue
            case .unknown: throw .broken("pinentry sent a line that is not Assuan")
            }
        }
    }

    /// Reads one line (without its LF) into `buffer`, a byte at a time so that nothing past the
    /// line is consumed and no copy of a data line lands in ordinary memory. Polls so that
    /// `abort` is noticed even if the process keeps its end open. No deadline by default: a
    /// person may take minutes, and the host's request timeout cancels the task if needed.
    private func readLine(into buffer: SecureBytes, deadline: ContinuousClock.Instant?) throws(Failure) -> Int {
        try buffer.withUnsafeMutableBytes { raw throws(Failure) -> Int in
            var length = 0
            while true {
                if aborted.load(ordering: .relaxed) { throw .aborted }
                if let deadline, ContinuousClock.now >= deadline { throw .broken("pinentry did not answer in time") }
                var descriptor = pollfd(fd: process.fd, events: Int16(POLLIN), revents: 0)
                let ready = SystemCall.poll(&descriptor, until: .now + .milliseconds(100))
                if ready < 0 { throw .broken("poll failed: \(String(cString: strerror(errno)))") }
                if ready == 0 { continue }
                let count = SystemCall.retryingInterrupts { Glibc.read(process.fd, raw.baseAddress! + length, 1) }
                if count < 0 {
                    if errno == EAGAIN { continue }
                    throw .broken("reading from pinentry failed: \(String(cString: strerror(errno)))")
                }
                if count == 0 {
                    throw aborted.load(ordering: .relaxed) ? .aborted : .broken("pinentry exited before answering")
                }
                if raw[length] == 0x0A {
                    if length > 0, raw[length - 1] == 0x0D { length -= 1 }
                    return length
                }
                length += 1
                guard length < raw.count else { throw .broken("pinentry sent a line longer than Assuan allows") }
            }
        }
    }
}
