/// What the dialog shows of an Ethereum signature: what kind it is, on which chain, and the
/// content a person needs to judge it, within the one Assuan line the whole text must fit in
/// (see `ConsentRequest.fitted`): each line is cut, and so is their number.
package struct EthereumConsent: Sendable, Equatable {
    /// "a message (personal_sign)", "typed data (EIP-712)".
    package var kind: String
    /// The chain as a person knows it: "Ethereum (eip155:1)".
    package var chain: String
    /// The content, one fact per line.
    package var lines: [String]

    /// The bytes all lines may take together: with the caller, the key and the buttons' text,
    /// the dialog stays within one Assuan line. Fields that do not fit are counted instead.
    static let contentBudget = 400
    static let maxPathBytes = 32
    static let maxValueBytes = 56

    /// `personal_sign`: the text when the message is printable UTF-8 (a Sign-In-With-Ethereum
    /// message is), else its bytes in hex, cut, with its length.
    package static func message(_ bytes: [UInt8], chain: ChainID) -> EthereumConsent {
        let line: String
        switch PayloadSummary(bytes: bytes) {
        case .text:
            let text = String(decoding: bytes, as: UTF8.self)
            let flat = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).joined(separator: " ⏎ ")
            line = "Text: \"\(ConsentRequest.printable(flat, maxBytes: PayloadSummary.maxTextBytes))\""
        case .binary:
            line = "\(bytes.count) bytes, not text: \(ConsentRequest.printable(Hex.prefixed(bytes), maxBytes: PayloadSummary.maxTextBytes))"
        }
        return EthereumConsent(kind: "a message (personal_sign)", chain: EIP155.name(of: chain), lines: [line])
    }

    /// `eth_signTypedData_v4`: who it is for (the domain's name, chain and contract), the
    /// primary type, and the message's fields flattened (`to.wallet: 0xbBbB…`).
    package static func typedData(_ data: TypedData, chain: ChainID) -> EthereumConsent {
        var lines: [String] = []
        var app: [String] = []
        if let name = data.domain.name { app.append("\"\(ConsentRequest.printable(name, maxBytes: 60))\"") }
        if let version = data.domain.version { app.append("version \(ConsentRequest.printable(version, maxBytes: 20))") }
        lines.append("For: " + (app.isEmpty ? "(the data names no app)" : app.joined(separator: ", ")))
        if let chainID = data.domain.chainId { lines.append("Chain in the data: \(ConsentRequest.printable(chainID, maxBytes: 40))") }
        if let contract = data.domain.verifyingContract { lines.append("Contract: \(contract)") }
        lines.append("Type: \(ConsentRequest.printable(data.primaryType, maxBytes: 60))")
        let fields = data.flattenedMessage()
        // Room for the "…and N more" line is kept whenever some field might not fit.
        var used = lines.reduce(0) { $0 + Self.cost($1) } + 40
        var shown = 0
        for field in fields {
            let flat = field.value.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).joined(separator: " ⏎ ")
            let line = "  \(ConsentRequest.printable(field.path, maxBytes: maxPathBytes)): \(ConsentRequest.printable(flat, maxBytes: maxValueBytes))"
            used += Self.cost(line)
            guard used <= contentBudget else { break }
            lines.append(line)
            shown += 1
        }
        if fields.count > shown { lines.append("  …and \(fields.count - shown) more \(fields.count - shown == 1 ? "field" : "fields") (not shown).") }
        return EthereumConsent(kind: "typed data (EIP-712)", chain: EIP155.name(of: chain), lines: lines)
    }

    /// What `line` and its line break take of the Assuan line: `%` and the break are escaped
    /// as three bytes each.
    private static func cost(_ line: String) -> Int {
        line.unicodeScalars.reduce(3) { $0 + ($1 == "%" ? 3 : UTF8.width($1)) }
    }
}
