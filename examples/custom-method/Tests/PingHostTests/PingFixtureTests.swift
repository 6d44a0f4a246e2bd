import Foundation
import PingMethods
import Testing
import WalletBridgeTesting
import XCTest

// Fixtures/ping.json, the cases the extension's side (test/ping.test.js) checks too: each runner
// one line, against the built ping-host over real pipes and against its router in process.
// Fixtures/notes.json, the methods with state: against the built ping-host only, since every
// case sets NOTES_DIR (the file's `env`), and a router in process has no environment of its own
// (there, every case would be skipped, and a run that checks nothing fails). Once as a file, and
// once case by case, each after the setup alone, as `conform --filter` runs one.

final class PingFixtureTests: XCTestCase {
    func testFixturesAgainstTheBuiltHost() throws {
        try XCTAssertFixtures("../../Fixtures/ping.json", host: .executable("ping-host"))
    }

    func testFixturesInProcess() throws {
        try XCTAssertFixtures("../../Fixtures/ping.json", host: .router(makePingRouter()))
    }

    func testNotesAgainstTheBuiltHost() throws {
        try XCTAssertFixtures("../../Fixtures/notes.json", host: .executable("ping-host"))
    }
}

@Test func fixturesAgainstTheBuiltHost() async throws {
    try await expectFixtures("../../Fixtures/ping.json", host: .executable("ping-host"))
}

@Test func fixturesInProcess() async throws {
    try await expectFixtures("../../Fixtures/ping.json", host: .router(makePingRouter()))
}

@Test func notesAgainstTheBuiltHost() async throws {
    try await expectFixtures("../../Fixtures/notes.json", host: .executable("ping-host"))
}

/// Each case of Fixtures/notes.json run alone: a fresh `{tmpdir}`, the file's setup, then the
/// case (docs/fixtures.md, "State": every case must hold so, not only after the cases before it).
@Suite(.serialized) struct NotesCasesAlone {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/notes.json").standardizedFileURL.path
    static let cases = (try? FixtureFile.load(path).cases) ?? []

    @Test("the file has its cases") func fileHasCases() throws {
        #expect(try FixtureFile.load(Self.path).cases.count >= 2)
    }

    @Test("a notes case, alone after the setup", arguments: cases)
    func alone(_ fixture: FixtureCase) throws {
        let runner = FixtureRunner(host: .process(path: try BuiltProducts.executable("ping-host")))
        switch runner.run(fixture).verdict {
        case .passed: break
        case .failed(let problems): Issue.record(Comment(rawValue: problems.joined(separator: "\n")))
        case .skipped(let reason): Issue.record("a process host runs every case; skipped: \(reason)")
        }
    }
}
