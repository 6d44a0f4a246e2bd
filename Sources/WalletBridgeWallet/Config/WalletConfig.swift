import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeSessions

/// The wallet's configuration file, `$XDG_CONFIG_HOME/wallet-bridge/config.json` (or the path
/// in `WALLET_BRIDGE_CONFIG`). Every member is optional; unknown members are errors, so that a
/// misspelt `"allow"` cannot silently leave the wallet open.
///
/// ```json
/// {
///   "allow": {
///     "chrome-extension://abcdefghijklmnopabcdefghijklmnop/": ["*"],
///     "wallet@example.org": ["NATIVE_GET_ACCOUNTS_METHOD"]
///   },
///   "max_payloads": 1024,
///   "pinentry": "/usr/bin/pinentry-gnome3",
///   "keystore": "/home/me/.local/share/wallet-bridge/keystore.json",
///   "agent": true,
///   "cache_ttl": 600,
///   "max_cache_ttl": 7200,
///   "agent_idle_exit": 600
/// }
/// ```
public struct WalletConfig: Sendable, Equatable {
    /// Names the configuration file instead of the XDG location.
    public static let environmentVariable = "WALLET_BRIDGE_CONFIG"
    /// A configuration is a few hundred bytes; anything near this is not one.
    public static let maxFileBytes = 1 << 20
    /// What `max_payloads` may be.
    public static let maxPayloadsRange = 1...1_000_000

    /// `allow`: who may call what. `.allowAll` when the member is absent.
    public var policy: CallerPolicy = .allowAll
    /// `max_payloads`: more payloads in one SignPayloads are refused with -6.
    public var maxPayloads: Int = KeystoreWallet.defaultMaxPayloads
    /// `pinentry`: the program that asks for the passphrase (`WALLET_BRIDGE_PINENTRY` wins).
    public var pinentry: String?
    /// `keystore`: the keystore file (`WALLET_BRIDGE_KEYSTORE` and `--keystore` win).
    public var keystore: String?
    /// `agent`: whether the shipped host leaves the keys to the agent (the default), or signs by
    /// itself, asking for the passphrase every time.
    public var useAgent = true
    /// `cache_ttl` and `max_cache_ttl` (seconds): how long the agent keeps the keys unlocked
    /// after their last use, and at most after the unlock (gpg-agent's settings and defaults).
    package var unlockLifetimes = UnlockCache.Lifetimes()
    /// `session_lifetime` (seconds): how long a session lasts from its approval or its last
    /// extension (docs/sessions.md). WalletConnect's 7 days by default.
    public var sessionLifetime = SessionStore.defaultLifetime
    static let sessionLifetimeRange = 1...2_592_000
    /// `proposal_timeout` (seconds): how long a proposal to connect (`session_connect`, and
    /// GetAccounts' or SignPayloads' question to connect) waits for the person before it is
    /// 8000. WalletKit's 5 minutes by default.
    public var proposalTimeout = 300
    /// Up to an hour: a dialog left up longer is one nobody is looking at.
    static let proposalTimeoutRange = 1...3600

    /// `agent_idle_exit` (seconds): the agent ends after this long with the keys locked and no
    /// client connected.
    package var agentIdleExit: Duration = .seconds(600)
    /// `approve_for_minutes` (opt-in, off by default): a confirmation also offers to sign what
    /// the same extension asks of the same key for this many minutes without asking, while the
    /// keys stay unlocked.
    package var approveForMinutes: Int?
    /// What `approve_for_minutes` may be: up to a day.
    static let approvalMinutesRange = 1...1440
    /// What the durations may be, in seconds: up to a week.
    static let secondsRange = 1...604_800

    public init() {}

    /// A configuration file that exists but cannot be used.
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// Not JSON, or not a configuration.
            case malformed
            /// It could not be read at all.
            case unreadable
            /// It may be fine, but other users can change it.
            case changeableByOthers
        }

        /// The file.
        public let path: String
        /// What is wrong with it.
        public let reason: String
        public let kind: Kind

        public init(path: String, reason: String, kind: Kind = .malformed) {
            self.path = path
            self.reason = reason
            self.kind = kind
        }

        public var description: String {
            switch kind {
            case .malformed: "the configuration file \(path) is invalid: \(reason)"
            case .unreadable: "the configuration file \(path) cannot be read: \(reason)"
            case .changeableByOthers: "the configuration file \(path) is not used, because \(reason)"
            }
        }
    }

    /// `$WALLET_BRIDGE_CONFIG`, else `$XDG_CONFIG_HOME/wallet-bridge/config.json`.
    public static var defaultPath: String? {
        Environment.string(environmentVariable) ?? Environment.configHome.map { "\($0)/wallet-bridge/config.json" }
    }

    /// The configuration at `path`; defaults when the file does not exist, unless
    /// `WALLET_BRIDGE_CONFIG` names it.
    /// Refused, whatever it says, when other users can change it or a folder above it, up to
    /// the home folder (`ChangeableByOthers`), whether or not it exists: it names the program
    /// that is given the passphrase, the keystore that is signed from, and the policy, and a
    /// missing file allows every caller.
    public static func load(path: String?) throws(Invalid) -> WalletConfig {
        guard let path else { return WalletConfig() }
        // The folders above it too, up to the home folder, and even when the file is missing:
        // whoever can rename one of them can take the file, and with it the policy, away.
        if let reason = ChangeableByOthers.reason(for: path) {
            throw Invalid(path: path, reason: reason, kind: .changeableByOthers)
        }
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path, maxBytes: maxFileBytes)
        } catch {
            if case .tooLarge(let size, let limit) = error.problem {
                throw Invalid(
                    path: path, reason: "it is \(size) bytes, more than the \(limit) a configuration file may have")
            }
            throw Invalid(path: path, reason: error.reason, kind: .unreadable)
        }
        guard let bytes else {
            // A file named on purpose that is not there is a mistake (a typo would drop the
            // policy without a word): refused. The default path may well be missing.
            if path == Environment.string(environmentVariable) {
                throw Invalid(
                    path: path, reason: "it does not exist, and \(environmentVariable) names it", kind: .unreadable)
            }
            return WalletConfig()
        }
        return try decode(bytes, path: path)
    }

    /// What the host runs with: the file's settings, or, when the file is invalid, defaults
    /// with a policy that refuses every call (the reason is logged). Never fails open.
    public static func loadForHost(path: String? = defaultPath) -> WalletConfig {
        do {
            return try load(path: path)
        } catch {
            Log.error("\(error); refusing every call until it is fixed")
            var config = WalletConfig()
            config.policy = .denyAll(reason: error.reason)
            return config
        }
    }

    static func decode(_ bytes: [UInt8], path: String) throws(Invalid) -> WalletConfig {
        func invalid(_ reason: String) -> Invalid { Invalid(path: path, reason: reason) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxDepth: 8)
        } catch {
            throw invalid("not valid JSON (\(error.description))")
        }
        guard case .object(let members) = root else { throw invalid("the top level is not an object") }
        var config = WalletConfig()
        for (key, value) in members {
            switch key {
            case "allow":
                guard case .object(let callers) = value else { throw invalid("\"allow\" is not an object") }
                var allowed: [String: Set<String>] = [:]
                for (caller, methods) in callers {
                    guard !caller.isEmpty else { throw invalid("\"allow\" names an empty caller") }
                    guard case .array(let list) = methods else {
                        throw invalid("\"allow\".\"\(caller)\" is not an array of method names")
                    }
                    var names: Set<String> = []
                    for method in list {
                        guard case .string(let name) = method, !name.isEmpty else {
                            throw invalid("\"allow\".\"\(caller)\" holds something that is not a method name")
                        }
                        names.insert(name)
                    }
                    allowed[caller] = names
                }
                do {
                    config.policy = .allowList(try CallerPolicy.AllowList(allowed))
                } catch {
                    throw invalid("\"allow\": \(error)")
                }
            case "max_payloads":
                guard case .number(let number) = value, let max = Int(number.literal), maxPayloadsRange.contains(max)
                else {
                    throw invalid(
                        "\"max_payloads\" is not a whole number in \(maxPayloadsRange.lowerBound)...\(maxPayloadsRange.upperBound)"
                    )
                }
                config.maxPayloads = max
            case "pinentry":
                guard case .string(let program) = value, !program.isEmpty else {
                    throw invalid("\"pinentry\" is not a program name or path")
                }
                config.pinentry = program
            case "keystore":
                guard case .string(let keystore) = value, keystore.hasPrefix("/") else {
                    throw invalid("\"keystore\" is not an absolute path")
                }
                config.keystore = keystore
            case "agent":
                guard case .bool(let flag) = value else { throw invalid("\"agent\" is not true or false") }
                config.useAgent = flag
            case "approve_for_minutes":
                guard case .number(let number) = value, let minutes = Int(number.literal),
                    approvalMinutesRange.contains(minutes)
                else {
                    throw invalid(
                        "\"approve_for_minutes\" is not a whole number of minutes in \(approvalMinutesRange.lowerBound)...\(approvalMinutesRange.upperBound)"
                    )
                }
                config.approveForMinutes = minutes
            case "session_lifetime":
                guard case .number(let number) = value, let seconds = Int(number.literal),
                    sessionLifetimeRange.contains(seconds)
                else {
                    throw invalid(
                        "\"session_lifetime\" is not a whole number of seconds in \(sessionLifetimeRange.lowerBound)...\(sessionLifetimeRange.upperBound)"
                    )
                }
                config.sessionLifetime = seconds
            case "proposal_timeout":
                guard case .number(let number) = value, let seconds = Int(number.literal),
                    proposalTimeoutRange.contains(seconds)
                else {
                    throw invalid(
                        "\"proposal_timeout\" is not a whole number of seconds in \(proposalTimeoutRange.lowerBound)...\(proposalTimeoutRange.upperBound)"
                    )
                }
                config.proposalTimeout = seconds
            case "cache_ttl", "max_cache_ttl", "agent_idle_exit":
                guard case .number(let number) = value, let seconds = Int(number.literal),
                    secondsRange.contains(seconds)
                else {
                    throw invalid(
                        "\"\(key)\" is not a whole number of seconds in \(secondsRange.lowerBound)...\(secondsRange.upperBound)"
                    )
                }
                switch key {
                case "cache_ttl": config.unlockLifetimes.idle = .seconds(seconds)
                case "max_cache_ttl": config.unlockLifetimes.maximum = .seconds(seconds)
                default: config.agentIdleExit = .seconds(seconds)
                }
            default:
                throw invalid(
                    "unknown member \"\(key.prefix(64))\" (known: allow, max_payloads, pinentry, keystore, agent, cache_ttl, max_cache_ttl, agent_idle_exit, approve_for_minutes, session_lifetime, proposal_timeout)"
                )
            }
        }
        // Either would be a mistake: the keys lock at the maximum whatever the idle time says.
        let lifetimes = config.unlockLifetimes
        guard lifetimes.idle <= lifetimes.maximum else {
            throw invalid(
                "\"cache_ttl\" (\(lifetimes.idle / .seconds(1)) s) is longer than \"max_cache_ttl\" (\(lifetimes.maximum / .seconds(1)) s)"
            )
        }
        return config
    }
}
