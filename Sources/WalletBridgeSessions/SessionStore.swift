#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeSystem
import WalletBridgeProtocol

/// The sessions, in memory and in one file beside the keystore (`keystore.sessions.json`), so
/// that they survive agent and browser restarts.
///
/// Every change is written at once, atomically (`AtomicFile.replace`, mode 0600), while the
/// lock is held: changes reach the file in the order they were made. A change whose write
/// fails is undone and its error thrown, so that memory never holds a session the file would
/// lose at the next start, nor the file one that was disconnected.
///
/// Every lookup sees live sessions only (`expiry` still ahead). An expired one stays in memory
/// until `expire()` takes it out, so that the agent can announce its end; the file, written
/// with live sessions only, drops it at the next write.
///
/// Sessions hold no secret, but they decide who may see the accounts and ask for signatures
/// without a dialog: the file has the keystore's mode, and is trusted only as the keystore is.
/// A file that cannot be read as sessions, and one that other users could have written (it, or
/// a folder above it, writable by them or theirs: `ChangeableByOthers`), or that is not a plain
/// file (a link), is set aside, never trusted in part. Whatever the file says, no session is
/// loaded to last longer than the configured lifetime from the moment it is loaded.
///
/// A store made with `init(inMemory:now:)` has no file: the conformance host's, whose fixtures
/// must answer the same whatever is on the disk, and leave nothing there.
package final class SessionStore: Sendable {
    /// Each session was approved by the person in a dialog, so real use stays far below this.
    /// The bound is for the file: every change rewrites all of it, and a file larger than
    /// `maxFileBytes` would be refused at the next start. Adding beyond it is refused (-32603)
    /// rather than dropping an older session that an extension still relies on.
    package static let maxSessions = 256
    /// A file larger than this is not one this store wrote (it never writes one): it is set
    /// aside unread.
    package static let maxFileBytes = 4 << 20
    /// The `version` of the file's format.
    package static let fileVersion = 1

    /// The sessions file; nil for a store in memory only.
    package let path: String?
    private let now: @Sendable () -> Int
    /// In the order added, which is oldest first: the file keeps that order.
    private let held: Mutex<[Session]>

    /// The sessions file for the keystore at `keystorePath`: `keystore.json` →
    /// `keystore.sessions.json`; a path without `.json` gets `.sessions.json` appended.
    package static func path(forKeystore keystorePath: String) -> String {
        keystorePath.hasSuffix(".json")
            ? "\(keystorePath.dropLast(".json".count)).sessions.json" : "\(keystorePath).sessions.json"
    }

    /// Loads the file at `path` when there is one. One that cannot be read, is not a sessions
    /// file, is not a plain file, or that other users could have written, is renamed to
    /// `<path>.damaged-<unix time>`, with a warning in the log, and the store starts empty: the
    /// extensions connect again, and the file is kept for a person to look at. A session that
    /// would last more than `lifetime` seconds from now is cut to that: no dialog ever approved
    /// a longer one, and the file is written back with the cut expiries. `now` is the time in seconds since the epoch (tests pass their own clock).
    package init(path: String, lifetime: Int = defaultLifetime, now: @escaping @Sendable () -> Int = Clocks.system.wall)
    {
        self.path = path
        self.now = now
        let time = now()
        let (sessions, capped) = Self.load(path, lifetime: lifetime, now: time)
        held = Mutex(sessions)
        // Written back at once, so that the file says what the store answers by: a host's
        // `peek` answers nothing while the file holds a longer session (issue 33 round 2
        // review, SHOULD 9). A failed write is logged (`write`); the next change tries again.
        if capped { _ = try? write(sessions, now: time) }
    }

    /// `session_lifetime`'s default: WalletConnect's 7 days.
    package static let defaultLifetime = 604_800

    /// A store that starts with `sessions` (oldest first, topics distinct) and keeps every
    /// change in memory alone. The limits still hold (`maxSessions`, and the size a file would
    /// have), so that it answers as the file-backed store does.
    package init(inMemory sessions: [Session] = [], now: @escaping @Sendable () -> Int = Clocks.system.wall) {
        path = nil
        self.now = now
        held = Mutex(sessions)
    }

    // MARK: Reading

    /// The live sessions of `caller` for the site `origin` (nil: the caller's own, without a
    /// site), oldest first. A session belongs to (caller, origin): a site sees only its own.
    package func sessions(of caller: SessionCaller, origin: String?) -> [Session] {
        let time = now()
        return held.withLock { sessions in
            sessions.filter { $0.belongs(to: caller, origin: origin) && $0.isLive(at: time) }
        }
    }

    /// Every session held, oldest first, expired ones not yet taken out (`expire()`) included,
    /// and the time they are to be judged at: for a rule that decides by itself (`ConnectedRule`).
    package func snapshot() -> (sessions: [Session], now: Int) {
        let time = now()
        return (held.withLock { $0 }, time)
    }

    /// Every live session, oldest first.
    package func all() -> [Session] {
        let time = now()
        return held.withLock { sessions in sessions.filter { $0.isLive(at: time) } }
    }

    /// The live session `topic` of `caller` for `origin`; nil for an unknown or expired topic,
    /// for another caller's session and for another site's, which the caller cannot tell apart
    /// (7001 for all of them).
    package func session(topic: String, caller: SessionCaller, origin: String?) -> Session? {
        let time = now()
        return held.withLock { sessions in
            sessions.first { $0.topic == topic && $0.belongs(to: caller, origin: origin) && $0.isLive(at: time) }
        }
    }

    /// When the next held session expires (seconds since the epoch), expired ones included:
    /// when the agent should next call `expire()`. Nil with no session.
    package func nextExpiry() -> Int? {
        held.withLock { sessions in sessions.map(\.expiry).min() }
    }

    // MARK: Changing

    /// Keeps `session`. Throws -32603 when `maxSessions` live sessions are held, or when the
    /// file cannot be written (nothing is kept then).
    package func add(_ session: Session) throws(RPCError) {
        try change { sessions, time throws(RPCError) in
            guard sessions.count(where: { $0.isLive(at: time) }) < Self.maxSessions else {
                throw RPCError(
                    .internalError,
                    data: .object([
                        "problem": .string(
                            "the wallet already holds \(Self.maxSessions) sessions, the most it keeps; disconnect some (`wallet-bridge sessions revoke`) and connect again"
                        )
                    ]))
            }
            // 32 random bytes do not collide; a repeated topic is a caller's mistake.
            guard !sessions.contains(where: { $0.topic == session.topic }) else {
                throw RPCError(
                    .internalError, data: .object(["problem": .string("a session with this topic exists already")]))
            }
            sessions.append(session)
        }
    }

    /// Makes the live session `topic` of `caller` for `origin` last `lifetime` seconds from
    /// now, and returns it; nil (and nothing written) when `caller` has no such session there.
    package func extend(topic: String, caller: SessionCaller, origin: String?, lifetime: Int) throws(RPCError)
        -> Session?
    {
        try change { sessions, time in
            guard
                let index = sessions.firstIndex(where: {
                    $0.topic == topic && $0.belongs(to: caller, origin: origin) && $0.isLive(at: time)
                })
            else {
                return nil
            }
            let (expiry, overflow) = time.addingReportingOverflow(max(lifetime, 0))
            sessions[index].expiry = overflow ? Int.max : expiry
            return sessions[index]
        }
    }

    /// Ends the live session `topic` of `caller` for `origin` and returns it; nil when
    /// `caller` has none there.
    package func remove(topic: String, caller: SessionCaller, origin: String?) throws(RPCError) -> Session? {
        try change { sessions, time in
            guard
                let index = sessions.firstIndex(where: {
                    $0.topic == topic && $0.belongs(to: caller, origin: origin) && $0.isLive(at: time)
                })
            else {
                return nil
            }
            return sessions.remove(at: index)
        }
    }

    /// Ends the live session `topic` whoever holds it: for `wallet-bridge sessions revoke`,
    /// which the person runs, never for an extension.
    package func remove(topic: String) throws(RPCError) -> Session? {
        try change { sessions, time in
            guard let index = sessions.firstIndex(where: { $0.topic == topic && $0.isLive(at: time) }) else {
                return nil
            }
            return sessions.remove(at: index)
        }
    }

    /// Ends every live session of the site `origin`, whichever extension holds it, and returns
    /// them, oldest first: for `wallet-bridge sessions revoke --site`, which the person runs.
    package func remove(site origin: String) throws(RPCError) -> [Session] {
        try change { sessions, time in
            let ended = sessions.filter { $0.origin == origin && $0.isLive(at: time) }
            sessions.removeAll { $0.origin == origin && $0.isLive(at: time) }
            return ended
        }
    }

    /// Ends every live session and returns them, oldest first. Expired ones are left for
    /// `expire()`, which announces them as expired rather than deleted.
    package func removeAll() throws(RPCError) -> [Session] {
        try change { sessions, time in
            let live = sessions.filter { $0.isLive(at: time) }
            sessions.removeAll { $0.isLive(at: time) }
            return live
        }
    }

    /// Takes out and returns the sessions whose expiry has come, oldest first.
    ///
    /// Unlike the other changes it does not throw: the file already leaves expired sessions
    /// out at every write, and one read back with them is no different, since nothing sees an
    /// expired session. A failed write is only logged, and the sessions are gone from memory
    /// either way, so that the agent announces each end once.
    @discardableResult
    package func expire() -> [Session] {
        let time = now()
        return held.withLock { sessions in
            let expired = sessions.filter { !$0.isLive(at: time) }
            guard !expired.isEmpty else { return [] }
            sessions.removeAll { !$0.isLive(at: time) }
            // `write` has logged why it failed.
            if let path, (try? write(sessions, now: time)) == nil {
                Log.warning("expired sessions stay in \(path) until its next write")
            }
            return expired
        }
    }

    /// Applies `body` to a copy of the sessions, writes the copy when it differs, and only
    /// then keeps it: a failed write leaves memory as it was.
    private func change<Result: Sendable>(_ body: (inout [Session], Int) throws(RPCError) -> Result) throws(RPCError)
        -> Result
    {
        let time = now()
        return try held.withLock { sessions throws(RPCError) -> Result in
            var changed = sessions
            let result = try body(&changed, time)
            if changed != sessions {
                try write(changed, now: time)
                sessions = changed
            }
            return result
        }
    }

    // MARK: The file

    /// Writes the live ones of `sessions`. Errors are -32603, with the reason but not the path:
    /// the answer goes to an extension, the whole of it to the log. A store in memory checks
    /// the size, and writes nothing.
    private func write(_ sessions: [Session], now time: Int) throws(RPCError) {
        let document: JSONValue = .object([
            "version": .number(JSONNumber(Self.fileVersion)),
            "sessions": .array(sessions.filter { $0.isLive(at: time) }.map { $0.stored() }),
        ])
        let bytes = document.jsonBytes
        // Never write a file that the next start would refuse to read.
        guard bytes.count <= Self.maxFileBytes else {
            Log.error(
                "not saving the sessions: they would take \(bytes.count) bytes, more than the \(Self.maxFileBytes) a sessions file may hold"
            )
            throw RPCError(
                .internalError,
                data: .object([
                    "problem": .string(
                        "the wallet's sessions would exceed the size of its sessions file; disconnect some and connect again"
                    )
                ]))
        }
        guard let path else { return }
        do {
            // The keystore's folder, which a wallet with no key yet may not have.
            try? AtomicFile.ensureFolder(AtomicFile.split(path).folder)  // if it fails, so does the write, saying why
            try AtomicFile.replace(path, with: bytes, mode: 0o600)
        } catch {
            Log.error("cannot save the sessions: \(error)")
            throw RPCError(
                .internalError,
                data: .object([
                    "problem": .string("the wallet cannot save its sessions (\(error.reason)); its log says more")
                ]))
        }
    }

    /// Why a file is not a sessions file.
    struct Damage: Error {
        let reason: String
    }

    /// The sessions in the file, each cut to `lifetime` from `now`, and whether one was cut.
    private static func load(_ path: String, lifetime: Int, now: Int) -> (sessions: [Session], capped: Bool) {
        if let reason = untrusted(path) {
            setAside(path, because: reason, now: now)
            return ([], false)
        }
        let bytes: [UInt8]
        do {
            guard let read = try AtomicFile.read(path, maxBytes: maxFileBytes) else { return ([], false) }
            bytes = read
        } catch {
            setAside(path, because: error.reason, now: now)
            return ([], false)
        }
        let sessions: [Session]
        do {
            sessions = try decode(bytes)
        } catch {
            setAside(path, because: error.reason, now: now)
            return ([], false)
        }
        guard let latest = latestExpiry(lifetime: lifetime, now: now), sessions.contains(where: { $0.expiry > latest })
        else {
            return (sessions, false)
        }
        return (
            sessions.map { session in
                guard session.expiry > latest else { return session }
                Log.warning(
                    "session \(session.topic.prefix(8))… of \(session.caller) in \(path) was to last until \(session.expiry), longer than the session lifetime allows; it ends at \(latest)"
                )
                var capped = session
                capped.expiry = latest
                return capped
            }, true
        )
    }

    /// The latest expiry a stored session may have at `now`: `lifetime` seconds on. Every
    /// approval and extension sets an expiry at most that far ahead, so a later one was not
    /// written by the agent from a dialog (a forged file, or a shorter `session_lifetime` set
    /// since). Nil when that is past what an `Int` holds (nothing is too late then).
    static func latestExpiry(lifetime: Int, now: Int) -> Int? {
        let (latest, overflow) = now.addingReportingOverflow(max(lifetime, 0))
        return overflow ? nil : latest
    }

    /// Why the file at `path` is not to be trusted whatever it says, or nil: it is not a
    /// plain file (a link, which the store never writes, could lead anywhere), or other users
    /// could have written it (`ChangeableByOthers`: it, or a folder above it). None for a
    /// missing file.
    static func untrusted(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return "it is \(AtomicFile.kind(of: info.st_mode)), not a file the wallet wrote"
        }
        return ChangeableByOthers.reason(for: path)
    }

    /// The sessions in the file at `path` as they stand, changing nothing: none when there is
    /// no file, nil when it cannot be read as sessions (the agent, which owns the file, sets
    /// such a file aside when it loads it), is not trusted (`untrusted`: the agent sets it aside
    /// too) or is larger than `maxBytes`. For a host that only looks (`ConnectedAccounts`).
    ///
    /// Nil too when a session is to last longer than `lifetime` from `now` (`latestExpiry`, the
    /// rule `load` caps by). Capping it here would not end it: each look would cap it anew from
    /// its own `now`, and a forged expiry would be answered for as long as no agent runs. The
    /// agent caps it when it loads the file, once, and ends it then.
    package static func peek(_ path: String, maxBytes: Int, lifetime: Int, now: Int) -> [Session]? {
        guard untrusted(path) == nil, let sessions = read(path, maxBytes: maxBytes) else { return nil }
        return capped(sessions, lifetime: lifetime, now: now)
    }

    /// The sessions in the file at `path` as they stand: none when there is no file, nil when it
    /// cannot be read as sessions or is larger than `maxBytes`.
    static func read(_ path: String, maxBytes: Int) -> [Session]? {
        do {
            guard let bytes = try AtomicFile.read(path, maxBytes: maxBytes) else { return [] }
            return try decode(bytes)
        } catch {
            return nil
        }
    }

    /// `sessions`, or nil when one is to last longer than `lifetime` from `now` (`peek`).
    static func capped(_ sessions: [Session], lifetime: Int, now: Int) -> [Session]? {
        if let latest = latestExpiry(lifetime: lifetime, now: now), sessions.contains(where: { $0.expiry > latest }) {
            return nil
        }
        return sessions
    }

    static func decode(_ bytes: [UInt8]) throws(Damage) -> [Session] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw Damage(reason: "not JSON: \(error)")
        }
        guard case .object(let members) = document else { throw Damage(reason: "not a JSON object") }
        guard case .number(let version)? = members["version"], version.literal == String(fileVersion) else {
            throw Damage(reason: "not version \(fileVersion) of the sessions file")
        }
        guard case .array(let entries)? = members["sessions"] else { throw Damage(reason: "no array of sessions") }
        var sessions: [Session] = []
        // A file of a few sessions (what a cold GetAccounts reads) compares their topics in
        // pairs: no set to build; past that, one set.
        var topics: Set<String>? = entries.count > 16 ? [] : nil
        for (index, entry) in entries.enumerated() {
            let session: Session
            do {
                session = try Session(stored: entry)
            } catch {
                let detail = error.data.map { String(decoding: $0.jsonBytes, as: UTF8.self) } ?? error.message
                throw Damage(reason: "session \(index) cannot be read: \(detail)")
            }
            let repeated =
                topics == nil
                ? sessions.contains { $0.topic == session.topic } : topics?.insert(session.topic).inserted == false
            guard !repeated else { throw Damage(reason: "session \(index) repeats a topic") }
            sessions.append(session)
        }
        return sessions
    }

    /// Renames a file that cannot be used to `<path>.damaged-<now>` (with a counter if that
    /// exists), so that the next write does not destroy what a person may want to look at.
    private static func setAside(_ path: String, because reason: String, now: Int) {
        var aside = "\(path).damaged-\(now)"
        var attempt = 1
        while access(aside, F_OK) == 0, attempt < 100 {
            aside = "\(path).damaged-\(now)-\(attempt)"
            attempt += 1
        }
        if rename(path, aside) == 0 {
            Log.warning(
                "the sessions file \(path) cannot be used (\(reason)); it was moved to \(aside), and the extensions must connect again"
            )
        } else {
            Log.warning(
                "the sessions file \(path) cannot be used (\(reason)), nor moved aside (\(String(cString: strerror(errno)))); starting with no sessions"
            )
        }
    }
}
