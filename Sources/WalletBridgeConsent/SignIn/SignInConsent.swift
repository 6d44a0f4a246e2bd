import WalletBridgeSystem
import WalletBridgeProtocol
import WalletBridgeTransactions
import WalletBridgeKeys

/// What the dialog shows of a sign-in (a `personal_sign` of an EIP-4361 message, a
/// `solana_signIn`), laid out as a transaction's summary is (`TransactionConsent`): the
/// warnings first, then the facts that are always shown whole (wrapped, never cut): the domain,
/// the account and the number of resources (as many of them listed as fit); then the statement,
/// the URI (each cut to a budget, what is cut counted) and the other fields in the message's
/// order, each shown whole or counted in the last line ("…and 3 more fields not shown"). What
/// must be shown and does not fit is refused before any dialog.
/// Everything the site wrote goes through `DisplayText`, so nothing in it can change the
/// dialog's layout.
package enum SignInConsent {
    /// The bytes the sign-in's lines may take of the one Assuan line: what is left of it, in
    /// the worst case, by who asks (an extension's ID and installed name), the key and the
    /// longest instruction. What must be shown and does not fit is refused before any dialog.
    static let budget = 420
    static let maxStatementBytes = 160
    static let maxURIBytes = 100
    static let maxValueBytes = 80
    /// What the listed resources may take of the budget at most (a few of them), so that the
    /// statement and the URI still fit after them.
    static let maxResourcesBytes = 120

    /// The fields of a sign-in as the dialog names them.
    package struct Fields: Sendable {
        package var scheme: String?
        package var domain: String
        package var account: String
        package var statement: String?
        package var uri: String?
        /// "Version", "Chain ID", "Nonce", "Issued At", …: the rest, in the message's order.
        package var details: [(label: String, value: String)]
        package var resources: [String]?

        package init(
            scheme: String? = nil, domain: String, account: String, statement: String? = nil, uri: String? = nil,
            details: [(label: String, value: String)], resources: [String]? = nil
        ) {
            (self.scheme, self.domain, self.account, self.statement) = (scheme, domain, account, statement)
            (self.uri, self.details, self.resources) = (uri, details, resources)
        }
    }

    /// The summary the dialog lays out: `kind` ("a sign-in (Sign In With Solana)") and
    /// `warnings` (the site check's and the caller's own) over `fields`.
    package static func summary(kind: String, fields: Fields, warnings: [TransactionSummary.Warning])
        -> TransactionSummary
    {
        let facts = [
            "Domain: " + (fields.scheme.map { "\($0)://" } ?? "") + fields.domain, "Account: " + fields.account,
        ]
        var actions: [TransactionSummary.Action] = []
        if let statement = fields.statement {
            let shown = DisplayText.preview(statement, maxBytes: maxStatementBytes, lineBreaks: .marked)
            actions.append(.init(["Statement: \"\(shown.text)\"\(shown.cutNote)"]))
        }
        if let uri = fields.uri {
            let shown = DisplayText.preview(uri, maxBytes: maxURIBytes)
            actions.append(.init(["URI: \(shown.text)\(shown.cutNote)"]))
        }
        actions += fields.details.map { label, value in
            let shown = DisplayText.preview(value, maxBytes: maxValueBytes)
            return TransactionSummary.Action(["\(label): \(shown.text)\(shown.cutNote)"])
        }
        let summary = TransactionSummary(
            kind: kind, warnings: warnings, facts: facts, actions: actions, actionNoun: "field")
        guard let resources = fields.resources else { return summary }
        // EIP-4361: a wallet must show the resources. Their count is a fact, always shown; as
        // many of them as fit `maxResourcesBytes` and the dialog's room for what must be shown
        // are listed under it, the rest counted.
        let listed = resources.map { resource in
            let shown = DisplayText.preview(resource, maxBytes: maxValueBytes)
            return "  - \(shown.text)\(shown.cutNote)"
        }
        var count = 0
        while count < listed.count,
            listed[...count].reduce(0, { $0 + TransactionConsent.cost($1) }) <= maxResourcesBytes
        {
            count += 1
        }
        while true {
            var block = ["Resources (\(DisplayText.grouped(resources.count))):"] + listed.prefix(count)
            if count < resources.count {
                block.append(
                    TransactionConsent.omitted([(resources.count - count, "resource", count > 0)], indent: true))
            }
            var candidate = summary
            candidate.facts += block
            let consent = TransactionConsent(chain: nil, summaries: [candidate], noun: "sign-in")
            let fits = (try? consent.checkFits(budget: budget)) != nil
            if fits || count == 0 { return candidate }
            count -= 1
        }
    }

    /// The lines of `summary` within `budget`, after checking that its warnings and facts fit:
    /// -32602 at `field` when they do not (a domain of hundreds of bytes, say).
    static func lines(_ summary: TransactionSummary, field: String) throws(RPCError) -> [String] {
        let consent = TransactionConsent(chain: nil, summaries: [summary], noun: "sign-in")
        try checkFits(consent, field: field)
        return consent.lines(budget: budget)
    }

    /// -32602 at `field` unless the warnings and facts of `consent` fit `budget`.
    package static func checkFits(_ consent: TransactionConsent, field: String) throws(RPCError) {
        do throws(TransactionConsent.TooMuch) {
            try consent.checkFits(budget: budget)
        } catch {
            throw RPCError.invalidParams(
                field,
                "too much to show in one dialog: the sign-in's warnings, domain and account do not fit; "
                    + "use a shorter domain")
        }
    }
}

/// The site check of a sign-in: whether the domain (and scheme, when the message has one) it
/// is for, and its URI, are the site the session belongs to (`Session.origin`, as the
/// extension reports it from what the browser told it), as EIP-4361 asks of wallets
/// ("Verifying the Request Origin"). A sign-in for another site is the phishing case: a page
/// that asks the person to sign in to a site it is not gets a signature that site accepts.
/// The wallet does not refuse it (a site may sign in to another it runs); it leads the dialog
/// with a warning naming both, and the audit log records it.
package struct SignInCheck: Equatable, Sendable {
    package var warnings: [TransactionSummary.Warning] = []
    package var record: AuditLog.SignInRecord

    /// `schemelessIsHTTPS`: a domain without a scheme is for `https` (EIP-4361: the scheme,
    /// when left out, is https), but also for `http` on a loopback host (local development);
    /// false for Sign In With Solana, whose format has no scheme to name, so that its domain
    /// matches the site's host and port on either scheme.
    package init(domain: String, scheme: String?, uri: String?, site: String?, schemelessIsHTTPS: Bool = true) {
        record = AuditLog.SignInRecord(domain: (scheme.map { "\($0)://" } ?? "") + domain, uri: uri, site: site)
        let shownDomain = ConsentRequest.printable(record.domain, maxBytes: 80)
        guard let site else {
            warnings.append(
                .init(
                    .trust,
                    "This sign-in cannot be checked against a site: the session was opened without one, so make sure "
                        + "\(shownDomain) is the site you are signing in to"))
            return
        }
        let shownSite = ConsentRequest.printable(site, maxBytes: 80)
        let domainMatches = Self.domain(domain, scheme: scheme, isOf: site, schemelessIsHTTPS: schemelessIsHTTPS)
        let uriMatches = uri.map { Self.webOrigin(of: $0) == site.lowercased() } ?? true
        record.matchesSite = domainMatches && uriMatches
        if !domainMatches {
            warnings.append(
                .init(
                    .trust,
                    "This sign-in is for \(shownDomain), but the request comes from the site \(shownSite) (as the extension "
                        + "reports it)"))
        }
        if !uriMatches, let uri {
            warnings.append(
                .init(
                    .trust,
                    domainMatches
                        ? "Its URI \(ConsentRequest.printable(uri, maxBytes: 80)) is not on the site \(shownSite) the request comes from"
                        : "Its URI \(ConsentRequest.printable(uri, maxBytes: 80)) is not on that site either"))
        }
    }

    /// The domain a sign-in names when the site leaves it out: the site's `host[:port]`.
    package static func domain(of site: String) -> String? { SiteOrigin.hostAndPort(of: site) }

    /// Whether `domain` (an authority) with `scheme` (when the message names one) is the site
    /// `origin`: the same host and port (the scheme's default port written or not, host in any
    /// letter case), and the same scheme. No scheme is `https` when `schemelessIsHTTPS` (as
    /// EIP-4361 reads it), or `http` too on a loopback host (`localhost`, `127.0.0.0/8`,
    /// `[::1]`), which only this computer serves; any scheme otherwise.
    static func domain(_ domain: String, scheme: String?, isOf origin: String, schemelessIsHTTPS: Bool = true) -> Bool {
        guard let site = SiteOrigin.split(origin) else { return false }
        let domain = withoutDefaultPort(domain.lowercased(), scheme: site.scheme)
        guard domain == site.authority else { return false }
        if let scheme { return scheme.lowercased() == site.scheme }
        return !schemelessIsHTTPS || site.scheme == "https" || isLoopback(authority: domain)
    }

    /// Whether the host of `authority` (lower case, `host[:port]`) is a loopback one:
    /// `localhost`, an IPv4 address in `127.0.0.0/8` in dotted decimal, or `[::1]`.
    static func isLoopback(authority: String) -> Bool {
        let host =
            authority.hasPrefix("[")
            ? String(authority.prefix { $0 != "]" }) + "]"
            : String(authority.prefix { $0 != ":" })
        if host == "localhost" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(CAIPSyntax.isDigit) && (Int($0) ?? 256) <= 255 }
    }

    /// The `[scheme://]domain` a text that reads as a sign-in (`marker`) names before
    /// " wants you to sign in" on its first line, as lenient parsers (viem's) read it even when
    /// the rest is malformed; nil when the first line has no such start.
    static func claimedDomain(of text: String) -> (scheme: String?, domain: String)? {
        let first = text.prefix { !$0.isNewline }
        guard let title = first.firstRange(of: " wants you to sign in") else { return nil }
        var origin = first[..<title.lowerBound]
        var scheme: String?
        if let separator = origin.firstRange(of: "://") {
            scheme = String(origin[..<separator.lowerBound])
            origin = origin[separator.upperBound...]
        }
        guard !origin.isEmpty else { return nil }
        return (scheme, String(origin))
    }

    /// For a text that reads as a sign-in and is not a well-formed one: the warning that leads
    /// its dialog when the domain its first line names (`claimedDomain`) is not `site`, naming
    /// both, since a lenient verifier still takes the signature as a sign-in for that domain;
    /// nil when it is the site, names none, or there is no site to check against.
    package static func malformedWarning(text: String, site: String?, schemelessIsHTTPS: Bool) -> String? {
        guard let site, let claimed = claimedDomain(of: text),
            !domain(claimed.domain, scheme: claimed.scheme, isOf: site, schemelessIsHTTPS: schemelessIsHTTPS)
        else { return nil }
        let named = ConsentRequest.printable((claimed.scheme.map { "\($0)://" } ?? "") + claimed.domain, maxBytes: 80)
        return "This sign-in is for \(named), but the request comes from the site "
            + "\(ConsentRequest.printable(site, maxBytes: 80)) (as the extension reports it)"
    }

    /// The web origin of `uri` (`scheme://host[:port]`, lower case, without the scheme's default
    /// port), or nil when it has no authority.
    static func webOrigin(of uri: String) -> String? {
        guard let separator = uri.firstRange(of: "://") else { return nil }
        let scheme = uri[..<separator.lowerBound].lowercased()
        let rest = uri[separator.upperBound...]
        var authority = rest.prefix { !"/?#".contains($0) }
        // Bytes outside RFC 3986 (a backslash, which browsers read as "/") would make the
        // origin a browser sees another than the one read here: no origin, so no match.
        guard SignInSyntax.isAuthority(ArraySlice(Array(authority.utf8))) else { return nil }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard !authority.isEmpty else { return nil }
        return "\(scheme)://\(withoutDefaultPort(authority.lowercased(), scheme: scheme))"
    }

    private static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
        let defaultPort = ["https": ":443", "http": ":80"][scheme]
        guard let defaultPort, authority.hasSuffix(defaultPort) else { return authority }
        return String(authority.dropLast(defaultPort.count))
    }
}
