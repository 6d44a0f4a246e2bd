import WalletBridge

/// What the dialog shows of transactions to sign: one, or a batch (`solana_signAllTransactions`,
/// SignPayloads with several payloads), each as its decoder summed it up (`TransactionSummary`).
///
/// The whole dialog text must fit one Assuan line (see `DisplayText.preview`) and a pinentry
/// window, so the lines get a budget (`lines(budget:)`), filled in order of importance: every
/// warning first, then each transaction's facts, then what it does, instruction by instruction
/// (call by call). Nothing is cut silently: where the budget ends, one last line counts what is
/// not shown ("…and 3 more instructions not shown", "…and 2 more transactions not shown").
package struct TransactionConsent: Sendable, Equatable {
    /// The chain as a person knows it ("Solana mainnet", "Base (eip155:8453)"); nil when the
    /// request names none (walletlib's SignPayloads).
    package var chain: String?
    /// In request order.
    package var summaries: [TransactionSummary]
    /// What one entry is called in a batch: "transaction", or "payload" for SignPayloads, whose
    /// payloads need not all be transactions.
    package var noun: String

    package init(chain: String?, summaries: [TransactionSummary], noun: String = "transaction") {
        (self.chain, self.summaries, self.noun) = (chain, summaries, noun)
    }

    /// What the person is asked to sign: "a Solana transaction (legacy) on Solana mainnet",
    /// "3 transactions on Solana mainnet".
    package var subject: String {
        let what = summaries.count == 1 ? summaries[0].kind : "\(DisplayText.grouped(summaries.count)) \(noun)s"
        return chain.map { "\(what) on \($0)" } ?? what
    }

    /// The most one line takes, in bytes as pinentry receives them: a longer one is cut with
    /// "…" (the decoders keep theirs far shorter; this bounds what a dialog can be made to show).
    static let maxLineBytes = 160
    /// The most lines shown: what a pinentry window shows without scrolling off the screen.
    static let maxLines = 24
    /// Kept free, while anything may still be left out, for the line that counts it.
    static let noteReserve = 80
    /// Marks a warning.
    static let warningMark = "⚠ "

    /// The lines shown, within `budget` bytes as one Assuan line carries them (each line with
    /// its line break, which takes three), most important first: every warning (marked "⚠ ",
    /// in a batch with the number of its transaction), then, transaction by transaction, its
    /// facts and its actions, each action whole or not at all. The first thing that does not fit
    /// ends the list, and a last line counts what is left out.
    package func lines(budget: Int) -> [String] {
        var layout = Layout(budget: budget)
        let batch = summaries.count > 1
        let warnings = summaries.enumerated().flatMap { index, summary in
            summary.warnings.map(\.text).map { warning in
                let text = warning.hasPrefix("⚠") ? String(warning.drop { $0 == "⚠" || $0 == " " }) : warning
                return Self.warningMark + (batch ? "\(capitalized(noun)) \(index + 1): " : "") + text
            }
        }
        // Nothing comes after the last line of all: it needs no room kept for a note.
        let nothingButWarnings = !batch && summaries.allSatisfy { $0.facts.isEmpty && $0.actions.isEmpty }
        var shownWarnings = 0
        for warning in warnings {
            let last = nothingButWarnings && shownWarnings == warnings.count - 1
            guard layout.add([warning], reserve: last ? 0 : 1) else { break }
            shownWarnings += 1
        }
        guard shownWarnings == warnings.count else {
            layout.note(Self.omitted([(warnings.count - shownWarnings, "warning", shownWarnings > 0)] + everythingElse))
            return layout.lines
        }
        for (index, summary) in summaries.enumerated() {
            // In a batch, the note on this transaction and the one on the transactions after
            // it may both be needed.
            let reserve = batch ? 2 : 1
            let later = summaries.count - index - 1
            // The room kept for notes, unless the line is the last of all.
            let (facts, actions) = (summary.facts.count, summary.actions.count)
            func room(_ last: Bool) -> Int { last && later == 0 ? 0 : reserve }
            let heading = "\(capitalized(noun)) \(index + 1) of \(summaries.count): \(summary.kind)"
            if batch, !layout.add([heading], reserve: room(facts + actions == 0)) {
                layout.note(Self.omitted([(summaries.count - index, noun, index > 0)]))
                return layout.lines
            }
            var shownFacts = 0
            for fact in summary.facts {
                guard layout.add([fact], reserve: room(shownFacts == facts - 1 && actions == 0)) else { break }
                shownFacts += 1
            }
            var shownActions = 0
            if shownFacts == facts {
                for action in summary.actions {
                    guard layout.add(action.lines, reserve: room(shownActions == actions - 1)) else { break }
                    shownActions += 1
                }
            }
            if shownActions < summary.actions.count || shownFacts < summary.facts.count {
                layout.note(Self.omitted(
                    [(summary.facts.count - shownFacts, "fact", shownFacts > 0),
                     (summary.actions.count - shownActions, summary.actionNoun, shownActions > 0)], indent: batch))
                if later > 0 { layout.note(Self.omitted([(later, noun, true)])) }
                return layout.lines
            }
        }
        return layout.lines
    }

    /// All but the warnings, when none of it is shown: in a batch the transactions; for one,
    /// its facts and actions.
    private var everythingElse: [(count: Int, noun: String, more: Bool)] {
        if summaries.count > 1 { return [(summaries.count, noun, false)] }
        guard let summary = summaries.first else { return [] }
        return [(summary.facts.count, "fact", false), (summary.actions.count, summary.actionNoun, false)]
    }

    private func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// "…and 3 more instructions not shown", "…and 2 more warnings and 1 transaction not shown":
    /// each count with its noun ("more" when some of those were shown), zero counts left out.
    static func omitted(_ parts: [(count: Int, noun: String, more: Bool)], indent: Bool = false) -> String {
        let named = parts.filter { $0.count > 0 }.map { count, noun, more in
            "\(DisplayText.grouped(count)) \(more ? "more " : "")\(count == 1 ? noun : noun + "s")"
        }
        let list = named.count <= 1 ? named.joined() : named.dropLast().joined(separator: ", ") + " and " + named.last!
        return (indent ? "  " : "") + "…and \(list) not shown"
    }

    /// `line` as shown: every hidden character (line breaks included) as its escape, so that no
    /// line can become two, and cut to `maxLineBytes` with "…". Its indentation is kept.
    static func fitted(_ line: String) -> String {
        let shown = DisplayText.escaped(line, quotes: false)
        guard DisplayText.cost(shown) > maxLineBytes else { return shown }
        var kept = String.UnicodeScalarView()
        var used = DisplayText.cost("…")
        for scalar in shown.unicodeScalars {
            used += DisplayText.cost(String(scalar))
            if used > maxLineBytes { break }
            kept.append(scalar)
        }
        return String(kept) + "…"
    }

    /// What one line takes of the Assuan line: its bytes (`%` three) and its line break (three).
    static func cost(_ line: String) -> Int { DisplayText.cost(line) + 3 }

    /// Lines added while they fit the budget and the window.
    private struct Layout {
        let budget: Int
        var lines: [String] = []
        var used = 0

        /// Adds `block` whole when, with room left for `reserve` notes, it fits; else nothing.
        mutating func add(_ block: [String], reserve: Int) -> Bool {
            let fitted = block.map(TransactionConsent.fitted)
            let cost = fitted.reduce(0) { $0 + TransactionConsent.cost($1) }
            guard used + cost + reserve * TransactionConsent.noteReserve <= budget,
                  lines.count + fitted.count + reserve <= TransactionConsent.maxLines else { return false }
            lines += fitted
            used += cost
            return true
        }

        /// A note that counts what is left out: its room was reserved.
        mutating func note(_ text: String) {
            lines.append(text)
            used += TransactionConsent.cost(text)
        }
    }
}
