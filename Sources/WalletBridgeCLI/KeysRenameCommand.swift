import ArgumentParser
import WalletBridgeWallet

/// `keys rename`: a new label; no passphrase (labels are not secret).
struct KeysRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Give a key a new label.")

    @OptionGroup var keystoreOptions: KeystoreOptions

    @Argument(help: "The key: its address (base64 or base58) or its current label.")
    var key: String

    @Argument(help: "The new label: up to 64 characters, unique in the keystore.")
    var label: String

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let entry = try keystoreStep { () throws(KeystoreError) in try keystore.rename(key, to: label) }
        if keystoreOptions.json {
            keystoreOptions.printJSON(entry.json)
        } else {
            Console.out("Renamed \(entry.base58Address) to \"\(entry.label)\".")
        }
    }
}
