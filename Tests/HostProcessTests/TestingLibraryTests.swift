import Foundation
import Testing
import WalletBridge
import WalletBridgeTesting
import XCTest

/// `WalletBridgeTesting`, as an extension developer's test target uses it: a fixture file in one
/// line, its failures as test failures, and a run that checks nothing never passing.
@Suite struct ExpectFixturesTests {
    /// A router with one method, for the in-process runs.
    static func echoRouter() throws -> Router {
        enum Echo: RPCMethod {
            static let name = "echo"
            typealias Params = [String]
            typealias Result = [String]
        }
        var router = Router()
        try router.register(Echo.self) { params, _ in params }
        return router
    }

    /// A fixture file in a scratch folder.
    static func file(_ cases: String) throws -> String {
        let path = NSTemporaryDirectory() + "expect-fixtures-\(UUID().uuidString).json"
        try Data(#"{"cases": [\#(cases)]}"#.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let echoCase = """
        {"name": "echo", "request": {"jsonrpc": "2.0", "method": "echo", "params": ["a"], "id": 1},
         "response": {"jsonrpc": "2.0", "id": 1, "result": ["a"]}}
        """

    /// A relative path is the test file's folder's: this file is in Tests/HostProcessTests.
    @Test func aRelativePathAgainstTheBuiltHost() async throws {
        try await expectFixtures("../Fixtures/custom-methods.json", host: .executable("wallet-bridge-conformance-host"))
    }

    @Test func aRouterInProcess() async throws {
        try await expectFixtures(try Self.file(Self.echoCase), host: .router(Self.echoRouter()))
    }

    @Test func eachFailingCaseIsAnIssueWithItsDiff() async throws {
        let wrong = try Self.file(
            """
            {"name": "wrong", "request": {"jsonrpc": "2.0", "method": "echo", "params": ["a"], "id": 1},
             "response": {"jsonrpc": "2.0", "id": 1, "result": ["b"]}}
            """)
        try await withKnownIssue {
            try await expectFixtures(wrong, host: .router(Self.echoRouter()))
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasSuffix(
                    "#wrong failed:\n  result[0]: expected \"b\", got \"a\"\n  expected reply: {\"id\":1,\"jsonrpc\":\"2.0\",\"result\":[\"b\"]}\n  actual reply:   {\"id\":1,\"jsonrpc\":\"2.0\",\"result\":[\"a\"]}"
                )
            }
        }
    }

    /// Every case skipped in process is a test that checked nothing: a failure, not a pass.
    @Test func aRunWhereNoCaseRanFails() async throws {
        let processOnly = try Self.file(
            #"{"name": "framing", "stream_base64": "AQAAAA==", "response": null, "exit_code": 1}"#)
        try await withKnownIssue {
            try await expectFixtures(processOnly, host: .router(Self.echoRouter()))
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasPrefix(
                    "none of the 1 cases could run against this host, so nothing was checked: stream_base64")
            }
        }
    }

    /// A file whose setup case sets `env` cannot run in process: every case is skipped with the
    /// setup's reason, so the run checked nothing and fails (docs/fixtures.md, "In process").
    @Test func aFileWhoseSetupNeedsAProcessFailsInProcess() async throws {
        let path = NSTemporaryDirectory() + "expect-fixtures-\(UUID().uuidString).json"
        try Data(
            #"""
            {"env": {"NOTES_DIR": "{tmpdir}/notes"},
             "setup": [{"name": "save", "request": {"jsonrpc": "2.0", "method": "echo", "params": ["a"], "id": 1},
                        "response": {"jsonrpc": "2.0", "id": 1, "result": ["a"]}}],
             "cases": [\#(Self.echoCase)]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: path))
        try await withKnownIssue {
            try await expectFixtures(path, host: .router(Self.echoRouter()))
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.hasPrefix(
                    "none of the 1 cases could run against this host, so nothing was checked: the file's setup case ")
                    && $0.rawValue.contains("#save cannot run against this host: env (NOTES_DIR)")
            }
        }
    }

    @Test func aMissingHostIsAnError() async throws {
        let error = await #expect(throws: (any Error).self) {
            try await expectFixtures(try Self.file(Self.echoCase), host: .executable("no-such-host"))
        }
        #expect(
            "\(error.map { "\($0)" } ?? "")".hasSuffix(
                "no-such-host is not an executable file: build the host first (`swift build`), or name it with .path(_:)"
            ))
    }
}

/// The XCTest form.
final class XCTAssertFixturesTests: XCTestCase {
    func testTheBuiltHostAndARouterInProcess() throws {
        try XCTAssertFixtures(
            "../Fixtures/custom-methods.json", host: .path(BuiltProducts.executable("wallet-bridge-conformance-host")))
        try XCTAssertFixtures(
            ExpectFixturesTests.file(ExpectFixturesTests.echoCase), host: .router(ExpectFixturesTests.echoRouter()))
    }
}
