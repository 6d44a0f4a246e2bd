#if canImport(Glibc)
import Glibc
#endif

/// The file operations the keystore is built on, in plain POSIX so that their order (and so
/// what a crash can leave behind) is explicit.
///
/// A change is written to a fresh temporary file in the keystore's own folder, fsynced, renamed
/// over the keystore, and the folder fsynced. rename(2) within one file system is atomic: a
/// process killed at any instant leaves the old file or the new one, never a mixture, and a
/// power loss after the folder's fsync cannot bring the old one back. A killed writer can leave
/// its temporary file behind; the next writer removes it.
package enum AtomicFile {
    /// Why `read` could not read a file: in neutral words, so that the keystore and the
    /// configuration can each say it in their own.
    package struct ReadFailure: Error, Sendable, Equatable, CustomStringConvertible {
        package enum Problem: Sendable, Equatable {
            /// A system call failed: `operation` with `reason` (strerror).
            case system(operation: String, reason: String)
            /// A FIFO, a folder, a device or a socket, named by `kind`.
            case notARegularFile(kind: String)
            case tooLarge(bytes: Int, limit: Int)
            /// It grew while being read: someone is appending to it, not renaming over it.
            case changedWhileRead
            /// Another user's, or one others may read or write (`read`'s `privateToThisUser`).
            case notPrivate(owner: UInt32, mode: UInt32)
        }

        package let path: String
        package let problem: Problem

        /// The problem, without the path.
        package var reason: String {
            switch problem {
            case .system(let operation, let reason): "cannot \(operation) it: \(reason)"
            case .notARegularFile(let kind): "it is \(kind), not a regular file"
            case .tooLarge(let bytes, let limit): "it is \(bytes) bytes, more than the \(limit) allowed"
            case .changedWhileRead: "it changed size while being read"
            case .notPrivate(let owner, let mode):
                owner != getuid()
                    ? "it belongs to another user (uid \(owner))"
                    : "other users can reach it (mode 0\(String(mode, radix: 8)))"
            }
        }

        package var description: String { "cannot read \(path): \(reason)" }
    }

    /// The file's bytes, or nil when it does not exist. Refuses anything that is not a regular
    /// file or that is larger than `maxBytes`, before reading it; with `privateToThisUser`, a
    /// link, and a file (as opened) that is not this user's or that others may read or write.
    package static func read(_ path: String, maxBytes: Int, privateToThisUser: Bool = false) throws(ReadFailure)
        -> [UInt8]?
    {
        func failure(_ operation: String) -> ReadFailure {
            ReadFailure(path: path, problem: .system(operation: operation, reason: String(cString: strerror(errno))))
        }
        // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, for ever, and
        // held up every request and SIGTERM with it. It changes nothing for a regular file,
        // the only kind read below. O_NOCTTY: a terminal device never becomes ours.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (privateToThisUser ? O_NOFOLLOW : 0))
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("open")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("inspect") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ReadFailure(path: path, problem: .notARegularFile(kind: kind(of: info.st_mode)))
        }
        if privateToThisUser, info.st_uid != getuid() || info.st_mode & 0o077 != 0 {
            throw ReadFailure(path: path, problem: .notPrivate(owner: info.st_uid, mode: info.st_mode & 0o7777))
        }
        guard Int(info.st_size) <= maxBytes else {
            throw ReadFailure(path: path, problem: .tooLarge(bytes: Int(info.st_size), limit: maxBytes))
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in
                SystemCall.retryingInterrupts { Glibc.read(fd, raw.baseAddress! + total, raw.count - total) }
            }
            if count < 0 { throw failure("read") }
            if count == 0 { break }
            total += count
        }
        guard total <= Int(info.st_size) else { throw ReadFailure(path: path, problem: .changedWhileRead) }
        bytes.removeSubrange(total...)
        return bytes
    }

    package static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
    }

    /// The file a change must replace: `path`, or, when `path` is a symbolic link, the file it
    /// leads to. Renaming over the link itself would turn it into a plain file and leave its
    /// target (a keystore kept in a synced or backed-up folder, say) silently stale.
    package static func replacementTarget(of path: String) throws(AtomicFileError) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw AtomicFileError(
                path: path, operation: "follow the symbolic link", reason: String(cString: strerror(errno)))
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Replaces `path` with `bytes` (mode 0600) so that a crash leaves the old or the new file.
    package static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        do {
            try replace(path, with: bytes, mode: 0o600)
        } catch {
            throw AtomicFileError(path: error.path, operation: error.operation, reason: error.reason)
        }
    }

    /// Replaces `path` with `bytes`, with exactly `mode` whatever the umask, so that a crash
    /// leaves the old or the new file: a temporary file beside it, flushed, renamed over it, and
    /// the folder flushed. The one atomic write of the package (keystore, manifests, records).
    package static func replace(_ path: String, with bytes: [UInt8], mode: mode_t) throws(FileOperationError) {
        let (folder, name) = split(path)
        let temporary = "\(folder)/\(temporaryPrefix(name))\(getpid())-\(randomSuffix())"
        // O_EXCL: never reuse a file someone else prepared; O_NOFOLLOW: never write through a link.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileOperationError("create", temporary) }
        var completed = false
        defer { if !completed { unlink(temporary) } }
        do {
            defer { close(fd) }
            // The mode given to open() is filtered by the umask.
            guard fchmod(fd, mode) == 0 else { throw FileOperationError("set the mode of", temporary) }
            try writeAll(fd, Array(bytes[..<(bytes.count / 2)]), path: temporary)
            testPause()  // a half-written temporary file
            try writeAll(fd, Array(bytes[(bytes.count / 2)...]), path: temporary)
            guard fsync(fd) == 0 else { throw FileOperationError("flush", temporary) }
        }
        testPause()  // a complete temporary file, not yet renamed
        guard rename(temporary, path) == 0 else { throw FileOperationError("replace", path) }
        completed = true
        testPause()  // renamed, folder not yet flushed
        try syncFolder(folder)
    }

    #if WALLET_BRIDGE_TEST_HOOKS
    /// For the crash tests only: `WALLET_BRIDGE_TEST_SLOW_WRITE_MS` widens each step of a write
    /// so that a SIGKILL at a random moment lands inside it often, instead of almost never. Test
    /// builds only (Package.swift, `WALLET_BRIDGE_TEST_HOOKS`).
    private static let testPauseMicroseconds: UInt32 = {
        guard let text = Environment.string("WALLET_BRIDGE_TEST_SLOW_WRITE_MS"), let ms = UInt32(text), ms <= 10_000
        else { return 0 }
        return ms * 1000
    }()

    private static func testPause() {
        if testPauseMicroseconds > 0 { usleep(testPauseMicroseconds) }
    }
    #else
    @inline(__always) private static func testPause() {}
    #endif

    /// Creates `folder` and any missing parents with mode 0700.
    package static func ensureFolder(_ folder: String) throws(AtomicFileError) {
        var info = stat()
        if stat(folder, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw AtomicFileError(path: folder, operation: "use", reason: "not a folder")
            }
            return
        }
        let parent = split(folder).folder
        if parent != folder, !parent.isEmpty { try ensureFolder(parent) }
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw failure(folder, "create the folder") }
        // mkdir's mode is filtered by the umask too.
        _ = chmod(folder, 0o700)
    }

    /// Why the permissions of `path` expose it to other users, or nil when they do not.
    package static func exposure(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 != 0 else { return nil }
        let octal = String(mode, radix: 8)
        return
            "\(path) is accessible to other users (mode \(octal)); run: chmod \((info.st_mode & S_IFMT) == S_IFDIR ? "700" : "600") \(path)"
    }

    /// Holds an exclusive lock on `folder` while `body` runs, so that two writers (two
    /// `keys` commands at once) take turns instead of one silently undoing the other's change.
    /// Readers take no lock: rename makes every read see a whole file. A failure to take the
    /// lock is `body`'s error, through `failed`, so that callers keep one error type.
    package static func withFolderLock<R, Failure: Error>(
        _ folder: String, failed: (AtomicFileError) -> Failure, _ body: () throws(Failure) -> R
    ) throws(Failure) -> R {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failed(failure(folder, "open the folder")) }
        defer { close(fd) }
        guard SystemCall.retryingInterrupts({ flock(fd, LOCK_EX) }) == 0 else { throw failed(failure(folder, "lock")) }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    /// Removes temporary files that a killed writer left next to `path`. Call only while
    /// holding the folder lock: then no live writer has a temporary file there.
    package static func removeLeftovers(of path: String) {
        let (folder, name) = split(path)
        let prefix = temporaryPrefix(name)
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var leftovers: [String] = []
        while let entry = readdir(directory) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if entryName.hasPrefix(prefix) { leftovers.append(entryName) }
        }
        for leftover in leftovers { unlink("\(folder)/\(leftover)") }
    }

    /// `path` split into its folder and its last component, at its last `/` byte, as the kernel
    /// splits a path (a `/` followed by a combining mark is still a separator there; searching
    /// the UTF-8 bytes also skips grapheme breaking, which a host pays on every cold call).
    package static func split(_ path: String) -> (folder: String, name: String) {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[bytes.index(after: slash)...]))
    }

    static func temporaryPrefix(_ name: String) -> String { ".\(name).tmp-" }

    /// A name no other writer picks (O_EXCL refuses it if one did). The system's random source
    /// (getrandom), not libsodium's: a name is no secret, and libsodium's start-up and
    /// `joined()` are work a cold host should not do for a name.
    private static func randomSuffix() -> String {
        String(unsafeUninitializedCapacity: 16) { out in
            let value = UInt64.random(in: .min ... .max)
            for index in 0..<16 {
                let digit = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
                out[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
            }
            return 16
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(FileOperationError) {
        if let code = bytes.withUnsafeBytes({ SystemCall.writeAll(fd, $0) }) {
            throw FileOperationError(operation: "write", path: path, code: code == 0 ? EIO : code)
        }
    }

    private static func syncFolder(_ folder: String) throws(FileOperationError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileOperationError("open the folder", folder) }
        defer { close(fd) }
        // Some file systems refuse fsync on a folder (EINVAL); the rename is done either way.
        if fsync(fd) != 0 && errno != EINVAL { throw FileOperationError("flush the folder", folder) }
    }

    private static func failure(_ path: String, _ operation: String) -> AtomicFileError {
        AtomicFileError(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}

/// Why a folder or file operation of `AtomicFile` failed: what was done, to which path, and why
/// (strerror, or what was found instead). Its own type, so that this layer knows nothing of
/// its callers; the keystore maps it to `KeystoreError.io` with the same words.
package struct AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package let path: String
    package let operation: String
    package let reason: String

    package init(path: String, operation: String, reason: String) {
        (self.path, self.operation, self.reason) = (path, operation, reason)
    }

    package var description: String { "cannot \(operation) \(path): \(reason)" }
}

/// A file operation that failed: what was done, to which path, and errno.
package struct FileOperationError: Error, Sendable, CustomStringConvertible {
    package let operation: String
    package let path: String
    package let code: Int32

    package init(operation: String, path: String, code: Int32) {
        (self.operation, self.path, self.code) = (operation, path, code)
    }

    /// With the current errno.
    init(_ operation: String, _ path: String) {
        self.init(operation: operation, path: path, code: errno)
    }

    package var reason: String { String(cString: strerror(code)) }
    package var description: String { "cannot \(operation) \(path): \(reason)" }
}
