import Foundation
import XCTest

@testable import WalletBridgeCLI

/// The text report: readable, grammatical, and a stray file does not fail a good manifest.
final class DoctorReportTextTests: XCTestCase {
    func testMultiLineMessagesStayIndentedUnderTheirEntry() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        let host = try sandbox.write(
            sandbox.base + "/failing-host",
            "#!/bin/sh\necho 'first complaint' >&2\necho 'second complaint' >&2\nexit 3\n", mode: 0o755)
        try sandbox.write(
            chromium,
            try XCTUnwrap(sandbox.read(chromium)).replacingOccurrences(of: try Built.walletBridge(), with: host))
        let text = try sandbox.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(text.status, 1, text.output)
        XCTAssertTrue(text.stdout.contains("second complaint"), text.stdout)
        // Between the header and the closing summary, every line belongs to a browser entry:
        // either a "Name: VERDICT" line or indented.
        let lines = text.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines.dropFirst(2).prefix(while: { !$0.isEmpty }) {
            XCTAssertTrue(
                line.hasPrefix("  ") || line.hasPrefix("Chromium: "),
                "unindented line \(JSONText.quoted(String(line))) in\n\(text.stdout)")
        }
    }

    func testAnArrayManifestIsCalledAnArray() throws {
        let (sandbox, _, firefox) = try Sandbox.healthy()
        try sandbox.write(firefox, "[]")
        let text = try sandbox.walletBridge("doctor", "--browser", "firefox")
        XCTAssertTrue(text.stdout.contains("the JSON is an array, not an object"), text.stdout)
        XCTAssertFalse(text.stdout.contains("a array"), text.stdout)
    }

    func testAStrayFileBesideACorrectManifestDoesNotFailIt() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        let stray = Path.parent(chromium) + "/com.walletbridge.host.json.bak.json"
        try sandbox.write(stray, try XCTUnwrap(sandbox.read(chromium)))
        let result = try sandbox.walletBridge("doctor", "--json", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(result.status, 0, result.output)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(result.stdout.utf8))
        let chromiumReport = try XCTUnwrap(report.browsers.first)
        XCTAssertEqual(chromiumReport.verdict, .ok)
        let good = try XCTUnwrap(chromiumReport.manifests.first { $0.path == chromium })
        XCTAssertEqual(good.faults, [])
        let strayReport = try XCTUnwrap(chromiumReport.manifests.first { $0.path == stray })
        XCTAssertEqual(strayReport.faults.map(\.check), ["stray-file"])
        XCTAssertEqual(strayReport.faults.first?.severity, .warning)
    }

    func testTheManifestReadmeLinksOnlyToFilesThatExist() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let readme = try String(contentsOfFile: root + "/manifests/README.md", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\]\((\.\./[^)#]+)"#)
        let matches = pattern.matches(in: readme, range: NSRange(readme.startIndex..., in: readme))
        XCTAssertFalse(matches.isEmpty)
        for match in matches {
            let target = String(readme[Range(match.range(at: 1), in: readme)!])
            XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/manifests/" + target), target)
        }
    }
}
