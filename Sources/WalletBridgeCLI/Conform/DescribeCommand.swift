import ArgumentParser
import WalletBridge
import WalletBridgeFixtures

/// `wallet-bridge describe`: a host's own description (`rpc.discover`), for people, for docs and
/// for tools that generate clients.
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print a native host's OpenRPC document: what rpc.discover answers.",
        discussion: """
            The host is started as call starts it (--manifest, --host, --name, --as, \
            --origin, --addon-id; without them, this wallet-bridge binary) and asked rpc.discover once. A \
            host built on the WalletBridge library describes every method it registered: params \
            and result as JSON Schemas derived from the Swift types, and the errors it declares.

            --check holds the document to the OpenRPC meta-schema (OpenRPC 1.2, from \
            meta.open-rpc.org) shipped in this binary, offline, and prints a verdict instead of \
            the document: each problem on stderr, at its place in the document.

            Exit status: 0 for a document (with --check, a valid one); 1 when the host answers \
            with an error (-32601: it does not implement rpc.discover); 2 when it gives no usable \
            reply or no OpenRPC document (with --check, one the meta-schema refuses); 3 when the \
            --manifest cannot be used or the host is not an executable file; 64 for a usage error.
            """
    )

    @OptionGroup var host: HostOptions

    @Option(
        help: ArgumentHelp("Write the document to this file instead of stdout.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var output: String?

    @Option(help: ArgumentHelp("Seconds to wait for the reply.", valueName: "seconds"))
    var timeout: Double = 10

    @Flag(
        help:
            "Check the document against the OpenRPC meta-schema shipped in this binary; print the verdict, not the document."
    )
    var check = false

    func validate() throws {
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if check && output != nil {
            throw ValidationError("--check prints a verdict, not the document: leave out --output")
        }
    }

    func run() throws {
        let environment = CLIEnvironment.current()
        let command = try host.startableCommand(environment: environment, status: CallCommand.Status.unusableManifest)
        let document: JSONValue
        do {
            let underTest = HostUnderTest.process(
                path: command.path, arguments: command.launch.arguments, environment: command.environment)
            document = try HostDescription.fetch(from: underTest, timeout: timeout)
        } catch {
            Console.error(error.description)
            if case .refused = error { throw ExitCode(CallCommand.Status.errorResponse) }
            throw ExitCode(CallCommand.Status.noUsableReply)
        }
        do {
            _ = try OpenRPCCheck(document: document)
        } catch {
            Console.error("rpc.discover did not answer an OpenRPC document: \(error)")
            throw ExitCode(CallCommand.Status.noUsableReply)
        }
        if check { return try Self.check(document) }
        let text = JSONText.pretty(document.jsonBytes) + "\n"
        guard let output else { return Console.write(Array(text.utf8)) }
        let path = environment.absolute(output)
        do {
            try FileSystem.writeAtomically(path, contents: Array(text.utf8))
        } catch {
            throw CLIFailure("--output \(path): \(error)")
        }
    }

    /// `--check`: the verdict of the meta-schema shipped in the binary, so that checking needs
    /// no network and nothing installed beside wallet-bridge.
    static func check(_ document: JSONValue) throws {
        let problems = OpenRPCMetaSchema.problems(in: document)
        guard problems.isEmpty else {
            let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
            Console.error(
                "rpc.discover's document is not valid OpenRPC (\(count), against the OpenRPC 1.2 meta-schema):\n"
                    + problems.map { "  " + $0 }.joined(separator: "\n"))
            throw ExitCode(CallCommand.Status.noUsableReply)
        }
        let members = document.objectValue ?? [:]
        let info = members["info"]?.objectValue ?? [:]
        let title = [info["title"]?.stringValue, info["version"]?.stringValue].compactMap { $0 }.joined(separator: " ")
        let methods = members["methods"]?.arrayValue?.count ?? 0
        Console.out(
            "valid OpenRPC \(members["openrpc"]?.stringValue ?? "") document: \(title), \(methods == 1 ? "1 method" : "\(methods) methods")"
        )
    }
}
