import CSodium
import WalletBridgeSystem
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeTransactions

/// What the person is asked to approve: who asks, with which key, and what is signed.
public struct ConsentRequest: Sendable, Equatable {
    /// Who asks: the identity the browser gave the host.
    public var caller: Caller
    /// The extension's name as the person installed it (from the browser's profile), if found.
    public var callerName: String?
    /// The key's label, as `keys list` shows it.
    public var keyLabel: String
    /// The key's address, shortened (`7xKX…3fGh`, base58 as Solana wallets show it).
    public var shortAddress: String
    /// What each payload is, in request order.
    public var payloads: [PayloadSummary]
    /// When set, a confirmation also offers "this extension, this key, for N minutes" (the
    /// opt-in `approve_for_minutes` setting).
    public var rememberMinutes: Int?
    /// Whether the passphrase unlocks the keys for a while (in the agent), or for this request
    /// only: the dialog says which.
    public var keysStayUnlocked = false
    /// Set for an Ethereum signature, which signs one message or typed data, not payloads.
    package var ethereum: EthereumConsent?
    /// Set for transactions (`solana_signTransaction`, `eth_signTransaction`, SignPayloads of
    /// Solana transaction messages): shown decoded instead of `payloads` or `ethereum`.
    package var transactions: TransactionConsent?
    /// A confirmation offers "Refuse all from this extension" (the third button, which
    /// `rememberMinutes` then does not take): pressing it throws `RefusedAllFromCaller`.
    package var offersRefuseAll = false
    /// The site the request comes from, when it is made in a session of one: its origin as the
    /// extension reports it (`RequestContext.site`, set by the session).
    package var site: String?
    /// A sign-in, well-formed or not (a text that reads as one): asked every time, never within
    /// an allowance, and never offering "Sign and allow", since its site check is the person's
    /// to see each time (docs/sign-in.md).
    package var isSignIn = false
    /// Shown before the payloads' previews: the warning about a text that reads as a sign-in
    /// for another site (`SignInCheck.malformedWarning`).
    package var warnings: [String] = []

    public init(
        caller: Caller, callerName: String? = nil, keyLabel: String, shortAddress: String, payloads: [PayloadSummary],
        rememberMinutes: Int? = nil
    ) {
        self.caller = caller
        self.callerName = callerName
        self.keyLabel = keyLabel
        self.shortAddress = shortAddress
        self.payloads = payloads
        self.rememberMinutes = rememberMinutes
    }

    /// A confirmation's answer, when it approves.
    public enum Confirmation: Sendable, Equatable {
        /// This request only.
        case once
        /// This request, and this caller's requests with this key for `rememberMinutes`.
        case remember
    }

    /// How many signatures approving makes.
    public var payloadCount: Int { payloads.count }

    /// How the person approves: with the passphrase (the keys are locked), or with a button
    /// (they are unlocked, and only consent is needed).
    public enum Approval: Sendable {
        case passphrase, confirmation
    }

    /// The dialog's title.
    public var title: String { "wallet-bridge: signature request" }

    /// The dialog's text. The caller's identity comes from the browser (argv) and its name from
    /// the browser's own profile, so an extension cannot pose as another one here.
    public func description(for approval: Approval) -> String {
        let count = payloads.count == 1 ? "1 payload" : "\(payloads.count) payloads"
        let action = instruction(for: approval)
        if let text = transactionText { return "\(text)\n\n\(action)" }
        if let ethereum {
            return """
                \(callerDescription)
                asks to sign \(ethereum.kind) on \(ethereum.chain) with \(key):
                \(ethereum.lines.joined(separator: "\n"))

                \(action)
                """
        }
        return """
            \(callerDescription)
            asks to sign \(count) with \(key):
            \(warnings.map { TransactionConsent.warningMark + $0 + "\n" }.joined())\(previews)
            \(action)
            """
    }

    /// What to press: the dialog's last line.
    private func instruction(for approval: Approval) -> String {
        switch approval {
        case .passphrase where keysStayUnlocked:
            "Enter the keystore passphrase to sign (the keys then stay unlocked for a while), or Cancel to refuse."
        case .passphrase: "Enter the keystore passphrase to sign, or Cancel to refuse."
        // A transaction's dialog never offers to sign without asking (`KeystoreWallet.approve`).
        case .confirmation where rememberMinutes != nil && transactions == nil:
            // An allowance is the extension's for one site when the request is a site's.
            "Sign, or Refuse. \"Sign and allow\" also signs what "
                + (site == nil ? "this extension asks" : "this site asks through this extension")
                + " of this key for the next \(rememberMinutes!) minutes without asking."
        case .confirmation: "Sign, or Refuse."
        }
    }

    private var key: String {
        "your key \"\(Self.printable(keyLabel, maxBytes: 64))\" (\(Self.printable(shortAddress, maxBytes: 24)))"
    }

    /// For transactions, all the dialog says but what to press (which depends on how the
    /// person approves): who asks, "asks to sign <what> on <chain> with your key …:", and the
    /// transactions' lines, as many as fit the one Assuan line with the longest instruction
    /// (`TransactionConsent.lines(budget:)`). The same text whichever way the person
    /// approves, so the audit log can record it (`dialogSHA256`). Nil for other requests.
    package var transactionText: String? {
        guard let transactions else { return nil }
        return ([transactionHead] + transactions.lines(budget: transactionBudget)).joined(separator: "\n")
    }

    /// Throws when what moves funds in `transactions` (the warnings about funds and trust, the
    /// actions that move funds) cannot all be shown in this dialog (`TransactionConsent.checkFits`):
    /// the wallet refuses such a request before asking anyone. Nothing to check without
    /// transactions.
    package func checkTransactionsFit() throws(TransactionConsent.TooMuch) {
        try transactions?.checkFits(budget: transactionBudget)
    }

    /// Who asks, and "asks to sign <what> with your key …:".
    private var transactionHead: String {
        "\(callerDescription)\nasks to sign \(Self.printable(transactions?.subject ?? "", maxBytes: 160)) with \(key):"
    }

    /// What the transactions' lines may take of the one Assuan line: what the head and the
    /// instruction, two line breaks below the lines, leave.
    private var transactionBudget: Int {
        Self.maxDescriptionBytes - Self.assuanCost(transactionHead) - 6 - Self.longestInstructionCost
    }

    /// SHA-256 of `transactionText`'s UTF-8: what the audit log records of a transaction dialog.
    package var dialogSHA256: [UInt8]? {
        transactionText.map { Sodium.sha256(Array($0.utf8)) }
    }

    /// The most a description takes escaped (`Assuan.escape`): a SETDESC line has 991 bytes for
    /// it, less a margin.
    static let maxDescriptionBytes = 980

    /// The longest instruction a transaction dialog ends with. Such a dialog never offers "Sign
    /// and allow" (`description(for:)`), so no room is kept for its text.
    private static let longestInstructionCost: Int = {
        var request = ConsentRequest(caller: .unidentified, keyLabel: "", shortAddress: "", payloads: [])
        request.transactions = TransactionConsent(chain: nil, summaries: [])
        request.rememberMinutes = Int.max
        request.keysStayUnlocked = true
        return [Approval.passphrase, .confirmation].map { assuanCost(request.instruction(for: $0)) }.max() ?? 0
    }()

    /// What `text` takes of an Assuan line once escaped: `%` and control characters (line
    /// breaks) three bytes each.
    static func assuanCost(_ text: String) -> Int {
        Assuan.escape(text, maxBytes: Int.max).utf8.count
    }

    /// The label beside the passphrase field.
    public var prompt: String { "Passphrase:" }

    /// The first few payloads, each as text or as its size and hash, within what a dialog
    /// (and one Assuan line) can hold.
    var previews: String {
        let shown = payloads.prefix(Self.maxPreviews)
        var lines = shown.enumerated().map { index, payload in "\(index + 1). \(payload.preview)" }
        if payloads.count > shown.count { lines.append("…and \(payloads.count - shown.count) more.") }
        return lines.joined(separator: "\n") + "\n"
    }

    static let maxPreviews = 3

    /// Who asks, and for which site, on a line of its own: the extension's word, not the browser's.
    private var callerDescription: String {
        let who = Self.describe(caller, named: callerName)
        guard let site else { return who }
        return
            "\(who)\nfor the site \(Self.printable(site, maxBytes: SiteOrigin.maxBytes)) (as the extension reports it)"
    }

    /// Who asks, as the dialogs name it: the ID from what the browser says (argv), which the
    /// extension cannot choose, on a line of its own and before anything else; then the name
    /// the extension was installed under (from the browser's profile), which its author chose:
    ///
    ///     The extension with ID abcdefghijklmnopabcdefghijklmnop,
    ///     installed as "Phantom",
    ///
    /// A name that holds a quote and a made-up "(ID …)" then comes after the real ID, with its
    /// quote marked, not before it (`DisplayText`).
    package static func describe(_ caller: Caller, named callerName: String?) -> String {
        let identified: String
        switch caller {
        case .chromeExtension(let origin):
            let id =
                origin.dropFirst("chrome-extension://".count).split(separator: "/").first.map(String.init) ?? origin
            identified = "The extension with ID \(Self.printable(id, maxBytes: 80))"
        case .firefoxAddon(let id, _):
            identified = "The Firefox add-on with ID \(Self.printable(id, maxBytes: 80))"
        case .unidentified:
            return "A program that was not started by a browser"
        }
        guard let callerName else { return identified }
        return "\(identified),\ninstalled as \"\(Self.printable(callerName, maxBytes: 80))\","
    }

    /// Argv and profiles are the browser's, but a person can start the host with anything, and
    /// an extension names itself: keep the dialog's layout out of their reach. What others
    /// chose is shown as `DisplayText.preview` shows it (line breaks, control and format
    /// characters escaped, quotes marked, whitespace run together), cut to `maxBytes`.
    package static func printable(_ text: String, maxBytes: Int) -> String {
        DisplayText.preview(text, maxBytes: maxBytes).text
    }
}

/// What a person can judge of one payload: its text when it is printable UTF-8 (a
/// Sign-In-With-Solana message is), otherwise its length and a short hash.
public enum PayloadSummary: Sendable, Equatable {
    case text(String)
    case binary(byteCount: Int, sha256Prefix: String)

    /// The most of a text shown, in bytes as pinentry receives them (see
    /// `DisplayText.preview`); the rest is cut with an ellipsis, and counted.
    static let maxTextBytes = 150

    public init(bytes: [UInt8]) {
        if let text = Self.printableText(bytes) {
            self = .text(text)
        } else {
            self = .binary(byteCount: bytes.count, sha256Prefix: String(Self.sha256Hex(bytes).prefix(16)))
        }
    }

    /// The payload's full SHA-256, in hex: what the audit log records.
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        Hex.encode(Sodium.sha256(bytes))
    }

    package var preview: String {
        switch self {
        case .text(let text):
            return Self.textPreview(text)
        case .binary(let count, let hash):
            return "\(count) bytes of binary data, SHA-256 \(hash)…"
        }
    }

    /// `Text: "…"`: a text payload's or message's first `maxTextBytes`, its line breaks shown
    /// as ⏎, and how much of it that is when it is cut ("(147 of 4,000 bytes shown)").
    static func textPreview(_ text: String) -> String {
        let shown = DisplayText.preview(text, maxBytes: maxTextBytes, lineBreaks: .marked)
        return "Text: \"\(shown.text)\"\(shown.cutNote)"
    }

    /// The text, when every scalar is printable or a line break or tab, and there is some.
    private static func printableText(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t": continue
            default:
                let category = scalar.properties.generalCategory
                if category == .control || category == .format || category == .unassigned || category == .privateUse {
                    return nil
                }
            }
        }
        return text
    }
}
