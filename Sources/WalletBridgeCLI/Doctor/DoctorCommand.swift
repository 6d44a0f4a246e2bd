import ArgumentParser
import FoundationEssentials

/// `wallet-bridge doctor`: why a browser does (not) find and start the host.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check, for every browser, that it finds the host manifest and can start the host.",
        discussion: """
            For each browser: is there a manifest where it looks, is it valid (name, path, type, \
            extension IDs, file owner and mode), and does the host answer a real request when \
            started exactly as that browser starts it: every host is asked rpc.discover, which \
            asks no one and changes nothing; the wallet (com.walletbridge.host) must answer \
            with its own document (title "wallet-bridge", listing NATIVE_GET_ACCOUNTS_METHOD), \
            and any other host must not. Commands doctor suggests keep each host's own --name, --binary and \
            --description (from the install record). Snap and Flatpak browsers get advice. \
            Exits 1 when any manifest found has a problem. --system checks only the system-wide \
            folders, as every user's browser reads them (a .deb's install), and also exits 1 when \
            it finds no manifest there.
            """
    )

    @Option(help: "The host name to look for: the wallet's by default.")
    var name = ManifestIdentifiers.defaultHostName

    @Option(name: .customLong("browser"), help: "Check only this browser (repeatable).")
    var browsers: [Browser] = []

    @Option(
        help: ArgumentHelp(
            "Also check DIR/NativeMessagingHosts, for a Chromium-family browser run with --user-data-dir (repeatable).",
            valueName: "dir"), completion: .directory)
    var userDataDir: [String] = []

    @Option(
        name: .customLong("browser-dir"),
        help: ArgumentHelp(
            "Also check this manifest folder, as a browser of that family reads it: chromium:DIR or firefox:DIR (repeatable).",
            valueName: "family:dir"), transform: BrowserDir.option)
    var browserDirs: [BrowserDir] = []

    @Flag(
        help:
            "Check only the system-wide folders (/etc/chromium, /etc/opt/chrome, /usr/lib/mozilla, ...), each once, as every user's browser reads them."
    )
    var system = false

    @Flag(
        help:
            "First re-point each manifest install wrote for the host whose \"path\" is gone (or names another program) at the binary install recorded for the host, never another; prints each change."
    )
    var fixPaths = false

    @Option(help: "Seconds to wait for each host's answer.")
    var timeout: Double = 5

    @Flag(help: "Do not start the hosts; check the files only.")
    var noProbe = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        if let problem = ManifestIdentifiers.hostNameProblem(name) { throw ValidationError("--name: \(problem)") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if system && !userDataDir.isEmpty {
            throw ValidationError("--system checks the system-wide folders only; --user-data-dir names a user's folder")
        }
    }

    func run() throws {
        let options = DoctorOptions(
            hostName: name, browsers: browsers, userDataDirs: userDataDir, browserDirs: browserDirs,
            system: system, timeout: .milliseconds(Int64((timeout * 1000).rounded())), probe: !noProbe
        )
        let environment = CLIEnvironment.current()
        var fixes: [PathFix]?
        if fixPaths {
            guard let binary = FileSystem.currentExecutable() else {
                throw CLIFailure("--fix-paths: cannot tell this binary's path from /proc/self/exe")
            }
            fixes = PathRepair.run(
                folders: Doctor.foldersToCheck(options, environment: environment), hostName: name, binary: binary,
                environment: environment)
        }
        var report = Doctor.run(options, environment: environment)
        report.fixed = fixes
        if !json, let fixes {
            for fix in fixes { Console.out(fix.line) }
            Console.out(fixes.isEmpty ? "no manifest names a binary that is gone" : "")
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Console.out(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            Console.out(report.text)
        }
        if !report.ok { throw ExitCode.failure }
    }
}
