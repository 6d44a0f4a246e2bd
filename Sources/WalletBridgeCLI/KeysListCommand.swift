import ArgumentParser
import WalletBridge
import WalletBridgeWallet
import WalletBridgeKeys

/// `keys list`: the public part; no passphrase needed.
struct KeysListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract:
            "List the keys: label, type, creation time, origin, and address: base64 (the protocol's form) and base58 (Solana's) for a Solana key, EIP-55 hex for an Ethereum key."
    )

    @OptionGroup var keystoreOptions: KeystoreOptions

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let keys = try keystoreStep { () throws(KeystoreError) in try keystore.keys() }
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["keystore": .string(keystore.path), "keys": .array(keys.map(\.json))]))
            return
        }
        guard !keys.isEmpty else {
            Console.out("No keys in \(keystore.path). Create one with: wallet-bridge keys create")
            return
        }
        Console.out("\(keys.count) \(keys.count == 1 ? "key" : "keys") in \(keystore.path):")
        for entry in keys {
            Console.out("")
            for line in entry.humanLines { Console.out(line) }
        }
    }
}
