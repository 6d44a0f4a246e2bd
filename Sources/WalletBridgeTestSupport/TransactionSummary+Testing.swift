import WalletBridgeTransactions

/// The tests' shorthand for summaries: warnings and actions as their text alone.
extension TransactionSummary {
    /// A summary of plain lines: every warning of `severity`, no action moving funds.
    package init(
        testKind kind: String, warnings: [String] = [], severity: Severity = .funds, facts: [String] = [],
        actions: [[String]] = [], actionNoun: String
    ) {
        self.init(
            kind: kind, warnings: warnings.map { Warning(severity, $0) }, facts: facts,
            actions: actions.map { Action($0) },
            actionNoun: actionNoun)
    }

    package var warningTexts: [String] { warnings.map(\.text) }
    package var actionLines: [[String]] { actions.map(\.lines) }
}
