import WalletBridgeProtocol

/// The rule "this caller is connected, so these are its addresses": GetAccounts without a
/// dialog. The agent answers by it from the sessions it holds (`SessionService.accountsIfConnected`),
/// the host from the files the agent keeps (`ConnectedAccounts`); one function, so the two
/// cannot disagree.
package enum ConnectedRule {
    /// The answer for `caller` given the keystore's Ed25519 addresses `addresses` and every
    /// session known (`sessions`, expired ones included) at wall time `now` (seconds since
    /// 1970); nil when the caller must be asked to connect (`SessionService.accounts`).
    ///
    /// - No key: an empty list, for any caller: nobody is asked about an empty list.
    /// - Otherwise the addresses when the caller has a live session of its own (`Session.isLive`:
    ///   one that expires at `now` is over). GetAccounts is walletlib's, the extension's own
    ///   call: a session of one of its sites (`origin`) does not connect the extension itself.
    package static func accounts(
        addresses: [String], sessions: [Session], caller: SessionCaller, now: Int
    ) -> GetAccountsResult? {
        if addresses.isEmpty { return GetAccountsResult(addresses: []) }
        // A concrete array and a plain loop, not a generic sequence: the host calls this from
        // another module, where a generic one runs unspecialized and has the runtime look up
        // its types' metadata and conformances by name on the cold call.
        for session in sessions where session.belongs(to: caller, origin: nil) && session.isLive(at: now) {
            return GetAccountsResult(addresses: addresses)
        }
        return nil
    }
}
