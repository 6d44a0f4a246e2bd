#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import WalletBridge
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys

/// `keys export`: an encrypted backup of some or all keys, or, behind an explicit flag and a
/// question on the terminal, one key's raw secret.
struct KeysExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write an encrypted backup of keys (--backup), or one key's raw secret (--secret).",
        discussion: """
            --backup FILE writes the named keys (every key when none is named) to a new file, in \
            the keystore's own format, encrypted under a backup passphrase of its own (from \
            --backup-passphrase-file, or typed twice on the terminal). `keys import --backup FILE` \
            restores it. A backup never replaces an existing file.

            --secret KEY --output FILE writes the key's secret unencrypted, as solana-keygen does \
            (a JSON array of 64 numbers), or in hex with --secret-format. It asks for \
            a confirmation on the terminal, and writes a new file with mode 0600. Prefer a backup.
            """
    )

    @OptionGroup var keystoreOptions: KeystoreOptions
    @OptionGroup var passphraseOptions: PassphraseOptions
    @OptionGroup var newPassphraseOptions: NewPassphraseOptions

    @Argument(
        help:
            "The keys, by address (base64 or base58, or 0x... for Ethereum) or label; a backup takes every key when none is named."
    )
    var keys: [String] = []

    @Option(help: ArgumentHelp("Write an encrypted backup to this new file.", valueName: "path"), completion: .file())
    var backup: String?

    @Option(
        help: ArgumentHelp("Read the backup's new passphrase from this file (for automation).", valueName: "path"),
        completion: .file())
    var backupPassphraseFile: String?

    @Flag(help: "Export one key's raw, unencrypted secret (asks on the terminal first).")
    var secret = false

    @Option(help: ArgumentHelp("The new file for --secret.", valueName: "path"), completion: .file())
    var output: String?

    @Option(
        help:
            "How --secret writes the key: solana-keypair (64 numbers, as solana-keygen writes; the default for a Solana key) or hex (the 64-byte secret key; for an Ethereum key, its 32-byte secret, as Ethereum wallets import it, and the only form)."
    )
    var secretFormat: String?

    func validate() throws {
        if backup != nil, secret { throw ValidationError("give --backup FILE or --secret, not both") }
        guard backup != nil || secret else {
            throw ValidationError("give --backup FILE or --secret (with --output FILE)")
        }
        if secret {
            guard keys.count == 1 else { throw ValidationError("--secret exports exactly one key: name one") }
            guard output != nil else {
                throw ValidationError("--secret needs --output FILE (a secret is never printed)")
            }
            if let secretFormat, !["solana-keypair", "hex"].contains(secretFormat) {
                throw ValidationError("--secret-format must be solana-keypair or hex")
            }
            if backupPassphraseFile != nil { throw ValidationError("--backup-passphrase-file goes with --backup") }
        } else if output != nil || secretFormat != nil {
            throw ValidationError("--output and --secret-format go with --secret")
        }
    }

    func run() throws {
        let keystore = try keystoreOptions.keystore()
        guard keystore.exists else { throw CLIFailure("there is no keystore at \(keystore.path) yet") }
        if let backup { try writeBackup(of: keystore, to: backup) } else { try writeSecret(of: keystore, to: output!) }
    }

    private func writeBackup(of keystore: Keystore, to path: String) throws {
        var exists = stat()
        if lstat(path, &exists) == 0 {
            throw CLIFailure("\(path) exists; a backup never replaces a file: choose a new name")
        }
        // Keys that are not there are said before anyone types a passphrase.
        let file = try keystoreStep { () throws(KeystoreError) in try keystore.read() }
        for key in keys where file?.entry(matching: key) == nil {
            throw CLIFailure(KeystoreError.noSuchKey(key).description)
        }
        let passphrase = try passphraseOptions.current()
        let backupPassphrase: SecureBytes
        if let backupPassphraseFile {
            do { backupPassphrase = try PassphraseInput.read(path: backupPassphraseFile) } catch {
                throw CLIFailure(error.description)
            }
        } else {
            backupPassphrase = try PassphraseOptions.typedTwice(
                prompt: "Backup passphrase",
                noTerminal: CLIFailure("no terminal to ask for the backup's passphrase: use --backup-passphrase-file"))
        }
        try newPassphraseOptions.check(backupPassphrase, what: "backup passphrase")
        if backupPassphrase.constantTimeEquals(passphrase) {
            Console.warning(
                "the backup passphrase is the keystore's: whoever learns one then opens both; a passphrase of its own is safer"
            )
        }
        let written = try keystoreStep { () throws(KeystoreError) in
            try keystore.exportBackup(keys, passphrase: passphrase, to: path, backupPassphrase: backupPassphrase)
        }
        warnIfWeakKDF()
        if keystoreOptions.json {
            keystoreOptions.printJSON(.object(["backup": .string(path), "keys": .array(written.map(\.json))]))
            return
        }
        Console.out("Wrote an encrypted backup of \(written.count) \(written.count == 1 ? "key" : "keys") to \(path):")
        for entry in written { Console.out("  \(entry.label)  \(entry.displayAddress)") }
        Console.out("Check it with: wallet-bridge keys verify --keystore \(path)  (asks for the backup passphrase)")
        Console.out("Restore it with: wallet-bridge keys import --backup \(path)")
        Console.out("Without the backup passphrase the backup cannot be opened: keep it apart from the file.")
    }

    private func writeSecret(of keystore: Keystore, to path: String) throws {
        guard let terminal = Terminal.open() else {
            throw CLIFailure("exporting a raw secret asks for a confirmation on a terminal, and this command has none")
        }
        let file = try keystoreStep { () throws(KeystoreError) in try keystore.read() }
        guard let entry = file?.entry(matching: keys[0]) else {
            throw CLIFailure(KeystoreError.noSuchKey(keys[0]).description)
        }
        let format = secretFormat ?? (entry.type == .ed25519 ? "solana-keypair" : "hex")
        if entry.type == .secp256k1, format != "hex" {
            throw CLIFailure(
                "\"\(entry.label)\" is an Ethereum key, written in hex only: a solana-keygen file holds Ed25519 keys")
        }
        var exists = stat()
        if lstat(path, &exists) == 0 { throw CLIFailure("\(path) exists; a secret is written only to a new file") }
        terminal.write(
            """
            This writes the secret of "\(entry.label)" (\(entry.displayAddress)) UNENCRYPTED to \(path).
            Anyone who can read that file can sign as this key. An encrypted backup (--backup) is safer.

            """)
        let answer = try terminal.ask("Type export to go on: ")
        guard answer.trimmingASCIIWhitespace() == "export" else {
            throw CLIFailure("not confirmed; nothing was written")
        }
        let passphrase = try passphraseOptions.current()
        let (_, secretKey) = try keystoreStep { () throws(KeystoreError) in
            try keystore.exportSecretKey(keys[0], passphrase: passphrase)
        }
        let text = SecretKeyText.render(secretKey, format: format)
        try SecretFile.create(path, with: text)
        Console.out(
            "Wrote the secret of \"\(entry.label)\" to \(path) (mode 0600). Delete it once it has served its purpose.")
    }
}

/// A secret key (Ed25519's 64 bytes, secp256k1's 32) written as text, in secure memory.
enum SecretKeyText {
    static func render(_ secretKey: SecureBytes, format: String) -> SecureBytes {
        secretKey.withUnsafeBytes { key in
            switch format {
            case "hex":
                let digits = Array("0123456789abcdef".utf8)
                return build(capacity: key.count * 2 + 1) { append in
                    for byte in key { append(digits[Int(byte >> 4)]); append(digits[Int(byte & 0xF)]) }
                    append(UInt8(ascii: "\n"))
                }
            default:
                // solana-keygen's keypair file: `[n,n,…]`, no spaces.
                return build(capacity: key.count * 4 + 3) { append in
                    append(UInt8(ascii: "["))
                    for (index, byte) in key.enumerated() {
                        if index > 0 { append(UInt8(ascii: ",")) }
                        if byte >= 100 { append(UInt8(ascii: "0") + byte / 100) }
                        if byte >= 10 { append(UInt8(ascii: "0") + (byte / 10) % 10) }
                        append(UInt8(ascii: "0") + byte % 10)
                    }
                    append(UInt8(ascii: "]"))
                }
            }
        }
    }

    private static func build(capacity: Int, _ body: (_ append: (UInt8) -> Void) -> Void) -> SecureBytes {
        let buffer = SecureBytes(count: capacity)
        var length = 0
        buffer.withUnsafeMutableBytes { raw in
            body { byte in
                raw[length] = byte
                length += 1
            }
        }
        return buffer.prefix(length)
    }
}

/// A new file holding a secret: created exclusively (never through a link, never over a file)
/// with mode 0600 whatever the umask, written, and flushed to disk.
enum SecretFile {
    static func create(_ path: String, with contents: SecureBytes) throws(CLIFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIFailure("cannot create \(path): \(String(cString: strerror(errno)))") }
        let failure: Int32? = contents.withUnsafeBytes { bytes in
            if fchmod(fd, 0o600) != 0 { return errno }
            if let error = SystemCall.writeAll(fd, bytes) { return error }
            return fsync(fd) == 0 ? nil : errno
        }
        close(fd)
        if let failure {
            unlink(path)
            throw CLIFailure("cannot write \(path): \(String(cString: strerror(failure)))")
        }
    }
}
