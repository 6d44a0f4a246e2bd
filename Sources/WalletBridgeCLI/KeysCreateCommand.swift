import ArgumentParser
import WalletBridgeWallet
import WalletBridgeKeys

/// `keys create`: a new key pair from the system's CSPRNG, or from a new recovery phrase.
struct KeysCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new key.",
        discussion: """
            The first key sets the keystore's passphrase (asked twice); later keys need that passphrase.

            --type ethereum makes a secp256k1 key for Ethereum (eip155) sessions instead of an \
            Ed25519 key for Solana; `keys list` shows each key's type and address.

            With --recovery-phrase, the key comes from a new BIP-39 recovery phrase (24 words, or \
            12 with --words 12) at m/44'/501'/0'/0', as Phantom and Solflare derive it, or with \
            --type ethereum at m/44'/60'/0'/0/0, as MetaMask does: the phrase restores the key \
            anywhere, here with `keys import --mnemonic`. The phrase is shown once, on the \
            terminal only (never on stdout or stderr, never in a log), and is not stored: to \
            hold the Ethereum key of a phrase that made a Solana key (or the other way round), \
            import the same phrase with `keys import --mnemonic --type ethereum`.
            """
    )

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions
    @OptionGroup var newPassphraseOptions: NewPassphraseOptions

    @Option(help: "A name for the key, unique in the keystore (default: \"key N\").")
    var label: String?

    @Flag(help: "Derive the key from a new BIP-39 recovery phrase, shown once on the terminal.")
    var recoveryPhrase = false

    @Option(help: "How many words the recovery phrase has: 12 or 24.")
    var words = 24

    @OptionGroup var keyTypeOptions: KeyTypeOptions
    @OptionGroup var derivationOptions: DerivationOptions

    func validate() throws {
        guard [12, 24].contains(words) else { throw ValidationError("--words must be 12 or 24") }
        if !recoveryPhrase, words != 24 || derivationOptions.isGiven {
            throw ValidationError(
                "--words, --account, --derivation-path and --bip39-passphrase go with --recovery-phrase")
        }
    }

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let isNew = !keystore.exists
        // Everything that can fail is asked before a phrase is shown: a phrase written down for
        // a key that was then not created would be a trap.
        let terminal = recoveryPhrase ? try phraseTerminal() : nil
        let type = keyTypeOptions.keyType
        let path = try derivationOptions.path(for: type)
        if recoveryPhrase, let label { try checkLabelIsFree(label, in: keystore) }
        let passphrase = isNew ? try passphraseOptions.new() : try passphraseOptions.current()
        if isNew {
            try newPassphraseOptions.check(passphrase, label: label)
        } else if recoveryPhrase {
            _ = try keystoreStep { () throws(KeystoreError) in try keystore.verify(passphrase: passphrase) }
        }
        let entry: KeystoreFile.Entry
        if let terminal {
            let bip39Passphrase = try derivationOptions.bip39Passphrase(typedTwice: true)
            let phrase = BIP39.generate(wordCount: words)
            RecoveryPhraseDisplay.show(phrase, withBIP39Passphrase: bip39Passphrase.count > 0, on: terminal)
            do {
                entry = try keystore.addFromPhrase(
                    phrase, bip39Passphrase: bip39Passphrase, path: path, type: type, label: label,
                    passphrase: passphrase)
            } catch {
                throw CLIFailure("\(error). No key was added: discard the phrase that was shown")
            }
        } else {
            entry = try keystoreStep { () throws(KeystoreError) in
                try keystore.create(label: label, type: type, passphrase: passphrase)
            }
        }
        if isNew { warnIfWeakKDF() }
        if keystoreOptions.json {
            keystoreOptions.printJSON(entry.json)
        } else {
            Console.out("Created a key in \(keystore.path):")
            for line in entry.humanLines { Console.out(line) }
        }
    }

    private func checkLabelIsFree(_ label: String, in keystore: Keystore) throws(CLIFailure) {
        if let problem = KeystoreFile.labelProblem(label) {
            throw CLIFailure(KeystoreError.invalidLabel(problem).description)
        }
        let taken = try keystoreStep { () throws(KeystoreError) in try keystore.keys().contains { $0.label == label } }
        if taken { throw CLIFailure(KeystoreError.duplicateLabel(label).description) }
    }

    private func phraseTerminal() throws(CLIFailure) -> Terminal {
        guard let terminal = Terminal.open() else {
            throw CLIFailure(
                "a recovery phrase is shown only on a terminal, and this command has none: run it in one (without --recovery-phrase, `keys create` needs no terminal)"
            )
        }
        return terminal
    }
}

/// Shows a new recovery phrase on the terminal, numbered, waits until the person has written
/// it down, then clears it from the screen and the scrollback.
enum RecoveryPhraseDisplay {
    static let clearScreenAndScrollback = "\u{1B}[2J\u{1B}[3J\u{1B}[H"

    static func show(_ phrase: SecureBytes, withBIP39Passphrase: Bool, on terminal: Terminal) {
        let columns = 4
        // Interrupted at the prompt (Ctrl-C), the words must leave the screen all the same.
        terminal.clearOnInterrupt(
            clearScreenAndScrollback + "No key was created; the phrase that was shown is not in use.\n")
        defer { terminal.disarmClearOnInterrupt() }
        phrase.withUnsafeBytes { bytes in
            let words = bytes.split(separator: UInt8(ascii: " "))
            let holders =
                withBIP39Passphrase
                ? "Anyone who has them and your BIP-39 passphrase has this key; the words alone do not bring it back,\nso keep the passphrase too."
                : "Anyone who has them has this key; without them (or a backup), a lost keystore is a lost key."
            terminal.write(
                """

                Your recovery phrase, \(words.count) words. Write them down, in order, and keep them offline.
                \(holders)


                """)
            for (index, word) in words.enumerated() {
                let number = String(index + 1)
                terminal.write(String(repeating: " ", count: 4 - number.count) + number + ". ")
                terminal.writeSecret(UnsafeRawBufferPointer(rebasing: word))
                let last = index % columns == columns - 1 || index == words.count - 1
                terminal.write(last ? "\n" : String(repeating: " ", count: max(1, 10 - word.count)))
            }
        }
        // Enter, or the end of input: either way the words leave the screen.
        _ = try? terminal.ask("\nPress Enter once you have written them down (they are then cleared from the screen): ")
        terminal.write(clearScreenAndScrollback)
    }
}
