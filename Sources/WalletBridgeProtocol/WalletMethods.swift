/// The method names safari-extension-walletlib uses, so an extension ported from it sends the
/// same strings.
public let NATIVE_GET_ACCOUNTS_METHOD = "NATIVE_GET_ACCOUNTS_METHOD"
public let NATIVE_SIGN_PAYLOADS_METHOD = "NATIVE_SIGN_PAYLOADS_METHOD"

/// Lists the wallet's accounts. Needs no passphrase.
public enum GetAccounts: RPCMethod {
    public static let name = NATIVE_GET_ACCOUNTS_METHOD
    public typealias Params = NoParams
    public typealias Result = GetAccountsResult
    /// With sessions (the agent), an extension not yet connected is asked about.
    public static var asksThePerson: Bool { true }
    public static var summary: String? { "Lists the wallet's accounts: each an Ed25519 public key in standard base64." }
    /// -1: the caller policy refused the extension, or the person declined to show it the
    /// accounts, or nobody could be asked (`data.reason`).
    public static var errors: [RPCError] { [RPCError(.authorizationFailed)] }
}

public struct GetAccountsResult: Codable, Sendable, Hashable {
    /// Each account's 32-byte Ed25519 public key, standard base64.
    public var addresses: [String]
    public init(addresses: [String]) { self.addresses = addresses }
}

/// Signs payloads with the key behind `address`.
public enum SignPayloads: RPCMethod {
    public static let name = NATIVE_SIGN_PAYLOADS_METHOD
    public typealias Params = SignPayloadsParams
    public typealias Result = SignPayloadsResult
    public static var asksThePerson: Bool { true }
    public static var summary: String? {
        "Signs base64 payloads with the key behind `address`, after the person's consent: each entry is the payload followed by its 64-byte Ed25519 signature."
    }
    /// -1: refused or declined before anything was shown; -2: a payload is not base64 (the data
    /// says which); -3: not signed (declined, or the key could not be unlocked); -6: more
    /// payloads than the wallet signs at once.
    public static var errors: [RPCError] {
        [RPCError(.authorizationFailed), RPCError(.invalidPayloads), RPCError(.notSigned), RPCError(.tooManyPayloads)]
    }
}

public struct SignPayloadsParams: Codable, Sendable, Hashable {
    /// A base64 public key, as GetAccounts returned it.
    public var address: String
    /// Base64 byte strings to sign.
    public var payloads: [String]
    public init(address: String, payloads: [String]) {
        self.address = address
        self.payloads = payloads
    }
}

public struct SignPayloadsResult: Codable, Sendable, Hashable {
    /// For each payload in order: base64 of the payload followed by its 64-byte Ed25519
    /// signature (Mobile Wallet Adapter's `sign_messages` convention).
    public var signed_payloads: [String]
    public init(signed_payloads: [String]) { self.signed_payloads = signed_payloads }

    /// The size of the reply body that signing `payloads` gives, known before anything is
    /// signed: each entry is the base64 of the payload and a 64-byte signature. Exact for
    /// canonical base64 payloads (the only ones a wallet signs).
    public static func replyBytes(id: RequestID, payloads: [String]) -> Int {
        let empty = Response.success(id: id, encodedResult: Array(#"{"signed_payloads":[]}"#.utf8)).count
        let entries = payloads.reduce(0) { total, payload in
            let text = payload.utf8
            let padding = text.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            let payloadBytes = text.count / 4 * 3 - padding
            return total + 4 * ((payloadBytes + 64 + 2) / 3) + 2  // the entry and its quotes
        }
        return empty + entries + max(0, payloads.count - 1)  // and the commas between entries
    }
}
