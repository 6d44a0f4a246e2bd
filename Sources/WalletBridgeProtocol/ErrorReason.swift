/// The one catalogue of `data.reason` values this host sends: a word a program can act on
/// without parsing `data.problem`. README.md ("data.reason") lists each with its codes;
/// js/src/errors.js mirrors them as `NativeRpcErrorReason`, and js/test/errors.test.js fails
/// when the two drift apart.
public enum ErrorReason: String, CaseIterable, Sendable, Hashable, Codable {
    // -3 "Payload not signed" (and -1 for a connection the person is asked about)

    /// The person refused: Cancel, a closed dialog, or "Refuse all from this extension".
    case declined
    /// Three wrong passphrases in pinentry, or one from a passphrase file.
    case wrongPassphrase = "wrong_passphrase"
    /// Nobody can be asked for the passphrase (pinentry missing or without a display); `data.fix`.
    case noPassphrasePrompt = "no_passphrase_prompt"
    /// As many requests of the same extension already wait for the person: refused unasked.
    case tooManyWaiting = "too_many_waiting"
    /// The passphrase was right but this key's entry fails authentication: retrying is pointless.
    case keyDamaged = "key_damaged"
    /// The key could not be unlocked (Argon2 could not run, for lack of memory say).
    case unlockFailed = "unlock_failed"
    /// Other users can change the keystore: nothing is signed or listed from it (-3, -32603).
    case keystoreWritableByOthers = "keystore_writable_by_others"

    // -1 "Authorization failed": asking the person to connect an extension

    /// No dialog can be shown to ask whether to connect; `data.fix` says what to install or set.
    case noPrompt = "no_prompt"

    // -32005 "Agent unavailable"

    /// The agent could not be started, or exited before listening.
    case cannotStart = "cannot_start"
    /// The agent did not answer in time, answered nonsense, or broke the connection.
    case notResponding = "not_responding"
    /// An agent from another version of wallet-bridge runs.
    case protocolMismatch = "protocol_mismatch"
    /// The agent at this socket serves another keystore.
    case otherKeystore = "other_keystore"
    /// The socket's folder or the process listening there is not this user's alone.
    case unsafeSocket = "unsafe_socket"
    /// The extension, or all of them together, holds as many agent connections as it may.
    case tooManyConnections = "too_many_connections"
    /// A host said hello at the command line's socket, which serves only the command line.
    case wrongSocket = "wrong_socket"
    /// No agent runs, and this client (the command line's) may not start one.
    case notRunning = "not_running"

    /// The value as `data.reason` carries it.
    public var jsonValue: JSONValue { .string(rawValue) }
}

extension RPCError {
    /// A catalogue error whose `data` is `{"reason": reason}`, with `fix` (what to do) when given.
    public init(_ code: ErrorCode, reason: ErrorReason, fix: String? = nil) {
        var data: [String: JSONValue] = ["reason": reason.jsonValue]
        if let fix { data["fix"] = .string(fix) }
        self.init(code, data: .object(data))
    }

    /// `data.reason` when it is one of the catalogue's; nil when there is none or another.
    public var reason: ErrorReason? {
        guard case .object(let members)? = data, case .string(let given)? = members["reason"] else { return nil }
        return ErrorReason(rawValue: given)
    }
}
