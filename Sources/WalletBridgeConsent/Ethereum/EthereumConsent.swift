import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeTransactions

/// What the dialog shows of an Ethereum signature: what kind it is, on which chain, and the
/// content a person needs to judge it, within the one Assuan line the whole text must fit in
/// (see `DisplayText.preview`): each line is cut, and so is their number; what is cut or left
/// out is counted.
package struct EthereumConsent: Sendable, Equatable {
    /// "a message (personal_sign)", "typed data (EIP-712)".
    package var kind: String
    /// The chain as a person knows it: "Ethereum (eip155:1)".
    package var chain: String
    /// The content, one fact per line.
    package var lines: [String]
    /// Set for a sign-in (an EIP-4361 message): what the audit log records of it.
    package var signIn: AuditLog.SignInRecord?
    /// Set for a sign-in: its summary, which the dialog lays out as it lays out a transaction's
    /// (`EthereumSigningRequest.transactionConsent`), within the room the dialog has left once
    /// it knows who asks and with which key; `lines` are the same within `SignInConsent.budget`.
    package var signInLayout: TransactionConsent?
    /// A sign-in, well-formed or not (`EthereumSignIn.Reading`): asked every time, never within
    /// an allowance (`ConsentRequest.isSignIn`).
    package var readsAsSignIn = false

    /// The bytes all lines may take together: with the caller, the key and the buttons' text,
    /// the dialog stays within one Assuan line. Fields that do not fit are counted instead.
    static let contentBudget = 400
    static let maxPathBytes = 32
    static let maxValueBytes = 56
    /// A field that moves money is never cut short of a whole uint256 (78 digits) or int256.
    static let maxMoneyValueBytes = 80
    /// Kept for the line that counts and names the fields left out, while one may be.
    static let hiddenFieldsReserve = 100

    /// The last part of a field's path (`value`, `details.amount`, `items[2].amount`) that
    /// says the field moves money: who may spend, how much, of which token, to whom. These are
    /// shown before the others (EIP-2612's `spender` and `value` first), so that they are never
    /// the ones left out.
    static let moneyFields: Set<String> = [
        "spender", "value", "amount", "startamount", "endamount", "token", "to", "recipient", "receiver", "operator",
        "allowed",
    ]

    /// `personal_sign`: the text when the message is printable UTF-8 (a Sign-In-With-Ethereum
    /// message is), else its bytes in hex, cut, with its length.
    package static func message(_ bytes: [UInt8], chain: ChainID) -> EthereumConsent {
        let line: String
        switch PayloadSummary(bytes: bytes) {
        case .text(let text):
            line = PayloadSummary.textPreview(text)
        case .binary:
            let size = "\(DisplayText.grouped(bytes.count)) bytes, not text:"
            if 2 + 2 * bytes.count <= PayloadSummary.maxTextBytes {
                line = "\(size) \(Hex.prefixed(bytes))"
            } else {
                // "0x", two digits a byte, and the ellipsis.
                let shown = (PayloadSummary.maxTextBytes - 2 - 3) / 2
                line =
                    "\(size) \(Hex.prefixed(Array(bytes.prefix(shown))))… (\(shown) of \(DisplayText.grouped(bytes.count)) bytes shown)"
            }
        }
        return EthereumConsent(kind: "a message (personal_sign)", chain: EIP155.name(of: chain), lines: [line])
    }

    /// `personal_sign` of `bytes` by `signer`, in a session for `site` (nil: one without a
    /// site), on `chain`: a well-formed Sign-In with Ethereum message (EIP-4361) is shown as a
    /// sign-in, its fields laid out and checked (`SignInCheck`: the domain and URI against the
    /// site; the account against the signer; the chain against the request's), the warnings
    /// first; a text that reads as one and is not well-formed is shown as the plain text it is,
    /// after a notice that says so; anything else as `message` shows it. -32602 at `field` for
    /// a sign-in whose warnings and key facts cannot all be shown.
    package static func personalMessage(
        _ bytes: [UInt8], chain: ChainID, signer: EthereumAddress, site: String?, field: String
    ) throws(RPCError) -> EthereumConsent {
        switch EthereumSignIn.read(bytes) {
        case .other:
            return message(bytes, chain: chain)
        case .malformed(let problem):
            var plain = message(bytes, chain: chain)
            plain.readsAsSignIn = true
            plain.lines.insert(
                TransactionConsent.warningMark
                    + "This reads like a sign-in, but is not a well-formed one (EIP-4361: \(problem)): "
                    + "it is shown, and signed, as the plain text it is", at: 0)
            // Lenient parsers (viem's) still read it as a sign-in for the domain its first line
            // names: when that is not the site, say so first.
            let text = String(decoding: bytes, as: UTF8.self)
            if let warning = SignInCheck.malformedWarning(text: text, site: site, schemelessIsHTTPS: true) {
                plain.lines.insert(TransactionConsent.warningMark + warning, at: 0)
            }
            return plain
        case .signIn(let signIn):
            let check = SignInCheck(domain: signIn.domain, scheme: signIn.scheme, uri: signIn.uri, site: site)
            var warnings = check.warnings
            if signIn.address != signer {
                warnings.append(
                    .init(
                        .trust, "The message names the account \(signIn.address), but the key that signs is \(signer)"))
            }
            // The same number, however many leading zeros the message writes.
            let requestChain = EIP155.chainID(of: chain).map { String($0) } ?? ""
            if String(signIn.chainID.drop { $0 == "0" }) != requestChain {
                let shown = ConsentRequest.printable(String(signIn.chainID.prefix(40)), maxBytes: 40)
                warnings.append(
                    .init(
                        .trust, "The message is for chain ID \(shown), but the request is for \(EIP155.name(of: chain))"
                    ))
            }
            var details: [(label: String, value: String)] = [
                ("Version", signIn.version), ("Chain ID", signIn.chainID), ("Nonce", signIn.nonce),
                ("Issued At", signIn.issuedAt),
            ]
            if let value = signIn.expirationTime { details.append(("Expiration Time", value)) }
            if let value = signIn.notBefore { details.append(("Not Before", value)) }
            if let value = signIn.requestID { details.append(("Request ID", value)) }
            let fields = SignInConsent.Fields(
                scheme: signIn.scheme, domain: signIn.domain, account: signIn.address.description,
                statement: signIn.statement,
                uri: signIn.uri, details: details, resources: signIn.resources)
            let kind = "a sign-in (Sign-In with Ethereum, personal_sign)"
            let summary = SignInConsent.summary(kind: kind, fields: fields, warnings: warnings)
            var consent = EthereumConsent(
                kind: kind, chain: EIP155.name(of: chain), lines: try SignInConsent.lines(summary, field: field))
            consent.signIn = check.record
            consent.readsAsSignIn = true
            consent.signInLayout = TransactionConsent(chain: consent.chain, summaries: [summary], noun: "sign-in")
            return consent
        }
    }

    /// `eth_signTypedData_v4`: who it is for (the domain's name, version, chain and contract),
    /// the primary type, and the message's fields flattened (`to.wallet: 0xbBbB…`), those that
    /// move money first. The domain's name and version are the page's words, so they are
    /// quoted; a value cut is counted, and so are the fields that do not fit, by name.
    package static func typedData(_ data: TypedData, chain: ChainID) -> EthereumConsent {
        var lines: [String] = []
        var app: [String] = []
        if let name = data.domain.name { app.append("\"\(ConsentRequest.printable(name, maxBytes: 60))\"") }
        if let version = data.domain.version {
            app.append("version \"\(ConsentRequest.printable(version, maxBytes: 20))\"")
        }
        lines.append("For: " + (app.isEmpty ? "(the data names no app)" : app.joined(separator: ", ")))
        if let chainID = data.domain.chainId {
            lines.append("Chain in the data: \(ConsentRequest.printable(chainID, maxBytes: 40))")
        }
        if let contract = data.domain.verifyingContract { lines.append("Contract: \(contract)") }
        lines.append("Type: \(ConsentRequest.printable(data.primaryType, maxBytes: 60))")
        let fields = data.flattenedMessage()
        let ordered = fields.filter { movesMoney($0.path) } + fields.filter { !movesMoney($0.path) }
        var used = lines.reduce(0) { $0 + Self.cost($1) }
        var shown = 0
        for (index, field) in ordered.enumerated() {
            let value = DisplayText.preview(
                field.value, maxBytes: movesMoney(field.path) ? maxMoneyValueBytes : maxValueBytes, lineBreaks: .marked)
            let line =
                "  \(ConsentRequest.printable(field.path, maxBytes: maxPathBytes)): \(value.text)\(value.cutNote)"
            // Room for the line that names what is left out, unless this is the last field.
            let reserve = index == ordered.count - 1 ? 0 : hiddenFieldsReserve
            guard used + Self.cost(line) + reserve <= contentBudget else { break }
            lines.append(line)
            used += Self.cost(line)
            shown += 1
        }
        if shown < ordered.count {
            let hidden = ordered[shown...]
            let head = "  …\(hidden.count) of \(fields.count) \(fields.count == 1 ? "field" : "fields") not shown: "
            let room = max(20, contentBudget - used - Self.cost(head))
            lines.append(head + ConsentRequest.printable(hidden.map(\.path).joined(separator: ", "), maxBytes: room))
        }
        return EthereumConsent(kind: "typed data (EIP-712)", chain: EIP155.name(of: chain), lines: lines)
    }

    /// Whether the field at `path` moves money (`moneyFields`).
    static func movesMoney(_ path: String) -> Bool {
        let last = path.split(separator: ".").last.map { $0.prefix { $0 != "[" } } ?? ""
        return moneyFields.contains(last.lowercased())
    }

    /// What `line` and its line break take of the Assuan line: `%` and the break are escaped
    /// as three bytes each.
    private static func cost(_ line: String) -> Int {
        DisplayText.cost(line) + 3
    }
}
