#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization
import WalletBridge

/// Runs fixture cases against a host, as docs/fixtures.md ("How a case
/// runs") says, and says how each went. A case whose reply matched is then checked against the
/// host's own description (`rpc.discover`, fetched once per runner), unless that is turned off.
///
/// Blocking: every wait has a deadline (`timeout`, per frame), but the calling thread waits.
/// With a `.router` host, call it from a thread of its own, not from Swift's concurrency pool,
/// whose threads the router's handlers need (`runOnOwnThread`).
public final class FixtureRunner: Sendable {
    /// Sent after every case that keeps the host serving. No host registers an `rpc.` name, so
    /// every host answers it (-32601, or its policy's refusal), whatever its methods; any other
    /// frame, before that answer or after it until the end of output, is one too many. So a case
    /// proves that nothing else was sent and that the host still serves.
    public static let sentinelRequest = #"{"jsonrpc":"2.0","method":"rpc.wallet-bridge.sentinel","id":"sentinel"}"#

    /// The host every case runs against.
    public let host: HostUnderTest
    /// Seconds to wait for each frame, and for the host to exit.
    public let timeout: TimeInterval
    /// Whether a case whose reply matched is checked against the host's `rpc.discover` document.
    public let checksSchemas: Bool
    private let schemas = Mutex<SchemaChecks?>(nil)

    /// A runner for `host`; nothing is started until a case runs.
    public init(host: HostUnderTest, timeout: TimeInterval = 5, checkSchemas: Bool = true) {
        self.host = host
        self.timeout = timeout
        self.checksSchemas = checkSchemas
    }

    /// What concerns the run as a whole: that the schema checks cannot run, and why. Asks the
    /// host for its description if that has not happened yet.
    public var warnings: [String] {
        guard checksSchemas, let warning = schemaChecks().warning else { return [] }
        return [warning]
    }

    /// Runs every case of `files` whose `file#case` contains `filter` (all without one), file
    /// by file and in file order, handing each outcome to `progress` as it comes. A file with a
    /// selected case gets its own temporary folder for `{tmpdir}` and runs its `setup` cases
    /// first, once (docs/fixtures.md, "State").
    public func run(_ files: [FixtureFile], filter: String? = nil, progress: (CaseOutcome) -> Void = { _ in })
        -> FixtureReport
    {
        var report = FixtureReport()
        var cleanup: [String] = []
        for file in files {
            let selected = Self.selected([file], filter: filter)
            guard !selected.isEmpty else { continue }
            let state = FileRun(runner: self, setup: file.setup)
            for fixture in selected {
                let outcome = state.run(fixture)
                progress(outcome)
                report.outcomes.append(outcome)
            }
            if let warning = state.finish() { cleanup.append(warning) }
        }
        report.warnings = warnings + cleanup
        return report
    }

    /// The cases of `files` whose `file#case` contains `filter` (all without one), in order.
    /// Setup cases are never selected: they run with their file's cases.
    public static func selected(_ files: [FixtureFile], filter: String?) -> [FixtureCase] {
        files.flatMap(\.cases).filter { fixture in filter.map { fixture.id.contains($0) } ?? true }
    }

    /// `run(_:filter:progress:)` on a thread of its own, for async callers: the pool thread
    /// that awaits is free meanwhile, for the handlers of a `.router` host among others.
    public func runOnOwnThread(_ files: [FixtureFile], filter: String? = nil) async -> FixtureReport {
        await withCheckedContinuation { continuation in
            // A serial queue of its own runs on a thread of libdispatch's overcommit pool, not
            // on the concurrency pool's.
            DispatchQueue(label: "wallet-bridge.fixture-run").async {
                continuation.resume(returning: self.run(files, filter: filter))
            }
        }
    }

    /// Why `fixture` cannot run against this host, or nil when it can.
    public func reasonToSkip(_ fixture: FixtureCase) -> String? {
        guard host.executablePath == nil else { return nil }
        if case .stream = fixture.input {
            return "stream_base64 writes raw bytes, frame headers included: only a host process reads them"
        }
        if fixture.exitCode != nil {
            return "exit_code is about the host process's exit status: only a host process has one"
        }
        // HostConfiguration reads the environment of its own process (getenv): setting the case's
        // variables here would change the test process for every thread, and the router's
        // handlers may read variables of their own.
        if !fixture.environment.isEmpty {
            return
                "env (\(fixture.environment.keys.sorted().joined(separator: ", "))) sets environment variables, which only a host process takes"
        }
        return nil
    }

    /// Runs one case alone, as its file's only one: a fresh temporary folder, its file's setup
    /// cases, then the case in a session of its own.
    public func run(_ fixture: FixtureCase) -> CaseOutcome {
        let state = FileRun(runner: self, setup: fixture.setup)
        let outcome = state.run(fixture)
        guard let warning = state.finish() else { return outcome }
        return CaseOutcome(fixture: outcome.fixture, verdict: outcome.verdict, warnings: outcome.warnings + [warning])
    }

    /// Runs one case, setup or not, in a session of its own, `{tmpdir}` standing for `folder`.
    fileprivate func runSession(_ fixture: FixtureCase, temporaryFolder folder: String?) -> CaseOutcome {
        if let reason = reasonToSkip(fixture) {
            return CaseOutcome(fixture: fixture, verdict: .skipped(reason: reason))
        }
        var run = CaseRun(fixture: fixture, timeout: timeout)
        var session: (any HostSession)?
        do {
            let opened = try host.open(
                arguments: fixture.arguments, environment: fixture.environment(temporaryFolder: folder))
            session = opened
            try run.exchange(over: opened)
        } catch {
            run.problems.append("\(error)")
        }
        if !run.problems.isEmpty {
            if let tail = session?.stderrTail, !tail.isEmpty { run.problems.append("host stderr:\n\(tail)") }
            return CaseOutcome(fixture: fixture, verdict: .failed(problems: run.problems))
        }
        var warnings: [String] = []
        if checksSchemas, let check = schemaChecks().check, let request = fixture.input.json, case .object = request,
            let reply = run.reply, case .object = reply
        {
            let findings = check.check(request: request, response: reply)
            warnings = findings.warnings
            if !findings.failures.isEmpty {
                return CaseOutcome(
                    fixture: fixture, verdict: .failed(problems: findings.failures.map { "schema: \($0)" }),
                    warnings: warnings)
            }
        }
        return CaseOutcome(fixture: fixture, verdict: .passed, warnings: warnings)
    }

    private func schemaChecks() -> SchemaChecks {
        schemas.withLock { cached in
            if let cached { return cached }
            let made = SchemaChecks(host: host, timeout: timeout)
            cached = made
            return made
        }
    }
}

/// One run of one file's cases: its temporary folder, made when a case first needs it, and its
/// setup cases, run once before the first case; `finish` removes the folder.
private final class FileRun {
    let runner: FixtureRunner
    let setup: [FixtureCase]
    private var folder: TemporaryFolder?
    private var folderFailure: String?
    /// Why the cases cannot run (a setup case failed or cannot run here), once setup has run.
    private var setupVerdict: CaseOutcome.Verdict??

    init(runner: FixtureRunner, setup: [FixtureCase]) {
        (self.runner, self.setup) = (runner, setup)
    }

    func run(_ fixture: FixtureCase) -> CaseOutcome {
        if setupVerdict == nil { setupVerdict = runSetup() }
        if case let verdict?? = setupVerdict { return CaseOutcome(fixture: fixture, verdict: verdict) }
        // A case that cannot run is skipped before any folder is made for it.
        if runner.reasonToSkip(fixture) == nil, fixture.usesTemporaryFolder, let failure = makeFolder() {
            return CaseOutcome(fixture: fixture, verdict: .failed(problems: [failure]))
        }
        return runner.runSession(fixture, temporaryFolder: folder?.path)
    }

    /// Each setup case in order, until one does not pass: what every case of the file gets
    /// then, instead of running; nil when all passed.
    private func runSetup() -> CaseOutcome.Verdict? {
        for fixture in setup {
            if let reason = runner.reasonToSkip(fixture) {
                return .skipped(reason: "the file's setup case \(fixture.id) cannot run against this host: \(reason)")
            }
            if fixture.usesTemporaryFolder, let failure = makeFolder() { return .failed(problems: [failure]) }
            let outcome = runner.runSession(fixture, temporaryFolder: folder?.path)
            switch outcome.verdict {
            case .passed: continue
            case .skipped(let reason):
                return .skipped(reason: "the file's setup case \(fixture.id) cannot run against this host: \(reason)")
            case .failed(let problems):
                let rule = fixture.rule.map { " (\($0))" } ?? ""
                return .failed(
                    problems: ["the file's setup case \(fixture.id) failed\(rule), so this case did not run:"]
                        + problems)
            }
        }
        return nil
    }

    /// Makes the folder unless it is there; why it could not be made, otherwise nil.
    private func makeFolder() -> String? {
        if folder != nil { return nil }
        if let folderFailure { return folderFailure }
        do {
            folder = try TemporaryFolder()
            return nil
        } catch {
            folderFailure = error.description
            return folderFailure
        }
    }

    /// Removes the folder; why that failed, or nil.
    func finish() -> String? {
        defer { folder = nil }
        return folder?.remove()
    }
}

/// The host's description, ready to check replies against, or why there is none.
private struct SchemaChecks: Sendable {
    var check: OpenRPCCheck?
    var warning: String?

    init(host: HostUnderTest, timeout: TimeInterval) {
        do {
            let document = try HostDescription.fetch(from: host, timeout: timeout)
            do {
                check = try OpenRPCCheck(document: document)
            } catch {
                warning = "rpc.discover did not answer an OpenRPC document (\(error)): schema checks skipped"
            }
        } catch {
            warning = "\(error): schema checks skipped"
        }
    }
}

/// One case's exchange with the host, and what went wrong in it.
private struct CaseRun {
    let fixture: FixtureCase
    let timeout: TimeInterval
    var problems: [String] = []
    /// The reply as JSON, when one came and parsed.
    var reply: JSONValue?

    init(fixture: FixtureCase, timeout: TimeInterval) {
        (self.fixture, self.timeout) = (fixture, timeout)
    }

    mutating func exchange(over session: any HostSession) throws {
        do {
            switch fixture.input {
            case .stream(let bytes): try session.write(bytes)
            case let input: try session.send(input.frameBody ?? [])
            }
        } catch HostProcess.Failure.inputClosed where fixture.exitCode != nil {
            // A host that meets a framing error stops reading; what it says about it is the test.
        }

        if let exitCode = fixture.exitCode {
            session.closeInput()
            let frame = try read(session, "reply")
            check(frame)
            if frame != nil, let extra = try read(session, "end of output") {
                problems.append("a second frame where the fixture expects one at most: \(Self.preview(extra))")
            }
            if let status = try session.waitForExit(timeout: timeout), status != exitCode {
                problems.append("exit status \(status), expected \(exitCode)")
            }
            return
        }

        // The sentinel goes out only after the case's reply is in, so a slow reply cannot race it.
        if fixture.response != .null { check(try read(session, "reply")) }
        try session.send(Array(FixtureRunner.sentinelRequest.utf8))
        // Every frame but the sentinel's reply, up to the end of output, is one too many: a
        // reply where the fixture expects none, a second reply, or a late one (handlers answer
        // in any order, so it may come after the sentinel's).
        let unexpected = fixture.response == .null ? " (the fixture expects no reply to its input)" : ""
        while true {
            guard let frame = try read(session, "reply to the sentinel request sent after the case") else {
                problems.append(
                    "no reply to the sentinel request sent after the case: the host stopped serving (its output ended)")
                break
            }
            if Self.isSentinelReply(frame) { break }
            problems.append(
                "an unexpected frame before the reply to the sentinel request: \(Self.preview(frame))\(unexpected)")
        }
        session.closeInput()
        while let late = try read(session, "end of output after the end of input") {
            problems.append(
                "an unexpected frame after the reply to the sentinel request: \(Self.preview(late))\(unexpected)")
        }
        if let status = try session.waitForExit(timeout: timeout), status != 0 {
            problems.append("exit status \(status) after the end of input, expected 0")
        }
    }

    /// The next frame; a timeout says what was awaited.
    private func read(_ session: any HostSession, _ what: String) throws -> [UInt8]? {
        do {
            return try session.readFrame(timeout: timeout)
        } catch HostProcess.Failure.timedOut {
            throw HostProcess.Failure.timedOut("the \(what) (\(timeout) s)")
        }
    }

    /// Compares a reply (nil: the output ended) with the fixture's `response`.
    private mutating func check(_ frame: [UInt8]?) {
        let expected = fixture.response
        guard let frame else {
            if expected != .null {
                problems.append("the host's output ended without a reply; expected \(ReplyDiff.abbreviated(expected))")
            }
            return
        }
        guard expected != .null else {
            problems.append("expected no reply, got \(Self.preview(frame))")
            return
        }
        guard let actual = try? JSONParser.parse(frame, maxDepth: 512) else {
            problems.append("the reply is not JSON: \(Self.preview(frame))")
            return
        }
        reply = actual
        if !JSONSemantics.equal(actual, expected) {
            problems += ReplyDiff.problems(expected: expected, actual: actual)
        }
        let text = String(decoding: frame, as: UTF8.self)
        for fragment in fixture.responseTextIncludes where !text.contains(fragment) {
            problems.append(
                "the reply lacks the text \(JSONValue.string(fragment).compactText): \(Self.preview(frame))")
        }
    }

    /// A JSON-RPC response with the id "sentinel": a result or an error, either will do.
    static func isSentinelReply(_ frame: [UInt8]) -> Bool {
        guard case .object(let reply)? = try? JSONParser.parse(frame) else { return false }
        return reply["id"] == .string("sentinel") && (reply["result"] == nil) != (reply["error"] == nil)
    }

    static func preview(_ frame: [UInt8]) -> String {
        let text = String(decoding: frame.prefix(300), as: UTF8.self)
        return frame.count > 300 ? text + "… (\(frame.count) bytes)" : text
    }
}
