#if canImport(Glibc)
import Glibc
#endif

/// What a system-wide install needs of the paths it hands to every user's browser.
///
/// A manifest in `/etc` or `/usr/lib` is read by the browsers of all users, each started as
/// that user. Install runs as root, for whom every permission check passes, so it must read
/// the mode bits itself: a binary under `/root` (where `scripts/setup.sh` puts it when run as
/// root) is refused, because every other user's browser would fail to start it, with nothing
/// better than "Failed to start native messaging host". Only the "others" bits count: install
/// cannot know which group a browser's user is in.
enum SystemReach {
    /// Why a browser run by another user could not start `binary`, or nil when it can.
    static func problem(forBinary binary: String) -> String? {
        // The kernel walks the path as given and then each link's target: both must be open.
        var paths = [binary]
        if let resolved = FileSystem.resolved(binary), resolved != binary { paths.append(resolved) }
        for path in paths {
            if let barrier = folderBarrier(FileSystem.chain(path).dropLast()) {
                return "other users' browsers could not start \(binary): \(barrier)"
            }
        }
        guard let status = FileSystem.status(binary) else { return nil }
        if status.mode & 0o001 == 0 {
            return
                "other users' browsers could not start \(binary): \(binary) is mode \(octal(status.mode)): other users may not execute it"
        }
        // A script is read by the kernel, as the browser's user, to find its interpreter.
        if status.mode & 0o004 == 0, FileSystem.read(binary, limit: 2) == Array("#!".utf8) {
            return
                "other users' browsers could not start \(binary): \(binary) is mode \(octal(status.mode)): other users may not read it, and the kernel must read a script's #! line"
        }
        return nil
    }

    /// The advice that goes with `problem(forBinary:)`, with commands that work as printed.
    static func remedy(for binary: String) -> String {
        let target = "/usr/local/bin/" + Path.fileName(binary)
        return """
            A system-wide manifest serves every user's browser: put the binary where all users can \
            run it (install -m 0755 \(binary) \(target), then --binary \(target)), or install per \
            user, without --system.
            """
    }

    /// Who other than root could replace what `binary` runs, or nil: every user's browser
    /// would then run code of that user's choosing. A warning, not a refusal: on a machine
    /// with one person it is their own binary.
    static func changeableBy(_ binary: String) -> String? {
        var paths = [binary]
        if let resolved = FileSystem.resolved(binary), resolved != binary { paths.append(resolved) }
        for path in paths {
            let chain = FileSystem.chain(path)
            for (index, element) in chain.enumerated() {
                guard let status = FileSystem.status(element) else { continue }
                let isFile = index == chain.count - 1
                // A sticky folder (/tmp) lets others add names, not replace someone's file.
                let sticky = !isFile && status.mode & 0o1000 != 0
                var writers: [String] = []
                if status.owner != 0, status.mode & 0o200 != 0 { writers.append(userName(status.owner)) }
                if status.group != 0, status.mode & 0o020 != 0, !sticky {
                    writers.append("group \(groupName(status.group))")
                }
                if status.mode & 0o002 != 0, !sticky { writers.append("every user") }
                if !writers.isEmpty {
                    let what = isFile ? "" : ", so \(binary) can be replaced"
                    return
                        "Warning: \(element) can be changed by \(writers.joined(separator: " and "))\(what): every user's browser would run what is put there. A system-wide install should point to a binary only root can change, such as /usr/local/bin/wallet-bridge."
                }
            }
        }
        return nil
    }

    /// Existing folders on the way to a manifest that other users may not enter, as warnings:
    /// install did not make them, so it does not change them. `reopened` are folders install
    /// did make, which it sets to 0755 itself.
    static func manifestFolderBarrier(_ folder: String, systemRoot: String, reopened: Set<String> = []) -> String? {
        let chain = FileSystem.chain(folder).filter {
            (systemRoot == "/" || $0 == systemRoot || $0.hasPrefix(systemRoot + "/")) && !reopened.contains($0)
        }
        guard let barrier = folderBarrier(chain) else { return nil }
        return "Warning: other users' browsers will not find the manifest in \(folder): \(barrier)"
    }

    /// The first existing folder of `chain` that others may not enter, described.
    private static func folderBarrier(_ chain: some Sequence<String>) -> String? {
        for folder in chain {
            guard let status = FileSystem.status(folder) else { return nil }  // the rest is missing: created 0755
            if status.kind == .directory, status.mode & 0o001 == 0 {
                let home = homeOwned(folder, by: status.owner).map { " (the home folder of \($0))" } ?? ""
                return
                    "\(folder) is mode \(octal(status.mode))\(home), so only its owner\(status.mode & 0o010 != 0 ? " and group" : "") can enter it"
            }
        }
        return nil
    }

    private static func homeOwned(_ folder: String, by owner: UInt32) -> String? {
        guard let entry = getpwuid(owner), let directory = entry.pointee.pw_dir,
            Path.normalized(String(cString: directory)) == folder
        else { return nil }
        return String(cString: entry.pointee.pw_name)
    }

    private static func userName(_ uid: UInt32) -> String {
        guard let entry = getpwuid(uid) else { return "user \(uid)" }
        return String(cString: entry.pointee.pw_name)
    }

    private static func groupName(_ gid: UInt32) -> String {
        guard let entry = getgrgid(gid) else { return "\(gid)" }
        return String(cString: entry.pointee.gr_name)
    }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
