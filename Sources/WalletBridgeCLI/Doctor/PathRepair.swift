#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

/// One manifest `doctor --fix-paths` looked at: its `path` named a file that is gone.
struct PathFix: Codable, Sendable, Equatable {
    enum Outcome: String, Codable, Sendable {
        /// Re-pointed at this binary.
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
        case .fixed: "fixed \(manifest): \"path\" was \(from), which no longer exists; it is now \(to)"
        case .skipped: "not fixed \(manifest): \"path\" \(from) no longer exists, but \(reason ?? "")"
        case .failed: "could not fix \(manifest): \(reason ?? "")"
        }
    }
}

/// `doctor --fix-paths`: re-points manifests whose host binary has moved at the binary
/// running doctor, as KeePassXC rewrites its own manifests at every start, but only when asked.
///
/// Only a `path` that is absolute and gone (not one behind a folder this user may not enter)
/// is changed, and only in a manifest that is this program's: install recorded it, or its
/// `path` ends in the same file name as this binary. Everything else in the file stays byte
/// for byte: the one JSON string is replaced, and the result must parse to the same members
/// with the new `path`. A recorded manifest's record follows, so uninstall still knows it.
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
                      let old = loaded.manifest.string("path"), old.hasPrefix("/"), isGone(old) else { continue }
                let recordIndex = record?.files.firstIndex { $0.path == manifestPath }
                var fix = PathFix(manifest: manifestPath, from: old, to: binary, outcome: .fixed)
                guard recordIndex != nil || Path.fileName(old) == Path.fileName(binary) else {
                    fix.outcome = .skipped
                    fix.reason = "it names another program than this one (\(Path.fileName(binary))), and install did not write it; reinstall it with the program it belongs to"
                    fixes.append(fix)
                    continue
                }
                guard let rewritten = repointed(bytes, from: old, to: binary, manifest: loaded.manifest) else {
                    fix.outcome = .skipped
                    fix.reason = "its \"path\" is not written as one plain JSON string that can be replaced alone; edit it by hand, or reinstall"
                    fixes.append(fix)
                    continue
                }
                do {
                    let mode = FileSystem.status(manifestPath).map { mode_t($0.mode) } ?? 0o644
                    try FileSystem.writeAtomically(manifestPath, contents: rewritten, mode: mode)
                } catch {
                    fix.outcome = .failed
                    fix.reason = "\(error)" + (error.code == EACCES ? " (a system-wide manifest needs root)" : "")
                    fixes.append(fix)
                    continue
                }
                if let recordIndex, Array(record!.files[recordIndex].content.utf8) == bytes {
                    record!.files[recordIndex].content = String(decoding: rewritten, as: UTF8.self)
                    recordChanged = true
                }
                fixes.append(fix)
            }
        }
        if recordChanged, var updated = record {
            do {
                try updated.save(to: recordPath)
            } catch {
                fixes.append(PathFix(manifest: recordPath, from: "", to: "", outcome: .failed, reason: "the install record was not updated: \(error)"))
            }
        }
        return fixes
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
    private static func repointed(_ bytes: [UInt8], from old: String, to new: String, manifest: ManifestFile) -> [UInt8]? {
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
        guard case .object(var members)? = try? JSONParser.parse(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(rewritten.dropFirst(3)) : rewritten),
              members["path"] == .string(new) else { return nil }
        members["path"] = .string(old)
        return members == manifest.members ? rewritten : nil
    }
}
