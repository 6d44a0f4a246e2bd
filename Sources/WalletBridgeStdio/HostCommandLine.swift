import WalletBridgeHost
import WalletBridgeProtocol
import WalletBridgeSystem

/// What a host built on the library (`StdioHost.run(router:...)`) does with a command line a
/// person typed: `--version` and `--help`. A browser never gets here: its arguments (and none
/// at all) are served, and it never passes a first argument that starts with `-` (Chromium's is
/// the origin, Firefox's the manifest's path), so an option can only come from a person.
package enum HostCommandLine {
    /// What to print on stdout and on stderr, and the exit status.
    package struct Answer: Equatable, Sendable {
        package var output = ""
        package var errorOutput = ""
        package var status: Int32

        package init(output: String = "", errorOutput: String = "", status: Int32) {
            (self.output, self.errorOutput, self.status) = (output, errorOutput, status)
        }
    }

    /// The answer to `arguments` (those after argv[0]), or nil when the host is to serve them:
    /// none, a browser's, or any that does not start with an option.
    /// - `--version`: `router.info.version` on a line of its own, exit 0, the way
    ///   `wallet-bridge --version` prints its own (a packaging script reads it whole). A router
    ///   whose `info` was never set has no version to print: that is said on stderr, with how to
    ///   set one, and the status is 1, so `version=$(host --version) || exit` stops instead of
    ///   packaging version "" (or a made-up "unversioned").
    /// - `--help` / `-h`: the host's name, what it is and its methods with their summaries, exit 0.
    /// - any other option, or anything after one of these: a usage error on stderr, exit 64.
    package static func answer(_ arguments: [String], router: Router, program: String) -> Answer? {
        guard let first = arguments.first, first.hasPrefix("-"), !Caller.isBrowserLaunch(arguments) else { return nil }
        let name = DisplayText.escaped(program, quotes: false)
        let usage = "usage: \(name) [--help | --version]\n"
        guard arguments.count == 1 else {
            return Answer(errorOutput: "\(name): \(first) takes nothing after it\n\(usage)", status: 64)
        }
        switch first {
        case "--version":
            guard let info = router.declaredInfo else {
                return Answer(
                    errorOutput: "\(name): no version set: give the router one before serving it, "
                        + "router.info = OpenRPC.Info(title: \"\(name)\", version: \"1.0.0\") (README.md, \"Your own methods\")\n",
                    status: 1)
            }
            return Answer(output: "\(DisplayText.escaped(info.version, quotes: false))\n", status: 0)
        case "--help", "-h":
            return Answer(output: help(router: router, program: name), status: 0)
        default:
            return Answer(
                errorOutput: "\(name): unknown option \(DisplayText.escaped(first, quotes: false))\n\(usage)",
                status: 64)
        }
    }

    private static func help(router: Router, program: String) -> String {
        let info = router.info
        var title = DisplayText.escaped(info.title, quotes: false)
        if let declared = router.declaredInfo { title += " " + DisplayText.escaped(declared.version, quotes: false) }
        var text = "\(title): a native messaging host for browser extensions, built on WalletBridge.\n"
        if let description = info.description { text += DisplayText.escaped(description, quotes: false) + "\n" }
        text += """

            A browser starts it, as the host manifest that names it says: it reads JSON-RPC 2.0
            requests on stdin and answers on stdout. To call it by hand:
              wallet-bridge call --host PATH METHOD [PARAMS]
              wallet-bridge describe --host PATH     (its OpenRPC document, from rpc.discover)

            usage: \(program) [--help | --version]

            Methods:

            """
        var methods = router.methodSummaries.map {
            (DisplayText.escaped($0.name, quotes: false), $0.summary.map { DisplayText.escaped($0, quotes: false) })
        }
        methods.append(
            (OpenRPC.discoverMethod, "This host's OpenRPC document: its methods, their params, results and errors."))
        let width = min(methods.map(\.0.count).max() ?? 0, 40)
        for (name, summary) in methods {
            guard let summary else {
                text += "  \(name)\n"
                continue
            }
            let padding = String(repeating: " ", count: max(width - name.count, 0) + 2)
            text += "  \(name)\(padding)\(summary)\n"
        }
        return text
    }
}
