import WalletBridge

/// What the person sees of an Ethereum transaction: warnings, then the chain, nonce, gas and
/// the most the fees can cost, then the call (a plain send, a contract creation, or the
/// function called with its arguments decoded for the token standards wallets meet most).
extension EthereumTransaction {
    /// What the person sees before this transaction is signed.
    package func summary() -> TransactionSummary {
        let symbol = EthereumTokens.nativeSymbol(chain: chainID)
        let kindName =
            switch kind {
            case .legacy: "legacy"
            case .accessList: "EIP-2930"
            case .feeMarket: "EIP-1559"
            }
        var facts = [
            "Chain: \(Self.chainName(chainID, withID: true))", "Nonce: \(nonce)",
            "Gas limit: \(Self.grouped(gasLimit))",
        ]
        if kind == .feeMarket {
            facts.append("Max fee: \(Self.gwei(maxFeePerGas)), priority \(Self.gwei(maxPriorityFeePerGas))")
        } else {
            facts.append("Gas price: \(Self.gwei(maxFeePerGas))")
        }
        let (mostFees, overflow) = maxFeePerGas.multipliedReportingOverflow(by: gasLimit)
        facts.append("Most it can cost in fees: " + (overflow ? "more than 2^256 wei" : Self.native(mostFees, symbol)))
        if !accessList.isEmpty {
            let keys = accessList.reduce(0) { $0 + $1.storageKeys.count }
            facts.append(
                "Access list: \(Self.count(accessList.count, "address", "addresses")), \(Self.count(keys, "storage key", "storage keys"))"
            )
        }

        var call = CallSummary()
        if let to {
            if data.isEmpty {
                call.lines = ["Send \(Self.native(value, symbol))", "  to \(to.short)"]
            } else {
                let token = EthereumTokens.token(to, chain: chainID)
                call.lines = [
                    "Call \(to.short)"
                        + (token.map { " (\($0.symbol) on \(Self.chainName(chainID, withID: false)))" } ?? "")
                ]
                if !value.isZero {
                    call.lines.append("  with \(Self.native(value, symbol))")
                    call.notices.append("Sends \(Self.native(value, symbol)) to \(to.short) along with the call")
                }
                CalldataDecoder(data: data, contract: to, chainID: chainID, sender: from).decode(into: &call)
            }
        } else {
            call.lines = ["Create a contract from \(Self.count(data.count, "byte", "bytes")) of code"]
            if !value.isZero { call.lines.append("  with \(Self.native(value, symbol))") }
            call.warnings.append(.init(.trust, "Contract creation: this deploys new code, which cannot be read here"))
        }
        return TransactionSummary(
            kind: "an Ethereum transaction (\(kindName))", warnings: call.warnings + call.notices.map { .init(.notice, $0) }, facts: facts,
            actions: [TransactionSummary.Action(call.lines, movesFunds: call.movesFunds)],
            actionNoun: "call")
    }

    /// "Base (eip155:8453)", or "Base" without the id; the id alone for a chain without a name.
    static func chainName(_ id: UInt64, withID: Bool) -> String {
        guard let chain = ChainID("eip155:\(id)") else { return "eip155:\(id)" }
        let named = EIP155.name(of: chain)
        guard !withID, named.hasSuffix(" (\(chain))") else { return named }
        return String(named.dropLast(" (\(chain))".count))
    }

    static func native(_ wei: UInt256, _ symbol: String) -> String {
        TransactionSummary.units(wei.decimal, decimals: 18, symbol: symbol)
    }

    static func gwei(_ wei: UInt256) -> String { TransactionSummary.units(wei.decimal, decimals: 9, symbol: "gwei") }

    static func grouped(_ value: UInt64) -> String { TransactionSummary.units(String(value), decimals: 0, symbol: "") }

    static func count(_ count: Int, _ one: String, _ many: String) -> String {
        "\(DisplayText.grouped(count)) \(count == 1 ? one : many)"
    }
}

/// The lines of one call, and what it warns of: `warnings` (what could cost the person their
/// tokens) before `notices` (what they should know: ETH sent along, amounts shown raw).
struct CallSummary {
    var lines: [String] = []
    var warnings: [TransactionSummary.Warning] = []
    var notices: [String] = []
    /// `TransactionSummary.Action.movesFunds`.
    var movesFunds = false
}
