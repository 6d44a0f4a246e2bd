import WalletBridgeSystem
import WalletBridgeProtocol

/// What the dialog shows of transactions to sign: one, or a batch (`solana_signAllTransactions`,
/// SignPayloads with several payloads), each as its decoder summed it up (`TransactionSummary`).
///
/// The whole dialog text must fit one Assuan line (see `DisplayText.preview`) and a pinentry
/// window, so the lines get a budget (`lines(budget:)`). Nothing that moves the person's funds is
/// ever left out: the warnings about funds and trust, every action that moves funds and the facts
/// (the fee payer and the most the fees can cost among them) are laid out first, and a request
/// whose such lines do not all fit is refused before any dialog (`checkFits(budget:)`). The rest
/// fills what is left in order, and one last line counts what is not shown ("…and 3 more
/// instructions not shown"). A line longer than a line may be is wrapped, never cut.
///
/// The layout, in this order:
/// 1. Every warning, marked "⚠ ", the most severe first (stable within a severity). In a batch
///    each names its transactions, and the same text in several is one line:
///    "⚠ Transactions 1–15: …", "⚠ Transactions 2, 5: …", "⚠ Transaction 3: …".
/// 2. Every action that moves funds (`Action.movesFunds`), whole. One that comes after an action
///    that does not is numbered with its place ("Instruction 5 of 9: Transfer 500 SOL"); in a
///    batch it also names its transaction ("Transaction 4, instruction 2 of 3: …",
///    "Transaction 4: …").
/// 3. In a batch, the facts all its transactions share, once, under "Each of the 3 transactions:"
///    (the same fee payer and network fee sixteen times over would push out what differs).
/// 4. Then each transaction: in a batch its heading ("Transaction 2 of 3: <kind>") and the facts
///    it does not share; then its other actions, in order. Payloads that are not transactions
///    (SignPayloads) come after the transactions, each under its heading with its number in the
///    request ("Payload 1 of 3: Text: …").
/// 5. Where the budget ends, the last line: "…and 2 more warnings, 1 fact and 5 instructions
///    not shown".
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
    /// "…" (the decoders keep theirs shorter; this bounds what a dialog can be made to show).
    static let maxLineBytes = 160
    /// The most lines shown: what a pinentry window shows without scrolling off the screen.
    static let maxLines = 24
    /// About the most the line that counts what is left out takes (its counts have at most
    /// four digits: a transaction has at most 1,232 bytes). The room kept for it is its longest
    /// form for the transactions at hand (`noteCost`), usually far less.
    static let noteReserve = 100
    /// Marks a warning.
    package static let warningMark = "⚠ "

    /// The warnings and actions that moved funds do not all fit one dialog: the request is
    /// refused before anyone is asked. `problem` says so, naming the transactions, for -32602
    /// (`rpcError(at:)`) or SignPayloads' -6.
    package struct TooMuch: Error, Equatable, Sendable {
        /// The transactions (numbered from 1, in request order) with a warning about funds or
        /// trust, or an action that moves funds.
        package var transactions: [Int]
        /// "too much to show in one dialog: …; sign fewer instructions at once".
        package var problem: String

        /// -32602 with `data.field` `path` (the transaction, or the batch) and `data.problem`.
        package func rpcError(at path: String) -> RPCError {
            RPCError.invalidParams(path, problem)
        }
    }

    /// Throws `TooMuch` unless every warning of severity `funds` or `trust`, every line of every
    /// action that moves funds and every fact fit `budget` (and the window), with room for the last line
    /// when anything else is left out. The wallet calls it before any dialog
    /// (`ConsentRequest.checkTransactionsFit`).
    package func checkFits(budget: Int) throws(TooMuch) {
        let plan = Plan(self)
        guard fits(plan, budget: budget) else { throw tooMuch(plan, budget: budget) }
    }

    /// Whether what `plan` must show fits `budget`.
    private func fits(_ plan: Plan, budget: Int) -> Bool {
        let layout = Layout(budget: budget, noteCost: noteCost(plan, mustFits: true))
        let reserve = plan.hasMoreThanMustShow ? 1 : 0
        return layout.fits(plan.mustShow.flatMap(\.lines), reserve: reserve)
    }

    private func tooMuch(_ plan: Plan, budget: Int) -> TooMuch {
        let numbers = plan.mustShowTransactions
        let problem: String
        if summaries.count == 1 {
            let summary = summaries[0]
            let moving = summary.actions.filter(\.movesFunds).count
            let warnings = summary.warnings.filter { $0.severity <= .trust }.count
            problem =
                "too much to show in one dialog: its \(DisplayText.counted(warnings, "warning")) about funds or trust, its fees "
                + "and \(DisplayText.counted(moving, summary.actionNoun)) that move funds do not fit; "
                + "sign fewer \(summary.actionNoun)s at once"
        } else {
            // How many of the first would fit, so that the caller knows how to split the batch.
            let fitting = (1..<summaries.count).last { count in
                let first = TransactionConsent(chain: chain, summaries: Array(summaries.prefix(count)), noun: noun)
                return first.fits(Plan(first), budget: budget)
            }
            let advice =
                fitting.map { "the first \($0) fit one dialog: sign at most \($0) at once" }
                ?? "sign fewer \(noun)s at once"
            problem =
                "too much to show in one dialog: the warnings about funds or trust, the fees and what moves funds in "
                + "\(noun)s \(Self.list(numbers)) do not fit; \(advice)"
        }
        return TooMuch(transactions: numbers, problem: problem)
    }

    /// The lines shown, within `budget` bytes as one Assuan line carries them (each line with
    /// its line break, which takes three) and `maxLines`, in the order the type's comment
    /// gives. Never longer than the budget: when even the warnings about funds and the actions
    /// that move funds do not fit (which `checkFits` refuses before any dialog), as many as fit
    /// are shown and the rest counted.
    package func lines(budget: Int) -> [String] {
        let plan = Plan(self)
        var whole = Layout(budget: budget, noteCost: 0)
        if plan.blocks.allSatisfy({ whole.add($0.lines, reserve: 0) }) { return whole.lines }
        // Something is left out: everything is laid out again with room kept for the line that
        // counts it, the blocks that must be shown first.
        // When even what must be shown does not fit (refused before any dialog), the last line
        // may have to count it too.
        var layout = Layout(budget: budget, noteCost: noteCost(plan, mustFits: fits(plan, budget: budget)))
        var shown = Set<Int>()
        for (index, block) in plan.blocks.enumerated() where block.priority == .must {
            guard layout.add(block.lines, reserve: 1) else { break }
            shown.insert(index)
        }
        if shown.count == plan.mustShow.count {
            // The rest in order, up to the first that does not fit.
            for (index, block) in plan.blocks.enumerated() where block.priority != .must {
                guard layout.add(block.lines, reserve: 1) else { break }
                shown.insert(index)
            }
        }
        var lines: [String] = []
        for (index, block) in plan.blocks.enumerated() where shown.contains(index) {
            lines += block.lines.flatMap(Self.wrapped)
        }
        lines.append(note(plan, left: plan.blocks.indices.filter { !shown.contains($0) }.map { plan.blocks[$0] }))
        return lines
    }

    /// The last line, counting the warnings, facts, actions and payloads of `left`; with
    /// `longest`, the longest it can be (every count whole, each with "more"), for the room
    /// kept for it.
    private func note(_ plan: Plan, left: [Block], longest: Bool = false, mustFits: Bool = true) -> String {
        let actionNoun = summaries.first { !$0.actions.isEmpty }?.actionNoun ?? "instruction"
        let parts: [(Set<Block.Kind>, String)] = [
            ([.warning], "warning"), ([.fact], "fact"), ([.movesFunds, .action], actionNoun), ([.payload], noun),
        ]
        return Self.omitted(
            parts.map { kinds, noun in
                // Only what may be left out can be counted: what must be shown never is.
                let total = plan.blocks.filter {
                    kinds.contains($0.kind) && (!longest || !mustFits || $0.priority == .rest)
                }
                .reduce(0) { $0 + $1.count }
                let missing = left.filter { kinds.contains($0.kind) }.reduce(0) { $0 + $1.count }
                return longest ? (total, noun, true) : (missing, noun, missing < total)
            })
    }

    /// What the last line may take: the longest it can be for `plan`.
    private func noteCost(_ plan: Plan, mustFits: Bool) -> Int {
        Self.cost(note(plan, left: plan.blocks, longest: true, mustFits: mustFits))
    }

    /// One part of the layout, shown whole or not at all.
    private struct Block {
        enum Kind { case warning, movesFunds, fact, action, payload }
        enum Priority { case must, rest }
        var lines: [String]
        var kind: Kind
        var priority: Priority
        /// How many warnings, facts, actions or payloads it holds, for the count of what is left out.
        var count = 1
        /// The transactions (numbered from 1) it is about.
        var transactions: [Int] = []
    }

    /// The blocks in the order shown.
    private struct Plan {
        var blocks: [Block] = []

        var mustShow: [Block] { blocks.filter { $0.priority == .must } }
        var hasMoreThanMustShow: Bool { blocks.contains { $0.priority != .must } }
        var mustShowTransactions: [Int] { Array(Set(mustShow.flatMap(\.transactions))).sorted() }

        init(_ consent: TransactionConsent) {
            let summaries = consent.summaries
            let batch = summaries.count > 1
            let noun = consent.noun
            // 1. Warnings: one line per text, naming every transaction that has it.
            var texts: [(severity: TransactionSummary.Severity, text: String, transactions: [Int])] = []
            for (index, summary) in summaries.enumerated() {
                for warning in summary.warnings {
                    let text =
                        warning.text.hasPrefix("⚠")
                        ? String(warning.text.drop { $0 == "⚠" || $0 == " " }) : warning.text
                    if let seen = texts.firstIndex(where: { $0.text == text }) {
                        if texts[seen].transactions.last != index + 1 { texts[seen].transactions.append(index + 1) }
                        texts[seen].severity = min(texts[seen].severity, warning.severity)
                    } else {
                        texts.append((warning.severity, text, [index + 1]))
                    }
                }
            }
            // A stable sort: the decoders' order within a severity is kept.
            let sorted = texts.enumerated()
                .sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }.map(\.element)
            for warning in sorted {
                let numbers = TransactionConsent.list(warning.transactions)
                let whose = batch ? "\(Self.capitalized(noun, warning.transactions.count)) \(numbers): " : ""
                blocks.append(
                    Block(
                        lines: [TransactionConsent.warningMark + whose + warning.text], kind: .warning,
                        priority: warning.severity <= .trust ? .must : .rest, transactions: warning.transactions))
            }
            // The lesser warnings are shown after the ones that must be, so they come last of
            // the warnings when anything is left out; the order above already has them so.
            // 2. What moves funds, with its place when it is shown before an action that comes
            //    earlier in its transaction.
            for (index, summary) in summaries.enumerated() {
                for (place, action) in summary.actions.enumerated() where action.movesFunds {
                    let outOfOrder = summary.actions.prefix(place).contains { !$0.movesFunds }
                    var label: [String] = []
                    if batch { label.append("\(Self.capitalized(noun, 1)) \(index + 1)") }
                    if outOfOrder {
                        let number = "\(summary.actionNoun) \(place + 1) of \(summary.actions.count)"
                        label.append(label.isEmpty ? Self.capitalized(number) : number)
                    }
                    blocks.append(
                        Block(
                            lines: Self.labelled(label.joined(separator: ", "), action.lines), kind: .movesFunds,
                            priority: .must,
                            transactions: [index + 1]))
                }
            }
            // 3. In a batch, the facts every transaction shares, once.
            let shared: [String]
            if batch, summaries.allSatisfy({ !$0.facts.isEmpty }) {
                shared = summaries[0].facts.filter { fact in summaries.allSatisfy { $0.facts.contains(fact) } }
            } else {
                shared = []
            }
            for (offset, fact) in shared.enumerated() {
                // The heading goes with the first fact.
                let heading = offset == 0 ? ["Each of the \(summaries.count) \(noun)s:"] : []
                blocks.append(Block(lines: heading + ["  " + fact], kind: .fact, priority: .must))
            }
            // 4. Each transaction's own facts and other actions; payloads that are not
            //    transactions (nothing decoded) last.
            let decoded = summaries.indices.filter { !summaries[$0].isPlainPayload }
            let plain = summaries.indices.filter { summaries[$0].isPlainPayload }
            for index in decoded + plain {
                let summary = summaries[index]
                if summary.isPlainPayload {
                    // Alone, its kind is the dialog's subject already.
                    guard batch else { continue }
                    let heading = batch ? "\(Self.capitalized(noun, 1)) \(index + 1) of \(summaries.count)" : ""
                    blocks.append(
                        Block(
                            lines: Self.labelled(heading, [summary.kind]), kind: .payload, priority: .rest,
                            transactions: [index + 1]))
                    continue
                }
                let own = summary.facts.filter { !shared.contains($0) }
                let indent = batch ? "  " : ""
                var heading =
                    batch ? ["\(Self.capitalized(noun, 1)) \(index + 1) of \(summaries.count): \(summary.kind)"] : []
                for fact in own {
                    blocks.append(
                        Block(
                            lines: heading + [indent + fact], kind: .fact, priority: .must, transactions: [index + 1]))
                    heading = []
                }
                for action in summary.actions where !action.movesFunds {
                    blocks.append(
                        Block(
                            lines: heading + action.lines.map { indent + $0 }, kind: .action, priority: .rest,
                            transactions: [index + 1]))
                    heading = []
                }
            }
        }

        /// `lines` with `label` before the first ("Transaction 4: Transfer 1 SOL"), or on a line
        /// of its own when together they would be longer than a line may be.
        static func labelled(_ label: String, _ lines: [String]) -> [String] {
            guard !label.isEmpty, let first = lines.first else { return lines }
            let together = "\(label): \(first)"
            if DisplayText.cost(DisplayText.escaped(together, quotes: false)) <= TransactionConsent.maxLineBytes {
                return [together] + lines.dropFirst()
            }
            return ["\(label):"] + lines
        }

        /// "Transaction", "Transactions".
        static func capitalized(_ noun: String, _ count: Int) -> String {
            capitalized(count == 1 ? noun : noun + "s")
        }

        static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }
    }

    /// "3", "1–15", "2, 5", "1–3, 7": numbers in order, runs of three or more as a range.
    static func list(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var start = 0
        while start < numbers.count {
            var end = start
            while end + 1 < numbers.count, numbers[end + 1] == numbers[end] + 1 { end += 1 }
            if end - start >= 2 {
                parts.append("\(numbers[start])–\(numbers[end])")
            } else {
                parts += numbers[start...end].map(String.init)
            }
            start = end + 1
        }
        return parts.joined(separator: ", ")
    }

    /// "…and 3 more instructions not shown", "…and 2 more warnings and 1 transaction not shown":
    /// each count with its noun ("more" when some of those were shown), zero counts left out.
    package static func omitted(_ parts: [(count: Int, noun: String, more: Bool)], indent: Bool = false) -> String {
        let named = parts.filter { $0.count > 0 }.map { count, noun, more in
            "\(DisplayText.grouped(count)) \(more ? "more " : "")\(count == 1 ? noun : noun + "s")"
        }
        let list = named.count <= 1 ? named.joined() : named.dropLast().joined(separator: ", ") + " and " + named.last!
        return (indent ? "  " : "") + "…and \(list) not shown"
    }

    /// `line` as shown: every hidden character (line breaks included) as its escape, so that no
    /// line can become two by itself, and wrapped at spaces into lines of at most `maxLineBytes`,
    /// each continuation indented two spaces more than the line, so that nothing is cut.
    static func wrapped(_ line: String) -> [String] {
        let shown = DisplayText.escaped(line, quotes: false)
        guard DisplayText.cost(shown) > maxLineBytes else { return [shown] }
        // Continuations are indented a little more than the line, never so much that the indent
        // alone fills one.
        let indent = String(repeating: " ", count: min(shown.prefix { $0 == " " }.count, 8) + 2)
        var lines: [String] = []
        var prefix = ""
        var rest = Substring(shown)
        while true {
            let room = maxLineBytes - DisplayText.cost(prefix)
            // The longest head within the room, and at least one character (one that alone is
            // longer than a line still moves the wrapping on).
            var end = rest.startIndex
            var used = 0
            while end < rest.endIndex {
                let next = rest.index(after: end)
                used += DisplayText.cost(String(rest[end..<next]))
                if used > room, end > rest.startIndex { break }
                end = next
            }
            if end == rest.endIndex { return lines + [prefix + rest] }
            // Broken at the head's last space that follows something else.
            var cut = end
            if let space = rest[..<end].lastIndex(of: " "), rest[..<space].contains(where: { $0 != " " }) {
                cut = space
            }
            lines.append(prefix + rest[..<cut])
            rest = rest[cut...].drop { $0 == " " }
            prefix = indent
            if rest.isEmpty { return lines }
        }
    }

    /// What one line takes of the Assuan line: its bytes (`%` three) and its line break (three).
    package static func cost(_ line: String) -> Int { DisplayText.cost(line) + 3 }

    /// Lines added while they fit the budget and the window.
    private struct Layout {
        let budget: Int
        /// What the room kept for the last line takes.
        let noteCost: Int
        var lines: [String] = []
        var used = 0

        /// Whether `block`, with room left for `reserve` notes, fits what is left.
        func fits(_ block: [String], reserve: Int) -> Bool {
            let fitted = block.flatMap(TransactionConsent.wrapped)
            let cost = fitted.reduce(0) { $0 + TransactionConsent.cost($1) }
            return used + cost + reserve * noteCost <= budget
                && lines.count + fitted.count + reserve <= TransactionConsent.maxLines
        }

        /// Adds `block` whole when, with room left for `reserve` notes, it fits; else nothing.
        mutating func add(_ block: [String], reserve: Int) -> Bool {
            guard fits(block, reserve: reserve) else { return false }
            let fitted = block.flatMap(TransactionConsent.wrapped)
            lines += fitted
            used += fitted.reduce(0) { $0 + TransactionConsent.cost($1) }
            return true
        }
    }
}

extension TransactionSummary {
    /// A payload SignPayloads could not read as a transaction: only its preview, as its kind.
    var isPlainPayload: Bool { warnings.isEmpty && facts.isEmpty && actions.isEmpty }
}
