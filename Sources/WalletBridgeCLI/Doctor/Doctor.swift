import WalletBridge
#if canImport(Glibc)
import Glibc
#endif

/// What `doctor` looks at.
struct DoctorOptions: Sendable {
    var hostName = ManifestIdentifiers.defaultHostName
    /// Only these browsers; empty means all.
    var browsers: [Browser] = []
    /// Chromium `--user-data-dir` folders the user runs a browser with.
    var userDataDirs: [String] = []
    /// Manifest folders of browsers the catalogue does not know (`--browser-dir`).
    var browserDirs: [BrowserDir] = []
    /// Check only the system-wide folders, each once, as every user's browser reads them.
    var system = false
    var timeout: Duration = .seconds(5)
    /// Start each host to see that it answers.
    var probe = true
}

/// Finds every manifest for the host in every folder a browser reads, checks each, and gives
/// each browser a verdict.
enum Doctor {
    private struct Location {
        var folder: String
        var scope: String
    }

    /// What one run knows of the machine, and the manifests it has checked so far: a file
    /// several browsers read is checked (and its host started) once per family.
    private struct Survey {
        let options: DoctorOptions
        let environment: CLIEnvironment
        let presences: [String: BrowserPresence]
        let installed: [Browser]
        /// What install wrote (read only): its IDs make suggested commands complete, and its
        /// --user-data-dir manifests are checked like the folders named with --user-data-dir.
        let record: InstallRecord?
        var checked: [String: (faults: [DoctorFault], answer: String?)] = [:]

        init(options: DoctorOptions, environment: CLIEnvironment) {
            self.options = options
            self.environment = environment
            let presences = Dictionary(
                uniqueKeysWithValues: BrowserCatalog.all.map {
                    ($0.id, BrowserDetection.presence(of: $0, in: environment))
                })
            self.presences = presences
            installed = BrowserCatalog.all.filter { presences[$0.id]!.isInstalled }
            record = (try? InstallRecord.load(from: InstallRecord.location(in: environment))) ?? nil
        }

        func locations(of browser: Browser) -> [Location] {
            browser.userHostFolders(in: environment).map { Location(folder: $0, scope: "user") }
                + browser.systemHostFolders(in: environment).map { Location(folder: $0, scope: "system") }
        }

        /// Installed browsers that read `folder`: a manifest anywhere else reaches nobody.
        func readers(of folder: String) -> [Browser] {
            installed.filter { browser in locations(of: browser).contains { $0.folder == folder } }
        }

        /// The install target for `browser`: `--flatpak` for a browser that is only a Flatpak.
        func installTarget(_ browser: Browser) -> [String] {
            ["--browser", browser.id] + (presences[browser.id]!.isFlatpakOnly ? ["--flatpak"] : [])
        }

        /// Whether any folder `browser` reads (its Flatpaks' sandboxes included) holds a
        /// manifest for the host.
        func hasManifest(_ browser: Browser) -> Bool {
            let hostName = options.hostName
            let folders =
                locations(of: browser).map(\.folder)
                + presences[browser.id]!.flatpak.map { browser.flatpakHostFolder(appID: $0.id, in: environment) }
            return folders.contains { !Doctor.candidates(in: $0, hostName: hostName).isEmpty }
        }

        /// A manifest for the host in a folder of `family` that no installed browser reads: what
        /// an install command for a browser without one takes the IDs and the binary from.
        func unreadManifest(of family: BrowserFamily) -> String? {
            for browser in BrowserCatalog.all where browser.family == family && !presences[browser.id]!.isInstalled {
                for location in locations(of: browser) where readers(of: location.folder).isEmpty {
                    if let path = Doctor.candidates(in: location.folder, hostName: options.hostName).first {
                        return path
                    }
                }
            }
            return nil
        }

        /// Checks the manifest at `path` as a browser of `family` reads it. `probe: false` for a
        /// manifest whose host only starts inside a sandbox (a Flatpak's wrapper).
        mutating func check(_ path: String, family: BrowserFamily, scope: String, target: [String], probe: Bool = true)
            -> ManifestReport
        {
            let key = "\(family.rawValue):\(path)"
            if checked[key] == nil {
                checked[key] = ManifestCheck(
                    path: path, family: family, hostName: options.hostName, inUserFolder: scope != "system",
                    environment: environment, timeout: options.timeout, probe: options.probe && probe, record: record,
                    installTarget: target + (scope == "system" ? ["--system"] : []),
                    forEveryUser: options.system
                ).run()
            }
            return ManifestReport(path: path, scope: scope, faults: checked[key]!.faults, answer: checked[key]!.answer)
        }
    }

    static func run(_ options: DoctorOptions, environment: CLIEnvironment) -> DoctorReport {
        var survey = Survey(options: options, environment: environment)
        var reports: [BrowserReport] = []
        if options.system {
            reports = systemFolderReports(survey: &survey)
        } else {
            let userDataDirs = userDataDirsToCheck(survey)
            for browser in selectedBrowsers(options) {
                reports.append(browserReport(browser, survey: &survey))
            }
            for directory in userDataDirs {
                reports.append(userDataDirReport(directory, survey: &survey))
            }
        }
        for browserDir in browserDirsToCheck(survey) {
            reports.append(browserDirReport(browserDir, survey: &survey))
        }
        var report = DoctorReport(hostName: options.hostName, browsers: reports)
        // Verifying a system-wide install (a .deb's) fails when there is nothing to verify.
        report.requiresManifest = options.system
        return report
    }

    /// Every folder `run` reads manifests in, in order: what `--fix-paths` may rewrite. Not
    /// the Flatpak sandboxes: a manifest there names a wrapper, never the binary itself.
    static func foldersToCheck(_ options: DoctorOptions, environment: CLIEnvironment) -> [String] {
        let survey = Survey(options: options, environment: environment)
        var folders: [String] = []
        if options.system {
            folders = systemFolders(survey).map(\.folder)
        } else {
            folders =
                selectedBrowsers(options).flatMap { survey.locations(of: $0).map(\.folder) }
                + userDataDirsToCheck(survey).map { Path.join($0, Browser.userDataHostFolder) }
        }
        folders += browserDirsToCheck(survey).map(\.folder)
        return folders.enumerated().filter { index, folder in !folders[..<index].contains(folder) }.map(\.element)
    }

    private static func selectedBrowsers(_ options: DoctorOptions) -> [Browser] {
        options.browsers.isEmpty ? BrowserCatalog.all : options.browsers
    }

    /// The system-wide folders of the selected browsers, each once, with every browser that
    /// reads it (Chrome's serves its channels and Brave's).
    private static func systemFolders(_ survey: Survey) -> [(folder: String, readers: [Browser])] {
        var folders: [(folder: String, readers: [Browser])] = []
        for browser in selectedBrowsers(survey.options) {
            for folder in browser.systemHostFolders(in: survey.environment) {
                if let index = folders.firstIndex(where: { $0.folder == folder }) {
                    folders[index].readers.append(browser)
                } else {
                    folders.append((folder, [browser]))
                }
            }
        }
        return folders
    }

    /// `doctor --system`: one verdict per system-wide folder, whoever is installed here. A
    /// package (a .deb) writes these for every user and every browser, so a manifest there is
    /// checked as every user's browser meets it, never demoted for a browser that is missing.
    private static func systemFolderReports(survey: inout Survey) -> [BrowserReport] {
        let hostName = survey.options.hostName
        var reports: [BrowserReport] = []
        for (folder, readers) in systemFolders(survey) {
            var manifests: [ManifestReport] = []
            if let denied = folderDenied(folder, hostName: hostName) {
                manifests.append(ManifestReport(path: folder, scope: "system", faults: [denied], answer: nil))
            }
            for path in candidates(in: folder, hostName: hostName) {
                manifests.append(
                    survey.check(
                        path, family: readers[0].family, scope: "system", target: ["--browser", readers[0].id]))
            }
            reports.append(
                BrowserReport(
                    browser: readers.map(\.id).joined(separator: ","),
                    name: "System folder \(folder) (\(readers.map(\.displayName).joined(separator: ", ")))",
                    verdict: manifests.isEmpty
                        ? .notInstalled : manifests.contains(where: \.hasProblem) ? .problem : .ok,
                    browserFound: false, evidence: "", summary: manifests.isEmpty ? "no \(hostName).json here" : nil,
                    manifests: manifests, advice: []))
        }
        return reports
    }

    /// The folders named with --browser-dir, then those install --browser-dir wrote into.
    private static func browserDirsToCheck(_ survey: Survey) -> [BrowserDir] {
        var browserDirs = survey.options.browserDirs
        for file in survey.record?.files ?? [] where Path.fileName(file.path) == survey.options.hostName + ".json" {
            guard let folder = file.browserDir, let family = file.family else { continue }
            // In --system mode, only the folders install --system --browser-dir wrote.
            if survey.options.system && file.system != true { continue }
            let recorded = BrowserDir(family: family, folder: folder)
            if !browserDirs.contains(recorded) { browserDirs.append(recorded) }
        }
        return browserDirs
    }

    /// The verdict for a folder named with --browser-dir: checked as its family's browsers read it.
    private static func browserDirReport(_ browserDir: BrowserDir, survey: inout Survey) -> BrowserReport {
        let hostName = survey.options.hostName
        var manifests: [ManifestReport] = []
        if let denied = folderDenied(browserDir.folder, hostName: hostName) {
            manifests.append(
                ManifestReport(path: browserDir.folder, scope: "browser-dir", faults: [denied], answer: nil))
        }
        for path in candidates(in: browserDir.folder, hostName: hostName) {
            manifests.append(
                survey.check(
                    path, family: browserDir.family, scope: "browser-dir",
                    target: ["--browser-dir", browserDir.argument]))
        }
        return BrowserReport(
            browser: "browser-dir", name: "\(browserDir.family.displayName) browser reading \(browserDir.folder)",
            verdict: manifests.isEmpty ? .notInstalled : manifests.contains(where: \.hasProblem) ? .problem : .ok,
            browserFound: false, evidence: "",
            summary: manifests.isEmpty ? "no \(hostName).json in \(browserDir.folder)" : nil,
            manifests: manifests, advice: [])
    }

    /// The folders named with --user-data-dir, then those install wrote a manifest into:
    /// a `NativeMessagingHosts` folder that is none of the browsers' own.
    private static func userDataDirsToCheck(_ survey: Survey) -> [String] {
        let hostName = survey.options.hostName
        var userDataDirs = survey.options.userDataDirs.map(survey.environment.absolute)
        let knownFolders = Set(BrowserCatalog.all.flatMap { survey.locations(of: $0).map(\.folder) })
        // A --browser-dir or a Flatpak's folder may end in NativeMessagingHosts too: those are
        // checked as what they are, not as a --user-data-dir.
        for file in survey.record?.files ?? []
        where Path.fileName(file.path) == hostName + ".json" && file.browserDir == nil && file.flatpak == nil {
            let folder = Path.parent(file.path)
            guard !knownFolders.contains(folder), Path.fileName(folder) == Browser.userDataHostFolder else { continue }
            let directory = Path.parent(folder)
            if !userDataDirs.contains(directory) { userDataDirs.append(directory) }
        }
        return userDataDirs
    }

    /// One browser's verdict, from the manifests in the folders it reads.
    private static func browserReport(_ browser: Browser, survey: inout Survey) -> BrowserReport {
        let options = survey.options
        let presence = survey.presences[browser.id]!
        let inSandbox = flatpakReports(for: browser, presence: presence, survey: &survey)
        let sandboxReady = !inSandbox.isEmpty && !inSandbox.contains(where: \.hasProblem)
        let manifests =
            manifestReports(for: browser, presence: presence, flatpakReady: sandboxReady, survey: &survey) + inSandbox
        var summary: String?
        let verdict: BrowserReport.Verdict
        if manifests.isEmpty {
            verdict = .notInstalled
            let folders = survey.locations(of: browser).map(\.folder).joined(separator: ", ")
            let command = installCommand(
                survey.installTarget(browser), family: browser.family, hostName: options.hostName,
                record: survey.record,
                manifest: survey.unreadManifest(of: browser.family), copy: true)
            summary =
                presence.isInstalled
                ? "browser found, but no \(options.hostName).json in \(folders); add it with: \(command)"
                : "browser not found"
        } else if !presence.isInstalled {
            verdict = .notInstalled
            summary = "browser not found; a manifest for it is in place, see below"
        } else {
            verdict = manifests.contains(where: \.hasProblem) ? .problem : .ok
        }
        return BrowserReport(
            browser: browser.id, name: browser.displayName, verdict: verdict, browserFound: presence.isInstalled,
            evidence: presence.evidence, summary: summary, manifests: manifests,
            advice: SandboxAdvice.advice(
                for: browser, presence: presence, hostName: options.hostName, environment: survey.environment,
                hostArguments: hostArguments(hostName: options.hostName, record: survey.record, manifest: nil))
        )
    }

    /// The manifests `install --flatpak` wrote inside the sandbox of each Flatpak of `browser`
    /// found here. Their host is a wrapper that works only inside the sandbox, so they are
    /// checked as files (fields, IDs, the wrapper there and executable), never started.
    private static func flatpakReports(for browser: Browser, presence: BrowserPresence, survey: inout Survey)
        -> [ManifestReport]
    {
        var apps: [String] = []
        for flatpak in presence.flatpak where !apps.contains(flatpak.id) { apps.append(flatpak.id) }
        return apps.flatMap { app in
            candidates(
                in: browser.flatpakHostFolder(appID: app, in: survey.environment), hostName: survey.options.hostName
            ).map { path in
                survey.check(
                    path, family: browser.family, scope: "flatpak", target: ["--browser", browser.id, "--flatpak"],
                    probe: false)
            }
        }
    }

    /// Every manifest (and every folder it cannot be read in) among the folders `browser` reads.
    private static func manifestReports(
        for browser: Browser, presence: BrowserPresence, flatpakReady: Bool, survey: inout Survey
    ) -> [ManifestReport] {
        let hostName = survey.options.hostName
        var manifests: [ManifestReport] = []
        for location in survey.locations(of: browser) {
            let readBy = survey.readers(of: location.folder)
            // A folder shared with an installed browser is reported under that browser.
            if !presence.isInstalled && !readBy.isEmpty { continue }
            let expected = Path.join(location.folder, hostName + ".json")
            if var denied = folderDenied(location.folder, hostName: hostName) {
                if readBy.isEmpty { denied.severity = .warning }
                manifests.append(
                    ManifestReport(path: location.folder, scope: location.scope, faults: [denied], answer: nil))
            }
            for path in candidates(in: location.folder, hostName: hostName) {
                // Browsers open <host>.json only: beside it, another file carrying the
                // host's name is never read. It is clutter, not a broken manifest.
                if path != expected && FileSystem.exists(expected) {
                    manifests.append(
                        ManifestReport(
                            path: path, scope: location.scope, faults: [strayFile(path, expected: expected)],
                            answer: nil))
                    continue
                }
                manifests.append(
                    checkedManifest(
                        path, browser: browser, presence: presence, scope: location.scope, readByNobody: readBy.isEmpty,
                        flatpakReady: flatpakReady, survey: &survey))
            }
        }
        return manifests
    }

    /// Checks one manifest for `browser`, adding what the manifest's place means: a folder no
    /// installed browser reads, a browser that is only a Flatpak.
    private static func checkedManifest(
        _ path: String, browser: Browser, presence: BrowserPresence, scope: String, readByNobody: Bool,
        flatpakReady: Bool, survey: inout Survey
    ) -> ManifestReport {
        var report = survey.check(path, family: browser.family, scope: scope, target: ["--browser", browser.id])
        if readByNobody {
            // No browser on this machine reads it: whatever is wrong inside cannot
            // break anything today. Worth a note, never a failing verdict.
            report.faults = report.faults.map {
                var fault = $0; fault.severity = .warning; return fault
            }
            // The package writes a manifest for every browser it knows, read or not: that is
            // by design, and dpkg's file is not the user's to remove.
            if !isFromThePackage(path, environment: survey.environment) {
                report.faults.insert(wrongFolder(path, browser: browser, survey: survey), at: 0)
            }
        }
        if presence.isFlatpakOnly,
            var sandbox = flatpakFault(browser, presence: presence, environment: survey.environment)
        {
            if flatpakReady {
                // The Flatpak reads its own manifest (checked below): this one is only clutter.
                sandbox.severity = .warning
                sandbox.message += "; it reads the manifest install --flatpak wrote inside its sandbox instead (below)"
                sandbox.fix =
                    "remove this one if nothing else uses it: \(uninstallCommand(["--browser", browser.id], hostName: survey.options.hostName))"
            }
            report.faults.insert(sandbox, at: 0)
        }
        return report
    }

    /// The verdict for a Chromium-family browser run with `--user-data-dir=directory`.
    private static func userDataDirReport(_ directory: String, survey: inout Survey) -> BrowserReport {
        let hostName = survey.options.hostName
        let folder = Path.join(directory, Browser.userDataHostFolder)
        let manifests = candidates(in: folder, hostName: hostName).map {
            survey.check($0, family: .chromium, scope: "user-data-dir", target: ["--user-data-dir", directory])
        }
        return BrowserReport(
            browser: "user-data-dir", name: "Chromium-family browser with --user-data-dir=\(directory)",
            verdict: manifests.isEmpty ? .notInstalled : manifests.contains(where: \.hasProblem) ? .problem : .ok,
            browserFound: false, evidence: "", summary: manifests.isEmpty ? "no \(hostName).json in \(folder)" : nil,
            manifests: manifests, advice: []
        )
    }

    /// `<host>.json`, plus any other `.json` whose "name" is the host's: a manifest under the
    /// wrong file name is the classic "host not found".
    static func candidates(in folder: String, hostName: String) -> [String] {
        let expected = hostName + ".json"
        // A folder that may be entered but not listed (mode 0711): the browser still opens
        // <host>.json by name.
        if case .failure = FileSystem.listing(folder) {
            return FileSystem.status(Path.join(folder, expected)) != nil ? [Path.join(folder, expected)] : []
        }
        return FileSystem.list(folder).filter { name in
            guard name.hasSuffix(".json") else { return false }
            if name == expected { return true }
            let path = Path.join(folder, name)
            return (try? BrowserJSON.load(path))?.manifest.string("name") == hostName
        }.map { Path.join(folder, $0) }
    }

    /// Where xdg-native-messaging-proxy is installed, if it is.
    private static func nativeMessagingProxy(_ environment: CLIEnvironment) -> String? {
        [
            "/usr/libexec/xdg-native-messaging-proxy", "/usr/lib/xdg-native-messaging-proxy",
            "/usr/lib/systemd/user/xdg-native-messaging-proxy.service",
        ].map(environment.system).first(where: FileSystem.exists)
    }

    /// A browser installed only as a Flatpak sees none of the ordinary folders. Only
    /// xdg-native-messaging-proxy can bridge that, and only for the folders it searches.
    private static func flatpakFault(_ browser: Browser, presence: BrowserPresence, environment: CLIEnvironment)
        -> DoctorFault?
    {
        guard let flatpak = presence.flatpak.first else { return nil }
        let sees = Path.join(environment.home, ".var/app/\(flatpak.id)")
        if browser.proxySearchesFolders, let proxy = nativeMessagingProxy(environment) {
            return DoctorFault(
                check: "sandbox", severity: .warning,
                message:
                    "\(browser.displayName) is only a Flatpak (\(flatpak.id)): it reaches this manifest only through xdg-native-messaging-proxy (\(proxy)), which searches this folder",
                fix:
                    "make sure the proxy runs in your session (systemctl --user enable --now xdg-native-messaging-proxy.service) and that this Flatpak uses it; see the note below"
            )
        }
        let why =
            browser.proxySearchesFolders
            ? "xdg-native-messaging-proxy, which would search this folder, is not installed"
            : "xdg-native-messaging-proxy searches only the Google Chrome, Chromium and Mozilla folders, not this one"
        return DoctorFault(
            check: "sandbox", severity: .problem,
            message:
                "\(browser.displayName) is only a Flatpak (\(flatpak.id)): inside its sandbox it sees \(sees)/, not this manifest, and \(why)",
            fix: "see the note below: the proxy, or a manifest and wrapper inside the sandbox")
    }

    /// A manifest folder that exists but that this user may not enter: the browser, run by the
    /// same user, cannot open the manifest in it either. A folder that can be entered but not
    /// listed still lets the browser open <host>.json by name, so that is checked as usual.
    private static func folderDenied(_ folder: String, hostName: String) -> DoctorFault? {
        guard case .failure(let error) = FileSystem.listing(folder), error.code == EACCES else { return nil }
        let expected = Path.join(folder, hostName + ".json")
        guard FileSystem.statError(expected) == EACCES else { return nil }
        let blocked = FileSystem.untraversableAncestor(of: expected) ?? folder
        return DoctorFault(
            check: "unreadable",
            severity: .problem,
            message:
                "permission denied: you (uid \(getuid())) may not enter \(blocked)/, so neither can your browser; whatever manifest is in \(folder)/ is out of its reach",
            fix: "chmod 755 \(Shell.quoted(blocked))   (as its owner, or with sudo for a system folder)")
    }

    private static func strayFile(_ path: String, expected: String) -> DoctorFault {
        DoctorFault(
            check: "stray-file", severity: .warning,
            message:
                "another file with the host's \"name\"; browsers never open it (they open \(Path.fileName(expected)), which is here)",
            fix: "remove it if nothing else uses it: rm \(Shell.quoted(path))")
    }

    /// True when dpkg lists `path` as a file of the wallet-bridge package (scripts/package-deb.sh).
    static func isFromThePackage(_ path: String, environment: CLIEnvironment) -> Bool {
        let list = Path.join(environment.systemRoot, "var/lib/dpkg/info/wallet-bridge.list")
        guard let bytes = FileSystem.read(list, limit: 1 << 20) else { return false }
        let relative =
            environment.systemRoot == "/" ? path : "/" + path.dropFirst(environment.systemRoot.count).drop { $0 == "/" }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").contains { $0 == relative }
    }

    /// A manifest no installed browser reads: who lacks one and would read it in their own
    /// folder (the installed browsers of its family without a manifest for the host), the
    /// command that writes theirs, and the one that removes this.
    private static func wrongFolder(_ path: String, browser: Browser, survey: Survey) -> DoctorFault {
        let environment = survey.environment, options = survey.options, record = survey.record
        let lacking = survey.installed.filter { $0.family == browser.family && !survey.hasManifest($0) }
        // Our own file goes with uninstall (which keeps the record right); anyone else's by hand.
        let remove =
            record?.files.contains { $0.path == path && $0.browsers.contains(browser.id) } == true
            ? uninstallCommand(["--browser", browser.id], hostName: options.hostName)
            : "rm \(Shell.quoted(path))"
        var lines: [String] = []
        for other in lacking {
            let command = installCommand(
                survey.installTarget(other), family: other.family, hostName: options.hostName, record: record,
                manifest: path, copy: true)
            lines.append(
                "\(other.displayName) reads \(other.userHostFolder(in: environment))/; install for it with: \(command)")
        }
        lines.append("if you do not use \(browser.displayName), remove this manifest: \(remove)")
        var message =
            "\(browser.displayName) is not installed, and no installed browser reads \(Path.parent(path))/: this manifest reaches nobody"
        if !lacking.isEmpty {
            let names = lacking.map(\.displayName)
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!
            message +=
                "; \(list) \(names.count == 1 ? "is" : "are") installed and \(names.count == 1 ? "has" : "have") no \(options.hostName).json"
        }
        return DoctorFault(
            check: "wrong-folder", severity: .warning, message: message, fix: lines.joined(separator: "\n"))
    }

    static var executable: String { Shell.quoted(FileSystem.currentExecutable() ?? "wallet-bridge") }

    /// An install command that works as printed and starts the program the manifest is for:
    /// the IDs come from `manifest` when it names well-formed ones, else from what install
    /// recorded for this family; `ID` only when neither knows any. The host's own `--name`,
    /// `--binary` and `--description` follow (`hostArguments`), so that running it never
    /// points a manifest at another program than its host's.
    /// `manifest` gives the IDs; its "path" is a candidate `--binary` only when `copy` says it
    /// is a copy elsewhere (a wrong-folder one), never for the manifest under report, whose
    /// program may be the wrong one. `avoiding`: a program never to name (the one found behind
    /// a manifest that starts the wrong host).
    static func installCommand(
        _ target: [String], family: BrowserFamily, hostName: String, record: InstallRecord?, manifest: String? = nil,
        copy: Bool = false,
        avoiding: String? = nil
    ) -> String {
        func wellFormed(_ id: String) -> Bool {
            family == .chromium
                ? ManifestIdentifiers.originProblem(id) == nil : ManifestIdentifiers.addonIDProblem(id) == nil
        }
        var ids: [String] = []
        if let manifest, let loaded = try? BrowserJSON.load(manifest) {
            ids = (loaded.manifest.strings(family.allowKey) ?? []).filter(wellFormed)
        }
        if ids.isEmpty {
            // The file at this very path first, then the rest, in record order.
            let files =
                (record?.files ?? []).filter { $0.path == manifest }
                + (record?.files ?? []).filter { $0.path != manifest }
            for file in files where Path.fileName(file.path) == hostName + ".json" {
                guard case .object(let members)? = try? JSONParser.parse(Array(file.content.utf8)),
                    case .array(let entries)? = members[family.allowKey]
                else { continue }
                for case .string(let id) in entries where wellFormed(id) && !ids.contains(id) { ids.append(id) }
            }
        }
        var words = ["install"] + target
        if ids.isEmpty { words += [family.idOption, "ID"] } else { for id in ids { words += [family.idOption, id] } }
        words += hostArguments(
            hostName: hostName, record: record, manifest: copy && !target.contains("--flatpak") ? manifest : nil,
            avoiding: avoiding)
        return ([executable] + words.map(Shell.quoted)).joined(separator: " ")
    }

    /// The `--name`, `--binary` and `--description` an install (or uninstall) command needs to
    /// keep the host what it is. `--binary`: what the record names for the host, else what the
    /// manifest names, when that is an executable file; left out only for the wallet's own name
    /// when that binary is this one (install's default); `PATH` when nothing names one. A
    /// suggested command must never make a manifest start another program (this wallet,
    /// say) than the one it was installed for.
    static func hostArguments(hostName: String, record: InstallRecord?, manifest: String?, avoiding: String? = nil)
        -> [String]
    {
        var words: [String] = []
        if hostName != ManifestIdentifiers.defaultHostName { words += ["--name", hostName] }
        let binary = hostBinary(hostName: hostName, record: record, manifest: manifest, avoiding: avoiding)
        if let binary {
            if hostName != ManifestIdentifiers.defaultHostName || binary != FileSystem.currentExecutable() {
                words += ["--binary", binary]
            }
        } else if hostName != ManifestIdentifiers.defaultHostName {
            words += ["--binary", "PATH"]
        }
        if let recorded = record?.hosts[hostName],
            recorded.description
                != InstallRequest.defaultDescription(hostName: hostName, binary: binary ?? recorded.binary)
        {
            words += ["--description", recorded.description]
        }
        return words
    }

    /// The `uninstall` arguments that take back only this host's files.
    static func uninstallCommand(_ target: [String], hostName: String) -> String {
        ([executable] + (["uninstall"] + target + ["--name", hostName]).map(Shell.quoted)).joined(separator: " ")
    }

    /// The binary for `hostName`: the one install recorded for it (`InstallRecord.binary(of:)`),
    /// then the one `manifest` (a copy) names, then one a recorded manifest names (Flatpak
    /// wrappers aside); nil when none of them is an executable file. Never `avoiding`, and,
    /// for a host name other than the wallet's, never the wallet unless the record says the
    /// user chose it: a suggested command must not make a custom host start the wallet.
    static func hostBinary(hostName: String, record: InstallRecord?, manifest: String?, avoiding: String? = nil)
        -> String?
    {
        func usable(_ path: String?) -> String? {
            guard let path, path.hasPrefix("/"), FileSystem.status(path)?.kind == .file,
                FileSystem.accessible(path, X_OK)
            else { return nil }
            if let avoiding, FileSystem.sameFile(path, avoiding) { return nil }
            return path
        }
        func executableFile(_ path: String?) -> String? {
            guard let path = usable(path) else { return nil }
            if hostName != ManifestIdentifiers.defaultHostName, InstallRequest.namesTheWallet(path) { return nil }
            return path
        }
        if let found = usable(record?.binary(of: hostName)) { return found }
        if let manifest, let found = executableFile((try? BrowserJSON.load(manifest))?.manifest.string("path")) {
            return found
        }
        for file in record?.files(of: hostName) ?? [] {
            if let found = executableFile(file.hostManifest?.string("path")) { return found }
        }
        return nil
    }
}
