import Foundation
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeTransactions

/// A person at a pinentry who answers the confirmation or the passphrase dialog as told, and
/// whose every dialog text is kept.
private struct RecordingPerson: PassphraseSource {
    let approves: Bool
    let shown = Recorder()

    func obtain<T: Sendable>(for request: ConsentRequest, attempt: @Sendable (SecureBytes) async throws -> T?)
        async throws -> T
    {
        shown.add(request.description(for: .passphrase))
        guard approves, let result = try await attempt(secure("right")) else { throw ConsentRefusal.declined }
        return result
    }

    func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation {
        shown.add(request.description(for: .confirmation))
        guard approves else { throw ConsentRefusal.declined }
        return .once
    }

    func ask(_ question: ConsentQuestion) async throws -> Bool { approves }
}

/// Transactions through the keystore wallet: the dialog the person sees, what the audit log
/// records of it (the SHA-256 of the text shown, the messages' hashes, and once signed the
/// transaction's id), and SignPayloads showing a payload that is a Solana transaction message
/// exactly as `solana_signTransaction` shows it.
final class TransactionConsentWalletTests: XCTestCase {
    private var keystore = Keystore(path: "")
    private var auditPath = ""
    private var entry: KeystoreFile.Entry!
    private let caller = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    private var context: RequestContext {
        RequestContext(caller: caller, requestID: .number(JSONNumber(1)), method: "session_request")
    }
    private let key = TestKey(seed: 1)

    override func setUpWithError() throws {
        useWeakKDF()
        let folder = temporaryFolder(self)
        keystore = Keystore(path: "\(folder)/keystore.json")
        auditPath = "\(folder)/state/audit.log"
        entry = try keystore.importKey(
            secure([UInt8](repeating: 1, count: 32)), label: "main", passphrase: secure("right"))
    }

    private func wallet(approves: Bool) -> (KeystoreWallet, RecordingPerson) {
        let person = RecordingPerson(approves: approves)
        var wallet = KeystoreWallet(keystore: keystore, passphrases: person)
        wallet.auditLog = AuditLog(path: auditPath)
        return (wallet, person)
    }

    private func auditLines() throws -> [[String: Any]] {
        try String(decoding: readBytes(auditPath), as: UTF8.self).split(separator: "\n").map { line in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// The dialog's text above its instruction, as the audit log hashes it.
    private func sha256OfTextAboveTheInstruction(_ dialog: String) throws -> String {
        let cut = try XCTUnwrap(dialog.range(of: "\n\n", options: .backwards))
        return Hex.encode(Sodium.sha256(Array(dialog[..<cut.lowerBound].utf8)))
    }

    private let summary = TransactionSummary(
        testKind: "a Solana transaction (legacy)", warnings: ["Unknown program 9xQe…VFin"],
        facts: ["Fee payer: AKnL…RSZ9 (this key)"],
        actions: [["Unknown program 9xQe…VFin: 12 bytes of data, 3 accounts"]], actionNoun: "instruction")

    func testSolanaTransactionsAreShownAndRecordedWithTheirSignatures() async throws {
        let (wallet, person) = wallet(approves: true)
        let messages = [[1, 2, 3], [4, 5]] as [[UInt8]]
        let signing = SolanaSigningRequest(
            method: "solana_signAllTransactions", chain: SolanaChain.devnet, publicKey: key.publicKey,
            messages: messages,
            consent: TransactionConsent(chain: "Solana devnet", summaries: [summary, summary]))
        let signatures = try await wallet.signSolana(signing, context: context)
        XCTAssertEqual(signatures, messages.map(key.sign), "Ed25519 over each message, by the key asked for")

        let dialog = try XCTUnwrap(person.shown.values.first)
        XCTAssertTrue(
            dialog.hasPrefix(
                """
                The extension with ID abcdefghijklmnopabcdefghijklmnop
                asks to sign 2 transactions on Solana devnet with your key "main" (AKnL…RSZ9):
                ⚠ Transactions 1, 2: Unknown program 9xQe…VFin
                Each of the 2 transactions:
                  Fee payer: AKnL…RSZ9 (this key)
                Transaction 1 of 2: a Solana transaction (legacy)
                  Unknown program 9xQe…VFin: 12 bytes of data, 3 accounts
                Transaction 2 of 2: a Solana transaction (legacy)
                """), dialog)
        XCTAssertFalse(dialog.contains("payload"))

        let line = try XCTUnwrap(try auditLines().last)
        XCTAssertEqual(line["decision"] as? String, "approved")
        XCTAssertEqual(line["method"] as? String, "solana_signAllTransactions")
        XCTAssertEqual(line["chain"] as? String, SolanaChain.devnet.description)
        XCTAssertEqual(line["payload_sha256"] as? [String], messages.map(PayloadSummary.sha256Hex))
        XCTAssertEqual(line["signatures"] as? [String], signatures.map(Base58.encode))
        XCTAssertEqual(line["dialog_sha256"] as? String, try sha256OfTextAboveTheInstruction(dialog))
        XCTAssertNil(line["keccak256"])
    }

    func testARefusedTransactionIsRecordedWithTheDialogAndNoSignature() async throws {
        let (wallet, person) = wallet(approves: false)
        let signing = SolanaSigningRequest(
            method: "solana_signTransaction", chain: SolanaChain.mainnet, publicKey: key.publicKey, messages: [[7]],
            consent: TransactionConsent(chain: "Solana mainnet", summaries: [summary]))
        do {
            _ = try await wallet.signSolana(signing, context: context)
            XCTFail("signed")
        } catch let error as RPCError {
            XCTAssertEqual(error.data, .object(["reason": .string("declined")]))
        }
        let line = try XCTUnwrap(try auditLines().last)
        XCTAssertEqual(line["decision"] as? String, "declined")
        XCTAssertEqual(line["method"] as? String, "solana_signTransaction")
        XCTAssertNil(line["signatures"], "nothing was signed")
        XCTAssertEqual(
            line["dialog_sha256"] as? String,
            try sha256OfTextAboveTheInstruction(try XCTUnwrap(person.shown.values.first)))
    }

    /// walletlib's SignPayloads of a Solana transaction message shows what solana_signTransaction
    /// shows for the same message (less the chain, which SignPayloads does not name), not
    /// "binary data"; a payload that is not one is shown as before.
    func testSignPayloadsShowsATransactionMessageAsSolanaSignTransactionDoes() async throws {
        let message = HandMadeSolana.message(signers: [key.publicKey], transfers: [(0, 1_500_000_000)])
        let (wallet, person) = wallet(approves: true)
        let signed = try await wallet.signPayloads(
            SignPayloadsParams(address: entry.address, payloads: [Base64.encode(message)]), context: context)
        XCTAssertEqual(
            signed.signed_payloads, [Base64.encode(message + key.sign(message))],
            "the signature is over the payload, as always")

        let signing = SolanaSigningRequest(
            method: "solana_signTransaction", chain: SolanaChain.mainnet, publicKey: key.publicKey, messages: [message],
            consent: TransactionConsent(
                chain: "Solana mainnet", summaries: [try SolanaMessage(bytes: message).summary(signer: key.publicKey)]))
        _ = try await wallet.signSolana(signing, context: context)
        let dialogs = person.shown.values
        XCTAssertEqual(dialogs.count, 2)
        XCTAssertFalse(dialogs[0].contains("binary data"), dialogs[0])
        XCTAssertEqual(
            dialogs[0], dialogs[1].replacingOccurrences(of: " on Solana mainnet with your key", with: " with your key"),
            "the same lines as solana_signTransaction's")
        let line = try XCTUnwrap(try auditLines().first)
        XCTAssertEqual(line["payload_sha256"] as? [String], [PayloadSummary.sha256Hex(message)])
        XCTAssertEqual(line["dialog_sha256"] as? String, try sha256OfTextAboveTheInstruction(dialogs[0]))

        // Text, as before: no transaction, no dialog hash.
        _ = try await wallet.signPayloads(
            SignPayloadsParams(address: entry.address, payloads: [Base64.encode(Array("Sign in".utf8))]),
            context: context)
        XCTAssertTrue(person.shown.values.last!.contains("Text: \"Sign in\""))
        XCTAssertNil(try auditLines().last?["dialog_sha256"])
    }

    /// "Sign and allow" lets an extension sign messages unasked for a while; a transaction is
    /// still shown, every time, and its dialog offers no allowance.
    func testAnAllowanceNeverSignsATransactionUnseen() async throws {
        var (wallet, person) = wallet(approves: true)
        let cache = UnlockCache()
        wallet.unlockCache = cache
        wallet.allowMinutes = 10
        let file = try XCTUnwrap(try keystore.read())
        cache.store(try Keystore.deriveKey(file, passphrase: secure("right")), for: file)
        cache.remember(caller: try XCTUnwrap(caller.identity), address: entry.address, until: .now + .seconds(600))

        _ = try await wallet.signPayloads(
            SignPayloadsParams(address: entry.address, payloads: [Base64.encode(Array("Sign in".utf8))]),
            context: context)
        XCTAssertEqual(person.shown.values, [], "a message within the allowance: nobody asked")
        let signing = SolanaSigningRequest(
            method: "solana_signTransaction", chain: SolanaChain.mainnet, publicKey: key.publicKey, messages: [[7]],
            consent: TransactionConsent(chain: "Solana mainnet", summaries: [summary]))
        _ = try await wallet.signSolana(signing, context: context)
        let dialog = try XCTUnwrap(person.shown.values.first)
        XCTAssertTrue(dialog.hasSuffix("\n\nSign, or Refuse."), dialog)
        XCTAssertEqual(try auditLines().map { $0["approval"] as? String }, ["allowed_before", "confirmation"])
    }

    /// A transaction among other payloads is shown decoded, the others as their previews.
    func testSignPayloadsShowsEachPayloadForWhatItIs() throws {
        let message = HandMadeSolana.message(signers: [key.publicKey], transfers: [(0, 1)])
        let consent = try XCTUnwrap(
            KeystoreWallet.solanaTransactions(in: [Array("Sign in".utf8), message], signer: key.publicKey))
        XCTAssertEqual(consent.noun, "payload")
        XCTAssertNil(consent.chain)
        XCTAssertEqual(consent.summaries.count, 2)
        XCTAssertEqual(consent.summaries[0].kind, "Text: \"Sign in\"")
        XCTAssertEqual(consent.summaries[1], try SolanaMessage(bytes: message).summary(signer: key.publicKey))
        XCTAssertNil(KeystoreWallet.solanaTransactions(in: [Array("Sign in".utf8), [0, 1, 2]], signer: key.publicKey))
    }

    /// eth_signTransaction's dialog and audit line: the digest signed, the dialog's hash, and
    /// the transaction's hash on the chain (Keccak-256 of the raw signed transaction).
    func testAnEthereumTransactionIsRecordedWithItsHash() async throws {
        let ethereum = try keystore.importKey(
            secure(Keccak256.hash(Array("cow".utf8))), type: .secp256k1, label: "eth", passphrase: secure("right"))
        let address = try XCTUnwrap(ethereum.ethereumAddress)
        let transaction = try EthereumTransaction(
            json: .object([
                "from": .string(address.description), "to": .string("0x000000000000000000000000000000000000dEaD"),
                "value": .string("0x1"),
                "gas": .string("0x5208"), "nonce": .string("0x0"), "maxFeePerGas": .string("0x3b9aca00"),
                "maxPriorityFeePerGas": .string("0x1"),
            ]), chain: EIP155.mainnet, field: "request.params[0]")
        let (wallet, person) = wallet(approves: true)
        let signing = EthereumSigningRequest(
            method: "eth_signTransaction", chain: EIP155.mainnet, address: address, transaction: transaction)
        let signature = try await wallet.signEthereum(signing, context: context)
        let dialog = try XCTUnwrap(person.shown.values.first)
        XCTAssertTrue(
            dialog.contains("asks to sign \(transaction.summary().kind) on Ethereum (eip155:1) with your key \"eth\""),
            dialog)
        let line = try XCTUnwrap(try auditLines().last)
        XCTAssertEqual(line["method"] as? String, "eth_signTransaction")
        XCTAssertEqual(line["keccak256"] as? String, Hex.encode(transaction.signingHash))
        XCTAssertEqual(
            line["transaction_hash"] as? String, Hex.prefixed(Keccak256.hash(transaction.signed(with: signature))))
        XCTAssertEqual(line["dialog_sha256"] as? String, try sha256OfTextAboveTheInstruction(dialog))
    }

    /// A transaction whose warnings about funds and actions that move funds do not all fit one
    /// dialog is refused before anyone is asked: -32602 naming the batch, or -6 for SignPayloads
    /// (walletlib has no -32602 for payloads); nothing is recorded, as nobody was asked.
    func testTooMuchThatMovesFundsIsRefusedBeforeAnyDialog() async throws {
        let (wallet, person) = wallet(approves: true)
        let moving = TransactionSummary.Action(
            ["Transfer 500 SOL", "  from AKnL…RSZ9 (this key)", "  to 9aBc…dEf1"], movesFunds: true)
        var big = summary
        big.actions = Array(repeating: moving, count: 12)
        let signing = SolanaSigningRequest(
            method: "solana_signAllTransactions", chain: SolanaChain.mainnet, publicKey: key.publicKey,
            messages: [[7], [8]],
            consent: TransactionConsent(chain: "Solana mainnet", summaries: [big, big]))
        do {
            _ = try await wallet.signSolana(signing, context: context)
            XCTFail("signed")
        } catch let error as RPCError {
            XCTAssertEqual(error.code, .invalidParams)
            XCTAssertEqual(
                error.data,
                .object([
                    "field": "request.params.transactions",
                    "problem": .string(
                        "too much to show in one dialog: the warnings about funds or trust, the fees and what moves funds in "
                            + "transactions 1, 2 do not fit; sign fewer transactions at once"),
                ]))
        }
        XCTAssertEqual(person.shown.values, [], "nobody was asked")
        XCTAssertFalse(FileManager.default.fileExists(atPath: auditPath))
    }

    /// SignPayloads: 16 transfers of this key's lamports, each its own payload, do not fit one
    /// dialog: -6. Needs the Solana decoder to mark a transfer from this key as moving funds
    /// (`Action.movesFunds`): it passes once that branch is merged.
    func testSignPayloadsRefusesTooMuchThatMovesFundsBeforeAnyDialog() async throws {
        let (wallet, person) = wallet(approves: true)
        let message = HandMadeSolana.message(signers: [key.publicKey], transfers: [(0, 1_500_000_000)])
        do {
            _ = try await wallet.signPayloads(
                SignPayloadsParams(
                    address: entry.address, payloads: Array(repeating: Base64.encode(message), count: 16)),
                context: context)
            XCTFail("signed")
        } catch let error as RPCError {
            XCTAssertEqual(error.code, .tooManyPayloads)
            guard case .object(let data)? = error.data else { return XCTFail("\(error)") }
            XCTAssertEqual(data["count"], 16)
            guard case .string(let problem)? = data["problem"] else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.hasPrefix("too much to show in one dialog: "), problem)
            XCTAssertTrue(problem.hasSuffix("; the first 7 fit one dialog: sign at most 7 at once"), problem)
        }
        XCTAssertEqual(person.shown.values, [], "nobody was asked")
        XCTAssertFalse(FileManager.default.fileExists(atPath: auditPath))
    }

    /// The audit log records each Solana transaction's id (its fee payer's signature): this
    /// key's signature where it pays the fee, the one the request carried where another key
    /// paid and signed before, none where the fee payer signs later. SignPayloads records the
    /// ids of the payloads that are transactions this key pays for.
    func testTheAuditLogRecordsEachTransactionsID() async throws {
        let (wallet, _) = wallet(approves: true)
        let other = TestKey(seed: 2)
        let paid = HandMadeSolana.message(signers: [key.publicKey], transfers: [(0, 1)])
        let paidByOther = HandMadeSolana.message(signers: [other.publicKey, key.publicKey], transfers: [(1, 1)])
        var signing = SolanaSigningRequest(
            method: "solana_signAllTransactions", chain: SolanaChain.mainnet, publicKey: key.publicKey,
            messages: [paid, paidByOther, paidByOther],
            consent: TransactionConsent(chain: "Solana mainnet", summaries: [summary]))
        let otherID = Base58.encode(other.sign(paidByOther))
        signing.transactionIDs = [nil, otherID, nil]
        let signatures = try await wallet.signSolana(signing, context: context)
        var line = try XCTUnwrap(try auditLines().last)
        XCTAssertEqual(
            line["transaction_ids"] as? [NSObject],
            [Base58.encode(signatures[0]) as NSString, otherID as NSString, NSNull()])

        let text = Array("Sign in".utf8)
        let signed = try await wallet.signPayloads(
            SignPayloadsParams(address: entry.address, payloads: [text, paid, paidByOther].map(Base64.encode)),
            context: context)
        line = try XCTUnwrap(try auditLines().last)
        XCTAssertEqual(signed.signed_payloads[1], Base64.encode(paid + key.sign(paid)))
        XCTAssertEqual(
            line["transaction_ids"] as? [NSObject], [NSNull(), Base58.encode(key.sign(paid)) as NSString, NSNull()])

        // Nothing to record: no line.
        _ = try await wallet.signPayloads(
            SignPayloadsParams(address: entry.address, payloads: [Base64.encode(text)]), context: context)
        XCTAssertNil(try auditLines().last?["transaction_ids"])
    }

    /// Errors name the field from `request.params` (the session's request), as the methods do.
    func testUnknownKeysAreNamedWhereTheRequestHasThem() async throws {
        let (wallet, _) = wallet(approves: true)
        let signing = SolanaSigningRequest(
            method: "solana_signTransaction", chain: SolanaChain.mainnet, publicKey: TestKey(seed: 9).publicKey,
            messages: [[7]],
            consent: TransactionConsent(chain: "Solana mainnet", summaries: [summary]))
        do {
            _ = try await wallet.signSolana(signing, context: context)
            XCTFail("signed")
        } catch let error as RPCError {
            XCTAssertEqual(
                error.data, .object(["field": "request.params.pubkey", "problem": "no account with this public key"]))
        }
        let nobody = try XCTUnwrap(EthereumAddress("0x000000000000000000000000000000000000dEaD"))
        for (method, field) in [("personal_sign", "request.params[1]"), ("eth_signTypedData_v4", "request.params[0]")] {
            let request = EthereumSigningRequest(
                method: method, chain: EIP155.mainnet, address: nobody, digest: [UInt8](repeating: 1, count: 32),
                consent: EthereumConsent(kind: "a message", chain: "Ethereum", lines: []))
            do {
                _ = try await wallet.signEthereum(request, context: context)
                XCTFail("signed")
            } catch let error as RPCError {
                XCTAssertEqual(
                    error.data, .object(["field": .string(field), "problem": "no Ethereum account with this address"]))
            }
        }
    }
}
