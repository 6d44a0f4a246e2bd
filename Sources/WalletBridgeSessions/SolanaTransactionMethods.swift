import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeTransactions

/// Solana transactions a session asks the wallet to sign: the messages, by which key, and what
/// the person is shown of them (one dialog for them all).
package struct SolanaSigningRequest: Sendable {
    /// `solana_signTransaction` or `solana_signAllTransactions`, and the request's chain: for
    /// the audit log.
    package var method: String
    package var chain: ChainID
    /// The Ed25519 public key that signs: 32 bytes.
    package var publicKey: [UInt8]
    /// The messages to sign, each exactly the bytes its signers sign.
    package var messages: [[UInt8]]
    package var consent: TransactionConsent
    /// Each transaction's id when the request already carries it (`SolanaTransaction.id`: the
    /// fee payer signed before), in `messages`' order; for the audit log (wiring, issue 36).
    package var transactionIDs: [String?] = []
    /// For `solana_signIn`: what the audit log records of the sign-in.
    package var signIn: AuditLog.SignInRecord?

    package init(method: String, chain: ChainID, publicKey: [UInt8], messages: [[UInt8]], consent: TransactionConsent) {
        (self.method, self.chain, self.publicKey, self.messages, self.consent) = (
            method, chain, publicKey, messages, consent
        )
    }
}

/// `solana_signTransaction` and `solana_signAllTransactions` (docs/sessions.md), with params
/// and results as WalletConnect's Solana RPC reference and the wallet adapters have them. The
/// wallet signs; the extension broadcasts.
extension SessionService {
    /// The most transactions one `solana_signAllTransactions` signs.
    package static let maxBatchTransactions = 16

    /// `{"transaction", "pubkey"?}` → `{"signature", "transaction"}`.
    fileprivate func signSolanaTransaction(
        _ params: SolanaSignTransaction.Params, _ request: InnerRequest
    ) async throws -> SolanaSignTransaction.Result {
        let signed = try await signSolana(
            [params.transaction], fields: ["request.params.transaction"], pubkey: params.pubkey, request)
        return SolanaSignTransaction.Result(signature: signed.signatures[0], transaction: signed.transactions[0])
    }

    /// `{"transactions": [...], "pubkey"?}` → `{"transactions", "signatures"}`, in order, after one
    /// dialog; all or nothing.
    fileprivate func signAllSolanaTransactions(
        _ params: SolanaSignAllTransactions.Params, _ request: InnerRequest
    ) async throws -> SolanaSignAllTransactions.Result {
        let signed = try await signSolana(params.transactions, fields: params.fields, pubkey: params.pubkey, request)
        return SolanaSignAllTransactions.Result(signatures: signed.signatures, transactions: signed.transactions)
    }

    /// Checks the signatures present and chooses the key, asks the person once, and puts the
    /// key's signature in its slot of each transaction: their base64 and the signatures' base58.
    private func signSolana(
        _ transactions: [SolanaTransaction], fields: [String], pubkey: JSONValue?, _ request: InnerRequest
    ) async throws -> (transactions: [String], signatures: [String]) {
        for (transaction, field) in zip(transactions, fields) {
            do throws(TransactionError) { try transaction.verifyPresentSignatures() } catch {
                throw error.rpcError(at: field)
            }
        }
        let accounts = try wallet.accounts(context: request.context).solana
        let publicKey = try Self.signer(of: transactions, fields: fields, pubkey: pubkey, accounts: accounts)
        let slots = transactions.map { $0.message.signerIndex(of: publicKey) }
        try Task.checkCancellation()
        let network = Self.networkWarning(request.chain)
        let summaries = transactions.map { transaction in
            var summary = transaction.message.summary(signer: publicKey)
            if let network { summary.warnings.append(network) }
            return summary
        }
        var signing = SolanaSigningRequest(
            method: request.method, chain: request.chain, publicKey: publicKey,
            messages: transactions.map(\.message.bytes),
            consent: TransactionConsent(chain: request.chain.displayName, summaries: summaries))
        signing.transactionIDs = transactions.map(\.id)
        let context = request.context
        let signatures = try await request.sign { [wallet, signing] in
            try await wallet.signSolana(signing, context: context)
        }
        guard signatures.count == transactions.count, signatures.allSatisfy({ $0.count == Ed25519.signatureBytes })
        else {
            throw RPCError(.internalError, data: .object(["problem": .string("the signature has an unexpected shape")]))
        }
        var signed: [String] = []
        for (index, var transaction) in transactions.enumerated() {
            guard let slot = slots[index], transaction.signatures.indices.contains(slot) else {
                throw RPCError(.internalError, data: .object(["problem": .string("the signer's slot is missing")]))
            }
            transaction.setSignature(signatures[index], at: slot)
            signed.append(Base64.encode(transaction.serialized()))
        }
        return (signed, signatures.map(Base58.encode))
    }

    /// A Solana transaction does not name its network: only its recent blockhash ties it to
    /// one, and the wallet, offline, cannot tell which. So the request's chain is the
    /// extension's word; on any chain but mainnet the person is told that the transaction may
    /// be one of mainnet, with real funds (nil on mainnet, where that is what they expect).
    static func networkWarning(_ chain: ChainID) -> TransactionSummary.Warning? {
        guard chain != SolanaChain.mainnet else { return nil }
        return TransactionSummary.Warning(
            .trust,
            "The extension says \(chain.displayName): a signed Solana transaction is valid on any network where its "
                + "blockhash is recent; treat it as real funds")
    }

    /// A transaction from base64 text, bounded before it is decoded.
    fileprivate static func solanaTransaction(
        _ value: JSONValue?, field: String
    ) throws(RPCError) -> SolanaTransaction {
        guard case .string(let text)? = value else {
            throw invalid(field, "expected standard base64 of a serialized transaction (legacy or version 0)")
        }
        do throws(TransactionError) {
            return try SolanaTransaction(base64: text)
        } catch {
            // The usual mistake: `serializeMessage()` sent where `serialize()` belongs. The same
            // bytes read as a whole message say so, rather than a puzzling offset.
            if text.utf8.count <= SolanaTransaction.maxBase64Characters, let bytes = Base64.decode(text),
                (try? SolanaMessage(bytes: bytes)) != nil
            {
                throw invalid(field, messageWithoutSignatures)
            }
            throw error.rpcError(at: field)
        }
    }

    /// What a message sent without its signature slots is told.
    static let messageWithoutSignatures =
        "this is a transaction message without its signatures: send the serialized transaction "
        + "(a compact-u16 count and 64 zero bytes per signer before the message)"

    /// The key that signs: `pubkey` when given (a key of the session, 4100 otherwise, and a
    /// required signer of every transaction); else the first required signer of the first
    /// transaction that is a key of this session, which must then sign every other one too
    /// (a batch is one dialog, with one key).
    private static func signer(
        of transactions: [SolanaTransaction], fields: [String], pubkey: JSONValue?, accounts: [String]
    ) throws(RPCError) -> [UInt8] {
        let publicKey: [UInt8]
        if let pubkey, pubkey != .null {
            publicKey = try solanaPublicKey(pubkey, field: "request.params.pubkey")
            guard accounts.contains(Base58.encode(publicKey)) else { throw noSuchSolanaAccount(accounts) }
            for (transaction, field) in zip(transactions, fields)
            where transaction.message.signerIndex(of: publicKey) == nil {
                let which = fields.count == 1 ? "the" : "this"
                throw invalid(
                    fields.count == 1 ? "request.params.pubkey" : field,
                    "\(TransactionSummary.short(base58: Base58.encode(publicKey))) is not a required signer of \(which) transaction; "
                        + "its signers are \(signerList(transaction.message))")
            }
            return publicKey
        }
        let first = transactions[0].message
        guard let chosen = first.signers.first(where: { accounts.contains(Base58.encode($0)) }) else {
            throw invalid(fields[0], "none of its signers (\(signerList(first))) is a key of this session")
        }
        for (transaction, field) in zip(transactions, fields).dropFirst()
        where transaction.message.signerIndex(of: chosen) == nil {
            throw invalid(
                field,
                "\(TransactionSummary.short(base58: Base58.encode(chosen))), the key that signs the first transaction, is not among "
                    + "its signers (\(signerList(transaction.message))); a batch is signed by one key")
        }
        return chosen
    }

    /// The required signers, shortened: "7xKX…3fGh, 9aBc…dEf1".
    private static func signerList(_ message: SolanaMessage) -> String {
        let signers = message.signers.map { TransactionSummary.short(base58: Base58.encode($0)) }
        let shown = signers.prefix(8).joined(separator: ", ")
        return signers.count > 8 ? "\(shown) and \(signers.count - 8) more" : shown
    }

    /// A base58 Ed25519 public key, bounded by its length before it is decoded.
    static func solanaPublicKey(_ value: JSONValue?, field: String) throws(RPCError) -> [UInt8] {
        guard case .string(let text)? = value, text.utf8.count <= Base58.maxCharacters(forBytes: 32),
            let key = Base58.decode(text, maxBytes: 32), key.count == 32
        else {
            throw invalid(field, "expected a base58 public key (32 bytes, at most 44 characters)")
        }
        return key
    }

    /// 4100, as for a message: the session holds no account with that public key.
    static func noSuchSolanaAccount(_ accounts: [String]) -> RPCError {
        RPCError(
            .unauthorized,
            data: .object([
                "problem": .string("the session holds no account with this public key"),
                "accounts": .array(accounts.map(JSONValue.string)),
            ]))
    }
}

/// `solana_signTransaction`: one transaction, signed by the session's key it names.
enum SolanaSignTransaction: NamespaceMethod {
    static let name = SolanaMethod.signTransaction

    /// `{"transaction", "pubkey"?}`.
    struct Params: Codable, Sendable, Equatable, JSONSchemaConstraining {
        let transaction: SolanaTransaction
        /// Read with the transaction's signers (`SessionService.signer`).
        let pubkey: JSONValue?

        private enum CodingKeys: String, CodingKey { case transaction, pubkey }

        init(transaction: SolanaTransaction, pubkey: JSONValue?) {
            (self.transaction, self.pubkey) = (transaction, pubkey)
        }

        init(from decoder: any Decoder) throws {
            let members = try NamespaceParams.object(
                decoder, keyedBy: CodingKeys.self,
                expected: "expected {\"transaction\": base64 of a serialized transaction, \"pubkey\"?: base58}")
            transaction = try members.decodeMember(SolanaTransactionMember.self, forKey: .transaction).transaction
            pubkey = try members.decodeIfPresent(JSONValue.self, forKey: .pubkey)
        }

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: CodingKeys.self)
            try members.encode(SolanaTransactionMember(transaction), forKey: .transaction)
            try members.encodeIfPresent(pubkey, forKey: .pubkey)
        }

        static var typeConstraints: [String: JSONValue] { ["title": "SignTransactionParams"] }
        static var memberConstraints: [String: JSONValue] {
            [
                "pubkey": SessionSchemas.optionalPublicKey(
                    "The key to sign with: one of the session's keys and a required signer; the first such signer when left out or null"
                )
            ]
        }
    }

    struct Result: Codable, Sendable, JSONSchemaConstraining {
        let signature: String
        let transaction: String
        static var typeConstraints: [String: JSONValue] { ["title": "SignTransactionResult"] }
        static var memberConstraints: [String: JSONValue] {
            [
                "signature": SessionSchemas.signature.with(
                    description: "This key's 64-byte Ed25519 signature, in base58"),
                "transaction": SessionSchemas.solanaTransaction.with(
                    description: "The whole transaction with that signature in its slot, other signatures kept"),
            ]
        }
    }

    static func run(_ params: Params, _ request: InnerRequest, _ service: SessionService) async throws -> Result {
        try await service.signSolanaTransaction(params, request)
    }
}

/// `solana_signAllTransactions`: a batch, signed after one dialog.
enum SolanaSignAllTransactions: NamespaceMethod {
    static let name = SolanaMethod.signAllTransactions

    /// `{"transactions": [...], "pubkey"?}`.
    struct Params: Codable, Sendable, Equatable, JSONSchemaConstraining {
        let transactions: [SolanaTransaction]
        let pubkey: JSONValue?

        private enum CodingKeys: String, CodingKey { case transactions, pubkey }

        init(transactions: [SolanaTransaction], pubkey: JSONValue?) {
            (self.transactions, self.pubkey) = (transactions, pubkey)
        }

        init(from decoder: any Decoder) throws {
            let members = try NamespaceParams.object(
                decoder, keyedBy: CodingKeys.self,
                expected: "expected {\"transactions\": [base64 of a serialized transaction, …], \"pubkey\"?: base58}")
            let field = NamespaceParams.field(members.codingPath, CodingKeys.transactions)
            var texts: any UnkeyedDecodingContainer
            do {
                texts = try members.nestedUnkeyedContainer(forKey: .transactions)
            } catch is DecodingError {
                throw SessionService.invalid(field, "expected an array of base64 serialized transactions")
            }
            // Counted before any is read.
            let most = SessionService.maxBatchTransactions
            if let count = texts.count, !(1...most).contains(count) {
                throw SessionService.invalid(field, "expected 1 to \(most) transactions, not \(count)")
            }
            var transactions: [SolanaTransaction] = []
            while !texts.isAtEnd { transactions.append(try texts.decode(SolanaTransactionMember.self).transaction) }
            self.transactions = transactions
            pubkey = try members.decodeIfPresent(JSONValue.self, forKey: .pubkey)
        }

        func encode(to encoder: any Encoder) throws {
            var members = encoder.container(keyedBy: CodingKeys.self)
            try members.encode(transactions.map(SolanaTransactionMember.init), forKey: .transactions)
            try members.encodeIfPresent(pubkey, forKey: .pubkey)
        }

        /// Each transaction's place, as -32602 names it.
        var fields: [String] { transactions.indices.map { "request.params.transactions[\($0)]" } }

        static var typeConstraints: [String: JSONValue] { ["title": "SignAllTransactionsParams"] }
        static var memberConstraints: [String: JSONValue] {
            [
                "transactions": ["minItems": 1, "maxItems": SessionSchemas.count(SessionService.maxBatchTransactions)],
                "pubkey": SessionSchemas.optionalPublicKey(
                    "The key to sign with: one of the session's keys and a required signer of every transaction; the first such "
                        + "signer of the first transaction when left out or null"),
            ]
        }
    }

    /// Members in sorted order, as every result's bytes are (the encoder writes them as declared).
    struct Result: Codable, Sendable, JSONSchemaConstraining {
        let signatures: [String]
        let transactions: [String]
        static var typeConstraints: [String: JSONValue] { ["title": "SignAllTransactionsResult"] }
        static var memberConstraints: [String: JSONValue] {
            [
                "transactions": ["items": SessionSchemas.solanaTransaction],
                "signatures": ["items": SessionSchemas.signatureDigits],
            ]
        }
    }

    static func run(_ params: Params, _ request: InnerRequest, _ service: SessionService) async throws -> Result {
        try await service.signAllSolanaTransactions(params, request)
    }
}

/// A serialized Solana transaction in base64, bounded before it is decoded
/// (`SessionService.solanaTransaction`).
struct SolanaTransactionMember: SessionParamsMember {
    let transaction: SolanaTransaction
    init(json: JSONValue?, field: String) throws(RPCError) {
        transaction = try SessionService.solanaTransaction(json, field: field)
    }
    init(_ transaction: SolanaTransaction) { self.transaction = transaction }
    var json: JSONValue { .string(Base64.encode(transaction.serialized())) }
    static var jsonSchema: JSONValue { SessionSchemas.solanaTransaction }
    /// Derivation's value to go on with, never read: one signer's transaction without
    /// instructions, a constant that reads (the schema tests derive it).
    static var schemaPlaceholder: Self {
        let fill = [UInt8](repeating: 0, count: 64)
        return Self(try! SolanaTransaction(bytes: [1] + fill + [1, 0, 0, 1] + fill + [0]))
    }
}
