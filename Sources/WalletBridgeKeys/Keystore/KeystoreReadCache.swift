#if canImport(Glibc)
import Glibc
#endif
import Synchronization
@_spi(KeptAnswer) import WalletBridgeSystem
import WalletBridgeProtocol

/// The keystore file as last read, kept with the identity of the file it came from, so that
/// GetAccounts on a persistent port costs at most one `lstat(2)` instead of an open, a read and
/// a JSON parse per request, and on a watched folder no system call at all. Reading the whole
/// file again was most of a pipelined GetAccounts.
///
/// Requests that were read together share one `lstat`: a file checked after a request arrived
/// is a valid answer to it (`RequestContext.receivedAt`). A `stat` per request would be a
/// large part of a pipelined GetAccounts.
///
/// A change is seen on the next call: every writer (`AtomicFile.write`) renames a new file into
/// place, which changes the inode; an edit in place changes the size, the mtime or the ctime.
/// The check comes before the read, so a change racing the read is read again next time rather
/// than missed. Anything that is not a regular file goes to `Keystore.read`, which refuses it.
///
/// A file changed in the last `FileChecker.racyWithin` seconds is read again on every call: its
/// stamp cannot yet tell it from a next version.
///
/// From the second read on, the keystore's folder is watched and a call finds the file unchanged
/// with no system call at all while nothing in the folder changed since the last look; what the
/// watch cannot see, and when the file is looked at anyway, is `FileChecker`'s.
package final class KeystoreReadCache: Sendable {
    /// The file as read, and its addresses (encoded once per version, not per call).
    package struct Contents: Sendable {
        package let file: KeystoreFile?
        /// The Ed25519 keys' addresses in base64: walletlib's GetAccounts.
        package let addresses: [String]
        /// The secp256k1 keys' Ethereum addresses: an `eip155` session's accounts. Worked out
        /// when asked (Keccak and a curve point each), not on GetAccounts' cold path.
        package var ethereumAddresses: [EthereumAddress] { file?.keys.compactMap(\.ethereumAddress) ?? [] }
        /// Read from the file on this call rather than taken from the cache.
        package let fresh: Bool
        /// Why other users could have changed the file, or a folder above it, when it was last
        /// checked (`ChangeableByOthers`): its addresses are then not to be given to anyone.
        package let changeableByOthers: String?

        init(_ file: KeystoreFile?, fresh: Bool, changeableByOthers: String? = nil) {
            self.file = file
            addresses = (file?.keys ?? []).filter { $0.type == .ed25519 }.map(\.address)
            self.fresh = fresh
            self.changeableByOthers = file == nil ? nil : changeableByOthers
        }

        /// Logs the keystore's exposure to other users when this version of the file was read
        /// anew: once per version, not on every call of a persistent port.
        package func warnIfExposed(_ keystore: Keystore) {
            guard file != nil, fresh else { return }
            for warning in keystore.exposureWarnings() { Log.warning(warning) }
        }

        init(cached: Contents, changeableByOthers: String?) {
            (file, addresses, fresh) = (cached.file, cached.addresses, false)
            self.changeableByOthers = changeableByOthers
        }
    }

    /// How long a watched file is trusted without a look (`FileChecker.revalidateAfter`).
    package static let revalidateAfter = FileChecker.revalidateAfter
    /// The last read: taken when the file was checked, stamped with the file's identity, and
    /// marked with `FolderWatch.generation` before that check when the folder is watched and
    /// the path is a file, not a link (while the count is the same, the file is as checked).
    private let last = KeptAnswer<Contents>()
    private let checker: FileChecker
    /// Whether a call was answered on the watch's word yet: logged once, at debug level.
    private let trustedTheWatch = Atomic<Bool>(false)

    /// The time `revalidateAfter` is counted in (`Clocks`); a test moves its own.
    private let clocks: Clocks

    /// `watchable`: false for a keystore on a network filesystem. `statFile`: `lstat(2)`; a test
    /// puts another file in place between the check and the read with it.
    package init(
        watchable: Bool = true, clocks: Clocks = .system,
        statFile: @escaping @Sendable (String, UnsafeMutablePointer<stat>) -> Int32 = { lstat($0, $1) },
        filesystemNow: @escaping @Sendable () -> Int = FileChecker.filesystemClock
    ) {
        checker = FileChecker(watchable: watchable, statFile: statFile, filesystemNow: filesystemNow)
        self.clocks = clocks
    }

    /// The keystore's contents as of `notBefore` (nil: now) or later (no file when there is
    /// none yet).
    package func read(_ keystore: Keystore, notBefore: ContinuousClock.Instant? = nil) throws(KeystoreError) -> Contents
    {
        // Only the contents leave the lock: copying the whole entry out, stamp and all, showed
        // in a pipelined GetAccounts' profile.
        let now = clocks.monotonic()
        let notBefore = notBefore ?? now
        if let recent = last.answer(notBefore: notBefore, now: now, mark: FolderWatch.generation) {
            if recent.onTheMark, !trustedTheWatch.load(ordering: .relaxed),
                !trustedTheWatch.exchange(true, ordering: .relaxed)
            {
                Log.debug(
                    "GetAccounts answered from the copy of \(keystore.path): nothing changed in its folder since it was checked"
                )
            }
            return Contents(cached: recent.value, changeableByOthers: recent.value.changeableByOthers)
        }
        let checkedAt = now  // taken before the check: what it sees is at least this recent
        let check = checker.look(at: keystore.path, now: checkedAt)
        guard check.stamp != nil, check.isFile else {
            // Missing, unreadable or not a file: no cache, and `read` says what is wrong.
            last.keep(nil, KeptAnswer.Validity(takenAt: checkedAt, mark: nil, expiresAt: checkedAt))
            return Contents(try keystore.read(), fresh: true, changeableByOthers: check.changeableByOthers)
        }
        let changeableByOthers = check.changeableByOthers
        let validity = KeptAnswer<Contents>.Validity(
            takenAt: checkedAt, mark: check.generation, expiresAt: checkedAt + Self.revalidateAfter,
            stamp: check.renewableStamp)
        let renewed = last.renewed(validity) { Contents(cached: $0, changeableByOthers: changeableByOthers) }
        if let renewed { return renewed }
        let contents = Contents(try keystore.read(), fresh: true, changeableByOthers: changeableByOthers)
        last.keep(contents.file == nil ? nil : contents, validity)
        return contents
    }
}
