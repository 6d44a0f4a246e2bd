import WalletBridgeFraming
import WalletBridgeProtocol

/// The agent's socket protocol: the native-messaging framing (4-byte native-endian length, then
/// JSON) carrying JSON-RPC 2.0, as between a browser and a host.
///
/// A client's first request must be `agent.hello`, naming the protocol version it speaks, the
/// arguments its browser started it with (the caller, as the host's own argv shows it), the
/// browser's pid and the keystore it expects. The agent answers with its version, or refuses
/// (another version: -32602 "Unsupported protocol version" with `data.supported`; another
/// keystore: -32602 "Another keystore" with `data.serves`) and closes. A client may send its first request right behind the hello without
/// waiting. After the hello, the wallet's methods (GetAccounts, SignPayloads) have their
/// native-messaging names and shapes, and the agent's own methods are below. Closing the
/// connection cancels what the client had in flight: a dialog it caused is closed.
package enum AgentProtocol {
    /// The version this build speaks. A change a client of the last version could misread
    /// takes a new number.
    package static let version = 1
    /// The hello's refusal when the client expects another keystore.
    package static let otherKeystore = "Another keystore"
    // A hello's refusal for the agent's limits is -32005 with `data.reason`
    // `ErrorReason.tooManyConnections` (`ConnectionLimits`), or `.wrongSocket` for a host at the
    // command line's socket (`AgentPaths.control`), which no host tries again.
    /// The largest hello: it names a few arguments and a path.
    package static let maxHelloBytes = 64 * 1024
    /// The largest request after the hello: what a host can send. A host's request is a
    /// browser's, whose reply cannot be larger than 1 MiB (`Frame.maxOutboundBytes`), and a
    /// signature's reply holds what was signed: a larger request could never be answered.
    package static let maxRequestBytes = Frame.maxOutboundBytes

    /// Opens a connection. Both ends build and read it by hand, not with Codable: it is on the
    /// path of every cold GetAccounts.
    package enum Hello {
        package static let name = "agent.hello"
        package struct Params: Sendable, Equatable {
            package var version: Int
            /// The host's arguments after argv[0], as the browser gave them: the caller.
            package var arguments: [String]
            /// The browser's process, whose profile names the extension; nil if unknown.
            package var browser_pid: Int32?
            /// The keystore the client expects the agent to serve.
            package var keystore: String
            /// True for the command line (`agent status`, `lock`, `agent stop`, `sessions`),
            /// which has connections of its own that no host can take; a host never says it.
            package var control: Bool

            /// The params of a hello, or nil when `value` is not one (`browser_pid` may be null).
            package init?(_ value: JSONValue?) {
                guard case .object(let members)? = value, case .number(let version)? = members["version"],
                    let versionNumber = Int(version.literal), case .array(let values)? = members["arguments"],
                    case .string(let keystore)? = members["keystore"]
                else { return nil }
                var arguments: [String] = []
                for value in values {
                    guard case .string(let argument) = value else { return nil }
                    arguments.append(argument)
                }
                var browserProcess: Int32?
                switch members["browser_pid"] {
                case nil, .null?: browserProcess = nil
                case .number(let number)?:
                    guard let pid = Int32(number.literal) else { return nil }
                    browserProcess = pid
                default: return nil
                }
                switch members["control"] {
                case nil, .bool(false)?: control = false
                case .bool(true)?: control = true
                default: return nil
                }
                (self.version, self.arguments, browser_pid, self.keystore) = (
                    versionNumber, arguments, browserProcess, keystore
                )
            }
        }
    }

    /// What the agent holds, never a secret.
    package enum Status: RPCMethod {
        package static let name = "agent.status"
        package typealias Result = AgentStatus
    }

    /// Where the events of the extension the hello names are written (`{"events": path}`),
    /// for a host to watch (`EventHub`): no connection is held per port. Only these names are
    /// passed on to an extension.
    package enum Subscribe: RPCMethod {
        package static let name = "agent.subscribe"
        package struct Result: Codable, Sendable {
            package var events: String
        }
        package static let events: Set<String> = [
            "session_event", "session_update", "session_delete", "session_expire",
        ]
    }

    /// GetAccounts that never asks the person: the addresses when the caller has a session,
    /// else the error `consentNeeded` at once. A host asks this on its kept connection, and
    /// only a caller without a session waits for GetAccounts' dialog, on a connection of its
    /// own.
    package enum AccountsIfConnected: RPCMethod {
        package static let name = "agent.accountsIfConnected"
        package typealias Result = GetAccountsResult
    }

    /// `AccountsIfConnected`'s answer for a caller without a session. Between host and agent
    /// only: an extension never sees it.
    package static let consentNeeded = ErrorCode(rawValue: -32010)

    /// Every live session, of every extension, for `wallet-bridge sessions list`.
    package enum Sessions: RPCMethod {
        package static let name = "agent.sessions"
        package typealias Result = JSONValue
    }

    /// Ends one session (`wallet-bridge sessions revoke`); its extension's ports hear
    /// `session_delete` with reason 6000.
    package enum Revoke: RPCMethod {
        package static let name = "agent.revoke"
        package struct Params: Codable, Sendable {
            package var topic: String
            package init(topic: String) { self.topic = topic }
        }
        package struct Result: Codable, Sendable {
            package var revoked: Bool
        }
    }

    /// Ends every session (`wallet-bridge sessions revoke-all`), or with `site` every session
    /// of that site, whichever extension holds it (`wallet-bridge sessions revoke --site`).
    package enum RevokeAll: RPCMethod {
        package static let name = "agent.revokeAll"
        package struct Params: Codable, Sendable {
            /// A web origin (`SiteOrigin`); nil for every session.
            package var site: String?
            package init(site: String? = nil) { self.site = site }
        }
        package struct Result: Codable, Sendable {
            package var revoked: Int
        }
    }

    /// Wipes the unlocked keys now.
    package enum Lock: RPCMethod {
        package static let name = "agent.lock"
        package struct Result: Codable, Sendable, Equatable {
            package var was_unlocked: Bool
        }
    }

    /// Ends the agent (after wiping the keys).
    package enum Stop: RPCMethod {
        package static let name = "agent.stop"
        package typealias Result = NoResult
    }
}

/// `agent.status`'s answer. Times are seconds since the Unix epoch.
package struct AgentStatus: Codable, Sendable, Equatable {
    package var pid: Int32
    package var keystore: String
    package var socket: String
    package var protocol_version: Int
    package var started_at: Int
    package var unlocked: Bool
    package var unlocked_at: Int?
    /// When the keys lock if unused before then.
    package var locks_at: Int?
    /// When they lock whatever happens.
    package var locks_at_latest: Int?
    package var cache_ttl: Int
    package var max_cache_ttl: Int
    /// Connections open now, this one included.
    package var clients: Int
    /// Signature requests waiting for the person, the one in a dialog now included. Optional
    /// because an agent of an earlier build (same protocol version) does not send it.
    package var signature_requests: Int?
    /// True when the agent signs without asking anyone (it was started with
    /// `WALLET_BRIDGE_PASSPHRASE_FILE`). Optional for the same reason.
    package var unattended: Bool?
    /// When the agent ends if it stays idle with the keys locked and nobody connected.
    package var idle_exit_after: Int
}
