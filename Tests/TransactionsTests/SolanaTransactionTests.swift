import Foundation
import WalletBridge
import WalletBridgeTestSupport
import XCTest

@_spi(Fuzzing) @testable import WalletBridgeWallet
@testable import WalletBridgeSystem
@_spi(Fuzzing) @testable import WalletBridgeKeys
@_spi(Fuzzing) @testable import WalletBridgeTransactions

/// Solana transactions as solders (Solana's own Rust types, Tests/Support/solana_vectors.py)
/// builds and signs them: read field for field as solders reads them, summarized line for line,
/// and every kind of malformed input refused naming its field.
final class SolanaTransactionTests: XCTestCase {
    /// Tests/Support/solana-vectors.json: each transaction's base64, and what solders reads of it.
    nonisolated(unsafe) private static let file: [String: Any] = {
        let url = URL(fileURLWithPath: "\(packageRoot)/Tests/Support/solana-vectors.json")
        guard let data = try? Data(contentsOf: url),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return json
    }()

    private static let vectors: [String: [UInt8]] =
        (file["vectors"] as? [String: String] ?? [:]).compactMapValues { Base64.decode($0) }

    /// This key: the wallet's test seed A, whose key solders' vectors use as "A".
    private let signer = publicKey(ofSeed: testSeedA)
    private let otherSigner = publicKey(ofSeed: testSeedB)

    override func setUp() {
        Ed25519.initialize()
    }

    private func vector(_ name: String) throws -> [UInt8] {
        try XCTUnwrap(Self.vectors[name], "no vector \(name) in solana-vectors.json")
    }

    private func transaction(_ name: String) throws -> SolanaTransaction {
        try SolanaTransaction(bytes: vector(name))
    }

    private func summary(_ name: String) throws -> TransactionSummary {
        try transaction(name).message.summary(signer: signer)
    }

    /// The error reading `bytes` throws; fails when it reads.
    private func error(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> TransactionError? {
        do {
            _ = try SolanaTransaction(bytes: bytes)
            XCTFail("read without an error", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    private func assertError(
        _ bytes: [UInt8], field: String, problem: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error = error(bytes, file: file, line: line) else { return }
        XCTAssertEqual(error.field, field, file: file, line: line)
        XCTAssertTrue(error.problem.contains(problem), "problem: \(error.problem)", file: file, line: line)
    }

    // MARK: Reading, against solders

    func testTheVectorsAreThere() throws {
        XCTAssertEqual(Self.file["solders"] as? String, "0.29.0")
        XCTAssertGreaterThanOrEqual(Self.vectors.count, 25)
        let keys = try XCTUnwrap(Self.file["keys"] as? [String: String])
        XCTAssertEqual(keys["A"], Base58.encode(signer))
        XCTAssertEqual(keys["B"], Base58.encode(otherSigner))
    }

    /// Every field, as solders reads it; the wire form again, byte for byte; the message alone
    /// read as the transaction's message.
    func testReadsEveryTransactionAsSoldersDoes() throws {
        let decoded = try XCTUnwrap(Self.file["decoded"] as? [String: [String: Any]])
        XCTAssertGreaterThanOrEqual(decoded.count, 24)
        for (name, expected) in decoded {
            let bytes = try vector(name)
            let transaction = try SolanaTransaction(bytes: bytes)
            let message = transaction.message
            XCTAssertEqual(message.version == .v0 ? "v0" : "legacy", expected["version"] as? String, name)
            XCTAssertEqual(transaction.signatures.map(Base58.encode), expected["signatures"] as? [String], name)
            XCTAssertEqual(
                [message.requiredSignatures, message.readonlySignedCount, message.readonlyUnsignedCount],
                expected["header"] as? [Int], name)
            XCTAssertEqual(message.accountKeys.map(Base58.encode), expected["accountKeys"] as? [String], name)
            XCTAssertEqual(Base58.encode(message.recentBlockhash), expected["recentBlockhash"] as? String, name)
            let instructions = try XCTUnwrap(expected["instructions"] as? [[String: Any]])
            XCTAssertEqual(message.instructions.count, instructions.count, name)
            for (mine, theirs) in zip(message.instructions, instructions) {
                XCTAssertEqual(mine.programIndex, theirs["programIdIndex"] as? Int, name)
                XCTAssertEqual(mine.accounts, theirs["accounts"] as? [Int], name)
                XCTAssertEqual(Hex.encode(mine.data), theirs["data"] as? String, name)
            }
            let lookups = try XCTUnwrap(expected["addressTableLookups"] as? [[String: Any]])
            XCTAssertEqual(message.addressTableLookups.count, lookups.count, name)
            for (mine, theirs) in zip(message.addressTableLookups, lookups) {
                XCTAssertEqual(Base58.encode(mine.tableKey), theirs["accountKey"] as? String, name)
                XCTAssertEqual(mine.writableIndexes.map(Int.init), theirs["writableIndexes"] as? [Int], name)
                XCTAssertEqual(mine.readonlyIndexes.map(Int.init), theirs["readonlyIndexes"] as? [Int], name)
            }
            XCTAssertEqual(Hex.encode(message.bytes), expected["signedMessage"] as? String, name)
            XCTAssertEqual(transaction.serialized(), bytes, name)
            XCTAssertEqual(try SolanaMessage(bytes: message.bytes), message, name)
            XCTAssertEqual(try SolanaTransaction(base64: Base64.encode(bytes)), transaction, name)
        }
    }

    func testSignerIndexIsTheSlotOfARequiredSigner() throws {
        let other = try transaction("fee-payer-other").message
        XCTAssertEqual(other.signerIndex(of: otherSigner), 0)
        XCTAssertEqual(other.signerIndex(of: signer), 1)
        XCTAssertEqual(other.signers, [otherSigner, signer])
        // The recipient is an account of the message, but not a signer.
        let transfer = try transaction("system-transfer").message
        XCTAssertEqual(transfer.accountKeys[1], otherSigner)
        XCTAssertNil(transfer.signerIndex(of: otherSigner))
        XCTAssertNil(transfer.signerIndex(of: [UInt8](repeating: 7, count: 32)))
    }

    // MARK: Signatures

    func testSignaturesPresentVerifyAndZeroSlotsAreLeft() throws {
        for name in Self.vectors.keys.sorted() where Self.vectors[name]!.count <= SolanaTransaction.maxBytes {
            XCTAssertNoThrow(try transaction(name).verifyPresentSignatures(), name)
        }
        let partial = try transaction("fee-payer-other")
        XCTAssertTrue(partial.hasSignature(at: 0))
        XCTAssertFalse(partial.hasSignature(at: 1))
        XCTAssertFalse(partial.hasSignature(at: 2))
        XCTAssertNotNil(partial.id)
    }

    /// Signing this key's slot keeps the fee payer's signature: byte for byte what solders makes
    /// when both sign.
    func testSettingThisKeysSignatureGivesWhatSoldersSigns() throws {
        var transaction = try transaction("fee-payer-other")
        var publicKey = [UInt8](repeating: 0, count: 32)
        var secretKey = [UInt8](repeating: 0, count: 64)
        Ed25519.keyPair(seed: testSeedA, publicKey: &publicKey, secretKey: &secretKey)
        let index = try XCTUnwrap(transaction.message.signerIndex(of: publicKey))
        let signature = secretKey.withUnsafeBytes { Ed25519.sign(transaction.message.bytes, secretKey: $0) }
        transaction.setSignature(signature, at: index)
        XCTAssertNoThrow(try transaction.verifyPresentSignatures())
        XCTAssertEqual(transaction.serialized(), try vector("fee-payer-other-signed"))
        XCTAssertEqual(transaction.id, Base58.encode(try self.transaction("fee-payer-other").signatures[0]))
    }

    func testASignatureInTheWrongSlotIsRefused() throws {
        // Both signers signed; swapped, each is a valid signature in the other's slot.
        var swapped = try transaction("system-create-account")
        swapped.signatures.swapAt(0, 1)
        XCTAssertThrowsError(try swapped.verifyPresentSignatures()) { error in
            XCTAssertEqual((error as? TransactionError)?.field, "signatures[0]")
            XCTAssertTrue((error as? TransactionError)?.problem.contains("Dgmx…nJrp") == true)
        }
        // Only the second slot wrong: named.
        var second = try transaction("system-create-account")
        second.signatures[1] = second.signatures[0]
        XCTAssertThrowsError(try second.verifyPresentSignatures()) { error in
            XCTAssertEqual((error as? TransactionError)?.field, "signatures[1]")
        }
        // The fee payer's signature of another message.
        var elsewhere = try transaction("system-transfer")
        elsewhere.signatures[0] = try transaction("durable-nonce").signatures[0]
        XCTAssertThrowsError(try elsewhere.verifyPresentSignatures()) { error in
            XCTAssertEqual((error as? TransactionError)?.field, "signatures[0]")
        }
    }

    // MARK: What the dialog shows

    func testSystemTransfer() throws {
        let summary = try summary("system-transfer")
        XCTAssertEqual(summary.kind, "a Solana transaction (legacy)")
        XCTAssertEqual(summary.warningTexts, [])
        XCTAssertEqual(
            summary.facts,
            [
                "Fee payer: Dgmx…nJrp (this key)",
                "Network fee: 0.000005 SOL (5,000 lamports × 1 signature)",
            ])
        XCTAssertEqual(summary.actionLines, [["Transfer 1.5 SOL", "  from Dgmx…nJrp (this key)", "  to 6j8W…VDQJ"]])
        XCTAssertEqual(summary.actionNoun, "instruction")
    }

    /// USDC's real mint, 6 decimals as the instruction states; the priority fee is 200,000 units
    /// at 7 micro-lamports: 1.4 lamports, which the runtime rounds up to 2.
    func testTokenTransferCheckedWithComputeBudget() throws {
        let summary = try summary("spl-transfer-checked")
        XCTAssertEqual(summary.warningTexts, [])
        XCTAssertEqual(
            summary.facts,
            [
                "Fee payer: Dgmx…nJrp (this key)",
                "Network fee: 0.000005 SOL (5,000 lamports × 1 signature)",
                "Priority fee: at most 0.000000002 SOL (200,000 units × 7 micro-lamports)",
            ])
        XCTAssertEqual(
            summary.actionLines,
            [
                ["Set the compute unit limit to 200,000 units"],
                ["Set the compute unit price to 7 micro-lamports per unit"],
                [
                    "Transfer 12.5 tokens of mint EPjF…Dt1v (transferChecked, 6 decimals)",
                    "  from token account 6spA…2ssM",
                    "  to token account 6GtT…1THk", "  authority Dgmx…nJrp (this key)",
                ],
            ])
    }

    func testPlainTokenTransferIsRaw() throws {
        XCTAssertEqual(
            try summary("spl-transfer-plain").actionLines,
            [
                [
                    "Transfer raw amount 12500000 (decimals not given)", "  from token account 6spA…2ssM",
                    "  to token account 6GtT…1THk", "  authority Dgmx…nJrp (this key)",
                ]
            ])
        XCTAssertEqual(
            try summary("token2022-transfer-checked").actionLines.first?.first,
            "Transfer 1 token of mint YMN9…yfaf (Token-2022 transferChecked, 0 decimals)")
    }

    func testUnlimitedApprovalIsAWarning() throws {
        let summary = try summary("spl-approve-unlimited")
        XCTAssertEqual(
            summary.warningTexts, ["Unlimited approval: FGdc…PPyx may spend every token in token account 6spA…2ssM"])
        XCTAssertEqual(
            summary.actionLines,
            [
                [
                    "Approve FGdc…PPyx to spend an unlimited amount (raw amount 18446744073709551615)",
                    "  from token account 6spA…2ssM", "  owner Dgmx…nJrp (this key)",
                ]
            ])
    }

    func testVeryLargeApprovalIsAWarning() throws {
        let summary = try summary("spl-approve-checked-large")
        XCTAssertEqual(
            summary.warningTexts,
            ["Very large approval: FGdc…PPyx may spend 5,000,000,000 tokens from token account 6spA…2ssM"])
        XCTAssertEqual(
            Array(summary.actionLines[0].prefix(2)),
            ["Approve FGdc…PPyx to spend 5,000,000,000 tokens", "  of mint EPjF…Dt1v (approveChecked, 6 decimals)"])
        XCTAssertEqual(
            try self.summary("spl-revoke").actionLines,
            [["Revoke the delegate of token account 6spA…2ssM", "  owner Dgmx…nJrp (this key)"]])
    }

    func testAuthorityHandedOverOrRemoved() throws {
        let handed = try summary("spl-set-authority")
        XCTAssertEqual(
            handed.warningTexts, ["Authority handed over: the account owner authority of 6spA…2ssM goes to FGdc…PPyx"])
        XCTAssertEqual(
            handed.actionLines,
            [["Set the account owner authority of 6spA…2ssM to FGdc…PPyx", "  current authority Dgmx…nJrp (this key)"]])
        let removed = try summary("spl-set-authority-none")
        XCTAssertEqual(
            removed.warningTexts, ["Authority removed: the close account authority of 6spA…2ssM is removed for good"])
        XCTAssertEqual(
            removed.actionLines,
            [["Remove the close account authority of 6spA…2ssM for good", "  current authority Dgmx…nJrp (this key)"]])
    }

    func testAccountClosedToSomeoneElse() throws {
        let summary = try summary("spl-close-account")
        XCTAssertEqual(
            summary.warningTexts,
            ["Account closed to someone else: the SOL in token account 6spA…2ssM goes to FGdc…PPyx"])
        XCTAssertEqual(
            summary.actionLines,
            [["Close token account 6spA…2ssM", "  its SOL goes to FGdc…PPyx", "  authority Dgmx…nJrp (this key)"]])
    }

    func testMintAndBurn() throws {
        XCTAssertEqual(
            try summary("spl-mint-burn").actionLines,
            [
                [
                    "Mint raw amount 1000 of mint YMN9…yfaf (decimals not given)", "  to token account cGfH…izuN",
                    "  mint authority Dgmx…nJrp (this key)",
                ],
                [
                    "Burn 2.5 tokens of mint YMN9…yfaf (burnChecked, 9 decimals)", "  from token account cGfH…izuN",
                    "  authority Dgmx…nJrp (this key)",
                ],
            ])
    }

    func testAssociatedTokenAccountAndCreateAccount() throws {
        XCTAssertEqual(
            try summary("ata-create-idempotent").actionLines,
            [
                [
                    "Create token account 6GtT…1THk if it does not exist (associated token account)",
                    "  for owner 6j8W…VDQJ, mint EPjF…Dt1v", "  rent paid by Dgmx…nJrp (this key)",
                ]
            ])
        let create = try summary("system-create-account")
        XCTAssertEqual(create.facts[1], "Network fee: 0.00001 SOL (5,000 lamports × 2 signatures)")
        XCTAssertEqual(
            create.actionLines,
            [
                [
                    "Create account 6j8W…VDQJ", "  funded with 0.00203928 SOL from Dgmx…nJrp (this key)",
                    "  space: 165 bytes",
                    "  owner program: Toke…Q5DA (SPL Token)",
                ]
            ])
    }

    /// Without a limit, the priority fee counts 200,000 units for each instruction that is not
    /// a Compute Budget one: two here.
    func testMemoAndDefaultComputeLimit() throws {
        let summary = try summary("compute-budget-memo")
        XCTAssertEqual(summary.warningTexts, [])
        XCTAssertEqual(
            summary.facts[2], "Priority fee: at most 0.0004 SOL (400,000 units by default × 1,000,000 micro-lamports)")
        XCTAssertEqual(
            summary.actionLines,
            [
                ["Set the compute unit price to 1,000,000 micro-lamports per unit"],
                ["Request a heap of 262,144 bytes"],
                [#"Memo: "Pay Bob \"rent\" ⏎ for May ✓""#],
                ["Transfer 0.000000001 SOL", "  from Dgmx…nJrp (this key)", "  to 6j8W…VDQJ"],
            ])
        let long = try self.summary("memo-long")
        XCTAssertEqual(long.actionLines.count, 1)
        XCTAssertTrue(long.actionLines[0][0].hasPrefix(#"Memo: "word word"#))
        XCTAssertTrue(long.actionLines[0][0].hasSuffix(" of 500 bytes shown)"), long.actionLines[0][0])
        XCTAssertLessThanOrEqual(long.actionLines[0][0].utf8.count, TransactionConsent.maxLineBytes)
    }

    /// A limit over the runtime's 1,400,000 counts as 1,400,000; the largest price times it needs
    /// more than 64 bits.
    func testPriorityFeeAtItsLargest() throws {
        let summary = try summary("compute-budget-huge")
        XCTAssertEqual(
            summary.facts[2],
            "Priority fee: at most 18,446,744,073.709551615 SOL (1,400,000 units × 18,446,744,073,709,551,615 micro-lamports)"
        )
        XCTAssertEqual(
            try self.summary("compute-budget-twice").warningTexts,
            ["Compute budget set twice: the network refuses this transaction"])
    }

    func testStake() throws {
        let summary = try summary("stake")
        XCTAssertEqual(
            summary.warningTexts,
            ["Authority handed over: the withdraw authority of stake account 2MNu…wfT9 goes to FGdc…PPyx"])
        XCTAssertEqual(
            summary.actionLines,
            [
                [
                    "Delegate stake account 2MNu…wfT9", "  to validator vote account 2RJD…gzmr",
                    "  stake authority Dgmx…nJrp (this key)",
                ],
                ["Deactivate stake account 2MNu…wfT9", "  stake authority Dgmx…nJrp (this key)"],
                [
                    "Withdraw 3 SOL from stake account 2MNu…wfT9", "  to Dgmx…nJrp (this key)",
                    "  withdraw authority Dgmx…nJrp (this key)",
                ],
                [
                    "Make FGdc…PPyx the withdraw authority of stake account 2MNu…wfT9",
                    "  current authority Dgmx…nJrp (this key)",
                ],
                [
                    "Make FGdc…PPyx the stake authority of stake account 2MNu…wfT9",
                    "  current authority Dgmx…nJrp (this key)",
                ],
            ])
    }

    /// solders' own builders for the rest of the System instructions; seeds are text the
    /// transaction carries, shown quoted.
    func testOtherSystemInstructions() throws {
        let summary = try summary("system-others")
        XCTAssertEqual(
            summary.warningTexts,
            [
                "Account handed to a program: this key's account is assigned to Stak…1111 (Stake)",
                "Authority handed over: the authority of nonce account 32Zs…QzgD goes to FGdc…PPyx",
            ])
        XCTAssertEqual(
            summary.actionLines,
            [
                ["Assign account Dgmx…nJrp (this key) to program Stak…1111 (Stake)"],
                ["Allocate 200 bytes for account Dgmx…nJrp (this key)"],
                [
                    "Transfer 7 SOL", "  from GqJ6…dYPX",
                    #"  derived from base Dgmx…nJrp (this key) with seed "vault""#, "  and program Stak…1111 (Stake)",
                    "  to 6j8W…VDQJ",
                ],
                [
                    "Withdraw 0.25 SOL from nonce account 32Zs…QzgD", "  to FGdc…PPyx",
                    "  nonce authority Dgmx…nJrp (this key)",
                ],
                [
                    "Create account GqJ6…dYPX", #"  derived from base Dgmx…nJrp (this key) with seed "vault""#,
                    "  funded with 0.000000001 SOL from Dgmx…nJrp (this key)", "  space: 200 bytes",
                    "  owner program: Stak…1111 (Stake)",
                ],
                [
                    "Make FGdc…PPyx the authority of nonce account 32Zs…QzgD",
                    "  current authority Dgmx…nJrp (this key)",
                ],
            ])
    }

    /// Token-2022's unlimited approveChecked, account set-up, and data past what CloseAccount
    /// reads (which the program ignores, and the dialog says).
    func testOtherTokenInstructions() throws {
        let summary = try summary("token-others")
        XCTAssertEqual(
            summary.warningTexts, ["Unlimited approval: FGdc…PPyx may spend every token in token account US51…ELFx"])
        XCTAssertEqual(
            summary.actionLines,
            [
                [
                    "Approve FGdc…PPyx to spend an unlimited amount (18,446,744,073,709.551615 tokens)",
                    "  of mint YMN9…yfaf (Token-2022 approveChecked, 6 decimals)",
                    "  from token account US51…ELFx", "  owner Dgmx…nJrp (this key)",
                ],
                ["Initialize token account cGfH…izuN for mint EPjF…Dt1v", "  owner Dgmx…nJrp (this key)"],
                ["Sync the wrapped SOL balance of token account cGfH…izuN"],
                ["Freeze token account cGfH…izuN of mint EPjF…Dt1v", "  freeze authority FGdc…PPyx"],
                [
                    "Mint 1.000001 tokens of mint EPjF…Dt1v (mintToChecked, 6 decimals)",
                    "  to token account cGfH…izuN",
                    "  mint authority FGdc…PPyx",
                ],
                [
                    "Close token account cGfH…izuN", "  its SOL goes to Dgmx…nJrp (this key)",
                    "  authority Dgmx…nJrp (this key)",
                    "  (and 1 byte of data the program ignores)",
                ],
            ])
    }

    /// AuthorizeChecked names the new authority as a signing account, not in its data.
    func testOtherStakeInstructions() throws {
        let summary = try summary("stake-others")
        XCTAssertEqual(
            summary.warningTexts,
            ["Authority handed over: the withdraw authority of stake account 2MNu…wfT9 goes to FGdc…PPyx"])
        XCTAssertEqual(
            summary.actionLines,
            [
                [
                    "Initialize stake account 2MNu…wfT9", "  stake authority Dgmx…nJrp (this key)",
                    "  withdraw authority Dgmx…nJrp (this key)",
                ],
                [
                    "Split 1 SOL from stake account 2MNu…wfT9", "  into stake account 2VDW…SL6Z",
                    "  stake authority Dgmx…nJrp (this key)",
                ],
                [
                    "Merge stake account 2VDW…SL6Z into stake account 2MNu…wfT9",
                    "  stake authority Dgmx…nJrp (this key)",
                ],
                [
                    "Make FGdc…PPyx the withdraw authority of stake account 2MNu…wfT9",
                    "  current authority Dgmx…nJrp (this key)",
                ],
            ])
    }

    func testDurableNonceNeverExpires() throws {
        let summary = try summary("durable-nonce")
        XCTAssertEqual(
            summary.warningTexts,
            [
                "Durable nonce: this transaction never expires; it can be sent at any time until nonce account 32Zs…QzgD advances"
            ])
        XCTAssertEqual(
            summary.actionLines[0], ["Advance nonce account 32Zs…QzgD", "  nonce authority Dgmx…nJrp (this key)"])
    }

    func testUnknownProgram() throws {
        let summary = try summary("unknown-program")
        XCTAssertEqual(
            summary.warningTexts, ["Unknown program 3hkp…tKuH: the wallet cannot show what its instruction does"])
        XCTAssertEqual(
            summary.actionLines, [["Unknown program 3hkp…tKuH: 12 bytes of data, 3 accounts (this key signs)"]])
    }

    func testFeePayerNotThisKey() throws {
        let summary = try summary("fee-payer-other")
        XCTAssertEqual(summary.warningTexts, ["Fee payer is not this key: 6j8W…VDQJ pays the fees"])
        XCTAssertEqual(summary.facts[0], "Fee payer: 6j8W…VDQJ (not this key)")
        XCTAssertEqual(summary.facts[1], "Network fee: 0.00001 SOL (5,000 lamports × 2 signatures)")
        // The same transaction shown to its fee payer.
        let payer = try transaction("fee-payer-other").message.summary(signer: otherSigner)
        XCTAssertEqual(payer.warningTexts, [])
        XCTAssertEqual(payer.actionLines, [["Transfer 0.000000042 SOL", "  from Dgmx…nJrp", "  to FGdc…PPyx"]])
    }

    /// solders compiled the recipient and the token accounts into the lookup table's entries
    /// 1 to 4; the dialog names the entries, since the table cannot be read offline.
    func testVersionZeroLookupTable() throws {
        let summary = try summary("v0-lookup")
        XCTAssertEqual(summary.kind, "a Solana transaction (version 0)")
        XCTAssertEqual(
            summary.warningTexts,
            [
                "Lookup table 4Nwn…Mf8M: the accounts it loads cannot be resolved offline"
            ])
        XCTAssertEqual(summary.facts.count, 2, "the fee payer and the network fee: the table is the warning's")
        XCTAssertEqual(
            summary.actionLines,
            [
                ["Transfer 2 SOL", "  from Dgmx…nJrp (this key)", "  to account #1 from table 4Nwn…Mf8M"],
                [
                    "Transfer 1 token of mint account #4 from table 4Nwn…Mf8M (transferChecked, 6 decimals)",
                    "  from account #2 from table 4Nwn…Mf8M", "  to account #3 from table 4Nwn…Mf8M",
                    "  authority Dgmx…nJrp (this key)",
                ],
            ])
        XCTAssertEqual(try self.summary("v0-plain").kind, "a Solana transaction (version 0)")
    }

    /// Data or accounts a known program refuses: that program, "unrecognised", and a warning.
    func testMalformedDataOfKnownProgramsIsShownNotFatal() throws {
        let summary = try summary("malformed-known-programs")
        XCTAssertEqual(
            summary.actionLines,
            [
                ["System Program: unrecognised instruction (5 bytes; this key signs)"],
                ["SPL Token: unrecognised instruction (1 byte)"],
                ["Stake program: unrecognised instruction (4 bytes)"],
                ["Memo program: unrecognised instruction (2 bytes)"],
                ["Associated Token Account program: unrecognised instruction (2 bytes; this key signs)"],
                ["SPL Token: unrecognised instruction (10 bytes)"],
                ["Compute Budget program: unrecognised instruction (2 bytes)"],
                ["System Program: unrecognised instruction (0 bytes; this key signs)"],
            ])
        // One warning for them all, naming the programs (as many as fit its line).
        XCTAssertEqual(
            summary.warningTexts,
            [
                "Instructions the wallet cannot read (8), of System Program, SPL Token, Stake program, Memo program "
                    + "and 2 more: it cannot show what they do"
            ])
        XCTAssertEqual(summary.warnings.map(\.severity), [.unreadable])
        // Those that pass this key as a signer may move its funds.
        XCTAssertEqual(summary.actions.map(\.movesFunds), [true, false, false, false, true, false, false, true])
        let one = try SolanaMessage(
            bytes: message(
                keys: [signer, Self.program(SolanaProgram.system)], header: (1, 0, 1), [(1, [0], [9, 9])]))
        XCTAssertEqual(
            one.summary(signer: signer).warningTexts,
            ["System Program: an instruction the wallet cannot read (2 bytes of data); it cannot show what it does"])
    }

    // MARK: Bad input

    func testEveryTruncationIsRefusedNamingAField() throws {
        for name in ["system-transfer", "v0-lookup", "stake"] {
            let bytes = try vector(name)
            for count in 0..<bytes.count {
                XCTAssertThrowsError(
                    try SolanaTransaction(bytes: Array(bytes.prefix(count))), "\(name) cut to \(count)")
            }
        }
        let bytes = try vector("system-transfer")
        assertError([], field: "signatures", problem: "truncated")
        assertError(
            Array(bytes.dropLast()), field: "message.instructions[0].data", problem: "ends after 11 of its 12 bytes")
        assertError(
            Array(bytes.prefix(1 + 64 + 3 + 1 + 40)), field: "message.accountKeys", problem: "ends before its 3 keys")
        assertError(
            Array(bytes.prefix(1 + 64 + 3 + 1 + 96 + 10)), field: "message.recentBlockhash",
            problem: "ends after 10 of its 32 bytes")
        assertError(Array(bytes.prefix(30)), field: "signatures", problem: "ends before its 1 signatures")
    }

    func testOversizedIsRefused() throws {
        assertError(try vector("oversized-memo"), field: "", problem: "is 1,370 bytes, over the 1,232")
        XCTAssertThrowsError(try SolanaMessage(bytes: [UInt8](repeating: 1, count: 1233)))
        // A message that fits, but not once its signatures are added.
        let memo = try vector("oversized-memo")
        let message = Array(memo.dropFirst(65))
        XCTAssertThrowsError(try SolanaMessage(bytes: message)) { error in
            XCTAssertEqual((error as? TransactionError)?.field, "")
        }
        XCTAssertThrowsError(try SolanaTransaction(base64: String(repeating: "A", count: 1648))) { error in
            XCTAssertTrue(
                (error as? TransactionError)?.problem.contains("at most 1232 bytes (1644 base64 characters)") == true)
        }
        XCTAssertThrowsError(try SolanaTransaction(base64: "not base64!")) { error in
            XCTAssertEqual(
                (error as? TransactionError)?.problem,
                "expected standard base64 of a serialized transaction (legacy or version 0)")
        }
    }

    func testCompactU16OverflowAndNonCanonicalFormsAreRefused() throws {
        let rest = Array(try vector("system-transfer").dropFirst())
        assertError([0xFF, 0xFF, 0x04] + rest, field: "signatures", problem: "overflows 16 bits")
        assertError([0xFF, 0xFF, 0xFF, 0x01] + rest, field: "signatures", problem: "overflows 16 bits")
        assertError([0x81, 0x00] + rest, field: "signatures", problem: "not in its shortest form")
        assertError([0x80, 0x80, 0x00] + rest, field: "signatures", problem: "not in its shortest form")
        // The longest canonical one, 65,535 signatures, reads and is then too many for the input.
        assertError([0xFF, 0xFF, 0x03] + rest, field: "signatures", problem: "ends before its 65535 signatures")
        // Inside the message: the instruction count.
        var bytes = try vector("system-transfer")
        let instructions = 1 + 64 + 3 + 1 + 3 * 32 + 32
        XCTAssertEqual(bytes[instructions], 1)
        bytes[instructions] = 0x81
        bytes.insert(0x00, at: instructions + 1)
        assertError(bytes, field: "message.instructions", problem: "not in its shortest form")
    }

    func testIndicesOutsideTheAccountsAreRefused() throws {
        // system-transfer: 3 keys; its one instruction ends with program 2, accounts [0, 1], 12 bytes of data.
        let bytes = try vector("system-transfer")
        let accounts = bytes.count - 12 - 1 - 2
        XCTAssertEqual(Array(bytes[(accounts - 2)..<accounts]), [2, 2])
        var outside = bytes
        outside[accounts + 1] = 3
        assertError(
            outside, field: "message.instructions[0].accounts[1]", problem: "is 3, outside the message's 3 accounts")
        var program = bytes
        program[accounts - 2] = 3
        assertError(
            program, field: "message.instructions[0].programIdIndex", problem: "is 3, outside the 3 static account keys"
        )
        program[accounts - 2] = 0
        assertError(program, field: "message.instructions[0].programIdIndex", problem: "the fee payer")
        // The same, read as a message alone, names the field from the message.
        XCTAssertThrowsError(try SolanaMessage(bytes: Array(outside.dropFirst(65)))) { error in
            XCTAssertEqual((error as? TransactionError)?.field, "instructions[0].accounts[1]")
        }
    }

    /// Version 0: an index may name a loaded account (3 static keys and 4 loaded here: 0 to 6),
    /// not one past them; a program may not be a loaded account.
    func testVersionZeroIndicesCountTheLoadedAccounts() throws {
        let bytes = try vector("v0-lookup")
        let transaction = try SolanaTransaction(bytes: bytes)
        XCTAssertEqual(transaction.message.loadedAccountCount, 4)
        XCTAssertEqual(transaction.message.instructions[1].accounts, [5, 6, 3, 0])
        XCTAssertTrue(transaction.message.isWritable(5))
        XCTAssertFalse(transaction.message.isWritable(6))
        // The second instruction: program 2, 4 accounts, 10 bytes of data; then one lookup.
        let lookup = 1 + 32 + 1 + 3 + 1 + 1
        let data = bytes.count - lookup - 10
        let accounts = data - 1 - 4
        XCTAssertEqual(Array(bytes[accounts..<(accounts + 4)]), [5, 6, 3, 0])
        var outside = bytes
        outside[accounts + 1] = 7
        assertError(
            outside, field: "message.instructions[1].accounts[1]", problem: "is 7, outside the message's 7 accounts")
        var program = bytes
        program[accounts - 2] = 3
        assertError(
            program, field: "message.instructions[1].programIdIndex", problem: "cannot come from a lookup table")
        // A lookup that loads nothing.
        var empty =
            Array(bytes.prefix(bytes.count - lookup)) + bytes[(bytes.count - lookup)..<(bytes.count - lookup + 33)]
        empty += [0, 0]
        assertError(empty, field: "message.addressTableLookups[0]", problem: "loads no account")
    }

    func testTrailingBytesAreRefused() throws {
        assertError(try vector("system-transfer") + [0], field: "message", problem: "has 1 byte after its last field")
        assertError(try vector("v0-lookup") + [0, 0], field: "message", problem: "has 2 bytes after its last field")
        let message = try transaction("system-transfer").message.bytes
        XCTAssertThrowsError(try SolanaMessage(bytes: message + [0])) { error in
            XCTAssertEqual(
                error as? TransactionError, TransactionError(field: "", problem: "has 1 byte after its last field"))
        }
    }

    func testOtherVersionsAreRefused() throws {
        var bytes = try vector("v0-plain")
        XCTAssertEqual(bytes[65], 0x80)
        for version: UInt8 in [0x81, 0xFF] {
            bytes[65] = version
            assertError(
                bytes, field: "message.version", problem: "is version \(version & 0x7F), which is not supported")
        }
    }

    func testSignatureCountMustBeTheHeaders() throws {
        let bytes = try vector("system-transfer")
        let message = Array(bytes.dropFirst(65))
        assertError(
            [2] + bytes[1..<65] + [UInt8](repeating: 0, count: 64) + message, field: "signatures",
            problem: "has 2 signatures, but the message's header requires 1")
        assertError(
            [0] + message, field: "signatures", problem: "has 0 signatures, but the message's header requires 1")
    }

    func testHeaderAndKeysAreChecked() throws {
        let bytes = try vector("system-transfer")
        var header = bytes
        header[65] = 0  // no required signature
        header[0] = 0
        assertError(
            Array(header.prefix(1)) + header[65...], field: "message.header.numRequiredSignatures", problem: "is 0")
        var readonlySigned = bytes
        readonlySigned[66] = 1  // the one signer read-only
        assertError(
            readonlySigned, field: "message.header.numReadonlySignedAccounts", problem: "the fee payer must be writable"
        )
        var readonlyUnsigned = bytes
        readonlyUnsigned[67] = 3  // 1 signer + 3 read-only unsigned > 3 keys
        assertError(readonlyUnsigned, field: "message.accountKeys", problem: "fewer than the header's 1 signers and 3")
        var duplicate = bytes
        let keys = 65 + 3 + 1
        duplicate.replaceSubrange((keys + 32)..<(keys + 64), with: bytes[keys..<(keys + 32)])
        assertError(duplicate, field: "message.accountKeys[1]", problem: "repeats accountKeys[0]")
    }

    /// Hostile input never traps: every single-byte change of a few vectors reads or throws.
    func testEveryByteChangedReadsOrThrows() throws {
        for name in ["spl-transfer-checked", "v0-lookup", "stake", "malformed-known-programs"] {
            let bytes = try vector(name)
            for index in bytes.indices {
                for value: UInt8 in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                    var changed = bytes
                    changed[index] = value
                    if let transaction = try? SolanaTransaction(bytes: changed) {
                        let summary = transaction.message.summary(signer: signer)
                        XCTAssertEqual(summary.actionLines.count, transaction.message.instructions.count)
                        XCTAssertEqual(transaction.serialized(), changed)
                    }
                }
            }
        }
    }

    // MARK: Round 2: what moves funds, one warning per kind, lines that fit

    /// The reviewers' key (seed [1] * 32) and three of their solders-made messages.
    private static let reviewSigner = Base58.decode("AKnL4NNf3DGWZJS6cPknBuEGnVsV4A4m5tgebLHaRSZ9", maxBytes: 32) ?? []
    /// Version 0: three lookup tables, compute budget, an ATA create, an unknown aggregator, close wSOL.
    private static let swap =
        "gAEABgiKiOPddAnxlf1S2y08ul1yymcJvx2UEhvzdIgBtA9vXAAAAEBZJIaCkjM7GP5nlHJJxbDeR6g9VyvYEsFQ/KHfAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABBBiDYbBCtX+XOIewGrIHo00idPeQAaXFkHxrmKAMGRm/lIRcy/+ytunLDm+e8jOW7xfcSayxDmzpAAAAABHnVW/IxwG7udMVuzmgVB/2xst6j9I5RArHNola8E48G3fbh12Whk9nL4UbO63msHLSF7V9bN5E6jPWFfv8AqYyXJY9OJInxuz0QKRSODYMLWhOZ2v8QhASOe9jb6fhZAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFBAAFAuCTBAAEAAkDUMMAAAAAAAAHBgABAAMCBgEBBRMACBEJEgoTCxQMFQ0WDhcPGBAZKAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAGAwEAAAEJAwAAABVm0eokD+zL8II5dC9G9OENHHhdiIM0UQf2IAYPAwACBAMBAwUAAAAqNNj7opWVNGIzoMLpVW5sd713KLHVcICBw96RmQMAAgQDAQMFAAAAP1gz1bbPtAtf0wu7nsBvu2mRjxK5nGkLrfrWBLADAAIEAwEDBQ=="
    /// Eight unknown programs, each with an instruction; someone else pays the fees.
    private static let eightUnknown =
        "AQAICQAAAAGQcHvD7yW9yY7XXLcNYcixBtwkjY72Hh0dscpAAAAABW8AAhcrjf9PWjJ0DicZBNfhiPqObO1RzhUGE58AAAAGo/Pe6RIOQmmFGS8DTOpLzBuSFea2el0dbdHm7wAAAAfqL70HrGz2T2BcPjeA5PfAxgUVj2UnsFJvFlP2AAAACMfspz9lsb1zDHj3BKd66LLiFX3XQ4zOFl0vh4cAAAAJf7UeaZh9lLMaRZV2AqKs4GWl7Hu37a6GZgR+QwAAAAqnuHPN+glN3UrO6sAcIjq+ZCT8Z62p0AwRD9l6AAAACy1NkLV+Y7lHct98oPzpL+b5CKamW4fJb/Sj7HcAAAAMKdZz+rnipqutQTFtIv0Sp4i7zfi0jyorZBC4dQEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACAEAAAIAAAMAAAQAAAUAAAYAAAcAAAgAAA=="

    private func reviewSummary(_ base64: String) throws -> TransactionSummary {
        try SolanaMessage(bytes: XCTUnwrap(Base64.decode(base64))).summary(signer: Self.reviewSigner)
    }

    private static func key(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 32) }
    private static func program(_ base58: String) -> [UInt8] { Base58.decode(base58, maxBytes: 32) ?? [] }
    private static func u64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }

    /// A legacy message: its header's three counts, its keys, and each instruction as the
    /// index of its program, the indices of its accounts and its data.
    private func message(keys: [[UInt8]], header: (Int, Int, Int), _ instructions: [(Int, [Int], [UInt8])]) -> [UInt8] {
        var bytes = [UInt8(header.0), UInt8(header.1), UInt8(header.2)] + SolanaWire.compactU16(keys.count)
        bytes += keys.flatMap { $0 } + Self.key(3) + SolanaWire.compactU16(instructions.count)
        for (program, accounts, data) in instructions {
            bytes += [UInt8(program)] + SolanaWire.compactU16(accounts.count) + accounts.map { UInt8($0) }
            bytes += SolanaWire.compactU16(data.count) + data
        }
        return bytes
    }

    /// Each action that moves this key's funds or authority, or lets others, says so; the rest
    /// do not, and the same instructions shown to a key they do not involve move nothing.
    func testActionsThatMoveThisKeysFundsSaySo() throws {
        let expected: [String: [Bool]] = [
            "system-transfer": [true],
            "spl-transfer-checked": [false, false, true],
            "spl-transfer-plain": [true],
            "token2022-transfer-checked": [true],
            "spl-approve-unlimited": [true],
            "spl-approve-checked-large": [true],
            "spl-revoke": [false],
            "spl-set-authority": [true],
            "spl-set-authority-none": [true],
            "spl-close-account": [true],
            // Minting is not this key's funds; burning from its account is.
            "spl-mint-burn": [false, true],
            "ata-create-idempotent": [false],
            "system-create-account": [true],
            "compute-budget-memo": [false, false, false, true],
            // Delegate, deactivate, withdraw, authorize (checked or not): all by this key.
            "stake": [true, true, true, true, true],
            // Assign, allocate, transferWithSeed (base), withdraw nonce, createWithSeed, authorize nonce.
            "system-others": [true, false, true, true, true, true],
            // Approve, initialize, sync, freeze and mint by someone else, close.
            "token-others": [true, false, false, false, false, true],
            // Initialize, split, merge: the stake stays with its authorities; authorizeChecked.
            "stake-others": [false, false, false, true],
            "unknown-program": [true],
        ]
        for (name, flags) in expected {
            XCTAssertEqual(try summary(name).actions.map(\.movesFunds), flags, name)
            // Shown to a key none of them involves.
            let other = try transaction(name).message.summary(signer: Self.key(0xEE))
            XCTAssertEqual(other.actions.map(\.movesFunds), flags.map { _ in false }, name)
        }
        // The transfer is from A: shown to the fee payer B, it moves none of B's funds.
        XCTAssertEqual(
            try transaction("fee-payer-other").message.summary(signer: otherSigner).actions.map(\.movesFunds), [false])
        XCTAssertEqual(try summary("fee-payer-other").actions.map(\.movesFunds), [true])
    }

    /// A program the wallet cannot read may move what this key lets it: it signs, or passes
    /// this key's account writable. A read-only account of this key moves nothing.
    func testUnknownProgramSaysHowItInvolvesThisKey() throws {
        let unknown = Self.key(9)
        let writable = try SolanaMessage(
            bytes: message(
                keys: [otherSigner, signer, unknown], header: (1, 0, 1), [(2, [1], [1]), (2, [0], [2])]))
        let summary = writable.summary(signer: signer)
        XCTAssertEqual(
            summary.actionLines,
            [
                ["Unknown program cGfH…izuN: 1 byte of data, 1 account (this key's account, writable)"],
                ["Unknown program cGfH…izuN: 1 byte of data, 1 account"],
            ])
        XCTAssertEqual(summary.actions.map(\.movesFunds), [true, false])
        XCTAssertEqual(
            summary.warningTexts,
            [
                "Fee payer is not this key: 6j8W…VDQJ pays the fees",
                "Unknown program cGfH…izuN: the wallet cannot show what its 2 instructions do",
            ])
        let readOnly = try SolanaMessage(
            bytes: message(
                keys: [otherSigner, unknown, signer], header: (1, 0, 2), [(1, [2], [])]))
        XCTAssertEqual(
            readOnly.summary(signer: signer).actionLines, [["Unknown program cGfH…izuN: 0 bytes of data, 1 account"]])
        XCTAssertEqual(readOnly.summary(signer: signer).actions.map(\.movesFunds), [false])
    }

    /// Eight unknown programs make one warning, naming as many as fit its line; each approval
    /// still has its own (it names its delegate).
    func testOneWarningPerKind() throws {
        let eight = try reviewSummary(Self.eightUnknown)
        XCTAssertEqual(
            eight.warningTexts,
            [
                "Fee payer is not this key: 1115…XXQs pays the fees",
                "Unknown programs (8): 111F…tZYr, 111J…kbNW, 111M…s8Vb, 111Q…QftA, 111S…d8pa, 111V…WRff and 2 more: "
                    + "the wallet cannot show what their instructions do",
            ])
        XCTAssertEqual(eight.warnings.map(\.severity), [.trust, .unreadable])
        let swap = try reviewSummary(Self.swap)
        XCTAssertEqual(
            swap.warningTexts,
            [
                "Lookup tables (3): 111y…sRtr, 1112…z62t, 1113…SsD9: the accounts they load cannot be resolved offline",
                "Unknown program JUP6…TaV4: the wallet cannot show what its instruction does",
            ])
        XCTAssertEqual(swap.facts.count, 3, "the fee payer, the network fee and the priority fee")
        let approvals = try SolanaMessage(
            bytes: message(
                keys: [signer, Self.key(4), Self.key(5), Self.key(6), Self.program(SolanaProgram.token)],
                header: (1, 0, 1),
                [(4, [1, 2, 0], [4] + Self.u64(.max)), (4, [1, 3, 0], [4] + Self.u64(.max))]))
        XCTAssertEqual(
            approvals.summary(signer: signer).warningTexts,
            [
                "Unlimited approval: LbUi…jfcY may spend every token in token account GgBa…zLHq",
                "Unlimited approval: QWmr…UzwF may spend every token in token account GgBa…zLHq",
            ])
    }

    /// No line is longer than the dialog's: a memo of a thousand bytes keeps its closing quote
    /// and its note; 255 decimals show the amount raw; u64's largest amounts fit.
    func testEveryLineFitsTheDialog() throws {
        let memoText = String(repeating: "100% sure ", count: 90)
        let memo = try SolanaMessage(
            bytes: message(
                keys: [signer, Self.program(SolanaProgram.memo)], header: (1, 0, 1), [(1, [0], Array(memoText.utf8))]))
        let memoLine = try XCTUnwrap(memo.summary(signer: signer).actionLines.first?.first)
        XCTAssertEqual(
            memoLine,
            #"Memo: "100% sure 100% sure 100% sure 100% sure 100% sure 100% sure 100% sure 100% sure 100% sure…" "#
                + "(89 of 900 bytes shown)")
        let token2022 = Self.program(SolanaProgram.token2022)
        let tokens = try SolanaMessage(
            bytes: message(
                keys: [signer, Self.key(4), Self.key(5), Self.key(6), Self.key(7), token2022], header: (1, 0, 1),
                [
                    (5, [1, 2, 3, 0], [12] + Self.u64(.max) + [255]),
                    (5, [1, 2, 3, 0], [13] + Self.u64(.max) + [255]),
                    (5, [1, 2, 3, 0], [13] + Self.u64(.max) + [0]),
                    (5, [1, 2, 0], [15] + Self.u64(.max) + [30]),
                    (5, [2, 1, 0], [14] + Self.u64(.max) + [31]),
                ]))
        let shownTokens = tokens.summary(signer: signer)
        XCTAssertEqual(
            shownTokens.actionLines.map(\.first),
            [
                "Transfer raw amount 18446744073709551615 (255 decimals) of mint LbUi…jfcY (Token-2022 transferChecked, "
                    + "255 decimals)",
                "Approve QWmr…UzwF to spend an unlimited amount (raw amount 18446744073709551615 (255 decimals))",
                "Approve QWmr…UzwF to spend an unlimited amount (18,446,744,073,709,551,615 tokens)",
                "Burn 0.000000000018446744073709551615 tokens of mint LbUi…jfcY (Token-2022 burnChecked, 30 decimals)",
                "Mint raw amount 18446744073709551615 (31 decimals) of mint LbUi…jfcY (Token-2022 mintToChecked, 31 decimals)",
            ])
        XCTAssertEqual(
            shownTokens.warningTexts,
            [
                "Unlimited approval: QWmr…UzwF may spend every token in token account GgBa…zLHq",
                "Token-2022 transfer: a mint with a transfer fee takes it out of the amount, so less may arrive",
            ])
        for shown in [
            memo.summary(signer: signer), shownTokens, try summary("compute-budget-huge"), try summary("memo-long"),
        ] {
            for line in shown.warningTexts + shown.facts + shown.actionLines.joined() {
                XCTAssertLessThanOrEqual(
                    DisplayText.cost(DisplayText.escaped(line, quotes: false)), TransactionConsent.maxLineBytes, line)
            }
        }
        XCTAssertNil(
            SolanaTransactionFuzzing.brokenInvariant(
                try message(
                    keys: [signer, Self.program(SolanaProgram.memo)], header: (1, 0, 1),
                    [(1, [0], Array(memoText.utf8))])))
    }

    /// solders' longest lines: every vector, read as a transaction and as a message, for this
    /// key and another, passes the fuzz target's invariants (no line over the dialog's 160 bytes).
    func testEveryVectorPassesTheFuzzInvariants() throws {
        for name in Self.vectors.keys.sorted() {
            XCTAssertNil(SolanaTransactionFuzzing.brokenInvariant(try vector(name)), name)
        }
        let memo = try summary("memo-900")
        XCTAssertEqual(memo.actionLines.count, 1)
        XCTAssertEqual(
            memo.actionLines[0][0],
            #"Memo: "100% sure 100% sure 100% sure 100% sure 100% sure 100% sure 100% sure 100% sure 100% sure…" "#
                + "(89 of 900 bytes shown)")
        let extremes = try summary("token-extremes")
        XCTAssertEqual(
            extremes.actionLines.map(\.first),
            [
                "Transfer raw amount 18446744073709551615 (255 decimals) of mint YMN9…yfaf "
                    + "(Token-2022 transferChecked, 255 decimals)",
                "Approve FGdc…PPyx to spend an unlimited amount (raw amount 18446744073709551615 (255 decimals))",
                "Approve FGdc…PPyx to spend an unlimited amount (18,446,744,073,709,551,615 tokens)",
                "Burn 0.000000000018446744073709551615 tokens of mint YMN9…yfaf (burnChecked, 30 decimals)",
                "Mint raw amount 18446744073709551615 (31 decimals) of mint YMN9…yfaf (mintToChecked, 31 decimals)",
            ])
        XCTAssertEqual(extremes.actions.map(\.movesFunds), [true, true, true, true, false])
        // solders' own swap: three tables, one warning.
        let swap = try summary("v0-swap")
        XCTAssertEqual(
            swap.warningTexts,
            [
                "Lookup tables (3): 3hkp…tKuH, 3mg7…dfDz, 3qbR…NzYh: the accounts they load cannot be resolved offline",
                "Unknown program 548j…pzMR: the wallet cannot show what its instruction does",
            ])
        XCTAssertEqual(swap.facts.count, 3, "the fee payer, the network fee and the priority fee")
        XCTAssertEqual(swap.actions.map(\.movesFunds), [false, false, false, true, true])
        XCTAssertEqual(
            swap.actionLines[3], ["Unknown program 548j…pzMR: 40 bytes of data, 13 accounts (this key signs)"])
    }

    /// The priority fee is at most what a u64 of lamports holds (the runtime saturates), and
    /// one micro-lamport is singular.
    func testPriorityFeeOfOneMicroLamport() throws {
        let oneMicroLamport = try SolanaMessage(
            bytes: message(
                keys: [
                    signer, Self.key(4), Self.program(SolanaProgram.system), Self.program(SolanaProgram.computeBudget),
                ],
                header: (1, 0, 2), [(3, [], [3] + Self.u64(1)), (2, [0, 1], [2, 0, 0, 0] + Self.u64(1))]))
        let summary = oneMicroLamport.summary(signer: signer)
        XCTAssertEqual(
            summary.facts[2], "Priority fee: at most 0.000000001 SOL (200,000 units by default × 1 micro-lamport)")
        XCTAssertEqual(summary.actionLines[0], ["Set the compute unit price to 1 micro-lamport per unit"])
    }

    /// Token-2022 may take a transfer fee out of a transferChecked: said once, as a notice.
    func testToken2022TransferNotesTheFee() throws {
        let summary = try summary("token2022-transfer-checked")
        XCTAssertEqual(
            summary.warnings,
            [
                .init(
                    .notice,
                    "Token-2022 transfer: a mint with a transfer fee takes it out of the amount, so less may arrive")
            ])
        XCTAssertEqual(try self.summary("spl-transfer-checked").warningTexts, [])
    }

    /// An ordinary aggregator swap (the reviewers' case, where three lookup-table warnings
    /// filled the dialog): its warnings are two lines, and they with the instructions that move
    /// this key's funds (the aggregator it signs for, the close) take well under a dialog's
    /// budget; the whole summary fits one description. Only the summary's size is checked here:
    /// how the dialog orders and fits it is TransactionConsent's.
    func testAnOrdinarySwapFitsTheDialog() throws {
        let swap = try reviewSummary(Self.swap)
        XCTAssertEqual(
            swap.actionLines.map(\.first),
            [
                "Set the compute unit limit to 300,000 units",
                "Set the compute unit price to 50,000 micro-lamports per unit",
                "Create token account 1113…wdPL if it does not exist (associated token account)",
                "Unknown program JUP6…TaV4: 40 bytes of data, 19 accounts (this key signs)",
                "Close token account 1113…wdPL",
            ])
        XCTAssertEqual(swap.actions.map(\.movesFunds), [false, false, false, true, true])
        XCTAssertEqual(swap.warnings.count, 2)
        XCTAssertEqual(swap.facts[2], "Priority fee: at most 0.000015 SOL (300,000 units × 50,000 micro-lamports)")
        // A single transaction's dialog has about 680 bytes for these lines (ConsentRequest): the
        // warnings, what moves this key's funds and the fees all fit; what is left out is
        // instructions that move nothing.
        let consent = TransactionConsent(chain: "Solana mainnet", summaries: [swap])
        XCTAssertNoThrow(try consent.checkFits(budget: 680))
        let shown = consent.lines(budget: 680)
        let mustShow =
            swap.warnings.filter { $0.severity <= .trust }.map { TransactionConsent.warningMark + $0.text }
            + swap.actions.filter(\.movesFunds).flatMap(\.lines) + swap.facts
        for line in mustShow {
            XCTAssertTrue(
                shown.contains { $0 == line || $0.hasSuffix(": " + line) }, line + "\n" + shown.joined(separator: "\n"))
        }
        XCTAssertEqual(shown.last, "…and 3 more instructions not shown", shown.joined(separator: "\n"))
    }
}
