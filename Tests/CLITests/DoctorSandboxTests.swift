import Foundation
import XCTest

@testable import WalletBridgeCLI

/// Flatpak and Snap browsers: the verdict must agree with the advice, and the advice must be
/// exact about what xdg-native-messaging-proxy searches.
final class DoctorSandboxTests: XCTestCase {
    private func flatpakOnly(_ sandbox: Sandbox, _ id: String) throws {
        try FileManager.default.createDirectory(
            atPath: sandbox.home + "/.local/share/flatpak/app/\(id)", withIntermediateDirectories: true)
    }

    private func doctor(_ sandbox: Sandbox, _ browser: String) throws -> (Run, BrowserReport) {
        let run = try sandbox.walletBridge("doctor", "--json", "--browser", browser, "--timeout", "20")
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8))
        return (run, try XCTUnwrap(report.browsers.first))
    }

    func testAFlatpakOnlyBrowserWithTheOrdinaryManifestIsAProblemWithoutTheProxy() throws {
        let sandbox = try Sandbox()
        try flatpakOnly(sandbox, "org.chromium.Chromium")
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID).status,
            0)
        let (run, chromium) = try doctor(sandbox, "chromium")
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertEqual(chromium.verdict, .problem)
        let fault = try XCTUnwrap(chromium.manifests.first?.faults.first { $0.check == "sandbox" })
        XCTAssertEqual(fault.severity, .problem)
        XCTAssertTrue(fault.message.contains("not installed"), fault.message)

        // With the proxy installed, the Chromium folder is one it searches: a warning.
        try sandbox.write(sandbox.root + "/usr/libexec/xdg-native-messaging-proxy", "#!/bin/sh\n", mode: 0o755)
        let (again, withProxy) = try doctor(sandbox, "chromium")
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertEqual(withProxy.verdict, .ok)
        XCTAssertEqual(withProxy.manifests.first?.faults.first?.check, "sandbox")
        XCTAssertEqual(withProxy.manifests.first?.faults.first?.severity, .warning)
    }

    func testAFlatpakOnlyBraveIsAProblemEvenWithTheProxy() throws {
        let sandbox = try Sandbox()
        try flatpakOnly(sandbox, "com.brave.Browser")
        try sandbox.write(sandbox.root + "/usr/libexec/xdg-native-messaging-proxy", "#!/bin/sh\n", mode: 0o755)
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--browser", "brave", "--chrome-extension", TestIDs.chromeID).status, 0)
        let (run, brave) = try doctor(sandbox, "brave")
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertEqual(brave.verdict, .problem)
        let fault = try XCTUnwrap(brave.manifests.first?.faults.first { $0.check == "sandbox" })
        XCTAssertTrue(
            fault.message.contains("searches only the Google Chrome, Chromium and Mozilla folders"), fault.message)
    }

    func testTheFlatpakAdviceSaysExactlyWhatTheProxySearches() throws {
        let sandbox = try Sandbox()
        try flatpakOnly(sandbox, "com.brave.Browser")
        let text = try sandbox.walletBridge("doctor", "--browser", "brave").stdout
        XCTAssertFalse(text.contains("in the ordinary folders"), text)
        XCTAssertTrue(text.contains("searches only the"), text)
        XCTAssertTrue(text.contains("Google Chrome, Chromium and Mozilla folders"), text)
    }

    func testLibreWolfsFlatpakReadsItsOwnFolderInsideTheSandbox() throws {
        let sandbox = try Sandbox()
        try flatpakOnly(sandbox, "io.gitlab.librewolf-community")
        let text = try sandbox.walletBridge("doctor", "--browser", "librewolf").stdout
        XCTAssertTrue(
            text.contains(
                "\(sandbox.home)/.var/app/io.gitlab.librewolf-community/.librewolf/native-messaging-hosts/com.walletbridge.host.json"
            ), text)
        XCTAssertFalse(text.contains("io.gitlab.librewolf-community/.mozilla"), text)
    }

    func testFirefoxIsFoundByItsNewerProfileFolder() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(
            atPath: sandbox.config + "/mozilla/firefox", withIntermediateDirectories: true)
        let (_, firefox) = try doctor(sandbox, "firefox")
        XCTAssertTrue(firefox.browserFound, firefox.evidence)
        XCTAssertTrue(firefox.evidence.contains("\(sandbox.config)/mozilla/firefox"), firefox.evidence)
    }
}
