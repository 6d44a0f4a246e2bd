#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization
import WalletBridgeProtocol
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeSessions
import WalletBridgeHost

/// `wallet-bridge agent`: the one process per user and keystore that keeps the keys unlocked
/// between requests, asks for every consent in one queue, and signs. Hosts started by the
/// browsers hand it GetAccounts and SignPayloads over its socket (see `AgentProtocol`); it
/// never hands a secret key to anyone.
///
/// The main thread accepts connections and keeps house once a second: it wipes keys whose time
/// ran out, ends the agent when its socket was removed or replaced, and ends it after
/// `agent_idle_exit` with the keys locked and nobody connected. Each connection has a thread
/// (`AgentConnection`). SIGTERM, SIGINT and SIGHUP wipe the keys and end it.
package enum Agent {
    /// Connections served at once, by kind of client (`ConnectionLimits`); more are refused
    /// (and logged).
    static let limits = ConnectionLimits.Limits()

    /// Runs the agent for the keystore at `keystoreOption` (nil: the configured one) until it
    /// is stopped, idle or signalled, then exits the process. Exits at once, with status 0,
    /// when another agent already serves that keystore.
    package static func run(keystoreOption: String?) -> Never {
        signal(SIGPIPE, SIG_IGN)
        protectMemory()
        var config = WalletConfig.loadForHost()
        guard let keystorePath = KeystoreLocation.resolve(option: keystoreOption, configured: config.keystore) else {
            fail(
                "no keystore location: HOME is not set; set \(KeystoreLocation.environmentVariable) or pass --keystore")
        }
        let paths = AgentPaths.forKeystore(keystorePath)
        do {
            try paths.prepareFolder()
        } catch {
            fail(error.description)
        }
        // The files, wherever the agent was started from: it works in `/` from here on, as
        // gpg-agent does, so that it holds no folder of its starter's (a mount, a folder to
        // remove). The hello still names the keystore as its clients do.
        let keystoreFile = absolute(keystorePath)
        // So are the paths read later, at signing time: the passphrase file, pinentry, and
        // the PATH pinentry is looked up in (by the agent and by its children).
        makeRelativePathsAbsolute(&config)
        guard chdir("/") == 0 else { fail("cannot change to the root folder: \(String(cString: strerror(errno)))") }
        let clocks = Clocks.system
        holdLock(paths, keystorePath: keystorePath, clocks: clocks)
        let (listener, socketIdentity) = listen(paths)
        let control = listenForCommandLine(paths)

        let cache = UnlockCache(lifetimes: config.unlockLifetimes, clocks: clocks)
        var wallet = KeystoreWallet(
            config: config, keystorePath: keystoreFile, pinentryGuard: Files.currentExecutable())
        wallet.unlockCache = cache
        wallet.allowMinutes = config.approveForMinutes
        let state = AgentState(
            paths: paths, keystorePath: keystorePath, keystoreFile: keystoreFile, cache: cache,
            idleExit: config.agentIdleExit,
            unattended: !wallet.passphrases.asksAPerson,
            signatureRequestsInLine: { [wallet] in wallet.signatureRequestsInLine },
            clocks: clocks)
        var sessions = SessionService(
            store: SessionStore(
                path: SessionStore.path(forKeystore: keystoreFile), lifetime: config.sessionLifetime, now: clocks.wall),
            wallet: wallet, lifetime: config.sessionLifetime)
        sessions.clocks = clocks
        sessions.proposalTimeout = .seconds(config.proposalTimeout)
        sessions.announce = { [events = state.events] caller, method, params in
            events.publish(to: caller, method: method, params: params)
        }
        let makeRouter: AgentConnection.RouterMaker = { [sessions] hello, writer in
            var sessions = sessions
            sessions.wallet.browserProcess = hello.browser_pid
            // Registration fails only for a name registered twice, and these are fixed.
            return (try? state.router(for: sessions, caller: Caller(arguments: hello.arguments), writer: writer))
                ?? Router()
        }
        Log.info("agent \(getpid()) serves \(keystorePath) at \(paths.socket)")
        var loop = AcceptLoop(
            listener: listener, socketIdentity: socketIdentity, control: control, state: state, sessions: sessions,
            makeRouter: makeRouter)
        loop.readTimeout = readTimeout()
        loop.run()
    }

    /// `path`, absolute: relative to the folder the agent was started in.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        let folder = String(cString: cwd)
        if path == "." { return folder }
        return folder == "/" ? "/\(path)" : "\(folder)/\(path)"
    }

    /// Makes absolute, in the environment and in `config`, every path the agent reads after it
    /// has moved to `/` that could be relative to the folder it was started in:
    /// `WALLET_BRIDGE_PASSPHRASE_FILE`, a pinentry named by a path (`WALLET_BRIDGE_PINENTRY`,
    /// "pinentry" in the configuration; a bare name is looked up in PATH), and PATH's relative
    /// folders (an empty one is the current folder, as for a shell).
    static func makeRelativePathsAbsolute(_ config: inout WalletConfig) {
        func absoluteProgram(_ program: String) -> String { program.contains("/") ? absolute(program) : program }
        if let file = Environment.string(PassphraseSources.fileVariable) {
            setenv(PassphraseSources.fileVariable, absolute(file), 1)
        }
        if let program = Environment.string(PassphraseSources.pinentryVariable) {
            setenv(PassphraseSources.pinentryVariable, absoluteProgram(program), 1)
        }
        config.pinentry = config.pinentry.map(absoluteProgram)
        if let path = Environment.string("PATH") {
            let folders = path.split(separator: ":", omittingEmptySubsequences: false).map {
                absolute($0.isEmpty ? "." : String($0))
            }
            setenv("PATH", folders.joined(separator: ":"), 1)
        }
    }

    /// How long a frame may take once begun: `WALLET_BRIDGE_AGENT_READ_TIMEOUT_MS` (1 to
    /// 600000), else `AgentTimeouts.read`.
    static func readTimeout() -> Duration {
        guard let text = Environment.string("WALLET_BRIDGE_AGENT_READ_TIMEOUT_MS") else { return AgentTimeouts.read }
        guard let milliseconds = Int(text), (1...600_000).contains(milliseconds) else {
            Log.warning(
                "WALLET_BRIDGE_AGENT_READ_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000; using \(AgentTimeouts.read)"
            )
            return AgentTimeouts.read
        }
        return .milliseconds(milliseconds)
    }

    /// No core dumps and no ptrace by this user's other processes: the unlocked keys (in
    /// `sodium_malloc` memory, locked into RAM) must not be read out of the process.
    private static func protectMemory() {
        if wallet_bridge_set_undumpable() != 0 { Log.warning("cannot make the agent non-dumpable (errno \(errno))") }
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
    }

    /// Takes the agent's lock for the life of the process (the descriptor is never closed), or
    /// exits: with 0 when another agent holds it, which is how two hosts starting an agent at
    /// the same moment end up with one.
    private static func holdLock(_ paths: AgentPaths, keystorePath: String, clocks: Clocks) {
        let fd = open(paths.lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { fail("cannot open the agent's lock \(paths.lock): \(String(cString: strerror(errno)))") }
        // The lock is taken by an agent that serves, or by one on its way out: an ending agent
        // removes its socket, then exits, and only its exit frees the lock. A socket there means
        // one serves; no socket means wait a moment for the lock, rather than exit and leave
        // the host that started this agent waiting for a socket nobody will make.
        let deadline = clocks.monotonic() + AgentTimeouts.lockOfAnEndingAgent
        while SystemCall.retryingInterrupts({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
            guard errno == EWOULDBLOCK else {
                fail("cannot take the agent's lock \(paths.lock): \(String(cString: strerror(errno)))")
            }
            if socketIdentity(paths.socket) != nil || clocks.monotonic() >= deadline {
                Log.info("an agent already serves \(keystorePath) at \(paths.socket)")
                exit(0)
            }
            usleep(10_000)
        }
    }

    /// The listening socket: systemd's, when the agent was socket-activated (LISTEN_FDS), else
    /// a new one at the socket path, replacing any a crashed agent left. With it, the identity
    /// (device, inode) of the socket file this agent made, or nil for systemd's.
    private static func listen(_ paths: AgentPaths) -> (Int32, (UInt, UInt)?) {
        if let fd = systemdSocket() { return (fd, nil) }
        do {
            let fd = try UnixSocket.listen(at: paths.socket)
            return (fd, socketIdentity(paths.socket))
        } catch {
            fail(error.description)
        }
    }

    /// The command line's own socket (`AgentPaths.control`), replacing any a crashed agent
    /// left, and its identity; nil when it cannot be made (the command line then uses the
    /// hosts' socket, as it did before there was one).
    private static func listenForCommandLine(_ paths: AgentPaths) -> (fd: Int32, identity: (UInt, UInt)?)? {
        do {
            let fd = try UnixSocket.listen(at: paths.control)
            return (fd, socketIdentity(paths.control))
        } catch {
            Log.warning("no socket of its own for the command line: \(error.description)")
            return nil
        }
    }

    /// The socket systemd passed (sd_listen_fds: fd 3, LISTEN_PID is this process), if any.
    private static func systemdSocket() -> Int32? {
        defer {
            // Not for pinentry or any other child.
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = Environment.string("LISTEN_PID").flatMap({ Int32($0) }), pid == getpid(),
            Environment.string("LISTEN_FDS") == "1"
        else { return nil }
        _ = fcntl(3, F_SETFD, FD_CLOEXEC)
        return 3
    }

    static func socketIdentity(_ path: String) -> (UInt, UInt)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt(info.st_dev), UInt(info.st_ino))
    }

    static func fail(_ message: String) -> Never {
        Log.error(message)
        exit(1)
    }
}

/// The agent's main thread: accepts connections, and keeps house between them.
private struct AcceptLoop {
    let listener: Int32
    let socketIdentity: (UInt, UInt)?
    /// The command line's socket, and its identity.
    let control: (fd: Int32, identity: (UInt, UInt)?)?
    let state: AgentState
    let makeRouter: AgentConnection.RouterMaker
    /// The sessions, whose expiries and whose accounts' changes this loop announces.
    let sessions: SessionService
    let keystoreWatch: KeystoreWatch?
    /// The keys the extensions last heard of.
    var announcedAccounts: SessionAccounts
    let wake: (read: Int32, write: Int32)
    /// How long each connection's frame may take once begun.
    var readTimeout = AgentTimeouts.read
    /// Since when the agent has had nobody connected and nothing unlocked.
    var idleSince: ContinuousClock.Instant

    init(
        listener: Int32, socketIdentity: (UInt, UInt)?, control: (fd: Int32, identity: (UInt, UInt)?)?,
        state: AgentState,
        sessions: SessionService, makeRouter: @escaping AgentConnection.RouterMaker
    ) {
        (self.listener, self.socketIdentity, self.state, self.makeRouter) = (
            listener, socketIdentity, state, makeRouter
        )
        self.control = control
        self.sessions = sessions
        keystoreWatch = KeystoreWatch(keystorePath: state.keystoreFile)
        announcedAccounts = sessions.currentAccounts()
        wake = (try? Spawn.pipe(nonBlocking: true)) ?? (-1, -1)
        state.wakeDescriptor = wake.write
        idleSince = state.clocks.monotonic()
        Signals.install(wakeDescriptor: wake.write, grace: AgentTimeouts.signalGrace)
    }

    mutating func run() -> Never {
        var watched = [
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: keystoreWatch?.descriptors.instance ?? -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: control?.fd ?? -1, events: Int16(POLLIN), revents: 0),
            pollfd(fd: keystoreWatch?.descriptors.wake ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            // A signal interrupts the wait and writes to `wake`, so the wait that goes on ends at once.
            var deadline = state.clocks.monotonic() + AgentTimeouts.housekeeping
            if let expiry = state.cache.nextExpiry { deadline = min(deadline, expiry) }
            for index in watched.indices { watched[index].revents = 0 }
            if SystemCall.poll(&watched, until: deadline, now: state.clocks.monotonic) < 0 {
                end("poll failed (errno \(errno))")
            }
            if let number = Signals.caught { end("signal \(number)") }
            if state.stopRequested.load(ordering: .acquiring) { end("asked to stop") }
            // The command line's first: it is never kept waiting behind the hosts.
            if watched[3].revents != 0, let control { acceptOne(from: control.fd, door: .control) }
            if watched[0].revents != 0 { acceptOne(from: listener, door: .socket) }
            if watched[2].revents != 0 || watched[4].revents != 0, keystoreWatch?.drain() == true {
                announceKeyChanges()
            }
            keepHouse()
        }
    }

    private func acceptOne(from listener: Int32, door: ConnectionLimits.Door) {
        guard let fd = UnixSocket.accept(listener) else { return }
        // Only this user's processes; the folder's mode says so too, but the kernel's word on
        // who is at the other end is the check.
        guard let uid = UnixSocket.peerUserID(fd), uid == getuid() else {
            Log.warning(
                "refused a connection from another user (uid \(UnixSocket.peerUserID(fd).map(String.init) ?? "unknown"))"
            )
            close(fd)
            return
        }
        guard state.limits.arrive(at: door) else {
            let waiting = door == .socket ? state.limits.limits.pending : state.limits.limits.controlPending
            Log.warning(
                "refused a connection: \(waiting) connections\(door == .control ? " of the command line" : "") have not said hello yet"
            )
            close(fd)
            return
        }
        var setUp = AgentConnection(
            fd: fd, keystorePath: state.keystorePath, makeRouter: makeRouter, limits: state.limits)
        setUp.readTimeout = readTimeout
        setUp.clocks = state.clocks
        setUp.door = door
        // `agent.stop` ends the agent once its reply is written, not before.
        setUp.afterEachRequest = { [state] in state.wakeIfStopRequested() }
        let connection = setUp
        let state = self.state
        let started = Threads.connections.run { connection.serve() }
        if !started {
            Log.error("cannot start a thread for a connection; closing it")
            state.limits.abandon(at: door)
            close(fd)
        }
    }

    /// Tells every session's ports that its accounts changed, when the keys did.
    private mutating func announceKeyChanges() {
        let accounts = sessions.currentAccounts()
        guard accounts != announcedAccounts else { return }
        announcedAccounts = accounts
        sessions.announceAccounts(accounts)
    }

    private mutating func keepHouse() {
        if state.cache.expire() { Log.info("keys locked: their time ran out") }
        for session in sessions.store.expire() {
            sessions.notify(session, "session_expire")
        }
        if let socketIdentity {
            guard let current = Agent.socketIdentity(state.paths.socket) else { end("the socket was removed") }
            if current != socketIdentity { end("another agent's socket replaced this one's") }
        }
        let now = state.clocks.monotonic()
        if state.clientCount > 0 || state.cache.nextExpiry != nil || state.portsListen() { idleSince = now }
        if now - idleSince >= state.idleExit {
            end("idle for \(state.idleExit) with the keys locked and nobody connected")
        }
    }

    /// Wipes the keys, closes pinentry, removes the socket if it is this agent's, and exits.
    private func end(_ reason: String) -> Never {
        Signals.readerIsEnding()
        state.cache.lock()
        ChildProcesses.terminateAll()
        EndOfProcess.run()  // the audit log's counted refusals
        if let socketIdentity, let current = Agent.socketIdentity(state.paths.socket), current == socketIdentity {
            unlink(state.paths.socket)
        }
        if let identity = control?.identity, let current = Agent.socketIdentity(state.paths.control),
            current == identity
        {
            unlink(state.paths.control)
        }
        Log.info("agent ending: \(reason)")
        _exit(0)
    }
}

/// What the agent's threads share: its paths, its keys, its clients, and whether it should stop.
final class AgentState: Sendable {
    let paths: AgentPaths
    /// The keystore as the hello names it, and as a file (absolute: the agent works in `/`).
    let keystorePath: String
    let keystoreFile: String
    let cache: UnlockCache
    let idleExit: Duration
    /// The agent's time (`Clocks`): idleness, the keys' lifetimes, `agent status`.
    let clocks: Clocks
    let startedAt: Int
    let signatureRequestsInLine: @Sendable () -> Int
    /// The agent signs without asking anyone (the passphrase file).
    let unattended: Bool
    /// The extensions' events, to the files their ports' hosts watch.
    let events: EventHub
    /// The connections each kind of client holds.
    let limits = ConnectionLimits(Agent.limits)
    let stopRequested = Atomic<Bool>(false)
    private let wake = Atomic<Int32>(-1)
    /// The agent's own descriptor of `paths.ports`, to learn whether any host holds it.
    private let portsLock: Int32

    init(
        paths: AgentPaths, keystorePath: String, keystoreFile: String, cache: UnlockCache, idleExit: Duration,
        unattended: Bool = false,
        signatureRequestsInLine: @escaping @Sendable () -> Int = { 0 }, clocks: Clocks = .system
    ) {
        (self.paths, self.keystorePath, self.keystoreFile, self.cache, self.idleExit) = (
            paths, keystorePath, keystoreFile, cache, idleExit
        )
        self.clocks = clocks
        startedAt = clocks.wall()
        self.unattended = unattended
        self.signatureRequestsInLine = signatureRequestsInLine
        events = EventHub(paths: paths, epoch: "\(getpid())-\(startedAt)")
        portsLock = open(paths.ports, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    }

    /// Whether a host with a port open listens for this agent's events: each holds a shared
    /// lock on `paths.ports` while it does (`EventFile`), which costs the agent no connection.
    func portsListen() -> Bool {
        guard portsLock >= 0 else { return false }
        guard flock(portsLock, LOCK_EX | LOCK_NB) == 0 else { return errno == EWOULDBLOCK }
        flock(portsLock, LOCK_UN)
        return false
    }

    /// The main thread's wake-up pipe, written by `agent.stop`.
    var wakeDescriptor: Int32 {
        get { wake.load(ordering: .acquiring) }
        set { wake.store(newValue, ordering: .releasing) }
    }

    var clientCount: Int { limits.connected }

    /// The router for one connection: the wallet, and the agent's own methods.
    func router(for sessions: SessionService, caller: Caller, writer: SocketWriter) throws(RouterError) -> Router {
        var router = Router()
        try router.registerSessions(sessions)
        try router.register(AgentProtocol.AccountsIfConnected.self, execution: .immediate) { _, context in
            guard let accounts = try sessions.accountsIfConnected(context: context) else {
                throw RPCError(code: AgentProtocol.consentNeeded, message: "Consent needed")
            }
            return accounts
        }
        try router.register(AgentProtocol.Sessions.self, execution: .immediate) { _, _ in
            .object(["sessions": .array(sessions.store.all().map(\.summary))])
        }
        try router.register(AgentProtocol.Revoke.self, execution: .immediate) { params, _ in
            guard let session = try sessions.store.remove(topic: params.topic) else { return .init(revoked: false) }
            sessions.notify(session, "session_delete", ["reason": SessionService.userDisconnected])
            Log.info("session \(session.topic.prefix(8))… of \(session.caller) revoked")
            return .init(revoked: true)
        }
        try router.register(AgentProtocol.RevokeAll.self, execution: .immediate) { params, _ in
            let removed: [Session]
            if let site = params.site {
                guard SiteOrigin.isValid(site) else { throw SiteOrigin.invalid("site") }
                removed = try sessions.store.remove(site: site)
            } else {
                removed = try sessions.store.removeAll()
            }
            for session in removed {
                sessions.notify(session, "session_delete", ["reason": SessionService.userDisconnected])
            }
            Log.info("\(removed.count) sessions revoked\(params.site.map { " for the site \($0)" } ?? "")")
            return .init(revoked: removed.count)
        }
        try router.register(AgentProtocol.Subscribe.self, execution: .immediate) { [events] _, _ in
            .init(events: events.file(for: SessionCaller(caller)))
        }
        try router.register(AgentProtocol.Status.self, execution: .immediate) { [self] _, _ in status() }
        try router.register(AgentProtocol.Lock.self, execution: .immediate) { [cache] _, _ in
            let wasUnlocked = cache.lock()
            if wasUnlocked { Log.info("keys locked on request") }
            return .init(was_unlocked: wasUnlocked)
        }
        // The main thread ends the agent when the connection has written this reply
        // (`wakeIfStopRequested`); ending it from here raced the reply.
        try router.register(AgentProtocol.Stop.self, execution: .immediate) { [self] _, _ in
            stopRequested.store(true, ordering: .releasing)
            return NoResult()
        }
        return router
    }

    /// Wakes the main thread if a stop was asked for, so that it ends the agent now.
    func wakeIfStopRequested() {
        guard stopRequested.load(ordering: .acquiring) else { return }
        var byte: UInt8 = 1
        _ = write(wakeDescriptor, &byte, 1)
    }

    func status() -> AgentStatus {
        let unlocked = cache.status()
        return AgentStatus(
            pid: getpid(), keystore: keystorePath, socket: paths.socket, protocol_version: AgentProtocol.version,
            started_at: startedAt, unlocked: unlocked != nil, unlocked_at: unlocked?.unlockedAt,
            locks_at: unlocked?.locksAt,
            locks_at_latest: unlocked?.locksAtLatest, cache_ttl: Int(cache.lifetimes.idle / .seconds(1)),
            max_cache_ttl: Int(cache.lifetimes.maximum / .seconds(1)), clients: clientCount,
            signature_requests: signatureRequestsInLine(), unattended: unattended,
            idle_exit_after: Int(idleExit / .seconds(1)))
    }
}

/// Detached POSIX threads, for work that blocks for as long as a client stays (Swift's pool
/// has one thread per core, and Dispatch's would grow without bound).
enum Threads {
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// The connections' threads: a thread that has served a client waits a while for the next.
    static let connections = Pool(keepIdleFor: 30)

    /// Runs `body` on a new thread; false if none could be made (`body` is dropped).
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// Threads kept for reuse. Each cold GetAccounts is one connection, and making and ending a
    /// thread for it was a large part of the agent's CPU per connection (clone, its stack, exit).
    /// A body never waits for a thread: with none idle, a new one is made, so one client that
    /// stays cannot hold up another. An idle thread ends after `keepIdleFor` seconds.
    final class Pool: @unchecked Sendable {
        // pthread objects must not move: allocated once, never freed (the pool lives as long
        // as the process). Every member below them is guarded by `lock`.
        private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let workArrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private let keepIdleFor: Int
        private var work: [@Sendable () -> Void] = []
        /// Threads waiting for work that no body has been handed to yet.
        private var idle = 0

        init(keepIdleFor seconds: Int) {
            keepIdleFor = seconds
            pthread_mutex_init(lock, nil)
            pthread_cond_init(workArrived, nil)
        }

        /// Runs `body` on an idle thread, or a new one; false if none could be made.
        func run(_ body: @escaping @Sendable () -> Void) -> Bool {
            pthread_mutex_lock(lock)
            if idle > 0 {
                idle -= 1
                work.append(body)
                pthread_cond_signal(workArrived)
                pthread_mutex_unlock(lock)
                return true
            }
            pthread_mutex_unlock(lock)
            return Threads.start { [self] in
                var next: (@Sendable () -> Void)? = body
                while let body = next {
                    body()
                    next = nextWork()
                }
            }
        }

        /// The next body for a thread that finished one; nil when none came in time.
        private func nextWork() -> (@Sendable () -> Void)? {
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            idle += 1
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_sec += keepIdleFor
            while work.isEmpty {
                if pthread_cond_timedwait(workArrived, lock, &deadline) == ETIMEDOUT, work.isEmpty {
                    idle -= 1
                    return nil
                }
            }
            return work.removeFirst()
        }
    }
}
