import ArgumentParser
import WalletBridgeWallet
import WalletBridgeKeys

/// `keys rename`: a new label. Labels are not secret, but they are sealed with the key, so
/// that nobody without the passphrase can swap them: a rename needs the passphrase.
struct KeysRenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Give a key a new label (needs the passphrase).")

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions

    @Argument(help: "The key: its address (base64 or base58, or 0x... for Ethereum) or its current label.")
    var key: String

    @Argument(help: "The new label: up to 64 characters, unique in the keystore.")
    var label: String

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        // A key that is not there is said before anyone is asked for a passphrase.
        guard try keystoreStep({ () throws(KeystoreError) in try keystore.read()?.entry(matching: key) }) != nil else {
            throw CLIFailure(KeystoreError.noSuchKey(key).description)
        }
        let passphrase = try passphraseOptions.current()
        let entry = try keystoreStep { () throws(KeystoreError) in
            try keystore.rename(key, to: label, passphrase: passphrase)
        }
        if keystoreOptions.json {
            keystoreOptions.printJSON(entry.json)
        } else {
            Console.out("Renamed \(entry.displayAddress) to \"\(entry.label)\".")
        }
    }
}
