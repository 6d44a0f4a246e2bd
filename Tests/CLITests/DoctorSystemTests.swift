import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `doctor --system`: the system-wide manifests a package writes (a .deb: only those, naming
/// /usr/bin/wallet-bridge), verified in one command, whatever browsers are installed.
final class DoctorSystemTests: XCTestCase {
    /// A manifest as a package would ship it, at `folder` under the sandbox's root.
    @discardableResult
    private func packaged(
        _ sandbox: Sandbox, _ folder: String, family: BrowserFamily, path: String? = nil, mode: Int = 0o644
    ) throws -> String {
        let allowed =
            family == .chromium
            ? #""allowed_origins": ["\#(TestIDs.chromeOrigin)"]"# : #""allowed_extensions": ["\#(TestIDs.firefoxID)"]"#
        let text = """
            {
              "name": "com.walletbridge.host",
              "description": "wallet-bridge",
              "path": "\(try path ?? Built.walletBridge())",
              "type": "stdio",
              \(allowed)
            }

            """
        return try sandbox.write(sandbox.root + folder + "/com.walletbridge.host.json", text, mode: mode)
    }

    private func doctor(_ sandbox: Sandbox, _ arguments: [String] = []) throws -> (Run, DoctorReport) {
        let run = try sandbox.walletBridge(["doctor", "--system", "--json", "--timeout", "20"] + arguments)
        return (run, try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8)))
    }

    private func entry(_ report: DoctorReport, _ folder: String) throws -> BrowserReport {
        try XCTUnwrap(report.browsers.first { $0.name.hasPrefix("System folder \(folder) ") }, folder)
    }

    /// Plain `doctor` on a machine with the package: the package's manifest for a browser that
    /// is not installed is by design, and dpkg's to remove, so no "remove this manifest" advice;
    /// the same file written by anyone else still gets it.
    func testThePackagesManifestForAnAbsentBrowserIsNotFlagged() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let manifest = try packaged(sandbox, "/etc/opt/chrome/native-messaging-hosts", family: .chromium)
        func wrongFolder() throws -> DoctorFault? {
            let run = try sandbox.walletBridge(["doctor", "--json", "--no-probe"])
            let report = try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8))
            return report.browsers.flatMap(\.manifests).filter { $0.path == manifest }.flatMap(\.faults).first {
                $0.check == "wrong-folder"
            }
        }
        XCTAssertNotNil(try wrongFolder(), "nobody's file: the advice stands")
        try sandbox.write(
            sandbox.root + "/var/lib/dpkg/info/wallet-bridge.list",
            "/.\n/etc/opt/chrome/native-messaging-hosts/com.walletbridge.host.json\n")
        XCTAssertNil(try wrongFolder(), "dpkg's file: no advice to remove it")
    }

    func testAGoodPackageInstallPassesWithNoBrowserInstalledAndUserFoldersAreNotLookedAt() throws {
        let sandbox = try Sandbox()
        try packaged(sandbox, "/etc/chromium/native-messaging-hosts", family: .chromium)
        try packaged(sandbox, "/etc/opt/chrome/native-messaging-hosts", family: .chromium)
        try packaged(sandbox, "/usr/lib/mozilla/native-messaging-hosts", family: .firefox)
        // Broken, but the user's own: --system does not look there.
        try sandbox.write(sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json", "{")

        let (run, report) = try doctor(sandbox)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(report.ok)
        for folder in [
            "/etc/chromium/native-messaging-hosts", "/etc/opt/chrome/native-messaging-hosts",
            "/usr/lib/mozilla/native-messaging-hosts",
        ] {
            let system = try entry(report, sandbox.root + folder)
            XCTAssertEqual(system.verdict, .ok, folder)
            XCTAssertEqual(system.manifests.map(\.scope), ["system"], folder)
            XCTAssertEqual(
                system.manifests.first?.answer, "answers: rpc.discover -> a result (\"wallet-bridge\")", folder)
        }
        let chrome = try entry(report, sandbox.root + "/etc/opt/chrome/native-messaging-hosts")
        XCTAssertEqual(
            chrome.browser, "chrome,chrome-beta,chrome-dev,brave,brave-beta,brave-nightly",
            "one folder, every browser that reads it")
        XCTAssertEqual(try entry(report, sandbox.root + "/etc/opt/edge/native-messaging-hosts").verdict, .notInstalled)
        XCTAssertFalse(report.browsers.flatMap(\.manifests).contains { $0.scope != "system" })
        XCTAssertEqual(report.browsers.filter { $0.name.contains("/etc/opt/edge/") }.count, 1, "each folder once")

        let text = try sandbox.walletBridge("doctor", "--system", "--no-probe")
        XCTAssertEqual(text.status, 0, text.output)
        XCTAssertTrue(
            text.stdout.contains("System folder \(sandbox.root)/etc/chromium/native-messaging-hosts (Chromium): OK"),
            text.stdout)
        XCTAssertTrue(text.stdout.hasSuffix("no problems found\n"), text.stdout)
    }

    func testABrokenSystemManifestFailsEvenWhereThePlainCheckOnlyWarns() throws {
        let sandbox = try Sandbox()
        try packaged(sandbox, "/usr/lib/mozilla/native-messaging-hosts", family: .firefox)
        try packaged(sandbox, "/etc/chromium/native-messaging-hosts", family: .chromium, path: "wallet-bridge")
        // No browser installed: the plain doctor sees a manifest nobody reads, a warning.
        let plain = try sandbox.walletBridge("doctor", "--no-probe")
        XCTAssertEqual(plain.status, 0, plain.output)

        let (run, report) = try doctor(sandbox)
        XCTAssertEqual(run.status, 1, run.output)
        let chromium = try entry(report, sandbox.root + "/etc/chromium/native-messaging-hosts")
        XCTAssertEqual(chromium.verdict, .problem)
        XCTAssertEqual(chromium.manifests.first?.faults.map(\.check), ["relative-path"])
        XCTAssertEqual(try entry(report, sandbox.root + "/usr/lib/mozilla/native-messaging-hosts").verdict, .ok)
    }

    func testAManifestOtherUsersCannotReadIsAProblemEvenForRoot() throws {
        let sandbox = try Sandbox()
        let manifest = try packaged(sandbox, "/etc/opt/edge/native-messaging-hosts", family: .chromium, mode: 0o600)
        let (run, report) = try doctor(sandbox, ["--no-probe"])
        XCTAssertEqual(run.status, 1, run.output)
        let fault = try XCTUnwrap(
            try entry(report, sandbox.root + "/etc/opt/edge/native-messaging-hosts").manifests.first?.faults.first)
        XCTAssertEqual(fault.check, "other-users")
        XCTAssertEqual(fault.message, "mode 0600: other users' browsers cannot read this manifest")
        XCTAssertEqual(fault.fix, "chmod 644 \(manifest)")

        XCTAssertEqual(chmod(manifest, 0o644), 0)
        XCTAssertEqual(chmod(sandbox.root + "/etc/opt/edge", 0o700), 0)
        let (closed, closedReport) = try doctor(sandbox, ["--no-probe"])
        XCTAssertEqual(closed.status, 1, closed.output)
        let folderFault = try XCTUnwrap(
            try entry(closedReport, sandbox.root + "/etc/opt/edge/native-messaging-hosts").manifests.first?.faults.first
        )
        XCTAssertEqual(folderFault.check, "other-users")
        XCTAssertTrue(folderFault.message.contains("\(sandbox.root)/etc/opt/edge is mode 0700"), folderFault.message)
    }

    func testNothingToVerifyIsAFailure() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID).status,
            0)
        let (run, report) = try doctor(sandbox)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertFalse(report.ok)
        let text = try sandbox.walletBridge("doctor", "--system")
        XCTAssertEqual(text.status, 1)
        XCTAssertTrue(text.stdout.hasSuffix("no system-wide manifest for com.walletbridge.host found\n"), text.stdout)
        // And --system is about system folders only: a user's --user-data-dir is refused.
        let mixed = try sandbox.walletBridge("doctor", "--system", "--user-data-dir", "profile")
        XCTAssertEqual(mixed.status, 64, mixed.output)
    }

    func testAnInstallSystemIsVerifiedAndOnlyTheBrowsersAsked() throws {
        let sandbox = try Sandbox()
        let install = try sandbox.walletBridge(
            "install", "--system", "--browser", "firefox", "--browser", "edge-beta", "--chrome-extension",
            TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(install.status, 0, install.output)
        let (run, report) = try doctor(sandbox, ["--browser", "edge"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(report.browsers.map(\.browser), ["edge"])
        XCTAssertEqual(report.browsers.first?.verdict, .ok, "edge-beta's file is in the folder Edge reads")
    }

    func testFixPathsRepointsASystemManifestWhoseBinaryMoved() throws {
        let sandbox = try Sandbox()
        let manifest = try packaged(
            sandbox, "/etc/chromium/native-messaging-hosts", family: .chromium,
            path: "/nonexistent/usr/bin/wallet-bridge")
        let (run, report) = try doctor(sandbox, ["--fix-paths"])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(report.fixed?.map(\.outcome), [.fixed])
        XCTAssertEqual(try ManifestFile.load(manifest).string("path"), try Built.walletBridge())
        XCTAssertEqual(FileSystem.status(manifest)?.mode, 0o644, "the mode is kept")
    }
}
