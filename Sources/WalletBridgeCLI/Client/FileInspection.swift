#if canImport(Glibc)
import Glibc
#endif

/// Small read-only looks at files that doctor and the host probe use to explain a failure.
extension FileSystem {
    /// Up to `limit` bytes from the start of `path`. Opened non-blocking, so a FIFO put where a
    /// file belongs cannot hang the caller.
    static func readPrefix(_ path: String, limit: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count >= 0 else { return nil }
        return Array(bytes.prefix(count))
    }

    /// The first folder on the way to `path` that the running user may not enter (no search
    /// permission): what makes stat() fail with EACCES rather than "does not exist".
    static func untraversableAncestor(of path: String) -> String? {
        var folder = ""
        let parts = path.split(separator: "/").dropLast()
        for part in parts {
            folder += "/" + part
            if access(folder, X_OK) != 0 && errno == EACCES { return folder }
        }
        return nil
    }

    /// Why stat() fails on `path`, as errno, or nil when it succeeds.
    static func statError(_ path: String) -> Int32? {
        var info = stat()
        return stat(path, &info) == 0 ? nil : errno
    }
}

extension FileSystem {
    /// Names in a folder, sorted, or the errno that stopped opendir (ENOENT for no folder).
    static func listing(_ path: String) -> Result<[String], ListingError> {
        guard let directory = opendir(path) else { return .failure(ListingError(code: errno)) }
        closedir(directory)
        return .success(list(path))
    }

    struct ListingError: Error { var code: Int32 }
}
