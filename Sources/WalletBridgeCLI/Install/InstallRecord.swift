import FoundationEssentials

/// What install wrote, so that uninstall removes exactly that and nothing else.
///
/// Kept at `$XDG_STATE_HOME/wallet-bridge/installed.json` (default `~/.local/state`). Each
/// manifest is recorded with the content install wrote: uninstall removes a file only while it
/// still holds that content, and puts back whatever `--force` replaced.
struct InstallRecord: Codable, Equatable, Sendable {
    static let currentVersion = 1

    struct File: Codable, Equatable, Sendable {
        var path: String
        /// The `--browser` values this file serves (several Chrome-family browsers share
        /// `/etc/opt/chrome`).
        var browsers: [String]
        var content: String
        /// What was at `path` before `install --force` replaced it.
        var replaced: Replaced?
        /// The `--user-data-dir` folder (absolute) the file was installed into, if any: doctor
        /// checks that folder too, which it could not otherwise know of.
        var userDataDir: String? = nil
        /// True for a `--system` install; absent for the user's own folders.
        var system: Bool? = nil
        /// The `--browser-dir` folder the file was installed into, and the family it was
        /// written for: doctor checks that folder too, and `uninstall --browser-dir` finds it.
        var browserDir: String? = nil
        var family: BrowserFamily? = nil
        /// The Flatpak app whose sandbox holds the file (`install --flatpak`): its manifest, or
        /// the wrapper script that manifest names.
        var flatpak: String? = nil
    }

    struct Replaced: Codable, Equatable, Sendable {
        var content: Data
        var mode: UInt32
    }

    var version = InstallRecord.currentVersion
    var files: [File] = []
    /// Folders install created for manifests; uninstall removes them once empty.
    var folders: [String] = []
    /// Folders created to hold this record; removed with the record when it empties.
    var recordFolders: [String] = []

    var isEmpty: Bool { files.isEmpty && folders.isEmpty }

    static func location(in environment: CLIEnvironment) -> String {
        Path.join(environment.stateHome, "wallet-bridge/installed.json")
    }

    /// The record, or nil when there is none.
    static func load(from path: String) throws(CLIFailure) -> InstallRecord? {
        guard FileSystem.exists(path) else { return nil }
        guard let bytes = FileSystem.read(path) else { throw CLIFailure("cannot read the install record \(path)") }
        do {
            let record = try JSONDecoder().decode(InstallRecord.self, from: Data(bytes))
            guard record.version == currentVersion else {
                throw CLIFailure("the install record \(path) has version \(record.version); this wallet-bridge reads version \(currentVersion)")
            }
            return record
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure("the install record \(path) is not valid: \(error)")
        }
    }

    /// The record's bytes: sorted, so that an unchanged install leaves it byte for byte alone.
    func encoded() -> [UInt8] {
        var sorted = self
        sorted.files.sort { $0.path < $1.path }
        sorted.folders = Array(Set(folders)).sorted()
        sorted.recordFolders = Array(Set(recordFolders)).sorted()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, arrays and numbers cannot fail.
        return Array(try! encoder.encode(sorted)) + [UInt8(ascii: "\n")]
    }

    /// Writes the record at `path`, creating (and remembering) the folders it needs; removes
    /// it, and those folders, once it holds nothing.
    mutating func save(to path: String) throws(FileSystemError) {
        let folder = Path.parent(path)
        if isEmpty {
            if FileSystem.exists(path) { try FileSystem.remove(path) }
            for created in recordFolders.sorted(by: { $0.count > $1.count }) {
                FileSystem.removeDirectoryIfEmpty(created)
            }
            return
        }
        recordFolders += try FileSystem.makeDirectories(folder)
        let bytes = encoded()
        if FileSystem.read(path) != bytes {
            try FileSystem.writeAtomically(path, contents: bytes, mode: 0o644)
        }
    }
}
