import WalletBridgeSystem

/// The Solana decoder's entry for the fuzzers (fuzz/), which live in a package of their own and
/// so cannot see `package` declarations. Not API: `@_spi(Fuzzing) import` only.
@_spi(Fuzzing) public enum SolanaTransactionFuzzing {
    /// The most a summary line may take, as the dialog measures it (`%` three bytes, hidden
    /// characters as their escapes): the dialog would cut a longer one, and must never need to.
    static let maxLineBytes = TransactionConsent.maxLineBytes

    /// Reads `bytes` as a transaction and as a message and summarizes what reads. Returns the
    /// first invariant that does not hold, nil when all do: whatever reads writes back to the
    /// same bytes and reads again the same; its signatures are as many as its signers; every
    /// instruction has an entry in the summary, no line empty or over `maxLineBytes`; every
    /// refusal names a problem.
    public static func brokenInvariant(_ bytes: [UInt8]) -> String? {
        do {
            let transaction = try SolanaTransaction(bytes: bytes)
            guard transaction.serialized() == bytes else { return "a transaction does not write back to its bytes" }
            guard transaction.signatures.count == transaction.message.requiredSignatures else {
                return "a transaction's signatures are not its required signers"
            }
            guard (try? SolanaMessage(bytes: transaction.message.bytes)) == transaction.message else {
                return "a transaction's message does not read alone as it did inside"
            }
            _ = try? transaction.verifyPresentSignatures()
            if let broken = brokenSummary(transaction.message) { return broken }
        } catch {
            if error.problem.isEmpty { return "a transaction refused without a problem" }
        }
        do {
            let message = try SolanaMessage(bytes: bytes)
            // Unsigned, it is a transaction: its signers' zero slots, then the message.
            let required = message.requiredSignatures
            let unsigned = SolanaWire.compactU16(required) + [UInt8](repeating: 0, count: required * 64) + bytes
            guard let transaction = try? SolanaTransaction(bytes: unsigned), transaction.message == message else {
                return "a message does not read as the unsigned transaction it makes"
            }
            if let broken = brokenSummary(message) { return broken }
        } catch {
            if error.problem.isEmpty { return "a message refused without a problem" }
        }
        return nil
    }

    /// Summarized for its fee payer and for a key it does not hold.
    private static func brokenSummary(_ message: SolanaMessage) -> String? {
        for signer in [message.accountKeys[0], [UInt8](repeating: 0xEE, count: 32)] {
            let summary = message.summary(signer: signer)
            guard summary.actions.count == message.instructions.count else { return "an instruction without an entry" }
            for line in summary.warnings.map(\.text) + summary.facts + summary.actions.flatMap(\.lines) {
                let cost = DisplayText.cost(DisplayText.escaped(line, quotes: false))
                if line.isEmpty || cost > maxLineBytes { return "a summary line of \(cost) bytes: \(line)" }
            }
            if summary.actions.contains(where: \.lines.isEmpty) { return "an empty action" }
        }
        return nil
    }
}
