import WalletBridgeFraming
import WalletBridgeProtocol

/// Who started the host, as the browser told it in argv. This is the identity the policy checks:
/// the browser sets it, so an extension cannot forge it.
public enum Caller: Sendable, Hashable, CustomStringConvertible {
    /// Chromium family: argv[1] is the origin, `chrome-extension://<ID>/`.
    case chromeExtension(origin: String)
    /// Firefox family: argv[1] is the manifest's absolute path, argv[2] the add-on ID.
    case firefoxAddon(id: String, manifestPath: String)
    /// Started by hand, by a test, or by a portal that dropped the origin.
    case unidentified

    /// Reads the caller from the arguments after argv[0].
    public init(arguments: [String]) {
        if let first = arguments.first, first.hasPrefix("chrome-extension://") {
            self = .chromeExtension(origin: first)
        } else if arguments.count >= 2, arguments[0].hasPrefix("/"), arguments[0].hasSuffix(".json") {
            self = .firefoxAddon(id: arguments[1], manifestPath: arguments[0])
        } else {
            self = .unidentified
        }
    }

    /// True when these arguments are the ones a browser passes to a native host.
    package static func isBrowserLaunch(_ arguments: [String]) -> Bool {
        Caller(arguments: arguments) != .unidentified
    }

    /// The origin or add-on ID, as a policy file names it.
    public var identity: String? {
        switch self {
        case .chromeExtension(let origin): origin
        case .firefoxAddon(let id, _): id
        case .unidentified: nil
        }
    }

    public var description: String { identity ?? "an unidentified caller" }
}

/// What a handler knows about the call it is answering.
public struct RequestContext: Sendable {
    public var caller: Caller
    /// Nil for a notification.
    public var requestID: RequestID?
    public var method: String
    /// The largest reply body the host will send; a larger one is replaced by -32000. A
    /// handler whose reply size is known in advance can refuse before doing costly work (or,
    /// for SignPayloads, before asking anyone to approve it).
    public var maxReplyBytes: Int
    /// When the request's bytes were read (or a moment after). A handler that caches what it
    /// reads may answer from anything it saw at or after this instant: that is still an answer
    /// given between the request and the reply. Requests read together share it. The server and
    /// the session service set it from their clocks; the default (the system's now) is for a
    /// context made outside them, as a test or a host's own handler makes one.
    public var receivedAt: ContinuousClock.Instant
    /// The web site the request is made for, when it is made in a session of one: its origin
    /// as the extension reports it, which the signing dialogs name. Nil otherwise.
    package var site: String?

    public init(
        caller: Caller, requestID: RequestID?, method: String, maxReplyBytes: Int = Frame.maxOutboundBytes,
        receivedAt: ContinuousClock.Instant = .now
    ) {
        self.caller = caller
        self.requestID = requestID
        self.method = method
        self.maxReplyBytes = maxReplyBytes
        self.receivedAt = receivedAt
    }
}
