import WalletBridgeConsent
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol

/// What one side of a session says about itself: WalletConnect's metadata. An extension's is
/// self-declared, so a dialog shows it as that, under the name the browser gives the extension.
package struct PeerMetadata: Equatable, Sendable {
    package var name: String
    /// Empty when not given: the wire always carries all four members, as WalletConnect's does.
    package var description: String
    package var url: String
    package var icons: [String]

    /// Limits in Unicode scalars, not characters: one character can carry any number of
    /// combining marks, so a limit in characters would not bound the bytes.
    package static let maxNameLength = 100
    package static let maxDescriptionLength = 500
    package static let maxURLLength = 2048
    package static let maxIcons = 8
    package static let maxIconLength = 2048

    /// Not checked: for metadata the wallet writes itself.
    package init(name: String, description: String = "", url: String = "", icons: [String] = []) {
        self.name = name
        self.description = description
        self.url = url
        self.icons = icons
    }

    /// Reads the params member `field`: `name` required (1 to 100 scalars), `description`
    /// (at most 500), `url` (at most 2048) and `icons` (at most 8 of at most 2048) optional,
    /// null being absent. Other members are ignored. A fault is -32602 naming it
    /// (`metadata.icons[2]`).
    package static func parse(_ value: JSONValue?, field: String = "metadata") throws(RPCError) -> PeerMetadata {
        guard let value else { throw Namespaces.invalid(field, "required: an object with at least a name") }
        guard case .object(let members) = value else {
            throw Namespaces.invalid(field, "expected an object, found \(value.typeName)")
        }
        guard let name = try string(members["name"], field: "\(field).name", maxLength: maxNameLength) else {
            throw Namespaces.invalid(
                "\(field).name", "required: the extension's name, 1 to \(maxNameLength) characters")
        }
        guard !name.isEmpty else { throw Namespaces.invalid("\(field).name", "must not be empty") }
        var icons: [String] = []
        switch members["icons"] {
        case nil, .null?:
            break
        case .array(let elements)?:
            guard elements.count <= maxIcons else {
                throw Namespaces.invalid("\(field).icons", "at most \(maxIcons) icons, not \(elements.count)")
            }
            for (index, element) in elements.enumerated() {
                guard case .string(let icon) = element else {
                    throw Namespaces.invalid("\(field).icons[\(index)]", "expected a string, found \(element.typeName)")
                }
                guard icon.unicodeScalars.count <= maxIconLength else {
                    throw Namespaces.invalid("\(field).icons[\(index)]", "longer than \(maxIconLength) characters")
                }
                guard isWebAddress(icon) else {
                    throw Namespaces.invalid("\(field).icons[\(index)]", "expected an https: or http: address")
                }
                icons.append(icon)
            }
        case let other?:
            throw Namespaces.invalid("\(field).icons", "expected an array of strings, found \(other.typeName)")
        }
        let url = try string(members["url"], field: "\(field).url", maxLength: maxURLLength) ?? ""
        // Shown in the dialog beside the extension's name: a javascript: or data: "address"
        // there would be a claim no person can weigh.
        guard url.isEmpty || isWebAddress(url) else {
            throw Namespaces.invalid("\(field).url", "expected an https: or http: address")
        }
        return PeerMetadata(
            name: name,
            description: try string(
                members["description"], field: "\(field).description", maxLength: maxDescriptionLength) ?? "",
            url: url,
            icons: icons
        )
    }

    /// An `https://` or `http://` address, scheme in any case.
    static func isWebAddress(_ text: String) -> Bool {
        let lowered = text.prefix(8).lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// Nil when absent or null.
    private static func string(_ value: JSONValue?, field: String, maxLength: Int) throws(RPCError) -> String? {
        switch value {
        case nil, .null?:
            return nil
        case .string(let text)?:
            guard text.unicodeScalars.count <= maxLength else {
                throw Namespaces.invalid(field, "longer than \(maxLength) characters")
            }
            return text
        case let other?:
            throw Namespaces.invalid(field, "expected a string, found \(other.typeName)")
        }
    }

    /// `{"name", "description", "url", "icons"}`.
    package var json: JSONValue {
        .object([
            "name": .string(name), "description": .string(description), "url": .string(url),
            "icons": .array(icons.map(JSONValue.string)),
        ])
    }
}

/// The caller a session belongs to: the identity the browser gave the host, which an
/// extension cannot choose. Only the same identity can see, use, extend or end the session.
package struct SessionCaller: Hashable, Sendable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case chromeExtension = "chrome-extension"
        case firefoxAddon = "firefox-addon"
        case unidentified
    }

    package let kind: Kind
    /// The origin (`chrome-extension://<ID>/`) or the add-on ID; empty for an unidentified
    /// caller. A Firefox manifest path is not part of it: one add-on is one caller whichever
    /// manifest started the host, as for the policy.
    package let id: String

    package init(_ caller: Caller) {
        switch caller {
        case .chromeExtension(let origin): (kind, id) = (.chromeExtension, origin)
        case .firefoxAddon(let addon, _): (kind, id) = (.firefoxAddon, addon)
        case .unidentified: (kind, id) = (.unidentified, "")
        }
    }

    package init(kind: Kind, id: String) {
        self.kind = kind
        self.id = kind == .unidentified ? "" : id
    }

    package var description: String { kind == .unidentified ? "an unidentified caller" : id }
}

/// An approval: what one caller may do, until when (docs/sessions.md).
package struct Session: Equatable, Sendable {
    /// 64 lowercase hex digits.
    package var topic: String
    package var caller: SessionCaller
    /// The site the session is for: a web origin (`https://app.example.com`) as the extension
    /// reported it from what the browser told it. Nil for a session of the extension itself.
    /// A session belongs to (caller, origin): only calls naming the same origin can use it.
    package var origin: String?
    /// The extension's name in the browser's profile, when it was found.
    package var callerName: String?
    /// The extension's own, self-declared.
    package var metadata: PeerMetadata
    /// As proposed (chain id keys merged into their namespace).
    package var requiredNamespaces: Namespaces
    package var optionalNamespaces: Namespaces
    /// As approved, without accounts: those are the keystore's keys when they are read.
    package var namespaces: Namespaces
    /// Seconds since the Unix epoch.
    package var created: Int
    /// Seconds since the Unix epoch; the session is over from this second on.
    package var expiry: Int

    package init(
        topic: String = Session.newTopic(), caller: SessionCaller, origin: String? = nil, callerName: String?,
        metadata: PeerMetadata,
        requiredNamespaces: Namespaces, optionalNamespaces: Namespaces, namespaces: Namespaces, created: Int,
        expiry: Int
    ) {
        self.topic = topic
        self.caller = caller
        self.origin = origin
        self.callerName = callerName
        self.metadata = metadata
        self.requiredNamespaces = requiredNamespaces
        self.optionalNamespaces = optionalNamespaces
        self.namespaces = namespaces
        self.created = created
        self.expiry = expiry
    }

    /// A fresh topic: 32 random bytes in lowercase hex, as WalletConnect's are. The topic only
    /// names the session; what protects it is that the caller must match.
    package static func newTopic() -> String {
        Hex.encode(Sodium.randomBytes(count: 32))
    }

    /// True when `text` has the shape of a topic.
    package static func isTopic(_ text: String) -> Bool {
        CAIPSyntax.matches(text, lengths: 64...64) {
            CAIPSyntax.isDigit($0) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
    }

    /// True when the session is `caller`'s for the site `origin`: the same extension and the
    /// same site, or no site on both sides (the extension's own session).
    package func belongs(to caller: SessionCaller, origin: String?) -> Bool {
        self.caller == caller && self.origin == origin
    }

    /// True until `expiry`.
    package func isLive(at now: Int) -> Bool { now < expiry }

    /// The wallet's own metadata, the session's `peer`. No URL: the project has no home page
    /// to name yet, and a made-up one would be worse than none.
    package static let walletMetadata = PeerMetadata(
        name: "wallet-bridge",
        description: "A desktop wallet for browser extensions, through native messaging"
    )

    /// The session as docs/sessions.md writes it: `topic`, `namespaces` with the wallet's
    /// `accounts`, `requiredNamespaces`, `optionalNamespaces`, `expiry`, `self` (the caller's
    /// metadata) and `peer` (the wallet's).
    /// `origin` too, for a session of a site (absent for one of the extension itself).
    package func wire(accounts: SessionAccounts, wallet: PeerMetadata = Session.walletMetadata) -> SessionWire {
        SessionWire(
            expiry: expiry, namespaces: namespaces.json(accounts: accounts),
            optionalNamespaces: optionalNamespaces.json(), origin: origin,
            peer: SessionWire.Side(metadata: wallet.json), requiredNamespaces: requiredNamespaces.json(),
            caller: SessionWire.Side(metadata: metadata.json), topic: topic)
    }

    /// The params of a notification about this session (`session_event`, `session_update`,
    /// `session_delete`, `session_expire`): `members`, its `topic`, and its `origin` when it has
    /// one, so that an extension's background can pass it to that site's pages without a lookup.
    package func notification(_ members: [String: JSONValue] = [:]) -> JSONValue {
        var params = members
        params["topic"] = .string(topic)
        if let origin { params["origin"] = .string(origin) }
        return .object(params)
    }

    // MARK: Storage

    /// The session as the sessions file keeps it: every field, the caller as `{"kind", "id"}`.
    package func stored() -> JSONValue {
        var members: [String: JSONValue] = [
            "topic": .string(topic),
            "caller": .object(["kind": .string(caller.kind.rawValue), "id": .string(caller.id)]),
            "metadata": metadata.json,
            "requiredNamespaces": requiredNamespaces.json(),
            "optionalNamespaces": optionalNamespaces.json(),
            "namespaces": namespaces.json(),
            "created": .number(JSONNumber(created)),
            "expiry": .number(JSONNumber(expiry)),
        ]
        if let callerName { members["callerName"] = .string(callerName) }
        if let origin { members["origin"] = .string(origin) }
        return .object(members)
    }

    /// Reads what `stored()` wrote, with the checks of the wire (a stored session is read back
    /// with the same limits it was accepted under). A fault is -32602 naming the member. A file
    /// written before sessions had sites has no `origin`: its sessions are the extensions' own.
    package init(stored value: JSONValue) throws(RPCError) {
        guard case .object(let members) = value else {
            throw Namespaces.invalid("session", "expected an object, found \(value.typeName)")
        }
        guard case .string(let topic)? = members["topic"], Self.isTopic(topic) else {
            throw Namespaces.invalid("topic", "expected 64 lowercase hex digits")
        }
        guard case .object(let caller)? = members["caller"], case .string(let kindName)? = caller["kind"],
            let kind = SessionCaller.Kind(rawValue: kindName), case .string(let id)? = caller["id"]
        else {
            throw Namespaces.invalid("caller", "expected {\"kind\", \"id\"} with a known kind")
        }
        var callerName: String?
        switch members["callerName"] {
        case nil, .null?: callerName = nil
        case .string(let name)?: callerName = name
        case let other?: throw Namespaces.invalid("callerName", "expected a string, found \(other.typeName)")
        }
        func integer(_ name: String) throws(RPCError) -> Int {
            guard case .number(let number)? = members[name], let value = Int(number.literal) else {
                throw Namespaces.invalid(name, "expected an integer")
            }
            return value
        }
        self.init(
            topic: topic,
            caller: SessionCaller(kind: kind, id: id),
            origin: try SiteOrigin.parse(members["origin"]),
            callerName: callerName,
            metadata: try PeerMetadata.parse(members["metadata"]),
            requiredNamespaces: try Namespaces.parse(members["requiredNamespaces"], field: "requiredNamespaces"),
            optionalNamespaces: try Namespaces.parse(members["optionalNamespaces"], field: "optionalNamespaces"),
            namespaces: try Namespaces.parse(members["namespaces"], field: "namespaces"),
            created: try integer("created"),
            expiry: try integer("expiry")
        )
    }
}

/// A session as `session_connect` and `session_list` answer it (`Session.wire`). The
/// namespaces and metadata are their readers' wire shapes (`Namespaces.json`, `PeerMetadata.json`).
package struct SessionWire: Codable, Equatable, Sendable {
    // Declared in key order: the encoder writes members in declaration order, so the answer's
    // bytes stay those it had as a JSON object (written with sorted keys).
    package var expiry: Int
    package var namespaces: JSONValue
    package var optionalNamespaces: JSONValue
    /// The site's, for a session of a site; absent for one of the extension itself.
    package var origin: String?
    /// The wallet's metadata.
    package var peer: Side
    package var requiredNamespaces: JSONValue
    /// The caller's metadata (`self` on the wire).
    package var caller: Side
    package var topic: String

    package struct Side: Codable, Equatable, Sendable {
        package var metadata: JSONValue
    }

    enum CodingKeys: String, CodingKey {
        case expiry, namespaces, optionalNamespaces, origin, peer, requiredNamespaces, caller = "self", topic
    }
}

/// What a session's schema says beyond its members' types: their grammars, and the readers'
/// shapes of the members kept as JSON (`SessionSchemas`).
extension SessionWire: JSONSchemaConstraining {
    package static var typeConstraints: [String: JSONValue] { ["title": "Session"] }
    package static var memberConstraints: [String: JSONValue] {
        [
            "topic": SessionSchemas.topic,
            "origin": SessionSchemas.origin.with(
                description: "The site the session is for; absent for the extension's own session"),
            "namespaces": SessionSchemas.sessionNamespaces,
            "requiredNamespaces": SessionSchemas.normalizedNamespaces,
            "optionalNamespaces": SessionSchemas.normalizedNamespaces,
            "expiry": SessionSchemas.expiryConstraint,
            "self": ["description": "The caller: the extension's metadata, as proposed"],
            "peer": ["description": "The wallet"],
        ]
    }
}

extension SessionWire.Side: JSONSchemaConstraining {
    /// Untitled: `self` and `peer` are one shape, not a type of their own to a client.
    package static var typeConstraints: [String: JSONValue] { ["title": .null] }
    package static var memberConstraints: [String: JSONValue] { ["metadata": SessionSchemas.metadata] }
}
