import FuzzSupport
@_spi(Fuzzing) import WalletBridgeTransactions

// Input: an unsigned serialized Ethereum transaction (legacy with EIP-155, 0x01, 0x02), or 0xFF,
// a byte choosing the contract called and the calldata (see EthereumTransactionFuzzing).
// Invariants: reading never traps, only refuses; what reads re-encodes to the same bytes, reads
// the same as eth_signTransaction's string form and signs into a transaction with the same
// fields; the summary is one call of at most 8 lines, none with a control character or longer
// than the dialog's 160 bytes.
@main enum EVMTransactionTarget {
    static func main() {
        fuzzMain { bytes in
            if let problem = EthereumTransactionFuzzing.check(bytes) {
                require(false, problem)
            }
        }
    }
}
