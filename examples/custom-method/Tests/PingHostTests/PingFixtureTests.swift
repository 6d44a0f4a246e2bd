import PingMethods
import Testing
import WalletBridgeTesting
import XCTest

// Fixtures/ping.json, the cases the extension's side (test/ping.test.js) checks too: each runner
// one line, against the built ping-host over real pipes and against its router in process.
// Fixtures/notes.json, the methods with state: against the built ping-host only, since every
// case sets NOTES_DIR (the file's `env`), and a router in process has no environment of its own.

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
