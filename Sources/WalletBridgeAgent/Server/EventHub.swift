#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge
import WalletBridgeWallet

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
final class EventHub: Sendable {
    /// The events of one extension: the next number, and the last few.
    private struct Recent: Sendable {
        var next = 1
        var events: [JSONValue] = []
    }

    let paths: AgentPaths
    /// This agent, as a host tells one agent's numbering from the next's.
    let epoch: String
    /// How many events each file keeps: a host that falls further behind misses some.
    static let kept = 32
    private let recent = Mutex<[SessionCaller: Recent]>([:])

    init(paths: AgentPaths, epoch: String = "\(getpid())-\(time(nil))") {
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
        recent.withLock { all in
            var recent = all[caller] ?? Recent()
            recent.events.append(.object(["n": .number(JSONNumber(recent.next)), "method": .string(method), "params": params]))
            recent.next += 1
            if recent.events.count > Self.kept { recent.events.removeFirst(recent.events.count - Self.kept) }
            all[caller] = recent
            let content = JSONValue.object(["agent": .string(epoch), "events": .array(recent.events)])
            let path = file(for: caller)
            do {
                try AtomicFile.replace(path, with: content.jsonBytes, mode: 0o600)
            } catch {
                Log.warning("cannot write the events of \(caller) to \(path): \(error)")
            }
        }
    }
}
