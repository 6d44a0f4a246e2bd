import WalletBridgeSystem
import WalletBridgeKeys
import WalletBridgeProtocol

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
    /// A memo's share of its line: with `Memo: "`, the closing quote and the note on how much
    /// is shown, the line stays within `TransactionConsent.maxLineBytes`, so nothing cuts it.
    static let maxMemoBytes = 110
    /// A seed's share of its line, sized the same way (the runtime allows 32 bytes).
    static let maxSeedBytes = 48
    /// Past this many decimals an amount is shown raw with its decimals: written out in full
    /// (255 places) it would not fit a line, and no real mint has that many.
    static let maxShownDecimals = 30
    /// The most one line of the summary takes, as the dialog measures it: names listed in a
    /// warning stop short of it ("and 4 more").
    static let maxLineBytes = TransactionConsent.maxLineBytes

    private var warnings: [TransactionSummary.Warning] = []
    private var facts: [String] = []
    private var actions: [TransactionSummary.Action] = []
    private var unitLimit: UInt32?
    private var unitPrice: UInt64?
    private var computeBudgetSetTwice = false
    /// Unknown programs in the order they first appear, and how many instructions each has.
    private var unknownPrograms: [(key: [UInt8], instructions: Int)] = []
    /// Known programs with an instruction the wallet cannot read, in order, and how many.
    private var unrecognised: [(program: String, instructions: Int, bytes: Int)] = []
    private var usesToken2022TransferChecked = false

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
            "Network fee: \(Self.sol(signatures * Self.lamportsPerSignature)) "
                + "(\(DisplayText.grouped(Int(Self.lamportsPerSignature))) lamports × \(signatures) "
                + "\(signatures == 1 ? "signature" : "signatures"))")
        if let price = unitPrice {
            let instructionsCharged = UInt64(message.instructions.count - computeBudgetInstructions)
            let limit = min(
                unitLimit.map(UInt64.init) ?? instructionsCharged * Self.defaultUnitsPerInstruction,
                Self.maxComputeUnits)
            // Micro-lamports per unit: the fee is the product over a million, rounded up, as the
            // runtime charges it. Up to 2^85 before the division, so in 128 bits; the runtime
            // charges at most what a u64 of lamports holds (it saturates), so that is the most.
            let microLamports = UInt128(limit) * UInt128(price)
            let lamports = min((microLamports + 999_999) / 1_000_000, UInt128(UInt64.max))
            let units = DisplayText.grouped(Int(limit)) + (unitLimit == nil ? " units by default" : " units")
            facts.append(
                "Priority fee: at most \(TransactionSummary.units(String(lamports), decimals: 9, symbol: "SOL")) "
                    + "(\(units) × \(Self.microLamports(price)))")
        }
        // The lookup tables are named by their warning and each account they load by its line
        // ("account #2 from table X"): every fact is shown whatever else is left out, so the
        // facts are what the person pays, not how the accounts are found.
        let lookups = message.addressTableLookups
        if computeBudgetSetTwice {
            warnings.append(.init(.notice, "Compute budget set twice: the network refuses this transaction"))
        }
        if let first = message.instructions.first, isAdvanceNonce(first) {
            let nonce = first.accounts.first.map(account) ?? "?"
            warnings.append(
                .init(
                    .trust,
                    "Durable nonce: this transaction never expires; it can be sent at any time until nonce account \(nonce) advances"
                ))
        }
        if feePayer != signer {
            warnings.append(.init(.trust, "Fee payer is not this key: \(SolanaWire.short(feePayer)) pays the fees"))
        }
        if lookups.count == 1, let lookup = lookups.first {
            let table = SolanaWire.short(lookup.tableKey)
            warnings.append(
                .init(
                    .trust,
                    "Lookup table \(table): the accounts it loads cannot be resolved offline"))
        } else if lookups.count > 1 {
            // One warning for all the tables: a v0 swap often has three or four. The accounts'
            // lines name their table ("account #k from table X"), so the warning need not.
            warnings.append(
                .init(
                    .trust,
                    Self.listing(
                        "Lookup tables (\(lookups.count)): ", lookups.map { SolanaWire.short($0.tableKey) },
                        ": the accounts they load cannot be resolved offline")))
        }
        if unknownPrograms.count == 1, let only = unknownPrograms.first {
            let what = only.instructions == 1 ? "its instruction does" : "its \(only.instructions) instructions do"
            warnings.append(
                .init(
                    .unreadable, "Unknown program \(SolanaWire.short(only.key)): the wallet cannot show what \(what)"))
        } else if unknownPrograms.count > 1 {
            warnings.append(
                .init(
                    .unreadable,
                    Self.listing(
                        "Unknown programs (\(unknownPrograms.count)): ",
                        unknownPrograms.map { SolanaWire.short($0.key) },
                        ": the wallet cannot show what their instructions do")))
        }
        let unreadable = unrecognised.reduce(0) { $0 + $1.instructions }
        if unreadable == 1, let only = unrecognised.first {
            warnings.append(
                .init(
                    .unreadable,
                    "\(only.program): an instruction the wallet cannot read (\(DisplayText.counted(only.bytes, "byte")) of data); "
                        + "it cannot show what it does"))
        } else if unreadable > 1 {
            warnings.append(
                .init(
                    .unreadable,
                    Self.listing(
                        "Instructions the wallet cannot read (\(unreadable)), of ", unrecognised.map(\.program),
                        ": it cannot show what they do")))
        }
        if usesToken2022TransferChecked {
            warnings.append(
                .init(
                    .notice,
                    "Token-2022 transfer: a mint with a transfer fee takes it out of the amount, so less may arrive"))
        }
        var unique: [TransactionSummary.Warning] = []
        for warning in warnings where !unique.contains(warning) { unique.append(warning) }
        // The most severe first; within a severity, in the order they arose.
        unique = unique.enumerated().sorted { ($0.element.severity, $0.offset) < ($1.element.severity, $1.offset) }
            .map(\.element)

        let kind = "a Solana transaction (\(message.version == .legacy ? "legacy" : "version 0"))"
        return TransactionSummary(
            kind: kind, warnings: unique, facts: facts, actions: actions, actionNoun: "instruction")
    }

    // MARK: Shared forms

    /// A price in micro-lamports: "7 micro-lamports", "1 micro-lamport".
    static func microLamports(_ price: UInt64) -> String {
        TransactionSummary.units(String(price), decimals: 0, symbol: price == 1 ? "micro-lamport" : "micro-lamports")
    }

    /// `head`, as many of `names` as fit one line (the rest counted: "and 4 more"), then `tail`.
    static func listing(_ head: String, _ names: [String], _ tail: String) -> String {
        for shown in stride(from: names.count, through: 1, by: -1) {
            let rest = names.count - shown
            let list = names.prefix(shown).joined(separator: ", ") + (rest > 0 ? " and \(rest) more" : "")
            let text = head + list + tail
            if DisplayText.cost(text) <= maxLineBytes { return text }
        }
        return head + "\(names.count) of them" + tail
    }

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
            return "account #\(entry) from table \(SolanaWire.short(table))"
        }
        return "account #\(index)"  // not reached: the parser checked every index
    }

    /// Whether the account at `index` is the signer's key. A loaded account is not known
    /// offline, so it is taken as someone else's (a lookup table cannot load a signer).
    func isSigner(_ index: Int) -> Bool {
        index < message.accountKeys.count && message.accountKeys[index] == signer
    }

    /// How an instruction the wallet cannot read involves this key, nil when it does not: it
    /// signs it, or passes this key's account writable (a program may then move its lamports).
    private func involvement(_ instruction: SolanaMessage.Instruction) -> String? {
        let mine = instruction.accounts.filter(isSigner)
        if mine.contains(where: { $0 < message.requiredSignatures }) { return "this key signs" }
        if mine.contains(where: message.isWritable) { return "this key's account, writable" }
        return nil
    }

    private func isAdvanceNonce(_ instruction: SolanaMessage.Instruction) -> Bool {
        Base58.encode(message.accountKeys[instruction.programIndex]) == SolanaProgram.system
            && Array(instruction.data.prefix(4)) == [4, 0, 0, 0]
    }

    // MARK: Instructions

    private mutating func describe(_ instruction: SolanaMessage.Instruction, program: String)
        -> TransactionSummary.Action
    {
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
            let key = message.accountKeys[instruction.programIndex]
            if let seen = unknownPrograms.firstIndex(where: { $0.key == key }) {
                unknownPrograms[seen].instructions += 1
            } else {
                unknownPrograms.append((key, 1))
            }
            let involved = involvement(instruction)
            return TransactionSummary.Action(
                [
                    "Unknown program \(SolanaWire.short(key)): \(DisplayText.counted(instruction.data.count, "byte")) of data, "
                        + "\(instruction.accounts.count) \(instruction.accounts.count == 1 ? "account" : "accounts")"
                        + (involved.map { " (\($0))" } ?? "")
                ], movesFunds: involved != nil)
        }
        guard let decoded else {
            let size = instruction.data.count
            if let seen = unrecognised.firstIndex(where: { $0.program == programLabel }) {
                unrecognised[seen].instructions += 1
            } else {
                unrecognised.append((programLabel, 1, size))
            }
            let involved = involvement(instruction)
            let note = involved.map { "; \($0)" } ?? ""
            return TransactionSummary.Action(
                ["\(programLabel): unrecognised instruction (\(DisplayText.counted(size, "byte"))\(note))"],
                movesFunds: involved != nil)
        }
        warnings += decoded.warnings.map { TransactionSummary.Warning(.funds, $0) }
        if decoded.token2022TransferChecked { usesToken2022TransferChecked = true }
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
            return Decoded(["Set the compute unit price to \(Self.microLamports(price)) per unit"] + data.extraNote())
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
    /// A Token-2022 transferChecked: the summary notes, once, that a transfer fee may come out.
    var token2022TransferChecked = false

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
    /// is already "account #k from table X", so it is left as that.
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

    /// Whether this key is the account at `position` or one after it: the authority and, for
    /// a token multisig, the signers that follow it.
    func isSigner(from position: Int) -> Bool {
        instruction.accounts.indices.contains(position)
            && instruction.accounts[position...].contains(where: summarizer.isSigner)
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
        remaining > 0 ? ["  (and \(DisplayText.counted(remaining, "byte")) of data the program ignores)"] : []
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
