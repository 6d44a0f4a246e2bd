import FuzzSupport
@_spi(Fuzzing) import WalletBridgeKeys

// Input: the bytes of a keystore file. Invariants: decoding never crashes or traps (only a
// KeystoreError), and whatever decodes re-encodes to a file that decodes to the same value.
@main enum KeystoreTarget {
    static func main() {
        fuzzMain { bytes in
            let survives = KeystoreFileFuzzing.decodedSurvivesRoundTrip(bytes)
            require(survives != false, "a decoded keystore does not survive encode and decode")
        }
    }
}
