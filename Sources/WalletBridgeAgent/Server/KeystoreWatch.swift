#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeWallet
import WalletBridgeSystem

/// Watches the keystore's folder, on the process's one inotify instance (`FolderWatch.subscribe`),
/// so that a key created, imported, renamed or deleted by any process (`wallet-bridge keys …` in
/// a terminal, say) reaches the extensions within a second. The keystore is replaced by a rename into its folder (`AtomicFile`), so the
/// folder is watched, not the file: a watch on the file would follow the old inode away.
struct KeystoreWatch {
    private let subscription: FolderSubscription
    private let fileName: String

    /// What to poll for: the instance (an event queued) and the subscription's wake-up (its
    /// events read off the queue by another thread); then call `drain`.
    var descriptors: (instance: Int32, wake: Int32) { (subscription.descriptor, subscription.wake) }

    /// Nil when inotify is unavailable (the agent then goes on without events for key changes,
    /// and says so in its log).
    init?(keystorePath: String) {
        let (folder, name) = AtomicFile.split(keystorePath)
        fileName = name
        // A wallet with no key yet has no folder; the first `keys create` would make it (0700).
        try? AtomicFile.ensureFolder(folder)
        let events = UInt32(IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE | IN_CREATE)
        guard let subscription = FolderWatch.subscribe(folder: folder, mask: events) else {
            Log.warning(
                "cannot watch \(folder) for changes (inotify: errno \(errno)): extensions will not hear of new keys")
            return nil
        }
        self.subscription = subscription
    }

    /// Takes every pending event; true if one was about the keystore file, or if some may have
    /// been lost (the queue overflowed).
    func drain() -> Bool {
        subscription.next().contains { $0.name == fileName || $0.mask & UInt32(IN_Q_OVERFLOW) != 0 }
    }
}
