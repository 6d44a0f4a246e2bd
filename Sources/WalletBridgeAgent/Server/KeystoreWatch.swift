#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeWallet
import WalletBridgeSystem

/// Watches the keystore's folder with inotify, so that a key created, imported, renamed or
/// deleted by any process (`wallet-bridge keys …` in a terminal, say) reaches the extensions
/// within a second. The keystore is replaced by a rename into its folder (`AtomicFile`), so the
/// folder is watched, not the file: a watch on the file would follow the old inode away.
struct KeystoreWatch {
    let fd: Int32
    private let fileName: String

    /// Nil when inotify is unavailable (the agent then goes on without events for key changes,
    /// and says so in its log).
    init?(keystorePath: String) {
        let (folder, name) = AtomicFile.split(keystorePath)
        fileName = name
        // A wallet with no key yet has no folder; the first `keys create` would make it (0700).
        try? AtomicFile.ensureFolder(folder)
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            Log.warning("cannot watch the keystore for changes (inotify_init1: errno \(errno)): extensions will not hear of new keys")
            return nil
        }
        let events = UInt32(IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE | IN_CREATE)
        guard inotify_add_watch(fd, folder, events) >= 0 else {
            Log.warning("cannot watch \(folder) for changes (inotify_add_watch: errno \(errno)): extensions will not hear of new keys")
            close(fd)
            return nil
        }
    }

    /// Reads every pending event; true if one was about the keystore file.
    func drain() -> Bool {
        var touched = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in SystemCall.retryingInterrupts { read(fd, raw.baseAddress!, raw.count) } }
            guard count > 0 else { return touched }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let length = buffer.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len) }
                let nameStart = offset + header
                let nameEnd = min(nameStart + length, count)
                let nameBytes = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
                if String(decoding: nameBytes, as: UTF8.self) == fileName { touched = true }
                offset = nameStart + length
            }
        }
    }
}
