import ArgumentParser
import WalletBridgeWallet

/// Which key of a recovery phrase, and the phrase's own BIP-39 passphrase: shared by
/// `keys create --recovery-phrase` and `keys import --mnemonic`.
struct DerivationOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The account to derive: m/44'/501'/N'/0' (default 0, the first account in Phantom and Solflare).", valueName: "n"))
    var account: UInt32?

    @Option(help: ArgumentHelp(
        "The SLIP-0010 path to derive instead, hardened indices only (default m/44'/501'/0'/0').", valueName: "path"))
    var derivationPath: String?

    @Flag(name: .customLong("bip39-passphrase"), help: "Ask on the terminal for the phrase's BIP-39 passphrase (its \"25th word\"), if it has one.")
    var asksBIP39Passphrase = false

    @Option(name: .customLong("bip39-passphrase-file"), help: ArgumentHelp(
        "Read the phrase's BIP-39 passphrase from this file (one trailing newline is ignored).", valueName: "path"), completion: .file())
    var bip39PassphraseFile: String?

    /// True when any of these options was given (they mean nothing without a phrase).
    var isGiven: Bool {
        account != nil || derivationPath != nil || asksBIP39Passphrase || bip39PassphraseFile != nil
    }

    func validate() throws {
        if account != nil, derivationPath != nil { throw ValidationError("give --account or --derivation-path, not both") }
        if let account, account >= DerivationPath.hardened { throw ValidationError("--account must be below 2147483648") }
        if asksBIP39Passphrase, bip39PassphraseFile != nil {
            throw ValidationError("give --bip39-passphrase or --bip39-passphrase-file, not both")
        }
    }

    /// The path to derive.
    func path() throws(CLIFailure) -> DerivationPath {
        if let derivationPath {
            do { return try DerivationPath(parsing: derivationPath) } catch { throw CLIFailure("--derivation-path: \(error)") }
        }
        return .solana(account: account ?? 0)
    }

    /// The BIP-39 passphrase: empty unless one was asked for. A new phrase's is typed twice,
    /// since a typo would make a phrase that restores a different wallet.
    func bip39Passphrase(typedTwice: Bool) throws(CLIFailure) -> SecureBytes {
        if let bip39PassphraseFile {
            do { return try PassphraseInput.read(path: bip39PassphraseFile) } catch { throw CLIFailure(error.description) }
        }
        guard asksBIP39Passphrase else { return SecureBytes(count: 0) }
        let noTerminal = CLIFailure("no terminal to ask for the BIP-39 passphrase: use --bip39-passphrase-file")
        if typedTwice { return try PassphraseOptions.typedTwice(prompt: "BIP-39 passphrase for the phrase", noTerminal: noTerminal) }
        guard let terminal = Terminal.open() else { throw noTerminal }
        return try terminal.readSecret(prompt: "BIP-39 passphrase for the phrase: ")
    }
}

/// `--allow-weak`, for every command that sets a passphrase.
struct NewPassphraseOptions: ParsableArguments {
    @Flag(help: "Accept a passphrase that the strength check refuses (too short, a dictionary word, the label).")
    var allowWeak = false

    /// Refuses a trivial `passphrase` unless --allow-weak was given, saying why.
    func check(_ passphrase: SecureBytes, label: String? = nil, what: String = "passphrase") throws(CLIFailure) {
        guard let weakness = PassphraseStrength.weakness(of: passphrase, label: label, dictionary: BIP39.englishWords) else { return }
        if allowWeak {
            Console.warning("the \(what) is weak (\(weakness)); used anyway because of --allow-weak")
            return
        }
        throw CLIFailure("the \(what) is too weak: \(weakness). Pass --allow-weak to use it anyway")
    }
}
