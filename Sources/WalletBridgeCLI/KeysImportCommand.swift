#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import WalletBridgeWallet

/// `keys import`: adds a key someone already has.
struct KeysImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a key: a 32-byte seed or a 64-byte secret key (seed then public key).",
        discussion: """
            The key is read from --file, or from stdin (with echo off when stdin is a terminal). \
            It may be raw bytes, hex, base64, or a JSON array of byte values (a Solana CLI \
            keypair file); --format picks one when guessing would be wrong.
            """
    )

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions

    @Option(help: "A name for the key, unique in the keystore (default: \"key N\").")
    var label: String?

    @Option(help: ArgumentHelp("Read the key from this file instead of stdin.", valueName: "path"), completion: .file())
    var file: String?

    @Option(help: "How the key is written: auto, raw, hex, base64 or json.")
    var format: String = SecretKeyInput.Format.auto.rawValue

    @Option(
        name: .customLong("solana-keypair"),
        help: ArgumentHelp("Import a solana-keygen keypair file: a JSON array of 64 numbers, the secret then the public key, which must match.", valueName: "path"),
        completion: .file())
    var solanaKeypair: String?

    /// A secret file holds one key: anything this long is something else.
    private static let maxInputBytes = 16 * 1024

    func validate() throws {
        if solanaKeypair != nil, file != nil || format != SecretKeyInput.Format.auto.rawValue {
            throw ValidationError("--solana-keypair names the file and its format: leave out --file and --format")
        }
        guard SecretKeyInput.Format(rawValue: format) != nil else {
            throw ValidationError("--format must be one of: \(SecretKeyInput.Format.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if file == nil, solanaKeypair == nil, passphraseOptions.usesStandardInput {
            throw ValidationError("stdin cannot carry both the key and the passphrase: use --file for the key")
        }
    }

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        let input = try readInput(from: solanaKeypair ?? file)
        let chosenFormat = solanaKeypair != nil ? .json : SecretKeyInput.Format(rawValue: format)!
        let secret = try keystoreStep { () throws(KeystoreError) in try SecretKeyInput.decode(input, format: chosenFormat) }
        // A keypair file holds the public key too: with only 32 numbers, there is nothing to
        // check the secret against, and the file is not what solana-keygen writes.
        if solanaKeypair != nil, secret.count != Ed25519.secretKeyBytes {
            throw CLIFailure("\(solanaKeypair!) holds \(secret.count) numbers; a solana-keygen keypair file holds 64 (the secret, then the public key)")
        }
        let isNew = !keystore.exists
        let passphrase = isNew ? try passphraseOptions.new() : try passphraseOptions.current()
        let entry = try keystoreStep { () throws(KeystoreError) in
            try keystore.importKey(secret, label: label, passphrase: passphrase)
        }
        if isNew { warnIfWeakKDF() }
        if keystoreOptions.json {
            keystoreOptions.printJSON(entry.json)
        } else {
            Console.out("Imported a key into \(keystore.path):")
            for line in entry.humanLines { Console.out(line) }
        }
    }

    private func readInput(from file: String?) throws(CLIFailure) -> SecureBytes {
        do {
            if let file {
                let fd = open(file, O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { throw CLIFailure("cannot open \(file): \(String(cString: strerror(errno)))") }
                defer { close(fd) }
                return try PassphraseInput.readAll(fd: fd, name: file, maxBytes: Self.maxInputBytes)
            }
            if isatty(0) == 1, let terminal = Terminal.open() {
                return try terminal.readSecret(prompt: "Secret key (hex, base64 or JSON; input hidden): ")
            }
            return try PassphraseInput.readAll(fd: 0, name: "stdin", maxBytes: Self.maxInputBytes)
        } catch let failure as PassphraseInput.Failure {
            throw CLIFailure(failure.description)
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure("cannot read the key")
        }
    }
}
