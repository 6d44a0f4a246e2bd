import ArgumentParser

/// `wallet-bridge uninstall`: removes what install recorded, and nothing else.
struct UninstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove the manifests (and folders) that install wrote.",
        discussion: """
            Reads the install record ($XDG_STATE_HOME/wallet-bridge/installed.json). Without \
            --name, every host recorded is uninstalled (each host install --name wrote, the \
            wallet's and others'); --name NAME takes back only that host's files. A manifest \
            changed since install is kept, with a warning, unless --force. Folders install \
            created are removed once empty. Exits 1 when a file was kept, or when a --name has \
            nothing recorded (after taking back the rest).
            """
    )

    @Option(
        name: .customLong("browser"),
        help: "Uninstall only for this browser (repeatable). Default: everything recorded.")
    var browsers: [Browser] = []

    @Option(
        name: .customLong("browser-dir"),
        help: ArgumentHelp(
            "Uninstall only what install --browser-dir wrote into this folder: chromium:DIR or firefox:DIR (repeatable).",
            valueName: "family:dir"), transform: BrowserDir.option)
    var browserDirs: [BrowserDir] = []

    @Flag(
        help:
            "Uninstall what install --flatpak wrote inside Flatpak sandboxes (of the --browser browsers, or all) instead of the ordinary manifests."
    )
    var flatpak = false

    @Option(
        help: ArgumentHelp(
            "Uninstall only this host (repeatable): its manifests (and Flatpak wrappers), no other host's. Default: every host recorded.",
            valueName: "name"))
    var name: [String] = []

    @Flag(help: "Remove recorded manifests even if they changed since install.")
    var force = false

    @Flag(help: "Print what would be removed, and remove nothing.")
    var dryRun = false

    func validate() throws {
        for host in name {
            if let problem = ManifestIdentifiers.hostNameProblem(host) { throw ValidationError("--name: \(problem)") }
        }
    }

    func run() throws {
        try execute(environment: .current())
    }

    func execute(environment: CLIEnvironment) throws {
        let recordPath = InstallRecord.location(in: environment)
        guard var record = try InstallRecord.load(from: recordPath) else {
            // A host named with --name that was never installed is an error, as `rm` says of a
            // file that is not there; the rest is done (there is nothing).
            guard name.isEmpty else {
                throw CLIFailure(
                    "nothing recorded for --name \(name.joined(separator: ", ")): no install record at \(recordPath)")
            }
            Console.out("nothing to uninstall: no install record at \(recordPath)")
            return
        }
        let selection = Uninstaller.Selection(
            browsers: browsers, browserDirs: browserDirs, flatpak: flatpak, hostNames: name)
        var outcome = Uninstaller.run(selection, force: force, dryRun: dryRun, record: &record, recordPath: recordPath)
        for line in outcome.lines { Console.out(line) }
        let unknown =
            outcome.unknownNames.isEmpty
            ? nil
            : CLIFailure(
                "nothing recorded for --name \(outcome.unknownNames.joined(separator: ", "))"
                    + (record.hostNames.isEmpty ? "" : "; recorded: \(record.hostNames.joined(separator: ", "))"))
        if dryRun {
            if let unknown { throw unknown }
            return
        }
        do {
            try record.save(to: recordPath)
        } catch {
            throw CLIFailure("cannot update the install record: \(error)")
        }
        if record.isEmpty { Console.out("nothing left installed; removed \(recordPath)") }
        outcome.lines = []
        Uninstaller.removeFoldersLeftForTheRecord(&outcome)
        for line in outcome.lines { Console.out(line) }
        if !outcome.kept.isEmpty {
            Console.warning("kept \(outcome.kept.count) file(s); see above")
            if unknown == nil { throw ExitCode.failure }
        }
        if let unknown { throw unknown }
    }
}
