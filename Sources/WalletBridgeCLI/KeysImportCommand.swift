#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import WalletBridgeWallet
import WalletBridgeConsent
import WalletBridgeKeys

/// `keys import`: adds a key someone already has: a secret key, a solana-keygen keypair file,
/// a recovery phrase, or an encrypted backup.
struct KeysImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a key: a secret key, a solana-keygen keypair file, a recovery phrase, or a backup.",
        discussion: """
            A secret key (a 32-byte seed, or 64 bytes: the seed then the public key; with --type \
            ethereum, the 32-byte secp256k1 secret as Ethereum wallets export it) is read from \
            --file, or from stdin (with echo off when stdin is a terminal). It may be raw bytes, \
            hex, base64, or a JSON array of byte values; --format picks one when guessing would \
            be wrong.

            --mnemonic reads a BIP-39 recovery phrase from stdin, or from the terminal with echo \
            off, never from the command line, and derives the key at m/44'/501'/0'/0' (Phantom's \
            and Solflare's first account), with --type ethereum at m/44'/60'/0'/0/0 (MetaMask's \
            first address), or where --account or --derivation-path says. One phrase can so \
            bring back a Solana key and an Ethereum key: import it once with each --type.

            --backup FILE restores the keys of a backup that `keys export --backup` wrote; its \
            passphrase comes from --backup-passphrase-file or the terminal.
            """
    )

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions
    @OptionGroup var newPassphraseOptions: NewPassphraseOptions

    @Option(help: "A name for the key, unique in the keystore (default: \"key N\").")
    var label: String?

    @Option(help: ArgumentHelp("Read the key from this file instead of stdin.", valueName: "path"), completion: .file())
    var file: String?

    @Option(help: "How the key is written: auto, raw, hex, base64 or json.")
    var format: String = SecretKeyInput.Format.auto.rawValue

    @Option(
        name: .customLong("solana-keypair"),
        help: ArgumentHelp(
            "Import a solana-keygen keypair file: a JSON array of 64 numbers, the secret then the public key, which must match.",
            valueName: "path"),
        completion: .file())
    var solanaKeypair: String?

    @Flag(help: "Import the key of a BIP-39 recovery phrase, read from stdin or the terminal.")
    var mnemonic = false

    @OptionGroup var keyTypeOptions: KeyTypeOptions
    @OptionGroup var derivationOptions: DerivationOptions

    @Option(
        help: ArgumentHelp("Restore the keys of a backup written by `keys export --backup`.", valueName: "path"),
        completion: .file())
    var backup: String?

    @Option(help: ArgumentHelp("Read the backup's passphrase from this file.", valueName: "path"), completion: .file())
    var backupPassphraseFile: String?

    /// A secret file holds one key: anything this long is something else.
    private static let maxInputBytes = 16 * 1024
    /// 24 words of at most 8 letters, and room for extra spaces and a newline.
    private static let maxPhraseBytes = 1024

    func validate() throws {
        let modes = [solanaKeypair != nil, mnemonic, backup != nil].filter { $0 }.count
        if modes > 1 {
            throw ValidationError("--solana-keypair, --mnemonic and --backup are different imports: give one")
        }
        if modes == 1, file != nil || format != SecretKeyInput.Format.auto.rawValue {
            throw ValidationError(
                "--solana-keypair, --mnemonic and --backup say what they read: leave out --file and --format")
        }
        if backup != nil, label != nil { throw ValidationError("a backup keeps its keys' labels: leave out --label") }
        if keyTypeOptions.keyType != .ed25519, backup != nil || solanaKeypair != nil {
            throw ValidationError(
                "--type goes with a secret key or --mnemonic: \(backup != nil ? "a backup keeps its keys' types" : "a solana-keygen file holds a Solana key")"
            )
        }
        if derivationOptions.isGiven, !mnemonic {
            throw ValidationError("--account, --derivation-path and --bip39-passphrase go with --mnemonic")
        }
        if backupPassphraseFile != nil, backup == nil {
            throw ValidationError("--backup-passphrase-file goes with --backup")
        }
        guard SecretKeyInput.Format(rawValue: format) != nil else {
            throw ValidationError(
                "--format must be one of: \(SecretKeyInput.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if file == nil, solanaKeypair == nil, backup == nil, passphraseOptions.usesStandardInput {
            throw ValidationError(
                "stdin cannot carry both the \(mnemonic ? "phrase" : "key") and the passphrase: use --passphrase-file")
        }
    }

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        if let backup { return try restore(backup, into: keystore) }
        let isNew = !keystore.exists
        // The secret is read first: a phrase that does not check out is refused before anyone
        // is asked for a passphrase.
        let entry: KeystoreFile.Entry
        if mnemonic {
            let phrase = try readPhrase()
            let path = try derivationOptions.path(for: keyTypeOptions.keyType)
            let bip39Passphrase = try derivationOptions.bip39Passphrase(typedTwice: false)
            let passphrase = try keystorePassphrase(isNew: isNew)
            do {
                entry = try keystore.addFromPhrase(
                    phrase, bip39Passphrase: bip39Passphrase, path: path, type: keyTypeOptions.keyType, label: label,
                    passphrase: passphrase)
            } catch {
                throw CLIFailure(error.description)
            }
        } else {
            let secret = try readSecretKey()
            let passphrase = try keystorePassphrase(isNew: isNew)
            entry = try keystoreStep { () throws(KeystoreError) in
                try keystore.importKey(secret, type: keyTypeOptions.keyType, label: label, passphrase: passphrase)
            }
            if keyTypeOptions.type == nil, secret.count == Secp256k1.secretKeyBytes {
                // 32 bytes are a Solana seed and an Ethereum secret alike (MetaMask exports the
                // latter): say which this became, and how to have the other.
                Console.warning(
                    "imported as a Solana (Ed25519) key; if this was an Ethereum secret, delete it (keys delete \"\(entry.label)\") and import it with --type ethereum"
                )
            }
        }
        if isNew { warnIfWeakKDF() }
        if keystoreOptions.json {
            keystoreOptions.printJSON(entry.json)
        } else {
            Console.out("Imported a key into \(keystore.path):")
            for line in entry.humanLines { Console.out(line) }
        }
        if let source = solanaKeypair ?? file {
            Console.warning(
                "\(source) still holds the secret unencrypted; delete it (shred -u \(source)) once you no longer need it"
            )
        }
    }

    private func keystorePassphrase(isNew: Bool) throws(CLIFailure) -> SecureBytes {
        guard isNew else { return try passphraseOptions.current() }
        let passphrase = try passphraseOptions.new()
        try newPassphraseOptions.check(passphrase, label: label)
        return passphrase
    }

    private func readSecretKey() throws(CLIFailure) -> SecureBytes {
        let input = try readInput(
            from: solanaKeypair ?? file, prompt: "Secret key (hex, base64 or JSON; input hidden): ",
            maxBytes: Self.maxInputBytes)
        let chosenFormat = solanaKeypair != nil ? .json : SecretKeyInput.Format(rawValue: format)!
        let secret = try keystoreStep { () throws(KeystoreError) in
            try SecretKeyInput.decode(input, format: chosenFormat)
        }
        // A keypair file holds the public key too: with only 32 numbers, there is nothing to
        // check the secret against, and the file is not what solana-keygen writes.
        if let solanaKeypair, secret.count != Ed25519.secretKeyBytes {
            throw CLIFailure(
                "\(solanaKeypair) holds \(secret.count) numbers; a solana-keygen keypair file holds 64 (the secret, then the public key)"
            )
        }
        return secret
    }

    private func readPhrase() throws(CLIFailure) -> SecureBytes {
        let typed = try readInput(
            from: nil, prompt: "Recovery phrase (words separated by spaces; input hidden): ",
            maxBytes: Self.maxPhraseBytes)
        do { return try BIP39.normalize(typed) } catch { throw CLIFailure("\(error)") }
    }

    private func restore(_ backupPath: String, into keystore: Keystore) throws {
        let backupPassphrase: SecureBytes
        if let backupPassphraseFile {
            do { backupPassphrase = try PassphraseInput.read(path: backupPassphraseFile) } catch {
                throw CLIFailure(error.description)
            }
        } else {
            guard let terminal = Terminal.open() else {
                throw CLIFailure("no terminal to ask for the backup's passphrase: use --backup-passphrase-file")
            }
            backupPassphrase = try terminal.readSecret(prompt: "Backup passphrase: ")
        }
        // The backup is opened first: a wrong backup passphrase is said before anyone types the
        // keystore's.
        let opened = try keystoreStep { () throws(KeystoreError) in
            try Keystore.openBackup(backupPath, backupPassphrase: backupPassphrase)
        }
        let isNew = !keystore.exists
        let passphrase = try keystorePassphrase(isNew: isNew)
        let restored = try keystoreStep { () throws(KeystoreError) in
            try keystore.restore(opened, passphrase: passphrase)
        }
        if isNew { warnIfWeakKDF() }
        if keystoreOptions.json {
            keystoreOptions.printJSON(
                .object([
                    "added": .array(restored.added.map(\.json)),
                    "already_held": .array(restored.alreadyHeld.map(\.json)),
                ]))
            return
        }
        Console.out(
            "Restored \(restored.added.count) of \(restored.added.count + restored.alreadyHeld.count) keys from \(backupPath) into \(keystore.path)."
        )
        for entry in restored.added {
            Console.out("")
            for line in entry.humanLines { Console.out(line) }
        }
        if !restored.alreadyHeld.isEmpty { Console.out("") }
        for entry in restored.alreadyHeld {
            Console.out("Already held, left as it is: \(entry.label) (\(entry.displayAddress))")
        }
    }

    private func readInput(from file: String?, prompt: String, maxBytes: Int) throws(CLIFailure) -> SecureBytes {
        do {
            if let file {
                let fd = open(file, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw CLIFailure("cannot open \(file): \(String(cString: strerror(errno)))") }
                defer { close(fd) }
                return try PassphraseInput.readAll(fd: fd, name: file, maxBytes: maxBytes)
            }
            if isatty(0) == 1, let terminal = Terminal.open() {
                return try terminal.readSecret(prompt: prompt)
            }
            return try PassphraseInput.readAll(fd: 0, name: "stdin", maxBytes: maxBytes)
        } catch let failure as PassphraseInput.Failure {
            throw CLIFailure(failure.description)
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure("cannot read the input")
        }
    }
}
