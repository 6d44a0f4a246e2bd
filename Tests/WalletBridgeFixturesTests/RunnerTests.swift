import Foundation
import WalletBridge
import WalletBridgeConformance
import WalletBridgeFixtures
import WalletBridgeWallet
import XCTest

/// The runner itself: in process (a router behind `Server`) and against processes that write
/// what no browser accepts.
final class RunnerTests: XCTestCase {
    static let repositoryFixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path

    /// The conformance host's router, as its main.swift builds it with no variables set.
    private static func conformanceRouter() throws -> Router {
        var router = Router()
        let keys = InMemoryTestWallet()
        try router.registerWallet(keys)
        try router.registerSessionMethods(TestSessions.service(keys: keys))
        try registerTestMethods(&router)
        return router
    }

    private func file(_ cases: String) throws -> FixtureFile {
        try FixtureFile.parse(
            JSONParser.parse(Array(#"{"cases": [\#(cases)]}"#.utf8)), path: "t.json", fileName: "t.json")
    }

    private func verdicts(_ report: FixtureReport) -> [String: CaseOutcome.Verdict] {
        Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.fixture.name, $0.verdict) })
    }

    /// Every shared fixture holds in process too, except those that need a process, which are
    /// skipped with the reason: the same runner, a different transport.
    func testTheSharedFixturesHoldAgainstARouterInProcess() throws {
        let runner = FixtureRunner(host: .router(try Self.conformanceRouter()))
        let report = runner.run(try FixtureFile.loadAll(Self.repositoryFixtures))
        let failures = report.outcomes.compactMap { outcome -> String? in
            guard case .failed(let problems) = outcome.verdict else { return nil }
            return "\(outcome.fixture.id): \(problems.joined(separator: "\n"))"
        }
        XCTAssertEqual(failures, [])
        XCTAssertGreaterThan(report.passed, 200)
        for outcome in report.outcomes {
            guard case .skipped(let reason) = outcome.verdict else { continue }
            let fixture = outcome.fixture
            var needsProcess = fixture.exitCode != nil || !fixture.environment.isEmpty
            if case .stream = fixture.input { needsProcess = true }
            XCTAssertTrue(needsProcess, "\(fixture.id) skipped without needing a process: \(reason)")
        }
        XCTAssertEqual(report.warnings, [], "the router answers rpc.discover, so the schema checks ran")
    }

    func testAWrongReplyFailsWithItsDiffAndCasesThatNeedAProcessAreSkipped() throws {
        let fixtures = try file(
            """
            {"name": "right", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1},
             "response": {"jsonrpc": "2.0", "id": 1, "result": 19}},
            {"name": "wrong-code", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [42], "id": 2},
             "response": {"jsonrpc": "2.0", "id": 2, "error": {"code": -32050, "message": "Invalid params"}}},
            {"name": "stream", "stream_base64": "AQAAAA==", "response": null, "exit_code": 1},
            {"name": "exit", "request": 1, "response": null, "exit_code": 0},
            {"name": "env", "env": {"WALLET_BRIDGE_MAX_BATCH": "1"}, "request": 1, "response": null}
            """)
        let report = FixtureRunner(host: .router(try Self.conformanceRouter())).run([fixtures])
        let verdicts = verdicts(report)
        XCTAssertEqual(verdicts["right"], .passed)
        guard case .failed(let problems)? = verdicts["wrong-code"] else {
            return XCTFail("\(String(describing: verdicts["wrong-code"]))")
        }
        XCTAssertEqual(problems.first, "error.code: expected -32050, got -32602")
        XCTAssertTrue(
            problems.contains { $0.hasPrefix("expected reply: ") }
                && problems.contains { $0.hasPrefix("actual reply:   ") }, "\(problems)")
        XCTAssertEqual(
            verdicts["stream"],
            .skipped(reason: "stream_base64 writes raw bytes, frame headers included: only a host process reads them"))
        XCTAssertEqual(
            verdicts["exit"],
            .skipped(reason: "exit_code is about the host process's exit status: only a host process has one"))
        XCTAssertEqual(
            verdicts["env"],
            .skipped(
                reason: "env (WALLET_BRIDGE_MAX_BATCH) sets environment variables, which only a host process takes"))
        XCTAssertEqual([report.passed, report.failed, report.skipped], [1, 1, 3])
    }

    /// `response: null` is checked with the sentinel: a reply where none is expected is a frame
    /// other than the sentinel's, before it or (handlers answer in any order) after it.
    func testAReplyWhereNoneIsExpectedFails() throws {
        let fixtures = try file(
            #"{"name": "n", "request": {"jsonrpc": "2.0", "method": "sum", "params": [1], "id": 1}, "response": null}"#)
        let outcome = FixtureRunner(host: .router(try Self.conformanceRouter())).run([fixtures]).outcomes[0]
        guard case .failed(let problems) = outcome.verdict else { return XCTFail("\(outcome.verdict)") }
        XCTAssertEqual(problems.count, 1, "\(problems)")
        let problem = try XCTUnwrap(problems.first)
        XCTAssertTrue(problem.hasPrefix("an unexpected frame "), problem)
        XCTAssertTrue(
            problem.hasSuffix(
                #" the reply to the sentinel request: {"jsonrpc":"2.0","id":1,"result":1} (the fixture expects no reply to its input)"#
            ), problem)
    }

    /// A method that answers with an error code it does not declare (outside the range any
    /// call may get) passes the reply comparison and fails the schema check; without schema
    /// checks it passes.
    func testSchemaChecksUseTheHostsOwnDescription() throws {
        enum Ping: RPCMethod {
            static let name = "ping"
            struct Result: Codable, Sendable { var pong: String }
        }
        var ping = Router()
        try ping.register(Ping.self) { _, _ in throw RPCError(code: 4050, message: "Empty ping") }
        let router = ping
        let fixtures = try file(
            """
            {"name": "undeclared", "request": {"jsonrpc": "2.0", "method": "ping", "id": 1},
             "response": {"jsonrpc": "2.0", "id": 1, "error": {"code": 4050, "message": "Empty ping"}}}
            """)
        let checked = FixtureRunner(host: .router(router)).run([fixtures]).outcomes[0]
        guard case .failed(let problems) = checked.verdict else { return XCTFail("\(checked.verdict)") }
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].hasPrefix("schema: error.code 4050 is not among ping's errors"), problems[0])
        XCTAssertEqual(
            FixtureRunner(host: .router(router), checkSchemas: false).run([fixtures]).outcomes[0].verdict, .passed)
    }

    /// A host without `rpc.discover` still has its cases run, and one warning says the schema
    /// checks were not.
    func testAHostThatDoesNotDescribeItselfGetsOneWarning() throws {
        var undescribed = Router()
        try registerTestMethods(&undescribed, .immediate)
        undescribed.authorize(refusals: [RPCError(.methodNotFound)]) { context throws(RPCError) in
            if context.method == "rpc.discover" { throw RPCError(.methodNotFound) }
        }
        let router = undescribed
        let fixtures = try file(
            """
            {"name": "a", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [2, 1], "id": 1}, "response": {"jsonrpc": "2.0", "id": 1, "result": 1}},
            {"name": "b", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [3, 1], "id": 1}, "response": {"jsonrpc": "2.0", "id": 1, "result": 2}}
            """)
        let report = FixtureRunner(host: .router(router)).run([fixtures])
        XCTAssertEqual(report.passed, 2)
        XCTAssertEqual(
            report.distinctWarnings,
            [
                "the host does not answer rpc.discover (-32601 Method not found): it is not built on a WalletBridge library that describes itself: schema checks skipped"
            ])
    }

    /// Output a browser would not accept as frames is an error of its own, not a timeout.
    func testOutputThatIsNotFramesIsAThrownError() throws {
        func firstRead(_ script: String) throws -> Error? {
            let process = try HostProcess(executable: "/bin/sh", arguments: ["-c", script])
            do {
                _ = try process.readFrame(timeout: 10)
                return nil
            } catch {
                return error
            }
        }
        let started = Date()
        // The words are the CLI's (`FrameFault`): one diagnosis for every client.
        XCTAssertEqual(
            try firstRead("printf ab").map { "\($0)" },
            "\(FrameFault.truncated(announced: nil, received: 2, bytes: Array("ab".utf8)))")
        XCTAssertEqual(
            try firstRead(#"printf '\005\000\000\000ab'"#).map { "\($0)" },
            "\(FrameFault.truncated(announced: 5, received: 2, bytes: [5, 0, 0, 0] + Array("ab".utf8)))")
        let hello = try XCTUnwrap(try firstRead("echo Hello world; sleep 30").map { "\($0)" })
        XCTAssertTrue(
            hello.hasPrefix(
                "message of 1819043144 bytes exceeds the limit (1048576): the host's stdout began \"Hello world\\n\""),
            hello)
        XCTAssertLessThan(Date().timeIntervalSince(started), 9, "none of them waited for the deadline")
        XCTAssertNil(try firstRead("exit 0"), "a clean end of output is no frame, and no error")
    }
}
