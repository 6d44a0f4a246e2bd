import WalletBridgeConsent
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeSystem
import WalletBridgeTransactions

// The params of the five session methods as types, read by the router's one decoder. Each
// member that needs more than its JSON type is a `SessionParamsMember`: it is read by the same
// reader as before (`SiteOrigin.parse`, `Namespaces.parse`, `PeerMetadata.parse`, …), so a bad
// member is the same -32602 naming the same field, and states its own schema (`SessionSchemas`'
// parts) while the params' object schema is derived from the type.

/// A params member read by its own reader, which words every fault, its absence included.
package protocol SessionParamsMember: Codable, Sendable, JSONSchemaPlaceholding {
    /// Reads `json`, the params member `field` (nil: absent).
    init(json: JSONValue?, field: String) throws(RPCError)
    /// The member as the reader took it (what `encode(to:)` writes).
    var json: JSONValue { get }
}

extension SessionParamsMember {
    package init(from decoder: any Decoder) throws {
        let json = try decoder.singleValueContainer().decode(JSONValue.self)
        try self.init(json: json, field: SessionParams.field(decoder.codingPath))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(json)
    }
}

/// What the session methods' params share.
package enum SessionParams {
    /// `requiredNamespaces.solana`, `request.params[1]`: a member's place, as -32602 names it.
    static func field(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(into: "") { field, key in
            if let index = key.intValue {
                field += "[\(index)]"
            } else {
                field += field.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    /// The params' members; anything but an object (or `[]`, read as `{}`) is -32602 on
    /// `params`, as before the params were types.
    static func members<Key: CodingKey>(
        _ decoder: any Decoder, keyedBy: Key.Type
    ) throws -> KeyedDecodingContainer<Key> {
        do {
            return try decoder.container(keyedBy: Key.self)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw SessionService.invalid("params", "expected an object")
        }
    }
}

extension KeyedDecodingContainer {
    /// A required member: its reader words its absence, as it words any other fault (the
    /// decoder's own "required field is missing" would say less).
    func decodeMember<T: SessionParamsMember>(_ type: T.Type, forKey key: Key) throws -> T {
        guard contains(key) else { return try T(json: nil, field: SessionParams.field(codingPath + [key])) }
        return try decode(T.self, forKey: key)
    }

    /// An optional member: absent or null is nil, as for any method's params; anything else
    /// goes to its reader.
    func decodeMemberIfPresent<T: SessionParamsMember>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decodeIfPresent(T.self, forKey: key)
    }
}

// MARK: The members

/// `origin`: a site as the browser serializes it (`SiteOrigin`); absent or null is none.
package struct SessionOriginMember: SessionParamsMember {
    package let origin: String?
    package init(json: JSONValue?, field: String) throws(RPCError) { origin = try SiteOrigin.parse(json, field: field) }
    package var json: JSONValue { origin.map(JSONValue.string) ?? .null }
    package static var jsonSchema: JSONValue { SessionSchemas.originParam }
    package static var schemaPlaceholder: Self { Self(origin: nil) }
    private init(origin: String?) { self.origin = origin }
}

/// `topic`: 64 lowercase hex digits (`Session.isTopic`).
package struct SessionTopicMember: SessionParamsMember {
    package let topic: String
    package init(json: JSONValue?, field: String) throws(RPCError) {
        guard case .string(let topic)? = json, Session.isTopic(topic) else {
            throw SessionService.invalid(field, "expected 64 lowercase hex digits")
        }
        self.topic = topic
    }
    package var json: JSONValue { .string(topic) }
    package static var jsonSchema: JSONValue { SessionSchemas.topic }
    package static var schemaPlaceholder: Self { Self(topic: "") }
    private init(topic: String) { self.topic = topic }
}

/// `requiredNamespaces`, `optionalNamespaces`: a proposal's namespaces (`Namespaces.parse`).
package struct SessionNamespacesMember: SessionParamsMember {
    package let namespaces: Namespaces
    package init(json: JSONValue?, field: String) throws(RPCError) {
        namespaces = try Namespaces.parse(json, field: field)
    }
    package var json: JSONValue { .object(namespaces.mapValues { $0.json() }) }
    package static var jsonSchema: JSONValue { SessionSchemas.proposedNamespaces }
    package static var schemaPlaceholder: Self { Self(namespaces: [:]) }
    private init(namespaces: Namespaces) { self.namespaces = namespaces }
}

/// `metadata`: what the extension says of itself (`PeerMetadata.parse`).
package struct SessionMetadataMember: SessionParamsMember {
    package let metadata: PeerMetadata
    package init(json: JSONValue?, field: String) throws(RPCError) {
        metadata = try PeerMetadata.parse(json, field: field)
    }
    package var json: JSONValue { metadata.json }
    package static var jsonSchema: JSONValue { SessionSchemas.proposedMetadata }
    package static var schemaPlaceholder: Self { Self(metadata: PeerMetadata(name: "")) }
    private init(metadata: PeerMetadata) { self.metadata = metadata }
}

/// `chainId`: a CAIP-2 chain id.
package struct SessionChainMember: SessionParamsMember {
    package let chain: ChainID
    package init(json: JSONValue?, field: String) throws(RPCError) {
        guard case .string(let text)? = json, let chain = ChainID(text) else {
            throw SessionService.invalid(field, "expected a CAIP-2 chain id such as \(SolanaChain.mainnet)")
        }
        self.chain = chain
    }
    package var json: JSONValue { .string(chain.description) }
    package static var jsonSchema: JSONValue { SessionSchemas.chainID }
    package static var schemaPlaceholder: Self { Self(chain: SolanaChain.mainnet) }
    private init(chain: ChainID) { self.chain = chain }
}

/// `request`: the inner request, `{"method", "params"?}`; its params are the method's to read.
package struct SessionInnerRequestMember: SessionParamsMember {
    package let method: String
    package let params: JSONValue?
    package init(json: JSONValue?, field: String) throws(RPCError) {
        guard case .object(let inner)? = json, case .string(let method)? = inner["method"] else {
            throw SessionService.invalid("\(field).method", "expected a string")
        }
        (self.method, self.params) = (method, inner["params"])
    }
    package var json: JSONValue {
        var members: [String: JSONValue] = ["method": .string(method)]
        if let params { members["params"] = params }
        return .object(members)
    }
    package static var jsonSchema: JSONValue { SessionSchemas.innerRequest }
    package static var schemaPlaceholder: Self { Self(method: "", params: nil) }
    private init(method: String, params: JSONValue?) { (self.method, self.params) = (method, params) }
}

/// `expiry`: whole seconds since the Unix epoch; whether it is in range depends on the clock
/// (`SessionService.requestExpiryRange`), checked by the method.
package struct SessionExpiryMember: SessionParamsMember {
    package let seconds: Int
    package init(json: JSONValue?, field: String) throws(RPCError) {
        guard case .number(let number)? = json, let seconds = Int(number.literal) else {
            throw SessionService.invalid(field, "expected whole seconds since the Unix epoch")
        }
        self.seconds = seconds
    }
    package var json: JSONValue { .number(JSONNumber(seconds)) }
    package static var jsonSchema: JSONValue { SessionSchemas.requestExpiry }
    package static var schemaPlaceholder: Self { Self(seconds: 0) }
    private init(seconds: Int) { self.seconds = seconds }
}

/// `reason`: what a disconnect tells the extension's ports, `{"code", "message"}`.
package struct SessionReasonMember: SessionParamsMember {
    package let json: JSONValue
    package init(json: JSONValue?, field: String) throws(RPCError) {
        guard case .object(let parts)? = json, case .number(let code)? = parts["code"], Int(code.literal) != nil,
            case .string(let message)? = parts["message"], message.utf8.count <= 256
        else {
            throw SessionService.invalid(
                field, "expected {\"code\": integer, \"message\": string of at most 256 bytes}")
        }
        self.json = .object(["code": .number(code), "message": .string(message)])
    }
    package static var jsonSchema: JSONValue { SessionSchemas.disconnectReason }
    package static var schemaPlaceholder: Self { Self(placeholder: ()) }
    private init(placeholder: Void) { json = .null }
}

// MARK: The params

/// `session_connect`'s: the proposal.
package struct SessionConnectParams: Codable, Sendable {
    package var origin: SessionOriginMember?
    package var requiredNamespaces: SessionNamespacesMember?
    package var optionalNamespaces: SessionNamespacesMember?
    package var metadata: SessionMetadataMember

    private enum CodingKeys: String, CodingKey { case origin, requiredNamespaces, optionalNamespaces, metadata }

    package init(from decoder: any Decoder) throws {
        // In the order they were always checked: the same proposal gets the same answer.
        let members = try SessionParams.members(decoder, keyedBy: CodingKeys.self)
        origin = try members.decodeMemberIfPresent(SessionOriginMember.self, forKey: .origin)
        let namespaces = SessionNamespacesMember.self
        requiredNamespaces = try members.decodeMemberIfPresent(namespaces, forKey: .requiredNamespaces)
        optionalNamespaces = try members.decodeMemberIfPresent(namespaces, forKey: .optionalNamespaces)
        metadata = try members.decodeMember(SessionMetadataMember.self, forKey: .metadata)
    }
}

/// `session_list`'s: the site whose sessions to list (none: the extension's own).
package struct SessionListParams: Codable, Sendable {
    package var origin: SessionOriginMember?

    private enum CodingKeys: String, CodingKey { case origin }

    package init(from decoder: any Decoder) throws {
        let members = try SessionParams.members(decoder, keyedBy: CodingKeys.self)
        origin = try members.decodeMemberIfPresent(SessionOriginMember.self, forKey: .origin)
    }
}

/// `session_extend`'s: which session.
package struct SessionExtendParams: Codable, Sendable {
    package var origin: SessionOriginMember?
    package var topic: SessionTopicMember

    private enum CodingKeys: String, CodingKey { case origin, topic }

    package init(from decoder: any Decoder) throws {
        let members = try SessionParams.members(decoder, keyedBy: CodingKeys.self)
        origin = try members.decodeMemberIfPresent(SessionOriginMember.self, forKey: .origin)
        topic = try members.decodeMember(SessionTopicMember.self, forKey: .topic)
    }
}

/// `session_disconnect`'s: which session, and what its ports are told.
package struct SessionDisconnectParams: Codable, Sendable {
    package var origin: SessionOriginMember?
    package var topic: SessionTopicMember
    package var reason: SessionReasonMember?

    private enum CodingKeys: String, CodingKey { case origin, topic, reason }

    package init(from decoder: any Decoder) throws {
        let members = try SessionParams.members(decoder, keyedBy: CodingKeys.self)
        origin = try members.decodeMemberIfPresent(SessionOriginMember.self, forKey: .origin)
        topic = try members.decodeMember(SessionTopicMember.self, forKey: .topic)
        reason = try members.decodeMemberIfPresent(SessionReasonMember.self, forKey: .reason)
    }
}

/// `session_request`'s: the session, the chain, and the request inside it.
package struct SessionRequestParams: Codable, Sendable {
    package var origin: SessionOriginMember?
    package var topic: SessionTopicMember
    package var chainId: SessionChainMember
    package var request: SessionInnerRequestMember
    package var expiry: SessionExpiryMember?

    private enum CodingKeys: String, CodingKey { case origin, topic, chainId, request, expiry }

    package init(from decoder: any Decoder) throws {
        let members = try SessionParams.members(decoder, keyedBy: CodingKeys.self)
        origin = try members.decodeMemberIfPresent(SessionOriginMember.self, forKey: .origin)
        topic = try members.decodeMember(SessionTopicMember.self, forKey: .topic)
        chainId = try members.decodeMember(SessionChainMember.self, forKey: .chainId)
        request = try members.decodeMember(SessionInnerRequestMember.self, forKey: .request)
        expiry = try members.decodeMemberIfPresent(SessionExpiryMember.self, forKey: .expiry)
    }
}
