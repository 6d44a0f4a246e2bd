import WalletBridge

/// Which callers may call which methods. The caller is the identity the browser put in argv
/// (`RequestContext.caller`), which an extension cannot choose.
///
/// With no policy configured every caller is allowed: the browser's host manifest
/// (`allowed_origins`, `allowed_extensions`) already limits who can start the host at all. Once
/// a policy exists it is strict: a caller it does not name, or a method it does not list for
/// that caller, is refused with -1. A configuration that cannot be read refuses everything
/// rather than failing open.
public enum CallerPolicy: Sendable, Equatable {
    /// No policy: every call goes through.
    case allowAll
    /// Method names allowed per caller identity. `"*"` as a method allows all methods; `"*"`
    /// as a caller applies to every caller not named, including an unidentified one.
    case allowList([String: Set<String>])
    /// The configuration is broken; `reason` went to the log.
    case denyAll(reason: String)

    /// As a method: every method. As a caller: every caller the policy does not name.
    public static let wildcard = "*"

    /// Nil when the call may proceed, else the -1 error to answer with.
    public func refusal(for context: RequestContext) -> RPCError? {
        switch self {
        case .allowAll:
            return nil
        case .denyAll:
            return RPCError(.authorizationFailed, data: .object([
                "problem": .string("the wallet's configuration file is invalid, so every call is refused until it is fixed"),
            ]))
        case .allowList(let callers):
            let methods = context.caller.identity.flatMap { identity in
                callers.first { Self.sameCaller($0.key, identity) }?.value
            } ?? callers[Self.wildcard]
            if let methods, methods.contains(Self.wildcard) || methods.contains(context.method) { return nil }
            return RPCError(.authorizationFailed, data: .object([
                "problem": .string(methods == nil ? "this caller is not allowed by the wallet's policy"
                                                  : "this caller may not call this method under the wallet's policy"),
            ]))
        }
    }

    /// Throws the refusal, if any: the shape `Router.authorize(with:)` takes.
    public func check(_ context: RequestContext) throws(RPCError) {
        if let refusal = refusal(for: context) { throw refusal }
    }

    /// Chrome writes origins with a trailing slash (`chrome-extension://ID/`); people often
    /// leave it off. Nothing else is normalised: IDs are compared exactly.
    static func sameCaller(_ configured: String, _ identity: String) -> Bool {
        func normal(_ text: String) -> String {
            text.hasPrefix("chrome-extension://") && text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        return configured != wildcard && normal(configured) == normal(identity)
    }
}
