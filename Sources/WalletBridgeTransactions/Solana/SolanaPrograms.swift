import WalletBridgeSystem

// The instructions of the programs the wallet reads, each as that program's own code reads its
// data: the System and Stake programs with bincode (a u32 variant, little-endian fields), SPL
// Token and Token-2022 with a u8 variant. A decoder returns nil when the data or the accounts
// are not what the variant needs (the program would refuse the instruction); the summary then
// shows it as unrecognised. Data past the variant's fields is ignored by these programs, and
// shown as such.

/// The System Program: SOL transfers, account creation, durable nonces.
enum SystemProgramDecoder {
    static func decode(_ context: InstructionContext) -> Decoded? {
        var data = InstructionData(context.instruction.data)
        guard let variant = data.u32() else { return nil }
        let account = context.account
        switch variant {
        case 0:  // CreateAccount { lamports, space, owner }: [funding, new]
            guard let lamports = data.u64(), let space = data.u64(), let owner = data.key(),
                let funder = account(0), let created = account(1)
            else { return nil }
            return Decoded(
                [
                    "Create account \(created)", "  funded with \(SolanaSummarizer.sol(lamports)) from \(funder)",
                    "  space: \(spaceText(space))",
                    "  owner program: \(context.programName(owner))",
                ] + data.extraNote(), movesFunds: context.isSigner(0))
        case 1:  // Assign { owner }: [account]
            guard let owner = data.key(), let assigned = account(0) else { return nil }
            return Decoded(
                ["Assign account \(assigned) to program \(context.programName(owner))"] + data.extraNote(),
                warnings: context.isSigner(0)
                    ? ["Account handed to a program: this key's account is assigned to \(context.programName(owner))"]
                    : [],
                movesFunds: context.isSigner(0))
        case 2:  // Transfer { lamports }: [from, to]
            guard let lamports = data.u64(), let from = account(0), let to = account(1) else { return nil }
            return Decoded(
                ["Transfer \(SolanaSummarizer.sol(lamports))", "  from \(from)", "  to \(to)"] + data.extraNote(),
                movesFunds: context.isSigner(0))
        case 3:  // CreateAccountWithSeed { base, seed, lamports, space, owner }: [funding, new, base?]
            guard let base = data.key(), let seed = data.bincodeString(), let lamports = data.u64(),
                let space = data.u64(), let owner = data.key(), let funder = account(0), let created = account(1)
            else { return nil }
            return Decoded(
                [
                    "Create account \(created)",
                    "  derived from base \(context.name(base)) with seed \(seedText(seed))",
                    "  funded with \(SolanaSummarizer.sol(lamports)) from \(funder)",
                    "  space: \(spaceText(space))",
                    "  owner program: \(context.programName(owner))",
                ] + data.extraNote(), movesFunds: context.isSigner(0))
        case 4:  // AdvanceNonceAccount: [nonce, recent blockhashes sysvar, authority]
            guard let nonce = context.labeled(0, as: "nonce account"), context.has(2), let authority = account(2) else {
                return nil
            }
            return Decoded(["Advance \(nonce)", "  nonce authority \(authority)"] + data.extraNote())
        case 5:  // WithdrawNonceAccount { lamports }: [nonce, to, recent blockhashes, rent, authority]
            guard let lamports = data.u64(), let nonce = context.labeled(0, as: "nonce account"), let to = account(1),
                let authority = account(4)
            else { return nil }
            return Decoded(
                [
                    "Withdraw \(SolanaSummarizer.sol(lamports)) from \(nonce)", "  to \(to)",
                    "  nonce authority \(authority)",
                ] + data.extraNote(), movesFunds: context.isSigner(4))
        case 6:  // InitializeNonceAccount { authority }: [nonce, recent blockhashes, rent]
            guard let authority = data.key(), let nonce = context.labeled(0, as: "nonce account"), context.has(3) else {
                return nil
            }
            return Decoded(["Initialize \(nonce)", "  nonce authority \(context.name(authority))"] + data.extraNote())
        case 7:  // AuthorizeNonceAccount { new authority }: [nonce, authority]
            guard let newAuthority = data.key(), let nonce = context.labeled(0, as: "nonce account"),
                let authority = account(1)
            else { return nil }
            let handedOver = newAuthority != context.summarizer.signer
            return Decoded(
                ["Make \(context.name(newAuthority)) the authority of \(nonce)", "  current authority \(authority)"]
                    + data.extraNote(),
                warnings: handedOver
                    ? ["Authority handed over: the authority of \(nonce) goes to \(context.name(newAuthority))"] : [],
                movesFunds: context.isSigner(1))
        case 8:  // Allocate { space }: [account]
            guard let space = data.u64(), let allocated = account(0) else { return nil }
            let bytes = spaceText(space)
            return Decoded(["Allocate \(bytes) for account \(allocated)"] + data.extraNote())
        case 11:  // TransferWithSeed { lamports, from seed, from owner }: [from, base, to]
            guard let lamports = data.u64(), let seed = data.bincodeString(), let owner = data.key(),
                let from = account(0), let base = account(1), let to = account(2)
            else { return nil }
            return Decoded(
                [
                    "Transfer \(SolanaSummarizer.sol(lamports))",
                    "  from \(from)",
                    "  derived from base \(base) with seed \(seedText(seed))",
                    "  and program \(context.programName(owner))",
                    "  to \(to)",
                ] + data.extraNote(), movesFunds: context.isSigner(0) || context.isSigner(1))
        default:
            return nil
        }
    }

    /// An account's size: a u64, so past what `Int` holds.
    private static func spaceText(_ space: UInt64) -> String {
        space == 1 ? "1 byte" : TransactionSummary.units(String(space), decimals: 0, symbol: "bytes")
    }

    /// A seed is text the transaction carries: shown as such, bounded.
    private static func seedText(_ seed: String) -> String {
        let shown = DisplayText.preview(seed, maxBytes: SolanaSummarizer.maxSeedBytes)
        return "\"\(shown.text)\"\(shown.cutNote)"
    }
}

/// SPL Token and Token-2022: the same instructions for the ones shown here.
enum TokenProgramDecoder {
    /// Which authority SetAuthority changes; Token-2022 adds its extensions' authorities
    /// after SPL Token's four.
    private static let authorityTypes = [
        "mint tokens", "freeze account", "account owner", "close account", "transfer fee config", "withheld withdraw",
        "close mint", "interest rate", "permanent delegate", "confidential transfer mint", "transfer hook program id",
        "confidential transfer fee config", "metadata pointer", "group pointer", "group member pointer",
        "scaled UI amount", "pause",
    ]
    /// A raw amount this large, when the decimals are not known, is warned of as a very large
    /// approval; with decimals, a billion whole tokens or more is.
    static let veryLargeRawAmount: UInt64 = 1_000_000_000_000_000
    static let veryLargeWholeTokens: UInt64 = 1_000_000_000

    static func decode(_ context: InstructionContext, is2022: Bool) -> Decoded? {
        var data = InstructionData(context.instruction.data)
        guard let variant = data.u8() else { return nil }
        let account = context.account
        let program = is2022 ? "Token-2022 " : ""
        switch variant {
        case 3:  // Transfer { amount }: [source, destination, authority, signers...]
            guard let amount = data.u64(), let source = context.labeled(0, as: "token account"),
                let destination = context.labeled(1, as: "token account"), let authority = account(2)
            else { return nil }
            return Decoded(
                [
                    "Transfer raw amount \(amount) (decimals not given\(is2022 ? ", Token-2022" : ""))",
                    "  from \(source)", "  to \(destination)", "  authority \(authority)",
                ] + data.extraNote(), movesFunds: context.isSigner(from: 2))
        case 12:  // TransferChecked { amount, decimals }: [source, mint, destination, authority, signers...]
            guard let amount = data.u64(), let decimals = data.u8(),
                let source = context.labeled(0, as: "token account"), let mint = account(1),
                let destination = context.labeled(2, as: "token account"), let authority = account(3)
            else { return nil }
            var decoded = Decoded(
                [
                    "Transfer \(tokens(amount, decimals)) of mint \(mint) (\(program)transferChecked, \(decimals) decimals)",
                    "  from \(source)", "  to \(destination)", "  authority \(authority)",
                ] + data.extraNote(), movesFunds: context.isSigner(from: 3))
            decoded.token2022TransferChecked = is2022
            return decoded
        case 4:  // Approve { amount }: [source, delegate, owner, signers...]
            guard let amount = data.u64(), let source = context.labeled(0, as: "token account"),
                let delegate = account(1), let owner = account(2)
            else { return nil }
            let shown =
                amount == .max
                ? "an unlimited amount (raw amount \(amount))" : "raw amount \(amount) (decimals not given)"
            return Decoded(
                [
                    "Approve \(delegate) to spend \(shown)\(is2022 ? " (Token-2022)" : "")", "  from \(source)",
                    "  owner \(owner)",
                ] + data.extraNote(),
                warnings: approvalWarnings(amount, decimals: nil, delegate: delegate, source: source),
                movesFunds: context.isSigner(from: 2))
        case 13:  // ApproveChecked { amount, decimals }: [source, mint, delegate, owner, signers...]
            guard let amount = data.u64(), let decimals = data.u8(),
                let source = context.labeled(0, as: "token account"), let mint = account(1),
                let delegate = account(2), let owner = account(3)
            else { return nil }
            let shown = amount == .max ? "an unlimited amount (\(tokens(amount, decimals)))" : tokens(amount, decimals)
            return Decoded(
                [
                    "Approve \(delegate) to spend \(shown)",
                    "  of mint \(mint) (\(program)approveChecked, \(decimals) decimals)",
                    "  from \(source)", "  owner \(owner)",
                ] + data.extraNote(),
                warnings: approvalWarnings(amount, decimals: decimals, delegate: delegate, source: source),
                movesFunds: context.isSigner(from: 3))
        case 5:  // Revoke: [source, owner, signers...]
            guard let source = context.labeled(0, as: "token account"), let owner = account(1) else { return nil }
            return Decoded(["Revoke the delegate of \(source)", "  owner \(owner)"] + data.extraNote())
        case 6:  // SetAuthority { type, new authority: COption<Pubkey> }: [account or mint, current authority]
            guard let type = data.u8(), Int(type) < (is2022 ? authorityTypes.count : 4), let tag = data.u8(),
                let target = account(0), let current = account(1)
            else { return nil }
            let authority = authorityTypes[Int(type)]
            switch tag {
            case 0:
                return Decoded(
                    ["Remove the \(authority) authority of \(target) for good", "  current authority \(current)"]
                        + data.extraNote(),
                    warnings: ["Authority removed: the \(authority) authority of \(target) is removed for good"],
                    movesFunds: context.isSigner(from: 1))
            case 1:
                guard let newKey = data.key() else { return nil }
                let newAuthority = context.name(newKey)
                return Decoded(
                    [
                        "Set the \(authority) authority of \(target) to \(newAuthority)",
                        "  current authority \(current)",
                    ]
                        + data.extraNote(),
                    warnings: newKey == context.summarizer.signer
                        ? []
                        : ["Authority handed over: the \(authority) authority of \(target) goes to \(newAuthority)"],
                    movesFunds: context.isSigner(from: 1))
            default:
                return nil
            }
        case 9:  // CloseAccount: [account, destination, owner, signers...]
            guard let closed = context.labeled(0, as: "token account"), let destination = account(1),
                let owner = account(2)
            else { return nil }
            return Decoded(
                ["Close \(closed)", "  its SOL goes to \(destination)", "  authority \(owner)"] + data.extraNote(),
                warnings: context.isSigner(1)
                    ? [] : ["Account closed to someone else: the SOL in \(closed) goes to \(destination)"],
                // Closed by this key, its rent moves wherever it goes.
                movesFunds: context.isSigner(from: 2))
        case 7, 14:  // MintTo { amount } / MintToChecked { amount, decimals }: [mint, account, authority, signers...]
            guard let amount = data.u64(), let mint = account(0),
                let destination = context.labeled(1, as: "token account"), let authority = account(2)
            else { return nil }
            var first = "Mint raw amount \(amount) of mint \(mint) (decimals not given\(is2022 ? ", Token-2022" : ""))"
            if variant == 14 {
                guard let decimals = data.u8() else { return nil }
                first =
                    "Mint \(tokens(amount, decimals)) of mint \(mint) (\(program)mintToChecked, \(decimals) decimals)"
            }
            return Decoded([first, "  to \(destination)", "  mint authority \(authority)"] + data.extraNote())
        case 8, 15:  // Burn { amount } / BurnChecked { amount, decimals }: [account, mint, authority, signers...]
            guard let amount = data.u64(), let source = context.labeled(0, as: "token account"), let mint = account(1),
                let authority = account(2)
            else { return nil }
            var first = "Burn raw amount \(amount) of mint \(mint) (decimals not given\(is2022 ? ", Token-2022" : ""))"
            if variant == 15 {
                guard let decimals = data.u8() else { return nil }
                first = "Burn \(tokens(amount, decimals)) of mint \(mint) (\(program)burnChecked, \(decimals) decimals)"
            }
            return Decoded(
                [first, "  from \(source)", "  authority \(authority)"] + data.extraNote(),
                movesFunds: context.isSigner(from: 2))
        case 1:  // InitializeAccount: [account, mint, owner, rent]
            guard let initialized = context.labeled(0, as: "token account"), let mint = account(1),
                let owner = account(2), context.has(4)
            else { return nil }
            return Decoded(["Initialize \(initialized) for mint \(mint)", "  owner \(owner)"] + data.extraNote())
        case 16, 18:  // InitializeAccount2 / 3 { owner }: [account, mint, (rent)]
            guard let owner = data.key(), let initialized = context.labeled(0, as: "token account"),
                let mint = account(1), context.has(variant == 16 ? 3 : 2)
            else { return nil }
            return Decoded(
                ["Initialize \(initialized) for mint \(mint)", "  owner \(context.name(owner))"] + data.extraNote())
        case 10, 11:  // FreezeAccount / ThawAccount: [account, mint, authority, signers...]
            guard let target = context.labeled(0, as: "token account"), let mint = account(1),
                let authority = account(2)
            else { return nil }
            return Decoded(
                [
                    "\(variant == 10 ? "Freeze" : "Thaw") \(target) of mint \(mint)", "  freeze authority \(authority)",
                ] + data.extraNote())
        case 17:  // SyncNative: [account]
            guard let synced = context.labeled(0, as: "token account") else { return nil }
            return Decoded(["Sync the wrapped SOL balance of \(synced)"] + data.extraNote())
        default:
            return nil
        }
    }

    /// An amount in whole tokens, given the decimals the instruction states; raw past
    /// `maxShownDecimals`, which would not fit a line written out.
    private static func tokens(_ amount: UInt64, _ decimals: UInt8) -> String {
        if decimals > SolanaSummarizer.maxShownDecimals { return "raw amount \(amount) (\(decimals) decimals)" }
        let number = TransactionSummary.units(String(amount), decimals: Int(decimals), symbol: "")
        return number + (number == "1" ? " token" : " tokens")
    }

    private static func approvalWarnings(_ amount: UInt64, decimals: UInt8?, delegate: String, source: String)
        -> [String]
    {
        if amount == .max {
            return ["Unlimited approval: \(delegate) may spend every token in \(source)"]
        }
        let veryLarge: Bool
        if let decimals {
            // Whole tokens: the amount over 10^decimals (0 once decimals pass what u64 holds).
            var whole = amount
            for _ in 0..<min(Int(decimals), 20) { whole /= 10 }
            veryLarge = whole >= veryLargeWholeTokens
        } else {
            veryLarge = amount >= veryLargeRawAmount
        }
        guard veryLarge else { return [] }
        let shown = decimals.map { tokens(amount, $0) } ?? "raw amount \(amount)"
        return ["Very large approval: \(delegate) may spend \(shown) from \(source)"]
    }
}

/// The Associated Token Account program: creates the token account a wallet's address and a
/// mint determine.
enum AssociatedTokenDecoder {
    static func decode(_ context: InstructionContext) -> Decoded? {
        // No data is Create, as is [0]; [1] is CreateIdempotent. The program reads its data
        // whole (borsh), so anything longer is refused.
        let data = context.instruction.data
        guard data.count <= 1, let funder = context.account(0), let created = context.labeled(1, as: "token account"),
            let owner = context.account(2), let mint = context.account(3), context.has(6)
        else { return nil }
        let first: String
        switch data.first {
        case nil, 0: first = "Create \(created) (associated token account)"
        case 1: first = "Create \(created) if it does not exist (associated token account)"
        default: return nil
        }
        // The rent it pays stays the owner's, returned when the account is closed: not a move of
        // funds the dialog must show before all else.
        return Decoded([first, "  for owner \(owner), mint \(mint)", "  rent paid by \(funder)"])
    }
}

/// The Stake program: delegation, deactivation, withdrawal and authorities.
enum StakeProgramDecoder {
    private static let authorities = ["stake", "withdraw"]

    static func decode(_ context: InstructionContext) -> Decoded? {
        var data = InstructionData(context.instruction.data)
        guard let variant = data.u32() else { return nil }
        let account = context.account
        switch variant {
        case 0:  // Initialize { staker, withdrawer, lockup { unix timestamp, epoch, custodian } }: [stake, rent]
            guard let staker = data.key(), let withdrawer = data.key(), let timestamp = data.i64(),
                let epoch = data.u64(),
                let custodian = data.key(), let stake = context.labeled(0, as: "stake account"), context.has(2)
            else { return nil }
            var lines = [
                "Initialize \(stake)", "  stake authority \(context.name(staker))",
                "  withdraw authority \(context.name(withdrawer))",
            ]
            if timestamp != 0 || epoch != 0 || custodian.contains(where: { $0 != 0 }) {
                lines.append(
                    "  locked up until unix time \(timestamp) and epoch \(epoch), custodian \(context.name(custodian))")
            }
            return Decoded(lines + data.extraNote())
        case 1, 10:
            // Authorize { new authority, which }: [stake, clock, authority, custodian?]
            // AuthorizeChecked { which }: [stake, clock, authority, new authority, custodian?]
            let newKey: [UInt8]?
            if variant == 1 {
                newKey = data.key()
            } else {
                newKey =
                    context.instruction.accounts.count > 3
                        && context.instruction.accounts[3] < context.summarizer.message.accountKeys.count
                    ? context.summarizer.message.accountKeys[context.instruction.accounts[3]] : nil
            }
            guard let which = data.u32(), which < 2, let stake = context.labeled(0, as: "stake account"),
                let authority = account(2),
                variant == 1 || context.has(4)
            else { return nil }
            let kind = authorities[Int(which)]
            let newAuthority = newKey.map(context.name) ?? account(3) ?? "?"
            let handedOver = which == 1 && newKey != context.summarizer.signer
            return Decoded(
                ["Make \(newAuthority) the \(kind) authority of \(stake)", "  current authority \(authority)"]
                    + data.extraNote(),
                warnings: handedOver
                    ? ["Authority handed over: the withdraw authority of \(stake) goes to \(newAuthority)"] : [],
                movesFunds: context.isSigner(2))
        case 2:  // DelegateStake: [stake, vote, clock, stake history, config, authority]
            guard let stake = context.labeled(0, as: "stake account"),
                let vote = context.labeled(1, as: "validator vote account"), let authority = account(5)
            else { return nil }
            return Decoded(
                [
                    "Delegate \(stake)", "  to \(vote)", "  stake authority \(authority)",
                ] + data.extraNote(), movesFunds: context.isSigner(5))
        case 3:  // Split { lamports }: [stake, split stake, authority]
            guard let lamports = data.u64(), let stake = context.labeled(0, as: "stake account"),
                let split = context.labeled(1, as: "stake account"), let authority = account(2)
            else { return nil }
            return Decoded(
                [
                    "Split \(SolanaSummarizer.sol(lamports)) from \(stake)", "  into \(split)",
                    "  stake authority \(authority)",
                ] + data.extraNote())
        case 4:  // Withdraw { lamports }: [stake, recipient, clock, stake history, withdraw authority, custodian?]
            guard let lamports = data.u64(), let stake = context.labeled(0, as: "stake account"), let to = account(1),
                let authority = account(4)
            else { return nil }
            return Decoded(
                [
                    "Withdraw \(SolanaSummarizer.sol(lamports)) from \(stake)", "  to \(to)",
                    "  withdraw authority \(authority)",
                ] + data.extraNote(), movesFunds: context.isSigner(4))
        case 5:  // Deactivate: [stake, clock, authority]
            guard let stake = context.labeled(0, as: "stake account"), let authority = account(2) else { return nil }
            return Decoded(
                ["Deactivate \(stake)", "  stake authority \(authority)"] + data.extraNote(),
                movesFunds: context.isSigner(2))
        case 7:  // Merge: [destination, source, clock, stake history, authority]
            guard let destination = context.labeled(0, as: "stake account"),
                let source = context.labeled(1, as: "stake account"), let authority = account(4)
            else { return nil }
            return Decoded(
                [
                    "Merge \(source) into \(destination)", "  stake authority \(authority)",
                ] + data.extraNote())
        default:
            return nil
        }
    }
}
