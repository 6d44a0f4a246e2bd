#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeSystem
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
/// **The watch.** In the host, from the second read on, the keystore's folder is watched
/// (`FolderWatch`), and a call finds the file unchanged with no system call at all while nothing
/// in the folder has changed since the last check: the kernel signals every change to the thread
/// that reads requests before it reads the next one. What the watch cannot see, it is not trusted
/// with:
/// - a keystore that is a link (its file may be in any folder), or a file with more names than
///   one (hard links elsewhere): checked on every call, as without a watch;
/// - a keystore on a network filesystem, changed from other machines: never watched;
/// - a watched folder moved or deleted: the watch ends, and every call is checked again;
/// - another way to the same folder changed (a folder above it renamed, a link above it
///   pointed elsewhere, a bind mount): seen within `revalidateAfter`, because the file is checked
///   again that often.
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

    /// How long a watched file is trusted without a check: changes the watch cannot see (a
    /// folder above the keystore renamed) show within this. Also how long a folder that could
    /// not be watched is left before it is tried again.
    package static let revalidateAfter: Duration = .seconds(1)
    /// The last read: taken when the file was checked, stamped with the file's identity, and
    /// marked with `FolderWatch.generation` before that check when the folder is watched and
    /// the path is a file, not a link (while the count is the same, the file is as checked).
    private let last = KeptAnswer<Contents>()
    /// False for a keystore on a network filesystem, whose changes on other machines inotify
    /// never hears of.
    private let watchable: Bool
    private let watch = Mutex(WatchState.firstRead)
    private enum WatchState {
        /// Not tried on the first read: a host started for one message never pays for it.
        case firstRead
        /// To be tried from then on (a folder not made yet, or out of inotify watches).
        case tryFrom(ContinuousClock.Instant)
        case watching
    }
    /// Whether a call was answered on the watch's word yet: logged once, at debug level.
    private let trustedTheWatch = Atomic<Bool>(false)

    /// `lstat(2)`; a test puts another file in place between the check and the read with it.
    private let statFile: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32

    /// The time `revalidateAfter` is counted in (`Clocks`); a test moves its own.
    private let clocks: Clocks

    package init(
        watchable: Bool = true, clocks: Clocks = .system,
        statFile: @escaping @Sendable (String, UnsafeMutablePointer<stat>) -> Int32 = { lstat($0, $1) }
    ) {
        self.watchable = watchable
        self.clocks = clocks
        self.statFile = statFile
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
        var generation = watchedGeneration(keystore, at: checkedAt)
        // lstat, which for a file that is not a link is its stat. A link is followed, and what
        // it leads to is not trusted on the watch; nor a file with names in other folders.
        var info = stat()
        var found = statFile(keystore.path, &info) == 0
        if found, info.st_mode & S_IFMT == S_IFLNK {
            generation = nil
            found = stat(keystore.path, &info) == 0
        }
        if info.st_nlink != 1 { generation = nil }
        // Checked with the file, every time the file is: a folder above it may have changed
        // while the file did not. (The watch sees a `chmod` of the keystore's folder; one of a
        // folder above it shows within `revalidateAfter`.) And on every way out, a missing file
        // included: whoever can write to the folder can put their own file in place between
        // this check and the read below, and what is read then is theirs.
        let changeableByOthers = ChangeableByOthers.reason(for: keystore.path)
        guard found, info.st_mode & S_IFMT == S_IFREG else {
            // Missing, unreadable or not a file: no cache, and `read` says what is wrong.
            last.keep(nil, KeptAnswer.Validity(takenAt: checkedAt, mark: nil, expiresAt: checkedAt))
            return Contents(try keystore.read(), fresh: true, changeableByOthers: changeableByOthers)
        }
        let validity = KeptAnswer<Contents>.Validity(
            takenAt: checkedAt, mark: generation, expiresAt: checkedAt + Self.revalidateAfter, stamp: FileStamp(info))
        let renewed = last.renewed(validity) { Contents(cached: $0, changeableByOthers: changeableByOthers) }
        if let renewed { return renewed }
        let contents = Contents(try keystore.read(), fresh: true, changeableByOthers: changeableByOthers)
        last.keep(contents.file == nil ? nil : contents, validity)
        return contents
    }

    /// `FolderWatch.generation` for a check that follows, or nil when the keystore's folder is
    /// not watched.
    private func watchedGeneration(_ keystore: Keystore, at now: ContinuousClock.Instant) -> UInt64? {
        guard watchable, FolderWatch.isIntact else { return nil }
        let watched = watch.withLock { state in
            switch state {
            case .watching:
                return true
            case .firstRead:
                state = .tryFrom(now)
                return false
            case .tryFrom(let instant):
                guard !(now < instant) else { return false }
                let watching = FolderWatch.watch(folder: AtomicFile.split(keystore.path).folder)
                state = watching ? .watching : .tryFrom(now + Self.revalidateAfter)
                return watching
            }
        }
        guard watched else { return nil }
        // The count first, then the queue emptied: every change after this is counted anew.
        let generation = FolderWatch.generation
        return FolderWatch.drain() ? generation : nil
    }
}
