#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

extension Browser: ExpressibleByArgument {
    init?(argument: String) {
        guard let browser = BrowserCatalog.named(argument) else { return nil }
        self = browser
    }

    static var allValueStrings: [String] { BrowserCatalog.ids }

    /// Shell completion offers the browser names (ArgumentParser lists values by itself only
    /// for CaseIterable types).
    static var defaultCompletionKind: CompletionKind { .list(BrowserCatalog.ids) }
}

/// `wallet-bridge install`: writes the host manifest where each browser looks for it.
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Write the host manifest where each browser looks for it.",
        discussion: """
            Per-user by default: ~/.mozilla, ~/.librewolf and Tor Browser's own folder for the Firefox family, \
            $XDG_CONFIG_HOME (default ~/.config) for the Chrome family. Re-running is safe: \
            unchanged files are left alone. Every file written is recorded in \
            $XDG_STATE_HOME/wallet-bridge/installed.json, and `wallet-bridge uninstall` removes \
            exactly those.
            """
    )

    @Option(name: .customLong("browser"), help: "Install for this browser (repeatable). Default: every browser found.")
    var browsers: [Browser] = []

    @Option(
        name: .customLong("chrome-extension"),
        help: ArgumentHelp(
            "A Chrome-family extension allowed to connect: its 32-letter ID or chrome-extension://ID/ (repeatable).",
            valueName: "id"))
    var chromeExtensions: [String] = []

    @Option(
        name: .customLong("firefox-addon"),
        help: ArgumentHelp(
            "A Firefox-family add-on allowed to connect: name@domain or {GUID} (repeatable).", valueName: "id"))
    var firefoxAddons: [String] = []

    @Flag(help: "Write to the system-wide folders (needs root) instead of the user's.")
    var system = false

    @Option(
        help: ArgumentHelp(
            "Stage the system-wide manifests under DIR for a package (DIR/etc/..., DIR/usr/lib/...), naming --binary as installed; records nothing. Without --browser: every browser with a system-wide folder, of each family given an ID.",
            valueName: "dir"), completion: .directory)
    var root: String?

    @Option(
        help: ArgumentHelp(
            "For a Chromium-family browser started with --user-data-dir: write to DIR/NativeMessagingHosts/.",
            valueName: "dir"), completion: .directory)
    var userDataDir: String?

    @Option(
        name: .customLong("browser-dir"),
        help: ArgumentHelp(
            "Also write into this manifest folder, for a browser of that family that wallet-bridge does not know: chromium:DIR or firefox:DIR, DIR absolute (repeatable). Alone, only these folders.",
            valueName: "family:dir"), transform: BrowserDir.option)
    var browserDirs: [BrowserDir] = []

    @Flag(
        help:
            "Write inside the browsers' Flatpak sandboxes: a manifest and a flatpak-spawn wrapper in ~/.var/app/<id>/. Prints the flatpak override the browser then needs; never runs it."
    )
    var flatpak = false

    @Option(help: "The host name: lowercase letters, digits and _, in dot-separated segments.")
    var name = ManifestIdentifiers.defaultHostName

    @Option(
        help: ArgumentHelp(
            "The host binary the manifest points to. Default: for the wallet's name, this wallet-bridge binary; for another --name, the binary recorded for it (required when none is).",
            valueName: "path"), completion: .file())
    var binary: String?

    @Option(
        help: ArgumentHelp(
            "The manifest's \"description\", one line. Default: the wallet's own text for the wallet-bridge binary, else \"NAME: a native messaging host (BINARY'S FILE NAME)\".",
            valueName: "text"))
    var description: String?

    @Flag(help: "Print the files that would be written, and write nothing.")
    var dryRun = false

    @Flag(help: "Replace manifests that install did not write; uninstall restores them.")
    var force = false

    func validate() throws {
        if let conflict = Installer.flatpakConflict(
            flatpak: flatpak, system: system, userDataDir: userDataDir, browserDirs: !browserDirs.isEmpty)
        {
            throw ValidationError(conflict)
        }
        if root != nil {
            if flatpak {
                throw ValidationError(
                    "--root and --flatpak exclude each other: --root stages the system-wide manifests, which no Flatpak reads"
                )
            }
            if userDataDir != nil {
                throw ValidationError(
                    "--root and --user-data-dir exclude each other: --root stages the system-wide manifests")
            }
        }
    }

    func run() throws {
        try execute(environment: .current())
    }

    func execute(environment: CLIEnvironment) throws {
        if let root { return try stage(under: environment.absolute(root), environment: environment) }
        var request = InstallRequest(
            browsers: browsers,
            system: system,
            userDataDir: userDataDir,
            browserDirs: browserDirs,
            flatpak: flatpak,
            chromeOrigins: try chromeExtensions.map(ManifestIdentifiers.chromeOrigin(from:)),
            firefoxAddons: try firefoxAddons.map(ManifestIdentifiers.firefoxAddonID(from:)),
            hostName: name,
            binaryPath: "",
            description: description,
            force: force
        )
        let recordPath = InstallRecord.location(in: environment)
        var record = try InstallRecord.load(from: recordPath) ?? InstallRecord()
        (request.binaryPath, request.walletOnPurpose) = try Self.hostBinary(
            binary, hostName: name, record: record, environment: environment)
        // A host installed for one more browser keeps the description chosen for it before,
        // as long as it still starts the same binary: one host, one text in every manifest.
        if description == nil, let recorded = record.hosts[name], recorded.binary == request.binaryPath {
            request.description = recorded.description
        }
        let plan = try Installer.plan(request, environment: environment, record: record)
        for note in plan.notes { Console.err(note) }

        if dryRun {
            for target in plan.targets {
                if case .unchanged = target.action {
                    Console.out("unchanged \(target.label)")
                    continue
                }
                Console.out("would write \(target.label)\(target.isWrapper ? ", mode 0755" : ""):")
                Console.write(target.content)
            }
            Console.out(
                "would record the files, and host \(plan.hostName) as \(JSONText.quoted(plan.host.binary)) described \(JSONText.quoted(plan.host.description)), in \(recordPath)"
            )
            printFlatpakPermissions(plan.flatpakApps)
            return
        }
        do {
            for line in try Installer.apply(plan, recordPath: recordPath, record: &record) { Console.out(line) }
        } catch {
            throw CLIFailure(
                "\(error)" + (request.system && error.code == EACCES ? " (system-wide folders need root)" : ""))
        }
        // The doctor command that checks what was just installed: plain `doctor` checks the
        // wallet's own name, and would say all is well about another host it never looked at.
        let doctor =
            ["wallet-bridge", "doctor"] + (name == ManifestIdentifiers.defaultHostName ? [] : ["--name", name])
            + (system ? ["--system"] : [])
        Console.out("recorded in \(recordPath); check with: \(doctor.map(Shell.quoted).joined(separator: " "))")
        printFlatpakPermissions(plan.flatpakApps)
    }

    /// `--root DIR`: the system-wide manifests under DIR, for a package; no record (StagedInstall).
    private func stage(under root: String, environment: CLIEnvironment) throws {
        try StagedInstall.checkRoot(root)
        let request = InstallRequest(
            browsers: browsers,
            system: true,
            browserDirs: browserDirs,
            chromeOrigins: try chromeExtensions.map(ManifestIdentifiers.chromeOrigin(from:)),
            firefoxAddons: try firefoxAddons.map(ManifestIdentifiers.firefoxAddonID(from:)),
            hostName: name,
            binaryPath: try StagedInstall.installedBinary(binary, root: root),
            description: description
        )
        let plan = try StagedInstall.plan(request, root: root)
        for note in plan.notes { Console.err(note) }
        if dryRun {
            for target in plan.targets {
                Console.out("would write \(target.label):")
                Console.write(target.content)
            }
            return
        }
        do {
            for line in try StagedInstall.write(plan, root: root) { Console.out(line) }
        } catch {
            throw CLIFailure("\(error)")
        }
        Console.err(
            "staged for \(request.binaryPath) under \(root); nothing recorded: the package that ships these files removes them"
        )
    }

    /// What each Flatpak still needs, which only the user may grant: install never runs it.
    private func printFlatpakPermissions(_ apps: [String]) {
        for app in apps {
            Console.out(
                """
                \(app) can start the host only once it may talk to Flatpak on the host, which lets it run any command \
                outside its sandbox. If you accept that, run:
                  \(FlatpakWrapper.overrideCommand(app))
                """)
        }
    }

    /// The binary the manifests of `hostName` start, and whether it is the wallet named on
    /// purpose for a name other than the wallet's. For the wallet's own name, `--binary` or
    /// this binary. For any other name, `--binary`, else the binary recorded for that name
    /// (`InstallRecord.binary(of:)`), else a refusal: this binary is the wallet, and a custom
    /// host's manifest starts it only when the user names it.
    static func hostBinary(_ argument: String?, hostName: String, record: InstallRecord, environment: CLIEnvironment)
        throws(CLIFailure) -> (String, walletOnPurpose: Bool)
    {
        guard hostName != ManifestIdentifiers.defaultHostName else {
            return (try resolveBinary(argument, environment: environment), false)
        }
        // A malformed name is refused as such (by the plan), not for a binary it lacks.
        if ManifestIdentifiers.hostNameProblem(hostName) != nil {
            return (try resolveBinary(argument, environment: environment), false)
        }
        if argument != nil {
            let path = try resolveBinary(argument, environment: environment)
            return (path, InstallRequest.namesTheWallet(path))
        }
        guard let recorded = record.binary(of: hostName) else {
            throw CLIFailure(
                """
                --name \(hostName) needs --binary PATH, the host's own program: no binary is recorded for \(hostName), and this \
                wallet-bridge, install's default, is the wallet (com.walletbridge.host), no other host
                """)
        }
        guard FileSystem.status(recorded)?.kind == .file, FileSystem.accessible(recorded, X_OK) else {
            throw CLIFailure(
                """
                --name \(hostName): its recorded binary \(recorded) is gone (or not executable): rebuild it there, or give \
                its new place with --binary PATH
                """)
        }
        return (recorded, record.hosts[hostName]?.wallet == true)
    }

    /// The binary the manifest names: absolute, existing, a regular file with an exec bit.
    /// A path given with --binary keeps its symbolic links (an upgrade may move their target);
    /// the default is what the kernel says this process runs.
    static func resolveBinary(_ argument: String?, environment: CLIEnvironment) throws(CLIFailure) -> String {
        let path: String
        if let argument {
            path = environment.absolute(argument)
        } else if let own = FileSystem.currentExecutable() {
            path = own
        } else {
            throw CLIFailure("cannot tell this binary's path from /proc/self/exe; give it with --binary")
        }
        guard let status = FileSystem.status(path) else { throw CLIFailure("--binary \(path): no such file") }
        guard status.kind == .file else { throw CLIFailure("--binary \(path): not a regular file") }
        guard status.mode & 0o111 != 0 else {
            throw CLIFailure("--binary \(path): not executable; browsers could not start it (chmod +x \(path))")
        }
        return path
    }
}
