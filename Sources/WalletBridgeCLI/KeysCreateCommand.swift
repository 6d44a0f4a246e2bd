import ArgumentParser
import WalletBridgeWallet

/// `keys create`: a new key pair from the system's CSPRNG.
struct KeysCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new key.",
        discussion: "The first key sets the keystore's passphrase (asked twice); later keys need that passphrase."
    )

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions

    @Option(help: "A name for the key, unique in the keystore (default: \"key N\").")
    var label: String?

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let isNew = !keystore.exists
        let passphrase = isNew ? try passphraseOptions.new() : try passphraseOptions.current()
        let entry = try keystoreStep { () throws(KeystoreError) in try keystore.create(label: label, passphrase: passphrase) }
        if isNew { warnIfWeakKDF() }
        if keystoreOptions.json {
            keystoreOptions.printJSON(entry.json)
        } else {
            Console.out("Created a key in \(keystore.path):")
            for line in entry.humanLines { Console.out(line) }
        }
    }
}
