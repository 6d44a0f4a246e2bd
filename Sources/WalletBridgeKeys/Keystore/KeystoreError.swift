import WalletBridgeSystem
/// Why a keystore operation failed. Every message is safe to show: none holds a secret, a
/// passphrase or a byte of key material, only paths, addresses and labels.
public enum KeystoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be read or written: `operation` failed with `reason` (strerror).
    case io(path: String, operation: String, reason: String)
    /// The file is not a keystore this program can read: truncated, not JSON, a field missing
    /// or of the wrong size.
    case damaged(path: String, reason: String)
    /// A keystore format this program does not know, probably written by a newer version.
    case unsupportedVersion(path: String, version: String)
    /// The stored Argon2 limits are outside what this program agrees to spend.
    case unacceptableLimits(path: String, reason: String)
    /// The passphrase does not open the keystore.
    case wrongPassphrase
    /// The backup passphrase does not open the backup at `path`.
    case wrongBackupPassphrase(path: String)
    /// The passphrase is right but this key's ciphertext does not authenticate, or decrypts
    /// to a key that does not match its public key: the file was altered.
    case keyDamaged(address: String)
    /// Argon2 could not run with the stored limits (in practice: out of memory).
    case keyDerivationFailed
    /// No key matches what the user typed (an address or a label).
    case noSuchKey(String)
    /// The key being added is already in the keystore.
    case duplicateKey(address: String)
    /// Another key already has this label; labels select keys, so they must be unique.
    case duplicateLabel(String)
    case invalidLabel(String)
    case invalidSecretKey(String)
    case emptyPassphrase

    public var description: String {
        switch self {
        case .io(let path, let operation, let reason):
            "cannot \(operation) \(path): \(reason)"
        case .damaged(let path, let reason):
            "the keystore \(path) is damaged or not a keystore: \(reason)"
        case .unsupportedVersion(let path, let version):
            "the keystore \(path) has format version \(version), which this wallet-bridge does not read (it reads versions \(KeystoreFile.readableVersions.map(String.init).joined(separator: " and "))); use a newer wallet-bridge"
        case .unacceptableLimits(let path, let reason):
            "the keystore \(path) asks for Argon2 limits this wallet-bridge refuses (\(reason)); the file may have been tampered with"
        case .wrongPassphrase:
            "wrong passphrase"
        case .wrongBackupPassphrase(let path):
            "wrong passphrase for the backup \(path) (its own, set when it was written, not the keystore's)"
        case .keyDamaged(let address):
            "the key \(address) does not decrypt with the right passphrase: its entry in the keystore was altered or corrupted"
        case .keyDerivationFailed:
            "Argon2 key derivation failed (not enough memory for the keystore's limits?)"
        case .noSuchKey:
            // The query is not repeated: a person who pastes a secret key where an address
            // belongs must not see it echoed into a terminal's scrollback or a log.
            "no key has that address or label (give an address in base64 or base58, or a label; see `wallet-bridge keys list`)"
        case .duplicateKey(let address):
            "the keystore already holds the key \(address)"
        case .duplicateLabel(let label):
            "another key is already labelled \"\(label)\""
        case .invalidLabel(let reason):
            "invalid label: \(reason)"
        case .invalidSecretKey(let reason):
            "not a usable secret key: \(reason)"
        case .emptyPassphrase:
            "the passphrase is empty"
        }
    }
}

extension KeystoreError {
    /// A file operation's failure as the keystore reports it: `.io`, in the same words.
    package init(_ error: AtomicFileError) {
        self = .io(path: error.path, operation: error.operation, reason: error.reason)
    }

    /// `body`'s result; its file operation's failure as `.io`.
    @discardableResult
    package static func mapping<R>(_ body: @autoclosure () throws(AtomicFileError) -> R) throws(KeystoreError) -> R {
        do {
            return try body()
        } catch {
            throw KeystoreError(error)
        }
    }
}
