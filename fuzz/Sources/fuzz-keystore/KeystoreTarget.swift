import FuzzSupport
import WalletBridgeWallet

// Input: the bytes of a keystore file. Invariants: decoding never crashes or traps (only a
// KeystoreError), and whatever decodes re-encodes to a file that decodes to the same value.
@main enum KeystoreTarget {
    static func main() {
        fuzzMain { bytes in
            guard let file = try? KeystoreFile.decode(bytes, path: "fuzz/keystore.json") else { return }
            let again = try? KeystoreFile.decode(file.encode(), path: "fuzz/keystore.json")
            require(again == file, "a decoded keystore does not survive encode and decode")
        }
    }
}
