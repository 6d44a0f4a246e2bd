#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeSystem

/// Encrypted backups, and the one way a raw secret leaves the keystore.
///
/// A backup is a keystore file in the keystore's own format, under a passphrase of its own:
/// `keys import --backup` reads it, and so could `--keystore FILE` in an emergency. Entries keep
/// their label, creation time and origin, all still sealed with the seed.
extension Keystore {
    /// What a restore did: the keys added, and those the keystore already held.
    package struct Restored: Sendable {
        package var added: [KeystoreFile.Entry] = []
        package var alreadyHeld: [KeystoreFile.Entry] = []
    }

    /// Writes the keys matching `queries` (every key when empty) to a new file at `backupPath`,
    /// sealed under `backupPassphrase`. Refuses to replace an existing file: a backup written
    /// over the only other copy of a key would lose it.
    package func exportBackup(
        _ queries: [String], passphrase: SecureBytes, to backupPath: String, backupPassphrase: SecureBytes
    ) throws(KeystoreError) -> [KeystoreFile.Entry] {
        guard backupPassphrase.count > 0 else { throw .emptyPassphrase }
        guard let file = try read(), !file.keys.isEmpty else {
            throw .io(path: path, operation: "back up", reason: "the keystore holds no keys")
        }
        var chosen: [KeystoreFile.Entry] = []
        for query in queries {
            guard let entry = file.entry(matching: query) else { throw .noSuchKey(query) }
            if !chosen.contains(where: { $0.publicKey == entry.publicKey }) { chosen.append(entry) }
        }
        if queries.isEmpty { chosen = file.keys }

        let key = try Self.deriveKey(file, passphrase: passphrase)
        let seeds = try chosen.map { entry throws(KeystoreError) in try Self.openSeed(entry, key: key) }
        let (kdf, backupKey) = try Self.newKDF(passphrase: backupPassphrase)
        var backup = KeystoreFile(kdf: kdf, passphraseCheck: Self.sealCheck(key: backupKey), keys: [])
        for (entry, seed) in zip(chosen, seeds) {
            // A version 1 entry's origin reads as unknown (it was never recorded), and stays so.
            Self.append(
                seed: seed, type: entry.type, publicKey: entry.publicKey, label: entry.label, created: entry.created,
                origin: entry.origin, to: &backup, key: backupKey)
        }
        var info = stat()
        if lstat(backupPath, &info) == 0 {
            throw .io(
                path: backupPath, operation: "write the backup to",
                reason: "the file exists; choose a new name (a backup never replaces a file)")
        }
        try KeystoreError.mapping(AtomicFile.ensureFolder(AtomicFile.split(backupPath).folder))
        try KeystoreError.mapping(AtomicFile.write(backup.encode(), to: backupPath))
        return backup.keys
    }

    /// A backup's keys, decrypted and checked: what `importBackup` adds.
    package struct OpenedBackup: Sendable {
        package let path: String
        package let entries: [KeystoreFile.Entry]
        fileprivate let seeds: [SecureBytes]
    }

    /// Opens the backup at `backupPath` with `backupPassphrase`, decrypting and checking every
    /// key, so that a wrong backup passphrase is said before the keystore's is asked for.
    package static func openBackup(_ backupPath: String, backupPassphrase: SecureBytes) throws(KeystoreError)
        -> OpenedBackup
    {
        guard let backup = try Keystore(path: backupPath).read() else {
            throw .io(path: backupPath, operation: "open", reason: "no such file")
        }
        let backupKey: SecureBytes
        do {
            backupKey = try deriveKey(backup, passphrase: backupPassphrase)
        } catch .wrongPassphrase {
            throw .wrongBackupPassphrase(path: backupPath)
        }
        let seeds = try backup.keys.map { entry throws(KeystoreError) in try openSeed(entry, key: backupKey) }
        return OpenedBackup(path: backupPath, entries: backup.keys, seeds: seeds)
    }

    /// Adds the keys of the backup at `backupPath` (opened with `backupPassphrase`) to this
    /// keystore (opened, or created, with `passphrase`). Every backed-up key is decrypted and
    /// checked before anything is written.
    package func importBackup(
        from backupPath: String, backupPassphrase: SecureBytes, passphrase: SecureBytes
    ) throws(KeystoreError) -> Restored {
        try restore(Self.openBackup(backupPath, backupPassphrase: backupPassphrase), passphrase: passphrase)
    }

    /// Adds an opened backup's keys. Keys already held are left as they are; a label already
    /// taken by another key gets " (2)", " (3)"… appended.
    package func restore(_ opened: OpenedBackup, passphrase: SecureBytes) throws(KeystoreError) -> Restored {
        try modifyOrCreate(passphrase: passphrase) { file, key throws(KeystoreError) -> Restored in
            var restored = Restored()
            for (entry, seed) in zip(opened.entries, opened.seeds) {
                if let held = file.keys.first(where: { $0.publicKey == entry.publicKey }) {
                    restored.alreadyHeld.append(held)
                    continue
                }
                let label = Self.freeLabel(entry.label, among: file.keys)
                restored.added.append(
                    Self.append(
                        seed: seed, type: entry.type, publicKey: entry.publicKey, label: label, created: entry.created,
                        origin: entry.origin, to: &file, key: key))
            }
            return restored
        }
    }

    /// The 64-byte secret key (seed then public key) of the key matching `query`, for the
    /// deliberate raw export: the caller has asked the person, and writes it to a 0600 file.
    package func exportSecretKey(_ query: String, passphrase: SecureBytes) throws(KeystoreError) -> (
        KeystoreFile.Entry, SecureBytes
    ) {
        guard let file = try read(), let entry = file.entry(matching: query) else { throw .noSuchKey(query) }
        return (entry, try Self.unlock(entry, in: file, passphrase: passphrase))
    }

    /// `label`, or `label (2)`, `label (3)`…: the first that no key in `keys` has and that
    /// is still a valid label.
    static func freeLabel(_ label: String, among keys: [KeystoreFile.Entry]) -> String {
        var candidate = label
        var number = 2
        while keys.contains(where: { $0.label == candidate }) || KeystoreFile.labelProblem(candidate) != nil {
            let suffix = " (\(number))"
            candidate =
                String(
                    label.unicodeScalars.prefix(KeystoreFile.maxLabelScalars - suffix.unicodeScalars.count).map(
                        Character.init)) + suffix
            number += 1
        }
        return candidate
    }
}
