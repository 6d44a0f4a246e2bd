import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeTransactions

extension SessionService {
    /// `solana_signIn`: Sign In With Solana (docs/sign-in.md). The params are the Wallet
    /// Standard's `SolanaSignInInput`; the wallet fills in the domain (the session's site) and
    /// the address (the session's first Solana account) when they are left out, builds the
    /// message in the published format (`SolanaSignInInput.messageText`), shows it as a sign-in
    /// checked against the site (`SignInCheck`), and signs its UTF-8 bytes with Ed25519 as it
    /// signs any Solana message, through the keystore's consent. The answer:
    /// `{"address", "message", "signature"}`, the signature in base58.
    fileprivate func solanaSignIn(
        _ params: SolanaSignIn.Params, _ request: InnerRequest
    ) async throws -> SolanaSignIn.Result {
        let field = "request.params"
        let input = params
        let accounts = try wallet.accounts(context: request.context).solana
        let publicKey: [UInt8]
        if let given = input.address {
            publicKey = try Self.solanaPublicKey(.string(given), field: "\(field).address")
            guard accounts.contains(Base58.encode(publicKey)) else {
                throw Self.invalid(
                    "\(field).address",
                    "is not an account of this session; its accounts are \(accounts.joined(separator: ", "))")
            }
        } else {
            guard let first = accounts.first, let key = Base58.decode(first, maxBytes: 32), key.count == 32 else {
                throw Self.noSuchSolanaAccount(accounts)
            }
            publicKey = key
        }
        let address = Base58.encode(publicKey)
        let site = request.session.origin
        guard let domain = input.domain ?? site.flatMap(SignInCheck.domain(of:)) else {
            throw Self.invalid("\(field).domain", "required: the session has no site to take it from")
        }
        let text = input.messageText(domain: domain, address: address)
        guard text.utf8.count <= SolanaMethod.maxMessageBytes else {
            throw Self.invalid(
                field,
                "the message would take \(DisplayText.grouped(text.utf8.count)) bytes; at most "
                    + "\(DisplayText.grouped(SolanaMethod.maxMessageBytes))")
        }

        let check = SignInCheck(
            domain: domain, scheme: nil, uri: input.uri.flatMap { $0.isEmpty ? nil : $0 }, site: site,
            schemelessIsHTTPS: false)
        var warnings = check.warnings
        if let named = input.chainId, Self.solanaChain(named: named) != request.chain {
            warnings.append(
                .init(
                    .trust,
                    "The message is for \(ConsentRequest.printable(named, maxBytes: 60)), but the request is for "
                        + request.chain.displayName))
        }
        let labels = ["Version", "Chain ID", "Nonce", "Issued At", "Expiration Time", "Not Before", "Request ID"]
        let values = [
            input.version, input.chainId, input.nonce, input.issuedAt, input.expirationTime, input.notBefore,
            input.requestId,
        ]
        let details = zip(labels, values).compactMap { label, value in
            value.flatMap { $0.isEmpty ? nil : (label: label, value: $0) }
        }
        let fields = SignInConsent.Fields(
            domain: domain, account: address, statement: input.statement.flatMap { $0.isEmpty ? nil : $0 },
            uri: input.uri.flatMap { $0.isEmpty ? nil : $0 }, details: details, resources: input.resources)
        let summary = SignInConsent.summary(kind: "a sign-in (Sign In With Solana)", fields: fields, warnings: warnings)
        let consent = TransactionConsent(chain: request.chain.displayName, summaries: [summary], noun: "sign-in")
        try SignInConsent.checkFits(consent, field: field)

        let message = Array(text.utf8)
        var signing = SolanaSigningRequest(
            method: request.method, chain: request.chain, publicKey: publicKey, messages: [message], consent: consent)
        signing.signIn = check.record
        try Task.checkCancellation()
        let context = request.context
        let signatures = try await request.sign { [wallet, signing] in
            try await wallet.signSolana(signing, context: context)
        }
        guard signatures.count == 1, signatures[0].count == Ed25519.signatureBytes else {
            throw RPCError(.internalError, data: .object(["problem": .string("the signature has an unexpected shape")]))
        }
        return SolanaSignIn.Result(address: address, message: text, signature: Base58.encode(signatures[0]))
    }

    /// The chain a Sign In With Solana `chainId` names: the Wallet Standard's names (`mainnet`,
    /// `solana:devnet`, …) or a CAIP-2 id; nil for one the wallet does not know (`localnet`).
    static func solanaChain(named name: String) -> ChainID? {
        switch name {
        case "mainnet", "solana:mainnet": SolanaChain.mainnet
        case "devnet", "solana:devnet": SolanaChain.devnet
        case "testnet", "solana:testnet": SolanaChain.testnet
        default: ChainID(name).flatMap { SolanaChain.all.contains($0) ? $0 : nil }
        }
    }
}

/// `solana_signIn`: the Wallet Standard's `SolanaSignInInput` → `{"address", "message", "signature"}`.
enum SolanaSignIn: NamespaceMethod {
    static let name = SolanaMethod.signIn
    /// The Wallet Standard's `SolanaSignInInput`, every member optional.
    typealias Params = SolanaSignInInput

    struct Result: Codable, Sendable, JSONSchemaConstraining {
        let address: String
        let message: String
        let signature: String
        static var typeConstraints: [String: JSONValue] { ["title": "SignInResult"] }
        static var memberConstraints: [String: JSONValue] {
            [
                "address": SessionSchemas.base58PublicKey.with(description: "The key that signed"),
                "message": ["description": "The exact text signed (its UTF-8 bytes)"],
                "signature": SessionSchemas.signature,
            ]
        }
    }

    static func run(_ params: Params, _ request: InnerRequest, _ service: SessionService) async throws -> Result {
        try await service.solanaSignIn(params, request)
    }
}
