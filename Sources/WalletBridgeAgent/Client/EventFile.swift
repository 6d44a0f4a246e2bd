#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeWallet

/// A host's side of the agent's events (`EventHub`): an inotify watch on the agent's folder,
/// through which the host learns when its extension's events file is replaced and when the
/// agent's socket goes, and a shared lock on the agent's `ports` file, held as long as this
/// lives, that keeps the agent from ending for idleness. Neither costs the agent a connection.
struct EventFile {
    /// Where a host is in an events file: the agent that wrote it, and the last event passed on.
    struct Position: Equatable {
        var epoch: String?
        var last = 0
    }

    let paths: AgentPaths
    private let inotify: Int32
    private let portsLock: Int32
    /// The agent's folder was removed or moved (logout removes the runtime folder).
    private(set) var folderGone = false
    /// The largest file read: `EventHub.kept` events of a few hundred bytes each.
    static let maxFileBytes = 1 << 20

    /// Watches the agent's folder (made if missing, 0700, as the agent makes it) and takes the
    /// shared lock; nil when either cannot be done.
    init?(paths: AgentPaths) {
        self.paths = paths
        do {
            try AgentPaths.prepare(paths.folder)
        } catch {
            Log.warning("cannot hear the agent's events: \(error)")
            return nil
        }
        inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else { return nil }
        let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        guard inotify_add_watch(inotify, paths.folder, mask) >= 0 else {
            Glibc.close(inotify)
            return nil
        }
        portsLock = open(paths.ports, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if portsLock < 0 || SystemCall.retryingInterrupts({ flock(portsLock, LOCK_SH) }) != 0 {
            Log.warning("cannot hold \(paths.ports) (errno \(errno)): the agent may end for idleness while this port is open")
        }
    }

    func close() {
        Glibc.close(inotify)
        if portsLock >= 0 { Glibc.close(portsLock) }
    }

    /// Where the events file at `path` is now: what a host passes on from.
    static func position(of path: String) -> Position {
        guard let (epoch, events) = read(path) else { return Position() }
        return Position(epoch: epoch, last: events.map(\.number).max() ?? 0)
    }

    /// Passes on every event written to `path` after `position`, until the agent's socket is
    /// removed (the agent ended, or another replaced it) or the folder goes.
    mutating func follow(_ path: String, from start: Position, deliver: (String, JSONValue) -> Void) {
        let name = AtomicFile.split(path).name
        let socketName = AtomicFile.split(paths.socket).name
        var position = start
        // What was written between `start` and the watch's first event.
        passOn(path, &position, deliver)
        let size = 4096
        withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer in
            while true {
                let count = SystemCall.retryingInterrupts { Glibc.read(inotify, buffer.baseAddress!, size) }
                guard count > 0 else {
                    folderGone = true
                    return
                }
                var (changed, agentGone) = (false, false)
                var offset = 0
                while offset + 16 <= count {
                    // struct inotify_event: wd, mask, cookie, len, then len bytes of name.
                    let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                    let named = UnsafeRawBufferPointer(rebasing: buffer[(offset + 16)..<min(count, offset + 16 + length)])
                    let eventName = String(decoding: named.prefix { $0 != 0 }, as: UTF8.self)
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT) != 0 { folderGone = true }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 { changed = true }
                    if eventName == name, mask & UInt32(IN_MOVED_TO | IN_CLOSE_WRITE) != 0 { changed = true }
                    if eventName == socketName, mask & UInt32(IN_DELETE) != 0 { agentGone = true }
                    offset += 16 + length
                }
                if changed { passOn(path, &position, deliver) }
                if agentGone || folderGone { return }
            }
        }
    }

    /// Hands `deliver` the events in the file after `position`: all of them when another agent
    /// wrote it (its numbers start again).
    private func passOn(_ path: String, _ position: inout Position, _ deliver: (String, JSONValue) -> Void) {
        guard let (epoch, events) = Self.read(path) else { return }
        let after = epoch == position.epoch ? position.last : 0
        let new = events.filter { $0.number > after }
        if let first = new.first, first.number > after + 1, after > 0 {
            Log.warning("missed \(first.number - after - 1) of the agent's events (more than \(EventHub.kept) at once)")
        }
        for event in new { deliver(event.method, event.params) }
        position = Position(epoch: epoch, last: max(after, events.map(\.number).max() ?? 0))
    }

    private struct Event {
        let number: Int
        let method: String
        let params: JSONValue
    }

    /// The agent that wrote the file, and its events; nil when there is no file or it is not one.
    private static func read(_ path: String) -> (String, [Event])? {
        guard let bytes = try? AtomicFile.read(path, maxBytes: maxFileBytes),
              case .object(let members)? = try? JSONParser.parse(bytes),
              case .string(let epoch)? = members["agent"], case .array(let values)? = members["events"] else { return nil }
        let events = values.compactMap { value -> Event? in
            guard case .object(let event) = value, case .number(let number)? = event["n"], let n = Int(number.literal),
                  case .string(let method)? = event["method"] else { return nil }
            return Event(number: n, method: method, params: event["params"] ?? .null)
        }
        return (epoch, events)
    }
}
