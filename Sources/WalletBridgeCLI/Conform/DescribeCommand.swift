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
            The host is started as call starts it (--manifest, --host, --as, --origin, \
            --addon-id; without them, this wallet-bridge binary) and asked rpc.discover once. A \
            host built on the WalletBridge library describes every method it registered: params \
            and result as JSON Schemas derived from the Swift types, and the errors it declares.

            Exit status: 0 for a document; 1 when the host answers with an error (-32601: it does \
            not implement rpc.discover); 2 when it gives no usable reply or no OpenRPC document; \
            3 when the --manifest cannot be used or the host is not an executable file; 64 for a \
            usage error.
            """
    )

    @OptionGroup var host: HostOptions

    @Option(help: ArgumentHelp("Write the document to this file instead of stdout.", valueName: "file"), completion: .file(extensions: ["json"]))
    var output: String?

    @Option(help: ArgumentHelp("Seconds to wait for the reply.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let environment = CLIEnvironment.current()
        let command = try host.startableCommand(environment: environment, status: CallCommand.Status.unusableManifest)
        let document: JSONValue
        do {
            let underTest = HostUnderTest.process(path: command.path, arguments: command.launch.arguments, environment: command.environment)
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
        let text = JSONText.pretty(document.jsonBytes) + "\n"
        guard let output else { return Console.write(Array(text.utf8)) }
        let path = environment.absolute(output)
        do {
            try FileSystem.writeAtomically(path, contents: Array(text.utf8))
        } catch {
            throw CLIFailure("--output \(path): \(error)")
        }
    }
}
