import Dispatch
import Synchronization
import WalletBridgeHost
import WalletBridgeProtocol
import WalletBridgeTestSupport

/// A channel in memory, in the style of ChimeHQ/JSONRPC's predefined-messages channel: it plays
/// a script of inbound messages to a `Server` and keeps every frame body the server sends, so
/// the server is tested without a process, a pipe or a clock of its own.
final class ScriptedChannel: Sendable {
    /// What the server sent, kept apart from the channel so that its `send` can hold it.
    private final class Outbox: Sendable {
        let sent = Mutex<[[UInt8]]>([])
        let arrivals = DispatchSemaphore(value: 0)
    }

    private let outbox = Outbox()
    let server: Server

    init(
        router: Router, configuration: HostConfiguration = HostConfiguration(), caller: Caller = Caller(arguments: []),
        clock: ManualClock? = nil
    ) {
        let outbox = outbox
        var configuration = configuration
        if let clock { configuration.clocks = clock.clocks }
        server = Server(router: router, configuration: configuration, caller: caller) { body in
            outbox.sent.withLock { $0.append(body) }
            outbox.arrivals.signal()
        }
    }

    /// Hands each message (a JSON text) to the server in order, then waits until `replies`
    /// frames have been sent in all, and returns them parsed, in the order they were sent.
    func play(
        _ messages: [String], expecting replies: Int, within timeout: Duration = .seconds(5),
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> [JSONValue] {
        for message in messages { server.receive(Array(message.utf8)) }
        return try waitFor(replies, within: timeout, file: file, line: line)
    }

    /// Waits until `count` frames have been sent in all, looking again each time one is sent.
    func waitFor(
        _ count: Int, within timeout: Duration = .seconds(5), file: StaticString = #filePath, line: UInt = #line
    ) throws -> [JSONValue] {
        try waitUntil(
            "\(count) frames are sent (sent: \(sentTexts))", within: timeout, wokenBy: outbox.arrivals, file: file,
            line: line
        ) { outbox.sent.withLock { $0.count } >= count }
        return try frames
    }

    private var sentTexts: [String] { outbox.sent.withLock { $0 }.map { String(decoding: $0, as: UTF8.self) } }

    /// Every frame sent so far.
    var frames: [JSONValue] { get throws { try outbox.sent.withLock { $0 }.map { try JSONParser.parse($0) } } }
}
