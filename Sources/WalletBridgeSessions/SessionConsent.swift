import WalletBridgeConsent
import WalletBridgeHost
import WalletBridgeKeys

/// The dialogs that open a session. The extension is named from what the browser says (its ID,
/// and its name in the browser's profile), never from what it says about itself; what it says
/// about itself is shown below, marked as its own claim. Every part that others choose is cut
/// to a budget (`ConsentRequest.printable`), so the text stays within one Assuan line.
package enum SessionConsent {
    package static let title = "wallet-bridge: connect an extension"

    /// `session_connect`: who asks, for which site, what it says it is, and what it may then do.
    /// The site (`origin`) is what the extension reports the browser told it, on a line of its
    /// own, apart from the self-declared metadata below it.
    package static func connect(
        caller: Caller, callerName: String?, origin: String? = nil, metadata: PeerMetadata, namespaces: Namespaces,
        keyCount: Int
    ) -> ConsentQuestion {
        var claims = "It says it is: \"\(ConsentRequest.printable(metadata.name, maxBytes: 80))\""
        if !metadata.url.isEmpty { claims += ", \(ConsentRequest.printable(metadata.url, maxBytes: 80))" }
        if !metadata.description.isEmpty {
            claims += "\n\"\(ConsentRequest.printable(metadata.description, maxBytes: 120))\""
        }
        claims += "\n(its own words, not checked)"
        let chains = namespaces.allChains.map { ConsentRequest.printable($0.displayName, maxBytes: 64) }
        let methods = Set(namespaces.values.flatMap(\.methods))
        // What needs the person each time (signing), apart from what only reads.
        let signing = methods.filter { SolanaMethod.signingMethods.contains($0) || EIP155.signingMethods.contains($0) }
            .sorted()
        let asks =
            signing.isEmpty
            ? "It asks for no signatures."
            : "It may ask you for signatures (\(list(signing, maxBytes: 120))); each one still asks you first."
        let description = """
            \(ConsentRequest.describe(caller, named: callerName))
            \(origin.map(site) ?? "asks to connect to your wallet.")
            \(claims)

            It will see \(accounts(keyCount)) on \(list(chains, maxBytes: 160)).
            \(asks)
            """
        return ConsentQuestion(title: title, description: description, approve: "_Connect", reject: "_Reject")
    }

    /// walletlib's GetAccounts (or SignPayloads) from an extension without a session.
    package static func seeAccounts(caller: Caller, callerName: String?, keyCount: Int) -> ConsentQuestion {
        let description = """
            \(ConsentRequest.describe(caller, named: callerName))
            wants to see your accounts (\(accounts(keyCount))).

            Allowing connects it to your wallet for a while; each signature still asks you first.
            """
        return ConsentQuestion(title: title, description: description, approve: "_Allow", reject: "_Reject")
    }

    /// "asks to connect the site", the origin on its own line, and whose word it is.
    private static func site(_ origin: String) -> String {
        """
        asks to connect the site
        \(ConsentRequest.printable(origin, maxBytes: SiteOrigin.maxBytes))
        (as the extension reports it) to your wallet.
        """
    }

    private static func accounts(_ count: Int) -> String {
        count == 1 ? "your 1 account" : "your \(count) accounts"
    }

    /// `items` joined, cut to `maxBytes` as a whole.
    private static func list(_ items: [String], maxBytes: Int) -> String {
        ConsentRequest.printable(items.joined(separator: ", "), maxBytes: maxBytes)
    }
}
