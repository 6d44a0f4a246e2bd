#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridge
import WalletBridgeWallet
import WalletBridgeConsent
import WalletBridgeKeys

/// A wallet for tests only: fixed, publicly known keys held in memory, no passphrase, no
/// consent. It exists so the fixtures can pin exact signatures (Ed25519 is deterministic, and
/// so is libsecp256k1's ECDSA, with RFC 6979 nonces). It is compiled into the conformance host
/// alone; the shipped `wallet-bridge` never contains it.
public struct InMemoryTestWallet: AccountsAtHand {
    /// Seeds 0x01 repeated and 0x02 repeated. Public test vectors, never real keys.
    package static let seeds: [[UInt8]] = [[UInt8](repeating: 1, count: 32), [UInt8](repeating: 2, count: 32)]
    /// Ethereum secrets: Keccak-256 of "cow", the key of "Cow" in EIP-712's own Mail example
    /// (0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826), so that a fixture can pin the EIP's published
    /// signature; and 0x02 repeated. Public, never real keys.
    static let ethereumSecrets: [[UInt8]] = [Keccak256.hash(Array("cow".utf8)), [UInt8](repeating: 2, count: 32)]
    /// 16, or `WALLET_BRIDGE_TEST_MAX_PAYLOADS` (the signing benchmark sends hundreds at once).
    static let maxPayloads: Int = {
        guard let raw = getenv("WALLET_BRIDGE_TEST_MAX_PAYLOADS"), let value = Int(String(cString: raw)), value > 0
        else { return 16 }
        return value
    }()

    private let keys: [(address: String, secretKey: [UInt8])]
    private let addresses: [String]
    private let ethereumKeys: EthereumTestKeys

    /// The test keys: two Ed25519, two secp256k1.
    public init() {
        self.init(seeds: Self.seeds, ethereumSecrets: Self.ethereumSecrets)
    }

    /// A wallet of the keys of `seeds` and `ethereumSecrets` (32 bytes each); none for the
    /// conformance host's empty wallet (`WALLET_BRIDGE_TEST_WALLET=empty`).
    package init(seeds: [[UInt8]], ethereumSecrets: @autoclosure @escaping @Sendable () -> [[UInt8]] = []) {
        ethereumKeys = EthereumTestKeys(secrets: ethereumSecrets)
        Ed25519.initialize()
        keys = seeds.map { seed in
            var publicKey = [UInt8](repeating: 0, count: Ed25519.publicKeyBytes)
            var secretKey = [UInt8](repeating: 0, count: Ed25519.secretKeyBytes)
            _ = Ed25519.keyPair(seed: seed, publicKey: &publicKey, secretKey: &secretKey)
            return (Base64.encode(publicKey), secretKey)
        }
        addresses = keys.map(\.address)
    }

    public func accountsAtHand(context: RequestContext) throws -> GetAccountsResult {
        GetAccountsResult(addresses: addresses)
    }

    /// Two strings from memory.
    public var getAccountsExecution: Execution { .immediate }

    /// The EIP-55 addresses of the secp256k1 keys.
    package var ethereumAddresses: [String] { ethereumKeys.pairs.map(\.address.description) }

    /// The signature of `request`'s digest by the key of its address, asking nobody.
    package func signEthereum(_ request: EthereumSigningRequest) throws -> [UInt8] {
        guard let key = ethereumKeys.pairs.first(where: { $0.address == request.address }),
            let signature = Secp256k1.sign(digest: request.digest, secretKey: key.secret)
        else {
            throw RPCError.invalidParams(request.addressField, "no Ethereum account with this address")
        }
        return signature
    }

    /// The Ed25519 signature of each message by the key of `publicKey`, asking nobody.
    package func signSolana(_ messages: [[UInt8]], publicKey: [UInt8]) throws -> [[UInt8]] {
        guard let key = keys.first(where: { $0.address == Base64.encode(publicKey) }) else {
            throw RPCError.invalidParams("request.params.pubkey", "no account with this public key")
        }
        return key.secretKey.withUnsafeBytes { secretKey in messages.map { Ed25519.sign($0, secretKey: secretKey) } }
    }

    public func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        guard let key = keys.first(where: { $0.address == params.address }) else {
            throw RPCError.invalidParams("address", "no account with this address")
        }
        let payloads = try PayloadSigning.decodePayloads(params.payloads, maxPayloads: Self.maxPayloads)
        let signed = key.secretKey.withUnsafeBytes { secretKey in PayloadSigning.sign(payloads, secretKey: secretKey) }
        return SignPayloadsResult(signed_payloads: signed)
    }
}

/// The secp256k1 keys, derived when an Ethereum method first needs them: the derivation (a
/// Keccak-256 and libsecp256k1's signing context) costs more than the rest of a cold
/// GetAccounts, which shows only the Ed25519 keys and so must not pay for it (the conformance
/// host's cold call is one of the benchmarks).
private final class EthereumTestKeys: Sendable {
    private let secrets: @Sendable () -> [[UInt8]]
    private let derived = Mutex<[(address: EthereumAddress, secret: SecureBytes)]?>(nil)

    init(secrets: @escaping @Sendable () -> [[UInt8]]) {
        self.secrets = secrets
    }

    var pairs: [(address: EthereumAddress, secret: SecureBytes)] {
        derived.withLock { derived in
            if let derived { return derived }
            let pairs = secrets().map { bytes in
                let secret = bytes.withUnsafeBytes { SecureBytes(copying: $0) }
                return (address: EthereumAddress(publicKey: Secp256k1.publicKey(of: secret)!)!, secret: secret)
            }
            derived = pairs
            return pairs
        }
    }
}
