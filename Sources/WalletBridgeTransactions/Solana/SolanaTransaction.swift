import WalletBridgeSystem
import WalletBridgeKeys

// The wire format of Solana transactions and messages (legacy and version 0), read strictly:
// every length bounded by what is left of the input before anything is allocated, every index
// checked against the accounts it names, nothing left over. What the runtime's own sanitizing
// refuses is refused here too, so the wallet never shows a dialog for a transaction the network
// would reject as malformed.

/// A Solana transaction as the wire carries it: a compact-u16 count of 64-byte signatures,
/// the signatures, then the message they sign (legacy or version 0).
package struct SolanaTransaction: Sendable, Equatable {
    /// The most a transaction may be on the wire: an IPv6 packet's 1280 bytes less headers.
    package static let maxBytes = 1232

    /// One 64-byte signature per required signer, in the order of the message's first
    /// account keys; 64 zero bytes where that signer has not signed yet.
    package var signatures: [[UInt8]]
    package let message: SolanaMessage

    /// Reads a whole serialized transaction (no trailing bytes), or throws naming the field.
    /// The number of signatures must be the number the message's header requires.
    package init(bytes: [UInt8]) throws(TransactionError) {
        guard bytes.count <= Self.maxBytes else {
            throw TransactionError(
                field: "",
                problem:
                    "is \(DisplayText.grouped(bytes.count)) bytes, over the \(DisplayText.grouped(Self.maxBytes)) a Solana transaction may be"
            )
        }
        var reader = SolanaWireReader(bytes)
        let count = try reader.compactU16("signatures")
        guard count * Ed25519.signatureBytes <= reader.remaining else {
            throw TransactionError(
                field: "signatures",
                problem: "ends before its \(count) signatures of 64 bytes each (the transaction is truncated)")
        }
        var signatures: [[UInt8]] = []
        signatures.reserveCapacity(count)
        for _ in 0..<count { signatures.append(try reader.take(Ed25519.signatureBytes, "signatures")) }
        let message = try SolanaMessage(parsing: Array(bytes[reader.offset...]), prefix: "message.")
        guard count == message.requiredSignatures else {
            throw TransactionError(
                field: "signatures",
                problem: "has \(count) signatures, but the message's header requires \(message.requiredSignatures)")
        }
        (self.signatures, self.message) = (signatures, message)
    }

    /// Reads a transaction from its standard base64 (as `solana_signTransaction` carries it),
    /// bounding the text before decoding it; throws as `init(bytes:)` does, or with an empty
    /// field when the text is too long or not canonical padded base64 of at least one byte.
    package init(base64 text: String) throws(TransactionError) {
        guard text.utf8.count <= Self.maxBase64Characters else {
            throw TransactionError(
                field: "",
                problem:
                    "longer than a Solana transaction can be: at most \(Self.maxBytes) bytes (\(Self.maxBase64Characters) base64 characters)"
            )
        }
        guard let bytes = Base64.decode(text), !bytes.isEmpty else {
            throw TransactionError(
                field: "", problem: "expected standard base64 of a serialized transaction (legacy or version 0)")
        }
        try self.init(bytes: bytes)
    }

    /// The most base64 text `maxBytes` take.
    package static let maxBase64Characters = (maxBytes + 2) / 3 * 4

    /// The wire form again, with `signatures` as they are now.
    package func serialized() -> [UInt8] {
        var bytes = SolanaWire.compactU16(signatures.count)
        bytes.reserveCapacity(bytes.count + signatures.count * Ed25519.signatureBytes + message.bytes.count)
        for signature in signatures { bytes += signature }
        return bytes + message.bytes
    }

    /// Whether the signer at `index` has signed: its slot is not 64 zero bytes. Whether that
    /// signature is valid is `verifyPresentSignatures()`'s question.
    package func hasSignature(at index: Int) -> Bool {
        signatures.indices.contains(index) && signatures[index].contains { $0 != 0 }
    }

    /// Checks that every signature already present (not 64 zero bytes) is a valid Ed25519
    /// signature of `message.bytes` by the account key of its slot. A valid signature in another
    /// signer's slot, or one over another message, fails. Throws `signatures[i]` for the first
    /// that does not verify; slots still zero are not looked at (partial signing leaves them).
    /// Run it before signing, so that what the wallet returns is never a transaction that others'
    /// signatures make invalid.
    package func verifyPresentSignatures() throws(TransactionError) {
        for (index, signature) in signatures.enumerated() where signature.contains(where: { $0 != 0 }) {
            let key = message.accountKeys[index]
            guard Ed25519.verify(signature, message: message.bytes, publicKey: key) else {
                throw TransactionError(
                    field: "signatures[\(index)]",
                    problem:
                        "is not a signature of this message by \(SolanaWire.short(key)), the signer of slot \(index): "
                        + "signatures already in the wrong slots, or for another message")
            }
        }
    }

    /// Puts `signature` (64 bytes, over `message.bytes`) in the slot of the signer at `index`,
    /// `message.signerIndex(of:)` of the signing key; the other slots are kept as they are.
    /// Both are the caller's to get right, so a wrong one is a programming error, not bad input.
    package mutating func setSignature(_ signature: [UInt8], at index: Int) {
        precondition(signature.count == Ed25519.signatureBytes, "a Solana signature is 64 bytes")
        precondition(signatures.indices.contains(index), "no signer at index \(index)")
        signatures[index] = signature
    }

    /// The transaction's id, as explorers and RPC nodes name it: the fee payer's signature in
    /// base58 (nil while the fee payer has not signed).
    package var id: String? {
        hasSignature(at: 0) ? Base58.encode(signatures[0]) : nil
    }
}

/// The part of a transaction that its signers sign.
package struct SolanaMessage: Sendable, Equatable {
    package enum Version: Sendable, Equatable { case legacy, v0 }

    /// One instruction: the program it calls (an index into the static account keys), the
    /// accounts it passes (indices into all accounts: the static keys, then those the lookup
    /// tables load), and its data.
    package struct Instruction: Sendable, Equatable {
        package let programIndex: Int
        package let accounts: [Int]
        package let data: [UInt8]
    }

    /// A version-0 message's reference to an address lookup table: which of its entries are
    /// loaded as writable accounts, and which as read-only.
    package struct AddressTableLookup: Sendable, Equatable {
        package let tableKey: [UInt8]
        package let writableIndexes: [UInt8]
        package let readonlyIndexes: [UInt8]
    }

    package let version: Version
    /// Exactly the bytes that are signed.
    package let bytes: [UInt8]
    /// How many of the first `accountKeys` must sign.
    package let requiredSignatures: Int
    /// Of the signers, how many (the last ones) are read-only.
    package let readonlySignedCount: Int
    /// Of the keys that do not sign, how many (the last ones) are read-only.
    package let readonlyUnsignedCount: Int
    /// The static account keys, 32 bytes each; the first is the fee payer.
    package let accountKeys: [[UInt8]]
    /// The recent blockhash, or a durable nonce's value (32 bytes).
    package let recentBlockhash: [UInt8]
    package let instructions: [Instruction]
    /// Empty for a legacy message.
    package let addressTableLookups: [AddressTableLookup]

    /// Reads a whole message (no trailing bytes), or throws naming the field. The fields are
    /// named as in the message (`instructions[2].accounts[1]`); a transaction's reading names
    /// them under `message.`.
    package init(bytes: [UInt8]) throws(TransactionError) {
        try self.init(parsing: bytes, prefix: "")
    }

    init(parsing bytes: [UInt8], prefix: String) throws(TransactionError) {
        let whole = prefix.isEmpty ? "" : String(prefix.dropLast())
        guard bytes.count <= SolanaTransaction.maxBytes else {
            throw TransactionError(
                field: whole,
                problem:
                    "is \(DisplayText.grouped(bytes.count)) bytes, over the \(DisplayText.grouped(SolanaTransaction.maxBytes)) a Solana transaction may be"
            )
        }
        var reader = SolanaWireReader(bytes)
        var version = Version.legacy
        // A legacy message starts with its signature count, which is below 128; a versioned one
        // with 0x80 plus its version.
        if let first = bytes.first, first & 0x80 != 0 {
            let number = first & 0x7F
            guard number == 0 else {
                throw TransactionError(
                    field: prefix + "version",
                    problem: "is version \(number), which is not supported (legacy and version 0 are)")
            }
            version = .v0
            reader.offset = 1
        }
        let required = Int(try reader.byte(prefix + "header.numRequiredSignatures"))
        let readonlySigned = Int(try reader.byte(prefix + "header.numReadonlySignedAccounts"))
        let readonlyUnsigned = Int(try reader.byte(prefix + "header.numReadonlyUnsignedAccounts"))
        guard required >= 1 else {
            throw TransactionError(
                field: prefix + "header.numRequiredSignatures", problem: "is 0, but the fee payer must sign")
        }
        guard readonlySigned < required else {
            throw TransactionError(
                field: prefix + "header.numReadonlySignedAccounts",
                problem: "is \(readonlySigned) of \(required) signers, but the fee payer must be writable")
        }
        let keyCount = try reader.compactU16(prefix + "accountKeys")
        guard keyCount >= required + readonlyUnsigned else {
            throw TransactionError(
                field: prefix + "accountKeys",
                problem:
                    "has \(keyCount) keys, fewer than the header's \(required) signers and \(readonlyUnsigned) read-only unsigned accounts"
            )
        }
        guard keyCount * 32 <= reader.remaining else {
            throw TransactionError(
                field: prefix + "accountKeys",
                problem: "ends before its \(keyCount) keys of 32 bytes each (the message is truncated)")
        }
        var keys: [[UInt8]] = []
        keys.reserveCapacity(keyCount)
        var seen: [[UInt8]: Int] = [:]
        for index in 0..<keyCount {
            let key = try reader.take(32, prefix + "accountKeys[\(index)]")
            if let earlier = seen[key] {
                throw TransactionError(
                    field: prefix + "accountKeys[\(index)]",
                    problem: "repeats accountKeys[\(earlier)] (\(SolanaWire.short(key)))")
            }
            seen[key] = index
            keys.append(key)
        }
        let blockhash = try reader.take(32, prefix + "recentBlockhash")

        // Each instruction takes at least 3 bytes (program index, two empty lengths).
        let instructionCount = try reader.count(prefix + "instructions", of: "instructions", leastBytesEach: 3)
        var instructions: [Instruction] = []
        instructions.reserveCapacity(instructionCount)
        for index in 0..<instructionCount {
            let at = prefix + "instructions[\(index)]"
            let program = Int(try reader.byte(at + ".programIdIndex"))
            let accountCount = try reader.compactU16(at + ".accounts")
            let accounts = try reader.take(accountCount, at + ".accounts").map(Int.init)
            let dataCount = try reader.compactU16(at + ".data")
            let data = try reader.take(dataCount, at + ".data")
            instructions.append(Instruction(programIndex: program, accounts: accounts, data: data))
        }

        var lookups: [AddressTableLookup] = []
        if version == .v0 {
            // Each lookup takes at least 34 bytes (its table's key, two lengths).
            let lookupCount = try reader.count(prefix + "addressTableLookups", of: "lookups", leastBytesEach: 34)
            for index in 0..<lookupCount {
                let at = prefix + "addressTableLookups[\(index)]"
                let table = try reader.take(32, at + ".accountKey")
                let writable = try reader.take(try reader.compactU16(at + ".writableIndexes"), at + ".writableIndexes")
                let readonly = try reader.take(try reader.compactU16(at + ".readonlyIndexes"), at + ".readonlyIndexes")
                guard !writable.isEmpty || !readonly.isEmpty else {
                    throw TransactionError(
                        field: at, problem: "loads no account from its table (the network refuses such a lookup)")
                }
                lookups.append(
                    AddressTableLookup(tableKey: table, writableIndexes: writable, readonlyIndexes: readonly))
            }
        }
        guard reader.remaining == 0 else {
            throw TransactionError(
                field: whole, problem: "has \(DisplayText.counted(reader.remaining, "byte")) after its last field")
        }

        // Instructions name accounts by a one-byte index, so a message can use at most 256.
        let loaded = lookups.reduce(0) { $0 + $1.writableIndexes.count + $1.readonlyIndexes.count }
        let accountCount = keyCount + loaded
        guard accountCount <= 256 else {
            throw TransactionError(
                field: prefix + (version == .v0 ? "addressTableLookups" : "accountKeys"),
                problem:
                    "brings the message to \(accountCount) accounts, over the 256 an instruction's one-byte index can name"
            )
        }
        for (index, instruction) in instructions.enumerated() {
            let at = prefix + "instructions[\(index)]"
            guard instruction.programIndex < keyCount else {
                throw TransactionError(
                    field: at + ".programIdIndex",
                    problem:
                        "is \(instruction.programIndex), outside the \(keyCount) static account keys (a program cannot come from a lookup table)"
                )
            }
            guard instruction.programIndex != 0 else {
                throw TransactionError(
                    field: at + ".programIdIndex", problem: "is 0, the fee payer, which cannot be a program")
            }
            for (position, account) in instruction.accounts.enumerated() where account >= accountCount {
                throw TransactionError(
                    field: at + ".accounts[\(position)]",
                    problem: "is \(account), outside the message's \(accountCount) accounts")
            }
        }

        // What the signatures add must still fit in a transaction.
        let transactionBytes = SolanaWire.compactU16(required).count + required * Ed25519.signatureBytes + bytes.count
        guard transactionBytes <= SolanaTransaction.maxBytes else {
            throw TransactionError(
                field: whole,
                problem:
                    "with its \(required) signatures makes a transaction of \(DisplayText.grouped(transactionBytes)) bytes, over the \(DisplayText.grouped(SolanaTransaction.maxBytes)) one may be"
            )
        }

        self.version = version
        self.bytes = bytes
        self.requiredSignatures = required
        self.readonlySignedCount = readonlySigned
        self.readonlyUnsignedCount = readonlyUnsigned
        self.accountKeys = keys
        self.recentBlockhash = blockhash
        self.instructions = instructions
        self.addressTableLookups = lookups
    }

    /// The index among the signers of `publicKey`, nil when it is not a required signer.
    package func signerIndex(of publicKey: [UInt8]) -> Int? {
        accountKeys.prefix(requiredSignatures).firstIndex(of: publicKey)
    }

    /// The keys that must sign, in the order of their signature slots.
    package var signers: [[UInt8]] { Array(accountKeys.prefix(requiredSignatures)) }

    /// How many accounts the lookup tables load: the accounts after the static keys, writable
    /// ones of every table first, then read-only ones.
    package var loadedAccountCount: Int {
        addressTableLookups.reduce(0) { $0 + $1.writableIndexes.count + $1.readonlyIndexes.count }
    }

    /// Whether the account at `index` (static or loaded) is writable, by the header's counts
    /// for static keys and by the lookup for loaded ones.
    package func isWritable(_ index: Int) -> Bool {
        if index < accountKeys.count {
            if index < requiredSignatures { return index < requiredSignatures - readonlySignedCount }
            return index < accountKeys.count - readonlyUnsignedCount
        }
        let writableLoaded = addressTableLookups.reduce(0) { $0 + $1.writableIndexes.count }
        return index - accountKeys.count < writableLoaded
    }

    /// The table and entry a loaded account comes from (`index` past the static keys), nil for
    /// a static one or an index past every account.
    package func lookupEntry(of index: Int) -> (table: [UInt8], entry: UInt8)? {
        var position = index - accountKeys.count
        guard position >= 0 else { return nil }
        for lookup in addressTableLookups {
            if position < lookup.writableIndexes.count { return (lookup.tableKey, lookup.writableIndexes[position]) }
            position -= lookup.writableIndexes.count
        }
        for lookup in addressTableLookups {
            if position < lookup.readonlyIndexes.count { return (lookup.tableKey, lookup.readonlyIndexes[position]) }
            position -= lookup.readonlyIndexes.count
        }
        return nil
    }

    /// What the person sees before `signer` (a 32-byte public key) signs this message.
    package func summary(signer: [UInt8]) -> TransactionSummary {
        SolanaSummarizer(message: self, signer: signer).summary()
    }
}

/// The compact-u16 length and the address form Solana's wire and explorers use.
enum SolanaWire {
    /// 7 bits a byte, low first, the high bit set on every byte but the last; at most 3 bytes.
    static func compactU16(_ value: Int) -> [UInt8] {
        precondition((0...0xFFFF).contains(value))
        var rest = value
        var bytes: [UInt8] = []
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    /// A key as every dialog shortens a base58 address.
    static func short(_ key: [UInt8]) -> String {
        TransactionSummary.short(base58: Base58.encode(key))
    }
}

/// Reads the wire format front to back; every read checks what is left first.
struct SolanaWireReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func byte(_ field: @autoclosure () -> String) throws(TransactionError) -> UInt8 {
        guard offset < bytes.count else {
            throw TransactionError(field: field(), problem: "is missing (the input ends before it)")
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func take(_ count: Int, _ field: @autoclosure () -> String) throws(TransactionError) -> [UInt8] {
        guard count <= remaining else {
            throw TransactionError(
                field: field(),
                problem: "ends after \(remaining) of its \(DisplayText.counted(count, "byte")) (the input is truncated)"
            )
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// The compact-u16 count of a list of `items`, each at least `leastBytesEach` bytes long:
    /// refused before anything is allocated for them when the bytes left cannot hold that many.
    mutating func count(_ field: String, of items: String, leastBytesEach: Int) throws(TransactionError) -> Int {
        let count = try compactU16(field)
        guard count * leastBytesEach <= remaining else {
            throw TransactionError(
                field: field,
                problem:
                    "counts \(count) \(items), more than the \(remaining) bytes left can hold (the message is truncated)"
            )
        }
        return count
    }

    /// A compact-u16 ("short vec" length): refused when it runs past 16 bits or is not in its
    /// shortest form (a last byte of zero after the first), as the runtime refuses them, so that
    /// one message has one encoding.
    mutating func compactU16(_ field: @autoclosure () -> String) throws(TransactionError) -> Int {
        var value = 0
        for position in 0..<3 {
            guard offset < bytes.count else {
                throw TransactionError(
                    field: field(), problem: "ends inside its compact-u16 length (the input is truncated)")
            }
            let byte = bytes[offset]
            offset += 1
            if position == 2, byte > 0x03 {
                throw TransactionError(field: field(), problem: "has a compact-u16 length that overflows 16 bits")
            }
            if position > 0, byte == 0 {
                throw TransactionError(
                    field: field(), problem: "has a compact-u16 length that is not in its shortest form")
            }
            value |= Int(byte & 0x7F) << (7 * position)
            if byte & 0x80 == 0 { return value }
        }
        return value  // not reached: a third byte is at most 0x03, without the continuation bit
    }
}
