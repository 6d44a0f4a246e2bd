#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeSessions

/// GetAccounts for an extension that is connected, answered by the host from the two files the
/// agent keeps, the keystore's public part and the sessions file, without a round trip to the
/// agent. A browser starts a host for every `sendNativeMessage`; asking the agent (a socket, the
/// hello, the agent's threads and answer) was the largest part of a cold GetAccounts beyond what
/// any Swift program pays to start (BENCHMARKS.md).
///
/// It answers by the agent's own rule (`ConnectedRule`), over the files instead of the agent's
/// memory: the keystore's addresses when the caller has a live session in the file, or none
/// when the keystore holds no Ed25519 key. Everything else is nil, for the agent: a
/// caller without a session (the person is asked), a file that cannot be read or is damaged
/// (the agent says what is wrong, and sets a damaged sessions file aside), a keystore on a
/// network filesystem, where a read could hang the reading thread, and a sessions file larger
/// than `largestSessionsFileReadHere`, which costs more to read than asking the agent, which
/// holds the sessions in memory.
///
/// The files are the agent's own record: it writes every change of a session to the file before
/// it answers, and nothing else writes it, so what is read here is what the agent would say.
/// Neither file holds a secret.
package struct ConnectedAccounts: Sendable {
    let keystore: Keystore
    let sessionsPath: String
    private let onNetworkFilesystem: Bool
    /// Each session costs a cold process time to read and check: past a few sessions, reading
    /// the file makes the cold call as slow as asking the agent, which then answers instead
    /// (measured: BENCHMARKS.md). Up to 4 KiB (about six of walletlib's sessions), the host
    /// reads it.
    static let largestSessionsFileReadHere = 4096
    /// The keystore as last read (see there for when it is checked). Never on a network
    /// filesystem: those go to the agent.
    private let readCache: KeystoreReadCache
    /// The sessions file as last read, by the same rule.
    private let sessionsCache: SessionsReadCache
    /// Whose wall time decides whether a session is live (`Clocks`).
    private let clocks: Clocks

    /// `session_lifetime`: a session in the file that is to last longer than this from now was
    /// not written from a dialog, and is left to the agent, which caps it (`SessionStore.peek`).
    let lifetime: Int

    package init(keystorePath: String, lifetime: Int = SessionStore.defaultLifetime, clocks: Clocks = .system) {
        keystore = Keystore(path: keystorePath)
        readCache = KeystoreReadCache(clocks: clocks)
        sessionsCache = SessionsReadCache(clocks: clocks)
        self.clocks = clocks
        sessionsPath = SessionStore.path(forKeystore: keystorePath)
        onNetworkFilesystem = KeystoreWallet.isOnNetworkFilesystem(keystorePath)
        self.lifetime = lifetime
    }

    /// The addresses for `caller` as of `notBefore` or later, or nil when the agent must answer.
    package func accounts(of caller: Caller, notBefore: ContinuousClock.Instant) -> GetAccountsResult? {
        // A keystore others could have changed is the agent's to refuse (`KeystoreWallet`).
        guard !onNetworkFilesystem, let contents = try? readCache.read(keystore, notBefore: notBefore),
            contents.changeableByOthers == nil
        else { return nil }
        contents.warnIfExposed(keystore)
        let now = clocks.wall()
        // Without a key the rule needs no session: the file is not read.
        let maxBytes = Self.largestSessionsFileReadHere
        guard
            let sessions = contents.addresses.isEmpty
                ? []
                : sessionsCache.peek(
                    sessionsPath, maxBytes: maxBytes, lifetime: lifetime, notBefore: notBefore, now: now)
        else { return nil }
        let caller = SessionCaller(caller)
        return ConnectedRule.accounts(addresses: contents.addresses, sessions: sessions, caller: caller, now: now)
    }
}
