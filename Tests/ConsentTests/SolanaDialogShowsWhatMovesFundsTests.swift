import Foundation
import WalletBridge
import XCTest

@testable import WalletBridgeWallet
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeTransactions

/// From the Solana review of issue 36 (i36-rev1): hostile or merely ordinary transactions whose
/// dialog must not leave out what moves this key's funds, nor the warnings about them (rule R1:
/// shown first, or the request refused before any dialog). Vectors made with solders 0.29
/// (signer: the key of seed [1] * 32, AKnL4NNf3DGWZJS6cPknBuEGnVsV4A4m5tgebLHaRSZ9).
///
/// The memo and swap tests need the Solana decoder's branch (a transfer from this key marked as
/// moving funds, `Action.movesFunds`; one warning for the three lookup tables): they pass once
/// it is merged (checked on a trial merge of i36-solana, i36-evm and i36-wiring2).
final class SolanaDialogShowsWhatMovesFundsTests: XCTestCase {
    private let signer = Base58.decode("AKnL4NNf3DGWZJS6cPknBuEGnVsV4A4m5tgebLHaRSZ9", maxBytes: 32)!

    private func text(_ messages: [String]) throws -> String {
        let summaries = try messages.map {
            try SolanaMessage(bytes: XCTUnwrap(Base64.decode($0))).summary(signer: signer)
        }
        var request = ConsentRequest(caller: .unidentified, keyLabel: "main", shortAddress: "AKnL…RSZ9", payloads: [])
        request.transactions = TransactionConsent(chain: "Solana mainnet", summaries: summaries)
        // Each of these fits one dialog: the wallet must show it, not refuse it.
        try request.checkTransactionsFit()
        return try XCTUnwrap(request.transactionText)
    }

    /// solana_signAllTransactions: three memo-only transactions, then one that sends 500 SOL
    /// from this key. It was "…and 1 more transaction not shown": the transfer comes first now.
    func testBatchDoesNotHideATransferFromThisKey() throws {
        let shown = try text([
            "AQABAoqI4910CfGV/VLbLTy6XXLKZwm/HZQSG/N0iAG0D29cBUpTWpkpIQZNJOhxYNo4fHw1td28kruB5B+oQEEFRI0BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEBAAJnbQ==",
            "AQABAoqI4910CfGV/VLbLTy6XXLKZwm/HZQSG/N0iAG0D29cBUpTWpkpIQZNJOhxYNo4fHw1td28kruB5B+oQEEFRI0BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEBAAJnbQ==",
            "AQABAoqI4910CfGV/VLbLTy6XXLKZwm/HZQSG/N0iAG0D29cBUpTWpkpIQZNJOhxYNo4fHw1td28kruB5B+oQEEFRI0BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEBAAJnbQ==",
            "AQABA4qI4910CfGV/VLbLTy6XXLKZwm/HZQSG/N0iAG0D29cAAAAAZBwe8PvJb3Jjtdctw1hyLEG3CSNjvYeHR2xykAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQICAAEMAgAAAACIUmp0AAAA",
        ])
        XCTAssertTrue(shown.contains("500 SOL"), shown)
    }

    /// Five long memos ("nothing moves, nothing is spent") and then a 123 SOL transfer from this
    /// key: it was "…and 3 more instructions not shown"; now it comes before the memos.
    func testMemosDoNotHideATransferFromThisKey() throws {
        let shown = try text([
            "AQACBIqI4910CfGV/VLbLTy6XXLKZwm/HZQSG/N0iAG0D29cAAAAAZBwe8PvJb3Jjtdctw1hyLEG3CSNjvYeHR2xykAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAVKU1qZKSEGTSTocWDaOHx8NbXdvJK7geQfqEBBBUSNAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGAwB1SGFybWxlc3Mgbm90ZSBudW1iZXIgMDogdGhpcyB0cmFuc2FjdGlvbiBvbmx5IHJlY29yZHMgbWVtb3Mgb24gY2hhaW47IG5vdGhpbmcgbW92ZXMsIG5vdGhpbmcgaXMgc3BlbnQsIG5vdGhpbmcgbGVhdmVzAwB1SGFybWxlc3Mgbm90ZSBudW1iZXIgMTogdGhpcyB0cmFuc2FjdGlvbiBvbmx5IHJlY29yZHMgbWVtb3Mgb24gY2hhaW47IG5vdGhpbmcgbW92ZXMsIG5vdGhpbmcgaXMgc3BlbnQsIG5vdGhpbmcgbGVhdmVzAwB1SGFybWxlc3Mgbm90ZSBudW1iZXIgMjogdGhpcyB0cmFuc2FjdGlvbiBvbmx5IHJlY29yZHMgbWVtb3Mgb24gY2hhaW47IG5vdGhpbmcgbW92ZXMsIG5vdGhpbmcgaXMgc3BlbnQsIG5vdGhpbmcgbGVhdmVzAwB1SGFybWxlc3Mgbm90ZSBudW1iZXIgMzogdGhpcyB0cmFuc2FjdGlvbiBvbmx5IHJlY29yZHMgbWVtb3Mgb24gY2hhaW47IG5vdGhpbmcgbW92ZXMsIG5vdGhpbmcgaXMgc3BlbnQsIG5vdGhpbmcgbGVhdmVzAwB1SGFybWxlc3Mgbm90ZSBudW1iZXIgNDogdGhpcyB0cmFuc2FjdGlvbiBvbmx5IHJlY29yZHMgbWVtb3Mgb24gY2hhaW47IG5vdGhpbmcgbW92ZXMsIG5vdGhpbmcgaXMgc3BlbnQsIG5vdGhpbmcgbGVhdmVzAgIAAQwCAAAAAA5foxwAAAA="
        ])
        XCTAssertTrue(shown.contains("123 SOL"), shown)
    }

    /// Eight unknown programs, fee payer someone else: the fee payer's warning (trust) comes
    /// before the eight about unknown programs (unreadable), which pushed it out before.
    func testTransactionWarningsComeBeforeInstructionWarnings() throws {
        let shown = try text([
            "AQAICQAAAAGQcHvD7yW9yY7XXLcNYcixBtwkjY72Hh0dscpAAAAABW8AAhcrjf9PWjJ0DicZBNfhiPqObO1RzhUGE58AAAAGo/Pe6RIOQmmFGS8DTOpLzBuSFea2el0dbdHm7wAAAAfqL70HrGz2T2BcPjeA5PfAxgUVj2UnsFJvFlP2AAAACMfspz9lsb1zDHj3BKd66LLiFX3XQ4zOFl0vh4cAAAAJf7UeaZh9lLMaRZV2AqKs4GWl7Hu37a6GZgR+QwAAAAqnuHPN+glN3UrO6sAcIjq+ZCT8Z62p0AwRD9l6AAAACy1NkLV+Y7lHct98oPzpL+b5CKamW4fJb/Sj7HcAAAAMKdZz+rnipqutQTFtIv0Sp4i7zfi0jyorZBC4dQEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAEAAAIAAAMAAAQAAAUAAAYAAAcAAAgAAA=="
        ])
        XCTAssertTrue(shown.contains("Fee payer is not this key"), shown)
    }

    /// An ordinary aggregator swap (version 0, three lookup tables, compute budget, ATA create,
    /// the aggregator, close wSOL): the three lookup-table warnings filled the budget; the
    /// priority fee and the instructions must be shown too.
    func testOrdinarySwapShowsItsInstructions() throws {
        let shown = try text([
            "gAEABgiKiOPddAnxlf1S2y08ul1yymcJvx2UEhvzdIgBtA9vXAAAAEBZJIaCkjM7GP5nlHJJxbDeR6g9VyvYEsFQ/KHfAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABBBiDYbBCtX+XOIewGrIHo00idPeQAaXFkHxrmKAMGRm/lIRcy/+ytunLDm+e8jOW7xfcSayxDmzpAAAAABHnVW/IxwG7udMVuzmgVB/2xst6j9I5RArHNola8E48G3fbh12Whk9nL4UbO63msHLSF7V9bN5E6jPWFfv8AqYyXJY9OJInxuz0QKRSODYMLWhOZ2v8QhASOe9jb6fhZAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFBAAFAuCTBAAEAAkDUMMAAAAAAAAHBgABAAMCBgEBBRMACBEJEgoTCxQMFQ0WDhcPGBAZKAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGAwEAAAEJAwAAABVm0eokD+zL8II5dC9G9OENHHhdiIM0UQf2IAYPAwACBAMBAwUAAAAqNNj7opWVNGIzoMLpVW5sd713KLHVcICBw96RmQMAAgQDAQMFAAAAP1gz1bbPtAtf0wu7nsBvu2mRjxK5nGkLrfrWBLADAAIEAwEDBQ=="
        ])
        XCTAssertTrue(shown.contains("Priority fee"), shown)
        XCTAssertTrue(shown.contains("Close token account"), shown)
    }
}
