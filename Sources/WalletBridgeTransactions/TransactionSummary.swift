import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeProtocol

/// What a person is shown of one transaction before it is signed: warnings first, then the
/// facts of the whole transaction, then what each instruction or call does, most important
/// first. The consent dialog fits these into its budget and counts what it leaves out.
///
/// Every line here is already safe to show: anything the transaction carries as text (a memo,
/// a seed) went through `DisplayText.preview`, and addresses and amounts are in the forms
/// below, so nothing an extension sends can change the dialog's layout.
package struct TransactionSummary: Sendable, Equatable {
    /// "a Solana transaction (version 0)", "an Ethereum transaction (EIP-1559)".
    package var kind: String
    /// Each a sentence a person acts on, shown before anything else, the most severe first.
    package var warnings: [Warning]
    /// The whole transaction's facts: fee payer, fees, chain, nonce.
    package var facts: [String]
    /// One entry per instruction (Solana) or call (EVM), in the transaction's order.
    package var actions: [Action]
    /// What one entry of `actions` is called in "3 more instructions": "instruction", "call".
    package var actionNoun: String

    package init(
        kind: String, warnings: [Warning] = [], facts: [String] = [], actions: [Action] = [], actionNoun: String
    ) {
        (self.kind, self.warnings, self.facts, self.actions, self.actionNoun) = (
            kind, warnings, facts, actions, actionNoun
        )
    }

    /// How much a warning matters, most first: the dialog shows them in this order, and a
    /// transaction whose `funds` and `trust` warnings cannot all be shown is not signed.
    package enum Severity: Int, Comparable, Sendable {
        /// The person's funds or authority move, or someone else may move them: approvals,
        /// authorities handed over, accounts closed to others, operators, permits.
        case funds
        /// The transaction is not what it seems at a glance: someone else pays its fees, it never
        /// expires, accounts it uses cannot be read offline, it deploys code, its network is only
        /// the dApp's word.
        case trust
        /// A part the wallet cannot read: an unknown program or function, data it cannot decode.
        case unreadable
        /// Worth knowing, and no risk in itself: a token not in the table, value sent with a call.
        case notice

        package static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One warning: what it says, and how much it matters.
    package struct Warning: Sendable, Equatable {
        package var severity: Severity
        package var text: String

        package init(_ severity: Severity, _ text: String) {
            (self.severity, self.text) = (severity, text)
        }
    }

    /// What one instruction or call does: its first line says what, further lines the details.
    package struct Action: Sendable, Equatable {
        package var lines: [String]
        /// It moves the person's funds or authority (a transfer from this key, an approval, a
        /// new authority, an account closed), or may (a program the wallet cannot read that this
        /// key signs for): the dialog shows it before anything but the warnings, and a
        /// transaction with such an action it cannot show is not signed.
        package var movesFunds: Bool

        package init(_ lines: [String], movesFunds: Bool = false) {
            (self.lines, self.movesFunds) = (lines, movesFunds)
        }
    }

    /// An exact amount of a currency with `decimals` places, from its integer count of the
    /// smallest unit written in decimal digits (`digits`, no sign, leading zeros allowed):
    /// `units("1500000000", decimals: 9, symbol: "SOL")` is "1.5 SOL". Nothing is rounded;
    /// trailing zeros of the fraction are dropped and the whole part grouped in thousands.
    package static func units(_ digits: String, decimals: Int, symbol: String) -> String {
        var whole = Array(digits.drop { $0 == "0" })
        var fraction: [Character] = []
        if decimals > 0 {
            let padded = Array(repeating: Character("0"), count: max(0, decimals - whole.count)) + whole
            fraction = Array(padded.suffix(decimals))
            whole = Array(padded.dropLast(decimals))
            while fraction.last == "0" { fraction.removeLast() }
        }
        var text = whole.isEmpty ? "0" : DisplayText.grouped(digits: String(whole))
        if !fraction.isEmpty { text += "." + String(fraction) }
        return symbol.isEmpty ? text : "\(text) \(symbol)"
    }

    /// A base58 address as every dialog shortens it: `7xKX…3fGh` (an Ethereum address is
    /// `EthereumAddress.short`, `0x5aAe…eAed`).
    package static func short(base58 text: String) -> String { Base58.short(text) }
}

/// A transaction that cannot be read: where (`field`, relative to the transaction, such as
/// `message.instructions[2].accounts[1]`; empty for the whole of it) and what is wrong. The
/// methods report it as -32602 with the request's path in front (`rpcError(at:)`).
package struct TransactionError: Error, Equatable, Sendable {
    package var field: String
    package var problem: String

    package init(field: String, problem: String) {
        (self.field, self.problem) = (field, problem)
    }

    /// -32602 with `data.field` the request's path to the transaction (`request.params.transaction`)
    /// followed by `field`, and `data.problem`.
    package func rpcError(at path: String) -> RPCError {
        let whole = field.isEmpty ? path : field.hasPrefix("[") ? path + field : "\(path).\(field)"
        return RPCError.invalidParams(whole, problem)
    }
}
