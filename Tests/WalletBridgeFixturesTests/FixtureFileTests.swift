import Foundation
import WalletBridge
import WalletBridgeFixtures
import XCTest

/// The fixture format's checks: a mistake in a file is reported as that mistake, naming the
/// file and the case, never as a host that fails.
final class FixtureFileTests: XCTestCase {
    private func parse(_ text: String) throws -> FixtureFile {
        try FixtureFile.parse(
            JSONParser.parse(Array(text.utf8), maxDepth: 512), path: "/x/ping.json", fileName: "ping.json")
    }

    /// The message `text` is refused with.
    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try parse(text)
            XCTFail("accepted: \(text)", file: file, line: line)
            return ""
        } catch let error as FixtureFormatError {
            return error.description
        } catch {
            XCTFail("not a FixtureFormatError: \(error)", file: file, line: line)
            return ""
        }
    }

    private func withCase(_ members: String) -> String { #"{"cases": [{"name": "c", \#(members)}]}"# }

    func testEveryFieldIsRead() throws {
        let file = try parse(
            """
            {"description": "d", "cases": [
              {"name": "a", "rule": "r", "args": ["chrome-extension://x/"], "env": {"K": "v"},
               "request": {"jsonrpc": "2.0", "method": "m", "id": 1}, "response": {"jsonrpc": "2.0", "id": 1, "result": 2},
               "response_text_includes": ["\\"id\\":1"]},
              {"name": "b", "request_text": "{", "response": null},
              {"name": "c", "request_base64": "/w==", "response": null},
              {"name": "d", "stream_base64": "AQAAAA==", "response": null, "exit_code": 1},
              {"name": "e", "request": null, "response": {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request"}}}
            ]}
            """)
        XCTAssertEqual(file.description, "d")
        XCTAssertEqual(
            file.cases.map(\.id), ["ping.json#a", "ping.json#b", "ping.json#c", "ping.json#d", "ping.json#e"])
        let a = file.cases[0]
        XCTAssertEqual(a.rule, "r")
        XCTAssertEqual(a.arguments, ["chrome-extension://x/"])
        XCTAssertEqual(a.environment, ["K": "v"])
        XCTAssertEqual(
            a.input.frameBody.map { String(decoding: $0, as: UTF8.self) }, #"{"id":1,"jsonrpc":"2.0","method":"m"}"#)
        XCTAssertEqual(a.responseTextIncludes, [#""id":1"#])
        XCTAssertNil(a.exitCode)
        XCTAssertEqual(file.cases[1].input, .text("{"))
        XCTAssertNil(file.cases[1].arguments, "no args: the runner's default")
        XCTAssertEqual(file.cases[2].input, .bytes([0xFF]))
        XCTAssertEqual(file.cases[3].input, .stream([1, 0, 0, 0]))
        XCTAssertEqual(file.cases[3].exitCode, 1)
        XCTAssertEqual(file.cases[4].input, .request(.null), "a request of null is an input, not a missing one")
    }

    func testTheFileMustBeAnObjectWithCases() {
        XCTAssertEqual(refusal("[]"), #"/x/ping.json: the file must hold an object with "cases", not an array"#)
        XCTAssertEqual(refusal(#"{"description": "d"}"#), #"/x/ping.json: no "cases""#)
        XCTAssertEqual(refusal(#"{"cases": []}"#), #"/x/ping.json: "cases" is empty"#)
        XCTAssertEqual(refusal(#"{"cases": {}}"#), #"/x/ping.json: "cases" must be an array, not an object"#)
        XCTAssertEqual(
            refusal(#"{"description": 5, "cases": []}"#), #"/x/ping.json: "description" must be a string, not a number"#
        )
        XCTAssertEqual(
            refusal(#"{"case": []}"#),
            #"/x/ping.json: unknown member "case" (a file has "description", "env", "setup" and "cases")"#)
    }

    func testACaseNeedsANameThatIsUnique() {
        XCTAssertEqual(refusal(#"{"cases": [5]}"#), "/x/ping.json#case 1: a case must be an object, not a number")
        XCTAssertEqual(
            refusal(#"{"cases": [{"request": 1, "response": null}]}"#),
            #"/x/ping.json#case 1: "name" must be a non-empty string"#)
        XCTAssertEqual(
            refusal(#"{"cases": [{"name": "", "request": 1, "response": null}]}"#),
            #"/x/ping.json#case 1: "name" must be a non-empty string"#)
        XCTAssertEqual(
            refusal(
                #"{"cases": [{"name": "a", "request": 1, "response": null}, {"name": "a", "request": 2, "response": null}]}"#
            ),
            "/x/ping.json#a: a second case with this name (names are unique within a file, setup cases' included)")
    }

    func testExactlyOneInputAndAResponse() {
        XCTAssertEqual(
            refusal(withCase(#""response": null"#)),
            #"/x/ping.json#c: no input: a case has exactly one of "request", "request_text", "request_base64", "stream_base64""#
        )
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "request_text": "1", "response": null"#)),
            #"/x/ping.json#c: more than one input ("request", "request_text"): a case has exactly one"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1"#)),
            #"/x/ping.json#c: no "response" (null, for a case that expects no reply)"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": 5"#)),
            #"/x/ping.json#c: "response" must be a reply object, a batch's array or null, not a number"#)
    }

    /// A reply that no host can send (JSON-RPC 2.0, section 5: exactly one of "result" and
    /// "error", an error with an integer code and a string message) is the file's mistake: the
    /// case could never pass, so it must not read as a failing host.
    func testTheResponseMustBeAReplyAHostCanSend() {
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": {"jsonrpc": "2.0", "id": 1}"#)),
            #"/x/ping.json#c: "response" has neither "result" nor "error": a reply has exactly one of them"#)
        XCTAssertEqual(
            refusal(
                withCase(
                    #""request": 1, "response": {"jsonrpc": "2.0", "id": 1, "result": 1, "error": {"code": 1, "message": "m"}}"#
                )),
            #"/x/ping.json#c: "response" has both "result" and "error": a reply has exactly one of them"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": {"jsonrpc": "2.0", "id": 1, "error": "boom"}"#)),
            #"/x/ping.json#c: "response".error must be an object with an integer "code" and a string "message", not a string"#
        )
        XCTAssertEqual(
            refusal(
                withCase(
                    #""request": 1, "response": {"jsonrpc": "2.0", "id": 1, "error": {"code": "1", "message": "m"}}"#)),
            #"/x/ping.json#c: "response".error must be an object with an integer "code" and a string "message", not {"code":"1","message":"m"}"#
        )
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": []"#)),
            #"/x/ping.json#c: "response" is an empty array: a batch is answered with at least one reply, or with none at all (null)"#
        )
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": [{"jsonrpc": "2.0", "id": 1, "result": 1}, 5]"#)),
            #"/x/ping.json#c: "response"[1] must be a reply object, not a number"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": [{"jsonrpc": "2.0", "id": 1, "result": 1}, {"id": 2}]"#)),
            #"/x/ping.json#c: "response"[1] has neither "result" nor "error": a reply has exactly one of them"#)
        XCTAssertNoThrow(
            try parse(
                withCase(
                    #""request": 1, "response": [{"jsonrpc": "2.0", "id": 1, "result": null}, {"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request"}}]"#
                )),
            "a null result is a result")
    }

    func testOptionalFieldsMustHaveTheirTypes() {
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "args": "chrome-extension://x/""#)),
            #"/x/ping.json#c: "args" must be an array of strings"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "args": ["a", 1]"#)),
            #"/x/ping.json#c: "args" must be an array of strings"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "env": ["A=1"]"#)),
            #"/x/ping.json#c: "env" must be an object of strings, not an array"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "env": {"A": 1}"#)),
            #"/x/ping.json#c: "env".A must be a string, not a number"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "exit_code": "1""#)),
            #"/x/ping.json#c: "exit_code" must be an integer from 0 to 255, not "1""#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "exit_code": 1.5"#)),
            #"/x/ping.json#c: "exit_code" must be an integer from 0 to 255, not 1.5"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "response_text_includes": "x""#)),
            #"/x/ping.json#c: "response_text_includes" must be an array of strings"#)
        XCTAssertEqual(
            refusal(withCase(#""request_base64": "not base64!", "response": null"#)),
            #"/x/ping.json#c: "request_base64" must be a base64 string"#)
        XCTAssertEqual(
            refusal(withCase(#""request_text": 5, "response": null"#)),
            #"/x/ping.json#c: "request_text" must be a string, not a number"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "rule": ["r"]"#)),
            #"/x/ping.json#c: "rule" must be a string, not an array"#)
    }

    /// A file's `env` is every case's, setup cases' too, under each case's own; `setup` is read
    /// as cases, which every case carries so that it can run alone; `{tmpdir}` is kept as
    /// written until a runner replaces it.
    func testAFilesEnvAndSetup() throws {
        let file = try parse(
            """
            {"env": {"NOTES": "{tmpdir}/notes", "MODE": "file"},
             "setup": [{"name": "save", "request": {"jsonrpc": "2.0", "method": "save", "id": 1}, "response": {"jsonrpc": "2.0", "id": 1, "result": true}}],
             "cases": [
               {"name": "list", "env": {"MODE": "case"}, "request": {"jsonrpc": "2.0", "method": "list", "id": 2}, "response": {"jsonrpc": "2.0", "id": 2, "result": []}},
               {"name": "plain", "request": 1, "response": null}
             ]}
            """)
        XCTAssertEqual(file.environment, ["NOTES": "{tmpdir}/notes", "MODE": "file"])
        XCTAssertEqual(file.setup.map(\.id), ["ping.json#save"])
        XCTAssertEqual(file.setup.map(\.isSetup), [true])
        XCTAssertEqual(file.setup[0].environment, ["NOTES": "{tmpdir}/notes", "MODE": "file"])
        XCTAssertEqual(file.cases.map(\.isSetup), [false, false])
        XCTAssertEqual(
            file.cases[0].environment, ["NOTES": "{tmpdir}/notes", "MODE": "case"], "the case's own variable wins")
        XCTAssertEqual(file.cases.map { $0.setup.map(\.name) }, [["save"], ["save"]])
        XCTAssertTrue(file.cases[0].usesTemporaryFolder)
        XCTAssertEqual(file.cases[0].environment(temporaryFolder: "/tmp/f"), ["NOTES": "/tmp/f/notes", "MODE": "case"])
        XCTAssertEqual(file.cases[0].environment(temporaryFolder: nil)["NOTES"], "{tmpdir}/notes")

        let plain = try parse(withCase(#""request": 1, "response": null"#))
        XCTAssertEqual(plain.setup.count, 0)
        XCTAssertFalse(plain.cases[0].usesTemporaryFolder)
        XCTAssertEqual(
            try parse(#"{"setup": [], "cases": [{"name": "c", "request": 1, "response": null}]}"#).setup.count, 0)
    }

    /// The new members' mistakes, each said as itself, naming the setup case at fault.
    func testMalformedEnvAndSetupAreRefused() {
        XCTAssertEqual(
            refusal(#"{"env": ["A=1"], "cases": [{"name": "c", "request": 1, "response": null}]}"#),
            #"/x/ping.json: "env" must be an object of strings, not an array"#)
        XCTAssertEqual(
            refusal(#"{"env": {"A": true}, "cases": [{"name": "c", "request": 1, "response": null}]}"#),
            #"/x/ping.json: "env".A must be a string, not a boolean"#)
        XCTAssertEqual(
            refusal(#"{"env": {"A=B": "1"}, "cases": [{"name": "c", "request": 1, "response": null}]}"#),
            #"/x/ping.json: "env" has "A=B", which is not a variable name (non-empty, with no "=" or NUL)"#)
        XCTAssertEqual(
            refusal(withCase(#""request": 1, "response": null, "env": {"": "1"}"#)),
            #"/x/ping.json#c: "env" has "", which is not a variable name (non-empty, with no "=" or NUL)"#)
        XCTAssertEqual(
            refusal(#"{"setup": {"name": "s"}, "cases": [{"name": "c", "request": 1, "response": null}]}"#),
            #"/x/ping.json: "setup" must be an array of cases, not an object"#)
        XCTAssertEqual(
            refusal(#"{"setup": [5], "cases": [{"name": "c", "request": 1, "response": null}]}"#),
            #"/x/ping.json#setup case 1: a case must be an object, not a number"#)
        XCTAssertEqual(
            refusal(
                #"{"setup": [{"name": "s", "request": 1}], "cases": [{"name": "c", "request": 1, "response": null}]}"#),
            #"/x/ping.json#s: no "response" (null, for a case that expects no reply)"#)
        XCTAssertEqual(
            refusal(
                #"{"setup": [{"name": "c", "request": 1, "response": null}], "cases": [{"name": "c", "request": 1, "response": null}]}"#
            ),
            #"/x/ping.json#c: a second case with this name (names are unique within a file, setup cases' included)"#)
        XCTAssertEqual(
            refusal(#"{"setup": [], "cases": []}"#), #"/x/ping.json: "cases" is empty"#,
            "setup cases are no cases of their own")
        XCTAssertEqual(
            refusal(#"{"before": [], "cases": [{"name": "c", "request": 1, "response": null}]}"#),
            #"/x/ping.json: unknown member "before" (a file has "description", "env", "setup" and "cases")"#)
    }

    /// A misspelt member would otherwise be ignored, and the case would check less than it says.
    func testAnUnknownMemberIsRefused() {
        XCTAssertTrue(
            refusal(withCase(#""request": 1, "response": null, "exit_cod": 1"#))
                .hasPrefix(#"/x/ping.json#c: unknown member "exit_cod" (a case has "args", "env", "exit_code""#))
    }

    func testFilesOnDiskAndFolders() throws {
        let folder = NSTemporaryDirectory() + "fixture-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let valid = #"{"cases": [{"name": "a", "request": 1, "response": null}]}"#
        for name in ["b.json", "a.json", "README.json"] {
            try Data(valid.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try Data("# not a fixture".utf8).write(to: URL(fileURLWithPath: folder + "/README.md"))
        XCTAssertEqual(
            try FixtureFile.loadAll(folder).map(\.name), ["a.json", "b.json"], "*.json but the README, in name order")
        XCTAssertEqual(try FixtureFile.loadAll(folder + "/b.json").map(\.name), ["b.json"])

        XCTAssertThrowsError(try FixtureFile.loadAll(folder + "/missing.json")) { error in
            XCTAssertEqual("\(error)", "\(folder)/missing.json: no such file")
        }
        let empty = folder + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        XCTAssertThrowsError(try FixtureFile.loadAll(empty)) { error in
            XCTAssertEqual("\(error)", "\(empty): the folder holds no *.json fixture file")
        }
        try Data("{\n  \"cases\": [\n    {\"name\": \"a\",}\n  ]\n}".utf8).write(
            to: URL(fileURLWithPath: folder + "/broken.json"))
        XCTAssertThrowsError(try FixtureFile.loadAll(folder)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("\(folder)/broken.json: not JSON: "), text)
            XCTAssertTrue(text.hasSuffix("at line 3, column 18"), "where an editor shows it: \(text)")
        }
    }
}
