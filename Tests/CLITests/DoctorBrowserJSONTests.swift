import Foundation
import XCTest

@testable import WalletBridgeCLI

/// Doctor judges a manifest by what the browsers load: a BOM or a duplicated key is a
/// warning, not a broken manifest.
final class DoctorBrowserJSONTests: XCTestCase {
    private func report(_ sandbox: Sandbox) throws -> (Run, DoctorReport) {
        let run = try sandbox.walletBridge("doctor", "--json", "--timeout", "20")
        return (run, try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8)))
    }

    func testAByteOrderMarkIsAWarning() throws {
        let (sandbox, chromium, firefox) = try Sandbox.healthy()
        for path in [chromium, firefox] { try sandbox.write(path, "\u{FEFF}" + (try XCTUnwrap(sandbox.read(path)))) }
        let (run, report) = try report(sandbox)
        XCTAssertEqual(run.status, 0, run.output)
        for id in ["chromium", "firefox"] {
            let browser = try XCTUnwrap(report.browsers.first { $0.browser == id })
            XCTAssertEqual(browser.verdict, .ok, id)
            XCTAssertEqual(browser.manifests.first?.faults.map(\.check), ["strict-json"], id)
            XCTAssertNotNil(browser.manifests.first?.answer, id)
        }
    }

    func testADuplicatedKeyIsAWarningAndTheLastOneIsChecked() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        let text = try XCTUnwrap(sandbox.read(chromium))
        // The first "type" is wrong, the last right: browsers use the last.
        try sandbox.write(
            chromium, text.replacingOccurrences(of: #""type": "stdio""#, with: #""type": "pipe", "type": "stdio""#))
        var (run, report) = try report(sandbox)
        XCTAssertEqual(run.status, 0, run.output)
        let chromiumReport = try XCTUnwrap(report.browsers.first { $0.browser == "chromium" })
        XCTAssertEqual(chromiumReport.verdict, .ok)
        XCTAssertEqual(chromiumReport.manifests.first?.faults.map(\.check), ["strict-json"])
        XCTAssertEqual(chromiumReport.manifests.first?.faults.first?.severity, .warning)

        // The other way round, the wrong one wins and is a problem.
        try sandbox.write(
            chromium, text.replacingOccurrences(of: #""type": "stdio""#, with: #""type": "stdio", "type": "pipe""#))
        (run, report) = try self.report(sandbox)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(
            try XCTUnwrap(report.browsers.first { $0.browser == "chromium" }).manifests.flatMap(\.faults).map(\.check)
                .contains("wrong-type"))
    }
}
