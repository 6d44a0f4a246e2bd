import ArgumentParser
import WalletBridge
import WalletBridgeFixtures
import WalletBridgeSystem

/// `wallet-bridge conform`: fixture files (docs/fixtures.md) run against a host, as the
/// project's own suite runs them, for extension developers with methods of their own.
struct ConformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conform",
        abstract: "Run fixture files against a native host and report each case.",
        discussion: """
            Each case starts the host afresh, in its folder as a browser would (--host, \
            --manifest or --name; without them, this wallet-bridge binary), sends the case's input over \
            real pipes and compares the reply, then sends a sentinel request to prove that \
            nothing else was sent and that the host kept serving. A case's "args" are the host's \
            arguments; without them it gets none, or, when --manifest, --name, --as, --origin or \
            --addon-id names a caller, that browser's. A folder stands for every *.json file in \
            it but a README. The fixture format: docs/fixtures.md in the wallet-bridge \
            repository.

            Files run in the order named, and each file's cases in file order; what a host \
            writes to files persists for the cases after it. A file's "setup" cases run first, \
            once (with --filter too), and are not reported unless one fails, which fails the \
            file's cases. "{tmpdir}" in an "env" value is a folder made fresh for each file, \
            under $TMPDIR, and removed after its cases.

            A case whose reply matched is also checked against the host's own description \
            (rpc.discover, asked once): its params and result against the method's schemas, its \
            error code against the method's errors. --no-schema-check turns that off; a host \
            that does not answer rpc.discover gets a warning instead.

            Exit status: 0 when no case failed; 1 when one did; 2 when a fixture file cannot be \
            used (or no case matches --filter); 3 when the --manifest cannot be used or the host \
            is not an executable file; 64 for a usage error.
            """
    )

    @Argument(
        help: ArgumentHelp("Fixture files, or folders of them.", valueName: "file-or-folder"), completion: .file())
    var paths: [String] = []

    @OptionGroup var host: HostOptions

    @Option(help: ArgumentHelp("plain: a line per case and a summary; tap: TAP version 13.", valueName: "format"))
    var format: ConformFormat = .plain

    @Flag(help: "Do not check replies against the host's rpc.discover document.")
    var noSchemaCheck = false

    @Option(help: ArgumentHelp("Seconds to wait for each reply, and for the host to exit.", valueName: "seconds"))
    var timeout: Double = 5

    @Option(help: ArgumentHelp("Run only the cases whose file#case contains this text.", valueName: "substring"))
    var filter: String?

    func validate() throws {
        if paths.isEmpty { throw ValidationError("name at least one fixture file or folder") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    enum Status {
        static let failed: Int32 = 1
        static let unusableFixtures: Int32 = 2
        static let unusableHost: Int32 = 3
    }

    func run() throws {
        let environment = CLIEnvironment.current()
        var files: [FixtureFile] = []
        do {
            for path in paths { files += try FixtureFile.loadAll(environment.absolute(path)) }
        } catch {
            Console.error("\(error)")
            throw ExitCode(Status.unusableFixtures)
        }
        let total = FixtureRunner.selected(files, filter: filter).count
        if total == 0 {
            Console.error("no case matches --filter \(JSONText.quoted(filter ?? ""))")
            throw ExitCode(Status.unusableFixtures)
        }
        let command = try host.startableCommand(environment: environment, status: Status.unusableHost)
        // A case without `args` gets none, as the fixture format says, unless a caller was named.
        let defaults = host.namesCaller ? command.launch.arguments : []
        let underTest = HostUnderTest.process(path: command.path, arguments: defaults, environment: command.environment)
        let runner = FixtureRunner(host: underTest, timeout: timeout, checkSchemas: !noSchemaCheck)

        var output = ConformOutput(format: format, total: total)
        let report = runner.run(files, filter: filter) { output.report($0) }
        output.finish(report)
        if report.failed > 0 { throw ExitCode(Status.failed) }
    }
}
