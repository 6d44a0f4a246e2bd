#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One look at a file whose contents a cache keeps (`KeptAnswer`): its stamp, whether other
/// users could have changed it, and the folder watch's count to keep the contents under.
package struct FileCheck: Sendable {
    /// `FolderWatch.generation`, taken before the look, when the file's folder is watched and
    /// the path is a file of one name, not a link; nil when only a new look can vouch for it.
    package let generation: UInt64?
    /// The file as `stat` saw it; nil when there is none or it cannot be looked at.
    package let stamp: FileStamp?
    /// `stamp`, when it can tell this version of the file from the next: nil as well while the
    /// file changed too recently (`FileChecker.racyWithin`). Two versions written within one
    /// tick of the filesystem's clock, one the inode number the other freed, can carry the same
    /// stamp; a cache keeps what it read under this, so it reads such a file again rather than
    /// renew its copy on the stamp's word ("racily clean", as git calls it).
    package let renewableStamp: FileStamp?
    /// `st_mode`'s type bits (`S_IFREG`, ...); 0 when there is no file.
    package let type: mode_t
    /// Nothing at the path (ENOENT), rather than something that could not be looked at.
    package let missing: Bool
    /// Why other users could have changed the file or a folder above it (`ChangeableByOthers`).
    package let changeableByOthers: String?

    /// A regular file (after a link, when links are followed).
    package var isFile: Bool { type == S_IFREG }
}

/// Looks at one file for a cache of what was read from it, and watches its folder from the
/// second look on (`FolderWatch`): a host started for one message never pays for the watch.
/// While the folder is watched and nothing in it changed, the kept contents hold with no
/// system call at all (`FileCheck.generation`). What the watch cannot see, it is not trusted
/// with:
/// - a path that is a link (its file may be in any folder), or a file with more names than one
///   (hard links elsewhere): looked at on every call, as without a watch;
/// - a file on a network filesystem, changed from other machines: never watched;
/// - a watched folder moved or deleted: the watch ends, and every call looks again;
/// - another way to the same folder changed (a folder above it renamed, a link above it
///   pointed elsewhere, a bind mount): seen within `revalidateAfter`, because the file is looked
///   at again that often.
package final class FileChecker: Sendable {
    /// How long a watched file is trusted without a look: changes the watch cannot see (a
    /// folder above it renamed) show within this. Also how long a folder that could not be
    /// watched is left before it is tried again.
    package static let revalidateAfter: Duration = .seconds(1)
    /// How recent a change leaves a file's stamp unable to vouch for it (`renewableStamp`), in
    /// whole seconds of the filesystem's clock.
    package static let racyWithin = 2
    /// The filesystem's clock: the real time, in whole seconds.
    @Sendable package static func filesystemClock() -> Int { Int(time(nil)) }

    /// False for a file on a network filesystem, whose changes on other machines inotify never
    /// hears of.
    private let watchable: Bool
    /// Whether a link at the path is followed (the keystore) or is what the look finds (a file
    /// that must be the one the wallet wrote).
    private let followsLinks: Bool
    private let watch = Mutex(WatchState.firstLook)
    /// Its time is a `Duration` since `keptTimeOrigin`, not a `ContinuousClock.Instant`: an instant's
    /// layout is the concurrency library's to change, so every type holding one has its layout
    /// worked out at run time, on a host's cold start; a duration's layout is fixed.
    private enum WatchState {
        /// Not tried on the first look.
        case firstLook
        /// To be tried from then on (a folder not made yet, or out of inotify watches).
        case tryFrom(Duration)
        case watching
    }
    /// `lstat(2)`; a test puts another file in place between the look and the read after it.
    private let statFile: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32
    /// `FolderWatch.watch(folder:)`; a test sees when a watch is tried.
    private let watchFolder: @Sendable (String) -> Bool
    /// The filesystem's clock (the real time, in seconds), which a file's change time is read
    /// on; a test moves it past `racyWithin`.
    private let filesystemNow: @Sendable () -> Int

    package init(
        watchable: Bool = true, followsLinks: Bool = true,
        statFile: @escaping @Sendable (String, UnsafeMutablePointer<stat>) -> Int32 = { lstat($0, $1) },
        watchFolder: @escaping @Sendable (String) -> Bool = { FolderWatch.watch(folder: $0) },
        filesystemNow: @escaping @Sendable () -> Int = FileChecker.filesystemClock
    ) {
        self.watchable = watchable
        self.followsLinks = followsLinks
        self.statFile = statFile
        self.watchFolder = watchFolder
        self.filesystemNow = filesystemNow
    }

    /// Looks at the file at `path` at `now`. Whoever can write to its folder can put their own
    /// file in place between this look and a read after it: `changeableByOthers` is worked out
    /// on every look, a missing file included.
    package func look(at path: String, now: ContinuousClock.Instant) -> FileCheck {
        var generation = watchedGeneration(of: path, at: now)
        // lstat, which for a file that is not a link is its stat. A link is followed, and what
        // it leads to is not trusted on the watch; nor a file with names in other folders.
        var info = stat()
        var found = statFile(path, &info) == 0
        let missing = !found && errno == ENOENT
        if found, info.st_mode & S_IFMT == S_IFLNK {
            generation = nil
            if followsLinks { found = stat(path, &info) == 0 }
        }
        if info.st_nlink != 1 { generation = nil }
        // Looked at with the file, every time the file is: a folder above it may have changed
        // while the file did not. (The watch sees a `chmod` of the file's folder; one of a
        // folder above it shows within `revalidateAfter`.)
        let changeableByOthers = ChangeableByOthers.reason(for: path)
        let stamp = found ? FileStamp(info) : nil
        let racy = found && Int(info.st_ctim.tv_sec) > filesystemNow() - Self.racyWithin
        return FileCheck(
            generation: found ? generation : nil, stamp: stamp, renewableStamp: racy ? nil : stamp,
            type: found ? info.st_mode & S_IFMT : 0, missing: missing, changeableByOthers: changeableByOthers)
    }

    /// `FolderWatch.generation` for a look that follows, or nil when the file's folder is not
    /// watched.
    private func watchedGeneration(of path: String, at now: ContinuousClock.Instant) -> UInt64? {
        guard watchable, FolderWatch.isIntact else { return nil }
        let now = keptTimeOrigin.duration(to: now)
        let watched = watch.withLock { state in
            switch state {
            case .watching:
                return true
            case .firstLook:
                state = .tryFrom(now)
                return false
            case .tryFrom(let instant):
                guard !(now < instant) else { return false }
                let watching = watchFolder(AtomicFile.split(path).folder)
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
