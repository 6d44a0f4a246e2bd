#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import WalletBridgeClient
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeSessions
import WalletBridgeFraming
import WalletBridgeHost
import WalletBridgeProtocol

/// A client of the agent: a host that hands it the wallet's requests, or a command (`agent
/// status`, `lock`). Starts the agent on first need, as gpg-agent is started by its first
/// client, when it was made with a program to start it with.
package final class AgentClient: Sendable {
    /// The agent's socket, lock and log: worked out when first needed, not with the client (the
    /// environment and the keystore path's hash), for the same reason as `hello`.
    package var paths: AgentPaths {
        foundPaths.withLock { found in
            if let found { return found }
            let paths = AgentPaths.forKeystore(keystorePath)
            found = paths
            return paths
        }
    }
    private let foundPaths = Mutex<AgentPaths?>(nil)
    package let keystorePath: String
    /// The `wallet-bridge` executable that runs `agent`; nil: never start one. Asked for when an
    /// agent is to be started, not with the client: most hosts find one running, or answer
    /// without it.
    let agentProgram: @Sendable () -> String?
    /// What the hello says besides the version: the host's arguments and browser.
    private let arguments: [String]
    private let browserProcess: Int32?
    /// The command line (`agent status`, `lock`, `agent stop`, `sessions`): its hello says so,
    /// and the agent serves it on connections no extension can take.
    private let control: Bool
    /// The connection for synchronous calls, kept open while calls come, and closed after
    /// `keptIdleTimeout` without one: an extension may open hundreds of ports, and each may
    /// hold only `ConnectionLimits.perCaller` of the agent's connections at once.
    private let kept = Mutex<Connection?>(nil)
    /// Calls made on `kept` so far: a close scheduled after one call is skipped if another came.
    private let keptCalls = Atomic<Int>(0)
    /// How long the kept connection stays open after its last call.
    let keptIdleTimeout: Duration
    /// How long a call waits, trying again, while the agent refuses this extension's connection
    /// because its other ports hold all it may have (`too_many_connections`): they close their
    /// connections within `keptIdleTimeout` of their last call.
    let busyWait: Duration
    /// How long `listen` waits before asking the agent again after a failure.
    let resubscribePause: Duration
    /// The time every deadline of a call is measured with: answers, starting an agent, the
    /// busy wait.
    let clocks: Clocks
    /// An agent this process started and has not yet reaped.
    private let startedAgent = Mutex<pid_t?>(nil)
    /// Whether this process hears the agent's events now (`listen`), and how many it heard.
    package let events = EventWatch()

    /// How long starting an agent may take, and an answer to a call that asks no person.
    static let startTimeout: Duration = .seconds(5)
    /// Tries of a call that asks no person, each on a new connection after a broken one.
    static let callAttempts = 3
    static let answerTimeout: Duration = .seconds(10)

    /// `paths`, `keptIdleTimeout`, `busyWait`, `resubscribePause` and `clocks` are for tests: by
    /// default the paths are worked out from the environment when first needed, the kept
    /// connection closes 2 s after its last call, a call refused for `too_many_connections`
    /// tries again for up to 5 s (half of `answerTimeout`), and time is the system's.
    package init(
        keystorePath: String, agentProgram: @autoclosure @escaping @Sendable () -> String?, arguments: [String],
        browserProcess: Int32?, control: Bool = false,
        paths: AgentPaths? = nil, keptIdleTimeout: Duration = .seconds(2), busyWait: Duration = .seconds(5),
        resubscribePause: Duration = .seconds(1), clocks: Clocks = .system
    ) {
        self.resubscribePause = resubscribePause
        self.clocks = clocks
        if let paths { foundPaths.withLock { $0 = paths } }
        self.keptIdleTimeout = keptIdleTimeout
        self.busyWait = busyWait
        self.keystorePath = keystorePath
        self.agentProgram = agentProgram
        self.arguments = arguments
        self.browserProcess = browserProcess
        self.control = control
    }

    /// What every connection says first: the hello's frame body. Made when a connection opens,
    /// not with the client: a connected extension's cold GetAccounts opens none (it reads the
    /// agent's files), and building it was a noticeable share of that call.
    var hello: [UInt8] {
        var members: [String: JSONValue] = [
            "version": .number(JSONNumber(AgentProtocol.version)),
            "arguments": .array(arguments.map { .string($0) }),
            "browser_pid": browserProcess.map { .number(JSONNumber(Int($0))) } ?? .null,
            "keystore": .string(keystorePath),
        ]
        if control { members["control"] = true }
        return Request.encode(
            id: Connection.helloID, method: AgentProtocol.Hello.name, encodedParams: JSONValue.object(members).jsonBytes
        )
    }

    /// Why a call got no answer from the agent.
    package struct Unavailable: Error, Sendable, Equatable, CustomStringConvertible {
        /// One of the -32005 reasons (README, error -32005); `.notRunning` for a client that may
        /// not start one.
        package let reason: ErrorReason
        package let problem: String
        package let fix: String?
        package var description: String { problem + (fix.map { "; \($0)" } ?? "") }

        package init(reason: ErrorReason, problem: String, fix: String?) {
            (self.reason, self.problem, self.fix) = (reason, problem, fix)
        }

        /// The error an extension gets.
        package var rpcError: RPCError {
            var data: [String: JSONValue] = ["reason": reason.jsonValue, "problem": .string(problem)]
            if let fix { data["fix"] = .string(fix) }
            return RPCError(.agentUnavailable, data: .object(data))
        }
    }

    /// A call's failure: no answer, or the agent's error answer.
    package enum CallError: Error, Sendable {
        case unavailable(Unavailable)
        case answered(RPCError)
    }

    /// Calls `method` on the kept connection and waits for the answer (at most
    /// `answerTimeout`). For calls that ask no person, which may be sent again: a connection
    /// the agent closed (it was restarted, say) is replaced, up to `callAttempts` tries.
    package func call<M: RPCMethod>(_ method: M.Type, _ params: M.Params) throws(CallError) -> M.Result {
        try decoded(M.self, from: call(M.name, params: try Self.encoded(params)))
    }

    /// `call` with the params already encoded, returning the result as it came: for the cold
    /// GetAccounts, which the generic encoder and decoder would slow.
    /// `busyWait` replaces the client's for this call: a call on the thread that reads the
    /// host's requests passes none, and defers to the pool when refused as busy.
    package func call(_ method: String, params: [UInt8], busyWait: Duration? = nil) throws(CallError) -> JSONValue {
        defer { closeKeptWhenIdle() }
        return try kept.withLock { kept throws(CallError) -> JSONValue in
            var attempt = 1
            var busy = BusyBackoff(within: busyWait ?? self.busyWait, now: clocks.monotonic)
            while true {
                let fresh = kept == nil
                if kept == nil { kept = try open() }
                do throws(Connection.Failure) {
                    let result = try kept!.exchange(
                        method, params: params, hello: fresh ? hello : nil,
                        deadline: clocks.monotonic() + Self.answerTimeout)
                    if fresh { settleStartedAgent(serving: kept!.agentProcess) }
                    if kept!.crowded {
                        // This extension holds half its connections or more: the next of its
                        // ports may have this one's place now rather than in `keptIdleTimeout`.
                        kept!.close()
                        kept = nil
                    }
                    return result
                } catch {
                    if case .answered = error { throw callError(error) }
                    kept?.close()
                    kept = nil
                    // This extension's other ports hold all the connections it may have: one
                    // of theirs closes soon after its call.
                    if Self.isBusy(error), busy.pause() { continue }
                    // A connection the agent closed (it was restarted, or was killed as this one
                    // connected): a new one, which starts an agent if none listens.
                    guard case .broken = error, attempt < Self.callAttempts else { throw callError(error) }
                    attempt += 1
                    if attempt == Self.callAttempts {
                        // An agent killed a moment ago may still accept on its socket until the
                        // kernel has torn it down: wait for that before the last try.
                        SystemCall.pause(.milliseconds(50))
                    }
                }
            }
        }
    }

    /// Closes the kept connection `keptIdleTimeout` from now, unless another call comes first.
    /// Scheduled on a queue, not awaited in a task: this runs in a host's cold call.
    private func closeKeptWhenIdle() {
        let calls = keptCalls.add(1, ordering: .acquiringAndReleasing).newValue
        clocks.schedule(at: clocks.monotonic() + keptIdleTimeout, on: Self.waitingQueue) { [self] in
            guard keptCalls.load(ordering: .acquiring) == calls else { return }
            kept.withLock { kept in
                guard keptCalls.load(ordering: .acquiring) == calls else { return }
                kept?.close()
                kept = nil
            }
        }
    }

    /// Calls `method` on a connection of its own, waiting as long as it takes (a person may be
    /// asked). Cancelling the task closes the connection, and with it the agent's dialog.
    package func callOnOwnConnection<M: RPCMethod>(_ method: M.Type, _ params: M.Params) async throws -> M.Result {
        let call = CancellableCall()
        let params = try Self.encoded(params)
        let result = try await withTaskCancellationHandler {
            try await Blocking.run(on: Self.waitingQueue) { [self] () throws -> JSONValue in
                var busy = BusyBackoff(within: busyWait, now: clocks.monotonic)
                while true {
                    var opened = try open()
                    guard call.adopt(opened.fd) else {
                        opened.close()
                        throw CancellationError()
                    }
                    do throws(Connection.Failure) {
                        let result = try opened.exchange(M.name, params: params, hello: hello, deadline: nil)
                        call.close(opened)
                        settleStartedAgent(serving: opened.agentProcess)
                        return result
                    } catch {
                        call.close(opened)
                        // A connection shut down by the cancellation handler reads as broken.
                        if case .broken = error, call.isCancelled { throw CancellationError() }
                        // Refused at the hello: the request was never read, and may be sent
                        // again, unless the caller left meanwhile.
                        if Self.isBusy(error), !call.isCancelled, busy.pause() { continue }
                        throw callError(error)
                    }
                }
            }
        } onCancel: {
            call.cancel()
        }
        return try decoded(M.self, from: result)
    }

    /// Hears the agent's events for this host's extension and hands each to `deliver`, until
    /// the process ends, without holding a connection (`EventHub`): it asks the agent, on a
    /// connection closed at once, where the extension's events are written (`agent.subscribe`),
    /// and watches that file. It never starts an agent for that: with none running it watches
    /// the agent's folder until a request (this port's or another's) starts one, and asks that
    /// one. While it watches it holds a shared lock on the agent's `ports` file, so that the
    /// agent does not end for idleness with ports open. After `maxResubscribeFailures` failures
    /// in a row of an agent that runs, the host gives up, with a log line; a refusal for
    /// `too_many_connections` is no failure (the port tries again until it gets through).
    package func listen(deliver: @escaping @Sendable (_ method: String, _ params: JSONValue) -> Void) {
        Self.waitingQueue.async { [self] in
            // Nil: it logged why.
            guard var watch = EventFile(paths: paths) else { return }
            defer { watch.close() }
            let path = EventHub.file(paths, caller: SessionCaller(Caller(arguments: arguments)))
            // Where this port is in the events file, taken before asking and kept from one agent
            // to the next: every event written after it is passed on, and all of a new agent's
            // (they are numbered anew), however soon after its start they were written.
            var position = EventFile.position(of: path)
            var failures = 0
            var refusedSockets = 0
            var told = Set<String>()
            while failures < Self.maxResubscribeFailures {
                do throws(CallError) {
                    try subscribe(path)
                    failures = 0
                    refusedSockets = 0
                    events.started()
                    defer { events.stopped() }
                    watch.follow(path, from: &position) { method, params in
                        guard AgentProtocol.Subscribe.events.contains(method) else { return }
                        events.heard()
                        deliver(method, params)
                    }
                    if watch.folderGone {
                        Log.info("the agent's folder \(paths.folder) went away; this port hears no more of its events")
                        return
                    }
                    Log.debug(
                        "the agent ended; this port hears the events of the next one, which the next request starts")
                } catch .unavailable(let unavailable) where unavailable.reason == .notRunning {
                    // No agent listens. A socket that is there but refuses is an agent between
                    // its bind and its listen (asked again at once, a few times) or one that
                    // crashed: tried again when a socket is made there, and every second.
                    let refused = Agent.socketIdentity(paths.socket) != nil
                    if refused, refusedSockets < 3 {
                        refusedSockets += 1
                        SystemCall.pause(.milliseconds(20 * refusedSockets * refusedSockets))
                        continue
                    }
                    refusedSockets = 0
                    guard watch.waitForAgent(refused: refused) else {
                        Log.info("the agent's folder \(paths.folder) went away; this port hears no more of its events")
                        return
                    }
                    continue
                } catch {
                    // Refused because this extension's other ports hold all its connections:
                    // not a failure; the port waits its turn (a try, with back-off, each
                    // `busyWait` and `resubscribePause`) for as long as that lasts.
                    if case .unavailable(let unavailable) = error, unavailable.reason == .tooManyConnections {
                    } else {
                        failures += 1
                    }
                    tellOnce(error, &told)
                }
                SystemCall.pause(resubscribePause)
            }
            Log.warning(
                "this port gave up hearing the agent's events (changes to its accounts and sessions) after \(Self.maxResubscribeFailures) failures in a row; the extension learns of them when it asks again"
            )
        }
    }

    static let maxResubscribeFailures = 5

    /// Asks the agent, without starting one, whether it writes this extension's events to
    /// `path`: on a connection of its own, closed at once, tried again while this extension's
    /// other ports hold all its connections.
    private func subscribe(_ path: String) throws(CallError) {
        var busy = BusyBackoff(within: busyWait, now: clocks.monotonic)
        while true {
            var connection = try open(mayStart: false)
            let file: JSONValue
            do throws(Connection.Failure) {
                file = try connection.exchange(
                    AgentProtocol.Subscribe.name, params: Array("{}".utf8), hello: hello,
                    deadline: clocks.monotonic() + Self.answerTimeout)
            } catch {
                connection.close()
                if Self.isBusy(error), busy.pause() { continue }
                throw callError(error)
            }
            connection.close()
            guard case .object(let members) = file, members["events"] == .string(path) else {
                throw .unavailable(
                    Unavailable(
                        reason: .notResponding, problem: "the agent writes the events elsewhere than \(path)",
                        fix: restartAdvice))
            }
            return
        }
    }

    /// Logs, once per cause for this port, why it cannot hear the agent's events now: a
    /// warning, but only a debug line for an agent busy with this extension's other ports (the
    /// next try gets through as they close their connections).
    private func tellOnce(_ error: CallError, _ told: inout Set<String>) {
        let cause: String
        let said: String
        switch error {
        case .unavailable(let unavailable):
            cause = unavailable.reason.rawValue
            said = unavailable.description
        case .answered(let answer):
            cause = "answered \(answer.code.rawValue)"
            said = "the agent answered \(answer.message)"
        }
        guard told.insert(cause).inserted else { return }
        let text =
            "this port does not hear the agent's events (changes to its accounts and sessions) for now, and tries again: \(said)"
        if cause == ErrorReason.tooManyConnections.rawValue { Log.debug(text) } else { Log.warning(text) }
    }

    /// Whether the agent refused a hello because this extension (or every extension together)
    /// holds all the connections it may: a refusal that ends as their calls do.
    private static func isBusy(_ failure: Connection.Failure) -> Bool {
        guard case .refused(let error) = failure else { return false }
        return error.reason == .tooManyConnections
    }

    /// `result` as `M`'s result type, or the failure of an agent that answered nonsense.
    private func decoded<M: RPCMethod>(_ method: M.Type, from result: JSONValue) throws(CallError) -> M.Result {
        guard let decoded = try? JSONValueDecoder().decode(M.Result.self, from: result) else {
            throw .unavailable(
                Unavailable(
                    reason: .notResponding, problem: "the agent's answer to \(M.name) has no acceptable result",
                    fix: restartAdvice))
        }
        return decoded
    }

    private static func encoded(_ params: some Encodable) throws(CallError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            try ResultEncoder.encode(params, into: &bytes)
        } catch {
            throw .unavailable(
                Unavailable(reason: .notResponding, problem: "cannot encode the request: \(error)", fix: nil))
        }
        return bytes
    }

    /// Waits for answers that a person may take minutes to give: off Swift's pool.
    private static let waitingQueue = DispatchQueue(label: "wallet-bridge.agent-calls", attributes: .concurrent)

    /// What the caller of `call` learns of a connection's failure.
    private func callError(_ failure: Connection.Failure) -> CallError {
        switch failure {
        case .answered(let error): .answered(error)
        case .mismatch(let problem): .unavailable(mismatch(problem))
        case .otherKeystore(let serves): .unavailable(otherKeystore(serves))
        case .refused(let error): .unavailable(refused(error))
        case .broken(let problem):
            .unavailable(Unavailable(reason: .notResponding, problem: problem, fix: restartAdvice))
        }
    }

    private func mismatch(_ problem: String) -> Unavailable {
        Unavailable(
            reason: .protocolMismatch, problem: problem,
            fix:
                "an agent from another version of wallet-bridge is running: `wallet-bridge agent stop` ends it, and the next request starts this version's"
        )
    }

    private func otherKeystore(_ serves: String) -> Unavailable {
        Unavailable(
            reason: .otherKeystore, problem: "the agent at \(paths.socket) serves \(serves), not \(keystorePath)",
            fix: "the two share a socket folder but not a home: give each its own XDG_RUNTIME_DIR")
    }

    private func refused(_ error: RPCError) -> Unavailable {
        var reason = ErrorReason.notResponding
        var problem = "the agent refused the connection: \(error.message)"
        if case .object(let data)? = error.data {
            if let given = error.reason { reason = given }
            if case .string(let given)? = data["problem"] { problem = given }
        }
        return Unavailable(
            reason: reason, problem: problem,
            fix: reason == .tooManyConnections
                ? "the extension holds as many connections to the agent as it may: close some of its ports (docs/agent.md, Limits)"
                : restartAdvice)
    }

    private var restartAdvice: String {
        "run `wallet-bridge agent status`; `wallet-bridge agent stop` ends a stuck agent, and the next request starts a new one"
    }

    // MARK: Connecting

    /// A connection to the agent, starting one if none listens, this client may, and `mayStart`.
    private func open(mayStart: Bool = true) throws(CallError) -> Connection {
        reapStartedAgent()
        do {
            // A missing folder is fine: the agent this client starts makes it.
            try paths.checkFolder(missingIsFine: true)
        } catch {
            throw .unavailable(Unavailable(reason: .unsafeSocket, problem: error.problem, fix: error.fix))
        }
        let fd: Int32
        do {
            fd = try connect()
        } catch {
            guard error.code == ENOENT || error.code == ECONNREFUSED else {
                throw .unavailable(Unavailable(reason: .notResponding, problem: error.description, fix: nil))
            }
            guard mayStart, let agentProgram = agentProgram() else {
                throw .unavailable(
                    Unavailable(reason: .notRunning, problem: "no agent is running for \(keystorePath)", fix: nil))
            }
            return try start(agentProgram)
        }
        return try verified(fd)
    }

    /// A connection to the agent's socket; for the command line, to its own socket
    /// (`AgentPaths.control`), which no extension's connections can fill, or the hosts' when
    /// it has none.
    private func connect() throws(UnixSocket.Failure) -> Int32 {
        if control, let fd = try? UnixSocket.connect(to: paths.control) { return fd }
        return try UnixSocket.connect(to: paths.socket)
    }

    /// Starts `wallet-bridge agent` for this keystore, detached, and connects to it.
    private func start(_ program: String) throws(CallError) -> Connection {
        func cannotStart(_ problem: String) -> CallError {
            .unavailable(
                Unavailable(
                    reason: .cannotStart, problem: problem,
                    fix: "see \(paths.log ?? "the agent's log"); `wallet-bridge agent` runs it in a terminal"))
        }
        let pid: pid_t
        do {
            pid = try AgentLaunch.start(program, keystorePath: keystorePath, log: paths.log)
        } catch {
            throw cannotStart("cannot start the agent \(program): \(error.reason)")
        }
        startedAgent.withLock { $0 = pid }
        let deadline = clocks.monotonic() + Self.startTimeout
        var pause = Duration.microseconds(500)
        while clocks.monotonic() < deadline {
            if let fd = try? connect() { return try verified(fd) }
            // Status 0 means another agent won the lock: its socket appears in a moment.
            if let status = reapStartedAgent(), status.exitCode != 0 {
                let said = lastLogLine().map { ": \($0)" } ?? ""
                throw cannotStart("the agent \(status) before listening\(said)")
            }
            SystemCall.pause(pause)
            pause = min(pause * 2, .milliseconds(50))
        }
        throw cannotStart("the agent did not listen at \(paths.socket) within \(Self.startTimeout)")
    }

    /// Once connected: when the agent that answered is not the one this process started, that
    /// one lost the race for the lock and exits at once; it is reaped now (waiting up to a
    /// second), so that a host with a long-lived port leaves no zombie behind.
    private func settleStartedAgent(serving agentProcess: pid_t?) {
        guard let started = startedAgent.withLock({ $0 }), let agentProcess, agentProcess != started else { return }
        let deadline = clocks.monotonic() + .seconds(1)
        while reapStartedAgent() == nil, clocks.monotonic() < deadline {
            SystemCall.pause(.milliseconds(1))
        }
    }

    /// The connection on `fd`, if the process listening is this user's: the kernel says who
    /// it is (SO_PEERCRED), and only an agent of ours may see what we ask to sign.
    private func verified(_ fd: Int32) throws(CallError) -> Connection {
        guard let uid = UnixSocket.peerUserID(fd), uid == getuid() else {
            close(fd)
            throw .unavailable(
                Unavailable(
                    reason: .unsafeSocket, problem: "the process listening at \(paths.socket) is not this user's",
                    fix: "remove \(paths.folder); someone else made it"))
        }
        return Connection(fd: fd, now: clocks.monotonic)
    }

    /// The agent log's last line, where an agent that could not start says why (its stderr).
    private func lastLogLine() -> String? {
        guard let log = paths.log, let bytes = try? AtomicFile.read(log, maxBytes: 1 << 24) else { return nil }
        let line = bytes.split(separator: 0x0A).last.map { String(decoding: $0, as: UTF8.self) }
        return line.map { String($0.prefix(300)) }
    }

    /// Reaps the agent this process started if it has exited; returns how it ended then.
    @discardableResult
    private func reapStartedAgent() -> ExitStatus? {
        startedAgent.withLock { pid -> ExitStatus? in
            guard let current = pid else { return nil }
            var status: Int32 = 0
            guard waitpid(current, &status, WNOHANG) == current else { return nil }
            pid = nil
            return ExitStatus(raw: status)
        }
    }
}

/// The connection of a call that may wait minutes (a person is asked), which a cancellation
/// shuts down from another thread: only while it is open, never a descriptor number closed and
/// perhaps given to another connection since.
final class CancellableCall: Sendable {
    private let state = Mutex<(fd: Int32?, cancelled: Bool)>((nil, false))

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Takes `fd` as the connection a cancellation shuts down; false when cancelled already.
    func adopt(_ fd: Int32) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.fd = fd
            return true
        }
    }

    /// Forgets the connection, then closes it, under the lock: a cancellation after this shuts
    /// nothing down.
    func close(_ connection: Connection) {
        state.withLock { state in
            state.fd = nil
            connection.close()
        }
    }

    /// Shuts down the connection open now, if any, and keeps the next from being adopted.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let fd = state.fd { _ = shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }
}

/// The pauses of a call that the agent refuses for `too_many_connections`: from 20 ms,
/// doubling to at most 500 ms, each shortened by up to half at random (so that ports refused
/// together do not all come back together), until `within` has passed since the first.
struct BusyBackoff {
    private let deadline: ContinuousClock.Instant
    private var next = Duration.milliseconds(20)
    private let now: () -> ContinuousClock.Instant
    private let sleep: (Duration) -> Void
    private let shortening: () -> Double

    /// `now` is the client's clock; `sleep` and `shortening` (the random factor, 0.5 to 1) are
    /// for tests.
    init(
        within: Duration, now: @escaping () -> ContinuousClock.Instant,
        sleep: @escaping (Duration) -> Void = SystemCall.pause,
        shortening: @escaping () -> Double = { Double.random(in: 0.5...1.0) }
    ) {
        (self.now, self.sleep, self.shortening) = (now, sleep, shortening)
        deadline = now() + within
    }

    /// Waits before the next try; false, at once, when that try would come after the deadline.
    mutating func pause() -> Bool {
        let pause = next * shortening()
        guard now() + pause <= deadline else { return false }
        next = min(next * 2, .milliseconds(500))
        sleep(pause)
        return true
    }
}

/// Whether a host hears the agent's events, and how many it has heard. While it listens, an
/// answer the agent gave stays true until the next event: every change to what an extension
/// may see (a key made or removed, its session extended, revoked or expired) is announced to it.
package final class EventWatch: Sendable {
    private let state = Mutex<(listening: Bool, heard: Int)>((false, 0))

    func started() { state.withLock { $0 = (true, $0.heard + 1) } }
    func heard() { state.withLock { $0.heard += 1 } }
    func stopped() { state.withLock { $0 = (false, $0.heard + 1) } }

    /// A mark for "as of now", to compare with a later one; nil while not listening, when
    /// nothing would be heard of a change.
    package var mark: Int? { state.withLock { $0.listening ? $0.heard : nil } }
}

/// One connection: its socket, its JSON-RPC client, and the next request id.
struct Connection {
    let fd: Int32
    let client: WalletBridgeClient.Connection
    var nextID = 1
    /// The agent's pid, from its answer to the hello.
    var agentProcess: pid_t?
    /// The hello's answer said the extension holds half its connections or more: the
    /// connection is closed after its call, not kept.
    var crowded = false

    /// The hello's id: calls count from 1.
    static let helloID = RequestID.number(JSONNumber(0))

    init(fd: Int32, now: @escaping () -> ContinuousClock.Instant) {
        self.fd = fd
        client = WalletBridgeClient.Connection(
            input: fd, output: fd, maxFrameBytes: Frame.defaultMaxInboundBytes, now: now)
    }

    func close() { _ = Glibc.close(fd) }

    enum Failure: Error {
        /// The connection failed or the agent broke the protocol: try another connection.
        case broken(String)
        /// The agent answered with an error.
        case answered(RPCError)
        /// The agent refused the hello, or answered it with another version.
        case mismatch(String)
        /// The agent at the socket serves this other keystore.
        case otherKeystore(String)
        /// The agent refused the hello: the client's kind holds all the connections it may.
        case refused(RPCError)
    }

    /// Sends `hello` (a request body, on a new connection) and the call, in one write, then reads
    /// the answers; returns the call's result.
    mutating func exchange(_ method: String, params: [UInt8], hello: [UInt8]?, deadline: ContinuousClock.Instant?)
        throws(Failure) -> JSONValue
    {
        let id = nextID
        nextID += 1
        let requestID = RequestID.number(JSONNumber(id))
        let request = Request.encode(id: requestID, method: method, encodedParams: params)
        guard request.count <= AgentProtocol.maxRequestBytes else {
            // The agent would refuse it, and its reply could not reach the browser anyway.
            throw .answered(
                RPCError(
                    .requestTooLarge,
                    detail:
                        "the request is \(request.count) bytes; the wallet agent takes at most \(AgentProtocol.maxRequestBytes)"
                ))
        }
        if let hello { client.send(hello, id: Self.helloID) }
        client.send(request, id: requestID)
        do throws(WalletBridgeClient.Connection.Failure) {
            try client.flush(until: deadline)
        } catch {
            throw Self.broken(error, answering: id)
        }
        if hello != nil {
            let answer: JSONValue
            do {
                answer = try result(id: Self.helloID, deadline: deadline)
            } catch .answered(let error) {
                if error.code == .agentUnavailable { throw .refused(error) }
                if error.message == AgentProtocol.otherKeystore, case .object(let data)? = error.data,
                    case .string(let serves)? = data["serves"]
                {
                    throw .otherKeystore(serves)
                }
                throw .mismatch("the agent refused protocol version \(AgentProtocol.version): \(error.message)")
            }
            guard case .object(let members) = answer, members["version"] == .number(JSONNumber(AgentProtocol.version))
            else {
                throw .mismatch("the agent speaks another protocol version than this host's \(AgentProtocol.version)")
            }
            if case .number(let pid)? = members["pid"] { agentProcess = pid_t(pid.literal) }
            crowded = members["crowded"] == .bool(true)
        }
        return try result(id: requestID, deadline: deadline)
    }

    /// The result of the reply to `id`.
    private func result(id: RequestID, deadline: ContinuousClock.Instant?) throws(Failure) -> JSONValue {
        let reply: Response.Parsed
        do {
            reply = try client.reply(to: id, until: deadline)
        } catch {
            throw Self.broken(error, answering: id)
        }
        switch reply.outcome {
        case .result(let result): return result
        case .error(let error): throw .answered(error)
        }
    }

    /// What a connection that failed says: it is broken, and a call on another may do.
    private static func broken(
        _ failure: WalletBridgeClient.Connection.Failure, answering id: some CustomStringConvertible
    ) -> Failure {
        switch failure {
        case .closed: .broken("the agent closed the connection")
        case .timedOut: .broken("the agent did not answer in time")
        case .fault(let fault): .broken("the agent sent a bad frame: \(fault)")
        case .system(let code): .broken("reading from the agent failed: \(String(cString: strerror(code)))")
        case .outputClosed(let code): .broken("the agent went away (\(String(cString: strerror(code))))")
        case .notResponse(let problem, _): .broken("the agent's answer is malformed: \(problem.reason)")
        case .unexpected: .broken("the agent's answer is not a reply to request \(id)")
        }
    }
}

/// How a host starts the agent: detached, as `gpg-agent --daemon` detaches.
enum AgentLaunch {
    /// Runs `program agent --keystore PATH` in a session of its own (out of reach of the
    /// signals a browser sends the host's group), with stdin and stdout on /dev/null (a browser
    /// waits for the host's stdout to close, and must not wait for the agent) and stderr
    /// appended to `log`.
    static func start(_ program: String, keystorePath: String, log: String?) throws(Spawn.Failure) -> pid_t {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        var logFD: Int32 = -1
        if let log {
            try? AtomicFile.ensureFolder(AtomicFile.split(log).folder)
            logFD = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        defer { if logFD >= 0 { close(logFD) } }
        return try Spawn.start(
            program, arguments: ["agent", "--keystore", keystorePath],
            standardStreams: [null, null, logFD >= 0 ? logFD : null],
            newSession: true)
    }

}
