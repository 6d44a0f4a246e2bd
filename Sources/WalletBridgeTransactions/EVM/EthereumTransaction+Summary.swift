import WalletBridgeSystem
import WalletBridgeKeys

/// What the person sees of an Ethereum transaction: warnings, then the nonce, gas and the most
/// the fees can cost, then the call (a plain send, a contract creation, or the function called
/// with its arguments decoded for the token standards wallets meet most). The chain is not a
/// fact here: the dialog's heading names it.
///
/// Every line stays within `TransactionConsent.maxLineBytes`: numbers of more than
/// `maxDigits` digits are shortened (`number`), and an address that receives or may take funds
/// is on a line of its own, so no long number can push it out of sight.
extension EthereumTransaction {
    /// Numbers longer than this are shown by their ends and length (`number`).
    static let maxDigits = 40

    /// What the person sees before this transaction is signed.
    package func summary() -> TransactionSummary {
        let symbol = EthereumTokens.nativeSymbol(chain: chainID)
        let kindName =
            switch kind {
            case .legacy: "legacy"
            case .accessList: "EIP-2930"
            case .feeMarket: "EIP-1559"
            }
        var facts = ["Nonce: \(nonce)", "Gas limit: \(Self.grouped(gasLimit))"]
        if kind == .feeMarket {
            facts.append("Max fee: \(Self.gwei(maxFeePerGas)), priority \(Self.gwei(maxPriorityFeePerGas))")
        } else {
            facts.append("Gas price: \(Self.gwei(maxFeePerGas))")
        }
        let (mostFees, overflow) = maxFeePerGas.multipliedReportingOverflow(by: gasLimit)
        // The gas fields bound the execution fee on every chain; OP Stack rollups (and chains the
        // wallet does not know, which may be such rollups) add an L1 data fee no field bounds.
        // The bound is still worth showing, with the clause that says what it leaves out.
        let unbounded = EthereumTokens.chains[chainID]?.l1DataFee ?? true
        facts.append(
            "Most it can cost in fees: " + (overflow ? "more than 2^256 wei" : Self.native(mostFees, symbol))
                + (unbounded ? ", plus an L1 data fee the transaction does not limit" : ""))
        if !accessList.isEmpty {
            let keys = accessList.reduce(0) { $0 + $1.storageKeys.count }
            facts.append(
                "Access list: \(DisplayText.counted(accessList.count, "address", "addresses")), \(DisplayText.counted(keys, "storage key"))"
            )
        }

        var call = CallSummary()
        call.movesFunds = !value.isZero
        if let to {
            if data.isEmpty {
                call.lines = ["Send \(Self.native(value, symbol))", "  to \(to.short)"]
            } else {
                let token = EthereumTokens.token(to, chain: chainID)
                call.lines = [
                    "Call \(to.short)"
                        + (token.map { " (\($0.symbol) on \(Self.chainName(chainID)))" } ?? "")
                ]
                if !value.isZero {
                    call.lines.append("  with \(Self.native(value, symbol))")
                    call.notices.append("Sends \(Self.native(value, symbol)) to \(to.short) along with the call")
                }
                CalldataDecoder(data: data, contract: to, chainID: chainID, sender: from).decode(into: &call)
            }
        } else {
            call.lines = ["Create a contract from \(DisplayText.counted(data.count, "byte")) of code"]
            if !value.isZero { call.lines.append("  with \(Self.native(value, symbol))") }
            call.warnings.append(.init(.trust, "Contract creation: this deploys new code, which cannot be read here"))
        }
        return TransactionSummary(
            kind: "an Ethereum transaction (\(kindName))",
            warnings: call.warnings + call.notices.map { .init(.notice, $0) }, facts: facts,
            actions: [TransactionSummary.Action(call.lines, movesFunds: call.movesFunds)],
            actionNoun: "call")
    }

    /// "Base", the chain's name without its id; the id alone ("eip155:7") for a chain without one.
    static func chainName(_ id: UInt64) -> String {
        guard let chain = ChainID("eip155:\(id)") else { return "eip155:\(id)" }
        let named = EIP155.name(of: chain)
        guard named.hasSuffix(" (\(chain))") else { return named }
        return String(named.dropLast(" (\(chain))".count))
    }

    /// A decimal number as is, or, past `maxDigits` digits, "4901…7611 (77 digits)": its
    /// first and last digits and how many there are, which tell numbers apart at a glance
    /// and keep a line short.
    static func number(_ digits: String) -> String {
        digits.count <= maxDigits ? digits : "\(digits.prefix(4))…\(digits.suffix(4)) (\(digits.count) digits)"
    }

    /// `units` of `value` at `decimals` places, or, for a number too long to write out, its
    /// shortened count of the smallest unit ("4901…7611 (77 digits) raw units of USDC").
    static func units(_ value: UInt256, decimals: Int, symbol: String, smallest: String) -> String {
        let digits = value.decimal
        guard digits.count > maxDigits else {
            return TransactionSummary.units(digits, decimals: decimals, symbol: symbol)
        }
        return "\(number(digits)) \(smallest)"
    }

    static func native(_ wei: UInt256, _ symbol: String) -> String {
        units(wei, decimals: 18, symbol: symbol, smallest: "wei")
    }

    static func gwei(_ wei: UInt256) -> String { units(wei, decimals: 9, symbol: "gwei", smallest: "wei") }

    static func grouped(_ value: UInt64) -> String { TransactionSummary.units(String(value), decimals: 0, symbol: "") }
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
