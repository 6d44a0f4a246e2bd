import ArgumentParser

/// `wallet-bridge uninstall`: removes what install recorded, and nothing else.
struct UninstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall",
        abstract: "Remove the manifests (and folders) that install wrote.",
        discussion: """
            Reads the install record ($XDG_STATE_HOME/wallet-bridge/installed.json). A manifest \
            changed since install is kept, with a warning, unless --force. Folders install \
            created are removed once empty. Exits 1 when a file was kept.
            """
    )

    @Option(name: .customLong("browser"), help: "Uninstall only for this browser (repeatable). Default: everything recorded.")
    var browsers: [Browser] = []

    @Flag(help: "Remove recorded manifests even if they changed since install.")
    var force = false

    @Flag(help: "Print what would be removed, and remove nothing.")
    var dryRun = false

    func run() throws {
        try execute(environment: .current())
    }

    func execute(environment: CLIEnvironment) throws {
        let recordPath = InstallRecord.location(in: environment)
        guard var record = try InstallRecord.load(from: recordPath) else {
            Console.out("nothing to uninstall: no install record at \(recordPath)")
            return
        }
        let outcome = Uninstaller.run(browsers: browsers, force: force, dryRun: dryRun, record: &record)
        for line in outcome.lines { Console.out(line) }
        if dryRun { return }
        do {
            try record.save(to: recordPath)
        } catch {
            throw CLIFailure("cannot update the install record: \(error)")
        }
        if record.isEmpty { Console.out("nothing left installed; removed \(recordPath)") }
        if !outcome.kept.isEmpty {
            Console.warning("kept \(outcome.kept.count) file(s); see above")
            throw ExitCode.failure
        }
    }
}
