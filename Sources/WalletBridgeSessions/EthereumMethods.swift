import WalletBridgeConsent
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeTransactions

/// The `eip155` methods inside a session: `eth_accounts`, `eth_chainId`, `personal_sign`
/// (EIP-191), `eth_signTypedData_v4` (EIP-712) and `eth_signTransaction`, with params as
/// MetaMask and WalletConnect send them. `session_request` has already checked that the session holds the chain and
/// allows the method.
extension SessionService {
    func ethereumRequest(_ request: InnerRequest) async throws -> JSONValue {
        switch request.method {
        case EIP155.accountsMethod:
            return .array(try wallet.accounts(context: request.context).eip155.map(JSONValue.string))
        case EIP155.chainIDMethod:
            // `session_request` took only chains the session holds, and an eip155 chain there
            // has a valid id.
            return .string("0x" + String(EIP155.chainID(of: request.chain) ?? 0, radix: 16))
        case EIP155.personalSignMethod:
            return try await personalSign(request)
        case EIP155.signTypedDataMethod:
            return try await signTypedData(request)
        case EIP155.signTransactionMethod:
            return try await signTransaction(request)
        default:
            // Allowed by the session, yet not one the wallet serves: only a session approved
            // with a method the wallet no longer has can get here.
            throw RPCError(.methodNotFound, data: .object(["method": .string(String(request.method.prefix(256)))]))
        }
    }

    /// `personal_sign`: params `[message, address]`, the message read as MetaMask reads it
    /// (`personalMessage`). An empty message is refused, as MetaMask refuses one. A Sign-In
    /// with Ethereum message is shown as a sign-in (`EthereumConsent.personalMessage`).
    private func personalSign(_ request: InnerRequest) async throws -> JSONValue {
        let params = try Self.positional(request.params, count: 2, shape: "[message, address]")
        guard case .string(let text) = params[0] else {
            throw Self.invalid("request.params[0]", "expected the message: 0x and its bytes in hex, or text")
        }
        guard !text.isEmpty else { throw Self.invalid("request.params[0]", "the message is empty: there is nothing to sign") }
        let message = Self.personalMessage(text)
        let address = try await account(params[1], field: "request.params[1]", request: request, order: "personal_sign's params are [message, address]")
        // A sign-in (EIP-4361) is shown as one and checked against the session's site.
        let consent = try EthereumConsent.personalMessage(
            message, chain: request.chain, signer: address, site: request.session.origin, field: "request.params[0]")
        let signing = EthereumSigningRequest(
            method: request.method, chain: request.chain, address: address, digest: EthereumSigningRequest.personalMessageDigest(message),
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
    private func signTypedData(_ request: InnerRequest) async throws -> JSONValue {
        let params = try Self.positional(request.params, count: 2, shape: "[address, typedData]")
        let address = try await account(params[0], field: "request.params[0]", request: request, order: "eth_signTypedData_v4's params are [address, typedData]")
        let data = try TypedData(parsing: params[1], field: "request.params[1]")
        if let named = data.domain.chainId, let chainID = EIP155.chainID(of: request.chain), named != String(chainID) {
            throw Self.invalid(
                "request.params[1].domain.chainId",
                "is \(String(named.prefix(80))), but the request is for \(request.chain): typed data is signed only for the chain it names")
        }
        let signing = EthereumSigningRequest(
            method: request.method, chain: request.chain, address: address, digest: data.digest, consent: .typedData(data, chain: request.chain))
        return try await sign(signing, request)
    }

    /// `eth_signTransaction`: params `[tx]` or `[tx, address]`, the transaction as an object
    /// (`from` required, a key of the session) or as 0x and the hex of an unsigned serialized
    /// transaction, which does not carry its sender: `address` names the session's account that
    /// signs it, the first (`eth_accounts[0]`) when left out. With an object, `address` must be
    /// its `from`. Either form must be for the request's chain (the decoder refuses another).
    /// The answer is the raw signed transaction, which the extension broadcasts
    /// (`eth_sendRawTransaction`).
    private func signTransaction(_ request: InnerRequest) async throws -> JSONValue {
        guard case .array(let params)? = request.params, (1...2).contains(params.count) else {
            throw Self.invalid("request.params", "expected [transaction] or [transaction, address]")
        }
        let field = "request.params[0]"
        var transaction = try EthereumTransaction(json: params[0], chain: request.chain, field: field)
        var named: EthereumAddress?
        if params.count == 2 {
            named = try await account(
                params[1], field: "request.params[1]", request: request,
                order: "eth_signTransaction's params are [transaction, address]")
        }
        let address: EthereumAddress
        if let from = transaction.from {
            if let named, named != from {
                throw Self.invalid(
                    "request.params[1]",
                    "is \(named), but the transaction's from is \(from): the account that signs is named once")
            }
            address = try heldAccount(from, request: request)
        } else if case .object = params[0] {
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
        let signing = EthereumSigningRequest(method: request.method, chain: request.chain, address: address, transaction: transaction)
        guard signing.digest.count == 32 else {
            throw RPCError(.internalError, data: .object(["problem": .string("the transaction has no signing hash")]))
        }
        let context = request.context
        let signature = try await request.sign { [wallet] in try await wallet.signEthereum(signing, context: context) }
        guard signature.count == Secp256k1.signatureBytes else {
            throw RPCError(.internalError, data: .object(["problem": .string("the signature has an unexpected shape")]))
        }
        return .string(Hex.prefixed(transaction.signed(with: signature)))
    }

    private func sign(_ signing: EthereumSigningRequest, _ request: InnerRequest) async throws -> JSONValue {
        let context = request.context
        let signature = try await request.sign { [wallet] in try await wallet.signEthereum(signing, context: context) }
        guard signature.count == Secp256k1.signatureBytes else {
            throw RPCError(.internalError, data: .object(["problem": .string("the signature has an unexpected shape")]))
        }
        return .string(Hex.prefixed(signature))
    }

    /// The session's Ethereum account that `value` names (any letter case), or -32602 for
    /// something that is not an address (saying the params' `order`, the usual mistake), 4100
    /// for an address the session does not hold.
    private func account(_ value: JSONValue, field: String, request: InnerRequest, order: String) async throws -> EthereumAddress {
        guard case .string(let text) = value, let address = EthereumAddress(text) else {
            throw Self.invalid(field, "expected an Ethereum address: 0x and 40 hex digits (mixed case must be its EIP-55 checksum); \(order)")
        }
        return try heldAccount(address, request: request)
    }

    /// `address` when the session holds it, else 4100 listing the accounts it holds.
    private func heldAccount(_ address: EthereumAddress, request: InnerRequest) throws -> EthereumAddress {
        let accounts = try wallet.accounts(context: request.context).eip155
        guard accounts.contains(address.description) else { throw Self.noSuchAccount(accounts) }
        return address
    }

    private static func noSuchAccount(_ accounts: [String]) -> RPCError {
        RPCError(.unauthorized, data: .object([
            "problem": .string("the session holds no account with this address"),
            "accounts": .array(accounts.map(JSONValue.string)),
        ]))
    }

    /// Positional params of exactly `count` members.
    private static func positional(_ params: JSONValue?, count: Int, shape: String) throws(RPCError) -> [JSONValue] {
        guard case .array(let members)? = params, members.count == count else {
            throw invalid("request.params", "expected \(shape)")
        }
        return members
    }
}
