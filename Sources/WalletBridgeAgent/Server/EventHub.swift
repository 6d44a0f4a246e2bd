#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeSessions
import WalletBridgeProtocol

/// The agent's events on their way to the extensions' ports, through a file per extension, not
/// a connection per port: an extension may open hundreds of ports, and a connection each would
/// take the agent from everyone else (docs/agent.md, Limits).
///
/// For each extension that has had an event, `<agent>.events-<16 hex digits>` in the agent's
/// folder (mode 0600, like everything there) holds this agent's last `kept` events for it, each
/// with its number, and this agent's name (`epoch`): it is replaced, atomically, with each new
/// event. A host with a port open watches the folder (inotify, `EventFile`), reads the file when
/// it is replaced, and passes on to its port the events it has not passed on yet. The file is
/// written before the request that caused the event is answered, as the notification was.
///
/// The file is never larger than a host reads (`EventFile.maxFileBytes`): the oldest events are
/// dropped until it fits, and an event too large on its own is dropped (and logged); a host
/// notices the numbers it missed. Each extension's file is written under a lock of its own, so
/// one extension's large events hold up no other's.
final class EventHub: Sendable {
    /// The events of one extension: the next number, and the last few, encoded.
    private struct Recent: Sendable {
        var next = 1
        var events: [[UInt8]] = []
        var bytes = 0
    }

    /// One extension's events, and the lock its file is written under.
    private final class Line: Sendable {
        let recent = Mutex<Recent>(Recent())
    }

    let paths: AgentPaths
    /// This agent, as a host tells one agent's numbering from the next's: its pid and its start
    /// on the wall clock, which no later agent shares.
    let epoch: String
    /// How many events each file keeps: a host that falls further behind misses some.
    static let kept = 32
    private let lines = Mutex<[SessionCaller: Line]>([:])

    init(paths: AgentPaths, epoch: String) {
        self.paths = paths
        self.epoch = epoch
    }

    /// Where `caller`'s events are written.
    func file(for caller: SessionCaller) -> String { Self.file(paths, caller: caller) }

    /// Where the agent at `paths` writes `caller`'s events.
    static func file(_ paths: AgentPaths, caller: SessionCaller) -> String {
        "\(paths.folder)/\(paths.name).events-\(shortHash(caller.kind.rawValue, caller.id))"
    }

    /// Writes the notification to `caller`'s file, for every port of that extension to hear.
    func publish(to caller: SessionCaller, method: String, params: JSONValue) {
        let line = lines.withLock { lines in
            if let line = lines[caller] { return line }
            let line = Line()
            lines[caller] = line
            return line
        }
        let prefix = Array(#"{"agent":"#.utf8) + JSONValue.string(epoch).jsonBytes + Array(#","events":["#.utf8)
        let suffix = Array("]}".utf8)
        line.recent.withLock { recent in
            let number = recent.next
            recent.next += 1
            let event = JSONValue.object([
                "n": .number(JSONNumber(number)), "method": .string(method), "params": params,
            ]).jsonBytes
            recent.events.append(event)
            recent.bytes += event.count
            // What the file takes besides the events: the agent's name, and a comma between two.
            func size() -> Int { prefix.count + suffix.count + recent.bytes + max(0, recent.events.count - 1) }
            while recent.events.count > Self.kept || (size() > EventFile.maxFileBytes && !recent.events.isEmpty) {
                recent.bytes -= recent.events.removeFirst().count
            }
            if recent.events.isEmpty {
                Log.warning(
                    "dropped event \(number) (\(method)) for \(caller): its \(event.count) bytes are more than a port reads (\(EventFile.maxFileBytes))"
                )
            }
            var content = prefix
            content.reserveCapacity(size())
            for (index, event) in recent.events.enumerated() {
                if index > 0 { content.append(UInt8(ascii: ",")) }
                content += event
            }
            content += suffix
            let path = file(for: caller)
            do {
                try AtomicFile.replace(path, with: content, mode: 0o600)
            } catch {
                Log.warning("cannot write the events of \(caller) to \(path): \(error)")
            }
        }
    }
}
