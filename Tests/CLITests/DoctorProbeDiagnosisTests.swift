import Foundation
import XCTest

@testable import WalletBridgeCLI

/// Hosts that fail in ways the browser reports only vaguely: doctor must say what is wrong.
final class DoctorProbeDiagnosisTests: XCTestCase {
    func sandboxWithHost(_ script: String) throws -> (sandbox: Sandbox, host: String) {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let host = try sandbox.write(sandbox.base + "/host", script, mode: 0o755)
        let install = try sandbox.walletBridge("install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID, "--binary", host)
        XCTAssertEqual(install.status, 0, install.output)
        return (sandbox, host)
    }

    func noAnswer(_ sandbox: Sandbox, timeout: String = "20") throws -> DoctorFault {
        let result = try sandbox.walletBridge("doctor", "--json", "--browser", "chromium", "--timeout", timeout)
        XCTAssertEqual(result.status, 1, result.output)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(result.stdout.utf8))
        return try XCTUnwrap(report.browsers.first?.manifests.first?.faults.first { $0.check == "no-answer" }, result.stdout)
    }

    func testAMissingInterpreterIsNamed() throws {
        let (sandbox, _) = try sandboxWithHost("#!/nonexistent/python9 -u\nprint('hi')\n")
        let fault = try noAnswer(sandbox)
        XCTAssertTrue(fault.message.contains("/nonexistent/python9"), fault.message)
        XCTAssertTrue(fault.message.contains("interpreter"), fault.message)
    }

    func testACarriageReturnAfterTheInterpreterIsNamed() throws {
        let (sandbox, _) = try sandboxWithHost("#!/bin/sh\r\nexec sleep 1\r\n")
        let fault = try noAnswer(sandbox)
        XCTAssertTrue(fault.message.contains("\"/bin/sh\\r\""), fault.message)
        XCTAssertTrue(fault.message.contains("carriage return"), fault.message)
    }
}

extension DoctorProbeDiagnosisTests {
    func testOneStrayByteThenSilenceIsShownAndBlamedOnStrayOutput() throws {
        let (sandbox, _) = try sandboxWithHost("#!/bin/sh\nprintf 'x'\nexec /bin/sleep 30\n")
        let fault = try noAnswer(sandbox, timeout: "1")
        XCTAssertTrue(fault.message.contains("\"x\""), fault.message)
        XCTAssertTrue(fault.message.contains("stray output"), fault.message)
        XCTAssertFalse(fault.fix.contains("TTY"), fault.fix)
        XCTAssertTrue(fault.fix.contains("stdout"), fault.fix)
    }

    func testAHeaderWithoutItsBodyShowsTheBytes() throws {
        let (sandbox, _) = try sandboxWithHost("#!/bin/sh\nprintf '\\005\\000\\000\\000{'\nexec /bin/sleep 30\n")
        let fault = try noAnswer(sandbox, timeout: "1")
        XCTAssertTrue(fault.message.contains(#""\x05\x00\x00\x00{""#), fault.message)
        XCTAssertTrue(fault.message.contains("frame of 5 bytes that never came"), fault.message)
    }
}
