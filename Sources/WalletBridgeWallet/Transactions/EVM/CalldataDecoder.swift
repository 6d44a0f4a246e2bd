import WalletBridge

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
    /// The most items of an ERC-1155 batch listed; the rest are counted.
    static let maxBatchItems = 8
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
                "  \(EthereumTransaction.count(data.count, "byte", "bytes")) of data, too short for a function selector"
            )
            call.warnings.append(.init(.unreadable, "Unknown call: \(data.count) bytes of data are not a function call this wallet can read"))
            return
        }
        let selectorHex = "0x" + Hex.encode(Array(data[0..<4]))
        let raw = data[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let isPermit2 = contract == Self.permit2
        guard let selector = Selector(rawValue: raw),
            isPermit2 == (selector == .permit2Approve || selector == .permit2Permit)
        else {
            call.lines[0] +=
                " with selector \(selectorHex) and \(EthereumTransaction.count(data.count, "byte", "bytes")) of data"
            call.warnings.append(.init(.unreadable, "Unknown function \(selectorHex): what this call does cannot be shown"))
            return
        }
        do {
            try decode(selector, into: &call)
        } catch {
            call.lines.append(
                "  \(EthereumTransaction.count(data.count, "byte", "bytes")) of data that do not decode as \(selector.signature)"
            )
            call.warnings.append(.init(.unreadable, "Malformed call: the data do not decode as \(selector.signature), so what it does cannot be shown"))
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
        guard let token else { return "\(value.decimal) (token not known: raw amount)" }
        return TransactionSummary.units(value.decimal, decimals: token.decimals, symbol: token.symbol)
    }

    private func unknownToken(_ address: EthereumAddress, into call: inout CallSummary) {
        guard EthereumTokens.token(address, chain: chainID) == nil else { return }
        call.notices.append(
            "Token not known: \(address.short) is not in the wallet's table, so its amounts are shown raw")
    }

    private func notSender(_ owner: EthereumAddress, into call: inout CallSummary) {
        guard owner != sender else { return }
        call.warnings.append(.init(.funds, sender == nil
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
                known.map { _ in amount(value, token: known) } ?? "\(value.decimal) raw units of \(tokenAddress.short)"
            call.warnings.append(.init(.funds, "Very large approval: \(spender.short) may spend \(much)"))
        }
    }

    private func decode(_ selector: Selector, into call: inout CallSummary) throws(Undecodable) {
        let args = ABIArguments(bytes: Array(data.dropFirst(4)))
        // 2^255: no token's supply comes near it, so an approval from there up is "unlimited".
        let half = UInt256.maxOf(bits: 255).adding(1)
        switch selector {
        case .transfer:
            try args.expectStatic(2)
            let to = try args.address(0)
            let value = try args.uint(1)
            call.lines.append("  transfer \(amount(value, token: token)) to \(to.short)")
            unknownToken(contract, into: &call)
        case .transferFrom:
            try args.expectStatic(3)
            let from = try args.address(0)
            let to = try args.address(1)
            let value = try args.uint(2)
            let what =
                token == nil
                ? "\(value.decimal) (token not known: raw amount, or an ERC-721 token id)" : amount(value, token: token)
            call.lines.append("  transfer \(what) from \(from.short) to \(to.short)")
            notSender(from, into: &call)
            unknownToken(contract, into: &call)
        case .approve, .increaseAllowance:
            try args.expectStatic(2)
            let spender = try args.address(0)
            let value = try args.uint(1)
            call.lines.append(
                selector == .approve
                    ? "  approve \(spender.short) to spend \(amount(value, token: token, maximum: .max))"
                    : "  increase \(spender.short)'s allowance by \(amount(value, token: token, maximum: .max))")
            approvalWarnings(spender: spender, value: value, tokenAddress: contract, unlimitedFrom: half, into: &call)
            unknownToken(contract, into: &call)
        case .safeTransferFrom721, .safeTransferFrom721Data:
            let from = try args.address(0)
            let to = try args.address(1)
            let id = try args.uint(2)
            var line = "  transfer NFT #\(id.decimal) from \(from.short) to \(to.short)"
            if selector == .safeTransferFrom721Data {
                let extra = try args.bytes(at: 3)
                try args.expectEnd(headWords: 4, tails: [extra.end])
                line += ", with \(EthereumTransaction.count(extra.count, "byte", "bytes")) of data"
            } else {
                try args.expectStatic(3)
            }
            call.lines.append(line)
            notSender(from, into: &call)
        case .safeTransferFrom1155:
            let from = try args.address(0)
            let to = try args.address(1)
            let id = try args.uint(2)
            let value = try args.uint(3)
            let extra = try args.bytes(at: 4)
            try args.expectEnd(headWords: 5, tails: [extra.end])
            call.lines.append(
                "  transfer \(value.decimal) of token #\(id.decimal) from \(from.short) to \(to.short)"
                    + dataNote(extra.count))
            notSender(from, into: &call)
        case .safeBatchTransferFrom:
            let from = try args.address(0)
            let to = try args.address(1)
            let ids = try args.uintArray(at: 2, maxCount: Self.maxBatchLength)
            let values = try args.uintArray(at: 3, maxCount: Self.maxBatchLength)
            let extra = try args.bytes(at: 4)
            try args.expectEnd(headWords: 5, tails: [ids.end, values.end, extra.end])
            guard ids.values.count == values.values.count else { throw Undecodable() }
            call.lines.append(
                "  transfer \(EthereumTransaction.count(ids.values.count, "kind", "kinds")) of tokens from \(from.short) to \(to.short)"
                    + dataNote(extra.count) + ":")
            for (id, value) in zip(ids.values, values.values).prefix(Self.maxBatchItems) {
                call.lines.append("    \(value.decimal) of token #\(id.decimal)")
            }
            if ids.values.count > Self.maxBatchItems {
                call.lines.append("    …and \(DisplayText.grouped(ids.values.count - Self.maxBatchItems)) more")
            }
            notSender(from, into: &call)
        case .setApprovalForAll:
            try args.expectStatic(2)
            let operatorAddress = try args.address(0)
            let approved = try args.bool(1)
            call.lines.append(
                approved
                    ? "  allow \(operatorAddress.short) to move all your tokens of \(contract.short)"
                    : "  stop \(operatorAddress.short) from moving all your tokens of \(contract.short)")
            if approved {
                call.warnings.append(.init(.funds, "Approval for all: \(operatorAddress.short) may move every token you hold of \(contract.short)"))
            }
        case .permit2Approve:
            try args.expectStatic(4)
            let tokenAddress = try args.address(0)
            let spender = try args.address(1)
            let value = try args.uint(2, bits: 160)
            let expiration = try args.uint(3, bits: 48).uint64 ?? 0
            let known = EthereumTokens.token(tokenAddress, chain: chainID)
            call.lines.append(
                "  Permit2: let \(spender.short) move up to \(amount(value, token: known, maximum: .maxOf(bits: 160))), token \(tokenAddress.short)"
            )
            call.lines.append("  \(Self.expiry(expiration))")
            approvalWarnings(
                spender: spender, value: value, tokenAddress: tokenAddress, unlimitedFrom: UInt256.maxOf(bits: 160),
                into: &call)
            call.warnings.append(.init(.funds, "Permit2 approval: \(spender.short) may move your tokens of \(tokenAddress.short) through Permit2"))
            unknownToken(tokenAddress, into: &call)
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
            try args.expectEnd(headWords: 8, tails: [signature.end])
            let known = EthereumTokens.token(tokenAddress, chain: chainID)
            call.lines.append(
                "  Permit2: with \(owner.short)'s signature, let \(spender.short) move up to "
                    + "\(amount(value, token: known, maximum: .maxOf(bits: 160))), token \(tokenAddress.short)")
            call.lines.append(
                "  \(Self.expiry(expiration)); signature valid until \(deadline.uint64.map(Self.date) ?? deadline.decimal)"
            )
            approvalWarnings(
                spender: spender, value: value, tokenAddress: tokenAddress, unlimitedFrom: UInt256.maxOf(bits: 160),
                into: &call)
            call.warnings.append(.init(.funds, "Permit2 approval: \(spender.short) may move tokens of \(tokenAddress.short) through Permit2"))
            notSender(owner, into: &call)
            unknownToken(tokenAddress, into: &call)
        }
    }

    private func dataNote(_ count: Int) -> String {
        count == 0 ? "" : ", with \(EthereumTransaction.count(count, "byte", "bytes")) of data"
    }

    /// Permit2's expiration: 0 is the block the approval lands in (Permit2 stores the block's
    /// timestamp for it).
    static func expiry(_ expiration: UInt64) -> String {
        expiration == 0 ? "expires with the block it is included in" : "expires \(date(expiration))"
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

    /// Exactly `count` static words and nothing after them.
    func expectStatic(_ count: Int) throws(CalldataDecoder.Undecodable) {
        guard bytes.count == count * 32 else { throw CalldataDecoder.Undecodable() }
    }

    /// Nothing after the head and the tails, as the encoder writes them: the data end where
    /// the last tail does.
    func expectEnd(headWords: Int, tails: [Int]) throws(CalldataDecoder.Undecodable) {
        guard bytes.count == max(headWords * 32, tails.max() ?? 0) else { throw CalldataDecoder.Undecodable() }
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
