import ArgumentParser
import WalletBridge
import WalletBridgeFixtures

/// How `conform` reports.
enum ConformFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// For people: `ok`, `FAIL` or `skip` and the case, the diff under a failure, then counts.
    case plain
    /// TAP version 13, for CI: the diff in each failure's YAML block.
    case tap
}

/// Writes each case's outcome as it comes, then the run's warnings and counts.
struct ConformOutput {
    let format: ConformFormat
    private var number = 0

    init(format: ConformFormat, total: Int) {
        self.format = format
        if format == .tap {
            Console.out("TAP version 13")
            Console.out("1..\(total)")
        }
    }

    mutating func report(_ outcome: CaseOutcome) {
        number += 1
        let id = outcome.fixture.id
        switch (format, outcome.verdict) {
        case (.plain, .passed):
            Console.out("ok    \(id)")
        case (.plain, .failed(let problems)):
            Console.out("FAIL  \(id)")
            if let rule = outcome.fixture.rule { Console.out(Self.indented("rule: \(rule)", by: 6)) }
            for problem in problems { Console.out(Self.indented(problem, by: 6)) }
        case (.plain, .skipped(let reason)):
            Console.out("skip  \(id): \(reason)")
        case (.tap, .passed):
            Console.out("ok \(number) - \(Self.tapEscaped(id))")
        case (.tap, .failed(let problems)):
            // YAML double-quoted scalars take JSON's string escapes, so JSON quoting is YAML quoting.
            Console.out("not ok \(number) - \(Self.tapEscaped(id))")
            Console.out("  ---")
            if let rule = outcome.fixture.rule { Console.out("  rule: \(JSONText.quoted(rule))") }
            Console.out("  problems:")
            for problem in problems { Console.out("    - \(JSONText.quoted(problem))") }
            Console.out("  ...")
        case (.tap, .skipped(let reason)):
            Console.out("ok \(number) - \(Self.tapEscaped(id)) # SKIP \(reason)")
        }
    }

    func finish(_ report: FixtureReport) {
        let prefix = format == .tap ? "# " : ""
        for warning in report.distinctWarnings { Console.out(prefix + "warning: " + warning) }
        Console.out(prefix + "\(report.passed) passed, \(report.failed) failed, \(report.skipped) skipped")
    }

    static func indented(_ text: String, by width: Int) -> String {
        let margin = String(repeating: " ", count: width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { margin + $0 }.joined(separator: "\n")
    }

    /// A TAP description must not hold a bare `#`, which starts a directive: `file\#case`, as
    /// TAP 14 and node-tap escape it.
    static func tapEscaped(_ text: String) -> String {
        text.map { $0 == "\\" || $0 == "#" ? "\\\($0)" : String($0) }.joined()
    }
}
