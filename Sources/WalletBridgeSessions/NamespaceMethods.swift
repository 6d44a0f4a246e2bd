import WalletBridgeConsent
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeSystem
import WalletBridgeTransactions

/// A method inside a session (`session_request`'s `request`), as a type: an `RPCMethod`, whose
/// name, `Params` and `Result` are a method's like any other, its params read by the router's
/// decoder (`JSONValueDecoder`) and its result encoded as the router encodes any result; its
/// schemas are derived from them likewise (`session_request`'s, `SessionSchemas.innerRequest`
/// and `.requestResult`). What it adds is `run`: `session_request` has already checked that the
/// session holds the chain and allows the method; `SessionService.namespaceMethods` is the table
/// it dispatches by.
protocol NamespaceMethod: RPCMethod {
    static func run(_ params: Params, _ request: InnerRequest, _ service: SessionService) async throws -> Result
}

extension NamespaceMethod {
    /// The params' schema: the method's own `paramsSchema`, else derived from `Params` as any
    /// method's is; `{}` for params that are not read (`UnreadParams`).
    static var describedParams: DerivedSchema {
        paramsSchema.map { DerivedSchema(schema: $0, problems: []) }
            ?? JSONSchemaDerivation.paramsSchema(for: Params.self)
    }

    /// The result's schema, one of `session_request`'s (`SessionSchemas.requestResult`): the
    /// method's own `resultSchema`, else derived from `Result`, with what its type states of its
    /// members.
    static var describedResult: DerivedSchema {
        resultSchema.map { DerivedSchema(schema: $0, problems: []) }
            ?? JSONSchemaDerivation.resultSchema(for: Result.self)
    }

    /// Reads the params (absent reads as null) where they sit, `request.params`, so that a fault
    /// names its place there, and runs the method: its result is `session_request`'s, encoded by
    /// the router as its type says.
    static func answer(_ request: InnerRequest, _ service: SessionService) async throws -> SessionRequestResult {
        let params: Params
        do {
            params = try JSONValueDecoder().decode(Params.self, from: request.params ?? .null, at: NamespaceParams.path)
        } catch let error as DecodingError {
            throw NamespaceParams.rpcError(error)
        }
        return SessionRequestResult(try await run(params, request, service))
    }
}

/// The params of a method that reads none (the account and chain methods): whatever is sent,
/// written back as none (`[]`, as the extensions send them).
struct UnreadParams: Codable, Sendable, Equatable, JSONSchemaPlaceholding {
    init() {}
    init(from decoder: any Decoder) {}
    func encode(to encoder: any Encoder) throws { _ = encoder.unkeyedContainer() }
    /// Any JSON: nothing of it is read.
    static var jsonSchema: JSONValue { [:] }
    static var schemaPlaceholder: Self { Self() }
}

extension SessionService {
    /// Every namespace method the wallet serves, in the order `session_request`'s schema lists
    /// their params and results.
    static let namespaceMethodTypes: [any NamespaceMethod.Type] = [
        SolanaSignMessage.self, SolanaSignTransaction.self, SolanaSignAllTransactions.self, SolanaSignIn.self,
        SolanaGetAccounts.self, SolanaRequestAccounts.self,
        PersonalSign.self, EthSignTypedDataV4.self, EthSignTransaction.self, EthChainID.self, EthAccounts.self,
    ]

    /// `namespaceMethodTypes` by name.
    static let namespaceMethods: [String: any NamespaceMethod.Type] = Dictionary(
        uniqueKeysWithValues: namespaceMethodTypes.map { ($0.name, $0) })

    /// Answers `request` with its method's type; -32601 for a method the session allows yet the
    /// wallet does not serve (only a session approved with a method the wallet no longer has).
    func dispatch(_ request: InnerRequest) async throws -> SessionRequestResult {
        guard let method = Self.namespaceMethods[request.method] else {
            throw RPCError(.methodNotFound, data: .object(["method": .string(String(request.method.prefix(256)))]))
        }
        return try await method.answer(request, self)
    }
}

// MARK: The account methods: what the session shows

/// One Solana account as `solana_getAccounts` answers it.
struct SolanaAccountEntry: Codable, Sendable, JSONSchemaConstraining {
    let pubkey: String
    static var typeConstraints: [String: JSONValue] { ["title": .null] }
    static var memberConstraints: [String: JSONValue] { ["pubkey": SessionSchemas.base58PublicKey] }
}

/// The account methods' `[{"pubkey"}]`.
enum SolanaAccountsShape: ResultShape {
    static var keywords: [String: JSONValue] { ["title": "SessionAccounts"] }
}

enum SolanaGetAccounts: NamespaceMethod {
    static let name = SolanaMethod.getAccounts
    typealias Params = UnreadParams
    typealias Result = Shaped<[SolanaAccountEntry], SolanaAccountsShape>
    static func run(
        _ params: UnreadParams, _ request: InnerRequest, _ service: SessionService
    ) throws -> Shaped<[SolanaAccountEntry], SolanaAccountsShape> {
        Shaped(try service.wallet.accounts(context: request.context).solana.map(SolanaAccountEntry.init))
    }
}

enum SolanaRequestAccounts: NamespaceMethod {
    static let name = SolanaMethod.requestAccounts
    typealias Params = UnreadParams
    typealias Result = Shaped<[SolanaAccountEntry], SolanaAccountsShape>
    static func run(
        _ params: UnreadParams, _ request: InnerRequest, _ service: SessionService
    ) throws -> Shaped<[SolanaAccountEntry], SolanaAccountsShape> {
        try SolanaGetAccounts.run(params, request, service)
    }
}

enum EthereumAccountsShape: ResultShape {
    static var keywords: [String: JSONValue] {
        [
            "title": "EthereumAccounts",
            "items": SessionSchemas.ethereumAddress.with(description: "eth_accounts: EIP-55 checksummed"),
        ]
    }
}

enum EthAccounts: NamespaceMethod {
    static let name = EIP155.accountsMethod
    typealias Params = UnreadParams
    typealias Result = Shaped<[String], EthereumAccountsShape>
    static func run(
        _ params: UnreadParams, _ request: InnerRequest, _ service: SessionService
    ) throws -> Shaped<[String], EthereumAccountsShape> {
        Shaped(try service.wallet.accounts(context: request.context).eip155)
    }
}

enum EthereumChainIDShape: ResultShape {
    static var keywords: [String: JSONValue] {
        [
            "title": "EthereumChainId", "pattern": "^0x[1-9a-f][0-9a-f]*$",
            "description": "eth_chainId: the chain id as a hex quantity",
        ]
    }
}

enum EthChainID: NamespaceMethod {
    static let name = EIP155.chainIDMethod
    typealias Params = UnreadParams
    typealias Result = Shaped<String, EthereumChainIDShape>
    static func run(
        _ params: UnreadParams, _ request: InnerRequest, _ service: SessionService
    ) -> Shaped<String, EthereumChainIDShape> {
        // `session_request` took only chains the session holds, and an eip155 chain there has
        // a valid id.
        Shaped("0x" + String(EIP155.chainID(of: request.chain) ?? 0, radix: 16))
    }
}

/// What a result that is one string or one list says beyond its type (`Shaped`): the keywords
/// its schema adds, a title, a pattern.
protocol ResultShape {
    static var keywords: [String: JSONValue] { get }
}

/// A namespace method's result that is a plain JSON value, written as that value: its schema is
/// the value's derived one with `Shape`'s keywords, as a struct's members state theirs.
struct Shaped<Value: Codable & Sendable, Shape: ResultShape>: Codable, Sendable, JSONSchemaConstraining {
    let value: Value
    init(_ value: Value) { self.value = value }
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
    static var typeConstraints: [String: JSONValue] { Shape.keywords }
}
