import WalletBridgeConsent
import WalletBridgeHost
import WalletBridgeProtocol

/// What `SessionService` needs of a wallet: its keys, a way to ask the person, and signing.
/// The agent serves sessions with `KeystoreWallet`; the conformance host with an in-memory
/// wallet whose answers the environment decides, so that the shared fixtures can pin every
/// session method and error without a keystore, a dialog or a person.
package protocol SessionWallet: Sendable {
    /// The process that started the caller's host (the browser), to find the extension's name
    /// in its profile; nil when unknown. The agent sets it per connection.
    var browserProcess: Int32? { get set }

    /// A session's accounts, in the order the keys were added: the Ed25519 keys' for Solana,
    /// the secp256k1 keys' for Ethereum.
    func accounts(context: RequestContext) throws -> SessionAccounts

    /// The public keys in base64: walletlib's GetAccounts under sessions.
    func accountsAtHand(context: RequestContext) throws -> GetAccountsResult

    /// Asks the person `question` (a session to approve) in `caller`'s turn. A refusal, or
    /// nobody to ask, is a `failure`, not an error: each method turns it into its own code
    /// (5000, -1).
    func ask(_ question: ConsentQuestion, for caller: Caller) async throws -> Result<Bool, ConsentRefusal>

    /// Each payload followed by its signature, after the person approves; a refusal by the
    /// person is -3 with `data.reason` `"declined"`, which `solana_signMessage` answers as 4001.
    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult

    /// The 64-byte Ed25519 signature of `message` by the key of `publicKey` (32 bytes), asked
    /// and recorded as SignPayloads of that one message is: `solana_signMessage`. A refusal by
    /// the person is -3 with `data.reason` `"declined"`, as for `signPayloads`.
    func signMessage(_ message: [UInt8], publicKey: [UInt8], context: RequestContext) async throws -> [UInt8]

    /// The 65-byte signature (r ‖ s ‖ v) of `request`'s digest by the key of its address, after
    /// the person approves what `request.consent` shows; a refusal by the person is -3 with
    /// `data.reason` `"declined"`, as for `signPayloads`.
    func signEthereum(_ request: EthereumSigningRequest, context: RequestContext) async throws -> [UInt8]

    /// The 64-byte Ed25519 signature of each of `request.messages`, in order, by the key of
    /// `request.publicKey`, after the person approves what `request.consent` shows (one dialog
    /// for them all); a refusal by the person is -3 with `data.reason` `"declined"`, as for
    /// `signPayloads`.
    func signSolana(_ request: SolanaSigningRequest, context: RequestContext) async throws -> [[UInt8]]
}

extension SessionWallet {
    /// The caller's name in the browser's profile, when the browser that started its host is
    /// known: what the dialogs call it. It may wait a moment for a Firefox that has just
    /// started (`ExtensionNames.firefoxPatience`).
    package func callerName(of caller: Caller) async -> String? {
        guard let browserProcess else { return nil }
        return await ExtensionNames.name(
            of: caller, browserProcess: browserProcess, patience: ExtensionNames.firefoxPatience)
    }
}
