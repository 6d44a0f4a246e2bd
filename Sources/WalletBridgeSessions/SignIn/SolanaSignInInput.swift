import WalletBridgeSystem
import WalletBridgeProtocol
import WalletBridgeConsent

/// The Wallet Standard's `SolanaSignInInput` (`solana:signIn`): what a site asks to sign in
/// with, every member optional. The wallet fills in `domain` and `address` when they are left
/// out, and builds the message text (`messageText`).
package struct SolanaSignInInput: Equatable, Sendable {
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

    /// The members whose values are one line each, in the message's order after the
    /// statement, with their labels there.
    static let labels: [(member: String, label: String)] = [
        ("uri", "URI: "), ("version", "Version: "), ("chainId", "Chain ID: "), ("nonce", "Nonce: "),
        ("issuedAt", "Issued At: "),
        ("expirationTime", "Expiration Time: "), ("notBefore", "Not Before: "), ("requestId", "Request ID: "),
    ]

    /// Reads `solana_signIn`'s params (at `field`, `request.params`): an object (`{}`: nothing
    /// given) whose members are strings or null (left out), `resources` an array of them. Every
    /// member but the statement is one line of visible text: a line break there would let the
    /// text say something the fields do not. The statement may have lines of its own, none of
    /// which may start like a field (`URI: `, `Resources:`), for the same reason.
    package init(json value: JSONValue?, field: String) throws(RPCError) {
        self.init()
        let members: [String: JSONValue]
        guard case .object(let object)? = value else {
            throw SessionService.invalid(
                field, "expected the Sign In With Solana input: an object whose members are all optional ({} for none)")
        }
        members = object
        func text(_ name: String, limit: Int = Self.maxFieldBytes) throws(RPCError) -> String? {
            guard let member = members[name], member != .null else { return nil }
            guard case .string(let text) = member else {
                throw SessionService.invalid("\(field).\(name)", "expected a string")
            }
            guard text.utf8.count <= limit else {
                throw SessionService.invalid("\(field).\(name)", "longer than \(DisplayText.grouped(limit)) bytes")
            }
            if name != "statement" { try Self.checkOneLine(text, field: "\(field).\(name)") }
            return text
        }
        domain = try text("domain")
        if let domain, domain.isEmpty || !SignInSyntax.isAuthority(ArraySlice(Array(domain.utf8))) {
            throw SessionService.invalid(
                "\(field).domain", "expected the site's host and optional port (an RFC 3986 authority)")
        }
        address = try text("address")
        statement = try text("statement", limit: Self.maxStatementBytes)
        if let statement { try Self.checkStatement(statement, field: "\(field).statement") }
        uri = try text("uri")
        // An RFC 3986 URI, as in Sign-In with Ethereum: anything else (a backslash, which
        // browsers read as "/") could name another site than the one the check reads.
        if let uri, !uri.isEmpty, !SignInSyntax.isURI(uri) {
            throw SessionService.invalid(
                "\(field).uri", "expected an RFC 3986 URI such as https://app.example.com/login")
        }
        version = try text("version")
        chainId = try text("chainId")
        nonce = try text("nonce")
        issuedAt = try text("issuedAt")
        expirationTime = try text("expirationTime")
        notBefore = try text("notBefore")
        requestId = try text("requestId")
        if let given = members["resources"], given != .null {
            guard case .array(let items) = given else {
                throw SessionService.invalid("\(field).resources", "expected an array of strings")
            }
            guard items.count <= Self.maxResources else {
                throw SessionService.invalid(
                    "\(field).resources", "at most \(Self.maxResources) resources, not \(items.count)")
            }
            var resources: [String] = []
            for (index, item) in items.enumerated() {
                let itemField = "\(field).resources[\(index)]"
                guard case .string(let resource) = item, !resource.isEmpty else {
                    throw SessionService.invalid(itemField, "expected a non-empty string")
                }
                guard resource.utf8.count <= Self.maxFieldBytes else {
                    throw SessionService.invalid(
                        itemField, "longer than \(DisplayText.grouped(Self.maxFieldBytes)) bytes")
                }
                try Self.checkOneLine(resource, field: itemField)
                guard SignInSyntax.isURI(resource) else {
                    throw SessionService.invalid(
                        itemField, "expected an RFC 3986 URI such as https://app.example.com/terms")
                }
                resources.append(resource)
            }
            self.resources = resources
        }
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
