import WalletBridgeKeys

/// For the fuzzer (fuzz/Sources/fuzz-evm-transaction): what the wallet does with an unsigned
/// serialized transaction, and the invariants that must hold whatever the bytes.
@_spi(Fuzzing) public enum EthereumTransactionFuzzing {
    /// The first byte that makes an input calldata instead of a transaction: 0xFF starts an RLP
    /// list whose length takes 8 bytes, far beyond a transaction's size, so no transaction
    /// starts with it and the decoder's own inputs lose nothing to this mode.
    static let calldataMode: UInt8 = 0xFF

    /// Checks `bytes`, and returns the invariant that failed, or nil. Input: an unsigned
    /// serialized transaction, or 0xFF, a byte choosing the contract called (a known token,
    /// Permit2, or an unknown one) and the calldata. Invariants: reading never traps (only a
    /// `TransactionError`); what reads re-encodes to exactly the input (the decoder takes the
    /// one canonical encoding); the string form (`0x` and hex, as eth_signTransaction takes it)
    /// reads the same; the signing hash is 32 bytes; a signed transaction re-reads as its
    /// fields; and every line of the summary is one line of at most
    /// `TransactionConsent.maxLineBytes` bytes, in a call of at most `CalldataDecoder.maxCallLines`.
    public static func check(_ bytes: [UInt8]) -> String? {
        if bytes.first == calldataMode, bytes.count >= 2 {
            let contracts = [
                "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "0x000000000022D473030F116dDEE9F6B43aC78BA3",
                "0x1111111111111111111111111111111111111111",
            ]
            guard let to = EthereumAddress(contracts[Int(bytes[1]) % contracts.count]) else {
                return "a fixed address does not parse"
            }
            let transaction = EthereumTransaction(
                kind: .feeMarket, chainID: 1, from: bytes[1] & 0x80 == 0 ? to : nil, nonce: 0, gasLimit: 21_000,
                maxFeePerGas: UInt256(2),
                maxPriorityFeePerGas: UInt256(1), to: to, value: UInt256(UInt64(bytes[1] & 0x40)),
                data: Array(bytes.dropFirst(2)), accessList: [])
            return summaryProblem(transaction.summary())
        }
        guard let transaction = try? EthereumTransaction(unsigned: bytes) else { return nil }
        guard transaction.unsignedBytes == bytes else {
            return "the transaction re-encodes to other bytes than it was read from"
        }
        guard transaction.signingHash.count == 32 else {
            return "a signing hash of \(transaction.signingHash.count) bytes"
        }
        if let chain = ChainID("eip155:\(transaction.chainID)") {
            let asString = try? EthereumTransaction(
                json: .string(Hex.prefixed(bytes)), chain: chain, field: "transaction")
            guard asString == transaction else { return "the string form reads otherwise" }
        } else {
            return "a chain id that makes no CAIP-2 chain"
        }
        // Any r and s with the top bit clear, and v 27: the signed form must carry the same
        // fields, so its RLP must read with the signature's three fields more.
        let signed = transaction.signed(with: [UInt8](repeating: 0x11, count: 64) + [27])
        guard !signed.isEmpty else { return "no signed transaction" }
        let payload = transaction.kind == .legacy ? signed : Array(signed.dropFirst())
        guard case .list(let fields)? = try? RLP.decode(payload, maxDepth: 4) else {
            return "the signed transaction is not one RLP list"
        }
        guard
            case .list(let unsignedFields)? = try? RLP.decode(
                transaction.kind == .legacy ? bytes : Array(bytes.dropFirst()), maxDepth: 4),
            fields.count == (transaction.kind == .legacy ? 9 : unsignedFields.count + 3),
            Array(fields.prefix(6)) == Array(unsignedFields.prefix(6))
        else {
            return "the signed transaction's fields differ from the unsigned ones"
        }
        return summaryProblem(transaction.summary())
    }

    private static func summaryProblem(_ summary: TransactionSummary) -> String? {
        let lines = summary.warnings.map(\.text) + summary.facts + summary.actions.flatMap(\.lines) + [summary.kind]
        for line in lines where line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a summary line with a control character: \(line.debugDescription.prefix(200))"
        }
        guard summary.actions.count == 1, let first = summary.actions.first?.lines, !first.isEmpty else {
            return "a summary without its one call"
        }
        // The batch listing is bounded; nothing else grows with the input.
        guard first.count <= CalldataDecoder.maxCallLines else { return "a call of \(first.count) lines" }
        // The dialog never cuts a decoder's line: an address at its end would be lost.
        for line in lines where line.utf8.count > TransactionConsent.maxLineBytes {
            return "a summary line of \(line.utf8.count) bytes: \(line.prefix(200))"
        }
        return nil
    }
}
