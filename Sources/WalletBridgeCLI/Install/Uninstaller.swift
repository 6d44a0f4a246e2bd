#if canImport(Glibc)
import Glibc
#endif

/// Takes back what install wrote, as recorded, and nothing else.
enum Uninstaller {
    struct Outcome {
        var lines: [String] = []
        /// Files left in place because they changed since install (without `--force`), or
        /// could not be removed.
        var kept: [String] = []
    }

    /// Removes the recorded files for `browsers` (all when empty), then every folder install
    /// created that is now empty. A file is removed only while it holds what install wrote,
    /// unless `force`; a file that `install --force` replaced gets its old content back.
    static func run(browsers: [Browser], force: Bool, dryRun: Bool, record: inout InstallRecord) -> Outcome {
        var outcome = Outcome()
        let selected = Set(browsers.map(\.id))
        var remaining: [InstallRecord.File] = []
        for file in record.files {
            if let kept = takeBack(file, selected: selected, force: force, dryRun: dryRun, outcome: &outcome) {
                remaining.append(kept)
            }
        }
        if dryRun { return outcome }
        record.files = remaining
        record.folders = removeEmptyFolders(record.folders, files: record.files, outcome: &outcome)
        return outcome
    }

    /// Decides what to do with one recorded file, and (unless `dryRun`) does it. Returns the
    /// entry to keep in the record (for fewer browsers, perhaps), or nil once it is done with.
    private static func takeBack(
        _ file: InstallRecord.File, selected: Set<String>, force: Bool, dryRun: Bool, outcome: inout Outcome
    ) -> InstallRecord.File? {
        var file = file
        if !selected.isEmpty {
            let others = file.browsers.filter { !selected.contains($0) }
            if others.count == file.browsers.count { return file }
            if !others.isEmpty {
                // Still serves a browser that was not named: keep the file for that one.
                file.browsers = others
                outcome.lines.append("kept \(file.path): still installed for \(others.joined(separator: ", "))")
                return file
            }
        }
        guard let current = FileSystem.read(file.path) else {
            if FileSystem.exists(file.path) {
                outcome.kept.append(file.path)
                outcome.lines.append("kept \(file.path): cannot read it to check it")
                return file
            }
            outcome.lines.append("already gone: \(file.path)")
            return nil
        }
        guard current == Array(file.content.utf8) || force else {
            outcome.kept.append(file.path)
            outcome.lines.append("kept \(file.path): it changed since install (--force removes it anyway)")
            return file
        }
        if dryRun {
            outcome.lines.append((file.replaced == nil ? "would remove " : "would restore ") + file.path)
            return nil
        }
        return removeOrRestore(file, outcome: &outcome)
    }

    /// Puts back the file `install --force` replaced, or else removes the file. Returns the
    /// entry when that failed, so the record keeps it.
    private static func removeOrRestore(_ file: InstallRecord.File, outcome: inout Outcome) -> InstallRecord.File? {
        do {
            if let replaced = file.replaced {
                try FileSystem.writeAtomically(file.path, contents: Array(replaced.content), mode: mode_t(replaced.mode))
                outcome.lines.append("restored \(file.path) (the file install --force had replaced)")
            } else {
                try FileSystem.remove(file.path)
                outcome.lines.append("removed \(file.path)")
            }
            return nil
        } catch {
            outcome.kept.append(file.path)
            outcome.lines.append("kept \(file.path): \(error)")
            return file
        }
    }

    /// Removes the recorded `folders` that are now empty; returns those to keep recorded.
    ///
    /// Deepest first, so a folder's children go before it. A folder that still holds a
    /// recorded file (kept, or installed for another browser) stays recorded for next time.
    /// One that holds only what install did not write (the user's own file, one that
    /// uninstall put back) is left, and forgotten: no later uninstall could remove it
    /// either, and keeping it would keep the record alive for nothing.
    private static func removeEmptyFolders(_ recorded: [String], files: [InstallRecord.File], outcome: inout Outcome) -> [String] {
        var folders: [String] = []
        var left: [String] = []
        for folder in Set(recorded).sorted(by: { $0.count > $1.count }) {
            if !FileSystem.exists(folder) { continue }
            if FileSystem.removeDirectoryIfEmpty(folder) {
                outcome.lines.append("removed folder \(folder)")
            } else if files.contains(where: { $0.path.hasPrefix(folder + "/") }) {
                folders.append(folder)
            } else {
                // Name only the deepest: its parents are not empty because of it.
                if !left.contains(where: { $0.hasPrefix(folder + "/") }) {
                    outcome.lines.append("left folder \(folder): it holds files install did not write")
                }
                left.append(folder)
            }
        }
        return folders
    }
}
