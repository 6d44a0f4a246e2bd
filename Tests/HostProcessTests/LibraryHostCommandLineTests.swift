import Foundation
import WalletBridgeTesting
import XCTest

/// A host built on the library, started by a person: `--version` and `--help` answered and the
/// process gone; started by a browser, with an option after the browser's arguments, served as
/// before, with nothing but frames on stdout (issue 35, item 4). The conformance host is such a
/// host (`StdioHost.run(router:...)`); the shipped `wallet-bridge` keeps its own command line.
final class LibraryHostCommandLineTests: XCTestCase {
    private struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `executable` to its end, stdin from /dev/null, output through files.
    private func run(_ executable: String, _ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let scratch = NSTemporaryDirectory() + "host-command-line-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: scratch + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: scratch + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: scratch + ".out")
            try? FileManager.default.removeItem(atPath: scratch + ".err")
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + ".err"))
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        process.waitUntilExit()
        let text = { (path: String) in
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return Run(status: process.terminationStatus, stdout: text(scratch + ".out"), stderr: text(scratch + ".err"))
    }

    private var host: String { get throws { try BuiltProducts.executable("wallet-bridge-conformance-host") } }

    func testVersionIsTheOneItsRouterNames() throws {
        // The conformance host names itself with the package's version, which the shipped
        // binary's own `--version` (unchanged, from its argument parser) prints too.
        let shipped = try run(try BuiltProducts.executable("wallet-bridge"), ["--version"])
        XCTAssertEqual(shipped.status, 0, shipped.stderr)
        let version = try run(try host, ["--version"])
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertEqual(version.stdout, shipped.stdout)
        XCTAssertFalse(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        XCTAssertEqual(version.stderr, "")
    }

    func testHelpNamesTheHostAndItsMethods() throws {
        let help = try run(try host, ["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.hasPrefix("wallet-bridge-conformance-host "), help.stdout)
        for line in ["  subtract\n", "  test.echo\n", "  rpc.discover "] {
            XCTAssertTrue(help.stdout.contains(line), "\(line) in:\n\(help.stdout)")
        }
        XCTAssertTrue(help.stdout.contains("Lists the wallet's accounts"), "a method's summary: \(help.stdout)")
    }

    func testAnUnknownOptionIsAUsageError() throws {
        let refused = try run(try host, ["--verbose"])
        XCTAssertEqual(refused.status, 64)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertTrue(refused.stderr.contains("unknown option --verbose"), refused.stderr)
    }

    func testABrowsersArgumentsAreServedWhateverFollowsThem() throws {
        // Chromium's origin, then an option (Windows passes --parent-window); Firefox's manifest
        // path, then an add-on ID that happens to look like an option. Each is served: the reply
        // is a frame, and stdout holds nothing else.
        for arguments in [
            ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "--version"],
            ["/home/u/.mozilla/native-messaging-hosts/com.walletbridge.host.json", "--help"],
        ] {
            let process = try HostProcess(executable: try host, arguments: arguments)
            try process.send(#"{"jsonrpc":"2.0","id":1,"method":"subtract","params":[42,23]}"#)
            XCTAssertEqual(
                try process.readFrame().map { String(decoding: $0, as: UTF8.self) },
                #"{"jsonrpc":"2.0","id":1,"result":19}"#, "\(arguments)")
            process.closeStdin()
            XCTAssertNil(try process.readFrame(), "nothing after the reply: \(arguments)")
            XCTAssertEqual(try process.waitForExit(), 0, process.stderrText)
        }
    }
}
