import WalletBridgeProtocol

/// The keystore document: what is on disk, decoded and checked, with no secret in clear.
/// Reading it needs no passphrase and runs no Argon2, so GetAccounts stays cheap.
///
/// Version 2 (written since keys could come from a recovery phrase):
/// ```json
/// {
///   "format": "wallet-bridge-keystore",
///   "version": 2,
///   "kdf": {"algorithm": "argon2id13", "salt": "<16 bytes>", "opslimit": 3, "memlimit": 268435456},
///   "cipher": "xchacha20poly1305-ietf",
///   "passphrase_check": {"nonce": "<24 bytes>", "ciphertext": "<16 bytes>"},
///   "keys": [
///     {"type": "ed25519", "public_key": "<32 bytes>", "label": "main", "created": "2025-01-31T12:00:00Z",
///      "origin": {"kind": "recovery_phrase", "path": "m/44'/501'/0'/0'"},
///      "nonce": "<24 bytes>", "ciphertext": "<32-byte seed + 16-byte tag>"}
///   ]
/// }
/// ```
/// Binary fields are standard base64. One passphrase opens the whole keystore: Argon2id turns
/// it and `salt` into a 32-byte key. `passphrase_check` seals nothing under that key, so a
/// wrong passphrase is told apart from a damaged entry. Each entry seals its 32-byte Ed25519
/// seed with associated data (`keyAD`) naming everything else about the entry: its type, public
/// key, label, origin and creation time. Whoever can write the file but lacks the passphrase can
/// still delete entries, but cannot slip in a public key of their own, move a seed to another
/// public key, or relabel or re-date a key: the entry then fails to decrypt, which every unlock
/// checks (see `Keystore.openSeed`).
///
/// Version 1 lacked `type` and `origin`, and its associated data named only the public key.
/// It is still read; the next change made with the passphrase re-seals every entry as
/// version 2 (origin `unknown`) in the same atomic write. A change made without it (`keys
/// delete`) leaves a version 1 file at version 1.
package struct KeystoreFile: Sendable, Equatable {
    /// The `format` member every keystore file carries.
    package static let formatName = "wallet-bridge-keystore"
    /// The version this code writes.
    package static let currentVersion = 2
    /// The versions this code reads.
    package static let readableVersions = [1, 2]
    /// Larger than any real keystore (a key costs about 300 bytes), small enough that a
    /// hostile file cannot make the host read gigabytes.
    package static let maxFileBytes = 16 << 20
    /// The longest label, in Unicode scalars.
    package static let maxLabelScalars = 64

    /// Salt and limits for Argon2id.
    package struct KDF: Sendable, Equatable {
        /// 16 random bytes, new with every passphrase.
        package var salt: [UInt8]
        /// The cost, read back from the file and bounded by `PasswordHash.Limits`.
        package var limits: PasswordHash.Limits
        package init(salt: [UInt8], limits: PasswordHash.Limits) {
            self.salt = salt
            self.limits = limits
        }
    }

    /// A nonce and what XChaCha20-Poly1305 produced with it (ciphertext then tag).
    package struct Sealed: Sendable, Equatable {
        /// 24 random bytes, new with every encryption.
        package var nonce: [UInt8]
        /// The ciphertext followed by the 16-byte Poly1305 tag.
        package var ciphertext: [UInt8]
        package init(nonce: [UInt8], ciphertext: [UInt8]) {
            self.nonce = nonce
            self.ciphertext = ciphertext
        }
    }

    /// The kind of key pair: the curve, which says how long the public key is, how the seed
    /// becomes a key pair, and which chains' addresses the key has.
    package enum KeyType: String, Sendable, Equatable, CaseIterable {
        /// Solana's: a 32-byte seed, a 32-byte public key; walletlib's methods and `solana`
        /// sessions use these.
        case ed25519
        /// Ethereum's: a 32-byte secret scalar, a 33-byte compressed public key; `eip155`
        /// sessions use these.
        case secp256k1

        /// The public key's length as stored.
        package var publicKeyBytes: Int {
            switch self {
            case .ed25519: Ed25519.publicKeyBytes
            case .secp256k1: Secp256k1.compressedPublicKeyBytes
            }
        }

        /// The chains whose name `keys create --type` takes, and `keys list` shows.
        package var chainName: String {
            switch self {
            case .ed25519: "solana"
            case .secp256k1: "ethereum"
            }
        }

        /// The type a name on the command line means: the curve or the chain.
        package init?(named name: String) {
            guard let type = Self.allCases.first(where: { $0.rawValue == name || $0.chainName == name }) else {
                return nil
            }
            self = type
        }
    }

    /// Where a key came from, as far as this keystore knows: shown by `keys list`, so that a
    /// person knows which keys their recovery phrase brings back and which need a backup.
    package enum Origin: Sendable, Equatable {
        /// Made here from the system's random generator: only a backup brings it back.
        case generated
        /// Derived from a BIP-39 recovery phrase at `path` (the phrase itself is not kept), with
        /// or without a BIP-39 passphrase: recorded because the phrase alone does not bring
        /// back a key made with one.
        case recoveryPhrase(path: String, bip39Passphrase: Bool = false)
        /// Imported from a seed, a secret key, a solana-keygen file or a backup.
        case imported
        /// From a version 1 keystore, which did not record it.
        case unknown

        package var kind: String {
            switch self {
            case .generated: "generated"
            case .recoveryPhrase: "recovery_phrase"
            case .imported: "imported"
            case .unknown: "unknown"
            }
        }

        /// What `keys list` says.
        package var summary: String {
            switch self {
            case .generated: "generated here"
            case .recoveryPhrase(let path, false): "from a recovery phrase at \(path)"
            case .recoveryPhrase(let path, true): "from a recovery phrase and its BIP-39 passphrase at \(path)"
            case .imported: "imported"
            case .unknown: "origin not recorded (made before keystore version 2)"
            }
        }

        /// The origin as the associated data spells it: kind, and the path when there is one.
        var authenticatedText: String {
            if case .recoveryPhrase(let path, let bip39Passphrase) = self {
                return "\(kind) \(path)" + (bip39Passphrase ? " bip39_passphrase" : "")
            }
            return kind
        }

        /// Nil when `path` is a derivation path as `DerivationPath` reads one (the one owner of
        /// that syntax), and short enough to show.
        static func pathProblem(_ path: String) -> String? {
            guard path.utf8.count <= 128, (try? DerivationPath(parsing: path)) != nil else {
                return "is not a derivation path like m/44'/501'/0'/0' or m/44'/60'/0'/0/0"
            }
            return nil
        }
    }

    /// One key pair: its public half in clear, its seed (Ed25519) or secret scalar (secp256k1),
    /// 32 bytes either way, sealed.
    package struct Entry: Sendable, Equatable {
        package var type: KeyType
        /// The public key, in clear (`type.publicKeyBytes` long): the address comes from it.
        package var publicKey: [UInt8]
        /// A unique name chosen by the user.
        package var label: String
        /// UTC, ISO 8601 (`2025-01-31T12:00:00Z`). Informational only.
        package var created: String
        package var origin: Origin
        /// The 32-byte seed, sealed under the passphrase's key with `keyAD(for:)`.
        package var sealedSeed: Sealed
        /// The format version whose associated data sealed `sealedSeed`: 1 only in a version 1
        /// file not yet migrated.
        package var sealedVersion: Int

        package init(
            type: KeyType = .ed25519, publicKey: [UInt8], label: String, created: String, origin: Origin = .unknown,
            sealedSeed: Sealed, sealedVersion: Int = KeystoreFile.currentVersion
        ) {
            self.type = type
            self.publicKey = publicKey
            self.label = label
            self.created = created
            self.origin = origin
            self.sealedSeed = sealedSeed
            self.sealedVersion = sealedVersion
        }

        /// The address the wallet names the key by: for Ed25519, walletlib's standard base64
        /// of the public key; for secp256k1, the EIP-55 Ethereum address.
        package var address: String {
            switch type {
            case .ed25519: Base64.encode(publicKey)
            case .secp256k1: ethereumAddress?.description ?? Base64.encode(publicKey)
            }
        }

        /// The address as the key's chain writes it: base58 (Solana) or EIP-55 hex (Ethereum).
        package var displayAddress: String {
            switch type {
            case .ed25519: Base58.encode(publicKey)
            case .secp256k1: address
            }
        }

        /// The Ethereum address of a secp256k1 key; nil for an Ed25519 one.
        package var ethereumAddress: EthereumAddress? {
            type == .secp256k1 ? EthereumAddress(publicKey: publicKey) : nil
        }

        /// `7xKX…3fGh` or `0x5aAe…eAed`: enough to recognise a key in a prompt.
        package var shortAddress: String {
            if let ethereumAddress { return ethereumAddress.short }
            return Base58.short(displayAddress)
        }
    }

    /// How the passphrase becomes the key.
    package var kdf: KDF
    /// Nothing, sealed under that key: tells a wrong passphrase from a damaged entry.
    package var passphraseCheck: Sealed
    /// The keys, in the order they were added.
    package var keys: [Entry]

    package init(kdf: KDF, passphraseCheck: Sealed, keys: [Entry]) {
        self.kdf = kdf
        self.passphraseCheck = passphraseCheck
        self.keys = keys
    }

    /// The version the file is written as: 1 while any entry is still sealed as version 1
    /// (only `Keystore`'s migration, which has the key, re-seals them).
    package var version: Int {
        keys.contains { $0.sealedVersion == 1 } ? 1 : Self.currentVersion
    }

    /// Associated data for the passphrase check. Unchanged by version 2: the check seals
    /// nothing about the entries, and keeping it lets an empty version 1 file become version 2.
    package static func checkAD() -> [UInt8] { Array("wallet-bridge keystore v1 passphrase-check".utf8) + [0] }

    /// Associated data for a key entry's seed: everything public about the entry, so that none
    /// of it can be changed without the keystore key. Fields are separated by a zero byte,
    /// which no label, origin or timestamp may contain.
    package static func keyAD(for entry: Entry) -> [UInt8] {
        if entry.sealedVersion == 1 {
            return Array("wallet-bridge keystore v1 key".utf8) + [0] + entry.publicKey
        }
        var data = Array("wallet-bridge keystore v2 key".utf8) + [0]
        data += Array(entry.type.rawValue.utf8) + [0]
        data += entry.publicKey
        data += Array(entry.label.utf8) + [0]
        data += Array(entry.origin.authenticatedText.utf8) + [0]
        data += Array(entry.created.utf8)
        return data
    }

    /// The entry whose address (base64 or base58) or label is `query`.
    package func entry(matching query: String) -> Entry? {
        if let decoded = Base64.decode(query), decoded.count == Ed25519.publicKeyBytes,
            let entry = keys.first(where: { $0.publicKey == decoded })
        {
            return entry
        }
        if let decoded = Base58.decode(query, maxBytes: Ed25519.publicKeyBytes),
            decoded.count == Ed25519.publicKeyBytes,
            let entry = keys.first(where: { $0.type == .ed25519 && $0.publicKey == decoded })
        {
            return entry
        }
        if let address = EthereumAddress(query), let entry = entry(ethereumAddress: address) { return entry }
        return keys.first { $0.label == query }
    }

    /// The Ed25519 entry for a protocol address: base64 only, as GetAccounts gave it.
    package func entry(address: String) -> Entry? {
        guard let decoded = Base64.decode(address), decoded.count == Ed25519.publicKeyBytes else { return nil }
        return keys.first { $0.type == .ed25519 && $0.publicKey == decoded }
    }

    /// The secp256k1 entry whose Ethereum address is `address`.
    package func entry(ethereumAddress address: EthereumAddress) -> Entry? {
        keys.first { $0.type == .secp256k1 && $0.ethereumAddress == address }
    }

    /// Nil when `label` may name a key, else why not. Labels appear in the consent prompt and
    /// on terminals, so control and bidirectional-override characters, which could disguise
    /// one key as another, are refused.
    package static func labelProblem(_ label: String) -> String? {
        if label.isEmpty { return "it is empty" }
        if label.unicodeScalars.count > maxLabelScalars { return "it is longer than \(maxLabelScalars) characters" }
        for scalar in label.unicodeScalars {
            if scalar.isControl { return "it contains a control character" }
            if (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                || scalar.value == 0x200E || scalar.value == 0x200F
            {
                return "it contains a bidirectional formatting character"
            }
        }
        if label != label.trimmingASCIIWhitespace() { return "it begins or ends with a space" }
        return nil
    }
}

extension Unicode.Scalar {
    /// General category Cc. The ASCII ones without Unicode's tables: each keystore read checks
    /// every label and date, and the table lookups showed in a cold GetAccounts' profile.
    var isControl: Bool { value < 0x80 ? value < 0x20 || value == 0x7F : properties.generalCategory == .control }
}

extension String {
    package func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}

// MARK: - Decoding

extension KeystoreFile {
    /// Decodes and checks a keystore file's bytes. `path` only labels errors.
    package static func decode(_ bytes: [UInt8], path: String) throws(KeystoreError) -> KeystoreFile {
        if bytes.isEmpty { throw .damaged(path: path, reason: "the file is empty") }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes, maxDepth: 8)
        } catch {
            throw .damaged(path: path, reason: "not valid JSON (\(error.description)); was it truncated?")
        }
        let reader = FieldReader(path: path)
        let top = try reader.object(root, "the top level")
        // Format and version first: a newer version may have a different shape, and deserves
        // "use a newer wallet-bridge" rather than a complaint about some field.
        guard case .string(let format)? = top["format"], format == formatName else {
            throw .damaged(path: path, reason: "\"format\" is not \"\(formatName)\"")
        }
        guard let version = top["version"] else { throw .damaged(path: path, reason: "\"version\" is missing") }
        guard case .number(let number) = version,
            let fileVersion = readableVersions.first(where: { number.literal == String($0) })
        else {
            let shown = version.jsonBytes.prefix(32)
            throw .unsupportedVersion(path: path, version: String(decoding: shown, as: UTF8.self))
        }

        let kdfObject = try reader.object(top["kdf"], "kdf")
        guard case .string(PasswordHash.algorithmName)? = kdfObject["algorithm"] else {
            throw .damaged(path: path, reason: "kdf.algorithm is not \"\(PasswordHash.algorithmName)\"")
        }
        let limits = PasswordHash.Limits(
            opslimit: try reader.unsigned(kdfObject["opslimit"], "kdf.opslimit"),
            memlimit: try reader.unsigned(kdfObject["memlimit"], "kdf.memlimit"))
        if let problem = limits.problem { throw .unacceptableLimits(path: path, reason: problem) }
        let kdf = KDF(
            salt: try reader.bytes(kdfObject["salt"], "kdf.salt", count: PasswordHash.saltBytes), limits: limits)

        guard case .string(AEAD.algorithmName)? = top["cipher"] else {
            throw .damaged(path: path, reason: "\"cipher\" is not \"\(AEAD.algorithmName)\"")
        }
        let check = try reader.sealed(top["passphrase_check"], "passphrase_check", plaintextBytes: 0)

        guard case .array(let rawKeys)? = top["keys"] else {
            throw .damaged(path: path, reason: "\"keys\" is not an array")
        }
        var keys: [Entry] = []
        keys.reserveCapacity(rawKeys.count)
        for (index, rawKey) in rawKeys.enumerated() {
            let name = "keys[\(index)]"
            let object = try reader.object(rawKey, name)
            var type = KeyType.ed25519
            if fileVersion >= 2 {
                let typeName = try reader.string(object["type"], "\(name).type")
                guard let known = KeyType(rawValue: typeName) else {
                    throw .damaged(
                        path: path,
                        reason:
                            "\(name).type is not one of: \(KeyType.allCases.map(\.rawValue).joined(separator: ", ")) (a newer wallet-bridge may know it)"
                    )
                }
                type = known
            }
            let publicKey = try reader.bytes(object["public_key"], "\(name).public_key", count: type.publicKeyBytes)
            if type == .secp256k1, EthereumAddress(publicKey: publicKey) == nil {
                throw .damaged(path: path, reason: "\(name).public_key is not a secp256k1 public key")
            }
            let label = try reader.string(object["label"], "\(name).label")
            if let problem = labelProblem(label) {
                throw .damaged(path: path, reason: "\(name).label is unusable: \(problem)")
            }
            let created = try reader.string(object["created"], "\(name).created")
            guard created.utf8.count <= 40, !created.unicodeScalars.contains(where: \.isControl) else {
                throw .damaged(path: path, reason: "\(name).created is not a timestamp")
            }
            let sealedSeed = try reader.sealed(rawKey, name, plaintextBytes: Ed25519.seedBytes)
            var origin = Origin.unknown
            if fileVersion >= 2 { origin = try reader.origin(object["origin"], "\(name).origin") }
            if keys.contains(where: { $0.publicKey == publicKey }) {
                throw .damaged(path: path, reason: "\(name) repeats the public key of an earlier entry")
            }
            if keys.contains(where: { $0.label == label }) {
                throw .damaged(path: path, reason: "\(name) repeats the label of an earlier entry")
            }
            keys.append(
                Entry(
                    type: type, publicKey: publicKey, label: label, created: created, origin: origin,
                    sealedSeed: sealedSeed, sealedVersion: fileVersion))
        }
        return KeystoreFile(kdf: kdf, passphraseCheck: check, keys: keys)
    }

    /// Typed access to decoded JSON, with errors that name the field.
    private struct FieldReader {
        let path: String

        func object(_ value: JSONValue?, _ name: String) throws(KeystoreError) -> [String: JSONValue] {
            guard case .object(let members)? = value else {
                throw .damaged(path: path, reason: "\(name) is not an object")
            }
            return members
        }

        func string(_ value: JSONValue?, _ name: String) throws(KeystoreError) -> String {
            guard case .string(let string)? = value else {
                throw .damaged(path: path, reason: "\(name) is not a string")
            }
            return string
        }

        func origin(_ value: JSONValue?, _ name: String) throws(KeystoreError) -> Origin {
            let members = try object(value, name)
            switch try string(members["kind"], "\(name).kind") {
            case "generated": return .generated
            case "imported": return .imported
            case "unknown": return .unknown
            case "recovery_phrase":
                let path = try string(members["path"], "\(name).path")
                if let problem = Origin.pathProblem(path) {
                    throw .damaged(path: self.path, reason: "\(name).path \(problem)")
                }
                var bip39Passphrase = false
                if let flag = members["bip39_passphrase"] {
                    guard case .bool(let value) = flag else {
                        throw .damaged(path: self.path, reason: "\(name).bip39_passphrase is not true or false")
                    }
                    bip39Passphrase = value
                }
                return .recoveryPhrase(path: path, bip39Passphrase: bip39Passphrase)
            default:
                throw .damaged(
                    path: path, reason: "\(name).kind is not generated, recovery_phrase, imported or unknown")
            }
        }

        func unsigned(_ value: JSONValue?, _ name: String) throws(KeystoreError) -> UInt64 {
            guard case .number(let number)? = value, let integer = UInt64(number.literal) else {
                throw .damaged(path: path, reason: "\(name) is not a whole number")
            }
            return integer
        }

        func bytes(_ value: JSONValue?, _ name: String, count: Int) throws(KeystoreError) -> [UInt8] {
            let text = try string(value, name)
            guard let bytes = Base64.decode(text), bytes.count == count else {
                throw .damaged(path: path, reason: "\(name) is not \(count) bytes of base64")
            }
            return bytes
        }

        func sealed(_ value: JSONValue?, _ name: String, plaintextBytes: Int) throws(KeystoreError) -> Sealed {
            let members = try object(value, name)
            return Sealed(
                nonce: try bytes(members["nonce"], "\(name).nonce", count: AEAD.nonceBytes),
                ciphertext: try bytes(
                    members["ciphertext"], "\(name).ciphertext", count: plaintextBytes + AEAD.tagBytes))
        }
    }
}

// MARK: - Encoding

extension KeystoreFile {
    /// The file's bytes: fixed member order and one key per line, so that a person reading the
    /// file (or a diff of it) sees the structure at a glance.
    package func encode() -> [UInt8] {
        func string(_ text: String) -> String { String(decoding: JSONValue.string(text).jsonBytes, as: UTF8.self) }
        func base64(_ bytes: [UInt8]) -> String { string(Base64.encode(bytes)) }
        func sealed(_ value: Sealed) -> String {
            "\"nonce\": \(base64(value.nonce)), \"ciphertext\": \(base64(value.ciphertext))"
        }
        func origin(_ value: Origin) -> String {
            if case .recoveryPhrase(let path, let bip39Passphrase) = value {
                return "{\"kind\": \(string(value.kind)), \"path\": \(string(path))"
                    + (bip39Passphrase ? ", \"bip39_passphrase\": true}" : "}")
            }
            return "{\"kind\": \(string(value.kind))}"
        }
        var text = "{\n"
        text += "  \"format\": \(string(Self.formatName)),\n"
        text += "  \"version\": \(version),\n"
        text += "  \"kdf\": {\"algorithm\": \(string(PasswordHash.algorithmName)), \"salt\": \(base64(kdf.salt)), "
        text += "\"opslimit\": \(kdf.limits.opslimit), \"memlimit\": \(kdf.limits.memlimit)},\n"
        text += "  \"cipher\": \(string(AEAD.algorithmName)),\n"
        text += "  \"passphrase_check\": {\(sealed(passphraseCheck))},\n"
        if keys.isEmpty {
            text += "  \"keys\": []\n"
        } else {
            text += "  \"keys\": [\n"
            for (index, key) in keys.enumerated() {
                text += "    {"
                if version >= 2 { text += "\"type\": \(string(key.type.rawValue)), " }
                text += "\"public_key\": \(base64(key.publicKey)), \"label\": \(string(key.label)), "
                text += "\"created\": \(string(key.created)), "
                if version >= 2 { text += "\"origin\": \(origin(key.origin)), " }
                text += "\(sealed(key.sealedSeed))}"
                text += index == keys.count - 1 ? "\n" : ",\n"
            }
            text += "  ]\n"
        }
        text += "}\n"
        return Array(text.utf8)
    }
}

/// The keystore parser's entry for the fuzzers (fuzz/), which live in a package of their own and
/// so cannot see `package` declarations. Not API: `@_spi(Fuzzing) import` only.
@_spi(Fuzzing) public enum KeystoreFileFuzzing {
    /// Decodes `bytes` as a keystore file. Nil when they are not one; otherwise whether the
    /// decoded file survives encode and decode unchanged.
    public static func decodedSurvivesRoundTrip(_ bytes: [UInt8]) -> Bool? {
        let path = "fuzz/keystore.json"
        guard let file = try? KeystoreFile.decode(bytes, path: path) else { return nil }
        return (try? KeystoreFile.decode(file.encode(), path: path)) == file
    }
}
