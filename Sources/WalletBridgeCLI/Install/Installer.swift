#if canImport(Glibc)
import Glibc
#endif

/// What the user asked `install` for, already validated.
struct InstallRequest: Sendable {
    /// Explicit `--browser` values; empty means every installed browser.
    var browsers: [Browser] = []
    var system = false
    var userDataDir: String?
    var chromeOrigins: [String] = []
    var firefoxAddons: [String] = []
    var hostName = ManifestIdentifiers.defaultHostName
    var binaryPath: String
    var force = false
}

/// One manifest file install will write, and the browsers that read it.
struct InstallTarget: Sendable {
    enum Action: Sendable, Equatable {
        case create
        /// Already there with exactly this content; `recorded` says whether install wrote it.
        case unchanged(recorded: Bool)
        /// Install wrote it earlier and nobody changed it since: safe to rewrite.
        case update
        /// Someone else's file, replaced because of `--force`; uninstall puts it back.
        case replace(previous: [UInt8], mode: UInt32)
        /// A file install wrote, changed since by someone, rewritten because of `--force`. It
        /// was install's own, so there is nothing to put back: uninstall removes it.
        case repair
    }

    var path: String
    var browsers: [Browser]
    var content: [UInt8]
    var action: Action
}

struct InstallPlan: Sendable {
    var targets: [InstallTarget]
    /// Lines for the user that are not about a file: what was detected, what was ignored.
    var notes: [String]
    /// The mode of the folders install creates: 0755 for the system-wide ones, which browsers
    /// run by every user must enter; nil (the umask decides) for the user's own.
    var folderMode: mode_t? = nil
    /// Recorded with each file, for doctor: how it was installed.
    var system = false
    var userDataDir: String? = nil
}

enum Installer {
    /// Works out every file, and refuses (before anything is written) what cannot be done.
    static func plan(_ request: InstallRequest, environment: CLIEnvironment, record: InstallRecord?) throws(CLIFailure) -> InstallPlan {
        var notes = try checkNameAndBinary(request)
        let browsers = try chooseBrowsers(request, environment: environment, notes: &notes)
        let allowed = try allowLists(request, browsers: browsers, notes: &notes)
        let files = manifestFiles(request, browsers: browsers, environment: environment)
        let targets = try installTargets(files, request: request, allowed: allowed, record: record)
        notes += closingNotes(request, browsers: browsers, targets: targets, environment: environment, record: record)
        return InstallPlan(
            targets: targets, notes: notes, folderMode: request.system ? 0o755 : nil,
            system: request.system, userDataDir: request.userDataDir.map(environment.absolute)
        )
    }

    /// Refuses a malformed host name, and a `--system` binary other users could not start;
    /// returns the warnings about the binary that do not refuse it.
    private static func checkNameAndBinary(_ request: InstallRequest) throws(CLIFailure) -> [String] {
        var notes: [String] = []
        if let problem = ManifestIdentifiers.hostNameProblem(request.hostName) { throw CLIFailure("--name: \(problem)") }
        if request.system {
            // Refused, not warned: the manifest would be broken for every user but root, whose
            // own browser a per-user install serves just as well.
            if let problem = SystemReach.problem(forBinary: request.binaryPath) {
                throw CLIFailure("--system: \(problem). " + SystemReach.remedy(for: request.binaryPath))
            }
            if let warning = SystemReach.changeableBy(request.binaryPath) { notes.append(warning) }
        }
        return notes
    }

    /// The browsers to install for: those named with `--browser`, else Chromium for
    /// `--user-data-dir`, else every browser found here. Refuses `--user-data-dir` where it
    /// means nothing.
    private static func chooseBrowsers(_ request: InstallRequest, environment: CLIEnvironment, notes: inout [String]) throws(CLIFailure) -> [Browser] {
        var browsers = unique(request.browsers)
        if browsers.isEmpty {
            if request.userDataDir != nil {
                browsers = [BrowserCatalog.named("chromium")!]
            } else {
                browsers = BrowserDetection.installedBrowsers(in: environment)
                guard !browsers.isEmpty else {
                    throw CLIFailure("""
                        no browser found: looked for the profile folders and binaries of \(BrowserCatalog.ids.joined(separator: ", ")). \
                        Name the browsers to install for with --browser.
                        """)
                }
                notes.append("found: \(browsers.map(\.id).joined(separator: ", "))")
            }
        }
        if request.userDataDir != nil {
            if request.system { throw CLIFailure("--user-data-dir and --system exclude each other") }
            let firefoxFamily = browsers.filter { $0.family == .firefox }
            if !firefoxFamily.isEmpty {
                throw CLIFailure("--user-data-dir is for Chromium-family browsers; \(firefoxFamily.map(\.id).joined(separator: ", ")) has no such folder")
            }
        }
        return browsers
    }

    /// The extension IDs each family's manifest allows. Refuses a family among the targets
    /// with no IDs; drops (and says so) the IDs of a family with no browser among them.
    private static func allowLists(_ request: InstallRequest, browsers: [Browser], notes: inout [String]) throws(CLIFailure) -> [BrowserFamily: [String]] {
        var allowed: [BrowserFamily: [String]] = [.chromium: request.chromeOrigins, .firefox: request.firefoxAddons]
        for family in BrowserFamily.allCases {
            let members = browsers.filter { $0.family == family }
            if !members.isEmpty, allowed[family]!.isEmpty {
                throw CLIFailure("""
                    installing for \(members.map(\.displayName).joined(separator: ", ")) needs the extension's ID: \
                    add \(family.idOption) ID\(family == .chromium ? " (32 letters a-p, from chrome://extensions)" : " (name@domain or {GUID}, from about:debugging)"), \
                    or choose the browsers with --browser
                    """)
            }
            if members.isEmpty, !allowed[family]!.isEmpty {
                notes.append("\(family.idOption) ignored: no \(family.displayName) browser among the targets")
                allowed[family] = []
            }
        }
        return allowed
    }

    /// The manifest path of each browser, in order, with the browsers that read it. Several
    /// browsers may share a folder (Chrome's system folder serves Brave too).
    private static func manifestFiles(_ request: InstallRequest, browsers: [Browser], environment: CLIEnvironment) -> [(path: String, browsers: [Browser])] {
        var byPath: [(path: String, browsers: [Browser])] = []
        for browser in browsers {
            let folder: String
            if let userDataDir = request.userDataDir {
                folder = Path.join(environment.absolute(userDataDir), Browser.userDataHostFolder)
            } else if request.system {
                folder = browser.systemHostFolders(in: environment)[0]
            } else {
                folder = browser.userHostFolder(in: environment)
            }
            let path = Path.join(folder, request.hostName + ".json")
            if let index = byPath.firstIndex(where: { $0.path == path }) {
                byPath[index].browsers.append(browser)
            } else {
                byPath.append((path, [browser]))
            }
        }
        return byPath
    }

    /// What to write at each path, and what to do with the file already there. Refuses, naming
    /// them all, files install may not replace.
    private static func installTargets(
        _ files: [(path: String, browsers: [Browser])], request: InstallRequest, allowed: [BrowserFamily: [String]], record: InstallRecord?
    ) throws(CLIFailure) -> [InstallTarget] {
        var targets: [InstallTarget] = []
        var conflicts: [String] = []
        for (path, sharing) in files {
            let manifest = HostManifest(name: request.hostName, path: request.binaryPath, family: sharing[0].family, allowed: allowed[sharing[0].family]!)
            let content = manifest.rendered()
            let recorded = record?.files.first { $0.path == path }
            guard let action = action(at: path, content: content, recorded: recorded, force: request.force) else {
                conflicts.append(path)
                continue
            }
            targets.append(InstallTarget(path: path, browsers: sharing, content: content, action: action))
        }
        if !conflicts.isEmpty {
            throw CLIFailure("""
                not replacing \(conflicts.count == 1 ? "a file" : "files") that install did not write (or that changed since): \
                \(conflicts.joined(separator: ", ")). Look at \(conflicts.count == 1 ? "it" : "them") first; --force replaces \
                \(conflicts.count == 1 ? "it" : "them"), and uninstall then puts the old content back.
                """)
        }
        return targets
    }

    /// What to do with the file at `path`, which should hold `content`; nil when it is a file
    /// install may not replace (someone else's, or changed since) and `force` is off.
    private static func action(at path: String, content: [UInt8], recorded: InstallRecord.File?, force: Bool) -> InstallTarget.Action? {
        guard let status = FileSystem.status(path) else { return .create }
        let existing = FileSystem.read(path)
        if existing == content {
            return .unchanged(recorded: recorded != nil)
        } else if let recorded, let existing, existing == Array(recorded.content.utf8) {
            return .update
        } else if force, let recorded, recorded.replaced == nil {
            return .repair
        } else if force {
            // Recorded with a `replaced`: install --force'd a foreign file before, and
            // apply keeps that first one, the file to put back.
            return .replace(previous: existing ?? [], mode: status.mode)
        }
        return nil
    }

    /// Warnings about what will be written that refuse nothing: system folders other users
    /// cannot enter, named browsers not found here, sandboxed browsers.
    private static func closingNotes(
        _ request: InstallRequest, browsers: [Browser], targets: [InstallTarget], environment: CLIEnvironment, record: InstallRecord?
    ) -> [String] {
        var notes: [String] = []
        if request.system {
            for folder in Set(targets.map { Path.parent($0.path) }).sorted() {
                if let warning = SystemReach.manifestFolderBarrier(folder, systemRoot: environment.systemRoot, reopened: Set(record?.folders ?? [])) {
                    notes.append(warning)
                }
            }
        }
        // Named with --browser but not on this machine: written anyway (the browser may come
        // later, or live where detection does not look), and said so.
        if request.userDataDir == nil {
            for browser in unique(request.browsers) where !BrowserDetection.presence(of: browser, in: environment).isInstalled {
                notes.append("""
                    note: \(browser.id) (\(browser.displayName)) was not found on this machine (no profile, binary, Snap or Flatpak); \
                    its manifest is written anyway, for when it is installed. Until then `wallet-bridge doctor` reports it as NOT INSTALLED; \
                    `wallet-bridge uninstall --browser \(browser.id)` removes the file.
                    """)
            }
        }
        for browser in browsers where BrowserDetection.presence(of: browser, in: environment).isSandboxed {
            notes.append("\(browser.displayName) is a Snap or Flatpak here: it cannot start hosts on its own; `wallet-bridge doctor` says what it needs")
        }
        return notes
    }

    /// Writes the plan's files and records them. The record is saved even when a write fails
    /// half-way, so uninstall still knows what did get written.
    static func apply(_ plan: InstallPlan, recordPath: String, record: inout InstallRecord) throws(FileSystemError) -> [String] {
        var lines: [String] = []
        var failure: FileSystemError?
        var reopened: Set<String> = []
        for target in plan.targets {
            let label = "\(target.path) (\(target.browsers.map(\.id).joined(separator: ", ")))"
            // Folders an earlier install created under a restrictive umask (before folders got
            // an explicit mode): install made them, so install may open them.
            if let mode = plan.folderMode {
                let folder = Path.parent(target.path)
                for created in Set(record.folders).sorted() where (created == folder || folder.hasPrefix(created + "/")) && !reopened.contains(created) {
                    guard let status = FileSystem.status(created), status.kind == .directory, status.mode != UInt32(mode) else { continue }
                    if chmod(created, mode) == 0 {
                        reopened.insert(created)
                        lines.append("made \(created) readable by every user (0\(String(mode, radix: 8)))")
                    }
                }
            }
            let index = record.files.firstIndex { $0.path == target.path }
            if case .unchanged(let recorded) = target.action {
                if let index {
                    record.files[index].browsers = merged(record.files[index].browsers, target.browsers)
                    // A record from before these fields existed gets them now.
                    record.files[index].system = plan.system ? true : nil
                    record.files[index].userDataDir = plan.userDataDir
                }
                lines.append("unchanged \(label)" + (recorded ? "" : "; not written by install, so uninstall will leave it"))
                continue
            }
            do {
                record.folders += try FileSystem.makeDirectories(Path.parent(target.path), mode: plan.folderMode)
                try FileSystem.writeAtomically(target.path, contents: target.content, mode: 0o644)
            } catch {
                failure = error
                break
            }
            var entry = index.map { record.files[$0] }
                ?? InstallRecord.File(path: target.path, browsers: [], content: "", replaced: nil)
            entry.content = String(decoding: target.content, as: UTF8.self)
            entry.browsers = merged(entry.browsers, target.browsers)
            entry.system = plan.system ? true : nil
            entry.userDataDir = plan.userDataDir
            switch target.action {
            case .create: lines.append("wrote \(label)")
            case .update: lines.append("updated \(label)")
            case .repair: lines.append("replaced \(label); install wrote it and it had changed since, so uninstall removes it")
            case .replace(let previous, let mode):
                // Keep the first replaced content: that is what was there before any install.
                if entry.replaced == nil { entry.replaced = .init(content: .init(previous), mode: mode) }
                lines.append("replaced \(label); uninstall puts the previous file back")
            case .unchanged: break
            }
            if let index { record.files[index] = entry } else { record.files.append(entry) }
        }
        try record.save(to: recordPath)
        if let failure { throw failure }
        return lines
    }

    private static func unique(_ browsers: [Browser]) -> [Browser] {
        var seen: Set<String> = []
        return browsers.filter { seen.insert($0.id).inserted }
    }

    private static func merged(_ ids: [String], _ browsers: [Browser]) -> [String] {
        Array(Set(ids + browsers.map(\.id))).sorted()
    }
}
