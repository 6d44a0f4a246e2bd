import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeTransactions

/// What the dialog shows of transactions (`TransactionConsent` in a `ConsentRequest`): who asks
/// first, then what is signed, every warning before any fact, facts before actions, and within
/// one Assuan line whatever the transactions hold, with what is left out counted.
final class TransactionConsentTests: XCTestCase {
    private let chrome = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")

    private func request(_ consent: TransactionConsent, callerName: String? = nil, label: String = "main")
        -> ConsentRequest
    {
        var request = ConsentRequest(
            caller: chrome, callerName: callerName, keyLabel: label, shortAddress: "7xKX…3fGh", payloads: [])
        request.transactions = consent
        return request
    }

    private let transfer = TransactionSummary(
        testKind: "a Solana transaction (legacy)", warnings: ["Fee payer 9aBc…dEf1 is not this key"],
        facts: ["Fee payer: 9aBc…dEf1 (not this key)", "Network fee: 0.00001 SOL (5,000 lamports per signature × 2)"],
        actions: [["Transfer 1.5 SOL", "  from 7xKX…3fGh (this key)", "  to 9aBc…dEf1"], ["Memo: \"gm\""]],
        actionNoun: "instruction")

    /// `SETDESC <description>` is one Assuan line: the description never depends on the cut
    /// `Assuan.escape` would make (as ConsentTextTests checks the other dialogs).
    private func assertFitsOneAssuanLine(_ description: String, file: StaticString = #filePath, line: UInt = #line) {
        let whole = Assuan.escape(description, maxBytes: 100_000)
        XCTAssertEqual(
            Assuan.escape(description, maxBytes: 990), whole, "\(whole.utf8.count) bytes escaped", file: file,
            line: line)
    }

    func testOneTransactionIsShownCallerFirstThenWarningsFactsAndActions() {
        let consent = TransactionConsent(chain: "Solana mainnet", summaries: [transfer])
        XCTAssertEqual(
            request(consent).description(for: .confirmation),
            """
            The extension with ID abcdefghijklmnopabcdefghijklmnop
            asks to sign a Solana transaction (legacy) on Solana mainnet with your key "main" (7xKX…3fGh):
            ⚠ Fee payer 9aBc…dEf1 is not this key
            Fee payer: 9aBc…dEf1 (not this key)
            Network fee: 0.00001 SOL (5,000 lamports per signature × 2)
            Transfer 1.5 SOL
              from 7xKX…3fGh (this key)
              to 9aBc…dEf1
            Memo: "gm"

            Sign, or Refuse.
            """)
    }

    func testABatchNamesEachTransactionAndItsWarningsComeFirst() {
        let approval = TransactionSummary(
            testKind: "a Solana transaction (version 0)", warnings: ["Unlimited approval of your tokens to 5Yz…"],
            facts: ["Fee payer: 7xKX…3fGh (this key)"],
            actions: [["Approve 5Yz… for all your tokens of mint EPjF…Dt1v"]], actionNoun: "instruction")
        let text = request(TransactionConsent(chain: "Solana devnet", summaries: [transfer, approval])).transactionText
        XCTAssertEqual(
            text,
            """
            The extension with ID abcdefghijklmnopabcdefghijklmnop
            asks to sign 2 transactions on Solana devnet with your key "main" (7xKX…3fGh):
            ⚠ Transaction 1: Fee payer 9aBc…dEf1 is not this key
            ⚠ Transaction 2: Unlimited approval of your tokens to 5Yz…
            Transaction 1 of 2: a Solana transaction (legacy)
              Fee payer: 9aBc…dEf1 (not this key)
              Network fee: 0.00001 SOL (5,000 lamports per signature × 2)
              Transfer 1.5 SOL
                from 7xKX…3fGh (this key)
                to 9aBc…dEf1
              Memo: "gm"
            Transaction 2 of 2: a Solana transaction (version 0)
              Fee payer: 7xKX…3fGh (this key)
              Approve 5Yz… for all your tokens of mint EPjF…Dt1v
            """)
    }

    /// The text above the instruction is the same whichever way the person approves, so the
    /// audit log's hash of it stands for what every dialog showed.
    func testTheTransactionTextIsTheSameForEveryApproval() throws {
        var request = request(TransactionConsent(chain: "Solana mainnet", summaries: [transfer]))
        let text = try XCTUnwrap(request.transactionText)
        for (approval, minutes, unlocked) in [
            (ConsentRequest.Approval.passphrase, nil, false), (.passphrase, nil, true), (.confirmation, 15, true),
            (.confirmation, nil, true),
        ] {
            request.rememberMinutes = minutes
            request.keysStayUnlocked = unlocked
            XCTAssertEqual(request.transactionText, text)
            XCTAssertTrue(request.description(for: approval).hasPrefix(text + "\n\n"))
        }
        XCTAssertEqual(request.dialogSHA256, Sodium.sha256(Array(text.utf8)))
        XCTAssertNil(
            ConsentRequest(caller: chrome, keyLabel: "main", shortAddress: "7xKX…3fGh", payloads: []).dialogSHA256)
    }

    /// Whatever the transactions hold (hundreds of instructions, dozens of warnings, lines of
    /// thousands of characters, `%` that Assuan writes as three bytes), from the widest caller
    /// and key label, the description is one Assuan line and a pinentry window, and a last line
    /// counts what is left out.
    func testAHugeTransactionFitsOneAssuanLineAndSaysWhatIsNotShown() {
        let firefox = Caller.firefoxAddon(
            id: String(repeating: "i", count: 300) + "@example.org", manifestPath: "/m.json")
        let long = String(repeating: "%", count: 5_000)
        let summaries = [
            TransactionSummary(
                testKind: "a Solana transaction (legacy)", warnings: (1...40).map { "Warning \($0) " + long },
                facts: (1...20).map { "Fact \($0)" },
                actions: (1...500).map { ["Instruction \($0)", "  detail " + long] },
                actionNoun: "instruction"),
            TransactionSummary(
                testKind: "a Solana transaction (legacy)", facts: ["Fee payer: 7xKX…3fGh (this key)"],
                actions: (1...500).map { ["Instruction \($0)"] }, actionNoun: "instruction"),
            TransactionSummary(
                testKind: "a Solana transaction (legacy)", warnings: ["short"], actionNoun: "instruction"),
        ]
        for consent in [
            TransactionConsent(chain: "Solana mainnet", summaries: [summaries[0]]),
            TransactionConsent(chain: "Solana mainnet", summaries: [summaries[1]]),
            TransactionConsent(chain: "Solana mainnet", summaries: Array(repeating: summaries[1], count: 16)),
            TransactionConsent(chain: "Solana mainnet", summaries: summaries),
        ] {
            for caller in [chrome, firefox] {
                var request = request(
                    consent, callerName: String(repeating: "🙂", count: 300), label: String(repeating: "%", count: 64))
                request.caller = caller
                request.rememberMinutes = 1_000_000
                request.keysStayUnlocked = true
                for approval in [ConsentRequest.Approval.passphrase, .confirmation] {
                    let description = request.description(for: approval)
                    assertFitsOneAssuanLine(description)
                    let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
                    XCTAssertLessThanOrEqual(lines.count, TransactionConsent.maxLines + 8, description)
                    XCTAssertTrue(lines.contains { $0.contains("…and ") && $0.hasSuffix(" not shown") }, description)
                }
            }
        }
    }

    /// Nothing is cut silently: whatever the budget, what is shown and what the last line
    /// counts add up to everything, in order (no instruction is skipped for a shorter one after
    /// it), and warnings come before everything else.
    func testWhatIsShownAndWhatIsCountedAddUpToEverything() throws {
        let summary = TransactionSummary(
            testKind: "a Solana transaction (legacy)", warnings: (1...6).map { "Warning \($0)" },
            facts: (1...4).map { "Fact \($0)" },
            actions: (1...30).map { ["Instruction \($0)", "  its detail \($0)"] }, actionNoun: "instruction")
        let consent = TransactionConsent(chain: nil, summaries: [summary])
        for budget in stride(from: 0, through: 1_200, by: 7) {
            let lines = consent.lines(budget: budget)
            let warnings = lines.filter { $0.hasPrefix("⚠ Warning") }.count
            let facts = lines.filter { $0.hasPrefix("Fact") }.count
            let actions = lines.filter { $0.hasPrefix("Instruction") }.count
            XCTAssertEqual(lines.filter { $0.hasPrefix("⚠ Warning") }, (0..<warnings).map { "⚠ Warning \($0 + 1)" })
            XCTAssertEqual(lines.filter { $0.hasPrefix("Instruction") }, (0..<actions).map { "Instruction \($0 + 1)" })
            XCTAssertEqual(
                lines.filter { $0.hasPrefix("  its detail") }.count, actions, "an action is shown whole or not at all")
            if facts > 0 { XCTAssertEqual(warnings, 6, "a fact only after every warning") }
            if actions > 0 { XCTAssertEqual(facts, 4, "an action only after every fact") }
            let expected = TransactionConsent.omitted([
                (6 - warnings, "warning", warnings > 0), (4 - facts, "fact", facts > 0),
                (30 - actions, "instruction", actions > 0),
            ])
            if warnings + facts + actions < 40 {
                XCTAssertEqual(lines.last, expected, "budget \(budget)")
            } else {
                XCTAssertFalse(lines.contains { $0.contains("not shown") })
            }
            let used = lines.reduce(0) { $0 + TransactionConsent.cost($1) }
            XCTAssertLessThanOrEqual(used, max(budget, TransactionConsent.noteReserve), "budget \(budget)")
        }
        XCTAssertEqual(TransactionConsent.omitted([(3, "instruction", true)]), "…and 3 more instructions not shown")
        XCTAssertEqual(
            TransactionConsent.omitted([(2, "warning", true), (1, "fact", false), (5, "instruction", false)]),
            "…and 2 more warnings, 1 fact and 5 instructions not shown")
    }

    /// In a batch, what does not fit is counted: the facts every transaction shares are shown
    /// once, and the transactions' own lines left out are counted by what they are.
    func testABatchCountsWhatItLeavesOut() {
        let summary = TransactionSummary(
            testKind: "a Solana transaction (legacy)", facts: ["Fee payer: 7xKX…3fGh (this key)"],
            actions: [["Memo: \"gm\"", "  signed by 7xKX…3fGh"]], actionNoun: "instruction")
        let lines = TransactionConsent(chain: nil, summaries: Array(repeating: summary, count: 16)).lines(budget: 600)
        XCTAssertEqual(Array(lines.prefix(2)), ["Each of the 16 transactions:", "  Fee payer: 7xKX…3fGh (this key)"])
        let shown = lines.filter { $0.hasPrefix("Transaction ") && $0.contains(" of 16: ") }.count
        XCTAssertGreaterThan(shown, 0)
        XCTAssertLessThan(shown, 16)
        XCTAssertEqual(lines.last, "…and \(16 - shown) more instructions not shown")
    }

    /// Connecting says that the transaction methods ask for signatures, as the message ones do.
    func testConnectingCountsTransactionsAmongTheSignatures() {
        let question = SessionConsent.connect(
            caller: chrome, callerName: nil, metadata: PeerMetadata(name: "Example dApp"),
            namespaces: [
                "solana": Namespace(
                    chains: [SolanaChain.mainnet],
                    methods: ["solana_getAccounts", "solana_signTransaction", "solana_signAllTransactions"]),
                "eip155": Namespace(chains: [EIP155.mainnet], methods: ["eth_accounts", "eth_signTransaction"]),
            ], keyCount: 2)
        XCTAssertTrue(
            question.description.contains(
                "It may ask you for signatures (eth_signTransaction, solana_signAllTransactions, solana_signTransaction); each one still asks you first."
            ),
            question.description)
    }

    /// A line is one line, whatever it holds, and no longer than a dialog line should be.
    func testALineCannotBreakTheLayoutOrRunOn() {
        let summary = TransactionSummary(
            testKind: "a Solana transaction (legacy)", warnings: ["⚠ already marked"],
            facts: ["Memo: \"a\nFee payer: you (this key)\u{2028}x\""],
            actions: [["  " + String(repeating: "é", count: 200)]], actionNoun: "instruction")
        let lines = TransactionConsent(chain: nil, summaries: [summary]).lines(budget: 900)
        XCTAssertEqual(lines[0], "⚠ already marked", "not marked twice")
        XCTAssertEqual(lines[1], "Memo: \"a\\nFee payer: you (this key)\\u{2028}x\"")
        // Too long for one line: wrapped, never cut, each part within a line and every é kept.
        XCTAssertTrue(lines[2].hasPrefix("  éé"))
        let parts = lines.dropFirst(2).prefix { $0.hasPrefix("  é") || $0.hasPrefix("    é") }
        XCTAssertGreaterThan(parts.count, 1)
        XCTAssertTrue(parts.allSatisfy { DisplayText.cost($0) <= TransactionConsent.maxLineBytes })
        XCTAssertEqual(parts.map { $0.filter { $0 == "é" }.count }.reduce(0, +), 200)
    }

    /// One character longer than a line (a letter under a hundred combining marks), or an indent
    /// as long as a line, still wraps and ends: each line takes at least one character.
    func testWrappingAlwaysMovesOn() {
        let cluster = "a" + String(repeating: "\u{0301}", count: 100)
        let lines = TransactionConsent.wrapped("x " + cluster + " y")
        XCTAssertEqual(lines.joined().filter { $0 == "y" }.count, 1)
        XCTAssertTrue(lines.contains { $0.contains(cluster) })
        let indented = TransactionConsent.wrapped(
            String(repeating: " ", count: 200) + String(repeating: "z ", count: 100))
        XCTAssertEqual(indented.joined().filter { $0 == "z" }.count, 100)
        XCTAssertTrue(indented.dropFirst().allSatisfy { DisplayText.cost($0) <= TransactionConsent.maxLineBytes })
    }
}
