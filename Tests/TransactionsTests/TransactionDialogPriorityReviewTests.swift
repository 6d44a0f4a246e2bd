import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeTransactions

/// From review rev3 of issue 36 (i36-rev3): the transaction dialog's budget in the worst case,
/// and that the warnings that matter most cannot be pushed out of it by ones that matter less,
/// nor a transaction by plain payloads before it (rule R1).
///
/// `testALongMemoKeepsItsCountOfWhatIsShown` needs the Solana decoder to size its memo line
/// within `TransactionConsent.maxLineBytes` (R2): it passes once that branch is merged.
final class TransactionDialogPriorityReviewTests: XCTestCase {
    private let me = TestKey(seed: 1).publicKey
    private let attacker = [UInt8](repeating: 0xA7, count: 32)

    /// A legacy message: `unknownPrograms` calls of programs the wallet does not know (one byte
    /// of data each), then an SPL Token `approve` of u64::MAX from a token account of this key
    /// to `attacker`.
    private func message(unknownPrograms: Int) throws -> SolanaMessage {
        let source = [UInt8](repeating: 0x50, count: 32)
        let token = try XCTUnwrap(Base58.decode("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", maxBytes: 32))
        let programs = (0..<unknownPrograms).map { [UInt8](repeating: UInt8(0x10 + $0), count: 32) }
        let keys = [me, source, attacker, token] + programs
        var bytes: [UInt8] = [1, 0, UInt8(keys.count - 2), UInt8(keys.count)]
        for key in keys { bytes += key }
        bytes += [UInt8](repeating: 9, count: 32)  // recent blockhash
        bytes.append(UInt8(unknownPrograms + 1))
        for index in programs.indices { bytes += [UInt8(4 + index), 0, 1, 1] }
        bytes += [3, 3, 1, 2, 0, 9, 4] + [UInt8](repeating: 0xFF, count: 8)
        return try SolanaMessage(bytes: bytes)
    }

    private func request(_ consent: TransactionConsent, callerName: String? = nil, label: String = "main")
        -> ConsentRequest
    {
        var request = ConsentRequest(
            caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"),
            callerName: callerName,
            keyLabel: label, shortAddress: TransactionSummary.short(base58: Base58.encode(me)), payloads: [])
        request.transactions = consent
        return request
    }

    /// The approval on its own shows its warning (the test below is not vacuous).
    func testAnUnlimitedApprovalAloneIsWarnedOf() throws {
        let text = try XCTUnwrap(
            request(
                TransactionConsent(
                    chain: "Solana mainnet", summaries: [message(unknownPrograms: 0).summary(signer: me)])
            ).transactionText)
        XCTAssertTrue(text.contains("⚠ Unlimited approval"), text)
    }

    /// Eight calls of unknown programs put first pushed the unlimited approval's warning out of
    /// the dialog ("…and 2 more warnings, 2 facts and 9 instructions not shown").
    func testUnknownProgramsCannotPushAnUnlimitedApprovalOutOfTheDialog() throws {
        let consent = TransactionConsent(
            chain: "Solana mainnet", summaries: [try message(unknownPrograms: 8).summary(signer: me)])
        try request(consent).checkTransactionsFit()
        let text = try XCTUnwrap(request(consent).transactionText)
        XCTAssertTrue(text.contains("⚠ Unlimited approval"), text)
    }

    /// In a batch, harmless-looking transactions first pushed the 16th one's approval warning
    /// out of the one dialog for all of them. Now the approval is shown first; and where the
    /// batch holds more that moves funds than one dialog can show (each filler keeps its own
    /// approve instruction, only its warning was taken out, and calls unknown programs this key
    /// signs for), the wallet refuses it rather than hide any of it.
    func testABatchCannotHideItsLastTransactionsApproval() throws {
        let filler = try message(unknownPrograms: 2).summary(signer: me)
        var fillerOnly = filler
        fillerOnly.warnings = filler.warnings.filter { !$0.text.contains("approval") }
        let last = try message(unknownPrograms: 0).summary(signer: me)
        for count in [1, 15] {
            let consent = TransactionConsent(
                chain: "Solana mainnet", summaries: Array(repeating: fillerOnly, count: count) + [last])
            do {
                try request(consent).checkTransactionsFit()
            } catch {
                XCTAssertEqual(count, 15, "\(error)\n" + (request(consent).transactionText ?? ""))
                XCTAssertEqual(error.transactions, Array(1...16))
                continue
            }
            let text = try XCTUnwrap(request(consent).transactionText)
            XCTAssertTrue(text.contains("Unlimited approval"), text)
        }
    }

    /// The whole SETDESC (caller, key, lines, instruction) fits what `PinentryConversation.command`
    /// sends without cutting (991 bytes escaped) in the worst case the parts allow: the longest
    /// caller name and key label, all `%` (three bytes each escaped), and a batch of 16 of the
    /// largest summaries.
    func testTheWholeDialogFitsOneAssuanLineInTheWorstCase() throws {
        let big = try message(unknownPrograms: 8).summary(signer: me)
        let percent = String(repeating: "%", count: 200)
        for summaries in [[big], Array(repeating: big, count: 16)] {
            var consent = TransactionConsent(chain: "Solana mainnet", summaries: summaries)
            consent.summaries = consent.summaries.map { summary in
                var summary = summary
                summary.warnings = summary.warnings.map { .init($0.severity, $0.text + percent) }
                summary.facts = summary.facts.map { $0 + percent }
                summary.actions = summary.actions.map {
                    .init($0.lines.map { $0 + percent }, movesFunds: $0.movesFunds)
                }
                return summary
            }
            var request = request(consent, callerName: percent, label: String(repeating: "%", count: 64))
            for remember in [nil, Int.max] {
                request.rememberMinutes = remember
                for unlocked in [false, true] {
                    request.keysStayUnlocked = unlocked
                    for approval in [ConsentRequest.Approval.passphrase, .confirmation] {
                        let description = request.description(for: approval)
                        let sent = Assuan.escape(description, maxBytes: Assuan.maxLineBytes - "SETDESC".utf8.count - 2)
                        XCTAssertEqual(
                            sent, Assuan.escape(description, maxBytes: .max), "cut when sent: \(description)")
                    }
                }
            }
        }
    }
    /// A memo longer than the decoder's 160 bytes gets its line ("Memo: \"…\" (N of M bytes
    /// shown)") from the decoder, and `TransactionConsent.fitted` cut that line again at 160
    /// bytes: the closing quote and the count of what is shown were lost.
    func testALongMemoKeepsItsCountOfWhatIsShown() throws {
        let memoProgram = try XCTUnwrap(Base58.decode("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr", maxBytes: 32))
        let memo = Array(String(repeating: "50% off!\nclick here ", count: 25).utf8)
        var bytes: [UInt8] = [1, 0, 1, 2] + me + memoProgram + [UInt8](repeating: 9, count: 32)
        bytes += [1, 1, 0] + [0x80 | UInt8(memo.count & 0x7F), UInt8(memo.count >> 7)] + memo
        let message = try SolanaMessage(bytes: bytes)
        let text = try XCTUnwrap(
            request(TransactionConsent(chain: "Solana mainnet", summaries: [message.summary(signer: me)]))
                .transactionText)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("Memo") })
        XCTAssertTrue(line.hasSuffix("bytes shown)"), String(line))
    }
    /// SignPayloads with text payloads before a transaction message showed the texts and pushed
    /// the transaction's transfer out of the dialog ("…and N more payloads not shown"): the
    /// transactions now come before the other payloads.
    func testSignPayloadsShowsTheTransactionEvenAfterTexts() throws {
        let system = [UInt8](repeating: 0, count: 32)
        var bytes: [UInt8] = [1, 0, 1, 3] + me + attacker + system + [UInt8](repeating: 9, count: 32)
        bytes += [1, 2, 2, 0, 1, 12, 2, 0, 0, 0] + [0x00, 0x10, 0xA5, 0xD4, 0xE8, 0, 0, 0]  // 1,000 SOL
        let texts = (0..<12).map {
            Array("Sign in to example.org, request \($0), nonce \(String(repeating: "x", count: 100))".utf8)
        }
        let alone = try XCTUnwrap(KeystoreWallet.solanaTransactions(in: [bytes], signer: me))
        XCTAssertTrue(try XCTUnwrap(request(alone).transactionText).contains("Transfer 1,000 SOL"))
        let consent = try XCTUnwrap(KeystoreWallet.solanaTransactions(in: texts + [bytes], signer: me))
        let text = try XCTUnwrap(request(consent).transactionText)
        XCTAssertTrue(text.contains("Transfer 1,000 SOL"), text)
    }
}
