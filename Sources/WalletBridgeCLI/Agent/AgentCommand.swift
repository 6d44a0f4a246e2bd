#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import WalletBridge
import WalletBridgeAgent
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeKeys

/// `wallet-bridge agent`: run the agent, see what it holds, stop it.
struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "The agent that keeps the keys unlocked for a while and asks for every signature.",
        discussion: """
            A browser-started host starts the agent by itself the first time it is needed; \
            nobody has to. See docs/agent.md.
            """,
        subcommands: [AgentRunCommand.self, AgentStatusCommand.self, AgentStopCommand.self],
        defaultSubcommand: AgentRunCommand.self
    )
}

/// `agent run` (the default): the agent in the foreground. `main` runs it directly, like
/// `serve`, on the main thread before any other exists (see `WalletBridgeCommand.agentKeystore`).
struct AgentRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the agent in the foreground (what a host starts, detached, on first need).",
        discussion: """
            Ends on SIGTERM, SIGINT or SIGHUP, on `wallet-bridge agent stop`, when its socket is \
            removed, and after `agent_idle_exit` seconds (default 600) with the keys locked and \
            no client connected. Exits at once, with status 0, when an agent already serves the \
            keystore. Logs go to stderr.
            """
    )

    @Option(
        name: .customLong("keystore"),
        help: ArgumentHelp("The keystore to serve (default: the configured one).", valueName: "path"),
        completion: .file())
    var keystore: String?

    func run() throws {
        throw CLIFailure("the agent must be started by main before any thread (WalletBridgeCommand.agentKeystore)")
    }
}

/// `agent status`: what the running agent holds, never a secret.
struct AgentStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether an agent runs, whether the keys are unlocked, and until when.",
        discussion: """
            Exit status: 0 when an agent runs; 3 when none does; 1 when it cannot ask: the agent's \
            folder is not safe to use (not yours, others can reach it, or another user can change \
            a folder above it), the agent does not answer, or it speaks another version. The \
            message says how to fix it.
            """
    )

    @OptionGroup var keystoreOptions: KeystoreOptions

    func run() throws {
        let client = try AgentCommandSupport.client(keystoreOptions)
        guard let status = try AgentCommandSupport.ask(client, AgentProtocol.Status.self) else {
            if keystoreOptions.json {
                keystoreOptions.printJSON(
                    .object([
                        "running": false, "keystore": .string(client.keystorePath),
                        "socket": .string(client.paths.socket),
                    ]))
            } else {
                Console.out("No agent is running for \(client.keystorePath).")
                if (try? WalletConfig.load(path: WalletConfig.defaultPath))?.useAgent == false {
                    Console.out("None will start: the configuration file turns the agent off (\"agent\": false).")
                } else {
                    Console.out("The first request from a browser starts one (its socket: \(client.paths.socket)).")
                }
            }
            throw ExitCode(3)
        }
        if keystoreOptions.json {
            var bytes: [UInt8] = []
            try ResultEncoder.encode(status, into: &bytes)
            guard case .object(var members) = try JSONParser.parse(bytes) else {
                throw CLIFailure("the agent's status is not an object")
            }
            members["running"] = true
            keystoreOptions.printJSON(.object(members))
            return
        }
        for line in AgentCommandSupport.describe(status) { Console.out(line) }
    }
}

/// `agent stop`: wipe the keys and end the agent.
struct AgentStopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Wipe the unlocked keys and end the agent. The next request starts a new one.")

    @OptionGroup var keystoreOptions: KeystoreOptions

    func run() throws {
        let client = try AgentCommandSupport.client(keystoreOptions)
        let wasRunning = try AgentCommandSupport.ask(client, AgentProtocol.Stop.self) != nil
        if keystoreOptions.json {
            keystoreOptions.printJSON(
                .object(["was_running": .bool(wasRunning), "keystore": .string(client.keystorePath)]))
        } else if wasRunning {
            Console.out("The agent for \(client.keystorePath) is ending; its keys are wiped.")
        } else {
            Console.out("No agent was running for \(client.keystorePath).")
        }
    }
}

/// `wallet-bridge lock`: wipe the unlocked keys now, as `ssh-add -D` or `gpgconf --reload`.
struct LockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock", abstract: "Wipe the unlocked keys now: the next signature asks for the passphrase again.")

    @OptionGroup var keystoreOptions: KeystoreOptions

    func run() throws {
        let client = try AgentCommandSupport.client(keystoreOptions)
        let answer = try AgentCommandSupport.ask(client, AgentProtocol.Lock.self)
        if keystoreOptions.json {
            keystoreOptions.printJSON(
                .object([
                    "agent_running": .bool(answer != nil), "was_unlocked": .bool(answer?.was_unlocked ?? false),
                    "keystore": .string(client.keystorePath),
                ]))
        } else if let answer {
            Console.out(
                answer.was_unlocked
                    ? "Locked: the keys are wiped from the agent's memory." : "The keys were locked already.")
        } else {
            Console.out("No agent is running for \(client.keystorePath): nothing is unlocked.")
        }
    }
}

enum AgentCommandSupport {
    /// A client of the agent for the keystore the options name; it never starts an agent.
    /// An invalid configuration file does not stop `lock` or `agent stop`: they then use the
    /// keystore named without it (option, environment, default), with a warning.
    static func client(_ options: KeystoreOptions) throws -> AgentClient {
        let path: String
        do {
            path = try options.keystore().path
        } catch {
            guard let fallback = KeystoreLocation.resolve(option: options.path) else { throw error }
            Console.warning("\(error); using \(fallback)")
            path = fallback
        }
        return AgentClient(keystorePath: path, agentProgram: nil, arguments: [], browserProcess: nil, control: true)
    }

    /// The agent's answer, or nil when no agent runs.
    static func ask<M: RPCMethod>(_ client: AgentClient, _ method: M.Type) throws -> M.Result?
    where M.Params == NoParams {
        do {
            return try client.call(method, NoParams())
        } catch .unavailable(let unavailable) where unavailable.reason == .notRunning {
            return nil
        } catch .unavailable(let unavailable) {
            throw CLIFailure(unavailable.description)
        } catch .answered(let error) {
            throw CLIFailure("the agent refused: \(error.message)")
        }
    }

    static func describe(_ status: AgentStatus) -> [String] {
        var lines = [
            "Agent \(status.pid) serves \(status.keystore)",
            "  socket: \(status.socket) (protocol \(status.protocol_version)), started \(localTime(status.started_at))",
        ]
        if status.unlocked, let since = status.unlocked_at, let idle = status.locks_at,
            let latest = status.locks_at_latest
        {
            lines.append(
                "  keys: unlocked since \(localTime(since)); they lock at \(localTime(idle)) if unused, at \(localTime(latest)) at the latest"
            )
        } else {
            lines.append("  keys: locked (the next signature asks for the passphrase)")
        }
        lines.append("  clients connected: \(status.clients - 1) besides this command")
        if status.unattended == true {
            lines.append(
                "  consent: none; it was started with WALLET_BRIDGE_PASSPHRASE_FILE and signs without asking anyone")
        }
        if let waiting = status.signature_requests, waiting > 0 {
            lines.append("  signature requests: \(waiting) in line for the person (one dialog at a time)")
        }
        lines.append(
            "  unlocked for \(status.cache_ttl) s after the last use, \(status.max_cache_ttl) s at most; ends after \(status.idle_exit_after) s idle with the keys locked and nobody connected"
        )
        return lines
    }

    static func localTime(_ seconds: Int) -> String {
        Files.timeText(seconds, format: "%Y-%m-%d %H:%M:%S", utc: false)
    }
}
