import FoundationEssentials
import WalletBridge

/// What install wrote, so that uninstall removes exactly that and nothing else.
///
/// Kept at `$XDG_STATE_HOME/wallet-bridge/installed.json` (default `~/.local/state`). Each
/// manifest is recorded with the content install wrote: uninstall removes a file only while it
/// still holds that content, and puts back whatever `--force` replaced. Each host name is
/// recorded with the binary and the description install wrote for it (`hosts`): doctor's
/// suggested commands and `doctor --fix-paths` take the binary from there, never from the
/// program that runs them.
///
/// Version 2 added `hosts`. A version 1 record (from an older wallet-bridge) is read and its
/// hosts worked out from the manifests it recorded (`migrated`); it is written back as version
/// 2 the next time it changes. An older wallet-bridge refuses a version 2 record, naming its
/// version, rather than drop what it does not know.
struct InstallRecord: Codable, Equatable, Sendable {
    static let currentVersion = 2
    /// The versions `load` reads.
    static let readableVersions = 1...2

    /// What install wrote for one host name.
    struct Host: Codable, Equatable, Sendable {
        /// The absolute path of the host binary its manifests start (through a Flatpak's
        /// wrapper, for `install --flatpak`).
        var binary: String
        /// The manifests' "description".
        var description: String
        /// True when `binary` is the wallet-bridge wallet and the user named it with `--binary`
        /// for this host name, which is not the wallet's: the wallet under another name, on
        /// purpose. Absent otherwise. Without it, a recorded binary that is the wallet counts
        /// as no record at all for a host name other than the wallet's (`binary(of:)`).
        var wallet: Bool? = nil
    }

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

        /// The host the file serves: a manifest is `<host>.json`, a Flatpak wrapper
        /// `<host>-flatpak`.
        var hostName: String {
            let name = Path.fileName(path)
            if name.hasSuffix(".json") { return String(name.dropLast(5)) }
            if name.hasSuffix("-flatpak") { return String(name.dropLast(8)) }
            return name
        }

        /// Whether the file is a manifest (not a Flatpak wrapper script).
        var isManifest: Bool { path.hasSuffix(".json") }

        /// The manifest install wrote here, read back from its recorded content; nil for a
        /// wrapper script and for a Flatpak's manifest (whose "path" is its wrapper, not the
        /// host's binary).
        var hostManifest: ManifestFile? {
            guard isManifest, flatpak == nil, case .object(let members)? = try? JSONParser.parse(Array(content.utf8))
            else { return nil }
            return ManifestFile(path: path, members: members)
        }
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
    /// Per host name, the binary and description install wrote. Pruned to the hosts that
    /// still have a file (`pruneHosts`).
    var hosts: [String: Host] = [:]

    var isEmpty: Bool { files.isEmpty && folders.isEmpty }

    init() {}

    private enum CodingKeys: String, CodingKey {
        case version, files, folders, recordFolders, hosts
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard Self.readableVersions.contains(version) else { return }
        files = try container.decode([File].self, forKey: .files)
        folders = try container.decodeIfPresent([String].self, forKey: .folders) ?? []
        recordFolders = try container.decodeIfPresent([String].self, forKey: .recordFolders) ?? []
        hosts = try container.decodeIfPresent([String: Host].self, forKey: .hosts) ?? [:]
    }

    /// The binary recorded for `hostName` that install, doctor and `--fix-paths` may point its
    /// manifests at: nil when none is recorded, and when the one recorded is the wallet for a
    /// host name other than the wallet's and the user did not name it on purpose (a record
    /// from a wallet-bridge that put the wallet there by default, or one worked out from
    /// manifests re-pointed at the wallet). A custom host's manifest never starts the wallet
    /// unless the user said so with `--binary`.
    func binary(of hostName: String) -> String? {
        guard let host = hosts[hostName] else { return nil }
        if hostName != ManifestIdentifiers.defaultHostName, host.wallet != true,
            InstallRequest.namesTheWallet(host.binary)
        {
            return nil
        }
        return host.binary
    }

    /// The files recorded for `hostName`.
    func files(of hostName: String) -> [File] {
        files.filter { $0.hostName == hostName }
    }

    /// The host names the record holds a file for, sorted.
    var hostNames: [String] {
        Array(Set(files.map(\.hostName))).sorted()
    }

    /// Forgets the hosts no recorded file serves any more.
    mutating func pruneHosts() {
        let left = Set(files.map(\.hostName))
        hosts = hosts.filter { left.contains($0.key) }
    }

    /// A version 1 record made current: each host's binary and description are those its
    /// recorded manifests (outside Flatpak sandboxes, whose "path" is a wrapper) name, when
    /// they all name the same; a host whose manifests disagree gets no entry, and so nothing
    /// that `doctor --fix-paths` would re-point its manifests at.
    func migrated() -> InstallRecord {
        var record = self
        record.version = Self.currentVersion
        for name in hostNames where record.hosts[name] == nil {
            var found: Set<[String]> = []
            for case let manifest? in files(of: name).map(\.hostManifest) {
                guard let binary = manifest.string("path"), binary.hasPrefix("/") else { continue }
                found.insert([binary, manifest.string("description") ?? HostManifest.defaultDescription])
            }
            if found.count == 1, let only = found.first {
                record.hosts[name] = Host(binary: only[0], description: only[1])
            }
        }
        return record
    }

    static func location(in environment: CLIEnvironment) -> String {
        Path.join(environment.stateHome, "wallet-bridge/installed.json")
    }

    /// The record, or nil when there is none.
    static func load(from path: String) throws(CLIFailure) -> InstallRecord? {
        guard FileSystem.exists(path) else { return nil }
        guard let bytes = FileSystem.read(path) else { throw CLIFailure("cannot read the install record \(path)") }
        do {
            let record = try JSONDecoder().decode(InstallRecord.self, from: Data(bytes))
            guard readableVersions.contains(record.version) else {
                throw CLIFailure(
                    """
                    the install record \(path) has version \(record.version); this wallet-bridge reads versions \
                    \(readableVersions.lowerBound) to \(readableVersions.upperBound): use the wallet-bridge that wrote it (a newer one)
                    """)
            }
            return record.version == currentVersion ? record : record.migrated()
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
        pruneHosts()
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
