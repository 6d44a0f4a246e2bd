@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeSessions

/// docs/sessions.md's Limits and Settings say the numbers the code enforces: a limit changed in
/// one place and not the other fails here.
final class DocumentedLimitsTests: XCTestCase {
    private func section(_ heading: String) throws -> String {
        let text = String(decoding: try readBytes("\(packageRoot)/docs/sessions.md"), as: UTF8.self)
        let start = try XCTUnwrap(text.range(of: "\n\(heading)\n"), "docs/sessions.md has no \(heading)").upperBound
        let rest = text[start...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The table row whose first cell starts with `what`.
    private func row(_ table: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let found = table.split(separator: "\n").first { $0.hasPrefix("| \(what)") }
        XCTAssertNotNil(found, "no row for \(what)", file: file, line: line)
        return found.map(String.init) ?? ""
    }

    func testTheLimitsTableSaysWhatTheCodeEnforces() throws {
        let limits = try section("## Limits")
        let expectations: [(String, [String])] = [
            ("namespaces in", ["\(Namespace.maxNamespaces) keys"]),
            ("`chains`, `methods`, `events`", ["\(Namespace.maxChains) entries"]),
            ("one method or event name", ["1 to \(Namespace.maxStringBytes) bytes"]),
            ("all method and event names", ["\(Namespace.maxTotalStringBytes) bytes"]),
            ("a chain id", ["3 to 8", "1 to 32", "-32602", "5100", "3005"]),
            (
                "`metadata`",
                [
                    "1 to \(PeerMetadata.maxNameLength)", "at most \(PeerMetadata.maxDescriptionLength)",
                    "at most \(PeerMetadata.maxURLLength)", "at most \(PeerMetadata.maxIcons)", "-32602",
                ]
            ),
            ("`session_request`'s `expiry`", ["5 minutes to 7 days", "-32602"]),
            ("`session_disconnect`'s `reason`", ["at most 256 bytes", "-32602 on `reason`"]),
            ("live sessions", ["\(SessionStore.maxSessions)", "-32603"]),
            ("`origin`", ["at most \(SiteOrigin.maxBytes) bytes", "-32602 on `origin`"]),
        ]
        for (what, phrases) in expectations {
            let line = row(limits, what)
            for phrase in phrases { XCTAssertTrue(line.contains(phrase), "\(what): \(phrase) not in \(line)") }
        }
        XCTAssertEqual(Namespace.maxChains, 64)
        XCTAssertEqual(Namespace.maxMethods, Namespace.maxChains, "one number in the docs for both")
        XCTAssertEqual(Namespace.maxEvents, Namespace.maxChains, "one number in the docs for all three")
        XCTAssertEqual(SessionService.requestExpiryRange, 300...604_800, "5 minutes to 7 days")
    }

    func testTheSettingsTableSaysTheConfigurationsDefaultsAndRanges() throws {
        let settings = try section("## Settings")
        let lifetime = row(settings, "`session_lifetime`")
        XCTAssertTrue(lifetime.contains("`\(WalletConfig().sessionLifetime)`"), lifetime)
        XCTAssertTrue(
            lifetime.contains(
                "\(WalletConfig.sessionLifetimeRange.lowerBound) to \(WalletConfig.sessionLifetimeRange.upperBound)"),
            lifetime)
        let proposal = row(settings, "`proposal_timeout`")
        XCTAssertTrue(proposal.contains("`\(WalletConfig().proposalTimeout)`"), proposal)
        XCTAssertTrue(
            proposal.contains(
                "\(WalletConfig.proposalTimeoutRange.lowerBound) to \(WalletConfig.proposalTimeoutRange.upperBound)"),
            proposal)
        XCTAssertEqual(SessionService.defaultProposalTimeout, .seconds(WalletConfig().proposalTimeout))
    }
}
