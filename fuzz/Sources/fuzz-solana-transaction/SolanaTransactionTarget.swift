import FuzzSupport
@_spi(Fuzzing) import WalletBridgeTransactions

// Input: a serialized Solana transaction, or a message alone (as walletlib's SignPayloads may
// carry one). Invariants: reading never traps; whatever reads writes back to the same bytes and
// reads again the same, and is summarized with an entry per instruction and no line longer than
// the dialog shows uncut (TransactionConsent.maxLineBytes);
// every refusal names its problem (SolanaTransactionFuzzing.brokenInvariant).
@main enum SolanaTransactionTarget {
    static func main() {
        fuzzMain { bytes in
            if let broken = SolanaTransactionFuzzing.brokenInvariant(bytes) { require(false, broken) }
        }
    }
}
