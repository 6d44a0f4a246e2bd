import Foundation
import Testing
import WalletBridgeTesting
import XCTest

/// Runs every case in Tests/Fixtures through the real conformance host over real pipes, as
/// Tests/Fixtures/README.md describes, with the runner extension developers use
/// (WalletBridgeFixtures).
final class FixtureTests: XCTestCase {
    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func loadCases() throws -> [FixtureCase] {
        try FixtureFile.loadAll(fixturesDirectory).flatMap(\.cases)
    }

    func testFixtureFilesHoldEnoughCases() throws {
        let cases = try Self.loadCases()
        XCTAssertGreaterThanOrEqual(cases.count, 60)
        XCTAssertEqual(Set(cases.map(\.id)).count, cases.count, "case names must be unique per file")
    }
}

/// Every fixture case is its own test case (Swift Testing's arguments), named `file#case`, so a
/// failure names the case and `swift test --filter` can run one. Serialized: some cases time
/// requests out, and 200 hosts at once on two cores would make their timing the test.
@Suite(.serialized) struct FixtureCases {
    static let cases = (try? FixtureTests.loadCases()) ?? []
    /// One runner for all cases, so the host is asked for its description (`rpc.discover`) once.
    static let runner = Result {
        FixtureRunner(host: .process(path: try BuiltProducts.executable("wallet-bridge-conformance-host")))
    }

    @Test("a fixture case against the real conformance host", arguments: cases)
    func fixture(_ fixture: FixtureCase) throws {
        let outcome = try Self.runner.get().run(fixture)
        switch outcome.verdict {
        case .passed: break
        case .failed(let problems): Issue.record(Comment(rawValue: problems.joined(separator: "\n")))
        case .skipped(let reason): Issue.record("a process host runs every case; skipped: \(reason)")
        }
    }

    @Test("the conformance host describes itself, so the schema checks ran")
    func schemaChecksRan() throws {
        #expect(try Self.runner.get().warnings == [])
    }
}
