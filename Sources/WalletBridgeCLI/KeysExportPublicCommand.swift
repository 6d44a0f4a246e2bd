import ArgumentParser
import WalletBridgeWallet

/// `keys export-public`: one key's public half, for sharing or for scripts.
struct KeysExportPublicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-public",
        abstract: "Print a key's public key (its address) in base64 and base58. Needs no passphrase.")

    @OptionGroup var keystoreOptions: KeystoreOptions

    @Argument(help: "The key: its address (base64 or base58) or its label.")
    var key: String

    @Option(help: "Print only the address in this encoding: base64, base58 or hex.")
    var encoding: String?

    func validate() throws {
        if let encoding, !["base64", "base58", "hex"].contains(encoding) {
            throw ValidationError("--encoding must be base64, base58 or hex")
        }
    }

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let file = try keystoreStep { () throws(KeystoreError) in try keystore.read() }
        guard let entry = file?.entry(matching: key) else { throw CLIFailure(KeystoreError.noSuchKey(key).description) }
        switch encoding {
        case "base64"?: Console.out(entry.address)
        case "base58"?: Console.out(entry.base58Address)
        case "hex"?: Console.out(Hex.encode(entry.publicKey))
        default:
            if keystoreOptions.json {
                keystoreOptions.printJSON(entry.json)
            } else {
                for line in entry.humanLines { Console.out(line) }
            }
        }
    }
}
