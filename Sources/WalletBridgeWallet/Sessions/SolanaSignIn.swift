import WalletBridge

extension SessionService {
    /// `solana_signIn`: Sign In With Solana (docs/sign-in.md). Not built yet.
    func solanaSignIn(_ request: InnerRequest) async throws -> JSONValue {
        throw RPCError(.methodNotFound)
    }
}
