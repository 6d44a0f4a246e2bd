#if canImport(Glibc)
import Glibc
#endif
import CSodium
import WalletBridgeProtocol
import WalletBridgeSystem

/// The encrypted keystore at `path`: reading its public part, changing it, and unlocking keys.
///
/// Reads take no lock and no passphrase. Every change holds the folder lock from reading the
/// current file to renaming the new one over it, and goes through `AtomicFile.write`.
public struct Keystore: Sendable {
    /// The keystore file. Its folder is created with mode 0700 on the first write.
    public let path: String
    /// The wall clock a new key's `created` is read from: a test sets it to know the time written.
    package var wall: @Sendable () -> Int = Clocks.system.wall

    public init(path: String) { self.path = path }

    /// The current file, or nil when no keystore exists yet (no key was ever created).
    package func read() throws(KeystoreError) -> KeystoreFile? {
        let bytes: [UInt8]?
        do {
            bytes = try AtomicFile.read(path, maxBytes: KeystoreFile.maxFileBytes)
        } catch {
            switch error.problem {
            case .system(let operation, let reason): throw .io(path: path, operation: operation, reason: reason)
            case .notARegularFile, .notPrivate: throw .io(path: path, operation: "read", reason: error.reason)
            case .tooLarge(let size, let limit):
                throw .damaged(path: path, reason: "\(size) bytes, more than the \(limit) a keystore may have")
            case .changedWhileRead: throw .damaged(path: path, reason: error.reason)
            }
        }
        guard let bytes else { return nil }
        return try KeystoreFile.decode(bytes, path: path)
    }

    /// The keys, in creation order; empty when there is no keystore yet.
    package func keys() throws(KeystoreError) -> [KeystoreFile.Entry] {
        try read()?.keys ?? []
    }

    /// True when a keystore file exists (and so has a passphrase already).
    package var exists: Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Warnings about permissions that let other users read the keystore or its folder.
    package func exposureWarnings() -> [String] {
        [AtomicFile.split(path).folder, path].compactMap(AtomicFile.exposure(of:))
    }

    // MARK: Changes

    /// Generates a new key pair of `type` and adds it. On a new keystore `passphrase` becomes
    /// its passphrase; otherwise it must be the keystore's passphrase.
    @discardableResult
    package func create(label: String?, type: KeystoreFile.KeyType = .ed25519, passphrase: SecureBytes)
        throws(KeystoreError) -> KeystoreFile.Entry
    {
        let seed = SecureBytes(count: Ed25519.seedBytes)
        // Any 32 bytes are an Ed25519 seed; a secp256k1 secret must be below the group order,
        // which 32 random bytes miss with a probability below 2^-127.
        repeat {
            seed.withUnsafeMutableBytes { Sodium.randomBytes(into: $0) }
        } while type == .secp256k1 && !Secp256k1.isValidSecretKey(seed)
        return try add(seed: seed, type: type, label: label, origin: .generated, passphrase: passphrase)
    }

    /// Adds an existing key: a 32-byte seed, or a 64-byte libsodium/Solana secret key (seed
    /// then public key), whose second half must be the first half's public key.
    @discardableResult
    /// A secp256k1 key is its 32-byte secret (as Ethereum wallets export it).
    package func importKey(
        _ secret: SecureBytes, type: KeystoreFile.KeyType = .ed25519, label: String?,
        origin: KeystoreFile.Origin = .imported,
        passphrase: SecureBytes
    ) throws(KeystoreError) -> KeystoreFile.Entry {
        if type == .secp256k1 {
            guard secret.count == Secp256k1.secretKeyBytes else {
                throw .invalidSecretKey("an Ethereum secret key is 32 bytes, got \(secret.count)")
            }
            return try add(seed: secret, type: type, label: label, origin: origin, passphrase: passphrase)
        }
        switch secret.count {
        case Ed25519.seedBytes:
            return try add(seed: secret, label: label, origin: origin, passphrase: passphrase)
        case Ed25519.secretKeyBytes:
            let seed = secret.prefix(Ed25519.seedBytes)
            let claimed = secret.withUnsafeBytes { Array($0[Ed25519.seedBytes...]) }
            guard try Self.publicKey(seed: seed, type: .ed25519) == claimed else {
                throw .invalidSecretKey("its last 32 bytes are not the public key of its first 32 bytes")
            }
            return try add(seed: seed, label: label, origin: origin, passphrase: passphrase)
        default:
            throw .invalidSecretKey("expected 32 bytes (a seed) or 64 bytes (a secret key), got \(secret.count)")
        }
    }

    /// Gives the key matching `query` a new label. Needs the passphrase: the label is sealed
    /// with the key (see `KeystoreFile.keyAD`), so that nobody without it can relabel keys.
    @discardableResult
    package func rename(_ query: String, to label: String, passphrase: SecureBytes) throws(KeystoreError)
        -> KeystoreFile.Entry
    {
        if let problem = KeystoreFile.labelProblem(label) { throw .invalidLabel(problem) }
        return try modifyUnlocked(passphrase: passphrase) { file, key throws(KeystoreError) in
            guard let current = file.entry(matching: query),
                let index = file.keys.firstIndex(where: { $0.publicKey == current.publicKey })
            else {
                throw .noSuchKey(query)
            }
            if file.keys.contains(where: { $0.label == label && $0.publicKey != current.publicKey }) {
                throw .duplicateLabel(label)
            }
            let seed = try Self.openSeed(file.keys[index], key: key)
            file.keys[index].label = label
            file.keys[index].sealedSeed = Self.sealSeed(seed, for: file.keys[index], key: key)
            return file.keys[index]
        }
    }

    /// Removes the key matching `query`, for good.
    @discardableResult
    package func delete(_ query: String) throws(KeystoreError) -> KeystoreFile.Entry {
        try modify { file throws(KeystoreError) in
            guard let entry = file.entry(matching: query) else { throw .noSuchKey(query) }
            file.keys.removeAll { $0.publicKey == entry.publicKey }
            return entry
        }
    }

    /// Re-encrypts every key under `new`, with a fresh salt and fresh nonces. Every key is
    /// decrypted and checked before anything is written: a damaged entry stops the change.
    package func changePassphrase(from old: SecureBytes, to new: SecureBytes) throws(KeystoreError) {
        guard new.count > 0 else { throw .emptyPassphrase }
        try modify { file throws(KeystoreError) in
            let oldKey = try Self.deriveKey(file, passphrase: old)
            let seeds = try file.keys.map { entry throws(KeystoreError) in try Self.openSeed(entry, key: oldKey) }
            let (kdf, newKey) = try Self.newKDF(passphrase: new)
            file.kdf = kdf
            file.passphraseCheck = Self.sealCheck(key: newKey)
            for index in file.keys.indices {
                // Version 1 entries become version 2 here too.
                file.keys[index].sealedVersion = KeystoreFile.currentVersion
                file.keys[index].sealedSeed = Self.sealSeed(seeds[index], for: file.keys[index], key: newKey)
            }
        }
    }

    /// Checks `passphrase` against the keystore and every key in it. Returns the key count.
    package func verify(passphrase: SecureBytes) throws(KeystoreError) -> Int {
        guard let file = try read() else { return 0 }
        let key = try Self.deriveKey(file, passphrase: passphrase)
        for entry in file.keys { _ = try Self.openSeed(entry, key: key) }
        return file.keys.count
    }

    // MARK: Unlocking

    /// The secret key of `entry`, as stored in `file`, in secure memory (see `secretKey`). Runs
    /// Argon2: seconds of CPU and up to the stored memlimit.
    package static func unlock(_ entry: KeystoreFile.Entry, in file: KeystoreFile, passphrase: SecureBytes)
        throws(KeystoreError) -> SecureBytes
    {
        try secretKey(entry, key: deriveKey(file, passphrase: passphrase))
    }

    /// The secret key of `entry` under the keystore key `key` (from `deriveKey`, or kept by the
    /// agent's `UnlockCache`), as its curve's signing takes it: Ed25519's 64 bytes (seed then
    /// public key), secp256k1's 32-byte scalar. Fast: no Argon2.
    package static func secretKey(_ entry: KeystoreFile.Entry, key: SecureBytes) throws(KeystoreError) -> SecureBytes {
        let seed = try openSeed(entry, key: key)
        switch entry.type {
        case .ed25519: return try keyPair(seed: seed).secretKey
        case .secp256k1: return seed
        }
    }

    /// True when `key` is the keystore key of `file`: it opens the passphrase check.
    package static func isKey(_ key: SecureBytes, of file: KeystoreFile) -> Bool {
        AEAD.open(
            file.passphraseCheck.ciphertext, key: key, nonce: file.passphraseCheck.nonce,
            associatedData: KeystoreFile.checkAD()) != nil
    }

    // MARK: Internals

    /// Adds the key pair of `type` of a 32-byte `seed` (a secp256k1 secret scalar for
    /// `.secp256k1`), recording `origin`.
    @discardableResult
    package func add(
        seed: SecureBytes, type: KeystoreFile.KeyType = .ed25519, label: String?, origin: KeystoreFile.Origin,
        passphrase: SecureBytes
    ) throws(KeystoreError) -> KeystoreFile.Entry {
        if let label, let problem = KeystoreFile.labelProblem(label) { throw .invalidLabel(problem) }
        let publicKey = try Self.publicKey(seed: seed, type: type)
        return try modifyOrCreate(passphrase: passphrase) { file, key throws(KeystoreError) in
            if let held = file.keys.first(where: { $0.publicKey == publicKey }) {
                throw .duplicateKey(address: held.address)
            }
            let chosen = label ?? Self.defaultLabel(among: file.keys)
            if file.keys.contains(where: { $0.label == chosen }) { throw .duplicateLabel(chosen) }
            return Self.append(
                seed: seed, type: type, publicKey: publicKey, label: chosen, created: Self.timestamp(wall()),
                origin: origin, to: &file, key: key)
        }
    }

    @discardableResult
    static func append(
        seed: SecureBytes, type: KeystoreFile.KeyType = .ed25519, publicKey: [UInt8], label: String, created: String,
        origin: KeystoreFile.Origin, to file: inout KeystoreFile, key: SecureBytes
    ) -> KeystoreFile.Entry {
        var entry = KeystoreFile.Entry(
            type: type, publicKey: publicKey, label: label, created: created, origin: origin,
            sealedSeed: .init(nonce: [], ciphertext: []))
        entry.sealedSeed = sealSeed(seed, for: entry, key: key)
        file.keys.append(entry)
        return entry
    }

    /// Runs `change` on the current file under the folder lock, then writes the result. A
    /// symbolic link at `path` is written through (see `AtomicFile.replacementTarget`): the lock,
    /// the temporary file and the rename are in the folder of the file it leads to.
    private func modify<R>(_ change: (inout KeystoreFile) throws(KeystoreError) -> R) throws(KeystoreError) -> R {
        let target = try KeystoreError.mapping(AtomicFile.replacementTarget(of: path))
        return try AtomicFile.withFolderLock(AtomicFile.split(target).folder, failed: KeystoreError.init) {
            () throws(KeystoreError) -> R in
            AtomicFile.removeLeftovers(of: target)
            guard var file = try read() else {
                throw .io(path: path, operation: "open", reason: "no keystore exists yet; create a key first")
            }
            let result = try change(&file)
            try KeystoreError.mapping(AtomicFile.write(file.encode(), to: target))
            return result
        }
    }

    /// Like `modify`, with the keystore's derived key; creates the keystore (with `passphrase`
    /// as its passphrase) when there is none.
    func modifyOrCreate<R>(
        passphrase: SecureBytes, _ change: (inout KeystoreFile, SecureBytes) throws(KeystoreError) -> R
    ) throws(KeystoreError) -> R {
        guard passphrase.count > 0 else { throw .emptyPassphrase }
        let target = try KeystoreError.mapping(AtomicFile.replacementTarget(of: path))
        let folder = AtomicFile.split(target).folder
        try KeystoreError.mapping(AtomicFile.ensureFolder(folder))
        return try AtomicFile.withFolderLock(folder, failed: KeystoreError.init) { () throws(KeystoreError) -> R in
            AtomicFile.removeLeftovers(of: target)
            var file: KeystoreFile
            let key: SecureBytes
            if let existing = try read() {
                file = existing
                key = try Self.deriveKey(file, passphrase: passphrase)
                try Self.migrate(&file, key: key)
            } else {
                let (kdf, newKey) = try Self.newKDF(passphrase: passphrase)
                file = KeystoreFile(kdf: kdf, passphraseCheck: Self.sealCheck(key: newKey), keys: [])
                key = newKey
            }
            let result = try change(&file, key)
            try KeystoreError.mapping(AtomicFile.write(file.encode(), to: target))
            return result
        }
    }

    /// Like `modify`, with the keystore's derived key (and a version 1 file migrated).
    private func modifyUnlocked<R>(
        passphrase: SecureBytes, _ change: (inout KeystoreFile, SecureBytes) throws(KeystoreError) -> R
    ) throws(KeystoreError) -> R {
        try modify { file throws(KeystoreError) -> R in
            let key = try Self.deriveKey(file, passphrase: passphrase)
            try Self.migrate(&file, key: key)
            return try change(&file, key)
        }
    }

    /// Re-seals every version 1 entry as version 2 (origin unknown). Each is opened first, so a
    /// damaged entry stops the change instead of being re-sealed as if it were sound.
    private static func migrate(_ file: inout KeystoreFile, key: SecureBytes) throws(KeystoreError) {
        for index in file.keys.indices where file.keys[index].sealedVersion == 1 {
            let seed = try openSeed(file.keys[index], key: key)
            file.keys[index].sealedVersion = KeystoreFile.currentVersion
            file.keys[index].origin = .unknown
            file.keys[index].sealedSeed = sealSeed(seed, for: file.keys[index], key: key)
        }
    }

    /// The keystore key that `passphrase` derives for `file` (Argon2: seconds of CPU), or
    /// `wrongPassphrase`.
    package static func deriveKey(_ file: KeystoreFile, passphrase: SecureBytes) throws(KeystoreError) -> SecureBytes {
        let key: SecureBytes
        do {
            key = try PasswordHash.deriveKey(
                keyBytes: AEAD.keyBytes, passphrase: passphrase, salt: file.kdf.salt, limits: file.kdf.limits)
        } catch {
            switch error {
            case .limitsOutOfRange(let reason): throw .unacceptableLimits(path: "", reason: reason)
            case .derivationFailed: throw .keyDerivationFailed
            }
        }
        guard isKey(key, of: file) else { throw .wrongPassphrase }
        return key
    }

    static func openSeed(_ entry: KeystoreFile.Entry, key: SecureBytes) throws(KeystoreError) -> SecureBytes {
        let sealed = entry.sealedSeed
        guard
            let seed = AEAD.open(
                sealed.ciphertext, key: key, nonce: sealed.nonce, associatedData: KeystoreFile.keyAD(for: entry)),
            seed.count == Ed25519.seedBytes,
            (try? publicKey(seed: seed, type: entry.type)) == entry.publicKey
        else {
            throw .keyDamaged(address: entry.address)
        }
        return seed
    }

    static func newKDF(passphrase: SecureBytes) throws(KeystoreError) -> (KeystoreFile.KDF, SecureBytes) {
        let kdf = KeystoreFile.KDF(salt: Sodium.randomBytes(count: PasswordHash.saltBytes), limits: .forNewKeystores)
        do {
            return (
                kdf,
                try PasswordHash.deriveKey(
                    keyBytes: AEAD.keyBytes, passphrase: passphrase, salt: kdf.salt, limits: kdf.limits)
            )
        } catch {
            throw .keyDerivationFailed
        }
    }

    static func sealCheck(key: SecureBytes) -> KeystoreFile.Sealed {
        let nonce = Sodium.randomBytes(count: AEAD.nonceBytes)
        return .init(
            nonce: nonce,
            ciphertext: AEAD.seal(SecureBytes(count: 0), key: key, nonce: nonce, associatedData: KeystoreFile.checkAD())
        )
    }

    /// `seed` sealed for `entry`, whose other members (and `sealedVersion`) are already final.
    static func sealSeed(_ seed: SecureBytes, for entry: KeystoreFile.Entry, key: SecureBytes) -> KeystoreFile.Sealed {
        let nonce = Sodium.randomBytes(count: AEAD.nonceBytes)
        return .init(
            nonce: nonce,
            ciphertext: AEAD.seal(seed, key: key, nonce: nonce, associatedData: KeystoreFile.keyAD(for: entry)))
    }

    /// The public key of a 32-byte seed of `type` (compressed for secp256k1).
    static func publicKey(seed: SecureBytes, type: KeystoreFile.KeyType) throws(KeystoreError) -> [UInt8] {
        switch type {
        case .ed25519:
            return try keyPair(seed: seed).publicKey
        case .secp256k1:
            guard let publicKey = Secp256k1.publicKey(of: seed) else {
                throw .invalidSecretKey("not a secp256k1 secret key (zero, or not below the curve's order)")
            }
            return publicKey
        }
    }

    /// The Ed25519 key pair of a 32-byte seed; the secret half stays in secure memory.
    static func keyPair(seed: SecureBytes) throws(KeystoreError) -> (publicKey: [UInt8], secretKey: SecureBytes) {
        guard seed.count == Ed25519.seedBytes else { throw .invalidSecretKey("a seed is 32 bytes") }
        Sodium.ensureInitialized()
        var publicKey = [UInt8](repeating: 0, count: Ed25519.publicKeyBytes)
        let secretKey = SecureBytes(count: Ed25519.secretKeyBytes)
        let status: Int32 = seed.withUnsafeBytes { seedBuffer in
            secretKey.withUnsafeMutableBytes { secretBuffer in
                crypto_sign_seed_keypair(
                    &publicKey, secretBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    seedBuffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard status == 0 else { throw .invalidSecretKey("libsodium rejected the seed") }
        return (publicKey, secretKey)
    }

    static func defaultLabel(among keys: [KeystoreFile.Entry]) -> String {
        var number = keys.count + 1
        while keys.contains(where: { $0.label == "key \(number)" }) { number += 1 }
        return "key \(number)"
    }

    /// The system's wall time now, as a keystore writes times (for a caller without a clock of its own).
    package static func timestampNow() -> String { timestamp(Clocks.system.wall()) }

    /// `seconds` since 1970, as a keystore writes times: ISO 8601 in UTC.
    package static func timestamp(_ seconds: Int) -> String {
        Files.timeText(seconds, format: "%Y-%m-%dT%H:%M:%SZ", utc: true)
    }
}
