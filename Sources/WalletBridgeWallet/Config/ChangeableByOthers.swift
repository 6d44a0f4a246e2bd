#if canImport(Glibc)
import Glibc
#endif

/// Whether users other than this one (and root) can change a file, the check ssh makes before
/// it trusts its configuration. A file that decides which program runs with the user's
/// passphrase, or which keystore is signed from, is only as safe as the least trusted user
/// who can write it or replace it.
enum ChangeableByOthers {
    /// Why someone else can change `path`, with the command that fixes it; nil when only this
    /// user and root can, or when `path` does not exist.
    ///
    /// Looks at the file (through any symlink) and at every folder a replacement could be put
    /// in: the folder holding the path as given, and the folder holding the file it resolves to.
    /// A folder writable by others with the sticky bit (`/tmp`) is fine for a file this user
    /// owns, because the sticky bit keeps others from renaming or deleting it.
    static func reason(for path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let (resolved, folders) = placesLookedAt(path)
        if let problem = problem(resolved, info, kind: "file") { return problem }
        for folder in folders {
            var folderInfo = stat()
            guard stat(folder, &folderInfo) == 0 else { continue }
            if let problem = problem(folder, folderInfo, kind: "folder") { return problem }
        }
        return nil
    }

    /// The file `path` leads to, and the folders a replacement could be put in: the one
    /// holding the path as given and the one holding the file it resolves to.
    static func placesLookedAt(_ path: String) -> (resolved: String, folders: [String]) {
        let resolved = realpath(path, nil).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? path
        var folders = [AtomicFile.split(path).folder]
        let resolvedFolder = AtomicFile.split(resolved).folder
        if resolvedFolder != folders[0] { folders.append(resolvedFolder) }
        return (resolved, folders)
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
