#if canImport(Glibc)
import Glibc
#endif

/// What `stat(2)` says of a file that tells one version of it from another: the same
/// device, inode, size, mode, owner and modification and change times. A writer that renames a
/// new file into place (`AtomicFile.write`) changes the inode; an edit in place changes the size
/// or the times; `chmod` and `chown` change the change time. A folder's times change when an
/// entry is added, removed or renamed in it.
///
/// Two versions written within one tick of the filesystem's clock, of one size, can carry the
/// same times, and a freed inode number is soon given to a new file: a stamp taken then may
/// match the next version too.
///
/// `public` behind the SPI of `KeptAnswer`, which keeps one in its inlinable body.
@_spi(KeptAnswer)
public struct FileStamp: Equatable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var mode: UInt32
    package var owner: UInt32
    package var modified: Instant
    package var changed: Instant

    /// Seconds and nanoseconds since the epoch, as `stat` gives them.
    package struct Instant: Equatable, Sendable {
        package var seconds: Int64
        package var nanoseconds: Int64

        package init(seconds: Int64, nanoseconds: Int64) {
            (self.seconds, self.nanoseconds) = (seconds, nanoseconds)
        }

        init(_ time: timespec) {
            (seconds, nanoseconds) = (Int64(time.tv_sec), Int64(time.tv_nsec))
        }
    }

    package init(
        device: UInt64, inode: UInt64, size: Int64, mode: UInt32, owner: UInt32, modified: Instant, changed: Instant
    ) {
        (self.device, self.inode, self.size, self.mode, self.owner) = (device, inode, size, mode, owner)
        (self.modified, self.changed) = (modified, changed)
    }

    package init(_ info: stat) {
        self.init(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            mode: UInt32(info.st_mode),
            owner: UInt32(info.st_uid), modified: Instant(info.st_mtim), changed: Instant(info.st_ctim))
    }

    /// What `stat` found at a path.
    package enum Lookup: Equatable, Sendable {
        case present(FileStamp)
        /// No such file (ENOENT, or ENOTDIR: a part of the path is not a folder).
        case absent
        /// Any other failure (EACCES, EIO, ...): nothing can be said of the file.
        case unknown
    }

    package static func lookUp(_ path: String) -> Lookup {
        path.withCString { lookUp(cString: $0) }
    }

    /// `lookUp` for a path already in C form.
    package static func lookUp(cString path: UnsafePointer<CChar>) -> Lookup {
        var info = stat()
        if stat(path, &info) == 0 { return .present(FileStamp(info)) }
        return errno == ENOENT || errno == ENOTDIR ? .absent : .unknown
    }
}
