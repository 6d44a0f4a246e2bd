import WalletBridgeSystem
import WalletBridgeKeys

/// Decodes the calldata of the calls that move or approve tokens: ERC-20 `transfer`,
/// `transferFrom`, `approve`, `increaseAllowance`; ERC-721 `safeTransferFrom` (both
/// overloads); ERC-1155 `safeTransferFrom` and `safeBatchTransferFrom`; `setApprovalForAll`;
/// Uniswap's Permit2 `approve` and `permit`. Anything else is named by its selector and size,
/// with a warning. Arguments are read strictly (an address word with bits above its 20 bytes,
/// a bool other than 0 or 1, an offset outside the data): calldata that does not decode as its
/// selector's function is shown as not understood, never guessed at.
struct CalldataDecoder {
    let data: [UInt8]
    let contract: EthereumAddress
    let chainID: UInt64
    let sender: EthereumAddress?

    /// Uniswap's Permit2, at the same address on every chain (deployed with CREATE2).
    static let permit2 = EthereumAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")
    /// The most lines one call takes (its header included): an ERC-1155 batch lists as many
    /// items as fit and counts the rest, so a call never crowds out the rest of a dialog.
    static let maxCallLines = 8
    /// Above this many, a batch is not read at all (the calldata is still bounded by the
    /// transaction's size; this bounds the work and the lines).
    static let maxBatchLength = 10_000

    enum Selector: UInt32, CaseIterable {
        case transfer = 0xa905_9cbb  // transfer(address,uint256)
        case transferFrom = 0x23b8_72dd  // transferFrom(address,address,uint256): ERC-20, and ERC-721's
        case approve = 0x095e_a7b3  // approve(address,uint256): ERC-20, and ERC-721's
        case increaseAllowance = 0x3950_9351  // increaseAllowance(address,uint256)
        case safeTransferFrom721 = 0x4284_2e0e  // safeTransferFrom(address,address,uint256)
        case safeTransferFrom721Data = 0xb88d_4fde  // safeTransferFrom(address,address,uint256,bytes)
        case safeTransferFrom1155 = 0xf242_432a  // safeTransferFrom(address,address,uint256,uint256,bytes)
        case safeBatchTransferFrom = 0x2eb2_c2d6  // safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)
        case setApprovalForAll = 0xa22c_b465  // setApprovalForAll(address,bool)
        case permit2Approve = 0x8751_7c45  // approve(address,address,uint160,uint48), Permit2's
        case permit2Permit = 0x2b67_b570  // permit(address,((address,uint160,uint48,uint48),address,uint256),bytes)

        /// The function's name, as its warnings say it.
        var name: String { String(signature.prefix { $0 != "(" }) }

        var signature: String {
            switch self {
            case .transfer: "transfer(address,uint256)"
            case .transferFrom: "transferFrom(address,address,uint256)"
            case .approve: "approve(address,uint256)"
            case .increaseAllowance: "increaseAllowance(address,uint256)"
            case .safeTransferFrom721: "safeTransferFrom(address,address,uint256)"
            case .safeTransferFrom721Data: "safeTransferFrom(address,address,uint256,bytes)"
            case .safeTransferFrom1155: "safeTransferFrom(address,address,uint256,uint256,bytes)"
            case .safeBatchTransferFrom: "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)"
            case .setApprovalForAll: "setApprovalForAll(address,bool)"
            case .permit2Approve: "approve(address,address,uint160,uint48)"
            case .permit2Permit: "permit(address,((address,uint160,uint48,uint48),address,uint256),bytes)"
            }
        }
    }

    /// Arguments that do not decode as the selector's function.
    struct Undecodable: Error {}

    func decode(into call: inout CallSummary) {
        guard data.count >= 4 else {
            call.lines.append(
                "  \(DisplayText.counted(data.count, "byte")) of data, too short for a function selector"
            )
            call.warnings.append(
                .init(
                    .unreadable,
                    "Unknown call: \(data.count) bytes of data are not a function call this wallet can read"))
            // What the contract does with data it cannot read is unknown: it may move funds.
            call.movesFunds = true
            return
        }
        let selectorHex = "0x" + Hex.encode(Array(data[0..<4]))
        let raw = data[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let isPermit2 = contract == Self.permit2
        guard let selector = Selector(rawValue: raw),
            isPermit2 == (selector == .permit2Approve || selector == .permit2Permit)
        else {
            call.lines[0] +=
                " with selector \(selectorHex) and \(DisplayText.counted(data.count, "byte")) of data"
            call.warnings.append(
                .init(.unreadable, "Unknown function \(selectorHex): what this call does cannot be shown"))
            call.movesFunds = true
            return
        }
        // Lines and warnings go to a copy, so that a call that turns out malformed halfway
        // shows none of what was read before the fault.
        var decoded = call
        do {
            let extra = try decode(selector, into: &decoded)
            if extra > 0 {
                decoded.warnings.append(
                    .init(
                        .unreadable,
                        "\(DisplayText.counted(extra, "extra byte")) after the arguments of "
                            + "\(selector.name): what the contract does with them cannot be shown"))
                decoded.movesFunds = true
            }
            call = decoded
        } catch {
            call.lines.append(
                "  \(DisplayText.counted(data.count, "byte")) of data that do not decode as \(selector.signature)"
            )
            call.warnings.append(
                .init(
                    .unreadable,
                    "Malformed call: the data do not decode as \(selector.signature), so what it does cannot be shown"))
            call.movesFunds = true
        }
    }

    private var token: EthereumTokens.Token? { EthereumTokens.token(contract, chain: chainID) }

    /// An amount of this contract's token: in units when the table knows it, else raw.
    /// An approval of `maximum` (the largest value of its type) is the "unlimited" that dApps
    /// ask for, and is called that rather than written out in 78 digits.
    private func amount(_ value: UInt256, token: EthereumTokens.Token?, maximum: UInt256? = nil) -> String {
        if let maximum, value == maximum {
            return "an unlimited amount of " + (token?.symbol ?? "the token (token not known)")
        }
        guard let token else { return "\(EthereumTransaction.number(value.decimal)) (token not known: raw amount)" }
        return EthereumTransaction.units(
            value, decimals: token.decimals, symbol: token.symbol, smallest: "raw units of \(token.symbol)")
    }

    /// A number that is an ERC-20 amount or an ERC-721 token id, for a contract not in the
    /// table: ERC-20's transferFrom and approve have the same selectors as ERC-721's.
    private func amountOrTokenID(_ value: UInt256) -> String {
        let number = EthereumTransaction.number(value.decimal)
        return "\(number): a raw amount, or ERC-721 token #\(number)"
    }

    private func unknownToken(_ address: EthereumAddress, into call: inout CallSummary) {
        guard EthereumTokens.token(address, chain: chainID) == nil else { return }
        call.notices.append(
            "Token not known: \(address.short) is not in the wallet's table, so its amounts are shown raw")
    }

    /// Tokens leave `owner`: the sender's funds move when the owner is the sender (or may be,
    /// when the transaction does not say who sends it); someone else's owner is warned of.
    private func movesTokens(from owner: EthereumAddress, into call: inout CallSummary) {
        if owner == sender || sender == nil { call.movesFunds = true }
        guard owner != sender else { return }
        call.warnings.append(
            .init(
                .funds,
                sender == nil
                    ? "Moves tokens from \(owner.short): the transaction does not say who sends it"
                    : "Moves tokens from \(owner.short), which is not the sender"))
    }

    /// Warnings for letting `spender` move `value` of `tokenAddress`: unlimited (the maximum,
    /// or 2^255 and above, which no balance reaches), or very large (a billion whole tokens, at
    /// the token's decimals or 18 when it is not known).
    private func approvalWarnings(
        spender: EthereumAddress, value: UInt256, tokenAddress: EthereumAddress, unlimitedFrom: UInt256,
        into call: inout CallSummary
    ) {
        let known = EthereumTokens.token(tokenAddress, chain: chainID)
        let what = known.map { "your \($0.symbol)" } ?? "your tokens of \(tokenAddress.short)"
        if unlimitedFrom <= value {
            call.warnings.append(.init(.funds, "Unlimited approval: \(spender.short) may spend all \(what)"))
        } else if UInt256.powerOfTen((known?.decimals ?? 18) + 9) <= value {
            let much =
                known.map { _ in amount(value, token: known) }
                ?? "\(EthereumTransaction.number(value.decimal)) raw units of \(tokenAddress.short)"
            call.warnings.append(.init(.funds, "Very large approval: \(spender.short) may spend \(much)"))
        }
    }

    /// The address lines of a transfer: who receives, then whose tokens they are, each on a line
    /// of its own so that no long number before them can push them out of sight.
    private func parties(to: EthereumAddress, from: EthereumAddress) -> [String] {
        ["    to \(to.short)", "    from \(from.short)"]
    }

    /// Decodes the arguments into `call`; returns how many bytes follow them (shown, with a
    /// warning, by `decode(into:)`).
    private func decode(_ selector: Selector, into call: inout CallSummary) throws(Undecodable) -> Int {
        let args = ABIArguments(bytes: Array(data.dropFirst(4)))
        // 2^255: no token's supply comes near it, so an approval from there up is "unlimited".
        let half = UInt256.maxOf(bits: 255).adding(1)
        switch selector {
        case .transfer:
            let extra = try args.extra(afterWords: 2)
            let to = try args.address(0)
            let value = try args.uint(1)
            call.lines += ["  transfer \(amount(value, token: token))", "    to \(to.short)"]
            call.movesFunds = true
            unknownToken(contract, into: &call)
            return extra
        case .transferFrom:
            let extra = try args.extra(afterWords: 3)
            let from = try args.address(0)
            let to = try args.address(1)
            let value = try args.uint(2)
            let what = token == nil ? amountOrTokenID(value) : amount(value, token: token)
            call.lines += ["  transfer \(what)"] + parties(to: to, from: from)
            movesTokens(from: from, into: &call)
            unknownToken(contract, into: &call)
            return extra
        case .approve, .increaseAllowance:
            let extra = try args.extra(afterWords: 2)
            let spender = try args.address(0)
            let value = try args.uint(1)
            if selector == .approve {
                // On a contract not in the table, this may be ERC-721's approve(spender, tokenId).
                let what =
                    token == nil && value < half
                    ? amountOrTokenID(value) : amount(value, token: token, maximum: .max)
                call.lines += ["  approve spender \(spender.short)", "    to spend \(what)"]
                approvalWarnings(
                    spender: spender, value: value, tokenAddress: contract, unlimitedFrom: half, into: &call)
                if token == nil, value < half {
                    call.warnings.append(
                        .init(
                            .funds,
                            "If \(contract.short) is an NFT contract, \(spender.short) may take its token "
                                + "#\(EthereumTransaction.number(value.decimal))"))
                }
            } else {
                call.lines += [
                    "  increase the allowance of \(spender.short)",
                    "    by \(amount(value, token: token, maximum: .max))",
                ]
                approvalWarnings(
                    spender: spender, value: value, tokenAddress: contract, unlimitedFrom: half, into: &call)
            }
            // An approval of zero revokes one, but on an NFT contract token #0 is a token.
            if !value.isZero || (selector == .approve && token == nil) { call.movesFunds = true }
            unknownToken(contract, into: &call)
            return extra
        case .safeTransferFrom721, .safeTransferFrom721Data:
            let from = try args.address(0)
            let to = try args.address(1)
            let id = try args.uint(2)
            var extra: Int
            var note = ""
            if selector == .safeTransferFrom721Data {
                let bytes = try args.bytes(at: 3)
                extra = try args.extra(headWords: 4, tails: [bytes.end])
                note = dataNote(bytes.count)
            } else {
                extra = try args.extra(afterWords: 3)
            }
            call.lines +=
                ["  transfer NFT #\(EthereumTransaction.number(id.decimal))\(note)"] + parties(to: to, from: from)
            movesTokens(from: from, into: &call)
            return extra
        case .safeTransferFrom1155:
            let from = try args.address(0)
            let to = try args.address(1)
            let id = try args.uint(2)
            let value = try args.uint(3)
            let bytes = try args.bytes(at: 4)
            let extra = try args.extra(headWords: 5, tails: [bytes.end])
            call.lines +=
                [
                    "  transfer \(EthereumTransaction.number(value.decimal)) of token "
                        + "#\(EthereumTransaction.number(id.decimal))\(dataNote(bytes.count))"
                ] + parties(to: to, from: from)
            movesTokens(from: from, into: &call)
            return extra
        case .safeBatchTransferFrom:
            let from = try args.address(0)
            let to = try args.address(1)
            let ids = try args.uintArray(at: 2, maxCount: Self.maxBatchLength)
            let values = try args.uintArray(at: 3, maxCount: Self.maxBatchLength)
            let bytes = try args.bytes(at: 4)
            let extra = try args.extra(headWords: 5, tails: [ids.end, values.end, bytes.end])
            guard ids.values.count == values.values.count else { throw Undecodable() }
            call.lines +=
                [
                    "  transfer \(DisplayText.counted(ids.values.count, "kind")) of tokens"
                        + dataNote(bytes.count)
                ] + parties(to: to, from: from)
            // The items take what is left of the call's lines; past that, they are counted.
            let room = max(1, Self.maxCallLines - call.lines.count)
            let items = Array(zip(ids.values, values.values))
            let shown = items.count <= room ? items.count : room - 1
            for (id, value) in items.prefix(shown) {
                let (count, tokenID) = (
                    EthereumTransaction.number(value.decimal), EthereumTransaction.number(id.decimal)
                )
                call.lines.append("    \(count) of token #\(tokenID)")
            }
            if shown < items.count {
                let more = DisplayText.counted(items.count - shown, "more item")
                call.lines.append("    …and \(more)")
                // What moves must never go unsaid: the items left out are named in a warning the
                // dialog always shows.
                call.warnings.append(
                    .init(
                        .funds, "This call moves \(items.count) kinds of tokens; the dialog lists \(shown) of them"))
            }
            movesTokens(from: from, into: &call)
            return extra
        case .setApprovalForAll:
            let extra = try args.extra(afterWords: 2)
            let operatorAddress = try args.address(0)
            let approved = try args.bool(1)
            call.lines.append(
                approved
                    ? "  allow \(operatorAddress.short) to move all your tokens of \(contract.short)"
                    : "  stop \(operatorAddress.short) from moving all your tokens of \(contract.short)")
            if approved {
                call.warnings.append(
                    .init(
                        .funds,
                        "Approval for all: \(operatorAddress.short) may move every token you hold of \(contract.short)")
                )
                call.movesFunds = true
            }
            return extra
        case .permit2Approve:
            let extra = try args.extra(afterWords: 4)
            let tokenAddress = try args.address(0)
            let spender = try args.address(1)
            let value = try args.uint(2, bits: 160)
            let expiration = try args.uint(3, bits: 48).uint64 ?? 0
            let known = EthereumTokens.token(tokenAddress, chain: chainID)
            call.lines += [
                "  Permit2: allow spender \(spender.short)",
                "    to move up to \(amount(value, token: known, maximum: .maxOf(bits: 160)))"
                    + " of token \(tokenAddress.short)",
                "    \(Self.expiry(expiration))",
            ]
            approvalWarnings(
                spender: spender, value: value, tokenAddress: tokenAddress, unlimitedFrom: UInt256.maxOf(bits: 160),
                into: &call)
            call.warnings.append(
                .init(
                    .funds,
                    "Permit2 approval: \(spender.short) may move your tokens of \(tokenAddress.short) through Permit2"))
            call.movesFunds = true
            unknownToken(tokenAddress, into: &call)
            return extra
        case .permit2Permit:
            // permit(owner, ((token, amount, expiration, nonce), spender, sigDeadline), signature):
            // the struct is static, so it sits in the head; the signature is the one tail.
            let owner = try args.address(0)
            let tokenAddress = try args.address(1)
            let value = try args.uint(2, bits: 160)
            let expiration = try args.uint(3, bits: 48).uint64 ?? 0
            _ = try args.uint(4, bits: 48)
            let spender = try args.address(5)
            let deadline = try args.uint(6)
            let signature = try args.bytes(at: 7)
            let extra = try args.extra(headWords: 8, tails: [signature.end])
            let known = EthereumTokens.token(tokenAddress, chain: chainID)
            // permit only records the owner's signed allowance; no token moves in this call.
            let validity =
                deadline == .max
                ? "the signature has no deadline"
                : "signature valid until "
                    + (deadline.uint64.map(Self.date) ?? EthereumTransaction.number(deadline.decimal))
            call.lines += [
                "  Permit2: grants an allowance over \(owner.short)'s tokens",
                "    to spender \(spender.short)",
                "    up to \(amount(value, token: known, maximum: .maxOf(bits: 160))) of token \(tokenAddress.short)",
                "    \(Self.expiry(expiration)); \(validity)",
            ]
            approvalWarnings(
                spender: spender, value: value, tokenAddress: tokenAddress, unlimitedFrom: UInt256.maxOf(bits: 160),
                into: &call)
            call.warnings.append(
                .init(
                    .funds,
                    "Permit2 approval: \(spender.short) may move tokens of \(tokenAddress.short) through Permit2"))
            call.movesFunds = true
            if owner != sender {
                call.warnings.append(
                    .init(
                        .funds,
                        sender == nil
                            ? "Grants an allowance over \(owner.short)'s tokens: the transaction does not say who sends it"
                            : "Grants an allowance over \(owner.short)'s tokens, which is not the sender"))
            }
            unknownToken(tokenAddress, into: &call)
            return extra
        }
    }

    private func dataNote(_ count: Int) -> String {
        count == 0 ? "" : ", with \(DisplayText.counted(count, "byte")) of data"
    }

    /// Permit2's expiration: 0 is the block the approval lands in (Permit2 stores the block's
    /// timestamp for it); the largest uint48 is what dApps send for an approval that never ends.
    static func expiry(_ expiration: UInt64) -> String {
        switch expiration {
        case 0: "expires with the block it is included in"
        case (1 << 48) - 1: "never expires"
        default: "expires \(date(expiration))"
        }
    }

    /// A Unix time as "2026-11-28 06:10 UTC" (proleptic Gregorian; days to a civil date by
    /// Howard Hinnant's algorithm, which needs no calendar library).
    static func date(_ seconds: UInt64) -> String {
        let days = Int64(seconds / 86_400)
        let minutes = Int(seconds % 86_400) / 60
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(Int64(minutes / 60))):\(two(Int64(minutes % 60))) UTC"
    }
}

/// The arguments of an ABI-encoded call (the Solidity ABI specification): 32-byte head words,
/// dynamic values at offsets from the start of the arguments. Every read is checked against the
/// data's size.
struct ABIArguments {
    let bytes: [UInt8]

    private func word(_ index: Int) throws(CalldataDecoder.Undecodable) -> ArraySlice<UInt8> {
        try word(atByte: index * 32)
    }

    private func word(atByte offset: Int) throws(CalldataDecoder.Undecodable) -> ArraySlice<UInt8> {
        guard offset >= 0, offset <= bytes.count - 32 else { throw CalldataDecoder.Undecodable() }
        return bytes[offset..<offset + 32]
    }

    /// At least `count` static words: how many bytes follow them (Solidity ignores them, but
    /// a contract may read them, so the decoder shows that they are there).
    func extra(afterWords count: Int) throws(CalldataDecoder.Undecodable) -> Int {
        guard bytes.count >= count * 32 else { throw CalldataDecoder.Undecodable() }
        return bytes.count - count * 32
    }

    /// How many bytes follow the head and the tails, which end where the last tail does.
    func extra(headWords: Int, tails: [Int]) throws(CalldataDecoder.Undecodable) -> Int {
        let end = max(headWords * 32, tails.max() ?? 0)
        guard bytes.count >= end else { throw CalldataDecoder.Undecodable() }
        return bytes.count - end
    }

    func uint(_ index: Int, bits: Int = 256) throws(CalldataDecoder.Undecodable) -> UInt256 {
        guard let value = UInt256(bigEndian: try word(index)), value.bitWidth <= bits else {
            throw CalldataDecoder.Undecodable()
        }
        return value
    }

    func address(_ index: Int) throws(CalldataDecoder.Undecodable) -> EthereumAddress {
        let value = try word(index)
        guard value.prefix(12).allSatisfy({ $0 == 0 }),
            let address = EthereumAddress(Hex.prefixed(Array(value.suffix(20))))
        else {
            throw CalldataDecoder.Undecodable()
        }
        return address
    }

    func bool(_ index: Int) throws(CalldataDecoder.Undecodable) -> Bool {
        let value = try uint(index)
        guard value.bitWidth <= 1 else { throw CalldataDecoder.Undecodable() }
        return !value.isZero
    }

    /// The offset in head word `index`, checked to be inside the data.
    private func offset(_ index: Int) throws(CalldataDecoder.Undecodable) -> Int {
        guard let value = try uint(index).uint64, value <= UInt64(bytes.count) else {
            throw CalldataDecoder.Undecodable()
        }
        return Int(value)
    }

    /// A `bytes` argument: its length, and where its padded tail ends.
    func bytes(at index: Int) throws(CalldataDecoder.Undecodable) -> (count: Int, end: Int) {
        let start = try offset(index)
        guard let length = UInt256(bigEndian: try word(atByte: start))?.uint64, length <= UInt64(bytes.count) else {
            throw CalldataDecoder.Undecodable()
        }
        let padded = (Int(length) + 31) / 32 * 32
        guard start + 32 + padded <= bytes.count else { throw CalldataDecoder.Undecodable() }
        return (Int(length), start + 32 + padded)
    }

    /// A `uint256[]` argument of at most `maxCount` items, and where it ends.
    func uintArray(at index: Int, maxCount: Int) throws(CalldataDecoder.Undecodable) -> (values: [UInt256], end: Int) {
        let start = try offset(index)
        guard let length = UInt256(bigEndian: try word(atByte: start))?.uint64, length <= UInt64(maxCount),
            start + 32 + Int(length) * 32 <= bytes.count
        else {
            throw CalldataDecoder.Undecodable()
        }
        var values: [UInt256] = []
        for item in 0..<Int(length) {
            guard let value = UInt256(bigEndian: try word(atByte: start + 32 + item * 32)) else {
                throw CalldataDecoder.Undecodable()
            }
            values.append(value)
        }
        return (values, start + 32 + Int(length) * 32)
    }
}
