import WalletBridgeHost
import WalletBridgeProtocol

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
    case allowList(AllowList)
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
            return RPCError(
                .authorizationFailed,
                data: .object([
                    "problem": .string(
                        "the wallet's configuration file cannot be used (the host's log says why), so every call is refused until it is fixed"
                    )
                ]))
        case .allowList(let list):
            let methods = list.methods(for: context.caller)
            if let methods, methods.contains(Self.wildcard) || methods.contains(context.method) { return nil }
            return RPCError(
                .authorizationFailed,
                data: .object([
                    "problem": .string(
                        methods == nil
                            ? "this caller is not allowed by the wallet's policy"
                            : "this caller may not call this method under the wallet's policy")
                ]))
        }
    }

    /// Throws the refusal, if any: the shape `Router.authorize(with:)` takes.
    public func check(_ context: RequestContext) throws(RPCError) {
        if let refusal = refusal(for: context) { throw refusal }
    }

    /// The callers a policy names and what each may call, keyed by the caller as `key(_:)`
    /// writes it. Built only through `init`, which normalises every name once and refuses two
    /// names for one caller: with both `chrome-extension://X/` and `chrome-extension://X`, which
    /// entry applied used to depend on a dictionary's hash order, so the answer changed from run
    /// to run.
    public struct AllowList: Sendable, Equatable {
        /// Allowed methods by normalised caller.
        public let methodsByCaller: [String: Set<String>]

        /// Two configured names that mean the same caller.
        public struct AmbiguousCaller: Error, Sendable, Equatable, CustomStringConvertible {
            /// The two names, sorted, so that the message does not depend on hash order either.
            public let names: [String]
            public var description: String {
                "\"\(names[0].prefix(200))\" and \"\(names[1].prefix(200))\" name the same caller; keep one of them"
            }
        }

        public init(_ methodsByCaller: [String: Set<String>]) throws(AmbiguousCaller) {
            var normalised: [String: Set<String>] = [:]
            var nameOf: [String: String] = [:]
            for (name, methods) in methodsByCaller {
                let key = CallerPolicy.key(name)
                if let other = nameOf[key] { throw AmbiguousCaller(names: [name, other].sorted()) }
                nameOf[key] = name
                normalised[key] = methods
            }
            self.methodsByCaller = normalised
        }

        /// The caller's own entry, else the wildcard entry, else nil (not allowed at all).
        func methods(for caller: Caller) -> Set<String>? {
            if let identity = caller.identity, identity != CallerPolicy.wildcard,
                let own = methodsByCaller[CallerPolicy.key(identity)]
            {
                return own
            }
            return methodsByCaller[CallerPolicy.wildcard]
        }
    }

    /// A caller as a policy knows it. Chrome writes origins with a trailing slash
    /// (`chrome-extension://ID/`); people often leave it off. Nothing else is normalised:
    /// IDs are compared exactly.
    static func key(_ caller: String) -> String {
        caller.hasPrefix("chrome-extension://") && caller.hasSuffix("/") ? String(caller.dropLast()) : caller
    }
}
