#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import WalletBridge
import WalletBridgeAgent
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeSessions

/// `wallet-bridge sessions`: the extensions a person has connected (docs/sessions.md).
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List or end the sessions of connected extensions.",
        discussion: """
            A session is an extension's approval to see the accounts and ask for signatures, for \
            a while (7 days by default). Sessions are kept by the agent; this starts one if none \
            runs. See docs/sessions.md.
            """,
        subcommands: [SessionsListCommand.self, SessionsRevokeCommand.self, SessionsRevokeAllCommand.self],
        defaultSubcommand: SessionsListCommand.self
    )

    /// A client that starts the agent if none runs: the agent is the one writer of the sessions.
    static func client(_ options: KeystoreOptions) throws -> AgentClient {
        if (try? WalletConfig.load(path: WalletConfig.defaultPath))?.useAgent == false {
            throw CLIFailure(
                "the configuration file turns the agent off (\"agent\": false), and with it sessions: extensions are under the `allow` policy alone"
            )
        }
        let path = try options.keystore().path
        return AgentClient(
            keystorePath: path, agentProgram: Files.currentExecutable(), arguments: [], browserProcess: nil,
            control: true)
    }

    static func call<M: RPCMethod>(_ client: AgentClient, _ method: M.Type, _ params: M.Params) throws -> M.Result {
        do {
            return try client.call(method, params)
        } catch .unavailable(let unavailable) {
            throw CLIFailure(unavailable.description)
        } catch .answered(let error) {
            throw CLIFailure("the agent refused: \(error.message)")
        }
    }
}

struct SessionsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Show every live session: extension, site, chains, methods, expiry.")

    @OptionGroup var keystoreOptions: KeystoreOptions

    func run() throws {
        let answer = try SessionsCommand.call(
            try SessionsCommand.client(keystoreOptions), AgentProtocol.Sessions.self, NoParams())
        if keystoreOptions.json {
            keystoreOptions.printJSON(answer)
            return
        }
        guard case .object(let members) = answer, case .array(let sessions)? = members["sessions"], !sessions.isEmpty
        else {
            Console.out("No sessions: no extension is connected.")
            return
        }
        for case .object(let session) in sessions {
            Console.out(Self.describe(session))
        }
    }

    /// A few lines per session, for a person: the extension's ID (what the browser said)
    /// before its installed name, the site the extension said the session is for ("-" for
    /// the extension's own session), and what it says about itself (what its author chose). Every
    /// text is escaped (`DisplayText.escaped`), so none of it reaches the terminal as a control
    /// sequence or breaks a line; `--json` prints it as it is.
    static func describe(_ session: [String: JSONValue]) -> String {
        func text(_ value: JSONValue?) -> String {
            if case .string(let text)? = value { DisplayText.escaped(text) } else { "" }
        }
        func number(_ value: JSONValue?) -> Int {
            if case .number(let number)? = value { Int(number.literal) ?? 0 } else { 0 }
        }
        func object(_ value: JSONValue?) -> [String: JSONValue] {
            if case .object(let members)? = value { members } else { [:] }
        }
        let caller = object(session["caller"])
        let name = text(session["callerName"])
        let metadata = object(session["metadata"])
        var lines = ["\(text(session["topic"]))"]
        lines.append(
            "  extension: \(text(caller["id"])) (\(text(caller["kind"])))\(name.isEmpty ? "" : ", installed as \"\(name)\"")"
        )
        let site = text(session["origin"])
        lines.append("  site: \(site.isEmpty ? "-" : "\(site) (as the extension reported it)")")
        lines.append(
            "  says it is: \"\(text(metadata["name"]))\"\(text(metadata["url"]).isEmpty ? "" : " \(text(metadata["url"]))")"
        )
        if case .object(let namespaces)? = session["namespaces"] {
            for (key, value) in namespaces.sorted(by: { $0.key < $1.key }) {
                guard case .object(let namespace) = value else { continue }
                func strings(_ name: String) -> String {
                    guard case .array(let items)? = namespace[name] else { return "" }
                    let texts = items.compactMap {
                        if case .string(let item) = $0 { DisplayText.escaped(item) } else { nil }
                    }
                    return texts.isEmpty ? "none" : texts.joined(separator: ", ")
                }
                lines.append(
                    "  \(DisplayText.escaped(key)): chains \(strings("chains")); methods \(strings("methods")); events \(strings("events"))"
                )
            }
        }
        lines.append(
            "  expires \(AgentCommandSupport.localTime(number(session["expiry"]))), approved \(AgentCommandSupport.localTime(number(session["created"])))"
        )
        return lines.joined(separator: "\n")
    }
}

struct SessionsRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "End one session, or every session of a site; the extension's open ports hear session_delete.")

    @Argument(help: ArgumentHelp("The session's topic, as `sessions list` shows it.", valueName: "topic"))
    var topic: String?

    @Option(
        name: .customLong("site"),
        help: ArgumentHelp(
            "End every session of this site instead, whichever extension holds it: its origin as `sessions list` shows it.",
            valueName: "origin"))
    var site: String?

    @OptionGroup var keystoreOptions: KeystoreOptions

    func validate() throws {
        guard (topic == nil) != (site == nil) else {
            throw ValidationError("name a topic or --site ORIGIN, not both nor neither")
        }
    }

    func run() throws {
        if let site { return try revoke(site: site) }
        guard let topic else { return }
        guard Session.isTopic(topic) else {
            throw CLIFailure(
                "\"\(topic.prefix(80))\" is not a session topic (64 lowercase hex digits); `wallet-bridge sessions list` shows them"
            )
        }
        let answer = try SessionsCommand.call(
            try SessionsCommand.client(keystoreOptions), AgentProtocol.Revoke.self, .init(topic: topic))
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["revoked": .bool(answer.revoked), "topic": .string(topic)]))
        } else if answer.revoked {
            Console.out("Session \(topic) ended.")
        }
        guard answer.revoked else {
            throw CLIFailure(
                "no live session has the topic \(topic); `wallet-bridge sessions list` shows the live ones")
        }
    }

    private func revoke(site: String) throws {
        let shown = DisplayText.escaped(String(site.prefix(SiteOrigin.maxBytes)))
        guard SiteOrigin.isValid(site) else {
            throw CLIFailure(
                "\"\(shown)\" is not a site: \(SiteOrigin.problem), as `wallet-bridge sessions list` shows it")
        }
        let client = try SessionsCommand.client(keystoreOptions)
        let answer = try SessionsCommand.call(client, AgentProtocol.RevokeAll.self, .init(site: site))
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["revoked": .number(JSONNumber(answer.revoked)), "site": .string(site)]))
        } else if answer.revoked > 0 {
            Console.out("\(answer.revoked == 1 ? "1 session" : "\(answer.revoked) sessions") of \(shown) ended.")
        }
        guard answer.revoked > 0 else {
            throw CLIFailure(
                "no live session is for the site \(shown); `wallet-bridge sessions list` shows the live ones")
        }
    }
}

struct SessionsRevokeAllCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke-all", abstract: "End every session.")

    @OptionGroup var keystoreOptions: KeystoreOptions

    func run() throws {
        let answer = try SessionsCommand.call(
            try SessionsCommand.client(keystoreOptions), AgentProtocol.RevokeAll.self, .init())
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["revoked": .number(JSONNumber(answer.revoked))]))
        } else {
            Console.out(answer.revoked == 1 ? "1 session ended." : "\(answer.revoked) sessions ended.")
        }
    }
}
