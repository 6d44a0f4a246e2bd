/// Keys from a BIP-39 recovery phrase, as wallets derive them: the phrase (and an optional
/// BIP-39 passphrase) gives a 64-byte seed; SLIP-0010 derives an Ed25519 key at a hardened
/// path (`m/44'/501'/0'/0'`, Phantom's and Solflare's first account), BIP-32 a secp256k1 key
/// at any path (`m/44'/60'/0'/0/0`, MetaMask's first account). One phrase can so bring back
/// both a Solana and an Ethereum key.
extension Keystore {
    /// The 32-byte seed (Ed25519) or secret (secp256k1) at `path` for the normalized `phrase`.
    package static func seed(
        fromPhrase phrase: SecureBytes, bip39Passphrase: SecureBytes, path: DerivationPath,
        type: KeystoreFile.KeyType = .ed25519
    ) throws(RecoveryPhraseError) -> SecureBytes {
        let bip39Seed: SecureBytes
        do { bip39Seed = try BIP39.seed(phrase: phrase, passphrase: bip39Passphrase) } catch { throw .phrase(error) }
        switch type {
        case .ed25519:
            do { return try SLIP10.ed25519Key(seed: bip39Seed, path: path) } catch { throw .path(error) }
        case .secp256k1:
            do { return try BIP32.secp256k1Key(seed: bip39Seed, path: path) } catch { throw .secp256k1Path(error) }
        }
    }

    /// Adds the key of `type` at `path` of the normalized `phrase`; the phrase itself is not
    /// stored.
    @discardableResult
    package func addFromPhrase(
        _ phrase: SecureBytes, bip39Passphrase: SecureBytes, path: DerivationPath,
        type: KeystoreFile.KeyType = .ed25519, label: String?,
        passphrase: SecureBytes
    ) throws(RecoveryPhraseError) -> KeystoreFile.Entry {
        let seed = try Self.seed(fromPhrase: phrase, bip39Passphrase: bip39Passphrase, path: path, type: type)
        do {
            return try add(
                seed: seed, type: type, label: label,
                origin: .recoveryPhrase(path: path.description, bip39Passphrase: bip39Passphrase.count > 0),
                passphrase: passphrase)
        } catch {
            throw .keystore(error)
        }
    }
}

/// Why a key could not come from a recovery phrase. No case holds a word of the phrase.
package enum RecoveryPhraseError: Error, CustomStringConvertible {
    case phrase(BIP39.Problem)
    case path(SLIP10.Problem)
    case secp256k1Path(BIP32.Problem)
    case keystore(KeystoreError)

    package var description: String {
        switch self {
        case .phrase(let problem): "\(problem)"
        case .path(let problem): "\(problem)"
        case .secp256k1Path(let problem): "\(problem)"
        case .keystore(let error): error.description
        }
    }
}
