import Foundation
import XCTest

@testable import WalletBridgeCLI

/// Issue 19: the browsers users ask for. The channels of Edge, Brave and Vivaldi, each in its
/// own folder and found by its own binary; Tor Browser, whose manifest folder is inside its own.
final class BrowserChannelsTests: XCTestCase {
    private let ids = ["--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID]

    private func presence(_ id: String, _ sandbox: Sandbox) throws -> BrowserPresence {
        BrowserDetection.presence(of: try XCTUnwrap(BrowserCatalog.named(id)), in: sandbox.environment)
    }

    func testEachChannelHasItsOwnUserFolderAndItsFamilysSystemFolder() throws {
        let environment = CLIEnvironment(variables: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg"], systemRoot: "/")
        let expected: [(id: String, user: String, system: String)] = [
            ("edge-beta", "/cfg/microsoft-edge-beta/NativeMessagingHosts", "/etc/opt/edge/native-messaging-hosts"),
            ("edge-dev", "/cfg/microsoft-edge-dev/NativeMessagingHosts", "/etc/opt/edge/native-messaging-hosts"),
            (
                "brave-beta", "/cfg/BraveSoftware/Brave-Browser-Beta/NativeMessagingHosts",
                "/etc/opt/chrome/native-messaging-hosts"
            ),
            (
                "brave-nightly", "/cfg/BraveSoftware/Brave-Browser-Nightly/NativeMessagingHosts",
                "/etc/opt/chrome/native-messaging-hosts"
            ),
            (
                "vivaldi-snapshot", "/cfg/vivaldi-snapshot/NativeMessagingHosts",
                "/etc/opt/vivaldi/native-messaging-hosts"
            ),
        ]
        for (id, user, system) in expected {
            let browser = try XCTUnwrap(BrowserCatalog.named(id), id)
            XCTAssertEqual(browser.family, .chromium, id)
            XCTAssertEqual(browser.userHostFolders(in: environment), [user], id)
            XCTAssertEqual(browser.systemHostFolders(in: environment), [system], id)
        }
    }

    func testChannelsAreFoundByTheirOwnBinariesInstallFoldersProfilesAndFlatpaks() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.bin + "/microsoft-edge-beta", "#!/bin/sh\n", mode: 0o755)
        try sandbox.write(sandbox.root + "/opt/microsoft/msedge-dev/msedge", "#!/bin/sh\n", mode: 0o755)
        try sandbox.write(sandbox.bin + "/brave-browser-beta", "#!/bin/sh\n", mode: 0o755)
        try sandbox.write(sandbox.root + "/opt/brave.com/brave-nightly/brave", "#!/bin/sh\n", mode: 0o755)
        try sandbox.write(sandbox.root + "/opt/vivaldi-snapshot/vivaldi-snapshot", "#!/bin/sh\n", mode: 0o755)

        XCTAssertEqual(try presence("edge-beta", sandbox).executable, sandbox.bin + "/microsoft-edge-beta")
        XCTAssertEqual(try presence("edge-dev", sandbox).executable, sandbox.root + "/opt/microsoft/msedge-dev/msedge")
        XCTAssertEqual(try presence("brave-beta", sandbox).executable, sandbox.bin + "/brave-browser-beta")
        XCTAssertEqual(
            try presence("brave-nightly", sandbox).executable, sandbox.root + "/opt/brave.com/brave-nightly/brave")
        XCTAssertEqual(
            try presence("vivaldi-snapshot", sandbox).executable,
            sandbox.root + "/opt/vivaldi-snapshot/vivaldi-snapshot")
        // A channel's binary is not the stable browser's.
        for stable in ["edge", "brave", "vivaldi"] {
            XCTAssertFalse(try presence(stable, sandbox).isInstalled, stable)
        }

        let other = try Sandbox()
        try other.installBrowser("brave-nightly")
        XCTAssertEqual(
            try presence("brave-nightly", other).profile,
            other.config + "/BraveSoftware/Brave-Browser-Nightly/Local State")
        XCTAssertFalse(try presence("brave", other).isInstalled, "Brave-Browser-Nightly is not Brave-Browser")
        // An app's data folder alone (left by an uninstalled app, or made by install --flatpak)
        // is not the app; Flatpak's own install folder is.
        try FileManager.default.createDirectory(
            atPath: other.home + "/.var/app/com.microsoft.EdgeDev", withIntermediateDirectories: true)
        XCTAssertFalse(try presence("edge-dev", other).isInstalled)
        try FileManager.default.createDirectory(
            atPath: other.home + "/.local/share/flatpak/app/com.microsoft.EdgeDev", withIntermediateDirectories: true)
        XCTAssertEqual(try presence("edge-dev", other).flatpak.map(\.id), ["com.microsoft.EdgeDev"])
        XCTAssertEqual(
            BrowserDetection.installedBrowsers(in: other.environment).map(\.id), ["brave-nightly", "edge-dev"])
    }

    func testSystemInstallForTheChannelsSharesTheStableChannelsFolders() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        let browsers = ["edge-beta", "edge-dev", "brave-beta", "brave-nightly", "vivaldi-snapshot"].flatMap {
            ["--browser", $0]
        }
        let result = try sandbox.walletBridge(
            ["install", "--system"] + browsers + ["--chrome-extension", TestIDs.chromeID])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(
            result.stdout.contains(
                "wrote \(sandbox.root)/etc/opt/edge/native-messaging-hosts/com.walletbridge.host.json (edge-beta, edge-dev)"
            ), result.stdout)
        XCTAssertTrue(
            result.stdout.contains(
                "wrote \(sandbox.root)/etc/opt/chrome/native-messaging-hosts/com.walletbridge.host.json (brave-beta, brave-nightly)"
            ), result.stdout)
        XCTAssertTrue(
            result.stdout.contains(
                "wrote \(sandbox.root)/etc/opt/vivaldi/native-messaging-hosts/com.walletbridge.host.json (vivaldi-snapshot)"
            ), result.stdout)
        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    // MARK: Tor Browser

    private let torHostFolder = "Browser/TorBrowser/Data/Browser/.mozilla/native-messaging-hosts"

    /// A Tor Browser unpacked at `folder`, as its tarball or torbrowser-launcher leaves it.
    private func unpackTorBrowser(_ sandbox: Sandbox, at folder: String) throws {
        try sandbox.write(folder + "/Browser/start-tor-browser", "#!/bin/sh\n", mode: 0o755)
        try sandbox.write(folder + "/Browser/TorBrowser/Data/Browser/profile.default/prefs.js", "")
    }

    func testWithoutATorBrowserFolderItsFolderIsTheLaunchers() throws {
        let tor = try XCTUnwrap(BrowserCatalog.named("tor-browser"))
        XCTAssertEqual(tor.family, .firefox)
        let home = CLIEnvironment(variables: ["HOME": "/home/u"], systemRoot: "/")
        XCTAssertEqual(
            tor.userHostFolders(in: home), ["/home/u/.local/share/torbrowser/tbb/x86_64/tor-browser/\(torHostFolder)"])
        let data = CLIEnvironment(variables: ["HOME": "/home/u", "XDG_DATA_HOME": "/data"], systemRoot: "/")
        XCTAssertEqual(
            tor.userHostFolders(in: data), ["/data/torbrowser/tbb/x86_64/tor-browser/\(torHostFolder)"],
            "the launcher follows XDG_DATA_HOME")
        XCTAssertEqual(tor.systemHostFolders, [])
        XCTAssertEqual(
            tor.flatpakHostFolder(appID: "org.torproject.torbrowser-launcher", in: home),
            "/home/u/.var/app/org.torproject.torbrowser-launcher/data/torbrowser/tbb/x86_64/tor-browser/\(torHostFolder)"
        )
    }

    func testTheLaunchersCopyAndATarballInTheHomeFolderAreBothFoundAndBothInstalled() throws {
        let sandbox = try Sandbox()
        let launcher = sandbox.home + "/.local/share/torbrowser/tbb/x86_64/tor-browser"
        let tarball = sandbox.home + "/tor-browser"
        try unpackTorBrowser(sandbox, at: launcher)
        try unpackTorBrowser(sandbox, at: tarball)
        // Not Tor Browser: a folder with the name but not the layout.
        try FileManager.default.createDirectory(
            atPath: sandbox.home + "/tor-browser-notes", withIntermediateDirectories: true)
        let presence = try presence("tor-browser", sandbox)
        XCTAssertEqual(presence.profile, launcher + "/Browser/TorBrowser/Data/Browser/profile.default")
        XCTAssertEqual(presence.executable, launcher + "/Browser/start-tor-browser")
        let tor = try XCTUnwrap(BrowserCatalog.named("tor-browser"))
        XCTAssertEqual(
            tor.userHostFolders(in: sandbox.environment),
            [launcher + "/" + torHostFolder, tarball + "/" + torHostFolder])

        let before = try sandbox.snapshot()
        let install = try sandbox.walletBridge("install", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(install.stderr.contains("found: tor-browser"), install.stderr)
        for folder in [launcher, tarball] {
            let path = folder + "/" + torHostFolder + "/com.walletbridge.host.json"
            XCTAssertTrue(install.stdout.contains("wrote \(path) (tor-browser)"), install.stdout)
            XCTAssertEqual(try ManifestFile.load(path).strings("allowed_extensions"), [TestIDs.firefoxID])
        }
        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0)
        XCTAssertEqual(try sandbox.snapshot(), before)

        // Started through each manifest as Firefox starts it (which leaves the wallet's own
        // state behind, so after the comparison above).
        XCTAssertEqual(try sandbox.walletBridge("install", "--firefox-addon", TestIDs.firefoxID).status, 0)
        let doctor = try sandbox.walletBridge("doctor", "--json", "--browser", "tor-browser", "--timeout", "20")
        XCTAssertEqual(doctor.status, 0, doctor.output)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(doctor.stdout.utf8))
        XCTAssertEqual(report.browsers.first?.verdict, .ok)
        XCTAssertEqual(
            report.browsers.first?.manifests.map(\.answer),
            Array(repeating: "answers: rpc.discover -> a result (\"wallet-bridge\")", count: 2))
    }

    func testAnOlderLaunchersFolderWithALanguageIsFoundToo() throws {
        let sandbox = try Sandbox()
        let folder = sandbox.home + "/.local/share/torbrowser/tbb/x86_64/tor-browser_en-US"
        try unpackTorBrowser(sandbox, at: folder)
        let tor = try XCTUnwrap(BrowserCatalog.named("tor-browser"))
        XCTAssertEqual(tor.userHostFolders(in: sandbox.environment), [folder + "/" + torHostFolder])
    }

    /// Tor Browser's folder does not exist yet: install creates it, under ~/.local, before the
    /// record goes into ~/.local/state. Uninstall must still leave no trace.
    func testInstallingBeforeTheLauncherRanIsUndoneCompletely() throws {
        let sandbox = try Sandbox()
        try sandbox.write(sandbox.bin + "/torbrowser-launcher", "#!/bin/sh\n", mode: 0o755)
        XCTAssertEqual(try presence("tor-browser", sandbox).executable, sandbox.bin + "/torbrowser-launcher")
        let before = try sandbox.snapshot()
        let install = try sandbox.walletBridge(
            "install", "--browser", "tor-browser", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(install.stderr.contains("no Tor Browser folder found"), install.stderr)
        XCTAssertTrue(
            install.stderr.contains("--browser-dir firefox:/path/to/tor-browser/\(torHostFolder)"), install.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: sandbox.home
                    + "/.local/share/torbrowser/tbb/x86_64/tor-browser/\(torHostFolder)/com.walletbridge.host.json"))
        let uninstall = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertTrue(uninstall.stdout.contains("removed folder \(sandbox.home)/.local\n"), uninstall.stdout)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testSystemInstallRefusesTorBrowserAndLeavesOutOneItOnlyFound() throws {
        let sandbox = try Sandbox()
        let named = try sandbox.walletBridge(["install", "--system", "--browser", "tor-browser"] + ids)
        XCTAssertNotEqual(named.status, 0)
        XCTAssertTrue(
            named.stderr.contains("--system: Tor Browser reads manifests only inside its own folder"), named.stderr)

        try unpackTorBrowser(sandbox, at: sandbox.home + "/tor-browser")
        try sandbox.installBrowser("firefox")
        let found = try sandbox.walletBridge(["install", "--system"] + ids)
        XCTAssertEqual(found.status, 0, found.output)
        XCTAssertTrue(found.stderr.contains("tor-browser left out"), found.stderr)
        XCTAssertTrue(
            found.stdout.contains(
                "wrote \(sandbox.root)/usr/lib/mozilla/native-messaging-hosts/com.walletbridge.host.json (firefox)"),
            found.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.home + "/tor-browser/\(torHostFolder)"))
    }

    func testTheLaunchersAppArmorProfileIsNamedByInstallAndDoctor() throws {
        let sandbox = try Sandbox()
        try unpackTorBrowser(sandbox, at: sandbox.home + "/tor-browser")
        let install = try sandbox.walletBridge(
            "install", "--browser", "tor-browser", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertFalse(install.stderr.contains("AppArmor"), install.stderr)
        try sandbox.write(
            sandbox.root + "/etc/apparmor.d/torbrowser.Browser.firefox", "profile torbrowser_firefox {}\n")
        let again = try sandbox.walletBridge(
            "install", "--browser", "tor-browser", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertTrue(
            again.stderr.contains(
                "AppArmor profile is installed (\(sandbox.root)/etc/apparmor.d/torbrowser.Browser.firefox)"),
            again.stderr)
        let doctor = try sandbox.walletBridge("doctor", "--browser", "tor-browser", "--no-probe")
        XCTAssertTrue(
            doctor.stdout.contains("note: torbrowser-launcher's AppArmor profile is installed"), doctor.stdout)
    }
}
