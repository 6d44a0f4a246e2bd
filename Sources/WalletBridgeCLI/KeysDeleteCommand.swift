import ArgumentParser
import WalletBridgeWallet
import WalletBridgeKeys

/// `keys delete`: removes a key for good, after confirmation on the terminal.
struct KeysDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract:
            "Delete a key. Its secret is gone for good unless you have a backup (keys export --backup) or its recovery phrase.",
        discussion: "Asks for confirmation on the terminal. Without a terminal it refuses unless --force is given."
    )

    @OptionGroup var keystoreOptions: KeystoreOptions

    @Argument(help: "The key: its address (base64 or base58, or 0x... for Ethereum) or its label.")
    var key: String

    @Flag(help: "Delete without asking.")
    var force = false

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let file = try keystoreStep { () throws(KeystoreError) in try keystore.read() }
        guard let entry = file?.entry(matching: key) else { throw CLIFailure(KeystoreError.noSuchKey(key).description) }
        if !force {
            guard let terminal = Terminal.open() else {
                throw CLIFailure(
                    "refusing to delete \"\(entry.label)\" without confirmation: there is no terminal to ask on; use --force"
                )
            }
            let recovery =
                if case .recoveryPhrase(let path, let bip39Passphrase) = entry.origin {
                    "Its recovery phrase\(bip39Passphrase ? " and BIP-39 passphrase bring" : " brings") it back (at \(path))."
                } else {
                    "Its secret cannot be recovered without a backup; to make one first: wallet-bridge keys export --backup FILE \"\(entry.label)\""
                }
            terminal.write("Delete the key \"\(entry.label)\" (\(entry.displayAddress))? \(recovery)\n")
            let answer = try terminal.ask("Type yes to delete: ")
            guard answer.trimmingASCIIWhitespace() == "yes" else { throw CLIFailure("not deleted") }
        }
        // Deleted by public key, not by what the user typed: the confirmed key is the one removed.
        let deleted = try keystoreStep { () throws(KeystoreError) in try keystore.delete(entry.address) }
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["deleted": deleted.json]))
        } else {
            Console.out("Deleted \"\(deleted.label)\" (\(deleted.displayAddress)).")
        }
    }
}
