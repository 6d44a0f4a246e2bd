import ArgumentParser
import WalletBridgeWallet
import WalletBridgeConsent
import WalletBridgeKeys

/// `--type`: which kind of key `keys create` and `keys import` make. Shared, so that both
/// take the same names.
struct KeyTypeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The kind of key: solana (Ed25519, the default) or ethereum (secp256k1). The curve names ed25519 and secp256k1 work too.",
            valueName: "type"))
    var type: String?

    func validate() throws {
        guard let type, KeystoreFile.KeyType(named: type) == nil else { return }
        let hint =
            type.lowercased().hasPrefix("eth")
            ? " (did you mean ethereum?)" : type.lowercased().hasPrefix("sol") ? " (did you mean solana?)" : ""
        throw ValidationError("--type must be solana or ethereum\(hint)")
    }

    /// The type asked for (checked by `validate`), Solana's when none was.
    var keyType: KeystoreFile.KeyType { type.flatMap(KeystoreFile.KeyType.init(named:)) ?? .ed25519 }
}

/// Which key of a recovery phrase, and the phrase's own BIP-39 passphrase: shared by
/// `keys create --recovery-phrase` and `keys import --mnemonic`.
struct DerivationOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The account to derive: m/44'/501'/N'/0' for Solana (default 0, the first account in Phantom and Solflare), m/44'/60'/0'/0/N for Ethereum (MetaMask's N-th address).",
            valueName: "n"))
    var account: UInt32?

    @Option(
        help: ArgumentHelp(
            "The path to derive instead: SLIP-0010 for Solana (hardened indices only), BIP-32 for Ethereum.",
            valueName: "path"))
    var derivationPath: String?

    @Flag(
        name: .customLong("bip39-passphrase"),
        help: "Ask on the terminal for the phrase's BIP-39 passphrase (its \"25th word\"), if it has one.")
    var asksBIP39Passphrase = false

    @Option(
        name: .customLong("bip39-passphrase-file"),
        help: ArgumentHelp(
            "Read the phrase's BIP-39 passphrase from this file (one trailing newline is ignored).", valueName: "path"),
        completion: .file())
    var bip39PassphraseFile: String?

    /// True when any of these options was given (they mean nothing without a phrase).
    var isGiven: Bool {
        account != nil || derivationPath != nil || asksBIP39Passphrase || bip39PassphraseFile != nil
    }

    func validate() throws {
        if account != nil, derivationPath != nil {
            throw ValidationError("give --account or --derivation-path, not both")
        }
        if let account, account >= DerivationPath.hardened {
            throw ValidationError("--account must be below 2147483648")
        }
        if asksBIP39Passphrase, bip39PassphraseFile != nil {
            throw ValidationError("give --bip39-passphrase or --bip39-passphrase-file, not both")
        }
    }

    /// The path to derive for a key of `type`.
    func path(for type: KeystoreFile.KeyType) throws(CLIFailure) -> DerivationPath {
        if let derivationPath {
            do { return try DerivationPath(parsing: derivationPath) } catch {
                throw CLIFailure("--derivation-path: \(error)")
            }
        }
        switch type {
        case .ed25519: return .solana(account: account ?? 0)
        case .secp256k1: return .ethereum(index: account ?? 0)
        }
    }

    /// The BIP-39 passphrase: empty unless one was asked for. A new phrase's is typed twice,
    /// since a typo would make a phrase that restores a different wallet.
    func bip39Passphrase(typedTwice: Bool) throws(CLIFailure) -> SecureBytes {
        if let bip39PassphraseFile {
            do { return try PassphraseInput.read(path: bip39PassphraseFile) } catch {
                throw CLIFailure(error.description)
            }
        }
        guard asksBIP39Passphrase else { return SecureBytes(count: 0) }
        let noTerminal = CLIFailure("no terminal to ask for the BIP-39 passphrase: use --bip39-passphrase-file")
        if typedTwice {
            return try PassphraseOptions.typedTwice(prompt: "BIP-39 passphrase for the phrase", noTerminal: noTerminal)
        }
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
        guard let weakness = PassphraseStrength.weakness(of: passphrase, label: label, dictionary: BIP39.englishWords)
        else { return }
        if allowWeak {
            Console.warning("the \(what) is weak (\(weakness)); used anyway because of --allow-weak")
            return
        }
        throw CLIFailure("the \(what) is too weak: \(weakness). Pass --allow-weak to use it anyway")
    }
}
