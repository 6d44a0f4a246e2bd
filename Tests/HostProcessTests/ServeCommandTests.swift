import Foundation
import Glibc
import WalletBridgeTesting
import WalletBridgeTestSupport
import XCTest

/// `wallet-bridge serve`, the shipped binary started by hand, must end the way a browser-started
/// host does: SIGTERM, end of input and a closed stdout all exit 0, after the grace at most.
final class ServeCommandTests: XCTestCase {
    private var home = ""
    private static let getAccounts = #"{"jsonrpc":"2.0","id":1,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#
    private static let noAccounts = #"{"jsonrpc":"2.0","id":1,"result":{"addresses":[]}}"#

    override func setUpWithError() throws {
        home = temporaryFolder(self, prefix: "serve")
        try FileManager.default.createDirectory(
            atPath: "\(home)/.config/wallet-bridge", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: "\(home)/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private func serve(_ options: [String] = [], environment: [String: String] = [:]) throws -> HostProcess {
        var environment = environment
        environment["HOME"] = home
        environment["XDG_RUNTIME_DIR"] = "\(home)/run"  // this test's own agent, gone with the home
        return try HostProcess(
            executable: BuiltProducts.executable("wallet-bridge"), arguments: ["serve"] + options,
            environment: environment, isolated: true)
    }

    func testServeAnswersAndExitsZeroAtEndOfInput() throws {
        let host = try serve()
        try host.send(Self.getAccounts)
        XCTAssertEqual(try host.readFrame().map { String(decoding: $0, as: UTF8.self) }, Self.noAccounts)
        host.closeStdin()
        XCTAssertNil(try host.readFrame())
        XCTAssertEqual(try host.waitForExit(), 0, host.stderrText)
    }

    func testServeExitsZeroOnSigtermSigintAndSighup() throws {
        for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
            let host = try serve(environment: ["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "200"])
            try host.send(Self.getAccounts)
            XCTAssertEqual(try host.readFrame().map { String(decoding: $0, as: UTF8.self) }, Self.noAccounts)
            let signalled = Date()
            kill(host.pid, signalNumber)
            // 128 + 15 = 143 would mean the signal's default action ended it: no grace at all.
            XCTAssertEqual(try host.waitForExit(timeout: 10), 0, "signal \(signalNumber); stderr: \(host.stderrText)")
            XCTAssertLessThan(Date().timeIntervalSince(signalled), 0.2 + 0.3, "signal \(signalNumber)")
        }
    }

    func testServeExitsZeroAtOnceWhenStdoutCloses() throws {
        let host = try serve(environment: ["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "3000"])
        host.closeStdout()
        let sent = Date()
        try host.send(Self.getAccounts)
        XCTAssertEqual(try host.waitForExit(timeout: 10), 0, "128+13 would be SIGPIPE; stderr: \(host.stderrText)")
        XCTAssertLessThan(Date().timeIntervalSince(sent), 0.1, "the host waited after EPIPE")
    }

    func testServeRunsOnTheReadingThreadLikeABrowserLaunch() throws {
        // Served before the argument parser's async main, like a browser launch: GetAccounts
        // (`.immediate`) is answered on the one thread there is, with the signals blocked.
        let host = try serve()
        try host.send(Self.getAccounts)
        _ = try XCTUnwrap(host.readFrame())
        XCTAssertEqual(try LifecycleTests.threadCount(host.pid), 1)
        host.closeStdin()
        XCTAssertEqual(try host.waitForExit(), 0)
    }

    func testServeCallerIsTheCallerThePolicySees() throws {
        try #"{"allow": {"chrome-extension://abcdefghijklmnopabcdefghijklmnop/": ["*"], "me@example.org": ["*"]}}"#
            .write(toFile: "\(home)/.config/wallet-bridge/config.json", atomically: true, encoding: .utf8)
        for (caller, allowed) in [
            ("chrome-extension://abcdefghijklmnopabcdefghijklmnop/", true), ("me@example.org", true),
            ("chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/", false), ("other@example.org", false),
        ] {
            for options in [["--caller", caller], ["--caller=\(caller)"]] {
                let host = try serve(options)
                try host.send(Self.getAccounts)
                let reply = String(decoding: try XCTUnwrap(host.readFrame()), as: UTF8.self)
                XCTAssertEqual(reply == Self.noAccounts, allowed, "\(options): \(reply)")
                if !allowed { XCTAssertTrue(reply.contains(#""code":-1"#), reply) }
                host.closeStdin()
                XCTAssertEqual(try host.waitForExit(), 0)
            }
        }
    }

    func testServeHelpAndBadOptionsGoToTheArgumentParser() throws {
        let help = Process()
        help.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("wallet-bridge"))
        help.arguments = ["serve", "--help"]
        let output = Pipe()
        help.standardOutput = output
        help.standardInput = FileHandle.nullDevice
        try help.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        help.waitUntilExit()
        XCTAssertEqual(help.terminationStatus, 0)
        XCTAssertTrue(text.contains("--caller"), text)
        let bad = try serve(["--no-such-option"])
        XCTAssertEqual(try bad.waitForExit(), 64, bad.stderrText)
        XCTAssertTrue(bad.stderrText.contains("--no-such-option"), bad.stderrText)
    }
}
