/// A JSON-RPC error code. Open, like the protocol: a developer's own methods may define more,
/// and an integer literal is one (`RPCError(code: -32099, message: "Quota exceeded")`).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(Int.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { String(rawValue) }
}

/// The one catalogue of codes this host sends. README.md lists each with when it is sent;
/// js/src/errors.js mirrors the numbers.
extension ErrorCode {
    // JSON-RPC 2.0 (jsonrpc.org/specification, section 5.1)
    public static let parseError = ErrorCode(rawValue: -32700)
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    public static let invalidParams = ErrorCode(rawValue: -32602)
    public static let internalError = ErrorCode(rawValue: -32603)

    // Host codes, in the range JSON-RPC reserves for implementations (-32000 to -32099)
    public static let responseTooLarge = ErrorCode(rawValue: -32000)
    public static let requestTimedOut = ErrorCode(rawValue: -32001)
    public static let requestCancelled = ErrorCode(rawValue: -32002)
    public static let overloaded = ErrorCode(rawValue: -32003)
    public static let requestTooLarge = ErrorCode(rawValue: -32004)
    public static let agentUnavailable = ErrorCode(rawValue: -32005)

    // Wallet codes, numbered as Mobile Wallet Adapter numbers them (safari-extension-walletlib
    // 0.2.0 defines only -3, with the same meaning)
    public static let authorizationFailed = ErrorCode(rawValue: -1)
    public static let invalidPayloads = ErrorCode(rawValue: -2)
    public static let notSigned = ErrorCode(rawValue: -3)
    public static let tooManyPayloads = ErrorCode(rawValue: -6)

    // Session codes (docs/sessions.md): WalletConnect Sign's numbers, and EIP-1193's for a
    // request inside a session that the person declines or that names an account the session
    // does not hold.
    public static let unauthorizedMethod = ErrorCode(rawValue: 3001)
    public static let unauthorizedChain = ErrorCode(rawValue: 3005)
    public static let userRejectedRequest = ErrorCode(rawValue: 4001)
    public static let unauthorized = ErrorCode(rawValue: 4100)
    public static let userRejected = ErrorCode(rawValue: 5000)
    public static let userRejectedChains = ErrorCode(rawValue: 5001)
    public static let userRejectedMethods = ErrorCode(rawValue: 5002)
    public static let userRejectedEvents = ErrorCode(rawValue: 5003)
    public static let unsupportedChains = ErrorCode(rawValue: 5100)
    public static let unsupportedMethods = ErrorCode(rawValue: 5101)
    public static let unsupportedEvents = ErrorCode(rawValue: 5102)
    public static let unsupportedAccounts = ErrorCode(rawValue: 5103)
    public static let unsupportedNamespaceKey = ErrorCode(rawValue: 5104)
    public static let userDisconnected = ErrorCode(rawValue: 6000)
    public static let noSessionForTopic = ErrorCode(rawValue: 7001)
    public static let sessionRequestExpired = ErrorCode(rawValue: 8000)

    /// Every code above with its fixed message, in catalogue order.
    public static let catalogue: [(code: ErrorCode, message: String)] = [
        (.parseError, "Parse error"),
        (.invalidRequest, "Invalid Request"),
        (.methodNotFound, "Method not found"),
        (.invalidParams, "Invalid params"),
        (.internalError, "Internal error"),
        (.responseTooLarge, "Response too large"),
        (.requestTimedOut, "Request timed out"),
        (.requestCancelled, "Request cancelled"),
        (.overloaded, "Host overloaded"),
        (.requestTooLarge, "Request too large"),
        (.agentUnavailable, "Agent unavailable"),
        (.authorizationFailed, "Authorization failed"),
        (.invalidPayloads, "Invalid payloads"),
        (.notSigned, "Payload not signed"),
        (.tooManyPayloads, "Too many payloads"),
        (.unauthorizedMethod, "Unauthorized method"),
        (.unauthorizedChain, "Unauthorized chain"),
        (.userRejectedRequest, "User rejected the request"),
        (.unauthorized, "Unauthorized"),
        (.userRejected, "User rejected"),
        (.userRejectedChains, "User rejected chains"),
        (.userRejectedMethods, "User rejected methods"),
        (.userRejectedEvents, "User rejected events"),
        (.unsupportedChains, "Unsupported chains"),
        (.unsupportedMethods, "Unsupported methods"),
        (.unsupportedEvents, "Unsupported events"),
        (.unsupportedAccounts, "Unsupported accounts"),
        (.unsupportedNamespaceKey, "Unsupported namespace key"),
        (.userDisconnected, "User disconnected"),
        (.noSessionForTopic, "No session for topic"),
        (.sessionRequestExpired, "Session request expired"),
    ]

    /// The fixed message for a catalogue code, or nil for a code the catalogue does not know.
    public var standardMessage: String? {
        Self.catalogue.first { $0.code == self }?.message
    }
}
