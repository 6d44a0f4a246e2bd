/// The agent's own times, in one place: how long it waits for its clients, for its threads
/// and for another agent. What people configure (the keys' lifetimes, `agent_idle_exit`,
/// `proposal_timeout`) is in `WalletConfig`; the host's side is in `AgentClient`.
enum AgentTimeouts {
    /// How long a frame may take to arrive once its first byte has (the hello's included);
    /// time between frames is not limited. `WALLET_BRIDGE_AGENT_READ_TIMEOUT_MS` sets another.
    static let read: Duration = .seconds(10)
    /// How long a new connection may take to say hello.
    static let hello: Duration = .seconds(5)
    /// How long a reply may wait for a client that does not read.
    static let send: Duration = .seconds(10)
    /// How long a closed connection's cancelled requests get to finish.
    static let connectionDrain: Duration = .seconds(2)
    /// The accept loop's longest wait: expired keys and sessions, a removed socket and
    /// idleness are looked at least this often.
    static let housekeeping: Duration = .seconds(1)
    /// After SIGTERM, SIGINT or SIGHUP, how long the accept loop has to act before the signal
    /// handler ends the process itself (`Signals.install`).
    static let signalGrace: Duration = .seconds(1)
    /// How long a starting agent waits for the lock of one on its way out (no socket yet)
    /// before it leaves the keystore to that one.
    static let lockOfAnEndingAgent: Duration = .seconds(3)
}
