import WalletBridgeProtocol
@_spi(KeptAnswer) import WalletBridgeSystem

/// The sessions file as last read by a host that only looks (`SessionStore.peek`), kept by the
/// rule the keystore's copy is kept by (`KeptAnswer`, `FileChecker`): a connected extension's
/// GetAccounts on a persistent port reads and decodes the file once per version of it, not per
/// request. Decoding it on every request was most of such a port's round trip.
///
/// The file is the agent's; it renames every new version into place, so a change shows in the
/// file's stamp, and in the folder watch's count where the folder is watched (the keystore's
/// folder: the two files lie side by side). A link at the path is not followed: the file must be
/// the one the agent wrote, as `peek` has it.
package final class SessionsReadCache: Sendable {
    private let last = KeptAnswer<[Session]>()
    private let checker: FileChecker
    /// The time kept copies expire in (`Clocks`).
    private let clocks: Clocks
    /// `SessionStore.read`; a test counts the reads.
    private let read: @Sendable (_ path: String, _ maxBytes: Int) -> [Session]?

    /// `filesystemNow`: the clock a file's change time is read on (`FileChecker`).
    package init(
        clocks: Clocks = .system, filesystemNow: @escaping @Sendable () -> Int = FileChecker.filesystemClock,
        read: @escaping @Sendable (_ path: String, _ maxBytes: Int) -> [Session]? = {
            SessionStore.read($0, maxBytes: $1)
        }
    ) {
        self.clocks = clocks
        self.read = read
        checker = FileChecker(followsLinks: false, filesystemNow: filesystemNow)
    }

    /// `SessionStore.peek(path, maxBytes:lifetime:now:)` as of `notBefore` or later; `now` is
    /// the wall time the caller decides by.
    package func peek(
        _ path: String, maxBytes: Int, lifetime: Int, notBefore: ContinuousClock.Instant, now: Int
    ) -> [Session]? {
        let instant = clocks.monotonic()
        if let recent = last.answer(notBefore: notBefore, now: instant, mark: FolderWatch.generation) {
            return SessionStore.capped(recent.value, lifetime: lifetime, now: now)
        }
        let check = checker.look(at: path, now: instant)
        guard check.stamp != nil, check.isFile, check.changeableByOthers == nil else {
            last.keep(nil, KeptAnswer.Validity(takenAt: instant, mark: nil, expiresAt: instant))
            // No file: no sessions (as `peek`). Anything else at the path is not the agent's
            // file, and a path that cannot be looked at is the agent's to answer for.
            return check.missing ? [] : nil
        }
        let validity = KeptAnswer<[Session]>.Validity(
            takenAt: instant, mark: check.generation, expiresAt: instant + FileChecker.revalidateAfter,
            stamp: check.renewableStamp)
        let sessions: [Session]
        if let renewed = last.renewed(validity, update: { $0 }) {
            sessions = renewed
        } else {
            guard let read = read(path, maxBytes) else {
                last.keep(nil, validity)
                return nil
            }
            sessions = read
            last.keep(sessions, validity)
        }
        return SessionStore.capped(sessions, lifetime: lifetime, now: now)
    }
}
