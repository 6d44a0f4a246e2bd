/// Keys from a BIP-39 recovery phrase, as Solana wallets derive them: the phrase (and an
/// optional BIP-39 passphrase) gives a 64-byte seed, and SLIP-0010 derives the Ed25519 key at
/// a hardened path, `m/44'/501'/0'/0'` for Phantom's and Solflare's first account.
extension Keystore {
    /// The 32-byte Ed25519 seed at `path` for the normalized `phrase`.
    package static func seed(
        fromPhrase phrase: SecureBytes, bip39Passphrase: SecureBytes, path: DerivationPath
    ) throws(RecoveryPhraseError) -> SecureBytes {
        let bip39Seed: SecureBytes
        do { bip39Seed = try BIP39.seed(phrase: phrase, passphrase: bip39Passphrase) } catch { throw .phrase(error) }
        do { return try SLIP10.ed25519Key(seed: bip39Seed, path: path) } catch { throw .path(error) }
    }

    /// Adds the key at `path` of the normalized `phrase`; the phrase itself is not stored.
    @discardableResult
    package func addFromPhrase(
        _ phrase: SecureBytes, bip39Passphrase: SecureBytes, path: DerivationPath, label: String?, passphrase: SecureBytes
    ) throws(RecoveryPhraseError) -> KeystoreFile.Entry {
        let seed = try Self.seed(fromPhrase: phrase, bip39Passphrase: bip39Passphrase, path: path)
        do {
            return try add(seed: seed, label: label, origin: .recoveryPhrase(path: path.description, bip39Passphrase: bip39Passphrase.count > 0), passphrase: passphrase)
        } catch {
            throw .keystore(error)
        }
    }
}

/// Why a key could not come from a recovery phrase. No case holds a word of the phrase.
package enum RecoveryPhraseError: Error, CustomStringConvertible {
    case phrase(BIP39.Problem)
    case path(SLIP10.Problem)
    case keystore(KeystoreError)

    package var description: String {
        switch self {
        case .phrase(let problem): "\(problem)"
        case .path(let problem): "\(problem)"
        case .keystore(let error): error.description
        }
    }
}
