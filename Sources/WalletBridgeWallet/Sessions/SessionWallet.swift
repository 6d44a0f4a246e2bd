import WalletBridge

/// What `SessionService` needs of a wallet: its keys, a way to ask the person, and signing.
/// The agent serves sessions with `KeystoreWallet`; the conformance host with an in-memory
/// wallet whose answers the environment decides, so that the shared fixtures can pin every
/// session method and error without a keystore, a dialog or a person.
package protocol SessionWallet: Sendable {
    /// The process that started the caller's host (the browser), to find the extension's name
    /// in its profile; nil when unknown. The agent sets it per connection.
    var browserProcess: Int32? { get set }

    /// The public keys, raw, in the order they were added: a session's accounts.
    func publicKeys(context: RequestContext) throws -> [[UInt8]]

    /// The public keys in base64: walletlib's GetAccounts under sessions.
    func accountsAtHand(context: RequestContext) throws -> GetAccountsResult

    /// Asks the person `question` (a session to approve). A refusal, or nobody to ask, is a
    /// `failure`, not an error: each method turns it into its own code (5000, -1).
    func ask(_ question: ConsentQuestion) async throws -> Result<Bool, ConsentRefusal>

    /// Each payload followed by its signature, after the person approves; a refusal by the
    /// person is -3 with `data.reason` `"declined"`, which `solana_signMessage` answers as 4001.
    func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult
}

extension SessionWallet {
    /// Decoded from `accountsAtHand`, for a wallet that keeps its keys in base64.
    package func publicKeys(context: RequestContext) throws -> [[UInt8]] {
        try accountsAtHand(context: context).addresses.compactMap(Base64.decode)
    }
}

extension KeystoreWallet: SessionWallet {}
