import WalletBridge
@testable import WalletBridgeCLI
import XCTest

/// What `wallet-bridge log` prints of a transaction's line: the method, the chain, and what
/// identifies the transaction once signed (this key's Solana signatures, the EVM transaction's
/// hash), every text escaped as for other lines.
final class TransactionLogLineTests: XCTestCase {
    private func json(_ members: [String: JSONValue]) -> [UInt8] { Array(JSONValue.object(members).compactText.utf8) }
    private let start = #"2026-11-23T10:00:00Z  approved (confirmation)  unidentified  key "main" "#
    private var base: [String: JSONValue] {
        [
            "time": "2026-11-23T10:00:00Z", "decision": "approved", "approval": "confirmation",
            "caller": "unidentified", "label": "main",
        ]
    }

    func testSolanaTransactionsShowTheirSignatures() {
        var line = base
        line["address"] = "vzTo="
        line["method"] = "solana_signAllTransactions"
        line["chain"] = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
        line["payload_count"] = 4
        line["signatures"] = .array((1...4).map { .string(String(repeating: "\($0)", count: 88)) })
        line["dialog_sha256"] = .string(String(repeating: "d", count: 64))
        XCTAssertEqual(
            LogCommand.describe(json(line)),
            start
                + "vzTo=  solana_signAllTransactions on solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp, 4 transactions, signed 111111111111…, 222222222222…, 333333333333…, +1 more"
        )
        line["decision"] = "declined"
        line["approval"] = nil
        line["signatures"] = nil
        line["payload_count"] = 1
        line["method"] = "solana_signTransaction\u{1B}[2J"
        XCTAssertEqual(
            LogCommand.describe(json(line)),
            #"2026-11-23T10:00:00Z  declined  unidentified  key "main" vzTo=  solana_signTransaction\u{1B}[2J on solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp, 1 transaction"#
        )
    }

    /// A sign-in reads as one, with the domain it is for and whether that was the site asking.
    func testSignInsNameTheirDomainAndTheSiteCheck() {
        var line = base
        line["address"] = "vzTo="
        line["method"] = "solana_signIn"
        line["chain"] = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
        line["payload_count"] = 1
        line["sign_in"] = ["domain": "evil.example\u{1B}[2J", "site": "https://app.example", "matches_site": false]
        XCTAssertEqual(
            LogCommand.describe(json(line)),
            start
                + #"vzTo=  solana_signIn on solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp, a message, sign-in for evil.example\u{1B}[2J (NOT the site https://app.example that asked)"#
        )
        line["sign_in"] = ["domain": "app.example", "site": "https://app.example", "matches_site": true]
        XCTAssertTrue(
            LogCommand.describe(json(line)).hasSuffix(
                ", a message, sign-in for app.example (the site https://app.example)"))
        var ethereum = base
        ethereum["address"] = "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
        ethereum["method"] = "personal_sign"
        ethereum["chain"] = "eip155:1"
        ethereum["keccak256"] = .string(String(repeating: "a", count: 64))
        ethereum["sign_in"] = ["domain": "app.example"]
        XCTAssertTrue(
            LogCommand.describe(json(ethereum)).hasSuffix(
                "aaaaaaaaaaaa…, sign-in for app.example (no site to check it against)"))
    }

    func testAnEthereumTransactionShowsItsHash() {
        var line = base
        line["address"] = "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
        line["method"] = "eth_signTransaction"
        line["chain"] = "eip155:1"
        line["keccak256"] = .string(String(repeating: "a", count: 64))
        line["transaction_hash"] = .string("0x" + String(repeating: "b", count: 64))
        XCTAssertEqual(
            LogCommand.describe(json(line)),
            start
                + "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826  eth_signTransaction on eip155:1, signing hash (Keccak-256) aaaaaaaaaaaa…, transaction hash 0xbbbbbbbbbbbb…"
        )
    }

    /// Transaction ids (the fee payer's signature) where the line has them, and a counted line
    /// says what its requests asked to sign: a cancelled transaction is not "1 payload".
    func testTransactionIDsAndCountedTransactions() {
        var line = base
        line["address"] = "vzTo="
        line["method"] = "solana_signTransaction"
        line["chain"] = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
        line["payload_count"] = 1
        line["transaction_ids"] = .array([.string(String(repeating: "5", count: 88))])
        XCTAssertEqual(
            LogCommand.describe(json(line)),
            start
                + "vzTo=  solana_signTransaction on solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp, 1 transaction, transaction id 555555555555…"
        )
        let counted: [String: JSONValue] = [
            "time": "2026-11-23T10:00:00Z", "decision": "cancelled", "caller": "unidentified", "count": 1,
            "payload_count": 1,
            "what": "transaction",
        ]
        XCTAssertEqual(
            LogCommand.describe(json(counted)),
            "2026-11-23T10:00:00Z  cancelled  unidentified  1 cancelled unanswered (1 transaction)")
    }
}
