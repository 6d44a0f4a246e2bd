import WalletBridge
@testable import WalletBridgeWallet
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions
@testable import WalletBridgeSystem
@testable import WalletBridgeTransactions

/// The session methods called with their params as JSON, read by the decoder the router uses
/// (`JSONValueDecoder.decodeParams`), so that the tests state params as a site sends them, and
/// their results as JSON, encoded as the router encodes them (`ResultEncoder`).
extension SessionService {
    func connect(_ params: JSONValue, context: RequestContext) async throws -> JSONValue {
        try Self.json(try await connect(Self.decode(params) as SessionConnectParams, context: context))
    }

    func list(_ params: JSONValue, context: RequestContext) throws -> JSONValue {
        try Self.json(try list(Self.decode(params) as SessionListParams, context: context))
    }

    func request(_ params: JSONValue, context: RequestContext) async throws -> JSONValue {
        try Self.json(try await request(Self.decode(params) as SessionRequestParams, context: context))
    }

    func extend(_ params: JSONValue, context: RequestContext) throws -> JSONValue {
        try Self.json(try extend(Self.decode(params) as SessionExtendParams, context: context))
    }

    func disconnect(_ params: JSONValue, context: RequestContext) throws -> JSONValue {
        try Self.json(try disconnect(Self.decode(params) as SessionDisconnectParams, context: context))
    }

    static func json(_ result: some Encodable) throws -> JSONValue {
        var bytes: [UInt8] = []
        try ResultEncoder.encode(result, into: &bytes)
        return try JSONParser.parse(bytes)
    }

    private static func decode<Params: Decodable>(_ params: JSONValue) throws -> Params {
        try JSONValueDecoder().decodeParams(Params.self, from: params)
    }
}
