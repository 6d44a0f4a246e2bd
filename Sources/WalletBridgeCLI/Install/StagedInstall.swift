#if canImport(Glibc)
import Glibc
#endif

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
        if let problem = ManifestIdentifiers.hostNameProblem(request.hostName) {
            throw CLIFailure("--name: \(problem)")
        }
        if let description = request.description, let problem = Installer.descriptionProblem(description) {
            throw CLIFailure("--description: \(problem)")
        }
        var notes: [String] = []
        let families = BrowserFamily.allCases.filter { !ids(request, $0).isEmpty }
        var browsers = request.browsers.reduce(into: [Browser]()) { if !$0.contains($1) { $0.append($1) } }
        if browsers.isEmpty && request.browserDirs.isEmpty {
            guard !families.isEmpty else {
                throw CLIFailure(
                    """
                    --root needs the extensions the package allows: --chrome-extension ID (32 letters a-p) and/or \
                    --firefox-addon ID (name@domain or {GUID}), each repeatable
                    """)
            }
            browsers = BrowserCatalog.all.filter { !$0.systemHostFolders.isEmpty && families.contains($0.family) }
        }
        if let own = browsers.first(where: \.systemHostFolders.isEmpty) {
            throw CLIFailure(
                "--root: \(own.displayName) reads manifests only inside its own folder, not the system-wide ones; a package cannot serve it (leave out --browser \(own.id))"
            )
        }
        // Installer's own placement and manifests, as `install --system` with the system root
        // at DIR: each browser's first system-wide folder, one file per folder (Chrome's serves
        // Brave too), the --browser-dir folders under DIR. With no record, and --force: DIR is
        // the packager's, so a file already there is replaced.
        var staged = request
        staged.system = true
        staged.force = true
        staged.browserDirs = request.browserDirs.map {
            BrowserDir(family: $0.family, folder: Path.join(root, $0.folder))
        }
        let allowed = try Installer.allowLists(staged, browsers: browsers, notes: &notes)
        let placements = Installer.manifestPlacements(
            staged, browsers: browsers, environment: CLIEnvironment(variables: [:], systemRoot: root))
        let targets = try Installer.installTargets(placements, request: staged, allowed: allowed, record: nil)
        for target in targets {
            if let (link, destination) = symbolicLink(under: root, on: target.path) {
                throw CLIFailure(
                    """
                    --root: \(link) is a symbolic link (to \(destination)); a staged file must not be written through one: \
                    remove it, or stage into a new folder
                    """)
            }
        }
        return InstallPlan(
            targets: targets, notes: notes, folderMode: 0o755, hostName: request.hostName,
            host: InstallRecord.Host(binary: request.binaryPath, description: request.manifestDescription))
    }

    /// Refuses a DIR that is this machine's own /, as given or through symbolic links (a DIR
    /// that is a link to /, or /x/.. with /x a link): staging would write the system folders
    /// themselves, with no record for uninstall.
    static func checkRoot(_ root: String) throws(CLIFailure) {
        let machine =
            "that is this machine itself; install system-wide with --system, which records the files so that uninstall can remove them"
        if root == "/" { throw CLIFailure("--root /: \(machine)") }
        if resolved(root) == "/" { throw CLIFailure("--root \(root) is / through symbolic links: \(machine)") }
    }

    /// `path` with its symbolic links resolved as far as it exists; the rest as given.
    private static func resolved(_ path: String) -> String {
        var existing = path
        var rest: [String] = []
        while true {
            if let real = FileSystem.resolved(existing) { return rest.reversed().reduce(real) { Path.join($0, $1) } }
            if existing == "/" { return path }
            rest.append(Path.fileName(existing))
            existing = Path.parent(existing)
        }
    }

    /// The first symbolic link on the way from `root` (not included: DIR itself may be a link
    /// to the packager's folder) down to `path`, with where it points; nil when there is none.
    ///
    /// Checked (lstat), not walked with openat(O_NOFOLLOW): DIR is the packager's own folder,
    /// and whoever can change it between this check and the write can change what the package
    /// ships anyway (its binary). What the check stops is what does happen: a link left in a
    /// reused staging folder, or planted there, that would send the writes out of DIR. A
    /// descriptor-based walk would be a second copy of makeDirectories and AtomicFile.
    static func symbolicLink(under root: String, on path: String) -> (link: String, destination: String)? {
        var chain: [String] = []
        var current = path
        while current != root, current != "/", current != "." {
            chain.append(current)
            current = Path.parent(current)
        }
        for component in chain.reversed() {
            if let destination = FileSystem.linkTarget(component) { return (component, destination) }
        }
        return nil
    }

    /// Writes the plan's files under the root: folders 0755 and manifests 0644 whatever the
    /// umask, as a package ships them. Returns install's lines ("wrote …", "unchanged …").
    static func write(_ plan: InstallPlan, root: String) throws(FileSystemError) -> [String] {
        var lines: [String] = []
        for target in plan.targets {
            switch target.action {
            case .unchanged: lines.append("unchanged \(target.label)")
            default:
                // Again just before the write: a link made since the plan is refused too.
                if let (link, _) = symbolicLink(under: root, on: target.path) {
                    throw FileSystemError(operation: "stage a file through the symbolic link", path: link, code: ELOOP)
                }
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
            throw CLIFailure(
                "--root needs --binary: the absolute path where the package installs the host, such as /usr/bin/notes-host"
            )
        }
        guard argument.hasPrefix("/") else {
            throw CLIFailure(
                "--binary \(argument): with --root, give the absolute path where the package installs the host, such as /usr/bin/\(Path.fileName(argument))"
            )
        }
        let path = Path.normalized(argument)
        if path == root || path.hasPrefix(root == "/" ? "/" : root + "/") {
            let installed = "/" + path.dropFirst(root.count).drop { $0 == "/" }
            throw CLIFailure(
                "--binary \(path) is inside --root \(root): name the path as installed, \(installed), not the staged copy"
            )
        }
        return path
    }

    private static func ids(_ request: InstallRequest, _ family: BrowserFamily) -> [String] {
        family == .chromium ? request.chromeOrigins : request.firefoxAddons
    }
}
