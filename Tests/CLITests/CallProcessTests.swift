import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `wallet-bridge call` against the real hosts and against fake hosts that misbehave the way
/// real ones do.
final class CallProcessTests: XCTestCase {
    private func call(_ sandbox: Sandbox, _ arguments: [String]) throws -> Run {
        try sandbox.walletBridge(["call", "--timeout", "20"] + arguments)
    }

    func testANormalCallPrintsTheReplyIndented() throws {
        let sandbox = try Sandbox()
        let result = try call(sandbox, ["--host-path", try Built.conformanceHost(), "subtract", "[42, 23]"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.stdout, "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": 19\n}\n")
    }

    func testRawPrintsTheExactBytes() throws {
        let sandbox = try Sandbox()
        let result = try call(
            sandbox,
            [
                "--host-path", try Built.conformanceHost(), "--raw", "--id", "\"seven\"", "subtract",
                #"{"minuend": 7, "subtrahend": 2}"#,
            ])
        XCTAssertEqual(result.status, 0, result.output)
        // The body as the host wrote it, then a newline that is not part of it: a shell prompt,
        // `| jq` and line-reading scripts all expect output to end in one.
        XCTAssertEqual(result.stdout, #"{"jsonrpc":"2.0","id":"seven","result":5}"# + "\n")
    }

    func testAnUnknownMethodPrintsMethodNotFoundAndExitsOne() throws {
        let sandbox = try Sandbox()
        // The shipped host, the default.
        let result = try call(sandbox, ["no.such.method"])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("\"code\": -32601"), result.stdout)
        XCTAssertTrue(result.stdout.contains("\"message\": \"Method not found\""), result.stdout)
    }

    func testTheHostIsStartedWithEachBrowsersArgvShape() throws {
        let sandbox = try Sandbox()
        let host = try Built.conformanceHost()
        let chrome = try call(
            sandbox, ["--host-path", host, "--as", "chrome", "--origin", TestIDs.chromeOrigin, "--raw", "test.context"])
        XCTAssertEqual(chrome.status, 0, chrome.output)
        XCTAssertTrue(chrome.stdout.contains("\"caller\":\"\(TestIDs.chromeOrigin)\""), chrome.stdout)
        let firefox = try call(
            sandbox, ["--host-path", host, "--as", "firefox", "--addon-id", TestIDs.firefoxID, "--raw", "test.context"])
        XCTAssertEqual(firefox.status, 0, firefox.output)
        XCTAssertTrue(firefox.stdout.contains("\"caller\":\"\(TestIDs.firefoxID)\""), firefox.stdout)
    }

    func testManifestNamesTheHostAndTheCaller() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(
            try sandbox.walletBridge(
                "install", "--browser", "firefox", "--firefox-addon", TestIDs.firefoxGUID, "--binary",
                try Built.conformanceHost()
            ).status, 0)
        let manifest = sandbox.home + "/.mozilla/native-messaging-hosts/com.walletbridge.host.json"
        let result = try call(sandbox, ["--manifest", manifest, "--raw", "test.context"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.contains("\"caller\":\"\(TestIDs.firefoxGUID)\""), result.stdout)
    }

    func testRepeatAndConcurrencyPrintASummary() throws {
        let sandbox = try Sandbox()
        let result = try call(
            sandbox,
            ["--host-path", try Built.conformanceHost(), "--repeat", "200", "--concurrency", "4", "subtract", "[5, 3]"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(
            result.stdout.contains("requests: 200 over 4 host processes; 200 results, 0 errors, 0 failed, 0 not sent"),
            result.stdout)
        XCTAssertTrue(result.stdout.contains("req/s"), result.stdout)
        XCTAssertTrue(result.stdout.contains("latency: p50 "), result.stdout)
        XCTAssertTrue(result.stdout.contains(" ms, p99 "), result.stdout)
    }

    func testRepeatCountsErrorResponses() throws {
        let sandbox = try Sandbox()
        let result = try call(sandbox, ["--repeat", "10", "--concurrency", "3", "no.such.method"])
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(
            result.stdout.contains("requests: 10 over 3 host processes; 0 results, 10 errors, 0 failed, 0 not sent"),
            result.stdout)
        XCTAssertTrue(result.stderr.contains("first error response: -32601 Method not found"), result.stderr)
    }

    func testAHostThatPrintsGarbageGetsTheBrowsersError() throws {
        let sandbox = try Sandbox()
        let host = try sandbox.write(
            sandbox.base + "/garbage-host", "#!/bin/sh\necho 'Hello from a debug print'\nexec sleep 30\n", mode: 0o755)
        let result = try call(sandbox, ["--host-path", host, "ping"])
        XCTAssertEqual(result.status, 2, result.output)
        // "Hell" read as a little-endian length, as the browser would.
        XCTAssertTrue(result.stderr.contains("message of 1819043144 bytes exceeds the limit"), result.stderr)
        XCTAssertTrue(result.stderr.contains("Something printed to stdout"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\"Hello from a debug print\\n\""), result.stderr)
    }

    func testAReplyOverOneMebibyteGetsTheDropPortError() throws {
        let sandbox = try Sandbox()
        let python = try XCTUnwrap(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile),
            "the fake host needs python3")
        let host = try sandbox.write(
            sandbox.base + "/big-host",
            """
            #!\(python)
            import json, struct, sys
            length = struct.unpack("=I", sys.stdin.buffer.read(4))[0]
            request = json.loads(sys.stdin.buffer.read(length))
            body = json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": "x" * 1100000}).encode()
            sys.stdout.buffer.write(struct.pack("=I", len(body)) + body)
            sys.stdout.buffer.flush()

            """, mode: 0o755)
        let result = try call(sandbox, ["--host-path", host, "ping"])
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(
            result.stderr.contains("Chrome and Firefox would drop the port: reply of 1100041 bytes exceeds 1048576"),
            result.stderr)
        XCTAssertEqual(result.stdout, "")
    }

    func testAHostThatExitsWithoutReplyingReportsStatusAndStderr() throws {
        let sandbox = try Sandbox()
        let host = try sandbox.write(
            sandbox.base + "/dying-host", "#!/bin/sh\necho 'cannot open the keystore' >&2\nexit 3\n", mode: 0o755)
        let result = try call(sandbox, ["--host-path", host, "ping"])
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.stderr.contains("the host exited with status 3 without replying"), result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot open the keystore"), result.stderr)
    }

    func testTimeoutBoundsTheWait() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.walletBridge(
            "call", "--host-path", try Built.conformanceHost(), "--timeout", "0.3", "test.hang")
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(result.stderr.contains("no reply within 0.3 s (--timeout)"), result.stderr)
    }

    func testANotificationExpectsNoReply() throws {
        let sandbox = try Sandbox()
        let result = try call(sandbox, ["--host-path", try Built.conformanceHost(), "--notify", "notify_hello", "[7]"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(result.stdout, "")
    }

    func testUsageErrors() throws {
        let sandbox = try Sandbox()
        let cases: [([String], String)] = [
            (["--manifest", "a.json", "--host-path", "b", "m"], "exclude each other"),
            (["--as", "firefox", "--origin", TestIDs.chromeOrigin, "m"], "--origin"),
            (["m", "42"], "PARAMS_JSON must be an object or an array"),
            (["m", "{oops"], "PARAMS_JSON is not JSON"),
            (["--repeat", "0", "m"], "--repeat must be at least 1"),
        ]
        for (arguments, expected) in cases {
            let result = try sandbox.walletBridge(["call"] + arguments)
            // Not 1, which means a JSON-RPC error reply: a script must tell the two apart.
            XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }

    func testAManifestThatCannotBeUsedExitsThreeWithAPlainMessage() throws {
        let sandbox = try Sandbox()
        let cases: [(String, String, String)] = [
            ("bad.json", "{oops", "not valid JSON: expected a string key at byte 1"),
            ("array.json", "[1]", "a JSON array, not an object"),
            ("relative.json", #"{"path": "host"}"#, "\"path\" \"host\" is not absolute"),
            ("pathless.json", "{}", "no \"path\" string"),
        ]
        for (name, content, expected) in cases {
            let path = try sandbox.write(sandbox.base + "/" + name, content)
            let result = try call(sandbox, ["--manifest", path, "m"])
            XCTAssertEqual(result.status, 3, result.output)
            XCTAssertTrue(result.stderr.contains("--manifest \(path): \(expected)"), result.stderr)
            XCTAssertFalse(
                result.stderr.contains("invalidJSON") || result.stderr.contains("notAnObject"), result.stderr)
        }
        let missing = try call(sandbox, ["--manifest", sandbox.base + "/none.json", "m"])
        XCTAssertEqual(missing.status, 3, missing.output)
        XCTAssertTrue(
            missing.stderr.contains("--manifest \(sandbox.base)/none.json: cannot be read: No such file or directory"),
            missing.stderr)
    }

    func testRepeatClosesHungHostsTogetherNotOneAfterAnother() throws {
        let sandbox = try Sandbox()
        // Reads nothing, ignores SIGTERM: each must be killed, after the grace and SIGTERM's.
        let host = try sandbox.write(
            sandbox.base + "/hung-host", "#!/bin/sh\ntrap '' TERM\nexec /bin/sleep 60\n", mode: 0o755)
        let start = Date()
        let result = try sandbox.walletBridge(
            "call", "--host-path", host, "--repeat", "3", "--concurrency", "3", "--timeout", "1", "ping")
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(result.status, 2, result.output)
        XCTAssertTrue(
            result.stdout.contains("requests: 3 over 3 host processes; 0 results, 0 errors, 3 failed, 0 not sent"),
            result.stdout)
        // One timeout, then the hosts closed at once (a short grace, SIGTERM ignored for 1 s,
        // SIGKILL); closed one after another, it took 1 + 3 × 3 s.
        XCTAssertLessThan(elapsed, 4.5, result.output)
    }
}
