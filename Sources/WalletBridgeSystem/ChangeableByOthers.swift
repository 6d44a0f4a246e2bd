#if canImport(Glibc)
import Glibc
#endif
import Synchronization

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
///
/// Writable by its group is fine when the group is this user's own private group, with nobody
/// else in it, as Debian's ssh allows (`UserGroups`): systems that give each user a group of
/// their own make files and folders group-writable by default (umask 002: Fedora, RHEL,
/// Debian's `adduser` with USERGROUPS), and `~/.config` is often 0775 there.
package enum ChangeableByOthers {
    /// Why someone else can change `path` or the folders above it, with the command that fixes
    /// it; nil when only this user and root can. `home`: where the walk up the folders stops.
    /// `groups`: who is in a group (tests pass their own).
    package static func reason(for path: String, home: String? = Environment.folders.home, groups: UserGroups = .system)
        -> String?
    {
        reason(path, home: home, groups: groups)
    }

    /// `reason(for:home:groups:)` with this system's groups, for the other modules (the
    /// agent's folder).
    package static func reasonForPath(_ path: String, home: String?) -> String? {
        reason(path, home: home, groups: .system)
    }

    private static func reason(_ path: String, home: String?, groups: UserGroups) -> String? {
        let absolute = path.hasPrefix("/") ? path : currentFolder() + "/" + path
        // `lstat` first, and `realpath` only when a link was met: a host checks three files
        // on every cold call, and `realpath` is a `readlink` per component of the path.
        var linked = false
        var info = stat()
        if lstat(absolute, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFLNK {
                linked = true
                if stat(absolute, &info) == 0,
                    let problem = problem(realPath(absolute) ?? absolute, info, kind: "file", groups)
                {
                    return problem
                }
            } else if let problem = problem(absolute, info, kind: "file", groups) {
                return problem
            }
        }
        let given = AtomicFile.split(absolute).folder
        if let problem = walkUp(from: given, stoppingAt: home, or: nil, linked: &linked, groups) { return problem }
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
        return walkUp(from: real, stoppingAt: home, or: home.flatMap(realPath), linked: &linked, groups)
    }

    /// The first problem in `start` and each folder above it, up to `stop`, `otherStop` or `/`.
    /// Two plain stops, not a list: an array of optional strings is a generic type the runtime
    /// would build on every cold start for this alone.
    /// A folder that is a link is judged by the folder it leads to, and sets `linked`.
    private static func walkUp(
        from start: String, stoppingAt stop: String?, or otherStop: String?, linked: inout Bool, _ groups: UserGroups
    ) -> String? {
        var folder = start
        while true {
            var info = stat()
            if lstat(folder, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFLNK {
                    linked = true
                    if stat(folder, &info) != 0 { info.st_mode = 0 }
                }
                if info.st_mode != 0, let problem = problem(folder, info, kind: "folder", groups) { return problem }
            }
            // Byte for byte, as the kernel compares paths (`==` on strings would take a composed
            // é for a decomposed one). A relative path ends at ".", which never happens: every
            // caller starts from an absolute one.
            if folder == "/" || folder == "." || Self.samePath(folder, stop) || Self.samePath(folder, otherStop) {
                return nil
            }
            folder = AtomicFile.split(folder).folder
        }
    }

    private static func samePath(_ path: String, _ other: String?) -> Bool {
        guard var other else { return false }
        var path = path
        return path.withUTF8 { bytes in
            other.withUTF8 { otherBytes in
                bytes.count == otherBytes.count
                    && (bytes.isEmpty || memcmp(bytes.baseAddress!, otherBytes.baseAddress!, bytes.count) == 0)
            }
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

    private static func problem(_ path: String, _ info: stat, kind: String, _ groups: UserGroups) -> String? {
        let me = getuid()
        if info.st_uid != me && info.st_uid != 0 {
            return "the \(kind) \(path) belongs to another user (uid \(info.st_uid)); run: sudo chown \(me) \(path)"
        }
        // A sticky folder keeps others from renaming or deleting what this user owns in it.
        guard info.st_mode & (S_IWGRP | S_IWOTH) != 0, !(kind == "folder" && info.st_mode & S_ISVTX != 0) else {
            return nil
        }
        let mode = "0" + String(info.st_mode & 0o7777, radix: 8)
        let fix = "run: chmod go-w \(path)"
        if info.st_mode & S_IWOTH != 0 { return "other users can write to the \(kind) \(path) (mode \(mode)); \(fix)" }
        guard let shared = groups.whyShared(info.st_gid) else { return nil }
        return "other users can write to the \(kind) \(path) (mode \(mode): writable by its group, \(shared)); \(fix)"
    }
}

/// Whether a group is this user's own private group, which only this user is in: then a file
/// or folder writable by that group is writable by nobody else. Debian's ssh
/// (`user-group-modes`) has the same rule. A private group is named as the user is, is the
/// user's primary group, and has no member but the user: none listed in the group file, and
/// no other user with it as primary group.
package struct UserGroups: Sendable {
    /// An account: its name and primary group.
    struct User: Sendable, Equatable {
        var name: String
        var group: gid_t
    }

    /// A group: its name and the members the group file lists.
    struct Group: Sendable, Equatable {
        var name: String
        var members: [String]
    }

    /// This user (nil when the account has no entry).
    var me: @Sendable () -> User? { didSet { verdicts = Verdicts() } }
    var group: @Sendable (gid_t) -> Group? { didSet { verdicts = Verdicts() } }
    /// The names of the accounts whose primary group is this one.
    var primaryMembers: @Sendable (gid_t) -> [String] { didSet { verdicts = Verdicts() } }

    /// `whyShared`'s answers so far, by group, kept for the life of the process (of `system`)
    /// and shared by copies: the lookups behind one walk every account (`getpwent`), which a
    /// directory service (SSSD, LDAP) can take seconds over, and a host checks several files
    /// on every cold call, the agent at every connection. Only root can change who is in a
    /// group, and root is trusted whatever the files say, so a verdict does not go stale in a
    /// way that matters. Other lookups (a changed closure) start afresh.
    private var verdicts = Verdicts()

    private final class Verdicts: Sendable {
        /// A group's verdict: nil when it is not known yet; `.some(nil)` for a private group.
        let known = Mutex<[gid_t: String?]>([:])
    }

    init(
        me: @escaping @Sendable () -> User?, group: @escaping @Sendable (gid_t) -> Group?,
        primaryMembers: @escaping @Sendable (gid_t) -> [String]
    ) {
        (self.me, self.group, self.primaryMembers) = (me, group, primaryMembers)
    }

    /// Why the group `gid` may hold someone other than this user, for a message that goes on
    /// "writable by its group, …"; nil when it is this user's private group. Looked up once
    /// per group (`verdicts`).
    func whyShared(_ gid: gid_t) -> String? {
        if let known = verdicts.known.withLock({ $0[gid] }) { return known }
        // Looked up outside the lock: two threads at once look up twice, and agree.
        let verdict = lookUpWhyShared(gid)
        verdicts.known.withLock { $0[gid] = .some(verdict) }
        return verdict
    }

    private func lookUpWhyShared(_ gid: gid_t) -> String? {
        guard let group = group(gid) else {
            return "the group \(gid), which has no name (only a private group of yours alone is accepted)"
        }
        let named = "the group \(group.name) (gid \(gid))"
        guard let me = me() else { return "\(named), and this user has no account entry to check it against" }
        guard group.name == me.name, gid == me.group else {
            return
                "\(named), which is not your own private group (a group named \(me.name) that is your primary group and has only you in it)"
        }
        let others = Set(group.members + primaryMembers(gid)).subtracting([me.name]).sorted()
        guard others.isEmpty else {
            let listed =
                others.prefix(5).joined(separator: ", ") + (others.count > 5 ? " and \(others.count - 5) more" : "")
            return "\(named), which has other members: \(listed)"
        }
        return nil
    }

    /// The system's accounts (`/etc/passwd`, `/etc/group`, or whatever NSS names).
    package static let system = UserGroups(
        me: {
            lookup {
                guard let entry = getpwuid(getuid()) else { return nil }
                return User(name: String(cString: entry.pointee.pw_name), group: entry.pointee.pw_gid)
            }
        },
        group: { gid in
            lookup {
                guard let entry = getgrgid(gid) else { return nil }
                var members: [String] = []
                if var member = entry.pointee.gr_mem {
                    while let name = member.pointee {
                        members.append(String(cString: name))
                        member += 1
                    }
                }
                return Group(name: String(cString: entry.pointee.gr_name), members: members)
            }
        },
        primaryMembers: { gid in
            lookup {
                var names: [String] = []
                setpwent()
                while let entry = getpwent() {
                    if entry.pointee.pw_gid == gid { names.append(String(cString: entry.pointee.pw_name)) }
                }
                endpwent()
                return names
            }
        })

    /// The C library's account lookups share buffers and, for `getpwent`, a position: one at a
    /// time in this process.
    private static let lock = Mutex(())
    private static func lookup<T: Sendable>(_ body: () -> T) -> T { lock.withLock { _ in body() } }
}
