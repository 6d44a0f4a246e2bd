import PingMethods
import Testing
import WalletBridgeTesting
import XCTest

// Fixtures/ping.json, the cases the extension's side (test/ping.test.js) checks too: each runner
// one line, against the built ping-host over real pipes and against its router in process.

final class PingFixtureTests: XCTestCase {
    func testFixturesAgainstTheBuiltHost() throws {
        try XCTAssertFixtures("../../Fixtures/ping.json", host: .executable("ping-host"))
    }

    func testFixturesInProcess() throws {
        try XCTAssertFixtures("../../Fixtures/ping.json", host: .router(makePingRouter()))
    }
}

@Test func fixturesAgainstTheBuiltHost() async throws {
    try await expectFixtures("../../Fixtures/ping.json", host: .executable("ping-host"))
}

@Test func fixturesInProcess() async throws {
    try await expectFixtures("../../Fixtures/ping.json", host: .router(makePingRouter()))
}
