import ArgumentParser
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys

/// `keys change-passphrase`: re-encrypts every key under a new passphrase.
struct KeysChangePassphraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-passphrase",
        abstract: "Re-encrypt every key under a new passphrase (with a fresh salt).",
        discussion: """
            The current passphrase comes from --passphrase-file, --passphrase-fd, \
            WALLET_BRIDGE_PASSPHRASE_FILE or the terminal; the new one from \
            --new-passphrase-file, --new-passphrase-fd, WALLET_BRIDGE_NEW_PASSPHRASE_FILE or the \
            terminal (typed twice); it must pass the strength check unless --allow-weak is given. \
            The change is atomic: an interruption leaves the old keystore.
            """
    )

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions
    @OptionGroup var newPassphraseOptions: NewPassphraseOptions

    @Option(
        help: ArgumentHelp("Read the new passphrase from this file (for automation).", valueName: "path"),
        completion: .file())
    var newPassphraseFile: String?

    @Option(
        name: .customLong("new-passphrase-fd"),
        help: ArgumentHelp(
            "Read the new passphrase from this open file descriptor (for automation).", valueName: "n"))
    var newPassphraseFD: Int32?

    static let newFileVariable = "WALLET_BRIDGE_NEW_PASSPHRASE_FILE"

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        guard keystore.exists else { throw CLIFailure("there is no keystore at \(keystore.path) yet") }
        let old = try passphraseOptions.current()
        let new = try newPassphrase()
        try newPassphraseOptions.check(new, what: "new passphrase")
        let count = try keystoreStep { () throws(KeystoreError) -> Int in
            try keystore.changePassphrase(from: old, to: new)
            return try keystore.keys().count
        }
        warnIfWeakKDF()
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["keys": .number(.init(count))]))
        } else {
            Console.out("Passphrase changed; \(count) \(count == 1 ? "key" : "keys") re-encrypted.")
        }
    }

    private func newPassphrase() throws(CLIFailure) -> SecureBytes {
        do {
            if let newPassphraseFD {
                return try PassphraseInput.read(fd: newPassphraseFD, name: "file descriptor \(newPassphraseFD)")
            }
            if let newPassphraseFile { return try PassphraseInput.read(path: newPassphraseFile) }
            if let file = Environment.string(Self.newFileVariable) { return try PassphraseInput.read(path: file) }
        } catch {
            throw CLIFailure(error.description)
        }
        return try PassphraseOptions.typedTwice(
            prompt: "New keystore passphrase",
            noTerminal: CLIFailure(
                "no terminal to ask for the new passphrase: use --new-passphrase-file, --new-passphrase-fd or \(Self.newFileVariable)"
            ))
    }
}
