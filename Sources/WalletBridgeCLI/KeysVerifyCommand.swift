import ArgumentParser
import WalletBridgeWallet
import WalletBridgeKeys

/// `keys verify`: proves the passphrase opens every key, without changing anything.
struct KeysVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that the passphrase decrypts every key and that each matches its public key.")

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        guard keystore.exists else { throw CLIFailure("there is no keystore at \(keystore.path) yet") }
        let passphrase = try passphraseOptions.current()
        let count = try keystoreStep { () throws(KeystoreError) in try keystore.verify(passphrase: passphrase) }
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["keys": .number(.init(count))]))
        } else {
            Console.out(
                "The passphrase opens all \(count) \(count == 1 ? "key" : "keys"); each matches its public key.")
        }
    }
}
