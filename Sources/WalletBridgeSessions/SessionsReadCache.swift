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
    private let checker = FileChecker(followsLinks: false)
    /// The time kept copies expire in, and sessions are live by (`Clocks`).
    private let clocks: Clocks

    package init(clocks: Clocks = .system) { self.clocks = clocks }

    /// `SessionStore.peek(path, maxBytes:lifetime:now:)` as of `notBefore` or later.
    package func peek(_ path: String, maxBytes: Int, lifetime: Int, notBefore: ContinuousClock.Instant) -> [Session]? {
        let now = clocks.monotonic()
        if let recent = last.answer(notBefore: notBefore, now: now, mark: FolderWatch.generation) {
            return SessionStore.capped(recent.value, lifetime: lifetime, now: clocks.wall())
        }
        let check = checker.look(at: path, now: now)
        guard let stamp = check.stamp else {
            // No file (or none that can be looked at): `peek` says which, and nothing is kept.
            last.keep(nil, KeptAnswer.Validity(takenAt: now, mark: nil, expiresAt: now))
            return SessionStore.peek(path, maxBytes: maxBytes, lifetime: lifetime, now: clocks.wall())
        }
        guard check.isFile, check.changeableByOthers == nil else {
            last.keep(nil, KeptAnswer.Validity(takenAt: now, mark: nil, expiresAt: now))
            return nil
        }
        let validity = KeptAnswer<[Session]>.Validity(
            takenAt: now, mark: check.generation, expiresAt: now + FileChecker.revalidateAfter, stamp: stamp)
        let sessions: [Session]
        if let renewed = last.renewed(validity, update: { $0 }) {
            sessions = renewed
        } else {
            do {
                guard let bytes = try AtomicFile.read(path, maxBytes: maxBytes) else { return [] }
                sessions = try SessionStore.decode(bytes)
            } catch {
                last.keep(nil, validity)
                return nil
            }
            last.keep(sessions, validity)
        }
        return SessionStore.capped(sessions, lifetime: lifetime, now: clocks.wall())
    }
}
