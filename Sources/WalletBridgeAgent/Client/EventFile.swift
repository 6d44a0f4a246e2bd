#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeProtocol

/// A host's side of the agent's events (`EventHub`): an inotify watch on the agent's folder,
/// through which the host learns when its extension's events file is replaced and when the
/// agent's socket goes, and a shared lock on the agent's `ports` file, held as long as this
/// lives, that keeps the agent from ending for idleness. Neither costs the agent a connection.
///
/// The watch is on the process's one inotify instance (`FolderWatch.subscribe`), which the
/// host's watch of the keystore's folder uses too: a user has 128 instances by default
/// (`fs.inotify.max_user_instances`), and a second per port's host let one extension's ports
/// take them all. A host that cannot have a watch looks at the file and the socket every
/// `pollInterval` instead (a `stat` each), and hears the same events.
struct EventFile {
    /// Where a host is in an events file: the agent that wrote it, and the last event passed on.
    struct Position: Equatable {
        var epoch: String?
        var last = 0
    }

    let paths: AgentPaths
    /// nil when this host looks every `pollInterval` instead.
    private let watch: FolderSubscription?
    private let portsLock: Int32
    /// How often a host without an inotify watch looks at the file and the socket.
    let pollInterval: Duration
    /// The agent's folder was removed or moved (logout removes the runtime folder).
    private(set) var folderGone = false
    /// The largest file read: `EventHub.kept` events of a few hundred bytes each, as a rule;
    /// the agent drops its oldest events until its file fits.
    static let maxFileBytes = 1 << 20
    /// The folder's device and inode when this began: a folder put in its place is not it.
    private var folderIdentity: [UInt]?

    /// Watches the agent's folder (made if missing, 0700, as the agent makes it), with inotify
    /// if `watch` and an instance is to be had, and takes the shared lock; nil when the folder
    /// cannot be used.
    init?(paths: AgentPaths, watch: Bool = true, pollInterval: Duration = .milliseconds(500)) {
        self.paths = paths
        self.pollInterval = pollInterval
        do {
            try AgentPaths.prepare(paths.folder)
        } catch {
            Log.warning("this port will not hear the agent's events (changes to its accounts and sessions): \(error)")
            return nil
        }
        folderIdentity = Self.stamp(paths.folder)?.identity
        let mask = UInt32(
            IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        let subscription = watch ? FolderWatch.subscribe(folder: paths.folder, mask: mask) : nil
        if watch, subscription == nil {
            let code = errno  // before anything else can change it
            Log.debug("no inotify watch for the agent's events (errno \(code)); looking every \(pollInterval) instead")
        }
        self.watch = subscription
        portsLock = open(paths.ports, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if portsLock < 0 || SystemCall.retryingInterrupts({ flock(portsLock, LOCK_SH) }) != 0 {
            Log.warning(
                "cannot hold \(paths.ports) (errno \(errno)): the agent may end for idleness while this port is open")
        }
    }

    func close() {
        watch?.end()
        if portsLock >= 0 { Glibc.close(portsLock) }
    }

    /// Where the events file at `path` is now: what a host passes on from.
    static func position(of path: String) -> Position {
        guard let (epoch, events) = read(path) else { return Position() }
        return Position(epoch: epoch, last: events.map(\.number).max() ?? 0)
    }

    /// Passes on every event written to `path` after `position`, until the agent's socket is
    /// removed (the agent ended, or another replaced it) or the folder goes; `position` is then
    /// the last event passed on.
    mutating func follow(_ path: String, from position: inout Position, deliver: (String, JSONValue) -> Void) {
        let name = AtomicFile.split(path).name
        let socketName = AtomicFile.split(paths.socket).name
        // What was written between `start` and the watch's first event.
        passOn(path, &position, deliver)
        guard let watch else {
            poll(path, &position, deliver)
            return
        }
        while true {
            guard let events = nextEvents(watch, timeout: nil) else {
                folderGone = true
                return
            }
            var (changed, agentGone) = (false, false)
            for event in events {
                if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT) != 0 {
                    folderGone = true
                }
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { changed = true }
                if event.name == name, event.mask & UInt32(IN_MOVED_TO | IN_CLOSE_WRITE) != 0 { changed = true }
                if event.name == socketName, event.mask & UInt32(IN_DELETE) != 0 { agentGone = true }
            }
            if changed { passOn(path, &position, deliver) }
            if agentGone || folderGone { return }
        }
    }

    /// Waits, without asking anyone, until an agent may listen at the agent's socket path: a
    /// socket was made there (created, or renamed there), or, when one there `refused` (an
    /// agent that crashed, or one between its bind and its listen), `refusedRetry` passed. Not
    /// by the socket's inode: the next agent unlinks a crashed one's socket and binds anew, and
    /// the file system may give the new one the freed inode number at once. False when the
    /// folder went.
    mutating func waitForAgent(refused: Bool, refusedRetry: Duration = .seconds(1)) -> Bool {
        // Made after the connection failed and before this: the event may have been taken.
        if folderGone { return false }
        if !refused, Agent.socketIdentity(paths.socket) != nil { return true }
        let socketName = AtomicFile.split(paths.socket).name
        let deadline = ContinuousClock.now + refusedRetry
        while true {
            guard let watch else {
                SystemCall.pause(pollInterval)
                guard let folder = Self.stamp(paths.folder), folder.identity == folderIdentity else {
                    folderGone = true
                    return false
                }
                // A socket there: try it (again, each `pollInterval`, while it refuses).
                if Agent.socketIdentity(paths.socket) != nil { return true }
                continue
            }
            // Woken at least each `refusedRetry` to look at the folder too: its end is an event
            // that may have been read before this wait began (a wait that followed a timed retry).
            let left = ContinuousClock.now < deadline ? deadline - ContinuousClock.now : .zero
            guard let events = nextEvents(watch, timeout: refused ? left : refusedRetry) else {
                folderGone = true
                return false
            }
            if events.contains(where: { $0.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT) != 0 }
            ) {
                folderGone = true
                return false
            }
            if events.isEmpty, Self.stamp(paths.folder)?.identity != folderIdentity {
                folderGone = true
                return false
            }
            if Self.socketMade(events, name: socketName) || (refused && ContinuousClock.now >= deadline) { return true }
        }
    }

    /// Whether `events` say a socket was made at `name`: the wake rule of `waitForAgent`.
    static func socketMade(_ events: [FolderEvent], name: String) -> Bool {
        // An overflowed queue may have lost the event: look again.
        events.contains {
            ($0.name == name && $0.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0) || $0.mask & UInt32(IN_Q_OVERFLOW) != 0
        }
    }

    /// Waits until the instance has an event queued (for anyone) or this subscriber is woken
    /// (its events read off the queue by another thread), at most `timeout` (nil: no limit),
    /// and takes this subscriber's events; nil when the watch failed.
    private func nextEvents(_ watch: FolderSubscription, timeout: Duration?) -> [FolderEvent]? {
        var ready = [
            pollfd(fd: watch.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: watch.wake, events: Int16(POLLIN), revents: 0),
        ]
        let deadline = timeout.map { ContinuousClock.now + $0 }
        if SystemCall.poll(&ready, until: deadline) < 0 { return nil }
        if ready.contains(where: { $0.revents & Int16(POLLERR | POLLNVAL) != 0 }) { return nil }
        return watch.next()
    }

    /// `follow` without inotify: a look at the file, the socket and the folder every
    /// `pollInterval`.
    private mutating func poll(_ path: String, _ position: inout Position, _ deliver: (String, JSONValue) -> Void) {
        let socket = Agent.socketIdentity(paths.socket)
        var file = Self.stamp(path)
        while true {
            SystemCall.pause(pollInterval)
            guard let folder = Self.stamp(paths.folder), folder.identity == folderIdentity else {
                folderGone = true
                return
            }
            let now = Self.stamp(path)
            if now != file {
                file = now
                passOn(path, &position, deliver)
            }
            if let socket, Agent.socketIdentity(paths.socket).map({ $0 == socket }) != true { return }
        }
    }

    /// What tells one version of a file from the next: device and inode (a rename over it
    /// makes a new one), size, and modification time.
    private struct Stamp: Equatable {
        let identity: [UInt]
        let size: Int
        let modified: Int
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Stamp(
            identity: [UInt(info.st_dev), UInt(info.st_ino)], size: Int(info.st_size),
            modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
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

    /// The agent that wrote the file, and its events; nil (logged) when there is no file, or it
    /// is not one: too large, not this user's alone (as opened: its owner and mode), a link.
    private static func read(_ path: String) -> (String, [Event])? {
        let read: [UInt8]?
        do {
            read = try AtomicFile.read(path, maxBytes: maxFileBytes, privateToThisUser: true)
        } catch {
            Log.warning("the agent's events are not passed on: \(error)")
            return nil
        }
        guard let bytes = read else { return nil }
        guard case .object(let members)? = try? JSONParser.parse(bytes),
            case .string(let epoch)? = members["agent"], case .array(let values)? = members["events"]
        else {
            Log.warning("the agent's events are not passed on: \(path) is not an events file")
            return nil
        }
        let events = values.compactMap { value -> Event? in
            guard case .object(let event) = value, case .number(let number)? = event["n"], let n = Int(number.literal),
                case .string(let method)? = event["method"]
            else { return nil }
            return Event(number: n, method: method, params: event["params"] ?? .null)
        }
        return (epoch, events)
    }
}
