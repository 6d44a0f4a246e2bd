import ArgumentParser
import WalletBridge

/// `wallet-bridge call`: a client for any native-messaging host, started as a browser would.
struct CallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Send a JSON-RPC request to a native host, started as a browser would start it.",
        discussion: """
            The host is this wallet-bridge binary unless --manifest, --host (--host-path) or --name (a host install wrote a manifest for) names another. \
            It gets the browser's arguments (Chrome: the origin; Firefox: the manifest path and \
            the add-on ID) and its own folder as working directory. The reply is checked as a \
            browser would check it: a frame over 1 MiB, stray bytes on stdout, or an exit without \
            a reply are reported as such.

            Exit status: 0 for a result (or, with --notify, for no reply); 1 for a JSON-RPC \
            error response; 2 when the host gave no usable reply (it could not be started, \
            crashed, timed out, or wrote something else); 3 when the --manifest cannot be used; \
            64 for a usage error (options, PARAMS_JSON).
            """
    )

    @Argument(help: "The JSON-RPC method.")
    var method: String

    @Argument(help: ArgumentHelp("The params: a JSON object or array.", valueName: "params-json"))
    var params: String?

    @OptionGroup var host: HostOptions

    @Option(help: "The request id: a number or a string.")
    var id = "1"

    @Flag(help: "Send a notification (no id) and expect no reply.")
    var notify = false

    @Flag(help: "Print the reply's exact bytes (and a newline) instead of indented JSON.")
    var raw = false

    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp("Send this many requests in total, and print a summary instead of replies.", valueName: "n"))
    var repeatCount = 1

    @Option(help: ArgumentHelp("Keep this many host processes, each with one request in flight.", valueName: "n"))
    var concurrency = 1

    @Option(help: ArgumentHelp("Seconds to wait for each reply (and for the host to read).", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        if repeatCount < 1 { throw ValidationError("--repeat must be at least 1") }
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        let load = repeatCount > 1 || concurrency > 1
        if load && notify {
            throw ValidationError("--notify sends one notification; it does not combine with --repeat or --concurrency")
        }
        if load && raw { throw ValidationError("--raw prints one reply; --repeat and --concurrency print a summary") }
        // Checked here, with the options, so that it exits as the usage error it is.
        if let params {
            do {
                _ = try CallRequest.params(from: params)
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// The exit statuses, as documented in docs/install.md. A script must be able to tell a
    /// host's JSON-RPC error (1) from a call that was never made (3, 64).
    enum Status {
        static let errorResponse: Int32 = 1
        static let noUsableReply: Int32 = 2
        static let unusableManifest: Int32 = 3
        /// ArgumentParser's own status for command-line errors (EX_USAGE).
        static let usage: Int32 = ExitCode.validationFailure.rawValue
    }

    func run() throws {
        let environment = CLIEnvironment.current()
        let command: HostCommand
        do {
            command = try host.hostCommand(environment: environment)
        } catch {
            Console.error("\(error)")
            throw ExitCode(Status.unusableManifest)
        }
        let parsedParams = try params.map(CallRequest.params(from:))
        let wait = Duration.milliseconds(Int64((timeout * 1000).rounded()))

        if repeatCount > 1 || concurrency > 1 {
            let summary = LoadRun.run(
                command: command, method: method, params: parsedParams, total: repeatCount, concurrency: concurrency,
                timeout: wait)
            for line in summary.lines { Console.out(line) }
            if let firstError = summary.firstError { Console.err("first error response: \(firstError)") }
            if let firstFailure = summary.firstFailure { Console.err("first failure: \(firstFailure)") }
            if summary.failed > 0 || summary.notSent > 0 { throw ExitCode(Status.noUsableReply) }
            if summary.errors > 0 { throw ExitCode(Status.errorResponse) }
            return
        }
        try callOnce(command, params: parsedParams, wait: wait)
    }

    private func callOnce(_ command: HostCommand, params: JSONValue?, wait: Duration) throws {
        let requestID: RequestID? = notify ? nil : CallRequest.id(from: id)
        let connection: HostConnection
        do {
            connection = try HostConnection(command)
        } catch {
            Console.error(error.description)
            throw ExitCode(Status.noUsableReply)
        }
        defer {
            let tail = connection.stderrTail.trimmingTrailingNewlines
            if !tail.isEmpty { Console.err("host stderr:\n" + tail) }
        }
        connection.enqueue(Request.encode(id: requestID, method: method, params: params), id: requestID)
        let deadline = ContinuousClock.now + wait
        do {
            try connection.flush(until: deadline, timeout: wait)
            guard let requestID else {
                // A notification gets no reply: let the host finish with it, then see that it
                // did not answer anyway (a reply to a notification breaks JSON-RPC clients).
                connection.close(grace: wait)
                if let unexpected = try connection.nextFrame() {
                    Console.error(
                        "the host replied to a notification, which JSON-RPC 2.0 forbids: \(JSONText.preview(unexpected, limit: 200))"
                    )
                    throw ExitCode(Status.noUsableReply)
                }
                return
            }
            let body = try connection.receive(until: deadline, timeout: wait)
            connection.close(grace: .seconds(2))
            // The exact bytes, then a newline that is not the reply's, as every line of output ends.
            if raw { Console.write(body + [UInt8(ascii: "\n")]) }
            let reply = try Response.Parsed(reply: body)
            if !raw { Console.out(JSONText.pretty(body)) }
            guard reply.id == requestID else {
                Console.error(
                    "the reply's id \(reply.id) is not the request's \(requestID): an extension would not match it")
                throw ExitCode(Status.noUsableReply)
            }
            if case .error = reply.outcome { throw ExitCode(Status.errorResponse) }
        } catch let failure as NativeHostError {
            connection.close(grace: .milliseconds(200))
            Console.error(NativeHostError(failure.kind, stderrTail: "").description)
            throw ExitCode(Status.noUsableReply)
        }
    }
}
