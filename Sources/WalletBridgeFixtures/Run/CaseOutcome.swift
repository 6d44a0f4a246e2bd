/// How one case went.
public struct CaseOutcome: Sendable {
    /// Passed, failed or skipped.
    public enum Verdict: Sendable, Equatable {
        case passed
        /// What went wrong, one finding each (a finding may span lines).
        case failed(problems: [String])
        /// Why the case could not run against this host: never a pass.
        case skipped(reason: String)
    }

    /// The case, `file#case` by its `id`.
    public let fixture: FixtureCase
    public let verdict: Verdict
    /// What is worth knowing and is no failure (a schema that could not be derived fully).
    public let warnings: [String]

    public init(fixture: FixtureCase, verdict: Verdict, warnings: [String] = []) {
        (self.fixture, self.verdict, self.warnings) = (fixture, verdict, warnings)
    }
}

/// How a run went: every case's outcome, and what concerns the run as a whole.
public struct FixtureReport: Sendable {
    /// Every case's, in the order they ran.
    public var outcomes: [CaseOutcome]
    /// About the run, not one case: the schema checks could not run, say.
    public var warnings: [String]

    public init(outcomes: [CaseOutcome] = [], warnings: [String] = []) {
        (self.outcomes, self.warnings) = (outcomes, warnings)
    }

    /// How many cases passed, failed and were skipped.
    public var passed: Int { outcomes.count { $0.verdict == .passed } }
    public var failed: Int { outcomes.count { if case .failed = $0.verdict { true } else { false } } }
    public var skipped: Int { outcomes.count { if case .skipped = $0.verdict { true } else { false } } }

    /// Every warning once, the run's first, in the order first met.
    public var distinctWarnings: [String] {
        var seen: Set<String> = []
        return (warnings + outcomes.flatMap(\.warnings)).filter { seen.insert($0).inserted }
    }
}
