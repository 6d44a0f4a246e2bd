import Foundation
import WalletBridge
import XCTest

@testable import WalletBridgeWallet

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
                "Network fee: 0.000005 SOL (base fee: 5,000 lamports per signature × 1)",
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
                "Network fee: 0.000005 SOL (base fee: 5,000 lamports per signature × 1)",
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
            summary.actionLines.first?.first,
            "Approve FGdc…PPyx to spend 5,000,000,000 tokens of mint EPjF…Dt1v (approveChecked, 6 decimals)")
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
            summary.warningTexts, ["Account closed to someone else: the SOL in token account 6spA…2ssM goes to FGdc…PPyx"])
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
        XCTAssertEqual(create.facts[1], "Network fee: 0.00001 SOL (base fee: 5,000 lamports per signature × 2)")
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
        XCTAssertLessThan(long.actionLines[0][0].utf8.count, 220)
    }

    /// A limit over the runtime's 1,400,000 counts as 1,400,000; the largest price times it needs
    /// more than 64 bits.
    func testPriorityFeeAtItsLargest() throws {
        let summary = try summary("compute-budget-huge")
        XCTAssertEqual(
            summary.facts[2],
            "Priority fee: at most 25,825,441,703.193372261 SOL (1,400,000 units × 18,446,744,073,709,551,615 micro-lamports)"
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
                    #"  derived from base Dgmx…nJrp (this key) with seed "vault" and program Stak…1111 (Stake)"#,
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
                    "Approve FGdc…PPyx to spend an unlimited amount (18,446,744,073,709.551615 tokens) of mint YMN9…yfaf "
                        + "(Token-2022 approveChecked, 6 decimals)",
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
        XCTAssertEqual(summary.actionLines, [["Unknown program 3hkp…tKuH: 12 bytes of data, 3 accounts"]])
    }

    func testFeePayerNotThisKey() throws {
        let summary = try summary("fee-payer-other")
        XCTAssertEqual(summary.warningTexts, ["Fee payer is not this key: 6j8W…VDQJ pays the fees"])
        XCTAssertEqual(summary.facts[0], "Fee payer: 6j8W…VDQJ (not this key)")
        XCTAssertEqual(summary.facts[1], "Network fee: 0.00001 SOL (base fee: 5,000 lamports per signature × 2)")
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
                #"Lookup table 4Nwn…Mf8M: the accounts it loads cannot be resolved offline (shown as "account #k from lookup table 4Nwn…Mf8M")"#
            ])
        XCTAssertEqual(summary.facts[2], "Address lookup table 4Nwn…Mf8M: loads 3 writable and 1 read-only accounts")
        XCTAssertEqual(
            summary.actionLines,
            [
                ["Transfer 2 SOL", "  from Dgmx…nJrp (this key)", "  to account #1 from lookup table 4Nwn…Mf8M"],
                [
                    "Transfer 1 token of mint account #4 from lookup table 4Nwn…Mf8M (transferChecked, 6 decimals)",
                    "  from account #2 from lookup table 4Nwn…Mf8M", "  to account #3 from lookup table 4Nwn…Mf8M",
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
                ["System Program: unrecognised instruction (5 bytes)"],
                ["SPL Token: unrecognised instruction (1 byte)"],
                ["Stake program: unrecognised instruction (4 bytes)"],
                ["Memo program: unrecognised instruction (2 bytes)"],
                ["Associated Token Account program: unrecognised instruction (2 bytes)"],
                ["SPL Token: unrecognised instruction (10 bytes)"],
                ["Compute Budget program: unrecognised instruction (2 bytes)"],
                ["System Program: unrecognised instruction (0 bytes)"],
            ])
        XCTAssertEqual(
            summary.warningTexts,
            [
                "System Program: an instruction the wallet cannot read (5 bytes of data); it cannot show what it does",
                "SPL Token: an instruction the wallet cannot read (1 byte of data); it cannot show what it does",
                "Stake program: an instruction the wallet cannot read (4 bytes of data); it cannot show what it does",
                "Memo program: an instruction the wallet cannot read (2 bytes of data); it cannot show what it does",
                "Associated Token Account program: an instruction the wallet cannot read (2 bytes of data); it cannot show what it does",
                "SPL Token: an instruction the wallet cannot read (10 bytes of data); it cannot show what it does",
                "Compute Budget program: an instruction the wallet cannot read (2 bytes of data); it cannot show what it does",
                "System Program: an instruction the wallet cannot read (0 bytes of data); it cannot show what it does",
            ])
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
            XCTAssertTrue((error as? TransactionError)?.problem.contains("at most 1232 bytes (1644 base64 characters)") == true)
        }
        XCTAssertThrowsError(try SolanaTransaction(base64: "not base64!")) { error in
            XCTAssertEqual((error as? TransactionError)?.problem, "expected standard base64 of a serialized transaction (legacy or version 0)")
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
}
