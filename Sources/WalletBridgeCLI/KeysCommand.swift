import ArgumentParser
import WalletBridge
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys

/// `wallet-bridge keys …`: the keystore, managed by hand.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage the encrypted keystore.",
        discussion: """
            Keys are Ed25519 key pairs for Solana, or secp256k1 key pairs for Ethereum \
            (--type ethereum). Their secret halves are encrypted with XChaCha20-Poly1305 \
            under a key derived from your passphrase by Argon2id; their public halves, labels, \
            origins and creation times can be read without it, but not changed without it. The keystore is \
            $XDG_DATA_HOME/wallet-bridge/keystore.json unless --keystore, \
            WALLET_BRIDGE_KEYSTORE or "keystore" in the configuration file says otherwise.

            Passphrases are read from the terminal with echo off. For automation, \
            --passphrase-file, --passphrase-fd or WALLET_BRIDGE_PASSPHRASE_FILE give it \
            without a terminal; anyone who can read that file can use the keys.
            """,
        subcommands: [
            KeysCreateCommand.self, KeysListCommand.self, KeysImportCommand.self, KeysExportCommand.self,
            KeysExportPublicCommand.self,
            KeysRenameCommand.self, KeysDeleteCommand.self, KeysChangePassphraseCommand.self, KeysVerifyCommand.self,
        ]
    )
}

/// Where the keystore is, and how to print.
struct KeystoreOptions: ParsableArguments {
    @Option(
        name: .customLong("keystore"),
        help: ArgumentHelp(
            "The keystore file (or a folder to hold keystore.json).", valueName: "path"), completion: .file())
    var path: String?

    @Flag(help: "Print JSON for scripts instead of text for people.")
    var json = false

    /// The keystore this command works on, warning on stderr when others can read it.
    func keystore() throws(CLIFailure) -> Keystore {
        // The configuration is read only when it could matter: a broken one must not stop
        // someone who says where the keystore is.
        var configured: String?
        if path == nil, Environment.string(KeystoreLocation.environmentVariable) == nil {
            do {
                configured = try WalletConfig.load(path: WalletConfig.defaultPath).keystore
            } catch {
                throw CLIFailure("\(error)")
            }
        }
        guard let resolved = KeystoreLocation.resolve(option: path, configured: configured) else {
            throw CLIFailure("cannot tell where the keystore is: HOME is not set; use --keystore")
        }
        let keystore = Keystore(path: resolved)
        for warning in keystore.exposureWarnings() { Console.warning(warning) }
        return keystore
    }

    /// Prints `value` as one line of JSON.
    func printJSON(_ value: JSONValue) {
        Console.out(String(decoding: value.jsonBytes, as: UTF8.self))
    }
}

/// Where the keystore's current passphrase comes from.
struct PassphraseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Read the passphrase from this file instead of the terminal (for automation; one trailing newline is ignored).",
            valueName: "path"), completion: .file())
    var passphraseFile: String?

    @Option(
        name: .customLong("passphrase-fd"),
        help: ArgumentHelp(
            "Read the passphrase from this open file descriptor until end of file (for automation).", valueName: "n"))
    var passphraseFD: Int32?

    static let fileVariable = PassphraseSources.fileVariable

    /// The keystore's passphrase: from the options, `WALLET_BRIDGE_PASSPHRASE_FILE`, or the
    /// terminal, in that order.
    func current() throws(CLIFailure) -> SecureBytes {
        if let supplied = try supplied() { return supplied }
        guard let terminal = Terminal.open() else { throw noTerminal }
        return try terminal.readSecret(prompt: "Keystore passphrase: ")
    }

    /// A passphrase for a new keystore: from the options or the environment, else typed twice
    /// on the terminal.
    func new(prompt: String = "New keystore passphrase") throws(CLIFailure) -> SecureBytes {
        if let supplied = try supplied() { return supplied }
        return try Self.typedTwice(prompt: prompt, noTerminal: noTerminal)
    }

    /// True when the passphrase would come from stdin (`--passphrase-fd 0`).
    var usesStandardInput: Bool { passphraseFD == 0 }

    private func supplied() throws(CLIFailure) -> SecureBytes? {
        do {
            if let passphraseFD {
                return try PassphraseInput.read(fd: passphraseFD, name: "file descriptor \(passphraseFD)")
            }
            if let passphraseFile { return try PassphraseInput.read(path: passphraseFile) }
            if let file = Environment.string(Self.fileVariable) { return try PassphraseInput.read(path: file) }
        } catch {
            throw CLIFailure(error.description)
        }
        return nil
    }

    private var noTerminal: CLIFailure {
        CLIFailure(
            "no terminal to ask for the passphrase: use --passphrase-file, --passphrase-fd or \(Self.fileVariable)")
    }

    static func typedTwice(prompt: String, noTerminal: CLIFailure) throws(CLIFailure) -> SecureBytes {
        guard let terminal = Terminal.open() else { throw noTerminal }
        let first = try terminal.readSecret(prompt: "\(prompt): ")
        guard first.count > 0 else { throw CLIFailure("the passphrase is empty") }
        let second = try terminal.readSecret(prompt: "\(prompt), again: ")
        guard first.constantTimeEquals(second) else { throw CLIFailure("the two passphrases differ") }
        return first
    }
}

extension KeystoreFile.Entry {
    /// What `--json` prints for a key: everything public about it.
    var json: JSONValue {
        var origin: [String: JSONValue] = ["kind": .string(self.origin.kind)]
        if case .recoveryPhrase(let path, let bip39Passphrase) = self.origin {
            origin["path"] = .string(path)
            if bip39Passphrase { origin["bip39_passphrase"] = .bool(true) }
        }
        var members: [String: JSONValue] = [
            "label": .string(label), "type": .string(type.rawValue), "chain": .string(type.chainName),
            "address": .string(address),
            "created": .string(created), "origin": .object(origin),
        ]
        // Solana's base58 beside walletlib's base64; an Ethereum address has one form.
        if type == .ed25519 { members["base58"] = .string(displayAddress) }
        return .object(members)
    }

    /// What a person reads.
    var humanLines: [String] {
        let heading =
            "\(label)  (\(type.rawValue) for \(type.chainName.capitalized), created \(created), \(origin.summary))"
        switch type {
        case .ed25519: return [heading, "  base64: \(address)", "  base58: \(displayAddress)"]
        case .secp256k1: return [heading, "  address: \(address)"]
        }
    }
}

/// Runs a keystore operation, turning its error into the CLI's plain message.
func keystoreStep<R>(_ body: () throws(KeystoreError) -> R) throws(CLIFailure) -> R {
    do {
        return try body()
    } catch {
        throw CLIFailure(error.description)
    }
}

/// Says so on stderr when a keystore was just written with the test-only weak Argon2 limits.
func warnIfWeakKDF() {
    #if WALLET_BRIDGE_TEST_HOOKS
    if PasswordHash.Limits.forNewKeystores == .weakestForTests {
        Console.warning(
            "WALLET_BRIDGE_TEST_WEAK_KDF=1 is set: the keystore was encrypted with the weakest Argon2 limits. For tests only."
        )
    }
    #endif
}
