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
            started exactly as that browser starts it. Snap and Flatpak browsers get advice. \
            Exits 1 when any manifest found has a problem.
            """
    )

    @Option(help: "The host name to look for.")
    var name = ManifestIdentifiers.defaultHostName

    @Option(name: .customLong("browser"), help: "Check only this browser (repeatable).")
    var browsers: [Browser] = []

    @Option(help: ArgumentHelp("Also check DIR/NativeMessagingHosts, for a Chromium-family browser run with --user-data-dir (repeatable).", valueName: "dir"), completion: .directory)
    var userDataDir: [String] = []

    @Option(help: "Seconds to wait for each host's answer.")
    var timeout: Double = 5

    @Flag(help: "Do not start the hosts; check the files only.")
    var noProbe = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func validate() throws {
        if let problem = ManifestIdentifiers.hostNameProblem(name) { throw ValidationError("--name: \(problem)") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let options = DoctorOptions(
            hostName: name, browsers: browsers, userDataDirs: userDataDir,
            timeout: .milliseconds(Int64((timeout * 1000).rounded())), probe: !noProbe
        )
        let report = Doctor.run(options, environment: .current())
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
