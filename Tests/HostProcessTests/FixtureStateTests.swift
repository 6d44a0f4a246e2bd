import Foundation
import WalletBridge
import WalletBridgeTesting
import XCTest

/// Fixtures with state (docs/fixtures.md, "State"): cases run in file order, each a fresh host
/// process while the files it writes persist; `{tmpdir}` is a folder of the file's own, fresh for
/// each run of the file; `setup` cases run first, once, and are no cases of their own. The
/// conformance host's test.report and test.readReport are the stateful pair: one appends a line
/// to the file $WALLET_BRIDGE_TEST_REPORT names, the other lists the lines.
final class FixtureStateTests: XCTestCase {
    private var scratch = ""

    override func setUpWithError() throws {
        scratch = NSTemporaryDirectory() + "fixture-state-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    private func file(_ name: String, _ body: String) throws -> FixtureFile {
        let path = scratch + "/" + name
        try Data(body.utf8).write(to: URL(fileURLWithPath: path))
        return try FixtureFile.load(path)
    }

    private func runner() throws -> FixtureRunner {
        FixtureRunner(host: .process(path: try BuiltProducts.executable("wallet-bridge-conformance-host")))
    }

    static let env = #""env": {"WALLET_BRIDGE_TEST_REPORT": "{tmpdir}/notes.jsonl"}"#

    static func save(_ name: String, _ note: String, id: Int) -> String {
        let written = #"{"note":"\#(note)"}"#.utf8.count + 1
        return """
            {"name": "\(name)", "request": {"jsonrpc": "2.0", "method": "test.report", "params": {"note": "\(note)"}, "id": \(id)},
             "response": {"jsonrpc": "2.0", "id": \(id), "result": {"written": \(written)}}}
            """
    }

    static func list(_ name: String, _ notes: [String], id: Int) -> String {
        let result = notes.map { #"{"note": "\#($0)"}"# }.joined(separator: ", ")
        return """
            {"name": "\(name)", "request": {"jsonrpc": "2.0", "method": "test.readReport", "id": \(id)},
             "response": {"jsonrpc": "2.0", "id": \(id), "result": [\(result)]}}
            """
    }

    /// The setup's note, then each case's in file order, all in one folder; a second file starts
    /// with an empty folder of its own.
    func testCasesRunInFileOrderWithTheSetupFirstInAFolderOfTheFilesOwn() throws {
        let notes = try file(
            "notes.json",
            """
            {\(Self.env),
             "setup": [\(Self.save("save-setup", "setup", id: 1))],
             "cases": [
               \(Self.list("list-after-setup", ["setup"], id: 2)),
               \(Self.save("save-first", "first", id: 3)),
               \(Self.save("save-second", "second", id: 4)),
               \(Self.list("list-all", ["setup", "first", "second"], id: 5))
             ]}
            """)
        let other = try file("other.json", "{\(Self.env), \"cases\": [\(Self.list("list-empty", [], id: 1))]}")
        let report = try runner().run([notes, other])
        XCTAssertEqual(
            report.outcomes.map(\.fixture.id),
            [
                "notes.json#list-after-setup", "notes.json#save-first", "notes.json#save-second", "notes.json#list-all",
                "other.json#list-empty",
            ], "the cases, in file order, and no setup case among them")
        for outcome in report.outcomes { XCTAssertEqual(outcome.verdict, .passed, outcome.fixture.id) }
        XCTAssertEqual(report.warnings, [])

        // Run again: the folder is fresh, so the notes of the first run are gone.
        XCTAssertEqual(try runner().run([notes]).passed, 4)
    }

    /// `--filter` and a case run alone: the setup still runs first; the cases not selected do not.
    func testTheSetupRunsForASelectedCaseAlone() throws {
        let notes = try file(
            "notes.json",
            """
            {\(Self.env),
             "setup": [\(Self.save("save-setup", "setup", id: 1))],
             "cases": [\(Self.save("save-first", "first", id: 2)), \(Self.list("list-setup-only", ["setup"], id: 3))]}
            """)
        let filtered = try runner().run([notes], filter: "list-setup-only")
        XCTAssertEqual(filtered.outcomes.map(\.fixture.name), ["list-setup-only"])
        XCTAssertEqual(filtered.outcomes.map(\.verdict), [.passed])

        let alone = try runner().run(notes.cases[1])
        XCTAssertEqual(alone.verdict, .passed, "the case alone: its file's setup, then the case")
        XCTAssertEqual(alone.warnings, [])
    }

    /// A setup case that fails fails every selected case of its file, which then does not run;
    /// the next file runs as usual.
    func testAFailingSetupCaseFailsTheFilesCasesWithoutRunningThem() throws {
        let broken = try file(
            "broken.json",
            """
            {\(Self.env),
             "setup": [
               {"name": "save-wrong", "rule": "saving answers how much it wrote",
                "request": {"jsonrpc": "2.0", "method": "test.report", "params": {"note": "x"}, "id": 1},
                "response": {"jsonrpc": "2.0", "id": 1, "result": {"written": 99}}}
             ],
             "cases": [\(Self.list("list-empty", [], id: 2)), \(Self.save("save", "y", id: 3))]}
            """)
        let fine = try file("fine.json", "{\(Self.env), \"cases\": [\(Self.list("list-empty", [], id: 1))]}")
        let report = try runner().run([broken, fine])
        XCTAssertEqual(
            report.outcomes.map(\.fixture.id), ["broken.json#list-empty", "broken.json#save", "fine.json#list-empty"])
        for outcome in report.outcomes.prefix(2) {
            guard case .failed(let problems) = outcome.verdict else {
                return XCTFail("\(outcome.fixture.id): \(outcome.verdict)")
            }
            XCTAssertEqual(
                problems.first,
                "the file's setup case broken.json#save-wrong failed (saving answers how much it wrote), so this case did not run:"
            )
            XCTAssertTrue(problems.contains { $0.contains("result.written: expected 99, got 13") }, "\(problems)")
        }
        XCTAssertEqual(report.outcomes[2].verdict, .passed)
    }

    /// In process there is no environment to set: a setup case with `env` skips the file's cases,
    /// saying why, never passing them.
    func testASetupCaseThatCannotRunInProcessSkipsTheCases() throws {
        let notes = try file(
            "notes.json",
            """
            {\(Self.env), "setup": [\(Self.save("save-setup", "setup", id: 1))], "cases": [{"name": "plain", "request": 1, "response": null}]}
            """)
        var router = Router()
        try router.register(Noop.self) { _, _ in NoResult() }
        let made = router
        let outcome = FixtureRunner(host: .router(made), checkSchemas: false).run([notes]).outcomes
        XCTAssertEqual(outcome.count, 1)
        guard case .skipped(let reason) = outcome[0].verdict else { return XCTFail("\(outcome[0].verdict)") }
        XCTAssertTrue(
            reason.hasPrefix(
                "the file's setup case notes.json#save-setup cannot run against this host: env (WALLET_BRIDGE_TEST_REPORT)"
            ), reason)
    }

    private enum Noop: RPCMethod {
        static let name = "noop"
        typealias Result = NoResult
    }
}
