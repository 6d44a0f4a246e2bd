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
        /// Folders install created that hold only the install record's own folders: removed
        /// once the record is gone (`removeFoldersLeftForTheRecord`).
        var afterRecord: [String] = []
        /// The `--name` hosts with nothing recorded: an error, once the rest is done.
        var unknownNames: [String] = []
    }

    /// Which recorded files to take back: all, or what the same options gave install. As
    /// `install --browser X` writes X's ordinary manifests and `install --browser X --flatpak`
    /// those in X's Flatpak, `--browser X` selects the first and `--flatpak` the second.
    struct Selection {
        var browsers: [Browser] = []
        var browserDirs: [BrowserDir] = []
        /// The files inside Flatpak sandboxes (of `browsers`, or of every browser) instead of
        /// the ordinary ones.
        var flatpak = false
        /// Only the files of these hosts (`--name`); empty means every host recorded.
        var hostNames: [String] = []

        /// Every file of the selected hosts.
        var everything: Bool { browsers.isEmpty && browserDirs.isEmpty && !flatpak }
    }

    /// Removes the recorded files for `browsers` (all when empty), then every folder install
    /// created that is now empty. A file is removed only while it holds what install wrote,
    /// unless `force`; a file that `install --force` replaced gets its old content back.
    static func run(browsers: [Browser], force: Bool, dryRun: Bool, record: inout InstallRecord) -> Outcome {
        run(Selection(browsers: browsers), force: force, dryRun: dryRun, record: &record)
    }

    /// The same, for any selection. `recordPath` is where the record lives: folders install
    /// created above it are removed after it (see `Outcome.afterRecord`).
    static func run(
        _ selection: Selection, force: Bool, dryRun: Bool, record: inout InstallRecord, recordPath: String? = nil
    ) -> Outcome {
        var outcome = Outcome()
        var remaining: [InstallRecord.File] = []
        for file in record.files {
            if let kept = takeBack(file, selection: selection, force: force, dryRun: dryRun, outcome: &outcome) {
                remaining.append(kept)
            }
        }
        for browserDir in selection.browserDirs
        where !record.files.contains(where: { $0.browserDir == browserDir.folder }) {
            outcome.lines.append("nothing recorded for --browser-dir \(browserDir.argument)")
        }
        for name in selection.hostNames where record.files(of: name).isEmpty && !outcome.unknownNames.contains(name) {
            outcome.unknownNames.append(name)
        }
        if dryRun { return outcome }
        record.files = remaining
        record.folders = removeEmptyFolders(
            record.folders, files: record.files, recordPath: recordPath, outcome: &outcome)
        return outcome
    }

    /// Removes, deepest first, the folders `run` left for the record; call it once the record
    /// itself is gone.
    static func removeFoldersLeftForTheRecord(_ outcome: inout Outcome) {
        for folder in outcome.afterRecord.sorted(by: { $0.count > $1.count })
        where FileSystem.removeDirectoryIfEmpty(folder) {
            outcome.lines.append("removed folder \(folder)")
        }
    }

    /// Decides what to do with one recorded file, and (unless `dryRun`) does it. Returns the
    /// entry to keep in the record (for fewer browsers, perhaps), or nil once it is done with.
    private static func takeBack(
        _ file: InstallRecord.File, selection: Selection, force: Bool, dryRun: Bool, outcome: inout Outcome
    ) -> InstallRecord.File? {
        var file = file
        if !selection.hostNames.isEmpty && !selection.hostNames.contains(file.hostName) { return file }
        if !selection.everything {
            let selected = Set(selection.browsers.map(\.id))
            var byBrowser: [String] = []
            if (file.flatpak != nil) == selection.flatpak {
                byBrowser =
                    selected.isEmpty
                    ? (selection.flatpak ? file.browsers : []) : file.browsers.filter(selected.contains)
            }
            let byFolder =
                file.browserDir.map { folder in
                    selection.browserDirs.contains {
                        $0.folder == folder && (file.family == nil || $0.family == file.family)
                    }
                } ?? false
            if byBrowser.isEmpty && !byFolder { return file }
            let others = file.browsers.filter { !byBrowser.contains($0) }
            let folderStays = file.browserDir != nil && !byFolder
            if !others.isEmpty || folderStays {
                // Still serves a browser (or a --browser-dir) that was not named: keep it for that.
                file.browsers = others
                if !folderStays { file.browserDir = nil; file.family = nil }
                let still = others + (folderStays ? ["--browser-dir \(file.browserDir!)"] : [])
                outcome.lines.append("kept \(file.path): still installed for \(still.joined(separator: ", "))")
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
                try FileSystem.writeAtomically(
                    file.path, contents: Array(replaced.content), mode: mode_t(replaced.mode))
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

    /// Whether `folder` holds nothing but the folders on the way to `recordPath` and the record.
    private static func holdsOnlyTheWayTo(_ recordPath: String, _ folder: String) -> Bool {
        var current = folder
        for next in FileSystem.chain(recordPath) where next.hasPrefix(folder + "/") {
            guard FileSystem.list(current) == [Path.fileName(next)] else { return false }
            current = next
        }
        return true
    }

    /// Removes the recorded `folders` that are now empty; returns those to keep recorded.
    ///
    /// Deepest first, so a folder's children go before it. A folder that still holds a
    /// recorded file (kept, or installed for another browser) stays recorded for next time.
    /// One that holds only what install did not write (the user's own file, one that
    /// uninstall put back) is left, and forgotten: no later uninstall could remove it
    /// either, and keeping it would keep the record alive for nothing.
    private static func removeEmptyFolders(
        _ recorded: [String], files: [InstallRecord.File], recordPath: String?, outcome: inout Outcome
    ) -> [String] {
        var folders: [String] = []
        var left: [String] = []
        for folder in Set(recorded).sorted(by: { $0.count > $1.count }) {
            if !FileSystem.exists(folder) { continue }
            if FileSystem.removeDirectoryIfEmpty(folder) {
                outcome.lines.append("removed folder \(folder)")
            } else if files.contains(where: { $0.path.hasPrefix(folder + "/") }) {
                folders.append(folder)
            } else if let recordPath, recordPath.hasPrefix(folder + "/"), holdsOnlyTheWayTo(recordPath, folder) {
                // A manifest folder that install made first and the record then went into
                // (~/.local, for Tor Browser's ~/.local/share/torbrowser): it empties only
                // once the record goes, so it is removed after it. Forgotten either way.
                outcome.afterRecord.append(folder)
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
