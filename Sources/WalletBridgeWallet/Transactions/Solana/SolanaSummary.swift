import WalletBridge

/// Turns a message into what the dialog shows: warnings, then the fee payer and fees, then one
/// entry per instruction. It never fails: data a known program's instruction cannot be read
/// from is shown as that program's "unrecognised instruction", with a warning.
struct SolanaSummarizer {
    let message: SolanaMessage
    let signer: [UInt8]

    /// What the runtime charges for each signature, the base fee.
    static let lamportsPerSignature: UInt64 = 5_000
    /// The compute units an instruction gets when the transaction sets no limit, and the most a
    /// transaction can have, as the runtime's compute budget sets them: without a
    /// SetComputeUnitLimit, 200,000 units per instruction that is not a Compute Budget one,
    /// capped at 1,400,000. Runtimes that give the built-in programs' instructions fewer units
    /// by default only lower the fee, so the priority fee shown stays the most it can be.
    static let defaultUnitsPerInstruction: UInt64 = 200_000
    static let maxComputeUnits: UInt64 = 1_400_000
    /// A memo's share of the dialog.
    static let maxMemoBytes = 160
    /// A seed's share of the dialog (the runtime allows 32 bytes).
    static let maxSeedBytes = 48

    private var warnings: [TransactionSummary.Warning] = []
    private var facts: [String] = []
    private var actions: [TransactionSummary.Action] = []
    private var unitLimit: UInt32?
    private var unitPrice: UInt64?
    private var computeBudgetSetTwice = false

    init(message: SolanaMessage, signer: [UInt8]) {
        (self.message, self.signer) = (message, signer)
    }

    func summary() -> TransactionSummary {
        var copy = self
        return copy.build()
    }

    private mutating func build() -> TransactionSummary {
        var computeBudgetInstructions = 0
        for instruction in message.instructions {
            let program = Base58.encode(message.accountKeys[instruction.programIndex])
            if program == SolanaProgram.computeBudget { computeBudgetInstructions += 1 }
            actions.append(describe(instruction, program: program))
        }

        let feePayer = message.accountKeys[0]
        facts.append("Fee payer: \(SolanaWire.short(feePayer)) (\(feePayer == signer ? "this key" : "not this key"))")
        let signatures = UInt64(message.requiredSignatures)
        facts.append(
            "Network fee: \(Self.sol(signatures * Self.lamportsPerSignature)) (base fee: "
                + "\(DisplayText.grouped(Int(Self.lamportsPerSignature))) lamports per signature × \(signatures))")
        if let price = unitPrice {
            let instructionsCharged = UInt64(message.instructions.count - computeBudgetInstructions)
            let limit = min(
                unitLimit.map(UInt64.init) ?? instructionsCharged * Self.defaultUnitsPerInstruction,
                Self.maxComputeUnits)
            // Micro-lamports per unit: the fee is the product over a million, rounded up, as the
            // runtime charges it. Up to 2^85 before the division, so in 128 bits.
            let microLamports = UInt128(limit) * UInt128(price)
            let lamports = (microLamports + 999_999) / 1_000_000
            let units = DisplayText.grouped(Int(limit)) + (unitLimit == nil ? " units by default" : " units")
            facts.append(
                "Priority fee: at most \(TransactionSummary.units(String(lamports), decimals: 9, symbol: "SOL")) "
                    + "(\(units) × \(TransactionSummary.units(String(price), decimals: 0, symbol: "")) micro-lamports)")
        }
        for lookup in message.addressTableLookups {
            facts.append(
                "Address lookup table \(SolanaWire.short(lookup.tableKey)): loads \(lookup.writableIndexes.count) writable "
                    + "and \(lookup.readonlyIndexes.count) read-only accounts")
        }

        if computeBudgetSetTwice {
            warnings.append(.init(.notice, "Compute budget set twice: the network refuses this transaction"))
        }
        if let first = message.instructions.first, isAdvanceNonce(first) {
            let nonce = first.accounts.first.map(account) ?? "?"
            warnings.append(.init(
                .trust,
                "Durable nonce: this transaction never expires; it can be sent at any time until nonce account \(nonce) advances"
            ))
        }
        if feePayer != signer {
            warnings.append(.init(.trust, "Fee payer is not this key: \(SolanaWire.short(feePayer)) pays the fees"))
        }
        for lookup in message.addressTableLookups {
            let table = SolanaWire.short(lookup.tableKey)
            warnings.append(.init(
                .trust,
                "Lookup table \(table): the accounts it loads cannot be resolved offline "
                    + "(shown as \"account #k from lookup table \(table)\")"))
        }
        var unique: [TransactionSummary.Warning] = []
        for warning in warnings where !unique.contains(warning) { unique.append(warning) }

        let kind = "a Solana transaction (\(message.version == .legacy ? "legacy" : "version 0"))"
        return TransactionSummary(
            kind: kind, warnings: unique, facts: facts, actions: actions, actionNoun: "instruction")
    }

    // MARK: Shared forms

    /// Lamports as SOL, exact.
    static func sol(_ lamports: UInt64) -> String {
        TransactionSummary.units(String(lamports), decimals: 9, symbol: "SOL")
    }

    /// A key as the dialog names it: shortened, "(this key)" when it is the signer's.
    func name(_ key: [UInt8]) -> String {
        SolanaWire.short(key) + (key == signer ? " (this key)" : "")
    }

    /// A program's key, with its name when it is one the wallet knows.
    func programName(_ key: [UInt8]) -> String {
        let text = Base58.encode(key)
        let short = TransactionSummary.short(base58: text)
        return SolanaProgram.names[text].map { "\(short) (\($0))" } ?? short
    }

    /// The instruction's account at `index` (an index into all the message's accounts).
    func account(_ index: Int) -> String {
        if index < message.accountKeys.count { return name(message.accountKeys[index]) }
        if let (table, entry) = message.lookupEntry(of: index) {
            return "account #\(entry) from lookup table \(SolanaWire.short(table))"
        }
        return "account #\(index)"  // not reached: the parser checked every index
    }

    /// Whether the account at `index` is the signer's key. A loaded account is not known
    /// offline, so it is taken as someone else's.
    func isSigner(_ index: Int) -> Bool {
        index < message.accountKeys.count && message.accountKeys[index] == signer
    }

    private func isAdvanceNonce(_ instruction: SolanaMessage.Instruction) -> Bool {
        Base58.encode(message.accountKeys[instruction.programIndex]) == SolanaProgram.system
            && Array(instruction.data.prefix(4)) == [4, 0, 0, 0]
    }

    // MARK: Instructions

    private mutating func describe(_ instruction: SolanaMessage.Instruction, program: String) -> TransactionSummary.Action {
        let context = InstructionContext(summarizer: self, instruction: instruction)
        var decoded: Decoded?
        let programLabel: String
        switch program {
        case SolanaProgram.system:
            programLabel = "System Program"
            decoded = SystemProgramDecoder.decode(context)
        case SolanaProgram.token, SolanaProgram.token2022:
            programLabel = program == SolanaProgram.token ? "SPL Token" : "Token-2022"
            decoded = TokenProgramDecoder.decode(context, is2022: program == SolanaProgram.token2022)
        case SolanaProgram.associatedToken:
            programLabel = "Associated Token Account program"
            decoded = AssociatedTokenDecoder.decode(context)
        case SolanaProgram.computeBudget:
            programLabel = "Compute Budget program"
            decoded = decodeComputeBudget(context)
        case SolanaProgram.memo, SolanaProgram.memoV1:
            programLabel = "Memo program"
            decoded = Self.decodeMemo(context)
        case SolanaProgram.stake:
            programLabel = "Stake program"
            decoded = StakeProgramDecoder.decode(context)
        default:
            let short = TransactionSummary.short(base58: program)
            warnings.append(.init(.unreadable, "Unknown program \(short): the wallet cannot show what its instruction does"))
            return TransactionSummary.Action([
                "Unknown program \(short): \(SolanaWire.bytes(instruction.data.count)) of data, "
                    + "\(instruction.accounts.count) \(instruction.accounts.count == 1 ? "account" : "accounts")"
            ])
        }
        guard let decoded else {
            let size = SolanaWire.bytes(instruction.data.count)
            warnings.append(.init(
                .unreadable, "\(programLabel): an instruction the wallet cannot read (\(size) of data); it cannot show what it does"))
            return TransactionSummary.Action(["\(programLabel): unrecognised instruction (\(size))"])
        }
        warnings += decoded.warnings.map { TransactionSummary.Warning(.funds, $0) }
        return TransactionSummary.Action(decoded.lines, movesFunds: decoded.movesFunds)
    }

    private mutating func decodeComputeBudget(_ context: InstructionContext) -> Decoded? {
        var data = InstructionData(context.instruction.data)
        guard let tag = data.u8() else { return nil }
        switch tag {
        case 1:
            guard let bytes = data.u32() else { return nil }
            return Decoded(["Request a heap of \(DisplayText.grouped(Int(bytes))) bytes"] + data.extraNote())
        case 2:
            guard let units = data.u32() else { return nil }
            if unitLimit != nil { computeBudgetSetTwice = true } else { unitLimit = units }
            return Decoded(
                ["Set the compute unit limit to \(DisplayText.grouped(Int(units))) units"] + data.extraNote())
        case 3:
            guard let price = data.u64() else { return nil }
            if unitPrice != nil { computeBudgetSetTwice = true } else { unitPrice = price }
            let shown = TransactionSummary.units(String(price), decimals: 0, symbol: "")
            return Decoded(["Set the compute unit price to \(shown) micro-lamports per unit"] + data.extraNote())
        case 4:
            guard let bytes = data.u32() else { return nil }
            return Decoded(
                ["Limit the loaded account data to \(DisplayText.grouped(Int(bytes))) bytes"] + data.extraNote())
        default:
            return nil
        }
    }

    /// The memo program takes its data as UTF-8 text and refuses anything else.
    private static func decodeMemo(_ context: InstructionContext) -> Decoded? {
        guard let text = String(validating: context.instruction.data, as: UTF8.self) else { return nil }
        let shown = DisplayText.preview(text, maxBytes: maxMemoBytes, lineBreaks: .marked)
        return Decoded(["Memo: \"\(shown.text)\"\(shown.cutNote)"])
    }
}

/// What one instruction shows: its lines (the first says what it does), its warnings (each
/// about the person's funds or authority), and whether it moves them (`TransactionSummary.Action`).
struct Decoded {
    var lines: [String]
    var warnings: [String] = []
    var movesFunds = false

    init(_ lines: [String], warnings: [String] = [], movesFunds: Bool = false) {
        (self.lines, self.warnings, self.movesFunds) = (lines, warnings, movesFunds)
    }
}

/// One instruction and the names of its accounts, as the program decoders need them.
struct InstructionContext {
    let summarizer: SolanaSummarizer
    let instruction: SolanaMessage.Instruction

    /// The name of the instruction's account at `position`, nil when it passes fewer.
    func account(_ position: Int) -> String? {
        instruction.accounts.indices.contains(position) ? summarizer.account(instruction.accounts[position]) : nil
    }

    /// The account at `position` with what it is: "token account 6spA…2ssM"; a loaded account
    /// is already "account #k from lookup table X", so it is left as that.
    func labeled(_ position: Int, as label: String) -> String? {
        guard instruction.accounts.indices.contains(position) else { return nil }
        let index = instruction.accounts[position]
        let text = summarizer.account(index)
        return index < summarizer.message.accountKeys.count ? "\(label) \(text)" : text
    }

    /// Whether the instruction's account at `position` is the signer's key.
    func isSigner(_ position: Int) -> Bool {
        instruction.accounts.indices.contains(position) && summarizer.isSigner(instruction.accounts[position])
    }

    /// Whether the instruction passes at least `count` accounts: what each program checks first.
    func has(_ count: Int) -> Bool { instruction.accounts.count >= count }

    func name(_ key: [UInt8]) -> String { summarizer.name(key) }
    func programName(_ key: [UInt8]) -> String { summarizer.programName(key) }
}

/// Little-endian fields of an instruction's data; nil once a field would run past the end.
struct InstructionData {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u32() -> UInt32? { integer(UInt32.self) }
    mutating func u64() -> UInt64? { integer(UInt64.self) }
    mutating func i64() -> Int64? { integer(UInt64.self).map { Int64(bitPattern: $0) } }

    mutating func key() -> [UInt8]? {
        guard remaining >= 32 else { return nil }
        defer { offset += 32 }
        return Array(bytes[offset..<offset + 32])
    }

    /// A Rust string as bincode writes it: a u64 length, then UTF-8.
    mutating func bincodeString() -> String? {
        guard let length = u64(), length <= UInt64(remaining) else { return nil }
        let count = Int(length)
        defer { offset += count }
        return String(validating: bytes[offset..<offset + count], as: UTF8.self)
    }

    /// A detail line when the data goes on past what the instruction reads: the programs
    /// ignore the rest, but the person may want to know it is there.
    func extraNote() -> [String] {
        remaining > 0 ? ["  (and \(SolanaWire.bytes(remaining)) of data the program ignores)"] : []
    }

    private mutating func integer<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }
}

/// The programs whose instructions the wallet reads, by their base58 addresses.
enum SolanaProgram {
    static let system = "11111111111111111111111111111111"
    static let token = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"
    static let token2022 = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"
    static let associatedToken = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
    static let computeBudget = "ComputeBudget111111111111111111111111111111"
    static let memo = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"
    static let memoV1 = "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"
    static let stake = "Stake11111111111111111111111111111111111111"
    static let vote = "Vote111111111111111111111111111111111111111"

    /// Names shown beside a program's address where a key is a program (an account's owner).
    static let names: [String: String] = [
        system: "System Program", token: "SPL Token", token2022: "Token-2022",
        associatedToken: "Associated Token Account",
        computeBudget: "Compute Budget", memo: "Memo", memoV1: "Memo v1", stake: "Stake", vote: "Vote",
    ]
}
