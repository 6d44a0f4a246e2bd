#if canImport(Glibc)
import Glibc
#endif

/// Whether users other than this one (and root) can change a file, the check ssh makes before
/// it trusts its configuration (`StrictModes`). A file that decides which program runs with the
/// user's passphrase, which keystore is signed from, which addresses an extension is given or
/// which extensions are connected, is only as safe as the least trusted user who can write it
/// or replace it, or rename a folder above it.
///
/// One rule for the configuration file, the keystore and the sessions file:
/// - the file itself (through any symlink), when it exists, must belong to this user or root
///   and be writable by nobody else;
/// - so must every folder from the one holding it up to the home folder (`$HOME`, included), or
///   up to `/` for a path outside the home folder, along the path as given and along the path it
///   resolves to. Whoever can write to any of them can rename the folder below it away and put
///   their own in its place. A folder writable by others with the sticky bit (`/tmp`) is fine:
///   the sticky bit keeps them from renaming or deleting what this user owns in it.
///
/// The folders are checked even when the file does not exist: a missing file is a decision too
/// (no configuration allows every caller), and whoever can rename a folder above it can make
/// it missing.
package enum ChangeableByOthers {
    /// Why someone else can change `path` or the folders above it, with the command that fixes
    /// it; nil when only this user and root can. `home`: where the walk up the folders stops.
    package static func reason(for path: String, home: String? = Environment.folders.home) -> String? {
        let absolute = path.hasPrefix("/") ? path : currentFolder() + "/" + path
        // `lstat` first, and `realpath` only when a link was met: a host checks three files
        // on every cold call, and `realpath` is a `readlink` per component of the path.
        var linked = false
        var info = stat()
        if lstat(absolute, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK {
                linked = true
                if stat(absolute, &info) == 0, let problem = problem(realPath(absolute) ?? absolute, info, kind: "file") { return problem }
            } else if let problem = problem(absolute, info, kind: "file") {
                return problem
            }
        }
        let given = AtomicFile.split(absolute).folder
        if let problem = walkUp(from: given, stoppingAt: [home], linked: &linked) { return problem }
        guard linked else { return nil }
        // The folders the file really is in, when a link leads elsewhere. For a missing file,
        // the nearest folder that exists, as it resolves; for a link that leads nowhere, the
        // nearest one of where it leads (whoever can write there decides whether it exists).
        let real: String?
        if let resolved = realPath(absolute) {
            real = AtomicFile.split(resolved).folder
        } else if let target = linkTarget(absolute) {
            real = nearestRealFolder(AtomicFile.split(target.hasPrefix("/") ? target : given + "/" + target).folder)
        } else {
            real = nearestRealFolder(given)
        }
        guard let real, real != given else { return nil }
        return walkUp(from: real, stoppingAt: [home, home.flatMap(realPath)], linked: &linked)
    }

    /// The first problem in `start` and each folder above it, up to one of `stops` or `/`.
    /// A folder that is a link is judged by the folder it leads to, and sets `linked`.
    private static func walkUp(from start: String, stoppingAt stops: [String?], linked: inout Bool) -> String? {
        var folder = start
        while true {
            var info = stat()
            if lstat(folder, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK {
                    linked = true
                    if stat(folder, &info) != 0 { info.st_mode = 0 }
                }
                if info.st_mode != 0, let problem = problem(folder, info, kind: "folder") { return problem }
            }
            if folder == "/" || stops.contains(where: { $0 == folder }) { return nil }
            folder = AtomicFile.split(folder).folder
        }
    }

    private static func realPath(_ path: String) -> String? {
        realpath(path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        }
    }

    /// Where the link at `path` leads, as written in it; nil when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `folder` as it resolves, or the nearest folder above it that exists.
    private static func nearestRealFolder(_ folder: String) -> String? {
        var folder = folder
        while true {
            if let real = realPath(folder) { return real }
            if folder == "/" { return nil }
            folder = AtomicFile.split(folder).folder
        }
    }

    private static func currentFolder() -> String {
        guard let pointer = getcwd(nil, 0) else { return "/" }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func problem(_ path: String, _ info: stat, kind: String) -> String? {
        let me = getuid()
        if info.st_uid != me && info.st_uid != 0 {
            return "the \(kind) \(path) belongs to another user (uid \(info.st_uid)); run: sudo chown \(me) \(path)"
        }
        let writableByOthers = info.st_mode & (S_IWGRP | S_IWOTH) != 0
        let sticky = info.st_mode & S_ISVTX != 0
        guard writableByOthers, !(kind == "folder" && sticky) else { return nil }
        let mode = "0" + String(info.st_mode & 0o7777, radix: 8)
        return "other users can write to the \(kind) \(path) (mode \(mode)); run: chmod go-w \(path)"
    }
}
