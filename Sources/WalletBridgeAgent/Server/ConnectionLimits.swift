import Synchronization
import WalletBridgeWallet
import WalletBridgeSessions
import WalletBridgeProtocol

/// How many of the agent's connections each kind of client may hold, so that no extension can
/// take the agent from the person or from another extension (docs/agent.md, Limits).
///
/// A connection is counted as pending from its accept until its hello, which says who it is:
/// the command line (`control`: `agent status`, `lock`, `agent stop`, `sessions`), which has
/// slots of its own that no host can take, or a host speaking for an extension (its caller, from
/// the arguments the browser gave it, which the extension cannot choose). Each extension may
/// hold `perCaller` connections, and all of them together `callers`. Hosts say hello at once,
/// so a port of an extension over its limit holds a pending slot only for that moment.
///
/// The command line connects to a socket of its own (`AgentPaths.control`), whose pending
/// connections are counted apart (`controlPending`): connections that never say hello (any
/// process of the user can open them, on the hosts' socket) cannot keep it out either.
final class ConnectionLimits: Sendable {
    struct Limits: Sendable, Equatable {
        /// Connections that have not said hello yet.
        var pending = 64
        /// Connections of one extension (or of all unidentified callers together).
        var perCaller = 32
        /// Connections of every extension together.
        var callers = 128
        /// Connections of the command line, which only it can use.
        var control = 8
        /// Connections to the command line's own socket that have not said hello yet.
        var controlPending = 8
    }

    /// Who a connection speaks for, from its hello.
    enum Holder: Hashable, Sendable {
        case control
        /// An extension (Firefox's by its ID, whichever manifest started the host); every
        /// unidentified caller together counts as one.
        case caller(SessionCaller)
    }

    /// Where a connection came in: the hosts' socket, or the command line's.
    enum Door: Sendable {
        case socket
        case control
    }

    /// Why a hello was refused: which limit was reached (`too_many_connections`), or a host at
    /// the command line's socket (`wrong_socket`, no limit).
    struct Refusal: Error, Sendable, Equatable {
        var reason = ErrorReason.tooManyConnections
        let problem: String
        let limit: Int?
    }

    let limits: Limits
    private let counts = Mutex<
        (pending: Int, controlPending: Int, control: Int, callers: Int, perCaller: [SessionCaller: Int])
    >(
        (0, 0, 0, 0, [:]))

    init(_ limits: Limits = Limits()) { self.limits = limits }

    /// Every connection counted now, pending ones included.
    var connected: Int { counts.withLock { $0.pending + $0.controlPending + $0.control + $0.callers } }

    /// Counts a new connection at `door` as pending; false (uncounted) when as many as that
    /// door's limit are waiting already.
    func arrive(at door: Door = .socket) -> Bool {
        counts.withLock { counts in
            switch door {
            case .socket:
                guard counts.pending < limits.pending else { return false }
                counts.pending += 1
            case .control:
                guard counts.controlPending < limits.controlPending else { return false }
                counts.controlPending += 1
            }
            return true
        }
    }

    /// A pending connection that left (or was refused) before its hello was admitted.
    func abandon(at door: Door = .socket) {
        counts.withLock { counts in
            switch door {
            case .socket: counts.pending -= 1
            case .control: counts.controlPending -= 1
            }
        }
    }

    /// Moves a pending connection at `door` to `holder`'s count; a refusal (the connection
    /// stays pending until `abandon`) when that count is full, or when a host came to the
    /// command line's door. Returns whether the extension now holds half of its connections or
    /// more, or the extensions together half of theirs: its host then closes the connection
    /// after its call rather than keeping it, so that its other ports get their turn.
    @discardableResult
    func admit(_ holder: Holder, at door: Door = .socket) throws(Refusal) -> Bool {
        var crowded = false
        let refusal: Refusal? = counts.withLock { counts in
            switch holder {
            case .control:
                guard counts.control < limits.control else {
                    return Refusal(
                        problem: "\(limits.control) command-line connections are open already", limit: limits.control)
                }
                counts.control += 1
            case .caller(let caller):
                guard door == .socket else {
                    return Refusal(
                        reason: .wrongSocket, problem: "the command line's socket serves only the command line",
                        limit: nil)
                }
                let held = counts.perCaller[caller, default: 0]
                guard held < limits.perCaller else {
                    return Refusal(
                        problem: "\(caller) holds \(limits.perCaller) connections to the agent already",
                        limit: limits.perCaller)
                }
                guard counts.callers < limits.callers else {
                    return Refusal(
                        problem: "the extensions hold \(limits.callers) connections to the agent already",
                        limit: limits.callers)
                }
                counts.perCaller[caller] = held + 1
                counts.callers += 1
                crowded = held + 1 >= limits.perCaller / 2 || counts.callers >= limits.callers / 2
            }
            switch door {
            case .socket: counts.pending -= 1
            case .control: counts.controlPending -= 1
            }
            return nil
        }
        if let refusal { throw refusal }
        return crowded
    }

    /// An admitted connection that closed.
    func leave(_ holder: Holder) {
        counts.withLock { counts in
            switch holder {
            case .control:
                counts.control -= 1
            case .caller(let caller):
                counts.callers -= 1
                let held = counts.perCaller[caller, default: 1] - 1
                counts.perCaller[caller] = held > 0 ? held : nil
            }
        }
    }
}
