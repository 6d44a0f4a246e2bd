import Foundation
import Glibc
import WalletBridge
import WalletBridgeTesting
import WalletBridgeTestSupport
import XCTest

final class LifecycleTests: XCTestCase {
    /// The conformance host, saying on stderr when a sleeping, hanging or blocking handler starts.
    private func conformanceHost(_ environment: [String: String] = [:]) throws -> HostProcess {
        try HostProcess(
            executable: BuiltProducts.executable("wallet-bridge-conformance-host"),
            environment: environment.merging(["WALLET_BRIDGE_TEST_ANNOUNCE_STARTS": "1"]) { mine, _ in mine })
    }

    /// Waits until `count` handlers of `method` are in flight: the host has said they started.
    private func waitUntilStarted(
        _ host: HostProcess, _ method: String, count: Int = 1, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try waitUntil("\(count) \(method) handlers started; stderr: \(host.stderrText)", file: file, line: line) {
            host.stderrText.components(separatedBy: "started \(method) ").count - 1 >= count
        }
    }

    /// Whether a write to the pipe that `fd` is our end of would block: every page of it is
    /// taken. Asked of a second write end opened on it here, which is closed at once.
    private static func isFull(pipe fd: Int32) -> Bool {
        let writer = open("/proc/self/fd/\(fd)", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard writer >= 0 else { return false }
        defer { close(writer) }
        var events = pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)
        return poll(&events, 1, 0) == 0
    }

    /// The bytes `pid` has read (`rchar` in /proc/<pid>/io): its requests, in a host that reads
    /// no file.
    private static func bytesRead(by pid: pid_t) -> Int {
        let io = (try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)) ?? ""
        let line = io.split(separator: "\n").first { $0.hasPrefix("rchar: ") }
        return line.flatMap { Int($0.dropFirst("rchar: ".count)) } ?? 0
    }

    func testEndOfInputCancelsInFlightAndExitsZero() throws {
        let host = try conformanceHost()
        try host.send(#"{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":60000},"id":9}"#)
        try waitUntilStarted(host, "test.sleep")
        let started = Date()
        host.closeStdin()
        let reply = try XCTUnwrap(host.readFrame(timeout: 3))
        XCTAssertEqual(
            String(decoding: reply, as: UTF8.self),
            #"{"jsonrpc":"2.0","id":9,"error":{"code":-32002,"message":"Request cancelled"}}"#)
        XCTAssertEqual(try host.waitForExit(timeout: 3), 0)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "the handler was cancelled, not waited for")
    }

    func testEndOfInputWithAHandlerThatIgnoresCancellationStillExits() throws {
        let host = try conformanceHost(["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "200"])
        try host.send(#"{"jsonrpc":"2.0","method":"test.hang","id":1}"#)
        try waitUntilStarted(host, "test.hang")
        host.closeStdin()
        XCTAssertNil(try host.readFrame(timeout: 3), "a handler that never returns gets no reply after shutdown")
        XCTAssertEqual(try host.waitForExit(timeout: 3), 0)
    }

    func testRequestsReceivedBeforeEndOfInputAreStillAnswered() throws {
        // `printf frames | host` closes stdin at once; quick handlers must still answer.
        let host = try conformanceHost()
        try host.send(#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#)
        try host.send(#"{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":2}"#)
        host.closeStdin()
        var ids: Set<String> = []
        while let body = try host.readFrame() {
            guard case .object(let reply) = try JSONParser.parse(body) else { return XCTFail() }
            ids.insert(reply["id"]!.compactText)
        }
        XCTAssertEqual(ids, ["1", "2"])
        XCTAssertEqual(try host.waitForExit(), 0)
    }

    func testSigtermExitsZeroPromptly() throws {
        let host = try conformanceHost(["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "200"])
        try host.send(#"{"jsonrpc":"2.0","method":"test.hang","id":1}"#)
        try host.send(#"{"jsonrpc":"2.0","method":"sum","params":[1],"id":2}"#)
        _ = try XCTUnwrap(host.readFrame())
        kill(host.pid, SIGTERM)
        // The grace is 200 ms; the wide bound only keeps a CPU-starved CI machine from failing
        // a host that does exit (seen once in 25 runs beside two busy loops).
        XCTAssertEqual(try host.waitForExit(timeout: 10), 0)
    }

    func testSigintAndSighupEndTheHostLikeSigterm() throws {
        for signalNumber in [SIGINT, SIGHUP] {
            let host = try conformanceHost(["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "200"])
            try host.send(#"{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":60000},"id":1}"#)
            try waitUntilStarted(host, "test.sleep")
            kill(host.pid, signalNumber)
            let reply = try XCTUnwrap(host.readFrame(timeout: 5), "signal \(signalNumber)")
            XCTAssertEqual(
                String(decoding: reply, as: UTF8.self),
                #"{"jsonrpc":"2.0","id":1,"error":{"code":-32002,"message":"Request cancelled"}}"#)
            XCTAssertEqual(try host.waitForExit(timeout: 10), 0, "signal \(signalNumber)")
        }
    }

    func testSigtermEndsTheHostWithinTheGraceWhateverHandlersAreBlockedOn() throws {
        // Handlers stuck in read(2), deaf to cancellation, on more threads than the pool has
        // (it is as wide as the machine has cores): only the reader thread is left to act on
        // SIGTERM, and it must, within the grace.
        let host = try conformanceHost(["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "300"])
        let blocked = ProcessInfo.processInfo.activeProcessorCount + 2
        for id in 1...blocked { try host.send(#"{"jsonrpc":"2.0","method":"test.block","id":\#(id)}"#) }
        try host.send(#"{"jsonrpc":"2.0","method":"NATIVE_GET_ACCOUNTS_METHOD","id":"alive"}"#)
        XCTAssertTrue(String(decoding: try XCTUnwrap(host.readFrame()), as: UTF8.self).contains(#""id":"alive""#))
        // Every blocking handler that can start has: the pool is as wide as the machine's cores.
        try waitUntilStarted(host, "test.block", count: ProcessInfo.processInfo.activeProcessorCount)
        let signalled = Date()
        kill(host.pid, SIGTERM)
        XCTAssertEqual(try host.waitForExit(timeout: 10), 0, host.stderrText)
        let elapsed = Date().timeIntervalSince(signalled)
        XCTAssertLessThan(elapsed, 0.3 + 0.2, "the grace is 300 ms; stderr: \(host.stderrText)")
        XCTAssertNil(try host.readFrame(timeout: 1), "a handler that never returns gets no reply")
    }

    func testSigtermEndsTheHostWithinTheGraceEvenWhenTheReaderThreadIsBlocked() throws {
        // A quick (`.immediate`) handler runs on the reader thread, the one that reads signals.
        // Stuck in read(2), it used to keep SIGTERM unanswered for good.
        let host = try conformanceHost(["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "300"])
        try host.send(#"{"jsonrpc":"2.0","method":"test.blockReader","id":1}"#)
        try waitUntilStarted(host, "test.blockReader")  // the reader is inside the handler
        let signalled = Date()
        kill(host.pid, SIGTERM)
        XCTAssertEqual(try host.waitForExit(timeout: 10), 0, host.stderrText)
        let elapsed = Date().timeIntervalSince(signalled)
        XCTAssertGreaterThan(elapsed, 0.25, "the grace is counted from the signal")
        XCTAssertLessThan(elapsed, 0.3 + 0.2, "the grace is 300 ms; stderr: \(host.stderrText)")
        XCTAssertTrue(
            host.stderrText.contains("a signal arrived while a handler blocked the reader thread"), host.stderrText)
    }

    func testSigtermEndsAHostWhoseStdoutNobodyReads() throws {
        // The reader thread handles signals, so it must never block on a full stdout pipe.
        let host = try conformanceHost(["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "200"])
        let request = HostProcess.frame(Array(#"{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":1}"#.utf8))
        host.writeInBackground(Array([[UInt8]](repeating: request, count: 20_000).joined()))
        try waitUntil("replies fill stdout's pipe") { Self.isFull(pipe: host.stdoutFD) }  // nobody reads them
        kill(host.pid, SIGTERM)
        XCTAssertEqual(try host.waitForExit(timeout: 10), 0, "SIGTERM was not acted on")
    }

    func testRepliesHeldUpByASlowReaderAllArrive() throws {
        // 1,000 replies of 10 KB: twice what the pipe and the host's 4 MiB backlog hold, so
        // the host stops reading requests until the browser catches up, then goes on.
        let host = try conformanceHost()
        let text = String(repeating: "y", count: 10_000)
        let requests = (1...1_000).map {
            HostProcess.frame(
                Array(#"{"jsonrpc":"2.0","method":"test.echo","params":{"t":"\#(text)"},"id":\#($0)}"#.utf8))
        }
        host.writeInBackground(Array(requests.joined()))
        // Held up: stdout's pipe is full, and the host has read requests for more replies than
        // its backlog holds, so it has stopped reading, or is about to.
        try waitUntil("the host is held up; it read \(Self.bytesRead(by: host.pid)) bytes") {
            Self.isFull(pipe: host.stdoutFD) && Self.bytesRead(by: host.pid) > FrameWriter.backlogLimit
        }
        var ids: Set<String> = []
        while ids.count < 1_000, let body = try host.readFrame(timeout: 10) {
            guard case .object(let reply) = try JSONParser.parse(body), reply["result"] != nil else {
                return XCTFail("not a result")
            }
            ids.insert(reply["id"]!.compactText)
        }
        XCTAssertEqual(ids.count, 1_000)
        host.closeStdin()
        XCTAssertEqual(try host.waitForExit(), 0)
    }

    func testAccountsAreServedWithoutStartingAThread() throws {
        // GetAccounts is `.immediate`: answered on the reading thread, so a sendNativeMessage
        // call pays for no thread. A pooled method still works beside it.
        let host = try conformanceHost()
        try host.send(#"{"jsonrpc":"2.0","method":"NATIVE_GET_ACCOUNTS_METHOD","id":1}"#)
        _ = try XCTUnwrap(host.readFrame())
        XCTAssertEqual(try Self.threadCount(host.pid), 1)
        try host.send(#"{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":1},"id":2}"#)
        _ = try XCTUnwrap(host.readFrame())
        XCTAssertGreaterThan(try Self.threadCount(host.pid), 1, "a concurrent method runs on the pool")
        host.closeStdin()
        XCTAssertEqual(try host.waitForExit(), 0)
    }

    func testPipesGrowToOneMebibyteOnlyForLargeMessages() throws {
        let host = try conformanceHost()
        let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ
        try host.send(#"{"jsonrpc":"2.0","method":"sum","params":[1],"id":1}"#)
        _ = try XCTUnwrap(host.readFrame())
        XCTAssertEqual(fcntl(host.stdinFD, getPipeSize), 65_536, "small messages leave the pipe alone")
        XCTAssertEqual(fcntl(host.stdoutFD, getPipeSize), 65_536)
        let text = String(repeating: "x", count: 200_000)
        try host.send(#"{"jsonrpc":"2.0","method":"test.echo","params":{"text":"\#(text)"},"id":2}"#)
        let reply = try XCTUnwrap(host.readFrame())
        XCTAssertGreaterThan(reply.count, 200_000)
        XCTAssertEqual(fcntl(host.stdinFD, getPipeSize), 1 << 20)
        XCTAssertEqual(fcntl(host.stdoutFD, getPipeSize), 1 << 20)
        host.closeStdin()
        XCTAssertEqual(try host.waitForExit(), 0)
    }

    /// The host's threads.
    static func threadCount(_ pid: pid_t) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count
    }

    func testClosedStdoutIsACleanExitNotSigpipe() throws {
        let host = try conformanceHost()
        host.closeStdout()
        try host.send(#"{"jsonrpc":"2.0","method":"sum","params":[1],"id":1}"#)
        let status = try host.waitForExit(timeout: 5)
        XCTAssertEqual(status, 0, "128+13 would mean SIGPIPE killed it; stderr: \(host.stderrText)")
    }

    /// EPIPE met while a request is still in the in-flight table (its reply being written) must
    /// end the host at once: the request leaves the table right after, so there is nothing to
    /// wait for. A grace of 3 s makes a host that waits it out unmistakable.
    func testEPIPEEndsTheHostAtOnceWhereverTheReplyIsWritten() throws {
        let unknownMethods = (1...1024).map { #"{"jsonrpc":"2.0","method":"no.such.method","id":\#($0)}"# }
        let cases: [(what: String, environment: [String: String], request: String, delay: TimeInterval)] = [
            // The reply is written by the handler's own pool thread, after the reader's batch.
            (
                "a pool handler's reply", [:], #"{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":50},"id":1}"#,
                0.05
            ),
            // `.immediate` entries answered on the reader thread; the joined reply (80 KB) is
            // too large to gather, so it is written from inside the last entry's answer.
            ("a batch answered on the reader thread", [:], "[" + unknownMethods.joined(separator: ",") + "]", 0),
            // The timeout sweep answers on the reader thread, before the call leaves the table.
            (
                "a timeout's answer", ["WALLET_BRIDGE_REQUEST_TIMEOUT_MS": "50"],
                #"{"jsonrpc":"2.0","method":"test.hang","id":1}"#, 0.05
            ),
        ]
        for (what, environment, request, delay) in cases {
            var environment = environment
            environment["WALLET_BRIDGE_SHUTDOWN_GRACE_MS"] = "3000"
            environment["WALLET_BRIDGE_LOG"] = "warning"
            let host = try conformanceHost(environment)
            host.closeStdout()
            let sent = Date()
            try host.send(request)
            XCTAssertEqual(try host.waitForExit(timeout: 10), 0, what)
            // `delay` until the reply is written and meets EPIPE, then at most 100 ms.
            let elapsed = Date().timeIntervalSince(sent)
            XCTAssertLessThan(elapsed, delay + 0.1, "\(what): the host waited after EPIPE; stderr: \(host.stderrText)")
            XCTAssertFalse(host.stderrText.contains("did not finish"), "\(what): \(host.stderrText)")
        }
    }

    func testOversizedHeaderExitsNonzeroWithOneClearLine() throws {
        let host = try conformanceHost()
        try host.write([0xFF, 0xFF, 0xFF, 0x7F])
        let reply = try XCTUnwrap(host.readFrame())
        XCTAssertTrue(String(decoding: reply, as: UTF8.self).contains("-32004"))
        XCTAssertEqual(try host.waitForExit(), 1)
        let lines = host.stderrText.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, host.stderrText)
        XCTAssertTrue(lines.first?.contains("exceeds the limit of 67108864 bytes") == true, host.stderrText)
        // Under the executable's own name: a developer's custom host is not "wallet-bridge".
        XCTAssertTrue(lines.first?.hasPrefix("wallet-bridge-conformance-host: error: ") == true, host.stderrText)
    }

    func testRequestTimeoutAnswersAndOthersAreUnaffected() throws {
        let host = try conformanceHost(["WALLET_BRIDGE_REQUEST_TIMEOUT_MS": "300"])
        try host.send(#"{"jsonrpc":"2.0","method":"test.hang","id":"hung"}"#)
        try host.send(#"{"jsonrpc":"2.0","method":"sum","params":[2,2],"id":"ok"}"#)
        XCTAssertEqual(
            try host.readFrame().map { String(decoding: $0, as: UTF8.self) }, #"{"jsonrpc":"2.0","id":"ok","result":4}"#
        )
        XCTAssertEqual(
            try host.readFrame().map { String(decoding: $0, as: UTF8.self) },
            #"{"jsonrpc":"2.0","id":"hung","error":{"code":-32001,"message":"Request timed out"}}"#)
        try host.send(#"{"jsonrpc":"2.0","method":"sum","params":[3],"id":"after"}"#)
        XCTAssertEqual(
            try host.readFrame().map { String(decoding: $0, as: UTF8.self) },
            #"{"jsonrpc":"2.0","id":"after","result":3}"#)
    }

    /// A port's reader waits for the next request in read(2) itself once it has nothing else
    /// to wait for, with `ReaderWatch` looking after signals, end requests and the parent. Every
    /// way the session ends must still end it, at once.
    func testAPortWaitingInReadEndsOnEverySignalAndAtEndOfInput() throws {
        for signalNumber in [SIGTERM, SIGINT, SIGHUP, 0] {
            let host = try conformanceHost(["WALLET_BRIDGE_SHUTDOWN_GRACE_MS": "200"])
            try Self.becomeAnIdlePort(host)
            let sent = Date()
            if signalNumber == 0 { host.closeStdin() } else { kill(host.pid, signalNumber) }
            XCTAssertEqual(try host.waitForExit(timeout: 10), 0, "signal \(signalNumber): \(host.stderrText)")
            // Seen at once, not at the watch's next round (500 ms).
            XCTAssertLessThan(Date().timeIntervalSince(sent), 0.45, "signal \(signalNumber): \(host.stderrText)")
            // Ended by the watch, not by the signal's backstop, which also ends it within the grace.
            XCTAssertFalse(
                host.stderrText.contains("a signal arrived while"), "signal \(signalNumber): \(host.stderrText)")
        }
    }

    /// Two GetAccounts, answered on the reader thread; the reader then waits in read(2), and the
    /// watch has started beside it: two threads.
    private static func becomeAnIdlePort(_ host: HostProcess) throws {
        for id in 1...2 {
            try host.send(#"{"jsonrpc":"2.0","method":"NATIVE_GET_ACCOUNTS_METHOD","id":\#(id)}"#)
            _ = try XCTUnwrap(host.readFrame())
        }
        try waitUntil("the watch starts beside the reader") { try threadCount(host.pid) >= 2 }
        XCTAssertEqual(try threadCount(host.pid), 2, "the reader and its watch")
    }

    /// The parent is SIGKILLed while the host's stdin stays open (another process holds the
    /// pipe), so only the parent watch can notice. The host must not be orphaned.
    func testHostExitsWhenItsParentIsKilled() throws {
        try assertHostExitsWhenItsParentIsKilled(afterRequests: 0)
    }

    /// The same, once the host serves a port and waits in read(2): the watch notices.
    func testAPortWaitingInReadExitsWhenItsParentIsKilled() throws {
        try assertHostExitsWhenItsParentIsKilled(afterRequests: 2)
    }

    private func assertHostExitsWhenItsParentIsKilled(afterRequests requests: Int) throws {
        let hostPath = try BuiltProducts.executable("wallet-bridge-conformance-host")
        let folder = temporaryFolder(self, prefix: "wb-parent")
        let frames = (0..<requests).flatMap { id in
            HostProcess.frame(Array(#"{"jsonrpc":"2.0","method":"NATIVE_GET_ACCOUNTS_METHOD","id":\#(id)}"#.utf8))
        }
        XCTAssertTrue(FileManager.default.createFile(atPath: "\(folder)/requests", contents: Data(frames)))
        // sh starts `sleep | host` in the background and waits; $! is the host's pid. The sleep
        // writes its own pid first, so that exactly it is ended afterwards (it outlives sh), and
        // the requests before it becomes the sleep.
        let script =
            #"sh -c 'echo $$ > "$0"; cat "$1"; exec sleep 30' "$1/sleep.pid" "$1/requests" | "$0" > /dev/null & echo $! > "$1/host.pid"; wait"#
        let parent = try HostProcess(executable: "/bin/sh", arguments: ["-c", script, hostPath, folder])
        func pid(_ name: String) -> pid_t {
            pid_t(
                (try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines) ?? "") ?? 0
        }
        var hostPID: pid_t = 0
        var sleepPID: pid_t = 0
        defer { if sleepPID > 0 { kill(sleepPID, SIGKILL) } }
        try waitUntil("sh writes the host's and the sleep's pids") {
            (hostPID, sleepPID) = (pid("host.pid"), pid("sleep.pid"))
            return hostPID > 0 && sleepPID > 0
        }
        // $! names the forked shell before it becomes the host: a parent killed then would be
        // gone before the host's main read it. The wake-up pipe is made after that read.
        let hostFile = URL(fileURLWithPath: hostPath).resolvingSymlinksInPath().path  // .build/debug is a link
        func serving() -> Bool {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(hostPID)/exe")) == hostFile
                && Self.hasMadeItsWakeUpPipe(hostPID)
        }
        try waitUntil("host \(hostPID) serves") { serving() }
        if requests >= 2 {
            try waitUntil("the reader waits in read(2), its watch beside it") {
                (try? Self.threadCount(hostPID)) == 2
            }
        }
        XCTAssertTrue(Self.isRunning(hostPID))
        kill(parent.pid, SIGKILL)
        _ = try parent.waitForExit()
        try waitUntil("host \(hostPID) ends with its parent", within: .seconds(5)) { !Self.isRunning(hostPID) }
    }

    /// Whether the process holds a pipe beyond stdin and stdout: in a host (not in the shell
    /// before its `exec`), the wake-up pipe, which `StdioHost.run` makes after `main` read the
    /// parent's pid.
    static func hasMadeItsWakeUpPipe(_ pid: pid_t) -> Bool {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return descriptors.compactMap(Int.init).contains { descriptor in
            descriptor > 2
                && ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"))?
                    .hasPrefix("pipe:") ?? false)
        }
    }

    /// Running and not a zombie (an exited child of a non-reaping init stays a zombie).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }
}
