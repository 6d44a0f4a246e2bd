import FuzzSupport
@_spi(Fuzzing) import WalletBridgeKeys

// Input: typed data as eth_signTypedData_v4 receives it (the JSON object, or a JSON string of
// it). Invariants: reading it never crashes or traps (only a -32602), nor runs away on types that
// refer to themselves; a digest is 32 bytes; and the same data sent as a string of its JSON (as
// MetaMask sends it) gives the same digest or the same error.
@main enum EIP712Target {
    static func main() {
        fuzzMain { bytes in
            if let digest = TypedDataFuzzing.digestIfValid(bytes) {
                require(digest.count == 32, "a digest of \(digest.count) bytes")
            }
            require(
                TypedDataFuzzing.stringFormAgrees(bytes) != false, "typed data reads otherwise as a string of its JSON")
        }
    }
}
