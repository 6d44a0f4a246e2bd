import WalletBridgeKeys
import WalletBridgeProtocol

/// One CAIP-25 namespace: the chains of one CAIP-2 namespace, with the methods and events asked
/// for (in a proposal) or granted (in a session) on them.
package struct Namespace: Equatable, Sendable {
    /// Every one a chain of this namespace; non-empty in anything parsed.
    package var chains: [ChainID]
    package var methods: [String]
    package var events: [String]

    package init(chains: [ChainID], methods: [String] = [], events: [String] = []) {
        self.chains = chains
        self.methods = methods
        self.events = events
    }

    // Limits on what a proposal may hold. A real one asks for a namespace or two, a few chains
    // and a handful of methods in a few hundred bytes; these are far above that, and bound the
    // work a hostile proposal can cause (parsing, approving, and writing it to the sessions file
    // with every later change: optional namespaces are kept as proposed).

    /// Keys of one namespaces object.
    package static let maxNamespaces = 16
    /// Entries of one `chains`, `methods` or `events` array, and of one namespace after keys
    /// that name chains are merged into it.
    package static let maxChains = 64
    package static let maxMethods = 64
    package static let maxEvents = 64
    /// One method or event name, in UTF-8 bytes.
    package static let maxStringBytes = 256
    /// All method and event names of one namespaces object together, in UTF-8 bytes: without
    /// it, 16 namespaces of 128 names of 256 bytes would be half a megabyte per proposal.
    package static let maxTotalStringBytes = 8192

    /// This namespace with `other`'s chains, methods and events added after its own, each kept
    /// once, in the order it first appears.
    package func merged(with other: Namespace) -> Namespace {
        Namespace(
            chains: Self.unique(chains + other.chains), methods: Self.unique(methods + other.methods),
            events: Self.unique(events + other.events))
    }

    /// The wire shape: `chains`, `methods`, `events`, and `accounts` when `addresses` is given
    /// (every chain with every address of this namespace, chain by chain, as CAIP-10 ids).
    package func json(accounts addresses: [String]? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "chains": .array(chains.map { .string($0.description) }),
            "methods": .array(methods.map(JSONValue.string)),
            "events": .array(events.map(JSONValue.string)),
        ]
        if let addresses {
            members["accounts"] = .array(chains.flatMap { chain in addresses.map { .string("\(chain):\($0)") } })
        }
        return .object(members)
    }

    static func unique<Element: Hashable>(_ elements: [Element]) -> [Element] {
        // A namespace lists a handful: comparing them in pairs needs no Set, whose first use
        // cost a cold GetAccounts, which reads the sessions file, more than the comparisons.
        if elements.count <= 16 {
            var kept: [Element] = []
            for element in elements where !kept.contains(element) { kept.append(element) }
            return kept
        }
        var seen = Set<Element>()
        return elements.filter { seen.insert($0).inserted }
    }
}

/// A CAIP-25 namespaces object, keyed by CAIP-2 namespace (`"solana"`). Keys that name a whole
/// chain on the wire (`"solana:5eykt…"`) are merged into their namespace by `parse`, so that
/// every check looks in one place.
package typealias Namespaces = [String: Namespace]

/// The methods a Solana session can allow, as WalletConnect names them.
package enum SolanaMethod {
    package static let signMessage = "solana_signMessage"
    /// The longest message `solana_signMessage` signs, in bytes: a Sign-In-With-Solana message
    /// or an off-chain message is far shorter. Its base58 text (22,375 characters at most)
    /// decodes in milliseconds; text past 22,381 characters is refused unread.
    package static let maxMessageBytes = 16 * 1024
    package static let getAccounts = "solana_getAccounts"
    package static let requestAccounts = "solana_requestAccounts"
    /// One transaction, or a batch signed after one dialog (`SolanaTransactionMethods`).
    package static let signTransaction = "solana_signTransaction"
    package static let signAllTransactions = "solana_signAllTransactions"
    /// Sign In With Solana: the wallet builds the message from the site's input and signs it.
    package static let signIn = "solana_signIn"
    /// The methods that sign, and so ask the person each time.
    package static let signingMethods = [signMessage, signTransaction, signAllTransactions, signIn]
    /// Sends what it signs: the wallet has no network, so no session allows it.
    package static let signAndSendTransaction = "solana_signAndSendTransaction"
}

/// The events a session can carry.
package enum SessionEvent {
    package static let accountsChanged = "accountsChanged"
}

/// What the wallet can put in a session: all a proposal may require, and all of an optional
/// one that is kept.
package struct WalletSupport: Equatable, Sendable {
    /// The chains listed here, and for `eip155` every chain (`EIP155.chainID`), whatever is
    /// listed.
    package var namespaces: Namespaces

    package init(namespaces: Namespaces) {
        self.namespaces = namespaces
    }

    /// docs/sessions.md: the three Solana chains, message and transaction signing, Sign In With Solana, the
    /// account methods, and `accountsChanged`; every EVM chain, with Ethereum's accounts, chain
    /// id and signing methods, and EIP-1193's `accountsChanged` and `chainChanged`.
    package static let `default` = WalletSupport(namespaces: [
        SolanaChain.namespace: Namespace(
            chains: SolanaChain.all,
            methods: [
                SolanaMethod.signMessage, SolanaMethod.getAccounts, SolanaMethod.requestAccounts,
                SolanaMethod.signTransaction,
                SolanaMethod.signAllTransactions, SolanaMethod.signIn,
            ],
            events: [SessionEvent.accountsChanged]
        ),
        EIP155.namespace: Namespace(
            chains: [EIP155.mainnet], methods: EIP155.methods,
            events: [SessionEvent.accountsChanged, EIP155.chainChangedEvent]),
    ])

    /// True when a session may hold `chain`: a listed one, or any valid `eip155` chain (a
    /// signature is the same on every chain; typed data names its own).
    package func offers(_ chain: ChainID) -> Bool {
        guard namespaces[chain.namespace] != nil else { return false }
        return namespaces[chain.namespace]!.chains.contains(chain) || EIP155.chainID(of: chain) != nil
    }
}

/// The wallet's accounts in a session, by namespace: base58 public keys for `solana`, EIP-55
/// addresses for `eip155`.
package struct SessionAccounts: Equatable, Sendable {
    package var solana: [String]
    package var eip155: [String]

    package init(solana: [String] = [], eip155: [String] = []) {
        (self.solana, self.eip155) = (solana, eip155)
    }

    /// From a wallet's GetAccounts addresses (walletlib's base64 Ed25519 keys), shown in a
    /// session as Solana writes them (base58), and its Ethereum addresses.
    package init(walletlibAddresses: [String], eip155: [String]) {
        self.init(solana: walletlibAddresses.compactMap { Base64.decode($0).map(Base58.encode) }, eip155: eip155)
    }

    /// The addresses of namespace `name`; none for one the wallet has no keys for.
    package func addresses(in name: String) -> [String] {
        switch name {
        case SolanaChain.namespace: solana
        case EIP155.namespace: eip155
        default: []
        }
    }

    /// How many accounts the namespaces `names` show.
    package func count(in names: some Sequence<String>) -> Int {
        names.reduce(0) { $0 + addresses(in: $1).count }
    }
}

extension Dictionary where Key == String, Value == Namespace {
    /// Reads the namespaces object `value`, the params member `field`
    /// (`requiredNamespaces`, `optionalNamespaces`). Absent or null is no namespace at all.
    ///
    /// Anything malformed is -32602 with `data` `{"field": "requiredNamespaces.solana.chains[1]",
    /// "problem": "…"}`, naming the first fault in key order, so that the same proposal always
    /// gets the same answer. Only the shape is checked here; whether the wallet supports what is
    /// asked is `approve`'s question. Members other than `chains`, `methods` and `events`
    /// (`rpcMap`, say) are ignored, as other wallets ignore them. A chain, method or event
    /// listed twice (or by a namespace key and a chain id key) is kept once, where it first
    /// appears, keys taken in sorted order.
    package static func parse(_ value: JSONValue?, field: String) throws(RPCError) -> Namespaces {
        guard let value, value != .null else { return [:] }
        guard case .object(let members) = value else {
            throw invalid(field, "expected an object of namespaces, found \(value.typeName)")
        }
        guard members.count <= Namespace.maxNamespaces else {
            throw invalid(field, "at most \(Namespace.maxNamespaces) namespaces may be asked for, not \(members.count)")
        }
        var result: Namespaces = [:]
        var budget = Namespace.maxTotalStringBytes
        for key in members.keys.sorted() {
            // A key longer than any chain id is wrong anyway; it is not echoed into the path. The
            // places are written only for a fault: a cold GetAccounts reads three of these
            // objects per session, and has no use for them.
            let keyField = { key.utf8.count <= 64 ? "\(field).\(key)" : field }
            let chainKey: ChainID?
            if ChainID.isNamespace(key) {
                chainKey = nil
            } else if let chain = ChainID(key) {
                chainKey = chain
            } else {
                throw invalid(
                    keyField(),
                    key.utf8.count <= 64
                        ? "a key must be a CAIP-2 namespace (3 to 8 of [-a-z0-9]) or chain id (namespace:reference)"
                        : "a key of \(key.utf8.count) bytes is neither a CAIP-2 namespace nor a chain id")
            }
            guard case .object(let namespace) = members[key]! else {
                throw invalid(
                    keyField(), "expected an object with chains, methods and events, found \(members[key]!.typeName)")
            }
            let chains: [ChainID]
            if let chainKey {
                guard namespace["chains"] == nil else {
                    throw invalid(
                        "\(keyField()).chains",
                        "a key that is a chain id stands for that one chain; leave chains out, or key by the namespace")
                }
                chains = [chainKey]
            } else {
                chains = try parseChains(namespace["chains"], field: "\(keyField()).chains", namespace: key)
            }
            let parsed = Namespace(
                chains: chains,
                methods: try parseStrings(
                    namespace["methods"], field: "\(keyField()).methods", limit: Namespace.maxMethods, budget: &budget),
                events: try parseStrings(
                    namespace["events"], field: "\(keyField()).events", limit: Namespace.maxEvents, budget: &budget)
            )
            let name = chainKey?.namespace ?? key
            let merged = (result[name] ?? Namespace(chains: [])).merged(with: parsed)
            guard merged.chains.count <= Namespace.maxChains, merged.methods.count <= Namespace.maxMethods,
                merged.events.count <= Namespace.maxEvents
            else {
                throw invalid(
                    "\(field).\(name)",
                    "at most \(Namespace.maxChains) chains, \(Namespace.maxMethods) methods and \(Namespace.maxEvents) events per namespace, counting keys that name its chains"
                )
            }
            result[name] = merged
        }
        return result
    }

    private static func parseChains(_ value: JSONValue?, field: @autoclosure () -> String, namespace: String)
        throws(RPCError) -> [ChainID]
    {
        var unlimited = Int.max
        let texts = try parseStrings(value, field: field(), limit: Namespace.maxChains, budget: &unlimited)
        guard !texts.isEmpty else { throw invalid(field(), "a namespace must list at least one chain") }
        var chains: [ChainID] = []
        for (index, text) in texts.enumerated() {
            guard let chain = ChainID(text) else {
                throw invalid("\(field())[\(index)]", "not a CAIP-2 chain id (namespace:reference)")
            }
            guard chain.namespace == namespace else {
                throw invalid(
                    "\(field())[\(index)]",
                    "a chain of the \"\(chain.namespace)\" namespace, listed under \"\(namespace)\"")
            }
            chains.append(chain)
        }
        return chains
    }

    /// A required array of at most `limit` non-empty strings of at most `maxStringBytes`, whose
    /// bytes are taken from `budget`.
    private static func parseStrings(
        _ value: JSONValue?, field: @autoclosure () -> String, limit: Int, budget: inout Int
    ) throws(RPCError) -> [String] {
        guard let value else { throw invalid(field(), "required: an array of strings") }
        guard case .array(let elements) = value else {
            throw invalid(field(), "expected an array of strings, found \(value.typeName)")
        }
        guard elements.count <= limit else { throw invalid(field(), "at most \(limit) entries, not \(elements.count)") }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element else {
                throw invalid("\(field())[\(index)]", "expected a string, found \(element.typeName)")
            }
            let bytes = text.utf8.count
            guard bytes > 0 else { throw invalid("\(field())[\(index)]", "must not be empty") }
            guard bytes <= Namespace.maxStringBytes else {
                throw invalid("\(field())[\(index)]", "longer than \(Namespace.maxStringBytes) bytes")
            }
            budget -= bytes
            guard budget >= 0 else {
                throw invalid(
                    "\(field())[\(index)]",
                    "the methods and events of one namespaces object may hold at most \(Namespace.maxTotalStringBytes) bytes in all"
                )
            }
            strings.append(text)
        }
        return strings
    }

    static func invalid(_ field: String, _ problem: String) -> RPCError { .invalidParams(field, problem) }

    /// What a session grants for a proposal: all that `required` asks for, and the part of
    /// `optional` that `support` covers.
    ///
    /// Required namespaces are all or nothing, checked in this order: a namespace the wallet
    /// does not support is 5104 (`data` `{"namespaces": [...]}`); then unsupported chains 5100
    /// (`{"chains": [...]}`), methods 5101 (`{"methods": [...]}`) and events 5102
    /// (`{"events": [...]}`), each listing every unsupported one; 5101 for a method that sends
    /// a transaction also says, in `problem`, what to use instead. Optional namespaces keep only
    /// their supported chains, methods and events; one left with no chain is dropped. Each
    /// namespace of the answer is the required one followed by what is left of the optional
    /// one, each entry once. A proposal that leaves no chain at all is -32602 on
    /// `requiredNamespaces`: a session with nothing in it would hold no account.
    package static func approve(required: Namespaces, optional: Namespaces, support: WalletSupport) throws(RPCError)
        -> Namespaces
    {
        let keys = required.keys.sorted()
        let unsupportedKeys = keys.filter { support.namespaces[$0] == nil }
        guard unsupportedKeys.isEmpty else {
            throw RPCError(
                .unsupportedNamespaceKey, data: .object(["namespaces": .array(unsupportedKeys.map(JSONValue.string))]))
        }
        var chains: [String] = []
        var methods: [String] = []
        var events: [String] = []
        for key in keys {
            let asked = required[key]!, offered = support.namespaces[key]!
            chains += asked.chains.filter { !support.offers($0) }.map(\.description)
            methods += asked.methods.filter { !offered.methods.contains($0) }
            events += asked.events.filter { !offered.events.contains($0) }
        }
        for (code, member, unsupported) in [
            (ErrorCode.unsupportedChains, "chains", chains), (.unsupportedMethods, "methods", methods),
            (.unsupportedEvents, "events", events),
        ] where !unsupported.isEmpty {
            var data: [String: JSONValue] = [member: .array(Namespace.unique(unsupported).map(JSONValue.string))]
            if code == .unsupportedMethods, let problem = SessionService.sendingProblem(unsupported) {
                data["problem"] = .string(problem)
            }
            throw RPCError(code, data: .object(data))
        }

        var approved = required.mapValues { Namespace(chains: []).merged(with: $0) }
        for key in optional.keys.sorted() {
            guard let offered = support.namespaces[key], let asked = optional[key] else { continue }
            let kept = Namespace(
                chains: asked.chains.filter(support.offers),
                methods: asked.methods.filter(offered.methods.contains),
                events: asked.events.filter(offered.events.contains)
            )
            guard !kept.chains.isEmpty else { continue }
            approved[key] = (approved[key] ?? Namespace(chains: [])).merged(with: kept)
        }
        guard approved.values.contains(where: { !$0.chains.isEmpty }) else {
            throw invalid(
                "requiredNamespaces",
                "a session needs at least one supported chain, and requiredNamespaces and optionalNamespaces together ask for none"
            )
        }
        return approved
    }

    /// The wire shape of a proposal's namespaces: each with `chains`, `methods` and `events`.
    package func json() -> JSONValue {
        .object(mapValues { $0.json() })
    }

    /// The wire shape of a session's namespaces: each also with `accounts`, every chain with
    /// every address of its namespace as CAIP-10 ids, chain by chain.
    package func json(accounts: SessionAccounts) -> JSONValue {
        var members: [String: JSONValue] = [:]
        for (name, namespace) in self { members[name] = namespace.json(accounts: accounts.addresses(in: name)) }
        return .object(members)
    }

    /// True when these namespaces hold `chain`.
    package func holds(_ chain: ChainID) -> Bool {
        self[chain.namespace]?.chains.contains(chain) ?? false
    }

    /// True when these namespaces hold `chain` and allow `method` in its namespace.
    package func allows(method: String, on chain: ChainID) -> Bool {
        holds(chain) && self[chain.namespace]!.methods.contains(method)
    }

    /// Every chain held, namespace by namespace in key order.
    package var allChains: [ChainID] {
        keys.sorted().flatMap { self[$0]!.chains }
    }
}
