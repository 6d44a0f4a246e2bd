import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `wallet-bridge conform` and `wallet-bridge describe`, run as a person runs them: the built
/// binary against the conformance host, against fixture files that are right and that are wrong.
final class ConformProcessTests: XCTestCase {
    static let repositoryFixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path

    /// A fixture file in the sandbox with these cases (JSON text, comma-separated).
    private func fixtures(_ sandbox: Sandbox, _ cases: String, name: String = "t.json") throws -> String {
        try sandbox.write(sandbox.base + "/" + name, #"{"description": "conform tests", "cases": [\#(cases)]}"#)
    }

    private func conform(_ sandbox: Sandbox, _ arguments: [String]) throws -> Run {
        try sandbox.walletBridge(["conform", "--timeout", "20"] + arguments)
    }

    private static let subtractCase = """
        {"name": "subtract", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1},
         "response": {"jsonrpc": "2.0", "id": 1, "result": 19}}
        """

    /// The project's own fixtures through the command, every kind of case included (framing,
    /// exit statuses, environments, sessions), with the schema checks on.
    func testTheSharedFixturesPassAgainstTheConformanceHost() throws {
        let sandbox = try Sandbox()
        let result = try conform(sandbox, ["--host", try Built.conformanceHost(), Self.repositoryFixtures])
        XCTAssertEqual(result.status, 0, result.output)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 300, result.stdout)
        XCTAssertGreaterThan(lines.count { $0.hasPrefix("ok    framing.json#") }, 5, result.stdout)
        XCTAssertFalse(lines.contains { $0.hasPrefix("FAIL") || $0.hasPrefix("skip") }, result.stdout)
        XCTAssertFalse(result.stdout.contains("warning: the host does not answer rpc.discover"), result.stdout)
        let summary = try XCTUnwrap(lines.last)
        XCTAssertTrue(summary.hasSuffix(" passed, 0 failed, 0 skipped"), String(summary))
    }

    /// What a developer sees when a fixture and the host disagree: the case, its rule, and each
    /// difference at its JSON path.
    func testWrongExpectationsFailWithADiffNamingThePath() throws {
        let sandbox = try Sandbox()
        let file = try fixtures(
            sandbox,
            """
            {"name": "renamed-field", "rule": "the result's member is pong",
             "request": {"jsonrpc": "2.0", "method": "MY_CUSTOM_PING_RPC_METHOD", "params": {"pingParam1": "hi", "pingParam2": []}, "id": 1},
             "response": {"jsonrpc": "2.0", "id": 1, "result": {"pongs": "pong: hi (0 more)"}}},
            {"name": "wrong-type", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 2},
             "response": {"jsonrpc": "2.0", "id": 2, "result": "19"}},
            {"name": "changed-code", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [42], "id": 3},
             "response": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32603, "message": "Invalid params", "data": {"field": "[1]", "problem": "required field is missing"}}}},
            \(Self.subtractCase)
            """, name: "wrong.json")
        let result = try conform(sandbox, ["--host", try Built.conformanceHost(), file])
        XCTAssertEqual(result.status, 1, result.output)
        let expected = """
            FAIL  wrong.json#renamed-field
                  rule: the result's member is pong
                  result.pong: unexpected member (got "pong: hi (0 more)")
                  result.pongs: missing (expected "pong: hi (0 more)")
                  expected reply: {"id":1,"jsonrpc":"2.0","result":{"pongs":"pong: hi (0 more)"}}
                  actual reply:   {"id":1,"jsonrpc":"2.0","result":{"pong":"pong: hi (0 more)"}}
            FAIL  wrong.json#wrong-type
                  result: expected "19", got 19
            """
        XCTAssertTrue(result.stdout.contains(expected), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("FAIL  wrong.json#changed-code\n      error.code: expected -32603, got -32602\n"),
            result.stdout)
        XCTAssertTrue(result.stdout.contains("ok    wrong.json#subtract\n"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("1 passed, 3 failed, 0 skipped\n"), result.stdout)
    }

    func testTAPOutput() throws {
        let sandbox = try Sandbox()
        let file = try fixtures(
            sandbox,
            """
            \(Self.subtractCase),
            {"name": "wrong", "rule": "a \\"quoted\\" rule", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [42], "id": 2},
             "response": {"jsonrpc": "2.0", "id": 2, "result": 19}}
            """, name: "tap.json")
        let result = try conform(sandbox, ["--host", try Built.conformanceHost(), "--format", "tap", file])
        XCTAssertEqual(result.status, 1, result.output)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(
            Array(lines.prefix(8)),
            [
                "TAP version 13",
                "1..2",
                ##"ok 1 - tap.json\#subtract"##,
                ##"not ok 2 - tap.json\#wrong"##,
                "  ---",
                #"  rule: "a \"quoted\" rule""#,
                "  problems:",
                #"    - "error: unexpected member (got {\"code\":-32602,\"data\":{\"field\":\"[1]\",\"problem\":\"expected integer, found null or nothing\"},\"message\":\"Invalid params\"})""#,
            ])
        XCTAssertEqual(Array(lines.suffix(3)), ["  ...", "# 1 passed, 1 failed, 0 skipped", ""])
    }

    /// A file with state through the command: its setup case runs first and is no line of the
    /// report, its cases run in file order in one `{tmpdir}` folder under $TMPDIR, and the
    /// folder is gone afterwards; a broken setup case fails the file's cases (status 1).
    func testSetupAndTmpdirThroughTheCommand() throws {
        let sandbox = try Sandbox()
        let temporary = sandbox.base + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        func save(_ name: String, _ id: Int, written: Int = 13) -> String {
            """
            {"name": "\(name)", "request": {"jsonrpc": "2.0", "method": "test.report", "params": {"note": "\(name.suffix(1))"}, "id": \(id)},
             "response": {"jsonrpc": "2.0", "id": \(id), "result": {"written": \(written)}}}
            """
        }
        let listAll = """
            {"name": "list", "request": {"jsonrpc": "2.0", "method": "test.readReport", "id": 9},
             "response": {"jsonrpc": "2.0", "id": 9, "result": [{"note": "s"}, {"note": "a"}, {"note": "b"}]}}
            """
        let env = #""env": {"WALLET_BRIDGE_TEST_REPORT": "{tmpdir}/notes.jsonl"}"#
        let notes = try sandbox.write(
            sandbox.base + "/notes.json",
            """
            {\(env), "setup": [\(save("setup-s", 1))], "cases": [\(save("save-a", 2)), \(save("save-b", 3)), \(listAll)]}
            """)
        var variables = sandbox.variables
        variables["TMPDIR"] = temporary
        let host = try Built.conformanceHost()
        let result = try runProcess(
            try Built.walletBridge(), ["conform", "--timeout", "20", "--host", host, notes], environment: variables,
            in: sandbox.base)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(
            result.stdout.split(separator: "\n").filter { $0.hasPrefix("ok") },
            ["ok    notes.json#save-a", "ok    notes.json#save-b", "ok    notes.json#list"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: temporary), [], "the {tmpdir} folder is removed")

        let broken = try sandbox.write(
            sandbox.base + "/broken.json",
            """
            {\(env), "setup": [\(save("setup-s", 1, written: 99))], "cases": [\(save("save-a", 2))]}
            """)
        let failed = try runProcess(
            try Built.walletBridge(), ["conform", "--timeout", "20", "--host", host, broken], environment: variables,
            in: sandbox.base)
        XCTAssertEqual(failed.status, 1, failed.output)
        XCTAssertTrue(failed.stdout.contains("FAIL  broken.json#save-a"), failed.stdout)
        XCTAssertTrue(
            failed.stdout.contains("the file's setup case broken.json#setup-s failed, so this case did not run:"),
            failed.stdout)
        XCTAssertTrue(failed.stdout.contains("result.written: expected 99, got 13"), failed.stdout)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temporary), [])
    }

    /// A relative $TMPDIR is taken from the folder `conform` runs in, so `{tmpdir}` is the
    /// absolute path docs/fixtures.md promises: the host runs in its own folder, where the
    /// relative one names nothing.
    func testARelativeTMPDIRGivesAnAbsoluteTmpdir() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.base + "/reltmp", withIntermediateDirectories: true)
        let notes = try sandbox.write(
            sandbox.base + "/notes.json",
            """
            {"env": {"WALLET_BRIDGE_TEST_REPORT": "{tmpdir}/r.txt"},
             "setup": [{"name": "save", "request": {"jsonrpc": "2.0", "method": "test.report", "params": {"note": "s"}, "id": 1},
                        "response": {"jsonrpc": "2.0", "id": 1, "result": {"written": 13}}}],
             "cases": [{"name": "list", "request": {"jsonrpc": "2.0", "method": "test.readReport", "id": 2},
                        "response": {"jsonrpc": "2.0", "id": 2, "result": [{"note": "s"}]}}]}
            """)
        var variables = sandbox.variables
        variables["TMPDIR"] = "reltmp"
        let result = try runProcess(
            try Built.walletBridge(), ["conform", "--timeout", "20", "--host", try Built.conformanceHost(), notes],
            environment: variables, in: sandbox.base)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.stdout.split(separator: "\n").filter { $0.hasPrefix("ok") }, ["ok    notes.json#list"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.base + "/reltmp"), [],
            "the {tmpdir} folder is removed")
    }

    func testAFixtureFileThatCannotBeUsedExitsTwo() throws {
        let sandbox = try Sandbox()
        let host = try Built.conformanceHost()
        let noResponse = try fixtures(sandbox, #"{"name": "c", "request": 1}"#, name: "no-response.json")
        let notJSON = try sandbox.write(sandbox.base + "/broken.json", "{\n  \"cases\": [,]\n}")
        // A reply no host can send is the file's mistake, not a failing host.
        let neither = try fixtures(
            sandbox,
            #"{"name": "c", "request": {"jsonrpc": "2.0", "method": "subtract", "params": [2, 1], "id": 1}, "response": {"jsonrpc": "2.0", "id": 1}}"#,
            name: "neither.json")
        let unknown = try fixtures(
            sandbox, #"{"name": "c", "request": 1, "response": null, "exitcode": 1}"#, name: "unknown.json")
        let cases: [([String], String)] = [
            ([noResponse], #"Error: \#(noResponse)#c: no "response" (null, for a case that expects no reply)"#),
            (
                [neither],
                #"Error: \#(neither)#c: "response" has neither "result" nor "error": a reply has exactly one of them"#
            ),
            ([unknown], #"Error: \#(unknown)#c: unknown member "exitcode""#),
            ([notJSON], "Error: \(notJSON): not JSON: "),
            ([sandbox.base + "/missing.json"], "Error: \(sandbox.base)/missing.json: no such file"),
            (
                [try fixtures(sandbox, Self.subtractCase), "--filter", "nothing-like-this"],
                #"Error: no case matches --filter "nothing-like-this""#
            ),
        ]
        for (arguments, expected) in cases {
            let result = try conform(sandbox, ["--host", host] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.output)")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "nothing is run: \(arguments)")
        }
    }

    func testUsageAndHostErrors() throws {
        let sandbox = try Sandbox()
        let file = try fixtures(sandbox, Self.subtractCase)
        let usage = try conform(sandbox, ["--host", try Built.conformanceHost()])
        XCTAssertEqual(usage.status, 64, usage.output)
        XCTAssertTrue(usage.stderr.contains("name at least one fixture file or folder"), usage.stderr)
        let both = try conform(sandbox, ["--host", "a", "--manifest", "b.json", file])
        XCTAssertEqual(both.status, 64, both.output)
        XCTAssertTrue(both.stderr.contains("exclude each other"), both.stderr)

        let missing = try conform(sandbox, ["--host", sandbox.base + "/no-host", file])
        XCTAssertEqual(missing.status, 3, missing.output)
        XCTAssertTrue(
            missing.stderr.contains("cannot start \(sandbox.base)/no-host: No such file or directory"), missing.stderr)
        let manifest = try sandbox.write(sandbox.base + "/m.json", "[1]")
        let badManifest = try conform(sandbox, ["--manifest", manifest, file])
        XCTAssertEqual(badManifest.status, 3, badManifest.output)
        XCTAssertTrue(badManifest.stderr.contains("--manifest \(manifest): "), badManifest.stderr)
    }

    /// Without --host or --manifest, the host is this binary, as `call` has it.
    func testTheDefaultHostIsThisBinary() throws {
        let sandbox = try Sandbox()
        let file = try fixtures(
            sandbox,
            """
            {"name": "unknown", "request": {"jsonrpc": "2.0", "method": "no.such.method", "id": 1},
             "response": {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found", "data": {"problem": "no method named \\"no.such.method\\""}}}}
            """)
        let result = try conform(sandbox, [file])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.stdout, "ok    t.json#unknown\n1 passed, 0 failed, 0 skipped\n")
    }

    /// Any host: one not built on WalletBridge, which answers -32601 to everything, still has its
    /// cases run (the sentinel needs nothing of it), and one warning says the schemas were not checked.
    func testAHostWithoutRpcDiscoverGetsAWarningAndDescribeFails() throws {
        let sandbox = try Sandbox()
        let python = try XCTUnwrap(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile),
            "the fake host needs python3")
        let host = try sandbox.write(
            sandbox.base + "/plain-host",
            """
            #!\(python)
            import json, struct, sys
            while True:
                header = sys.stdin.buffer.read(4)
                if len(header) < 4:
                    break
                request = json.loads(sys.stdin.buffer.read(struct.unpack("=I", header)[0]))
                if "id" not in request:
                    continue
                reply = {"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32601, "message": "Method not found"}}
                body = json.dumps(reply).encode()
                sys.stdout.buffer.write(struct.pack("=I", len(body)) + body)
                sys.stdout.buffer.flush()

            """, mode: 0o755)
        let file = try fixtures(
            sandbox,
            """
            {"name": "anything", "request": {"jsonrpc": "2.0", "method": "ping", "id": 7},
             "response": {"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "Method not found"}}},
            {"name": "notification", "request": {"jsonrpc": "2.0", "method": "ping"}, "response": null}
            """)
        let result = try conform(sandbox, ["--host", host, file])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(
            result.stdout,
            """
            ok    t.json#anything
            ok    t.json#notification
            warning: the host does not answer rpc.discover (-32601 Method not found): it is not built on a WalletBridge library that describes itself: schema checks skipped
            2 passed, 0 failed, 0 skipped

            """)
        let quiet = try conform(sandbox, ["--host", host, "--no-schema-check", file])
        XCTAssertFalse(quiet.stdout.contains("warning"), quiet.stdout)

        let describe = try sandbox.walletBridge("describe", "--host", host)
        XCTAssertEqual(describe.status, 1, describe.output)
        XCTAssertTrue(
            describe.stderr.contains("Error: the host does not answer rpc.discover (-32601 Method not found)"),
            describe.stderr)
        XCTAssertEqual(describe.stdout, "")
    }

    func testDescribePrintsTheConformanceHostsDocument() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.walletBridge("describe", "--host", try Built.conformanceHost())
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.hasPrefix("{\n  \"info\": {\n"), "indented JSON: \(result.stdout.prefix(200))")
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["openrpc"] as? String, "1.2.6")
        let names = try XCTUnwrap(document["methods"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        for method in [
            "subtract", "test.echo", "NATIVE_GET_ACCOUNTS_METHOD", "NATIVE_SIGN_PAYLOADS_METHOD", "session_connect",
        ] {
            XCTAssertTrue(names.contains(method), "\(method) in \(names)")
        }

        let output = sandbox.base + "/out/document.json"
        try FileManager.default.createDirectory(atPath: sandbox.base + "/out", withIntermediateDirectories: true)
        let written = try sandbox.walletBridge(
            "describe", "--host-path", try Built.conformanceHost(), "--output", output)
        XCTAssertEqual(written.status, 0, written.output)
        XCTAssertEqual(written.stdout, "")
        XCTAssertEqual(sandbox.read(output), result.stdout)
    }

    /// `describe --check`: the host's document against the OpenRPC meta-schema shipped in the
    /// binary, offline, with nothing else installed.
    func testDescribeCheckHoldsTheDocumentToTheOpenRPCMetaSchema() throws {
        let sandbox = try Sandbox()
        let valid = try sandbox.walletBridge("describe", "--check", "--host", try Built.conformanceHost())
        XCTAssertEqual(valid.status, 0, valid.output)
        XCTAssertTrue(
            valid.stdout.hasPrefix("valid OpenRPC 1.2.6 document: wallet-bridge-conformance-host "), valid.stdout)
        XCTAssertTrue(valid.stdout.hasSuffix(" methods\n"), valid.stdout)
        let shipped = try sandbox.walletBridge("describe", "--check")
        XCTAssertEqual(shipped.status, 0, shipped.output)
        XCTAssertTrue(shipped.stdout.hasPrefix("valid OpenRPC 1.2.6 document: wallet-bridge "), shipped.stdout)

        // A host whose document is OpenRPC in name only.
        let python = try XCTUnwrap(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile),
            "the fake host needs python3")
        let host = try sandbox.write(
            sandbox.base + "/bad-document-host",
            """
            #!\(python)
            import json, struct, sys
            header = sys.stdin.buffer.read(4)
            request = json.loads(sys.stdin.buffer.read(struct.unpack("=I", header)[0]))
            document = {"openrpc": "1.2.6", "methods": [{"name": "ping", "params": [], "paramStructure": "by-guess",
                        "result": {"name": "pong", "schema": {"type": "integr"}}}]}
            body = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": document}).encode()
            sys.stdout.buffer.write(struct.pack("=I", len(body)) + body)
            sys.stdout.buffer.flush()

            """, mode: 0o755)
        let invalid = try sandbox.walletBridge("describe", "--check", "--host", host)
        XCTAssertEqual(invalid.status, 2, invalid.output)
        XCTAssertEqual(invalid.stdout, "")
        XCTAssertTrue(
            invalid.stderr.contains(
                "rpc.discover's document is not valid OpenRPC (2 problems, against the OpenRPC 1.2 meta-schema):"),
            invalid.stderr)
        XCTAssertTrue(invalid.stderr.contains(#"  document: the required member "info" is missing"#), invalid.stderr)
        XCTAssertTrue(
            invalid.stderr.contains(#"  document.methods[0]: matches none of the 2 allowed forms (oneOf)"#),
            invalid.stderr)
        // Without --check, the document is printed as the host gave it.
        XCTAssertEqual(try sandbox.walletBridge("describe", "--host", host).status, 0)
    }

    /// A case without `args` gets none, as the fixture format says, unless the command names a
    /// caller: then that browser's arguments, as `call` starts the host.
    func testCasesWithoutArgsGetNoneUnlessACallerIsNamed() throws {
        let sandbox = try Sandbox()
        let file = try fixtures(
            sandbox,
            """
            {"name": "context", "request": {"jsonrpc": "2.0", "method": "test.context", "id": 1},
             "response": {"jsonrpc": "2.0", "id": 1, "result": {"caller": "\(TestIDs.chromeOrigin)", "id": 1, "method": "test.context"}}}
            """)
        let host = try Built.conformanceHost()
        XCTAssertEqual(try conform(sandbox, ["--host", host, "--origin", TestIDs.chromeOrigin, file]).status, 0)
        let unnamed = try conform(sandbox, ["--host", host, file])
        XCTAssertEqual(unnamed.status, 1, unnamed.output)
        XCTAssertTrue(
            unnamed.stdout.contains(#"result.caller: expected "\#(TestIDs.chromeOrigin)", got null"#), unnamed.stdout)
    }

    /// `call` takes --host too, and conform and describe take --host-path: one option, two names.
    func testBothSpellingsOfTheHostOption() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.walletBridge(
            "call", "--host", try Built.conformanceHost(), "--raw", "subtract", "[42, 23]")
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.stdout, #"{"jsonrpc":"2.0","id":1,"result":19}"# + "\n")
        let file = try fixtures(sandbox, Self.subtractCase)
        XCTAssertEqual(try conform(sandbox, ["--host-path", try Built.conformanceHost(), file]).status, 0)
    }
}
