import WalletBridgeKeys
@testable import WalletBridgeSessions

/// A session as the agent stores an approved one: Solana mainnet and devnet, signing,
/// `accountsChanged`, from `created` for `lifetime` seconds. The tests of the store and of a
/// looking host's copy of its file share it.
func exampleSession(_ caller: SessionCaller, created: Int, lifetime: Int = 86_400) -> Session {
    Session(
        caller: caller, callerName: "Example Wallet",
        metadata: PeerMetadata(
            name: "Example dApp", description: "Signs in with Solana", url: "https://example.org",
            icons: ["https://example.org/icon.png"]),
        requiredNamespaces: [
            "solana": Namespace(
                chains: [SolanaChain.mainnet], methods: ["solana_signMessage"], events: ["accountsChanged"])
        ],
        optionalNamespaces: [
            "solana": Namespace(
                chains: [SolanaChain.devnet, ChainID("solana:other")!], methods: ["solana_signMessage", "x"])
        ],
        namespaces: [
            "solana": Namespace(
                chains: [SolanaChain.mainnet, SolanaChain.devnet], methods: ["solana_signMessage"],
                events: ["accountsChanged"])
        ],
        created: created, expiry: created + lifetime
    )
}
