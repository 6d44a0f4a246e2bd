#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

/// Every approval and refusal of a signature, one JSON object per line, appended to
/// `$XDG_STATE_HOME/wallet-bridge/audit.log` (mode 0600, folder 0700); `wallet-bridge log`
/// shows it. A line holds the time, the caller, the key, the payload count and each payload's
/// SHA-256: enough to tell later what was signed for whom, and never a payload or a secret.
package struct AuditLog: Sendable {
    /// The file; nil when there is no home folder to keep it in (nothing is recorded).
    package let path: String?

    package init(path: String?) { self.path = path }

    /// `$XDG_STATE_HOME/wallet-bridge/audit.log`.
    package static var defaultPath: String? {
        Environment.folders.stateHome.map { "\($0)/wallet-bridge/audit.log" }
    }

    /// What became of a request.
    package enum Decision: String, Sendable {
        /// Signed, after the passphrase or a confirmation.
        case approved
        /// The person refused (Cancel or Refuse, or a closed dialog).
        case declined
        /// Every passphrase offered was wrong.
        case wrongPassphrase = "wrong_passphrase"
        /// The caller left, or its timeout passed, before the person answered.
        case cancelled
        /// Nobody could be asked (no pinentry that can show a dialog): refused unasked.
        case noPrompt = "no_prompt"
        /// Too many requests already waited for the person: refused unasked.
        case tooManyWaiting = "too_many_waiting"
    }

    /// How a signature was approved.
    package enum Approval: String, Sendable {
        /// The passphrase, typed while the keys were locked.
        case passphrase
        /// The Sign button, while they were unlocked.
        case confirmation
        /// "Sign and allow": this request, and the caller's requests with this key for a while.
        case confirmationAndAllow = "confirmation_and_allow"
        /// Within a while the person allowed before: nobody was asked.
        case allowedBefore = "allowed_before"
    }

    /// One line.
    package struct Entry: Sendable, Equatable {
        package var decision: Decision
        package var caller: Caller
        package var callerName: String?
        /// The key's address (base64, as the extension names it) and label.
        package var address: String
        package var label: String
        /// SHA-256 of each payload, in hex, in request order; none for an Ethereum signature.
        package var payloadHashes: [String]
        /// For an Ethereum signature: the method, the chain, and the Keccak-256 digest signed
        /// (what eth-account's `_hash_eip191_message` or `encode_typed_data` hashes to), in hex.
        package var ethereum: EthereumRecord?
        /// How the person approved; nil for a refusal.
        package var approval: Approval?
        /// True when the passphrase file answered (`WALLET_BRIDGE_PASSPHRASE_FILE`): nobody was
        /// asked, whatever `approval` says.
        package var unattended = false
    }

    /// What the log keeps of an Ethereum signature.
    package struct EthereumRecord: Sendable, Equatable {
        package var method: String
        package var chain: String
        package var digest: [UInt8]

        package init(method: String, chain: String, digest: [UInt8]) {
            (self.method, self.chain, self.digest) = (method, chain, digest)
        }
    }

    /// Appends `entry` with the current time. A log that cannot be written is reported on
    /// stderr; it does not stop the signature (the person has already answered).
    package func record(_ entry: Entry) {
        guard let path else { return }
        var members: [String: JSONValue] = [
            "time": .string(Keystore.timestampNow()),
            "decision": .string(entry.decision.rawValue),
            "caller": .string(entry.caller.identity ?? "unidentified"),
            "address": .string(entry.address),
            "label": .string(entry.label),
        ]
        if let ethereum = entry.ethereum {
            members["method"] = .string(ethereum.method)
            members["chain"] = .string(ethereum.chain)
            members["keccak256"] = .string(Hex.encode(ethereum.digest))
        } else {
            members["payload_count"] = .number(JSONNumber(entry.payloadHashes.count))
            members["payload_sha256"] = .array(entry.payloadHashes.map { .string($0) })
        }
        if let name = entry.callerName { members["caller_name"] = .string(name) }
        if let approval = entry.approval { members["approval"] = .string(approval.rawValue) }
        if entry.unattended { members["unattended"] = true }
        let line = JSONValue.object(members).jsonBytes + [0x0A]
        do {
            try AtomicFile.ensureFolder(AtomicFile.split(path).folder)
        } catch {
            return Log.error("cannot keep the audit log: \(error)")
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return Log.error("cannot open the audit log \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        // One write: O_APPEND places it whole at the end, even with two agents' lines.
        if let code = line.withUnsafeBytes({ SystemCall.writeAll(fd, $0) }) {
            Log.error("cannot write the audit log \(path): \(String(cString: strerror(code)))")
        }
    }
}
