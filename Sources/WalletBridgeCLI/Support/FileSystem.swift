#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeWallet
import WalletBridgeSystem

/// What `stat(2)` says about a path, following symbolic links as a browser does.
struct FileStatus: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case file, directory, other }
    var kind: Kind
    /// Permission bits only (`0o755`).
    var mode: UInt32
    var owner: UInt32
    var group: UInt32 = 0
}

/// A failed system call, with the path and the C library's words for the error.
typealias FileSystemError = FileOperationError

/// The few file operations install, uninstall and doctor need, on Glibc directly: modes,
/// owners and atomic renames are the point here, and FileManager would hide them.
enum FileSystem {
    static func status(_ path: String) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        let kind: FileStatus.Kind = type == S_IFREG ? .file : type == S_IFDIR ? .directory : .other
        return FileStatus(kind: kind, mode: UInt32(info.st_mode & 0o7777), owner: info.st_uid, group: info.st_gid)
    }

    static func exists(_ path: String) -> Bool { status(path) != nil }

    /// Where the symbolic link at `path` points (readlink(2)); nil when `path` is not one.
    static func linkTarget(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        let count = readlink(path, &buffer, buffer.count)
        return count < 0 ? "" : String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `a` and `b` name the same file: the same string, or, through links, the same
    /// device and inode. A path that cannot be reached is the same only as itself.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        var first = stat(), second = stat()
        guard stat(a, &first) == 0, stat(b, &second) == 0 else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// The whole file (or its first `limit` bytes), or nil when it cannot be read.
    static func read(_ path: String, limit: Int = .max) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                SystemCall.retryingInterrupts { Glibc.read(fd, raw.baseAddress, raw.count) }
            }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count >= limit { return Array(bytes.prefix(limit)) }
        }
    }

    /// Why `path` cannot be opened for reading, in the C library's words; nil if it can.
    static func openError(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd < 0 else {
            close(fd)
            return nil
        }
        return String(cString: strerror(errno))
    }

    /// Replaces `path` in one step: a reader sees the old file or the new one, never half of
    /// one. The temporary file sits in the same folder, so the rename stays on one file system.
    static func writeAtomically(_ path: String, contents: [UInt8], mode: mode_t = 0o644) throws(FileSystemError) {
        try AtomicFile.replace(path, with: contents, mode: mode)
    }

    /// Creates `path` and any missing parents. Returns the folders it created, outermost first,
    /// so that an uninstall can remove exactly those.
    ///
    /// With `mode`, each created folder gets exactly that mode, whatever the umask: a
    /// system-wide manifest folder made under `umask 077` would otherwise be 0700, and no
    /// browser run by another user could read it. Without, the umask decides, as it should for
    /// the user's own folders.
    static func makeDirectories(_ path: String, mode: mode_t? = nil) throws(FileSystemError) -> [String] {
        var missing: [String] = []
        var current = path
        while !exists(current), current != "/", current != "." {
            missing.append(current)
            current = Path.parent(current)
        }
        var created: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, mode ?? 0o755) != 0 {
                // Someone else made it meanwhile: not ours to record, nor to chmod.
                if errno == EEXIST { continue }
                throw FileSystemError(operation: "create folder", path: folder, code: errno)
            }
            created.append(folder)
            if let mode, chmod(folder, mode) != 0 {
                throw FileSystemError(operation: "set the mode of", path: folder, code: errno)
            }
        }
        return created
    }

    static func remove(_ path: String) throws(FileSystemError) {
        guard unlink(path) == 0 else { throw FileSystemError(operation: "remove", path: path, code: errno) }
    }

    /// Removes the folder if it is empty; false if it is not (or is gone already).
    @discardableResult
    static func removeDirectoryIfEmpty(_ path: String) -> Bool { rmdir(path) == 0 }

    /// Names in a folder, sorted; empty when it cannot be read.
    static func list(_ path: String) -> [String] { Files.names(in: path).sorted() }

    /// The running binary, as the kernel knows it: what `install` puts in `path` by default.
    static func currentExecutable() -> String? { Files.currentExecutable() }

    /// `path` with every symbolic link resolved (realpath(3)), or nil when it cannot be.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The folders on the way to an absolute `path`, outermost first, then `path` itself:
    /// `/a/b/c` gives `/`, `/a`, `/a/b`, `/a/b/c`.
    static func chain(_ path: String) -> [String] {
        var paths = [path]
        var current = path
        while current != "/" && current != "." {
            current = Path.parent(current)
            paths.append(current)
        }
        return paths.reversed()
    }

    /// Whether the calling process may read / execute `path` (real user, as the browser runs).
    static func accessible(_ path: String, _ mode: Int32) -> Bool { access(path, mode) == 0 }
}
