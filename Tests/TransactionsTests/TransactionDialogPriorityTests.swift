import WalletBridge
@testable import WalletBridgeWallet
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeTransactions

/// Rule R1 of issue 36 on hand-made summaries: nothing that moves funds is hidden. Warnings by
/// severity (the same text in a batch once), then what moves funds, then the facts, then the
/// rest, the last line counting what is left out; and a request whose warnings about funds or
/// trust and actions that move funds do not all fit is refused before any dialog.
final class TransactionDialogPriorityTests: XCTestCase {
    private typealias Warning = TransactionSummary.Warning
    private typealias Action = TransactionSummary.Action

    private let transfer = Action(
        ["Transfer 500 SOL", "  from 7xKX…3fGh (this key)", "  to 9aBc…dEf1"], movesFunds: true)
    private let facts = [
        "Fee payer: 7xKX…3fGh (this key)", "Network fee: 0.000005 SOL (5,000 lamports per signature × 1)",
    ]

    private func memo(_ number: Int) -> Action {
        Action(["Memo: \"harmless note \(number): nothing moves, nothing is spent, nothing leaves this key at all\""])
    }

    private func summary(warnings: [Warning] = [], actions: [Action], facts: [String]? = nil) -> TransactionSummary {
        TransactionSummary(
            kind: "a Solana transaction (legacy)", warnings: warnings, facts: facts ?? self.facts, actions: actions,
            actionNoun: "instruction")
    }

    func testWarningsAreSortedBySeverityKeepingTheirOrderWithinOne() {
        let lines = TransactionConsent(
            chain: nil,
            summaries: [
                summary(
                    warnings: [
                        Warning(.notice, "notice 1"), Warning(.unreadable, "unreadable 1"), Warning(.trust, "trust 1"),
                        Warning(.funds, "funds 1"), Warning(.unreadable, "unreadable 2"), Warning(.funds, "funds 2"),
                    ], actions: [])
            ]
        ).lines(budget: 2_000)
        XCTAssertEqual(
            Array(lines.prefix(6)),
            [
                "⚠ funds 1", "⚠ funds 2", "⚠ trust 1", "⚠ unreadable 1", "⚠ unreadable 2", "⚠ notice 1",
            ])
    }

    /// The same warning in several transactions of a batch is one line naming them.
    func testABatchMergesTheSameWarningNamingItsTransactions() {
        let unknown = Warning(.unreadable, "Unknown program 9xQe…VFin")
        let payer = Warning(.trust, "Fee payer 9aBc…dEf1 is not this key")
        var summaries = Array(repeating: summary(warnings: [unknown], actions: []), count: 15)
        summaries[1].warnings.append(payer)
        summaries[4].warnings.append(payer)
        summaries[6].warnings = []
        let lines = TransactionConsent(chain: nil, summaries: summaries).lines(budget: 2_000)
        XCTAssertEqual(
            Array(lines.prefix(2)),
            [
                "⚠ Transactions 2, 5: Fee payer 9aBc…dEf1 is not this key",
                "⚠ Transactions 1–6, 8–15: Unknown program 9xQe…VFin",
            ])
        XCTAssertEqual(TransactionConsent.list([3]), "3")
        XCTAssertEqual(TransactionConsent.list([1, 2, 3, 7, 9, 10]), "1–3, 7, 9, 10")
    }

    /// A transfer after memos that fill the dialog is shown before them and before the facts,
    /// numbered with its place; the memos that do not fit are counted.
    func testATransferComesBeforeTheFactsAndTheMemosWithItsPlace() throws {
        let consent = TransactionConsent(chain: nil, summaries: [summary(actions: (1...8).map(memo) + [transfer])])
        XCTAssertNoThrow(try consent.checkFits(budget: 500))
        let lines = consent.lines(budget: 500)
        XCTAssertEqual(
            Array(lines.prefix(5)),
            [
                "Instruction 9 of 9: Transfer 500 SOL", "  from 7xKX…3fGh (this key)", "  to 9aBc…dEf1", facts[0],
                facts[1],
            ])
        let memos = lines.filter { $0.hasPrefix("Memo") }.count
        XCTAssertLessThan(memos, 8)
        XCTAssertEqual(lines.last, "…and \(8 - memos) more instructions not shown")
        // In its place, it needs no number.
        let first = TransactionConsent(chain: nil, summaries: [summary(actions: [transfer, memo(1)])]).lines(
            budget: 2_000)
        XCTAssertEqual(first, transfer.lines + facts + memo(1).lines)
    }

    /// In a batch, what moves funds names its transaction, and comes before every other
    /// transaction's lines; the facts they all share are said once.
    func testABatchShowsEveryTransferFirstNamingItsTransaction() {
        var summaries = Array(repeating: summary(actions: [memo(1), memo(2)]), count: 4)
        summaries[3].actions = [memo(1), transfer]
        summaries[2].actions = [transfer]
        let lines = TransactionConsent(chain: "Solana mainnet", summaries: summaries).lines(budget: 640)
        XCTAssertEqual(
            Array(lines.prefix(9)),
            [
                "Transaction 3: Transfer 500 SOL", "  from 7xKX…3fGh (this key)", "  to 9aBc…dEf1",
                "Transaction 4, instruction 2 of 2: Transfer 500 SOL", "  from 7xKX…3fGh (this key)", "  to 9aBc…dEf1",
                "Each of the 4 transactions:", "  " + facts[0], "  " + facts[1],
            ])
        XCTAssertEqual(lines.dropFirst(9).first, "Transaction 1 of 4: a Solana transaction (legacy)")
        XCTAssertTrue(lines.last?.hasSuffix("more instructions not shown") ?? false, "\(lines)")
    }

    /// Lesser warnings (unreadable, notice) give way to what moves funds; the warnings about
    /// funds and trust do not.
    func testLesserWarningsGiveWayToWhatMovesFunds() throws {
        let unknown = (1...12).map {
            Warning(.unreadable, "Unknown program \($0) of a long list of programs the wallet cannot read")
        }
        let approval = Warning(.funds, "Unlimited approval of your tokens to 5Yz…")
        let consent = TransactionConsent(
            chain: nil, summaries: [summary(warnings: unknown + [approval], actions: [transfer])])
        try consent.checkFits(budget: 600)
        let lines = consent.lines(budget: 600)
        XCTAssertEqual(lines.first, "⚠ Unlimited approval of your tokens to 5Yz…")
        XCTAssertTrue(lines.contains("Transfer 500 SOL"), "\(lines)")
        let shownUnknown = lines.filter { $0.hasPrefix("⚠ Unknown program") }.count
        XCTAssertLessThan(shownUnknown, 12)
        XCTAssertTrue(lines.last?.hasPrefix("…and \(12 - shownUnknown) more warnings") ?? false, "\(lines)")
    }

    /// When the warnings about funds and what moves funds cannot all be shown, the wallet does
    /// not ask: `checkFits` throws, naming the transactions and saying what to do.
    func testTooMuchThatMovesFundsIsRefused() {
        let one = TransactionConsent(
            chain: nil,
            summaries: [
                summary(
                    warnings: [Warning(.funds, "Unlimited approval of your tokens to 5Yz…")],
                    actions: Array(repeating: transfer, count: 9))
            ])
        XCTAssertThrowsError(try one.checkFits(budget: 600)) { error in
            XCTAssertEqual(
                error as? TransactionConsent.TooMuch,
                TransactionConsent.TooMuch(
                    transactions: [1],
                    problem:
                        "too much to show in one dialog: its 1 warning about funds or trust, its fees and 9 instructions that move funds "
                        + "do not fit; sign fewer instructions at once"))
        }
        var summaries = Array(repeating: summary(actions: [memo(1)]), count: 16)
        for index in [2, 3, 4, 9] { summaries[index].actions.append(transfer) }
        summaries[9].actions = [transfer, transfer, transfer]
        let batch = TransactionConsent(chain: nil, summaries: summaries)
        XCTAssertThrowsError(try batch.checkFits(budget: 300)) { error in
            let tooMuch = error as? TransactionConsent.TooMuch
            XCTAssertEqual(tooMuch?.transactions, [3, 4, 5, 10])
            XCTAssertEqual(
                tooMuch?.problem,
                "too much to show in one dialog: the warnings about funds or trust, the fees and what moves "
                    + "funds in transactions 3–5, 10 do not fit; the first 3 fit one dialog: sign at most 3 at once")
            XCTAssertEqual(
                tooMuch?.rpcError(at: "request.params.transactions"),
                RPCError(
                    .invalidParams,
                    data: .object([
                        "field": "request.params.transactions", "problem": .string(tooMuch?.problem ?? ""),
                    ])))
        }
        // The advice holds: three fit, four do not.
        XCTAssertNoThrow(
            try TransactionConsent(chain: nil, summaries: Array(summaries.prefix(3))).checkFits(budget: 300))
        XCTAssertThrowsError(
            try TransactionConsent(chain: nil, summaries: Array(summaries.prefix(4))).checkFits(budget: 300))
        // What does not move funds never refuses: it is counted.
        let memos = TransactionConsent(chain: nil, summaries: [summary(actions: (1...40).map(memo))])
        XCTAssertNoThrow(try memos.checkFits(budget: 300))
    }

    /// SignPayloads: the decoded transactions come first, the other payloads after them under
    /// their numbers in the request.
    func testPayloadsThatAreNotTransactionsComeAfterTheTransactions() {
        let text = TransactionSummary(kind: "Text: \"Sign in to example.org\"", actionNoun: "part")
        let consent = TransactionConsent(
            chain: nil, summaries: [text, summary(actions: [transfer]), text], noun: "payload")
        XCTAssertEqual(
            consent.lines(budget: 2_000),
            transfer.lines.enumerated().map { $0 == 0 ? "Payload 2: " + $1 : $1 } + [
                "Payload 2 of 3: a Solana transaction (legacy)", "  " + facts[0], "  " + facts[1],
                "Payload 1 of 3: Text: \"Sign in to example.org\"", "Payload 3 of 3: Text: \"Sign in to example.org\"",
            ])
    }

    /// A transaction dialog never offers "Sign and allow", so it neither says so nor keeps room
    /// for it: the same text with or without an allowance set.
    func testATransactionDialogSaysNothingOfAnAllowance() throws {
        var request = ConsentRequest(caller: .unidentified, keyLabel: "main", shortAddress: "7xKX…3fGh", payloads: [])
        request.transactions = TransactionConsent(chain: nil, summaries: [summary(actions: (1...40).map(memo))])
        let without = request.description(for: .confirmation)
        request.rememberMinutes = 15
        XCTAssertEqual(request.description(for: .confirmation), without)
        XCTAssertTrue(without.hasSuffix("\n\nSign, or Refuse."), without)
        // Its budget keeps room for the longest instruction it can end with, and no more.
        let text = try XCTUnwrap(request.transactionText)
        let head = text.split(separator: "\n").prefix(2).joined(separator: "\n")
        let longest =
            "Enter the keystore passphrase to sign (the keys then stay unlocked for a while), or Cancel to refuse."
        let budget =
            ConsentRequest.maxDescriptionBytes - ConsentRequest.assuanCost(head) - 6
            - ConsentRequest.assuanCost(longest)
        XCTAssertEqual(text, ([head] + (request.transactions?.lines(budget: budget) ?? [])).joined(separator: "\n"))
    }
}
