import ArgumentParser
import WalletBridgeWallet

/// `keys delete`: removes a key for good, after confirmation on the terminal.
struct KeysDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a key. Its secret is gone for good unless you have a backup.",
        discussion: "Asks for confirmation on the terminal. Without a terminal it refuses unless --force is given."
    )

    @OptionGroup var keystoreOptions: KeystoreOptions

    @Argument(help: "The key: its address (base64 or base58) or its label.")
    var key: String

    @Flag(help: "Delete without asking.")
    var force = false

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let file = try keystoreStep { () throws(KeystoreError) in try keystore.read() }
        guard let entry = file?.entry(matching: key) else { throw CLIFailure(KeystoreError.noSuchKey(key).description) }
        if !force {
            guard let terminal = Terminal.open() else {
                throw CLIFailure("refusing to delete \"\(entry.label)\" without confirmation: there is no terminal to ask on; use --force")
            }
            terminal.write("Delete the key \"\(entry.label)\" (\(entry.base58Address))? Its secret cannot be recovered without a backup.\n")
            let answer = try terminal.ask("Type yes to delete: ")
            guard answer.trimmingCharacters(in: " \t\r") == "yes" else { throw CLIFailure("not deleted") }
        }
        // Deleted by public key, not by what the user typed: the confirmed key is the one removed.
        let deleted = try keystoreStep { () throws(KeystoreError) in try keystore.delete(entry.address) }
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["deleted": deleted.json]))
        } else {
            Console.out("Deleted \"\(deleted.label)\" (\(deleted.base58Address)).")
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        guard let first = firstIndex(where: { !characters.contains($0) }),
              let last = lastIndex(where: { !characters.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
