import WalletBridge
import WalletBridgeHost
import WalletBridgeProtocol
import WalletBridgeStdio
import XCTest

// A host built on the library answers a person's `--version` and `--help` (issue 35, item 4),
// and never a browser's arguments, which it serves as before.

private enum Save: RPCMethod {
    static let name = "notes.save"
    static let summary: String? = "Saves a note."
    struct Params: Codable, Sendable { var text: String }
    typealias Result = NoResult
}

private enum List: RPCMethod {
    static let name = "notes.list"
    typealias Result = [String]
}

final class HostCommandLineTests: XCTestCase {
    private func notesRouter(info: OpenRPC.Info? = OpenRPC.Info(title: "notes-host", version: "2.1.0")) throws -> Router
    {
        var router = Router()
        if let info { router.info = info }
        try router.register(Save.self) { _, _ in NoResult() }
        try router.register(List.self) { _, _ in [] }
        return router
    }

    private func answer(_ arguments: [String], router: Router? = nil) throws -> HostCommandLine.Answer? {
        HostCommandLine.answer(arguments, router: try router ?? notesRouter(), program: "notes-host")
    }

    func testBrowserArgumentsAndNoneAreServed() throws {
        // None (started by hand or by a test), Chromium's origin (with Windows' --parent-window
        // after it), Firefox's manifest path and add-on ID: an option after them is the browser's.
        for arguments in [
            [], ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "--parent-window=0"],
            ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "--version"],
            ["/home/u/.mozilla/native-messaging-hosts/notes.json", "notes@example.org"],
            ["/home/u/.mozilla/native-messaging-hosts/notes.json", "--help"], ["serve-me"],
        ] {
            XCTAssertNil(try answer(arguments), "\(arguments)")
        }
    }

    func testVersionIsTheRoutersOwnOnALineOfItsOwn() throws {
        XCTAssertEqual(try answer(["--version"]), HostCommandLine.Answer(output: "2.1.0\n", status: 0))
    }

    func testVersionWithoutOneSetFailsSayingHowToSetIt() throws {
        let unset = try XCTUnwrap(try answer(["--version"], router: notesRouter(info: nil)))
        XCTAssertEqual(unset.status, 1)
        XCTAssertEqual(unset.output, "", "nothing a script could take for a version")
        XCTAssertTrue(unset.errorOutput.hasPrefix("notes-host: no version set: "), unset.errorOutput)
        XCTAssertTrue(
            unset.errorOutput.contains(#"router.info = OpenRPC.Info(title: "notes-host", version: "1.0.0")"#),
            unset.errorOutput)
    }

    func testHelpNamesTheHostAndItsMethodsWithTheirSummaries() throws {
        for option in ["--help", "-h"] {
            let help = try XCTUnwrap(try answer([option]))
            XCTAssertEqual(help.status, 0)
            XCTAssertEqual(help.errorOutput, "")
            XCTAssertTrue(
                help.output.hasPrefix(
                    "notes-host 2.1.0: a native messaging host for browser extensions, built on WalletBridge.\n"),
                help.output)
            XCTAssertTrue(help.output.contains("usage: notes-host [--help | --version]\n"), help.output)
            let methods = try XCTUnwrap(
                help.output.components(separatedBy: "\nMethods:\n").dropFirst().first, help.output)
            XCTAssertEqual(
                methods,
                """
                  notes.list
                  notes.save    Saves a note.
                  rpc.discover  This host's OpenRPC document: its methods, their params, results and errors.

                """)
        }
        // Unversioned: the executable's name, no version, and still every method.
        let unversioned = try XCTUnwrap(try answer(["--help"], router: notesRouter(info: nil)))
        XCTAssertEqual(unversioned.status, 0)
        XCTAssertTrue(unversioned.output.contains("notes.save    Saves a note."), unversioned.output)
        XCTAssertFalse(unversioned.output.contains("unversioned"), unversioned.output)
    }

    func testAnyOtherOptionIsAUsageError() throws {
        for arguments in [["--verbose"], ["-v"], ["--version", "extra"], ["--help", "--version"]] {
            let refused = try XCTUnwrap(try answer(arguments), "\(arguments)")
            XCTAssertEqual(refused.status, 64, "\(arguments)")
            XCTAssertEqual(refused.output, "", "\(arguments)")
            XCTAssertTrue(
                refused.errorOutput.hasSuffix("usage: notes-host [--help | --version]\n"), refused.errorOutput)
        }
    }

    func testWhatOthersChoseReachesTheTerminalEscaped() throws {
        var router = Router()
        router.info = OpenRPC.Info(title: "evil\u{1B}[2Jhost", version: "1\u{1B}[31m")
        let help = try XCTUnwrap(HostCommandLine.answer(["--help"], router: router, program: "evil"))
        XCTAssertFalse(help.output.contains("\u{1B}"), help.output)
        let version = try XCTUnwrap(HostCommandLine.answer(["--version"], router: router, program: "evil"))
        XCTAssertFalse(version.output.contains("\u{1B}"), version.output)
    }
}
