import XCTest

@testable import WalletBridgeCLI

/// The install planner and browser detection, called directly with an explicit environment.
final class InstallUnitTests: XCTestCase {
    func testEnvironmentDefaultsFollowXDG() {
        let environment = CLIEnvironment(
            variables: ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative/ignored"], systemRoot: "/")
        XCTAssertEqual(environment.configHome, "/home/u/.config", "a relative XDG value is ignored, as the spec says")
        XCTAssertEqual(environment.stateHome, "/home/u/.local/state")
        XCTAssertEqual(InstallRecord.location(in: environment), "/home/u/.local/state/wallet-bridge/installed.json")
        let custom = CLIEnvironment(variables: [
            "HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/state",
        ])
        XCTAssertEqual(
            BrowserCatalog.named("brave")!.userHostFolder(in: custom),
            "/cfg/BraveSoftware/Brave-Browser/NativeMessagingHosts")
        XCTAssertEqual(
            BrowserCatalog.named("firefox")!.userHostFolder(in: custom), "/home/u/.mozilla/native-messaging-hosts")
        XCTAssertEqual(InstallRecord.location(in: custom), "/state/wallet-bridge/installed.json")
    }

    func testSystemFoldersForEveryBrowser() {
        let expected: [String: String] = [
            "firefox": "/usr/lib/mozilla/native-messaging-hosts",
            "librewolf": "/usr/lib/librewolf/native-messaging-hosts",
            "chrome": "/etc/opt/chrome/native-messaging-hosts",
            "chrome-beta": "/etc/opt/chrome/native-messaging-hosts",
            "chrome-dev": "/etc/opt/chrome/native-messaging-hosts",
            "chromium": "/etc/chromium/native-messaging-hosts",
            "brave": "/etc/opt/chrome/native-messaging-hosts",
            "brave-beta": "/etc/opt/chrome/native-messaging-hosts",
            "brave-nightly": "/etc/opt/chrome/native-messaging-hosts",
            "vivaldi": "/etc/opt/vivaldi/native-messaging-hosts",
            "vivaldi-snapshot": "/etc/opt/vivaldi/native-messaging-hosts",
            "edge": "/etc/opt/edge/native-messaging-hosts",
            "edge-beta": "/etc/opt/edge/native-messaging-hosts",
            "edge-dev": "/etc/opt/edge/native-messaging-hosts",
        ]
        let environment = CLIEnvironment(variables: ["HOME": "/home/u"], systemRoot: "/")
        for browser in BrowserCatalog.all where browser.id != "tor-browser" {
            XCTAssertEqual(browser.systemHostFolders(in: environment).first, expected[browser.id], browser.id)
        }
        // Tor Browser reads manifests only inside its own folder.
        XCTAssertEqual(BrowserCatalog.named("tor-browser")?.systemHostFolders, [])
    }

    func testDetectionFromProfileBinaryInstallPathSnapAndFlatpak() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.environment
        func presence(_ id: String) -> BrowserPresence {
            BrowserDetection.presence(of: BrowserCatalog.named(id)!, in: environment)
        }
        XCTAssertEqual(BrowserDetection.installedBrowsers(in: environment), [])

        try sandbox.installBrowser("chrome")
        XCTAssertEqual(presence("chrome").profile, sandbox.config + "/google-chrome/Local State")

        try sandbox.write(sandbox.bin + "/chromium", "#!/bin/sh\n", mode: 0o755)
        XCTAssertEqual(presence("chromium").executable, sandbox.bin + "/chromium")
        try sandbox.write(sandbox.bin + "/vivaldi", "not executable", mode: 0o644)
        XCTAssertFalse(presence("vivaldi").isInstalled, "a file without exec bit is no browser")

        try sandbox.write(sandbox.root + "/opt/microsoft/msedge/msedge", "#!/bin/sh\n", mode: 0o755)
        XCTAssertEqual(presence("edge").executable, sandbox.root + "/opt/microsoft/msedge/msedge")

        try FileManager.default.createDirectory(
            atPath: sandbox.root + "/snap/firefox", withIntermediateDirectories: true)
        XCTAssertEqual(presence("firefox").snap, [sandbox.root + "/snap/firefox"])
        XCTAssertTrue(presence("firefox").isSandboxed)

        try FileManager.default.createDirectory(
            atPath: sandbox.root + "/var/lib/flatpak/app/com.brave.Browser", withIntermediateDirectories: true)
        XCTAssertEqual(presence("brave").flatpak.map(\.id), ["com.brave.Browser"])

        XCTAssertEqual(
            BrowserDetection.installedBrowsers(in: environment).map(\.id),
            ["firefox", "chrome", "chromium", "brave", "edge"])
    }

    func testInstallCreatesNoProfileMarkerSoItNeverDetectsItself() throws {
        let sandbox = try Sandbox()
        var record = InstallRecord()
        let request = InstallRequest(
            browsers: BrowserCatalog.all, chromeOrigins: [TestIDs.chromeOrigin], firefoxAddons: [TestIDs.firefoxID],
            binaryPath: "/bin/sh")
        let plan = try Installer.plan(request, environment: sandbox.environment, record: nil)
        _ = try Installer.apply(plan, recordPath: InstallRecord.location(in: sandbox.environment), record: &record)
        XCTAssertEqual(BrowserDetection.installedBrowsers(in: sandbox.environment), [])
    }

    func testPlanReportsUnchangedUpdateAndConflict() throws {
        let sandbox = try Sandbox()
        let environment = sandbox.environment
        let recordPath = InstallRecord.location(in: environment)
        var request = InstallRequest(
            browsers: [BrowserCatalog.named("chromium")!], chromeOrigins: [TestIDs.chromeOrigin], binaryPath: "/bin/sh")
        var record = InstallRecord()
        let first = try Installer.plan(request, environment: environment, record: nil)
        XCTAssertEqual(first.targets.map(\.action), [.create])
        _ = try Installer.apply(first, recordPath: recordPath, record: &record)

        XCTAssertEqual(
            try Installer.plan(request, environment: environment, record: record).targets.map(\.action),
            [.unchanged(recorded: true)])
        request.chromeOrigins.append("chrome-extension://\(TestIDs.otherChromeID)/")
        XCTAssertEqual(
            try Installer.plan(request, environment: environment, record: record).targets.map(\.action), [.update])

        try sandbox.write(first.targets[0].path, "{}\n")
        XCTAssertThrowsError(try Installer.plan(request, environment: environment, record: record)) { error in
            XCTAssertTrue("\(error)".contains("not replacing a file"), "\(error)")
        }
    }
}
