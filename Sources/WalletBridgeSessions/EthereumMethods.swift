import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeTransactions

/// The `eip155` methods inside a session: `eth_accounts`, `eth_chainId`, `personal_sign`
/// (EIP-191), `eth_signTypedData_v4` (EIP-712) and `eth_signTransaction`, with params as
/// MetaMask and WalletConnect send them. `session_request` has already checked that the session holds the chain and
/// allows the method.
extension SessionService {
    /// `personal_sign`: params `[message, address]`, the message read as MetaMask reads it
    /// (`personalMessage`). An empty message is refused, as MetaMask refuses one. A Sign-In
    /// with Ethereum message is shown as a sign-in (`EthereumConsent.personalMessage`).
    fileprivate func personalSign(_ params: PersonalSign.Params, _ request: InnerRequest) async throws -> String {
        let message = Self.personalMessage(params.message)
        let address = try heldAccount(params.address, request: request)
        // A sign-in (EIP-4361) is shown as one and checked against the session's site.
        let consent = try EthereumConsent.personalMessage(
            message, chain: request.chain, signer: address, site: request.session.origin, field: "request.params[0]")
        let signing = EthereumSigningRequest(
            method: request.method, chain: request.chain, address: address,
            digest: EthereumSigningRequest.personalMessageDigest(message),
            consent: consent)
        return try await sign(signing, request)
    }

    /// The bytes `personal_sign` signs for `text`, as MetaMask's `normalizeMessageData` and
    /// eth-sig-util read it: `0x` and one or more hex digits (any case) is those bytes, an odd
    /// count padded with a leading zero nibble (`0xabc` is 0x0a 0xbc, as eth-account's
    /// `hexstr=` also reads it); anything else is its UTF-8 text, `0x` alone and a sign-in from
    /// `0x.org` included. Unlike MetaMask, hex digits without `0x` (`1234`) are text: a dApp that
    /// checks the signature with ethers' or viem's `verifyMessage` of the same string expects
    /// the text.
    static func personalMessage(_ text: String) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.starts(with: "0x".utf8), utf8.count > 2 else { return utf8 }
        let digits = utf8[2...]
        let whole = digits.count % 2 == 0 ? Array(digits) : [UInt8(ascii: "0")] + digits
        // Nil when a digit is not hex: then it is text.
        return Hex.decode(String(decoding: whole, as: UTF8.self)) ?? utf8
    }

    /// `eth_signTypedData_v4`: params `[address, typedData]`, the typed data as an object or a
    /// JSON string of one. Typed data that names a chain must name the request's: a signature
    /// for another chain than the one the person sees would be a trap.
    fileprivate func signTypedData(
        _ params: EthSignTypedDataV4.Params, _ request: InnerRequest
    ) async throws -> String {
        let address = try heldAccount(params.address, request: request)
        // Read after the account is known to be the session's, as before it was a type.
        let data = try TypedData(parsing: params.typedData, field: "request.params[1]")
        if let named = data.domain.chainId, let chainID = EIP155.chainID(of: request.chain), named != String(chainID) {
            throw Self.invalid(
                "request.params[1].domain.chainId",
                "is \(String(named.prefix(80))), but the request is for \(request.chain): typed data is signed only for the chain it names"
            )
        }
        let signing = EthereumSigningRequest(
            method: request.method, chain: request.chain, address: address, digest: data.digest,
            consent: .typedData(data, chain: request.chain))
        return try await sign(signing, request)
    }

    /// `eth_signTransaction`: params `[tx]` or `[tx, address]`, the transaction as an object
    /// (`from` required, a key of the session) or as 0x and the hex of an unsigned serialized
    /// transaction, which does not carry its sender: `address` names the session's account that
    /// signs it, the first (`eth_accounts[0]`) when left out. With an object, `address` must be
    /// its `from`. Either form must be for the request's chain (the decoder refuses another).
    /// The answer is the raw signed transaction, which the extension broadcasts
    /// (`eth_sendRawTransaction`).
    fileprivate func signTransaction(
        _ params: EthSignTransaction.Params, _ request: InnerRequest
    ) async throws -> String {
        let field = "request.params[0]"
        // The transaction is read for the request's chain, so here rather than in the params.
        var transaction = try EthereumTransaction(json: params.transaction, chain: request.chain, field: field)
        var named: EthereumAddress?
        if let address = params.address {
            let given = try Self.ethereumAddress(
                address, field: "request.params[1]", order: "eth_signTransaction's params are [transaction, address]")
            named = try heldAccount(given, request: request)
        }
        let address: EthereumAddress
        if let from = transaction.from {
            if let named, named != from {
                throw Self.invalid(
                    "request.params[1]",
                    "is \(named), but the transaction's from is \(from): the account that signs is named once")
            }
            address = try heldAccount(from, request: request)
        } else if case .object = params.transaction {
            throw Self.invalid("\(field).from", "required: the address that signs, an account of the session")
        } else {
            if let named {
                address = named
            } else {
                let accounts = try wallet.accounts(context: request.context).eip155
                guard let first = accounts.first.flatMap(EthereumAddress.init) else {
                    throw Self.noSuchAccount(accounts)
                }
                address = first
            }
            // Now the summary can tell a transferFrom of this key's own tokens from one of others'.
            transaction = transaction.naming(from: address)
        }
        let signing = EthereumSigningRequest(
            method: request.method, chain: request.chain, address: address, transaction: transaction)
        guard signing.digest.count == 32 else {
            throw RPCError(.internalError, data: .object(["problem": .string("the transaction has no signing hash")]))
        }
        let context = request.context
        let signature = try await request.sign { [wallet] in try await wallet.signEthereum(signing, context: context) }
        guard signature.count == Secp256k1.signatureBytes else {
            throw RPCError(.internalError, data: .object(["problem": .string("the signature has an unexpected shape")]))
        }
        return Hex.prefixed(transaction.signed(with: signature))
    }

    private func sign(_ signing: EthereumSigningRequest, _ request: InnerRequest) async throws -> String {
        let context = request.context
        let signature = try await request.sign { [wallet] in try await wallet.signEthereum(signing, context: context) }
        guard signature.count == Secp256k1.signatureBytes else {
            throw RPCError(.internalError, data: .object(["problem": .string("the signature has an unexpected shape")]))
        }
        return Hex.prefixed(signature)
    }

    /// The Ethereum address `value` names (any letter case), or -32602 for something that is
    /// not an address, saying the params' `order` (the usual mistake). Whether the session
    /// holds it is `heldAccount`'s question (4100).
    static func ethereumAddress(
        _ value: JSONValue, field: String, order: String
    ) throws(RPCError) -> EthereumAddress {
        guard case .string(let text) = value, let address = EthereumAddress(text) else {
            throw Self.invalid(
                field,
                "expected an Ethereum address: 0x and 40 hex digits (mixed case must be its EIP-55 checksum); \(order)")
        }
        return address
    }

    /// `address` when the session holds it, else 4100 listing the accounts it holds.
    private func heldAccount(_ address: EthereumAddress, request: InnerRequest) throws -> EthereumAddress {
        let accounts = try wallet.accounts(context: request.context).eip155
        guard accounts.contains(address.description) else { throw Self.noSuchAccount(accounts) }
        return address
    }

    private static func noSuchAccount(_ accounts: [String]) -> RPCError {
        RPCError(
            .unauthorized,
            data: .object([
                "problem": .string("the session holds no account with this address"),
                "accounts": .array(accounts.map(JSONValue.string)),
            ]))
    }
}

/// personal_sign's and eth_signTypedData_v4's signature.
enum EthereumSignatureShape: ResultShape {
    static var keywords: [String: JSONValue] {
        [
            "title": "EthereumSignature", "pattern": "^0x[0-9a-f]{130}$",
            "description": "personal_sign, eth_signTypedData_v4: 65 bytes r, s, v (27 or 28) in hex",
        ]
    }
}

/// `personal_sign`: `[message, address]` → the signature, 0x and 65 bytes in hex.
enum PersonalSign: NamespaceMethod {
    static let name = EIP155.personalSignMethod
    typealias Result = Shaped<String, EthereumSignatureShape>

    /// `[message, address]`.
    struct Params: Codable, Sendable, Equatable, JSONSchemaConstraining, EthereumPositionalParams {
        static let order = "personal_sign's params are [message, address]"
        /// As sent: 0x and hex, or text (`SessionService.personalMessage` reads it).
        let message: String
        let address: EthereumAddress

        init(message: String, address: EthereumAddress) { (self.message, self.address) = (message, address) }

        init(from decoder: any Decoder) throws {
            var params = try NamespaceParams.positions(decoder, counts: 2...2, expected: "expected [message, address]")
            message = try params.decode(PersonalMessageMember.self).text
            address = try params.decode(EthereumAddressMember<Self>.self).address
        }

        func encode(to encoder: any Encoder) throws {
            var params = encoder.unkeyedContainer()
            try params.encode(PersonalMessageMember(message))
            try params.encode(EthereumAddressMember<Self>(address))
        }

        static var typeConstraints: [String: JSONValue] {
            ["title": "PersonalSignParams", "maxItems": 2, "additionalItems": .null]
        }
    }

    static func run(
        _ params: Params, _ request: InnerRequest, _ service: SessionService
    ) async throws -> Shaped<String, EthereumSignatureShape> {
        Shaped(try await service.personalSign(params, request))
    }
}

/// `eth_signTypedData_v4`: `[address, typedData]` → the signature, 0x and 65 bytes in hex.
enum EthSignTypedDataV4: NamespaceMethod {
    static let name = EIP155.signTypedDataMethod
    typealias Result = Shaped<String, EthereumSignatureShape>

    /// `[address, typedData]`.
    struct Params: Codable, Sendable, Equatable, JSONSchemaConstraining, EthereumPositionalParams {
        static let order = "eth_signTypedData_v4's params are [address, typedData]"
        let address: EthereumAddress
        /// EIP-712 typed data, an object or a JSON string of one (`TypedData(parsing:)`).
        let typedData: JSONValue

        init(address: EthereumAddress, typedData: JSONValue) { (self.address, self.typedData) = (address, typedData) }

        init(from decoder: any Decoder) throws {
            var params = try NamespaceParams.positions(
                decoder, counts: 2...2, expected: "expected [address, typedData]")
            address = try params.decode(EthereumAddressMember<Self>.self).address
            typedData = try params.decode(JSONValue.self)
        }

        func encode(to encoder: any Encoder) throws {
            var params = encoder.unkeyedContainer()
            try params.encode(EthereumAddressMember<Self>(address))
            try params.encode(typedData)
        }

        static var typeConstraints: [String: JSONValue] {
            ["title": "SignTypedDataV4Params", "maxItems": 2, "additionalItems": .null]
        }
        /// What typed data must hold is EIP-712's, checked by the host field by field.
        static var memberConstraints: [String: JSONValue] {
            [
                "[1]": ["type": ["object", "string"], "description": "EIP-712 typed data, or a JSON string of it"]
            ]
        }
    }

    static func run(
        _ params: Params, _ request: InnerRequest, _ service: SessionService
    ) async throws -> Shaped<String, EthereumSignatureShape> {
        Shaped(try await service.signTypedData(params, request))
    }
}

enum EthereumSignedTransactionShape: ResultShape {
    static var keywords: [String: JSONValue] {
        [
            "title": "EthereumSignedTransaction", "pattern": "^0x([0-9a-f]{2})+$",
            "description": "eth_signTransaction: the raw signed transaction in hex, as eth_sendRawTransaction takes it",
        ]
    }
}

/// `eth_signTransaction`: `[transaction]` or `[transaction, address]` → the raw signed
/// transaction in hex.
enum EthSignTransaction: NamespaceMethod {
    static let name = EIP155.signTransactionMethod
    typealias Result = Shaped<String, EthereumSignedTransactionShape>

    /// `[transaction]` or `[transaction, address]`.
    struct Params: Codable, Sendable, Equatable, JSONSchemaConstraining {
        /// An object or an unsigned serialized transaction in hex, read for the request's chain
        /// (`EthereumTransaction(json:chain:field:)`).
        let transaction: JSONValue
        /// Read after the transaction, as it always was.
        let address: JSONValue?

        init(transaction: JSONValue, address: JSONValue?) { (self.transaction, self.address) = (transaction, address) }

        init(from decoder: any Decoder) throws {
            var params = try NamespaceParams.positions(
                decoder, counts: 1...2, expected: "expected [transaction] or [transaction, address]")
            transaction = try params.decode(JSONValue.self)
            // A null address is an address to read (and refuse), not one left out.
            address = params.isAtEnd ? nil : try params.decode(JSONValue.self)
        }

        func encode(to encoder: any Encoder) throws {
            var params = encoder.unkeyedContainer()
            try params.encode(transaction)
            if let address { try params.encode(address) }
        }

        static var typeConstraints: [String: JSONValue] {
            ["title": "SignEthereumTransactionParams", "maxItems": 2, "additionalItems": .null]
        }
        static var memberConstraints: [String: JSONValue] {
            [
                "[0]": SessionSchemas.ethereumTransaction,
                "[1]": SessionSchemas.ethereumAddress.with(
                    description:
                        "The account that signs: one of the session's. For the serialized form, which names no sender; "
                        + "the first of eth_accounts when left out. With an object, it must be its from"),
            ]
        }
    }

    static func run(
        _ params: Params, _ request: InnerRequest, _ service: SessionService
    ) async throws -> Shaped<String, EthereumSignedTransactionShape> {
        Shaped(try await service.signTransaction(params, request))
    }
}
