#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

/// One manifest `doctor --fix-paths` looked at: its `path` named a file that is gone.
struct PathFix: Codable, Sendable, Equatable {
    enum Outcome: String, Codable, Sendable {
        /// Re-pointed at its host's recorded binary (or, for the wallet, this one).
        case fixed
        /// Left alone: it names another program, or cannot be rewritten safely.
        case skipped
        /// Writing it failed.
        case failed
    }

    var manifest: String
    /// The `path` that no longer exists.
    var from: String
    /// The binary it points to now (for `fixed`), or would have.
    var to: String
    var outcome: Outcome
    /// Why, for `skipped` and `failed`.
    var reason: String?

    /// The line doctor prints for it.
    var line: String {
        switch outcome {
        case .fixed:
            "fixed \(manifest): \"path\" was \(from), which \(FileSystem.exists(from) ? "is not the binary install recorded" : "no longer exists"); it is now \(to)"
        case .skipped:
            "not fixed \(manifest): \"path\" \(from) \(FileSystem.exists(from) ? "is not the binary install recorded" : "no longer exists"), but \(reason ?? "")"
        case .failed: "could not fix \(manifest): \(reason ?? "")"
        }
    }
}

/// `doctor --fix-paths`: re-points a manifest install wrote at the binary install recorded for
/// its host, on request only.
///
/// Only a manifest install recorded is changed, and only to its host's recorded binary
/// (`InstallRecord.hosts`): never to the program running doctor, which may be another host
/// altogether (the wallet). It is re-pointed when its `path` is gone (absolute, and not
/// merely behind a folder this user may not enter) or names another program than the
/// recorded one, and the recorded binary is there. One exception keeps the wallet's own
/// repair: when the recorded binary is gone too and has this binary's file name, the wallet
/// moved, and this binary (the wallet) is the one to point at; the record follows. Likewise
/// a manifest of the wallet's own host name that install did not write (a package's, or one
/// from before the record) whose gone `path` has this binary's file name.
/// Everything else in the file stays byte for byte: the one JSON string is replaced, and the
/// result must parse to the same members with the new `path`. A recorded manifest's record
/// follows, so uninstall still knows it.
enum PathRepair {
    static func run(folders: [String], hostName: String, binary: String, environment: CLIEnvironment) -> [PathFix] {
        let recordPath = InstallRecord.location(in: environment)
        var record = (try? InstallRecord.load(from: recordPath)) ?? nil
        var recordChanged = false
        var fixes: [PathFix] = []
        for folder in folders {
            for path in FileSystem.list(folder) where path.hasSuffix(".json") {
                let manifestPath = Path.join(folder, path)
                guard let bytes = FileSystem.read(manifestPath), let loaded = try? BrowserJSON.load(manifestPath),
                    path == hostName + ".json" || loaded.manifest.string("name") == hostName,
                    let old = loaded.manifest.string("path"), old.hasPrefix("/")
                else { continue }
                let recordIndex = record?.files.firstIndex { $0.path == manifestPath }
                let recorded = recordIndex != nil ? record?.binary(of: hostName) : nil
                let gone = isGone(old)
                // A recorded manifest that starts another program than its host's recorded one.
                let elsewhere =
                    !gone
                    && recorded.map { !FileSystem.sameFile(old, $0) && FileSystem.status($0)?.kind == .file } == true
                guard gone || elsewhere else { continue }
                var fix = PathFix(manifest: manifestPath, from: old, to: recorded ?? "", outcome: .skipped)
                if recordIndex == nil, gone, hostName == ManifestIdentifiers.defaultHostName,
                    isThisProgram(old, this: binary)
                {
                    // The wallet's own manifest, not written by this install (a package's, an
                    // older install's): the wallet moved, and this is it.
                    fix.to = binary
                    fixes.append(
                        repoint(manifestPath, bytes: bytes, from: old, to: binary, manifest: loaded.manifest, fix: fix))
                    continue
                }
                guard recordIndex != nil else {
                    fix.reason =
                        "install did not write it, so no install record names the binary of \(hostName); install it with its own binary: \(Doctor.executable) install ... --name \(Shell.quoted(hostName)) --binary PATH"
                    fixes.append(fix)
                    continue
                }
                guard let recorded else {
                    fix.reason =
                        "the install record names no binary for \(hostName) that --fix-paths may use (its manifests disagreed, in a record from an older wallet-bridge; or it names the wallet-bridge wallet, which no --binary chose for \(hostName)); install it again with its binary (--name \(Shell.quoted(hostName)) --binary PATH), which records it"
                    fixes.append(fix)
                    continue
                }
                var target = recorded
                if FileSystem.status(target)?.kind != .file {
                    guard isThisProgram(target, this: binary) else {
                        fix.reason =
                            "install recorded \(target) as the binary of \(hostName), and it is gone too; --fix-paths points a manifest only at its host's recorded binary: rebuild it there, or install it again with --binary"
                        fixes.append(fix)
                        continue
                    }
                    // The wallet moved, and this is it.
                    target = binary
                    fix.to = binary
                }
                fix = repoint(manifestPath, bytes: bytes, from: old, to: target, manifest: loaded.manifest, fix: fix)
                fixes.append(fix)
                guard fix.outcome == .fixed, let rewritten = FileSystem.read(manifestPath) else { continue }
                if let recordIndex, Array(record!.files[recordIndex].content.utf8) == bytes || elsewhere {
                    record!.files[recordIndex].content = String(decoding: rewritten, as: UTF8.self)
                    recordChanged = true
                }
                if target != recorded {
                    record!.hosts[hostName]?.binary = target
                    recordChanged = true
                }
            }
        }
        if recordChanged, var updated = record {
            do {
                try updated.save(to: recordPath)
            } catch {
                fixes.append(
                    PathFix(
                        manifest: recordPath, from: "", to: "", outcome: .failed,
                        reason: "the install record was not updated: \(error)"))
            }
        }
        return fixes
    }

    /// Rewrites the manifest's `path` from `old` to `new`; `fix` with its outcome.
    private static func repoint(
        _ manifestPath: String, bytes: [UInt8], from old: String, to new: String, manifest: ManifestFile, fix: PathFix
    ) -> PathFix {
        var fix = fix
        guard let rewritten = repointed(bytes, from: old, to: new, manifest: manifest) else {
            fix.outcome = .skipped
            fix.reason =
                "its \"path\" is not written as one plain JSON string that can be replaced alone; edit it by hand, or reinstall"
            return fix
        }
        do {
            let mode = FileSystem.status(manifestPath).map { mode_t($0.mode) } ?? 0o644
            try FileSystem.writeAtomically(manifestPath, contents: rewritten, mode: mode)
        } catch {
            fix.outcome = .failed
            fix.reason = "\(error)" + (error.code == EACCES ? " (a system-wide manifest needs root)" : "")
            return fix
        }
        fix.outcome = .fixed
        return fix
    }

    /// Whether `binary` is this program (the wallet, moved): it has the file name of `this`,
    /// the binary running doctor.
    static func isThisProgram(_ binary: String, this: String? = FileSystem.currentExecutable()) -> Bool {
        guard let this else { return false }
        return Path.fileName(binary) == Path.fileName(this)
    }

    /// Gone: no such file, or a folder on the way is missing or a file. Not "permission
    /// denied": that file may well be there, and doctor's path-denied check says so.
    private static func isGone(_ path: String) -> Bool {
        guard FileSystem.status(path) == nil else { return false }
        let error = FileSystem.statError(path)
        return error == ENOENT || error == ENOTDIR
    }

    /// `bytes` with the one JSON string `old` replaced by `new`, or nil unless that string
    /// occurs exactly once and the result reads as the same manifest with the new path.
    private static func repointed(_ bytes: [UInt8], from old: String, to new: String, manifest: ManifestFile)
        -> [UInt8]?
    {
        let needle = Array(JSONText.quoted(old).utf8)
        var matches: [Int] = []
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) {
                matches.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        guard matches.count == 1 else { return nil }
        var rewritten = bytes
        rewritten.replaceSubrange(matches[0]..<(matches[0] + needle.count), with: Array(JSONText.quoted(new).utf8))
        guard
            case .object(var members)? = try? JSONParser.parse(
                bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(rewritten.dropFirst(3)) : rewritten),
            members["path"] == .string(new)
        else { return nil }
        members["path"] = .string(old)
        return members == manifest.members ? rewritten : nil
    }
}
