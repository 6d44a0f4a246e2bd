#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge

/// The keystore file as last read, kept with the identity of the file it came from, so that
/// GetAccounts on a persistent port costs at most one `stat(2)` instead of an open, a read and
/// a JSON parse per request. Reading the whole file again was most of a pipelined GetAccounts.
///
/// Requests that were read together share one `stat`: a file checked after a request arrived
/// is a valid answer to it (`RequestContext.receivedAt`). The `stat` was then 40 % of a
/// pipelined GetAccounts (bench/).
///
/// A change is seen on the next call: every writer (`AtomicFile.write`) renames a new file into
/// place, which changes the inode; an edit in place changes the size, the mtime or the ctime.
/// The stat comes before the read, so a change racing the read is read again next time rather
/// than missed. Anything that is not a regular file goes to `Keystore.read`, which refuses it.
///
/// In the host, from the second read on, the keystore's folder is watched (`FolderWatch`), and
/// a call finds the file unchanged with no system call at all, while nothing in the folder has
/// changed since the last `stat`. The watch sees the folder, not the path to it: a folder above
/// it that is renamed, or a keystore that is a link to another folder, is not seen. The first
/// costs at most `revalidateAfter` of staleness, because the file is stat'ed again that often;
/// a link is stat'ed on every call, as before.
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

        init(_ file: KeystoreFile?, fresh: Bool) {
            self.file = file
            addresses = (file?.keys ?? []).filter { $0.type == .ed25519 }.map(\.address)
            self.fresh = fresh
        }

        /// Logs the keystore's exposure to other users when this version of the file was read
        /// anew: once per version, not on every call of a persistent port.
        package func warnIfExposed(_ keystore: Keystore) {
            guard file != nil, fresh else { return }
            for warning in keystore.exposureWarnings() { Log.warning(warning) }
        }

        init(cached: Contents) {
            (file, addresses, fresh) = (cached.file, cached.addresses, false)
        }
    }

    /// The last read. A struct, not a tuple: a tuple's type is built at run time, on the cold
    /// start of every `sendNativeMessage` call.
    private struct Entry {
        var identity: FileStamp
        var contents: Contents
        var checkedAt: ContinuousClock.Instant
        /// `FolderWatch.generation` before that stat, when the folder is watched and the path is
        /// a file, not a link: while the count is the same, the file is as stat'ed.
        var generation: UInt64?
    }

    /// How long a watched file is trusted without a `stat`: changes the watch cannot see (a
    /// folder above the keystore renamed) show within this.
    static let revalidateAfter: Duration = .seconds(1)
    private let last = Mutex<Entry?>(nil)
    /// Whether the folder is watched; and whether a read came before, so that a host started
    /// for one message never pays for the watch.
    private let watching = Atomic<Bool>(false)
    private let readBefore = Atomic<Bool>(false)

    package init() {}

    /// The keystore's contents as of `notBefore` or later (no file when there is none yet).
    package func read(_ keystore: Keystore, notBefore: ContinuousClock.Instant = .now) throws(KeystoreError) -> Contents {
        // Only the contents leave the lock: copying the whole entry out, stamp and all, was a
        // tenth of a pipelined GetAccounts (bench/).
        let now = ContinuousClock.now
        let recent = last.withLock { entry -> Contents? in
            guard let entry else { return nil }
            let unchanged = entry.generation.map { $0 == FolderWatch.generation && now - entry.checkedAt < Self.revalidateAfter } ?? false
            guard unchanged || entry.checkedAt >= notBefore else { return nil }
            return Contents(cached: entry.contents)
        }
        if let recent { return recent }
        let checkedAt = ContinuousClock.now  // before the stat: what it sees is at least this recent
        let generation = watchedGeneration(keystore)
        var info = stat()
        guard stat(keystore.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            // Missing, unreadable or not a file: no cache, and `read` says what is wrong.
            last.withLock { $0 = nil }
            return Contents(try keystore.read(), fresh: true)
        }
        let identity = FileStamp(info)
        let cached: Contents? = last.withLock { last in
            guard let entry = last, entry.identity == identity else { return nil }
            last?.checkedAt = checkedAt
            last?.generation = generation
            return entry.contents
        }
        if let cached { return Contents(cached: cached) }
        let contents = Contents(try keystore.read(), fresh: true)
        last.withLock {
            $0 = contents.file == nil ? nil : Entry(identity: identity, contents: contents, checkedAt: checkedAt, generation: generation)
        }
        return contents
    }

    /// `FolderWatch.generation` for a `stat` that follows, or nil when the keystore's folder is
    /// not watched, on the first read, or when the path is a link (whose file may be anywhere).
    private func watchedGeneration(_ keystore: Keystore) -> UInt64? {
        if !watching.load(ordering: .relaxed) {
            guard readBefore.exchange(true, ordering: .relaxed) else { return nil }
            let slash = keystore.path.lastIndex(of: "/")
            let folder = slash.map { $0 == keystore.path.startIndex ? "/" : String(keystore.path[..<$0]) } ?? "."
            guard FolderWatch.watch(folder: folder) else { return nil }
            watching.store(true, ordering: .relaxed)
        }
        // The count first, then the queue emptied: every change after this is counted anew.
        let generation = FolderWatch.generation
        FolderWatch.drain()
        var link = stat()
        guard FolderWatch.isIntact, lstat(keystore.path, &link) == 0, link.st_mode & S_IFMT == S_IFREG else { return nil }
        return generation
    }
}
