import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeSessions

/// What a `RecordingSessionWallet` was asked to sign.
final class SigningRequests: Sendable {
    let solana = Mutex<[SolanaSigningRequest]>([])
    let ethereum = Mutex<[EthereumSigningRequest]>([])
    /// `solana_signMessage`'s: each message and the public key asked to sign it.
    let messages = Mutex<[(message: [UInt8], publicKey: [UInt8])]>([])
}

/// A session wallet for the transaction methods' tests: the Ed25519 keys of seeds 0x01 and
/// 0x02 repeated, and the Ethereum key of Keccak-256("cow") (with `ethereumKeys: 2`, also the
/// one of "dog"). It records what it is asked and signs it, or declines as a person would.
struct RecordingSessionWallet: SessionWallet {
    static let keys = [TestKey(seed: 1), TestKey(seed: 2)]
    static let ethereumSecrets = [Keccak256.hash(Array("cow".utf8)), Keccak256.hash(Array("dog".utf8))]
    static let ethereumAddresses: [EthereumAddress] = ethereumSecrets.map { secret in
        let key = secret.withUnsafeBytes { SecureBytes(copying: $0) }
        return EthereumAddress(publicKey: Secp256k1.publicKey(of: key)!)!
    }
    /// How many of `ethereumAddresses` the session holds.
    var ethereumKeys = 1
    var browserProcess: Int32?
    let asked = SigningRequests()
    var declines = false

    func accounts(context: RequestContext) throws -> SessionAccounts {
        SessionAccounts(
            solana: Self.keys.map(\.base58), eip155: Self.ethereumAddresses.prefix(ethereumKeys).map(\.description))
    }

    func accountsAtHand(context: RequestContext) throws -> GetAccountsResult { GetAccountsResult(addresses: []) }
    func ask(_ question: ConsentQuestion, for caller: Caller) async throws -> Result<Bool, ConsentRefusal> {
        .success(true)
    }

    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        XCTFail("no payloads here")
        return SignPayloadsResult(signed_payloads: [])
    }

    func signMessage(_ message: [UInt8], publicKey: [UInt8], context: RequestContext) async throws -> [UInt8] {
        asked.messages.withLock { $0.append((message, publicKey)) }
        if declines { throw RPCError(.notSigned, data: .object(["reason": .string("declined")])) }
        let key = try XCTUnwrap(Self.keys.first { $0.publicKey == publicKey })
        return key.sign(message)
    }

    func signEthereum(_ request: EthereumSigningRequest, context: RequestContext) async throws -> [UInt8] {
        asked.ethereum.withLock { $0.append(request) }
        if declines { throw RPCError(.notSigned, data: .object(["reason": .string("declined")])) }
        let index = try XCTUnwrap(Self.ethereumAddresses.prefix(ethereumKeys).firstIndex(of: request.address))
        let secret = Self.ethereumSecrets[index].withUnsafeBytes { SecureBytes(copying: $0) }
        return try XCTUnwrap(Secp256k1.sign(digest: request.digest, secretKey: secret))
    }

    func signSolana(_ request: SolanaSigningRequest, context: RequestContext) async throws -> [[UInt8]] {
        asked.solana.withLock { $0.append(request) }
        if declines { throw RPCError(.notSigned, data: .object(["reason": .string("declined")])) }
        let key = try XCTUnwrap(Self.keys.first { $0.publicKey == request.publicKey })
        return request.messages.map(key.sign)
    }
}
