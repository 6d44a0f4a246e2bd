#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import Synchronization
import WalletBridge

/// The host a fixture run talks to: a fresh one for every case, as a browser starts a fresh
/// host for every `sendNativeMessage`, so that no case depends on what a host before it kept in
/// memory. What a host writes to files persists (docs/fixtures.md, "State").
public struct HostUnderTest: Sendable {
    enum Kind: Sendable {
        case process(path: String, arguments: [String], environment: [String: String])
        case router(make: @Sendable () throws -> Router, arguments: [String])
    }

    let kind: Kind

    /// A host executable, started for every case as a child process over real pipes, in its own
    /// folder as browsers start it. A case's `args` replace `arguments`; its `env` is added to
    /// this process's environment and `environment`.
    public static func process(path: String, arguments: [String] = [], environment: [String: String] = [:])
        -> HostUnderTest
    {
        HostUnderTest(kind: .process(path: path, arguments: arguments, environment: environment))
    }

    /// A router served in this process through `Server`, its replies collected in memory: no
    /// process, no framing, no environment of its own. Cases that need one of those are skipped
    /// (`FixtureRunner.reasonToSkip`). A case's `args` replace `arguments`, as the caller.
    ///
    /// `router` is evaluated for every case: `.router(makeRouter())` gives each case a router of
    /// its own, as a process host would have; a router held in a variable is shared, state and all.
    public static func router(_ router: @autoclosure @escaping @Sendable () throws -> Router, arguments: [String] = [])
        -> HostUnderTest
    {
        HostUnderTest(kind: .router(make: router, arguments: arguments))
    }

    /// The executable of a process host; nil for a router.
    public var executablePath: String? {
        if case .process(let path, _, _) = kind { path } else { nil }
    }

    /// The folder of an absolute path, where browsers start a host; nil for a relative one,
    /// which the child would otherwise look up from that folder.
    static func folder(of path: String) -> String? {
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A session for one case: `arguments` nil for the default ones.
    func open(arguments: [String]?, environment: [String: String]) throws -> any HostSession {
        switch kind {
        case .process(let path, let defaults, let base):
            let process = try HostProcess(
                executable: path, arguments: arguments ?? defaults, environment: base.merging(environment) { $1 },
                workingDirectory: Self.folder(of: path))
            return ProcessSession(process: process)
        case .router(let make, let defaults):
            return InProcessSession(router: try make(), arguments: arguments ?? defaults)
        }
    }
}

/// One connection to the host under test, as a browser's port is one: frames in, frames out,
/// then the end of input.
protocol HostSession: AnyObject {
    /// Sends one frame.
    func send(_ body: [UInt8]) throws
    /// Writes raw bytes, headers and all (a process only).
    func write(_ bytes: [UInt8]) throws
    /// The next frame, nil at the end of output; throws after `timeout` seconds.
    func readFrame(timeout: TimeInterval) throws -> [UInt8]?
    /// What a port that closes does: the end of input.
    func closeInput()
    /// The process's exit status, or nil for a host with no process.
    func waitForExit(timeout: TimeInterval) throws -> Int32?
    /// The end of what the host wrote on stderr, for failure reports.
    var stderrTail: String { get }
}

final class ProcessSession: HostSession {
    let process: HostProcess
    init(process: HostProcess) { self.process = process }

    func send(_ body: [UInt8]) throws { try process.send(body) }
    func write(_ bytes: [UInt8]) throws { try process.write(bytes) }
    func readFrame(timeout: TimeInterval) throws -> [UInt8]? { try process.readFrame(timeout: timeout) }
    func closeInput() { process.closeStdin() }
    func waitForExit(timeout: TimeInterval) throws -> Int32? { try process.waitForExit(timeout: timeout) }

    var stderrTail: String {
        let lines = process.stderrText.split(separator: "\n", omittingEmptySubsequences: true)
        return lines.suffix(20).joined(separator: "\n")
    }
}

/// A router behind a `Server` whose replies land in a queue.
final class InProcessSession: HostSession {
    private let server: Server
    private let replies = ReplyQueue()

    init(router: Router, arguments: [String]) {
        // The defaults, not `fromEnvironment()`: the test process's own variables are not the host's.
        server = Server(
            router: router, configuration: HostConfiguration(), caller: Caller(arguments: arguments),
            send: replies.append)
    }

    func send(_ body: [UInt8]) throws { server.receive(body) }

    func write(_ bytes: [UInt8]) throws {
        throw HostProcess.Failure.spawnFailed("raw bytes need a host process")  // skipped before it comes to this
    }

    /// After the end of input, what is left and then the end of output, as a process's pipe
    /// gives them.
    func readFrame(timeout: TimeInterval) throws -> [UInt8]? {
        guard let reply = replies.next(timeout: inputClosed ? 0 : timeout) else {
            if inputClosed { return nil }
            throw HostProcess.Failure.timedOut("a reply")
        }
        return reply
    }

    private var inputClosed = false

    /// Cancels what still runs, as a host does at the end of its input, and lets it answer.
    func closeInput() {
        inputClosed = true
        server.cancelAll()
        _ = server.waitUntilIdle(timeout: .seconds(1))
    }

    func waitForExit(timeout: TimeInterval) throws -> Int32? { nil }
    var stderrTail: String { "" }
}

/// Replies handed over from whichever thread answered to the one that reads them.
private final class ReplyQueue: Sendable {
    private let queue = Mutex<[[UInt8]]>([])
    private let arrived = DispatchSemaphore(value: 0)

    @Sendable func append(_ reply: [UInt8]) {
        queue.withLock { $0.append(reply) }
        arrived.signal()
    }

    func next(timeout: TimeInterval) -> [UInt8]? {
        guard arrived.wait(timeout: .now() + timeout) == .success else { return nil }
        return queue.withLock { $0.removeFirst() }
    }
}
