#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeSystem

/// What the user asked `install` for, already validated.
struct InstallRequest: Sendable {
    /// Explicit `--browser` values; empty means every installed browser.
    var browsers: [Browser] = []
    var system = false
    var userDataDir: String?
    /// Folders named with `--browser-dir`, each with the family of the browser that reads it.
    var browserDirs: [BrowserDir] = []
    /// Write inside the browsers' Flatpak sandboxes (a manifest and a flatpak-spawn wrapper)
    /// instead of the ordinary folders.
    var flatpak = false
    var chromeOrigins: [String] = []
    var firefoxAddons: [String] = []
    var hostName = ManifestIdentifiers.defaultHostName
    var binaryPath: String
    /// For a host name other than the wallet's: the user named the wallet-bridge binary with
    /// `--binary` on purpose (or install took such a choice from the record). Recorded.
    var walletOnPurpose = false
    /// The manifests' "description"; nil for the default (`defaultDescription`).
    var description: String? = nil
    var force = false

    /// What the manifests say when `--description` is not given: the wallet's own text for the
    /// wallet-bridge binary, whatever the host name; for any other binary, a text naming the
    /// host and its binary, so that a browser's (or a person's) view of the manifest never
    /// calls another program a wallet.
    static func defaultDescription(hostName: String, binary: String) -> String {
        let program = Path.fileName(binary)
        return program == walletProgram
            ? HostManifest.defaultDescription : "\(hostName): a native messaging host (\(program))"
    }

    /// The file name of the wallet's own binary.
    static let walletProgram = "wallet-bridge"

    /// Whether `binary` is (as far as its path tells) the wallet-bridge wallet: a file named
    /// `wallet-bridge`, or the very binary running now.
    static func namesTheWallet(_ binary: String) -> Bool {
        if Path.fileName(binary) == walletProgram { return true }
        guard let own = FileSystem.currentExecutable() else { return false }
        return FileSystem.sameFile(binary, own)
    }

    var manifestDescription: String {
        description ?? Self.defaultDescription(hostName: hostName, binary: binaryPath)
    }
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
    /// 0644 for a manifest; 0755 for a Flatpak wrapper script, which the browser executes.
    var mode: mode_t = 0o644
    /// Recorded with the file, for doctor and uninstall: how it was installed.
    var system = false
    var userDataDir: String? = nil
    var browserDir: BrowserDir? = nil
    var flatpak: String? = nil
    var isWrapper = false

    /// The path and whom the file serves, as install's output names it.
    var label: String {
        var serves = browsers.map(\.id)
        if let browserDir { serves.append("--browser-dir \(browserDir.family.rawValue)") }
        if let flatpak { serves.append("Flatpak \(flatpak)" + (isWrapper ? ", wrapper script" : "")) }
        return "\(path) (\(serves.joined(separator: ", ")))"
    }
}

struct InstallPlan: Sendable {
    var targets: [InstallTarget]
    /// Lines for the user that are not about a file: what was detected, what was ignored.
    var notes: [String]
    /// The mode of the folders install creates: 0755 for the system-wide ones, which browsers
    /// run by every user must enter; nil (the umask decides) for the user's own.
    var folderMode: mode_t? = nil
    /// The Flatpak apps written for, in order: each needs a permission only the user may give.
    var flatpakApps: [String] = []
    /// The host name, and the binary and description its manifests name: recorded as such.
    var hostName = ManifestIdentifiers.defaultHostName
    var host = InstallRecord.Host(binary: "", description: HostManifest.defaultDescription)
}

/// Where one manifest goes, and whom it serves (also `install --root`'s, StagedInstall).
struct Placement {
    var path: String
    var family: BrowserFamily
    var browsers: [Browser]
    var system = false
    var userDataDir: String? = nil
    var browserDir: BrowserDir? = nil
    /// For `--flatpak`: the app, and the wrapper script the manifest names instead of the binary.
    var flatpak: String? = nil
    var wrapper: String? = nil
}

enum Installer {
    /// Works out every file, and refuses (before anything is written) what cannot be done.
    static func plan(_ request: InstallRequest, environment: CLIEnvironment, record: InstallRecord?) throws(CLIFailure)
        -> InstallPlan
    {
        var notes = try checkNameAndBinary(request)
        let browsers = try chooseBrowsers(request, environment: environment, notes: &notes)
        let allowed = try allowLists(request, browsers: browsers, notes: &notes)
        let placements = manifestPlacements(request, browsers: browsers, environment: environment)
        let targets = try installTargets(placements, request: request, allowed: allowed, record: record)
        notes += closingNotes(request, browsers: browsers, targets: targets, environment: environment, record: record)
        var apps: [String] = []
        for case let app? in placements.map(\.flatpak) where !apps.contains(app) { apps.append(app) }
        return InstallPlan(
            targets: targets, notes: notes, folderMode: request.system ? 0o755 : nil, flatpakApps: apps,
            hostName: request.hostName,
            host: InstallRecord.Host(
                binary: request.binaryPath, description: request.manifestDescription,
                wallet: request.walletOnPurpose ? true : nil))
    }

    /// Refuses a malformed host name, and a `--system` binary other users could not start;
    /// returns the warnings about the binary that do not refuse it.
    private static func checkNameAndBinary(_ request: InstallRequest) throws(CLIFailure) -> [String] {
        var notes: [String] = []
        if let problem = ManifestIdentifiers.hostNameProblem(request.hostName) {
            throw CLIFailure("--name: \(problem)")
        }
        if let description = request.description, let problem = descriptionProblem(description) {
            throw CLIFailure("--description: \(problem)")
        }
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
    /// `--user-data-dir`, else none for `--browser-dir` (its folders are the targets), else
    /// every browser found here (as a Flatpak, for `--flatpak`). Refuses the options where
    /// they mean nothing.
    private static func chooseBrowsers(_ request: InstallRequest, environment: CLIEnvironment, notes: inout [String])
        throws(CLIFailure) -> [Browser]
    {
        try checkCombinations(request)
        var browsers = unique(request.browsers)
        if browsers.isEmpty {
            if request.userDataDir != nil {
                browsers = [BrowserCatalog.named("chromium")!]
            } else if !request.browserDirs.isEmpty {
                return []
            } else if request.flatpak {
                browsers = BrowserCatalog.all.filter {
                    !BrowserDetection.presence(of: $0, in: environment).flatpak.isEmpty
                }
                guard !browsers.isEmpty else {
                    let known = BrowserCatalog.all.filter { !$0.flatpakIDs.isEmpty }.map {
                        "\($0.id) (\($0.flatpakIDs.joined(separator: ", ")))"
                    }
                    throw CLIFailure(
                        """
                        --flatpak: no Flatpak browser found; looked for \(known.joined(separator: ", ")). \
                        Name the browser with --browser.
                        """)
                }
                notes.append("found as Flatpaks: \(browsers.map(\.id).joined(separator: ", "))")
            } else {
                browsers = BrowserDetection.installedBrowsers(in: environment)
                guard !browsers.isEmpty else {
                    throw CLIFailure(
                        """
                        no browser found: looked for the profile folders and binaries of \(BrowserCatalog.ids.joined(separator: ", ")). \
                        Name the browsers to install for with --browser.
                        """)
                }
                notes.append("found: \(browsers.map(\.id).joined(separator: ", "))")
                if request.system, browsers.contains(where: \.systemHostFolders.isEmpty) {
                    // Found, not asked for: leave it out rather than refuse the rest.
                    let own = browsers.filter(\.systemHostFolders.isEmpty)
                    notes.append(
                        "\(own.map(\.id).joined(separator: ", ")) left out: \(own.count == 1 ? "it reads" : "they read") manifests only in \(own.count == 1 ? "its" : "their") own folder, not the system-wide ones; install for \(own.count == 1 ? "it" : "them") without --system"
                    )
                    browsers.removeAll(where: \.systemHostFolders.isEmpty)
                }
            }
        }
        if request.system, let own = browsers.first(where: \.systemHostFolders.isEmpty) {
            throw CLIFailure(
                "--system: \(own.displayName) reads manifests only inside its own folder, not the system-wide ones; install for it without --system"
            )
        }
        if request.flatpak {
            for browser in browsers where browser.flatpakIDs.isEmpty {
                let known = BrowserCatalog.all.filter { !$0.flatpakIDs.isEmpty }.map(\.id)
                throw CLIFailure(
                    "--flatpak: \(browser.id) (\(browser.displayName)) has no Flatpak that wallet-bridge knows of; it knows those of \(known.joined(separator: ", "))"
                )
            }
        }
        if request.userDataDir != nil {
            if request.system { throw CLIFailure("--user-data-dir and --system exclude each other") }
            // Firefox has no per-profile manifest folder: whatever --profile it runs with, it
            // reads $HOME/.mozilla/native-messaging-hosts (LibreWolf and Tor Browser their own,
            // likewise per user). So with Chromium-family browsers beside them, the Firefox
            // family's manifests go to their usual folders; alone, --user-data-dir would mean
            // nothing, which is refused rather than ignored.
            let firefoxFamily = browsers.filter { $0.family == .firefox }
            if !firefoxFamily.isEmpty {
                let names = firefoxFamily.map(\.id).joined(separator: ", ")
                if firefoxFamily.count == browsers.count {
                    throw CLIFailure(
                        """
                        --user-data-dir names a Chromium-family browser's folder, and \(names) \(firefoxFamily.count == 1 ? "is" : "are") Firefox-family: \
                        Firefox has no per-profile manifest folder, it reads ~/.mozilla/native-messaging-hosts/ whatever --profile it \
                        runs with. Leave out --user-data-dir (for a private test profile, give install and the browser the same HOME)
                        """)
                }
                notes.append(
                    """
                    \(names): Firefox-family browsers read manifests from their per-user folder whatever profile they run with \
                    (there is no per-profile folder), so \(firefoxFamily.count == 1 ? "its manifest goes" : "theirs go") there; \
                    --user-data-dir is for the Chromium-family ones
                    """)
            }
        }
        return browsers
    }

    /// The longest `--description`, in characters: a line for a person, not a document.
    static let descriptionLimit = 500

    /// What is wrong with a `--description`, or nil: it must be one line of visible text that
    /// says something (browsers show it, and reject a manifest without one).
    static func descriptionProblem(_ description: String) -> String? {
        if description.allSatisfy(\.isWhitespace) { return "the description is empty" }
        if description.count > descriptionLimit {
            return "the description is \(description.count) characters long; at most \(descriptionLimit)"
        }
        // DisplayText's class: controls (a line break, a tab), format characters (bidi marks,
        // overrides and isolates, zero-width ones), the line and paragraph separators, and
        // the other invisible ones. Each moves, reorders or hides what a person is shown.
        if let hidden = description.unicodeScalars.first(where: DisplayText.isHidden) {
            let hex = String(hidden.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            return """
                the description contains \(code), a control, format or separator character (a line break, a tab, a bidi mark, a \
                zero-width character): write it as one line of visible text
                """
        }
        return nil
    }

    /// Options that exclude each other, refused before anything else is looked at.
    private static func checkCombinations(_ request: InstallRequest) throws(CLIFailure) {
        if let conflict = flatpakConflict(
            flatpak: request.flatpak, system: request.system, userDataDir: request.userDataDir,
            browserDirs: !request.browserDirs.isEmpty)
        {
            throw CLIFailure(conflict)
        }
    }

    /// Why `--flatpak` cannot go with the other options given, or nil. The command line's
    /// validation asks this too, so that a conflict is a usage error (status 64).
    static func flatpakConflict(flatpak: Bool, system: Bool, userDataDir: String?, browserDirs: Bool) -> String? {
        guard flatpak else { return nil }
        if system {
            return "--flatpak and --system exclude each other: a Flatpak reads manifests only inside its sandbox"
        }
        if userDataDir != nil { return "--flatpak and --user-data-dir exclude each other" }
        if browserDirs {
            return
                "--flatpak and --browser-dir exclude each other: --browser-dir names the folder itself, and --flatpak works out the folders inside each Flatpak"
        }
        return nil
    }

    /// The extension IDs each family's manifest allows. Refuses a family among the targets
    /// with no IDs; drops (and says so) the IDs of a family with no browser among them.
    static func allowLists(_ request: InstallRequest, browsers: [Browser], notes: inout [String]) throws(CLIFailure)
        -> [BrowserFamily: [String]]
    {
        var allowed: [BrowserFamily: [String]] = [.chromium: request.chromeOrigins, .firefox: request.firefoxAddons]
        for family in BrowserFamily.allCases {
            let members =
                browsers.filter { $0.family == family }.map(\.displayName)
                + request.browserDirs.filter { $0.family == family }.map {
                    "the \(family.displayName) folder \($0.folder)"
                }
            if !members.isEmpty, allowed[family]!.isEmpty {
                throw CLIFailure(
                    """
                    installing for \(members.joined(separator: ", ")) needs the extension's ID: \
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

    /// Where each manifest goes, in order, with the browsers that read it. Several browsers may
    /// share a folder (Chrome's system folder serves Brave too); Tor Browser may have several.
    static func manifestPlacements(_ request: InstallRequest, browsers: [Browser], environment: CLIEnvironment)
        -> [Placement]
    {
        let fileName = request.hostName + ".json"
        var placements: [Placement] = []
        func add(_ placement: Placement) {
            if let index = placements.firstIndex(where: { $0.path == placement.path }) {
                placements[index].browsers += placement.browsers.filter { browser in
                    !placements[index].browsers.contains(browser)
                }
                placements[index].browserDir = placements[index].browserDir ?? placement.browserDir
            } else {
                placements.append(placement)
            }
        }
        for browser in browsers {
            if request.flatpak {
                for app in flatpakApps(of: browser, environment: environment) {
                    add(
                        Placement(
                            path: Path.join(browser.flatpakHostFolder(appID: app, in: environment), fileName),
                            family: browser.family, browsers: [browser],
                            flatpak: app,
                            wrapper: FlatpakWrapper.path(appID: app, hostName: request.hostName, in: environment)))
                }
            } else if let userDataDir = request.userDataDir, browser.family == .chromium {
                let directory = environment.absolute(userDataDir)
                add(
                    Placement(
                        path: Path.join(Path.join(directory, Browser.userDataHostFolder), fileName),
                        family: browser.family, browsers: [browser], userDataDir: directory))
            } else if request.system {
                add(
                    Placement(
                        path: Path.join(browser.systemHostFolders(in: environment)[0], fileName),
                        family: browser.family, browsers: [browser], system: true))
            } else {
                for folder in browser.userHostFolders(in: environment) {
                    add(Placement(path: Path.join(folder, fileName), family: browser.family, browsers: [browser]))
                }
            }
        }
        for browserDir in request.browserDirs {
            add(
                Placement(
                    path: Path.join(browserDir.folder, fileName), family: browserDir.family, browsers: [],
                    system: request.system, browserDir: browserDir))
        }
        return placements
    }

    /// The Flatpak apps of `browser` to write into: those installed here, else (for a browser
    /// named with --browser) every one the catalogue knows, for when it is installed.
    private static func flatpakApps(of browser: Browser, environment: CLIEnvironment) -> [String] {
        let found = BrowserDetection.presence(of: browser, in: environment).flatpak.map(\.id)
        let apps = found.isEmpty ? browser.flatpakIDs : found
        return apps.enumerated().filter { index, app in !apps[..<index].contains(app) }.map(\.element)
    }

    /// What to write at each path, and what to do with the file already there. Refuses, naming
    /// them all, files install may not replace.
    static func installTargets(
        _ placements: [Placement], request: InstallRequest, allowed: [BrowserFamily: [String]], record: InstallRecord?
    ) throws(CLIFailure) -> [InstallTarget] {
        var targets: [InstallTarget] = []
        var conflicts: [String] = []
        for placement in placements {
            let manifest = HostManifest(
                name: request.hostName, description: request.manifestDescription,
                path: placement.wrapper ?? request.binaryPath,
                family: placement.family, allowed: allowed[placement.family]!)
            var files = [(path: placement.path, content: manifest.rendered(), mode: mode_t(0o644), isWrapper: false)]
            if let wrapper = placement.wrapper, let app = placement.flatpak {
                files.append((wrapper, FlatpakWrapper.script(binary: request.binaryPath, appID: app), 0o755, true))
            }
            for file in files {
                let recorded = record?.files.first { $0.path == file.path }
                guard
                    let action = action(
                        at: file.path, content: file.content, mode: file.mode, recorded: recorded, force: request.force)
                else {
                    conflicts.append(file.path)
                    continue
                }
                targets.append(
                    InstallTarget(
                        path: file.path, browsers: placement.browsers, content: file.content, action: action,
                        mode: file.mode,
                        system: placement.system, userDataDir: placement.userDataDir, browserDir: placement.browserDir,
                        flatpak: placement.flatpak, isWrapper: file.isWrapper))
            }
        }
        if !conflicts.isEmpty {
            throw CLIFailure(
                """
                not replacing \(conflicts.count == 1 ? "a file" : "files") that install did not write (or that changed since): \
                \(conflicts.joined(separator: ", ")). Look at \(conflicts.count == 1 ? "it" : "them") first; --force replaces \
                \(conflicts.count == 1 ? "it" : "them"), and uninstall then puts the old content back.
                """)
        }
        return targets
    }

    /// What to do with the file at `path`, which should hold `content`; nil when it is a file
    /// install may not replace (someone else's, or changed since) and `force` is off.
    private static func action(
        at path: String, content: [UInt8], mode: mode_t, recorded: InstallRecord.File?, force: Bool
    ) -> InstallTarget.Action? {
        guard let status = FileSystem.status(path) else { return .create }
        let existing = FileSystem.read(path)
        // A script that lost its exec bit is broken, whatever it says: rewritten like a changed file.
        let executable = mode & 0o111 == 0 || status.mode & 0o111 != 0
        if existing == content && executable {
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
        _ request: InstallRequest, browsers: [Browser], targets: [InstallTarget], environment: CLIEnvironment,
        record: InstallRecord?
    ) -> [String] {
        var notes: [String] = []
        // The same host's manifests elsewhere that still start another binary: the record now
        // names this one, so doctor reports them until they are installed again too.
        let written = Set(targets.map(\.path))
        var others: [String] = []
        for file in record?.files(of: request.hostName) ?? [] where !written.contains(file.path) {
            guard let path = file.hostManifest?.string("path"), path != request.binaryPath else { continue }
            others.append("\(file.path) (\(path))")
        }
        if let host = record?.hosts[request.hostName], !targets.isEmpty,
            !FileSystem.sameFile(host.binary, request.binaryPath)
        {
            let accidental = record?.binary(of: request.hostName) == nil
            notes.append(
                """
                note: \(request.hostName)'s binary changes from \(host.binary) to \(request.binaryPath)\
                \(accidental ? " (the record named the wallet-bridge wallet for it, which no --binary chose)" : "")
                """)
        }
        if !others.isEmpty {
            notes.append(
                """
                note: \(request.hostName) is now recorded with \(request.binaryPath), but \(others.count == 1 ? "its manifest" : "its manifests") \
                \(others.joined(separator: ", ")) still start\(others.count == 1 ? "s" : "") another binary; doctor reports \(others.count == 1 ? "it" : "them"), \
                and `\(Doctor.executable) doctor\(request.hostName == ManifestIdentifiers.defaultHostName ? "" : " --name \(Shell.quoted(request.hostName))") --fix-paths` \
                re-points \(others.count == 1 ? "it" : "them") at \(request.binaryPath)
                """)
        }
        if request.system {
            for folder in Set(targets.map { Path.parent($0.path) }).sorted() {
                if let warning = SystemReach.manifestFolderBarrier(
                    folder, systemRoot: environment.systemRoot, reopened: Set(record?.folders ?? []))
                {
                    notes.append(warning)
                }
            }
        }
        // Named with --browser but not on this machine: written anyway (the browser may come
        // later, or live where detection does not look), and said so.
        if request.userDataDir == nil && !request.flatpak {
            for browser in unique(request.browsers)
            where !BrowserDetection.presence(of: browser, in: environment).isInstalled {
                notes.append(
                    """
                    note: \(browser.id) (\(browser.displayName)) was not found on this machine (no profile, binary, Snap or Flatpak); \
                    its manifest is written anyway, for when it is installed. Until then `wallet-bridge doctor` reports it as NOT INSTALLED; \
                    `wallet-bridge uninstall --browser \(browser.id)` removes the file.
                    """)
            }
        }
        if request.flatpak {
            for browser in unique(request.browsers)
            where BrowserDetection.presence(of: browser, in: environment).flatpak.isEmpty {
                notes.append(
                    """
                    note: \(browser.id) (\(browser.displayName)) was not found as a Flatpak here (\(browser.flatpakIDs.joined(separator: ", "))); \
                    its files are written anyway, for when it is installed; `wallet-bridge uninstall --browser \(browser.id) --flatpak` removes them.
                    """)
            }
        } else if request.userDataDir == nil && !request.system {
            for browser in browsers where browser.userBase == .installFolder {
                if TorBrowserFolders.found(in: environment).isEmpty {
                    notes.append(
                        """
                        note: no \(browser.displayName) folder found (torbrowser-launcher's, or a ~/tor-browser*); the manifest goes where \
                        torbrowser-launcher unpacks it. For a copy elsewhere, name its manifest folder: --browser-dir \
                        firefox:/path/to/tor-browser/\(browser.userHostFolder)
                        """)
                }
                if let profile = SandboxAdvice.torBrowserAppArmorProfile(environment) {
                    notes.append(SandboxAdvice.torBrowserAppArmorNote(profile))
                }
            }
            for browser in browsers where BrowserDetection.presence(of: browser, in: environment).isSandboxed {
                notes.append(
                    "\(browser.displayName) is a Snap or Flatpak here: it cannot start hosts on its own; `wallet-bridge doctor` says what it needs"
                )
            }
        }
        return notes
    }

    /// Writes the plan's files and records them. The record is saved even when a write fails
    /// half-way, so uninstall still knows what did get written.
    static func apply(_ plan: InstallPlan, recordPath: String, record: inout InstallRecord) throws(FileSystemError)
        -> [String]
    {
        var lines: [String] = []
        var failure: FileSystemError?
        var reopened: Set<String> = []
        for target in plan.targets {
            let label = target.label
            // Folders an earlier install created under a restrictive umask (before folders got
            // an explicit mode): install made them, so install may open them.
            if let mode = plan.folderMode {
                let folder = Path.parent(target.path)
                for created in Set(record.folders).sorted()
                where (created == folder || folder.hasPrefix(created + "/")) && !reopened.contains(created) {
                    guard let status = FileSystem.status(created), status.kind == .directory,
                        status.mode != UInt32(mode)
                    else { continue }
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
                    describe(&record.files[index], as: target)
                }
                lines.append(
                    "unchanged \(label)" + (recorded ? "" : "; not written by install, so uninstall will leave it"))
                continue
            }
            do {
                record.folders += try FileSystem.makeDirectories(Path.parent(target.path), mode: plan.folderMode)
                try FileSystem.writeAtomically(target.path, contents: target.content, mode: target.mode)
            } catch {
                failure = error
                break
            }
            var entry =
                index.map { record.files[$0] }
                ?? InstallRecord.File(path: target.path, browsers: [], content: "", replaced: nil)
            entry.content = String(decoding: target.content, as: UTF8.self)
            entry.browsers = merged(entry.browsers, target.browsers)
            describe(&entry, as: target)
            switch target.action {
            case .create: lines.append("wrote \(label)")
            case .update: lines.append("updated \(label)")
            case .repair:
                lines.append("replaced \(label); install wrote it and it had changed since, so uninstall removes it")
            case .replace(let previous, let mode):
                // Keep the first replaced content: that is what was there before any install.
                if entry.replaced == nil { entry.replaced = .init(content: .init(previous), mode: mode) }
                lines.append("replaced \(label); uninstall puts the previous file back")
            case .unchanged: break
            }
            if let index { record.files[index] = entry } else { record.files.append(entry) }
        }
        if !plan.targets.isEmpty { record.hosts[plan.hostName] = plan.host }
        try record.save(to: recordPath)
        if let failure { throw failure }
        return lines
    }

    /// Records how `target` was installed. A `--browser-dir` folder keeps its folder even when a
    /// later install reaches the same file as a browser's own.
    private static func describe(_ entry: inout InstallRecord.File, as target: InstallTarget) {
        entry.system = target.system ? true : nil
        entry.userDataDir = target.userDataDir
        entry.flatpak = target.flatpak
        if let browserDir = target.browserDir {
            entry.browserDir = browserDir.folder
            entry.family = browserDir.family
        }
    }

    private static func unique(_ browsers: [Browser]) -> [Browser] {
        var seen: Set<String> = []
        return browsers.filter { seen.insert($0.id).inserted }
    }

    private static func merged(_ ids: [String], _ browsers: [Browser]) -> [String] {
        Array(Set(ids + browsers.map(\.id))).sorted()
    }
}
