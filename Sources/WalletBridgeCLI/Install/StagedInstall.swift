/// `install --root DIR`: the manifests `install --system` writes, staged under DIR for a package
/// (a .deb, an RPM, an Arch package) to ship: DIR/etc/chromium/native-messaging-hosts/NAME.json
/// and so on, naming the binary where the package installs it.
///
/// Unlike every other install, it records nothing and touches nothing outside DIR: once the
/// package is installed its files belong to the package manager, which removes them, and the
/// binary named need not exist on this machine. DIR is the packager's own folder, so a file
/// already staged there is replaced without `--force`.
enum StagedInstall {
    /// The files to stage, and notes for the user. Without `--browser` (and without
    /// `--browser-dir`): every browser that reads a system-wide folder, of each family given an
    /// ID, so that a package for a Chrome-only extension stages no Firefox manifests.
    static func plan(_ request: InstallRequest, root: String) throws(CLIFailure) -> InstallPlan {
        if let problem = ManifestIdentifiers.hostNameProblem(request.hostName) { throw CLIFailure("--name: \(problem)") }
        if let description = request.description, let problem = Installer.descriptionProblem(description) {
            throw CLIFailure("--description: \(problem)")
        }
        var notes: [String] = []
        let families = BrowserFamily.allCases.filter { !ids(request, $0).isEmpty }
        var browsers = request.browsers.reduce(into: [Browser]()) { if !$0.contains($1) { $0.append($1) } }
        if browsers.isEmpty && request.browserDirs.isEmpty {
            guard !families.isEmpty else {
                throw CLIFailure("""
                    --root needs the extensions the package allows: --chrome-extension ID (32 letters a-p) and/or \
                    --firefox-addon ID (name@domain or {GUID}), each repeatable
                    """)
            }
            browsers = BrowserCatalog.all.filter { !$0.systemHostFolders.isEmpty && families.contains($0.family) }
        }
        if let own = browsers.first(where: \.systemHostFolders.isEmpty) {
            throw CLIFailure("--root: \(own.displayName) reads manifests only inside its own folder, not the system-wide ones; a package cannot serve it (leave out --browser \(own.id))")
        }
        var targets: [InstallTarget] = []
        func add(_ path: String, family: BrowserFamily, browsers: [Browser], browserDir: BrowserDir?) throws(CLIFailure) {
            if let index = targets.firstIndex(where: { $0.path == path }) {
                targets[index].browsers += browsers.filter { !targets[index].browsers.contains($0) }
                return
            }
            let allowed = ids(request, family)
            guard !allowed.isEmpty else {
                throw CLIFailure("""
                    --root: staging for \(browsers.map(\.displayName).first ?? "the \(family.displayName) folder \(browserDir?.folder ?? "")") \
                    needs the extension's ID: add \(family.idOption) ID, or leave out the \(family.displayName) browsers
                    """)
            }
            let content = HostManifest(name: request.hostName, description: request.manifestDescription, path: request.binaryPath, family: family, allowed: allowed).rendered()
            let action: InstallTarget.Action = switch FileSystem.read(path) {
            case nil: .create
            case content?: .unchanged(recorded: false)
            default: .update
            }
            targets.append(InstallTarget(path: path, browsers: browsers, content: content, action: action, system: true, browserDir: browserDir))
        }
        let fileName = request.hostName + ".json"
        for browser in browsers {
            // The first system-wide folder, as `install --system` writes.
            try add(Path.join(Path.join(root, browser.systemHostFolders[0]), fileName), family: browser.family, browsers: [browser], browserDir: nil)
        }
        for browserDir in request.browserDirs {
            try add(Path.join(Path.join(root, browserDir.folder), fileName), family: browserDir.family, browsers: [], browserDir: browserDir)
        }
        for family in BrowserFamily.allCases where !ids(request, family).isEmpty && !targets.contains(where: { manifestFamily($0) == family }) {
            notes.append("\(family.idOption) ignored: no \(family.displayName) browser among the targets")
        }
        return InstallPlan(targets: targets, notes: notes, folderMode: 0o755)
    }

    /// Writes the plan's files under the root: folders 0755 and manifests 0644 whatever the
    /// umask, as a package ships them. Returns install's lines ("wrote …", "unchanged …").
    static func write(_ plan: InstallPlan) throws(FileSystemError) -> [String] {
        var lines: [String] = []
        for target in plan.targets {
            switch target.action {
            case .unchanged: lines.append("unchanged \(target.label)")
            default:
                _ = try FileSystem.makeDirectories(Path.parent(target.path), mode: plan.folderMode)
                try FileSystem.writeAtomically(target.path, contents: target.content, mode: 0o644)
                lines.append("\(target.action == .create ? "wrote" : "updated") \(target.label)")
            }
        }
        return lines
    }

    /// Refuses a `--binary` that cannot be the installed path: relative, or inside DIR itself
    /// (the staged copy, not where the package puts it). It need not exist here.
    static func installedBinary(_ argument: String?, root: String) throws(CLIFailure) -> String {
        guard let argument else {
            throw CLIFailure("--root needs --binary: the absolute path where the package installs the host, such as /usr/bin/notes-host")
        }
        guard argument.hasPrefix("/") else {
            throw CLIFailure("--binary \(argument): with --root, give the absolute path where the package installs the host, such as /usr/bin/\(Path.fileName(argument))")
        }
        let path = Path.normalized(argument)
        if path == root || path.hasPrefix(root == "/" ? "/" : root + "/") {
            let installed = "/" + path.dropFirst(root.count).drop { $0 == "/" }
            throw CLIFailure("--binary \(path) is inside --root \(root): name the path as installed, \(installed), not the staged copy")
        }
        return path
    }

    private static func ids(_ request: InstallRequest, _ family: BrowserFamily) -> [String] {
        family == .chromium ? request.chromeOrigins : request.firefoxAddons
    }

    private static func manifestFamily(_ target: InstallTarget) -> BrowserFamily? {
        target.browserDir?.family ?? target.browsers.first?.family
    }
}
