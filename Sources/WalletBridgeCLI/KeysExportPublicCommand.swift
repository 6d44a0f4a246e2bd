import ArgumentParser
import WalletBridgeWallet
import WalletBridgeKeys

/// `keys export-public`: one key's public half, for sharing or for scripts.
struct KeysExportPublicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export-public",
        abstract:
            "Print a key's public key (its address): in base64 and base58 for Solana, as an EIP-55 address for Ethereum. Needs no passphrase."
    )

    @OptionGroup var keystoreOptions: KeystoreOptions

    @Argument(help: "The key: its address (base64 or base58, or 0x... for Ethereum) or its label.")
    var key: String

    @Option(
        help:
            "Print only the public key in this encoding: base64, base58 (Solana) or hex (an Ethereum key's compressed public key), or address (the one the wallet shows)."
    )
    var encoding: String?

    func validate() throws {
        if let encoding, !["base64", "base58", "hex", "address"].contains(encoding) {
            throw ValidationError("--encoding must be base64, base58, hex or address")
        }
    }

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let file = try keystoreStep { () throws(KeystoreError) in try keystore.read() }
        guard let entry = file?.entry(matching: key) else { throw CLIFailure(KeystoreError.noSuchKey(key).description) }
        switch encoding {
        case "base64"?: Console.out(Base64.encode(entry.publicKey))
        case "base58"? where entry.type == .secp256k1:
            throw CLIFailure(
                "\"\(entry.label)\" is an Ethereum key: it has no base58 form; use --encoding address or hex")
        case "base58"?: Console.out(entry.displayAddress)
        case "address"?: Console.out(entry.displayAddress)
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
