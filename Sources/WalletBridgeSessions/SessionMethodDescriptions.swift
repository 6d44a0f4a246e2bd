import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeTransactions

// What `rpc.discover` says of the five session methods (docs/sessions.md). Their params and
// results are types whose schemas are derived (SessionParams.swift, `SessionWire`, the namespace
// methods' `Result`s); what derivation cannot see of a member (a pattern, a length, a reader's
// shape) its type states next to it (`JSONSchemaConstraining`, `JSONSchemaDescribing`), from the
// parts kept here; so do the namespace methods' params and results inside `session_request`'s.
// Where a reader checks more than draft-07 can say, the schema is the looser one, so that
// everything the host accepts validates (see `SessionSchemas`).
//
// `errors` lists the codes each method answers with beyond the generic ones (-32700,
// -32600 to -32603, and the host's -32000 to -32005); the caller policy's -1, which any method may get, the
// router adds for every method (`Router.authorize`).

extension SessionService.Connect {
    package static var summary: String? {
        "Proposes a session: checks the namespaces asked for, asks the person, and answers the session with the wallet's accounts on every approved chain."
    }

    /// 5104, 5100, 5101, 5102: a required namespace, chain, method or event the wallet does not
    /// support (`Namespaces.approve`); 5103: no key to put in the session; 5000: the person
    /// rejected it; -1 (`data.reason` `no_prompt`): nobody could be asked; 8000: nobody answered
    /// in time.
    package static var errors: [RPCError] {
        [
            RPCError(.unsupportedNamespaceKey), RPCError(.unsupportedChains), RPCError(.unsupportedMethods),
            RPCError(.unsupportedEvents), RPCError(.unsupportedAccounts), RPCError(.userRejected),
            RPCError(.authorizationFailed), RPCError(.sessionRequestExpired),
        ]
    }
}

extension SessionService.List {
    package static var summary: String? {
        "The caller's live sessions for the site origin names (its own without), oldest first."
    }
}

extension SessionService.Request {
    package static var summary: String? {
        "A request within a session (solana_signMessage, solana_signTransaction, solana_signAllTransactions, solana_signIn, solana_getAccounts, solana_requestAccounts; eth_accounts, eth_chainId, personal_sign, eth_signTypedData_v4, eth_signTransaction), checked against the session; answers the inner method's result. The wallet signs transactions and never sends them: eth_sendTransaction is 3001."
    }

    /// 7001: no such live session of the caller for the site (another site's is the same); 3005:
    /// a chain the session does not hold;
    /// 3001: a method it does not allow there (`eth_sendTransaction` always, `data.problem`
    /// saying to sign, then broadcast); 4100: a `pubkey` or `from` that is none of its accounts;
    /// 4001: the person declined to sign; -3: not signed otherwise (the key could not be
    /// unlocked, nobody could be asked, …); 8000: the request's `expiry` passed first.
    package static var errors: [RPCError] {
        [
            RPCError(.noSessionForTopic), RPCError(.unauthorizedChain), RPCError(.unauthorizedMethod),
            RPCError(.unauthorized), RPCError(.userRejectedRequest), RPCError(.notSigned),
            RPCError(.sessionRequestExpired),
        ]
    }
}

extension SessionService.Extend {
    package static var summary: String? {
        "Makes a session last the session lifetime (7 days unless configured) from now; answers its new expiry."
    }
    /// 7001: no such live session of the caller for the site (another site's is the same).
    package static var errors: [RPCError] { [RPCError(.noSessionForTopic)] }
}

extension SessionService.Disconnect {
    package static var summary: String? { "Ends a session; the extension's ports hear session_delete with the reason." }
    /// 7001: no such live session of the caller for the site (another site's is the same).
    package static var errors: [RPCError] { [RPCError(.noSessionForTopic)] }
}

/// The session methods' JSON Schemas (draft-07), and the parts they share.
///
/// What the readers check that these do not say, so that the schemas are looser there:
/// - a chain listed under a namespace key must be of that namespace (`solana` lists `solana:…`);
/// - limits in UTF-8 bytes (a method or event name, 256; a disconnect reason's message, 256)
///   are stated as the same number of characters, and all the method and event names of one
///   namespaces object together may hold at most 8192 bytes;
/// - a namespace and the keys that name its chains together hold at most 64 chains, methods and
///   events each;
/// - `solana_signMessage`'s `pubkey` must decode to exactly 32 bytes (the schema says 32 to 44
///   base58 digits, which every 32-byte key has);
/// - whole numbers (`expiry`, a reason's `code`) must be written without a fraction or an
///   exponent (`6000`, not `6000.0`);
/// - a web address is compared by characters, so `https://` followed by a combining mark is
///   refused;
/// - a site's `origin` (`SiteOrigin`) must also have labels of 1 to 63 bytes, a numeric last
///   label only in an IPv4 address written in dotted decimal, an IPv6 address `inet_pton`
///   reads, and a port from 1 to 65535 that is not the scheme's default;
/// - what depends on the wallet or the clock: which namespaces it supports (a proposal whose
///   only chains are unsupported optional ones is -32602), and an `expiry` 5 minutes to 7 days
///   from now.
enum SessionSchemas {
    // MARK: Grammars (CAIP.swift, `Session.isTopic`)

    /// `ChainID.isNamespace`: 3 to 8 of `[-a-z0-9]`.
    static let namespacePattern = "^[-a-z0-9]{3,8}$"
    /// `ChainID`: a namespace, a colon, and `ChainID.isReference`, 1 to 32 of `[-_a-zA-Z0-9]`.
    static let chainIDPattern = "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$"
    /// `AccountID`: a chain id, a colon, and `AccountID.isAddress`, 1 to 128 of `[-.%a-zA-Z0-9]`.
    static let accountIDPattern = "^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$"
    /// `PeerMetadata.isWebAddress`: `https://` or `http://`, the scheme in any case.
    static let webAddressPattern = "^[Hh][Tt][Tt][Pp][Ss]?://"
    /// Bitcoin's base58 alphabet (`Base58`).
    static let base58Digit = "[1-9A-HJ-NP-Za-km-z]"

    /// A site (`SiteOrigin`): a web origin as the browser serializes it.
    static let origin: JSONValue = [
        "type": "string", "maxLength": count(SiteOrigin.maxBytes),
        "pattern": "^https?://([a-z0-9_-]+(\\.[a-z0-9_-]+)*|\\[[0-9a-f:]+\\])(:[1-9][0-9]{0,4})?$",
        "description": .string(
            "The site: a web origin as the browser reported it to the extension (sender.origin), such as "
                + "https://app.example.com; scheme, lowercase host, and a port only when not the default"),
    ]
    /// The `origin` member of a method's params: which of the caller's sessions it acts on.
    static let originParam = origin.with(
        description:
            "The site the call is for, as the browser reported it to the extension (never what the page says): "
            + "only that site's sessions are seen and used. Left out: the extension's own sessions, without a site")

    static let topic: JSONValue = [
        "type": "string", "pattern": "^[0-9a-f]{64}$",
        "description": "A session's topic: 64 lowercase hex digits, as session_connect answered it",
    ]
    static let chainID: JSONValue = [
        "type": "string", "pattern": .string(chainIDPattern),
        "description": "A CAIP-2 chain id, namespace:reference (\(SolanaChain.mainnet))",
    ]
    static let accountID: JSONValue = [
        "type": "string", "pattern": .string(accountIDPattern),
        "description": "A CAIP-10 account id, chain:address; a Solana address is the base58 public key",
    ]
    /// Seconds since the Unix epoch.
    static let expiry: JSONValue = ["type": "integer", "description": "Seconds since the Unix epoch"]
    /// `expiry` as the host writes it (a result): a time after the epoch, and one a JavaScript
    /// number holds exactly, in place of the `Int` bounds derivation states, which say nothing of
    /// a time. Clients hold a session's expiry to these (js/src/session-schemas.js).
    static let expiryConstraint = JSONValue.object(
        (expiry.objectValue ?? [:]).merging(["minimum": 1, "maximum": 9_007_199_254_740_991]) { _, given in given })
    /// A 64-byte Ed25519 signature in base58.
    static let signatureDigits: JSONValue = ["type": "string", "pattern": "^\(base58Digit){64,88}$"]
    static let signature = signatureDigits.with(description: "The 64-byte Ed25519 signature, in base58")
    /// A 32-byte public key in base58.
    static let base58PublicKey: JSONValue = ["type": "string", "pattern": "^\(base58Digit){32,44}$"]

    // MARK: Namespaces (Namespaces.swift)

    /// A method or event name: not empty, at most 256 bytes of UTF-8.
    static let name: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": count(Namespace.maxStringBytes),
        "description": "At most \(Namespace.maxStringBytes) bytes of UTF-8",
    ]
    static let chains: JSONValue = [
        "type": "array", "items": chainID, "minItems": 1, "maxItems": count(Namespace.maxChains),
    ]
    static let methods: JSONValue = ["type": "array", "items": name, "maxItems": count(Namespace.maxMethods)]
    static let events: JSONValue = ["type": "array", "items": name, "maxItems": count(Namespace.maxEvents)]

    /// A namespace under its CAIP-2 namespace key: its chains, and the methods and events asked
    /// for (or granted) on them. Other members (`rpcMap`) are ignored.
    static let namespace: JSONValue = [
        "title": "Namespace", "type": "object",
        "properties": ["chains": chains, "methods": methods, "events": events],
        "required": ["chains", "methods", "events"],
    ]
    /// A namespace under a chain id key: that one chain, so no `chains`.
    static let chainNamespace: JSONValue = [
        "title": "ChainNamespace", "type": "object",
        "properties": ["chains": false, "methods": methods, "events": events],
        "required": ["methods", "events"],
    ]
    /// A session's namespace: as approved, with `accounts`, every chain with every key.
    static let sessionNamespace: JSONValue = [
        "title": "SessionNamespace", "type": "object",
        "properties": [
            "chains": chains, "methods": methods, "events": events, "accounts": ["type": "array", "items": accountID],
        ],
        "required": ["chains", "methods", "events", "accounts"],
    ]

    /// `requiredNamespaces` or `optionalNamespaces` of a proposal: keyed by namespace or by chain
    /// id; null or absent is none.
    static let proposedNamespaces: JSONValue = [
        "title": "ProposalNamespaces", "type": ["object", "null"], "maxProperties": count(Namespace.maxNamespaces),
        "patternProperties": [namespacePattern: namespace, chainIDPattern: chainNamespace],
        "additionalProperties": false,
    ]
    /// A proposal's namespaces as a session keeps them: chain id keys merged into their namespace.
    static let normalizedNamespaces: JSONValue = [
        "title": "Namespaces", "type": "object",
        "patternProperties": [namespacePattern: namespace],
        "additionalProperties": false,
    ]
    /// A session's approved namespaces: at least one.
    static let sessionNamespaces: JSONValue = [
        "title": "SessionNamespaces", "type": "object", "minProperties": 1,
        "patternProperties": [namespacePattern: sessionNamespace],
        "additionalProperties": false,
    ]

    // MARK: Metadata (Session.swift, `PeerMetadata`)

    static let metadataName: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": count(PeerMetadata.maxNameLength),
    ]
    static let metadataDescription: JSONValue = [
        "type": "string", "maxLength": count(PeerMetadata.maxDescriptionLength),
    ]
    /// Empty, or a web address.
    static let metadataURL: JSONValue = [
        "type": "string", "maxLength": count(PeerMetadata.maxURLLength),
        "anyOf": [["maxLength": 0], ["pattern": .string(webAddressPattern)]],
    ]
    static let metadataIcons: JSONValue = [
        "type": "array", "maxItems": count(PeerMetadata.maxIcons),
        "items": [
            "type": "string", "maxLength": count(PeerMetadata.maxIconLength), "pattern": .string(webAddressPattern),
        ],
    ]

    /// What an extension says of itself in a proposal: a name, the rest optional (null being
    /// absent); other members are ignored.
    static let proposedMetadata: JSONValue = [
        "title": "ProposalMetadata", "type": "object",
        "properties": [
            "name": metadataName, "description": orNull(metadataDescription), "url": orNull(metadataURL),
            "icons": orNull(metadataIcons),
        ],
        "required": ["name"],
    ]
    /// Metadata in a session: always all four members.
    static let metadata: JSONValue = [
        "title": "PeerMetadata", "type": "object",
        "properties": [
            "name": metadataName, "description": metadataDescription, "url": metadataURL, "icons": metadataIcons,
        ],
        "required": ["name", "description", "url", "icons"],
    ]

    // MARK: The parts of the namespace methods' params and results

    static let ethereumAddress: JSONValue = [
        "type": "string", "pattern": "^0x[0-9a-fA-F]{40}$",
        "description": "An Ethereum address (EIP-55 or one letter case)",
    ]
    /// A serialized Solana transaction (legacy or version 0) in standard padded base64 (whole
    /// groups of four characters, at least one): at most 1232 bytes. That it decodes, and what
    /// it holds, the host checks.
    static let solanaTransaction: JSONValue = [
        "type": "string", "pattern": "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)$",
        "maxLength": count(SolanaTransaction.maxBase64Characters),
        "description":
            "A serialized transaction (signatures, then the message), legacy or version 0, in standard base64: at most \(SolanaTransaction.maxBytes) bytes",
    ]
    /// A `pubkey` that may be left out or null: the host then chooses the key.
    static func optionalPublicKey(_ description: String) -> JSONValue {
        ["anyOf": [base58PublicKey, ["type": "null"]], "description": .string(description)]
    }
    /// An Ethereum JSON-RPC quantity: 0x and hex digits without leading zeros.
    static let quantity: JSONValue = ["type": "string", "pattern": "^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$"]
    static let hexBytes: JSONValue = ["type": "string", "pattern": "^0x([0-9a-fA-F]{2})*$"]
    /// `eth_signTransaction`'s transaction: an object as wallets take it (only the members the
    /// host reads, with a gas limit and a fee), or an unsigned serialized transaction in hex,
    /// which `address` (else the session's first account) signs. The host checks what the fields
    /// must hold together (a fee market transaction's two fees, never both kinds, the chain,
    /// canonical RLP), reading it for the request's chain when the method runs.
    static let ethereumTransaction: JSONValue = [
        "anyOf": [
            [
                "title": "EthereumTransactionRequest", "type": "object",
                "properties": [
                    "from": ethereumAddress.with(description: "The account that signs: one of the session's"),
                    "to": [
                        "anyOf": [ethereumAddress, ["type": "null"]],
                        "description": "Absent or null: a contract creation",
                    ],
                    "value": quantity, "nonce": quantity, "gas": quantity, "gasLimit": quantity,
                    "gasPrice": quantity,
                    "maxFeePerGas": quantity, "maxPriorityFeePerGas": quantity, "chainId": quantity,
                    "type": quantity,
                    "data": hexBytes, "input": hexBytes, "accessList": ["type": "array"],
                ],
                "additionalProperties": false,
                "required": ["from", "nonce"],
                "allOf": [
                    ["anyOf": [["required": ["gas"]], ["required": ["gasLimit"]]]],
                    [
                        "anyOf": [
                            ["required": ["gasPrice"]], ["required": ["maxFeePerGas", "maxPriorityFeePerGas"]],
                        ]
                    ],
                ],
            ],
            hexBytes.with(
                description: "An unsigned serialized transaction (EIP-2718 typed, or legacy RLP) in hex"),
        ]
    ]
    /// The inner request: its params are read for the signing methods.
    static let innerRequest: JSONValue = [
        "title": "SessionInnerRequest", "type": "object",
        "properties": ["method": ["type": "string"], "params": [:]],
        "required": ["method"],
        "anyOf": .array(
            [["properties": ["method": ["not": ["enum": .array(checkedMethods.map { .string($0.method) })]]]]]
                + checkedMethods.map { method, params -> JSONValue in
                    ["properties": ["method": ["const": .string(method)], "params": params], "required": ["params"]]
                }),
    ]
    /// The methods whose params the schema describes: those whose types read them (every
    /// schema but `{}`, `UnreadParams`'), each as its type says.
    static let checkedMethods: [(method: String, params: JSONValue)] = SessionService.namespaceMethodTypes.compactMap {
        method in
        let params = method.describedParams.schema
        return params == [:] ? nil : (method.name, params)
    }
    /// `session_request`'s `expiry`.
    static let requestExpiry = expiry.with(
        description: "When to give up waiting for the person, in seconds since the Unix epoch: 5 minutes to 7 days "
            + "from now")
    /// `session_request`'s result: the namespace methods' results (each type's
    /// `describedResult`), each shape once, in the table's order.
    static let requestResult: JSONValue = [
        "title": "SessionRequestResult",
        "anyOf": .array(
            SessionService.namespaceMethodTypes.reduce(into: [JSONValue]()) { shapes, method in
                let shape = method.describedResult.schema
                if !shapes.contains(shape) { shapes.append(shape) }
            }),
    ]
    /// `session_disconnect`'s `reason`.
    static let disconnectReason: JSONValue = [
        "title": "SessionReason", "type": "object",
        "properties": [
            "code": ["type": "integer"],
            "message": ["type": "string", "maxLength": 256, "description": "At most 256 bytes of UTF-8"],
        ],
        "required": ["code", "message"],
        "description": "What the extension's ports hear in session_delete; 6000 User disconnected unless given",
    ]

    // MARK: Helpers

    static func count(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// `schema` that also takes null: its `type` widened.
    static func orNull(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema, case .string(let type)? = members["type"] else { return schema }
        members["type"] = [.string(type), "null"]
        return .object(members)
    }
}

extension JSONValue {
    /// This schema with `description` set.
    func with(description: String) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members["description"] = .string(description)
        return .object(members)
    }
}
