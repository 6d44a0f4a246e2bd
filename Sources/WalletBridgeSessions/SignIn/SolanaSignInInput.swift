import WalletBridgeSystem
import WalletBridgeProtocol
import WalletBridgeConsent

/// The Wallet Standard's `SolanaSignInInput` (`solana:signIn`): what a site asks to sign in
/// with, every member optional. The wallet fills in `domain` and `address` when they are left
/// out, and builds the message text (`messageText`).
package struct SolanaSignInInput: Codable, Equatable, Sendable, JSONSchemaConstraining {
    package var domain: String?
    package var address: String?
    package var statement: String?
    package var uri: String?
    package var version: String?
    package var chainId: String?
    package var nonce: String?
    package var issuedAt: String?
    package var expirationTime: String?
    package var notBefore: String?
    package var requestId: String?
    package var resources: [String]?

    package init(
        domain: String? = nil, address: String? = nil, statement: String? = nil, uri: String? = nil,
        version: String? = nil,
        chainId: String? = nil, nonce: String? = nil, issuedAt: String? = nil, expirationTime: String? = nil,
        notBefore: String? = nil, requestId: String? = nil, resources: [String]? = nil
    ) {
        (self.domain, self.address, self.statement, self.uri, self.version, self.chainId) =
            (domain, address, statement, uri, version, chainId)
        (self.nonce, self.issuedAt, self.expirationTime, self.notBefore, self.requestId, self.resources) =
            (nonce, issuedAt, expirationTime, notBefore, requestId, resources)
    }

    /// The most bytes one member may hold (the statement, `maxStatementBytes`), and the most
    /// resources: a sign-in is a few hundred bytes, and the whole message is bounded again
    /// (`SolanaMethod.maxMessageBytes`).
    static let maxFieldBytes = 1024
    /// What makes a text read as a Sign In With Solana message to a person: such a text signed
    /// by `solana_signMessage` is treated as a sign-in (docs/sign-in.md).
    package static let marker = "wants you to sign in with your Solana account:"
    static let maxStatementBytes = 4096
    static let maxResources = 32

    package static var typeConstraints: [String: JSONValue] {
        [
            "description":
                "What to sign in with (Sign In With Solana); the wallet builds the message in the published format"
        ]
    }
    /// The bounds the reader holds each member to, null being none; what the readers also check
    /// of each (one line of visible text, the domain an RFC 3986 authority) a schema does not say.
    package static var memberConstraints: [String: JSONValue] {
        let line: JSONValue = ["type": ["string", "null"], "maxLength": SessionSchemas.count(maxFieldBytes)]
        var members: [String: JSONValue] = [
            "domain": line.with(description: "The site's host[:port]; the session's site when left out"),
            "address": [
                "type": .null, "anyOf": [SessionSchemas.base58PublicKey, ["type": "null"]],
                "description": "One of the session's keys; the first when left out",
            ],
            "statement": ["type": ["string", "null"], "maxLength": SessionSchemas.count(maxStatementBytes)],
            "resources": ["type": ["array", "null"], "maxItems": SessionSchemas.count(maxResources)],
        ]
        for (member, _) in labels { members[member] = line }
        return members
    }

    /// The members whose values are one line each, in the message's order after the
    /// statement, with their labels there.
    static let labels: [(member: String, label: String)] = [
        ("uri", "URI: "), ("version", "Version: "), ("chainId", "Chain ID: "), ("nonce", "Nonce: "),
        ("issuedAt", "Issued At: "),
        ("expirationTime", "Expiration Time: "), ("notBefore", "Not Before: "), ("requestId", "Request ID: "),
    ]

    /// Reads `solana_signIn`'s params: an object (`{}`: nothing given) whose members are strings
    /// or null (left out), `resources` an array of them. Every member but the statement is one
    /// line of visible text: a line break there would let the text say something the fields do
    /// not. The statement may have lines of its own, none of which may start like a field
    /// (`URI: `, `Resources:`), for the same reason. A fault is -32602 naming its place.
    package init(from decoder: any Decoder) throws {
        self.init()
        let members = try NamespaceParams.object(
            decoder, keyedBy: NamespaceParams.Key.self,
            expected: "expected the Sign In With Solana input: an object whose members are all optional ({} for none)")
        func field(_ name: String) -> String { NamespaceParams.field(members.codingPath, NamespaceParams.Key(name)) }
        func text(_ name: String, limit: Int = Self.maxFieldBytes) throws -> String? {
            let given: String?
            do {
                given = try members.decodeIfPresent(String.self, forKey: NamespaceParams.Key(name))
            } catch is DecodingError {
                throw SessionService.invalid(field(name), "expected a string")
            }
            guard let text = given else { return nil }
            guard text.utf8.count <= limit else {
                throw SessionService.invalid(field(name), "longer than \(DisplayText.grouped(limit)) bytes")
            }
            if name != "statement" { try Self.checkOneLine(text, field: field(name)) }
            return text
        }
        domain = try members.decodeIfPresent(SignInDomainMember.self, forKey: NamespaceParams.Key("domain"))?.domain
        address = try text("address")
        statement = try text("statement", limit: Self.maxStatementBytes)
        if let statement { try Self.checkStatement(statement, field: field("statement")) }
        uri = try text("uri")
        // An RFC 3986 URI, as in Sign-In with Ethereum: anything else (a backslash, which
        // browsers read as "/") could name another site than the one the check reads.
        if let uri, !uri.isEmpty, !SignInSyntax.isURI(uri) {
            throw SessionService.invalid(field("uri"), "expected an RFC 3986 URI such as https://app.example.com/login")
        }
        version = try text("version")
        chainId = try text("chainId")
        nonce = try text("nonce")
        issuedAt = try text("issuedAt")
        expirationTime = try text("expirationTime")
        notBefore = try text("notBefore")
        requestId = try text("requestId")
        resources = try Self.resources(members, field: field("resources"))
    }

    /// `resources`: nil when absent or null; else at most `maxResources` URIs, counted before
    /// any is read.
    private static func resources(
        _ members: KeyedDecodingContainer<NamespaceParams.Key>, field: String
    ) throws -> [String]? {
        let key = NamespaceParams.Key("resources")
        guard members.contains(key), try !members.decodeNil(forKey: key) else { return nil }
        var items: any UnkeyedDecodingContainer
        do {
            items = try members.nestedUnkeyedContainer(forKey: key)
        } catch is DecodingError {
            throw SessionService.invalid(field, "expected an array of strings")
        }
        if let count = items.count, count > maxResources {
            throw SessionService.invalid(field, "at most \(maxResources) resources, not \(count)")
        }
        var resources: [String] = []
        while !items.isAtEnd { resources.append(try items.decode(SignInResourceMember.self).resource) }
        return resources
    }

    /// The members given, as `init(from:)` reads them.
    package func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: NamespaceParams.Key.self)
        let texts = [
            ("domain", domain), ("address", address), ("statement", statement), ("uri", uri), ("version", version),
            ("chainId", chainId), ("nonce", nonce), ("issuedAt", issuedAt), ("expirationTime", expirationTime),
            ("notBefore", notBefore), ("requestId", requestId),
        ]
        for (name, value) in texts { try members.encodeIfPresent(value, forKey: NamespaceParams.Key(name)) }
        try members.encodeIfPresent(resources, forKey: NamespaceParams.Key("resources"))
    }

    /// `domain`: one line, the site's host and optional port (an RFC 3986 authority). A type of
    /// its own, so that derivation, which reads an empty string, does not run the check.
    struct SignInDomainMember: SessionParamsMember {
        let domain: String
        init(json: JSONValue?, field: String) throws(RPCError) {
            guard case .string(let text)? = json else { throw SessionService.invalid(field, "expected a string") }
            guard text.utf8.count <= maxFieldBytes else {
                throw SessionService.invalid(field, "longer than \(DisplayText.grouped(maxFieldBytes)) bytes")
            }
            try checkOneLine(text, field: field)
            guard !text.isEmpty, SignInSyntax.isAuthority(ArraySlice(Array(text.utf8))) else {
                throw SessionService.invalid(
                    field, "expected the site's host and optional port (an RFC 3986 authority)")
            }
            domain = text
        }
        private init(domain: String) { self.domain = domain }
        var json: JSONValue { .string(domain) }
        static var jsonSchema: JSONValue { ["type": "string"] }
        static var schemaPlaceholder: Self { Self(domain: "") }
    }

    /// One of `resources`: a URI, one line. A type of its own, as `SignInDomainMember` is.
    struct SignInResourceMember: SessionParamsMember {
        let resource: String
        init(json: JSONValue?, field: String) throws(RPCError) {
            guard case .string(let text)? = json, !text.isEmpty else {
                throw SessionService.invalid(field, "expected a non-empty string")
            }
            guard text.utf8.count <= maxFieldBytes else {
                throw SessionService.invalid(field, "longer than \(DisplayText.grouped(maxFieldBytes)) bytes")
            }
            try checkOneLine(text, field: field)
            guard SignInSyntax.isURI(text) else {
                throw SessionService.invalid(field, "expected an RFC 3986 URI such as https://app.example.com/terms")
            }
            resource = text
        }
        private init(resource: String) { self.resource = resource }
        var json: JSONValue { .string(resource) }
        static var jsonSchema: JSONValue {
            ["type": "string", "minLength": 1, "maxLength": SessionSchemas.count(maxFieldBytes)]
        }
        static var schemaPlaceholder: Self { Self(resource: "") }
    }

    private static func checkOneLine(_ text: String, field: String) throws(RPCError) {
        guard !text.unicodeScalars.contains(where: DisplayText.isHidden) else {
            throw SessionService.invalid(
                field, "must be one line of visible text: no line breaks, control or format characters")
        }
    }

    private static func checkStatement(_ text: String, field: String) throws(RPCError) {
        guard !text.unicodeScalars.contains(where: { $0 != "\n" && DisplayText.isHidden($0) }) else {
            throw SessionService.invalid(field, "may hold line breaks (\\n), and no other control or format characters")
        }
        let fieldStarts = labels.map(\.label) + ["Resources:"]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false)
        where fieldStarts.contains(where: { line.hasPrefix($0) }) {
            throw SessionService.invalid(
                field,
                "a line of it starts like a field of the message (\"URI: \", \"Resources:\"…), which would read as one")
        }
    }

    /// The message text in the published Sign In With Solana format (the Wallet Standard's
    /// `createSignInMessageText`), for `domain` and `address`, which the caller has filled in:
    /// the title line and the address; the statement after an empty line, when not empty; then
    /// after an empty line the fields that are given and not empty, in their order, and
    /// "Resources:" with a "- " line per resource when there is a list (even an empty one).
    package func messageText(domain: String, address: String) -> String {
        var message = "\(domain) wants you to sign in with your Solana account:\n\(address)"
        if let statement, !statement.isEmpty { message += "\n\n\(statement)" }
        let values = [uri, version, chainId, nonce, issuedAt, expirationTime, notBefore, requestId]
        var fields: [String] = []
        for ((_, label), value) in zip(Self.labels, values) {
            if let value, !value.isEmpty { fields.append(label + value) }
        }
        if let resources {
            fields.append("Resources:")
            fields += resources.map { "- \($0)" }
        }
        if !fields.isEmpty { message += "\n\n" + fields.joined(separator: "\n") }
        return message
    }
}
