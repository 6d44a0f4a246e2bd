import XCTest

@testable import WalletBridgeCLI

/// `wallet-bridge install` and `uninstall`, run as a user runs them, in a sandboxed HOME.
final class InstallProcessTests: XCTestCase {
    /// Where each browser's per-user manifest must land, relative to the sandbox.
    static let expectedUserPaths: [String: String] = [
        "firefox": "home/.mozilla/native-messaging-hosts/com.walletbridge.host.json",
        "librewolf": "home/.librewolf/native-messaging-hosts/com.walletbridge.host.json",
        // No Tor Browser folder yet: where torbrowser-launcher unpacks it ($XDG_DATA_HOME unset).
        "tor-browser":
            "home/.local/share/torbrowser/tbb/x86_64/tor-browser/Browser/TorBrowser/Data/Browser/.mozilla/native-messaging-hosts/com.walletbridge.host.json",
        "chrome": "config/google-chrome/NativeMessagingHosts/com.walletbridge.host.json",
        "chrome-beta": "config/google-chrome-beta/NativeMessagingHosts/com.walletbridge.host.json",
        "chrome-dev": "config/google-chrome-unstable/NativeMessagingHosts/com.walletbridge.host.json",
        "chromium": "config/chromium/NativeMessagingHosts/com.walletbridge.host.json",
        "brave": "config/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.walletbridge.host.json",
        "brave-beta": "config/BraveSoftware/Brave-Browser-Beta/NativeMessagingHosts/com.walletbridge.host.json",
        "brave-nightly": "config/BraveSoftware/Brave-Browser-Nightly/NativeMessagingHosts/com.walletbridge.host.json",
        "vivaldi": "config/vivaldi/NativeMessagingHosts/com.walletbridge.host.json",
        "vivaldi-snapshot": "config/vivaldi-snapshot/NativeMessagingHosts/com.walletbridge.host.json",
        "edge": "config/microsoft-edge/NativeMessagingHosts/com.walletbridge.host.json",
        "edge-beta": "config/microsoft-edge-beta/NativeMessagingHosts/com.walletbridge.host.json",
        "edge-dev": "config/microsoft-edge-dev/NativeMessagingHosts/com.walletbridge.host.json",
    ]

    private func installArguments(_ browsers: [String]) -> [String] {
        browsers.flatMap { ["--browser", $0] } + [
            "--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID,
        ]
    }

    func testInstallsForEveryBrowserInItsOwnFolderHonouringXDGConfigHome() throws {
        let sandbox = try Sandbox()
        let binary = try Built.walletBridge()
        let result = try runProcess(
            binary, ["install"] + installArguments(BrowserCatalog.ids), environment: sandbox.variables)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(
            Set(Self.expectedUserPaths.keys), Set(BrowserCatalog.ids), "every browser has an expected folder")
        for (browser, relative) in Self.expectedUserPaths {
            let path = sandbox.base + "/" + relative
            let manifest = try ManifestFile.load(path)
            XCTAssertEqual(manifest.string("name"), "com.walletbridge.host", browser)
            XCTAssertEqual(manifest.string("path"), binary, "the running binary's own path, \(browser)")
            XCTAssertEqual(manifest.string("type"), "stdio", browser)
            if ["firefox", "librewolf", "tor-browser"].contains(browser) {
                XCTAssertEqual(manifest.strings("allowed_extensions"), [TestIDs.firefoxID], browser)
                XCTAssertNil(manifest.members["allowed_origins"], browser)
            } else {
                XCTAssertEqual(manifest.strings("allowed_origins"), [TestIDs.chromeOrigin], browser)
                XCTAssertNil(manifest.members["allowed_extensions"], browser)
            }
            XCTAssertEqual(FileSystem.status(path)?.mode, 0o644, browser)
            XCTAssertTrue(result.stdout.contains("wrote \(path) (\(browser))"), result.stdout)
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: sandbox.home + "/.config"),
            "Chrome-family folders follow XDG_CONFIG_HOME, not ~/.config")
    }

    func testReinstallIsUnchangedByteForByte() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(try sandbox.walletBridge(["install"] + installArguments(["firefox", "chromium"])).status, 0)
        let first = try sandbox.snapshot()
        let again = try sandbox.walletBridge(["install"] + installArguments(["chromium", "firefox"]))
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertEqual(try sandbox.snapshot(), first)
        XCTAssertEqual(again.stdout.components(separatedBy: "unchanged ").count - 1, 2, again.stdout)
        XCTAssertFalse(again.stdout.contains("wrote"), again.stdout)
    }

    func testDryRunPrintsPathsAndContentAndWritesNothing() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        let result = try sandbox.walletBridge(["install", "--dry-run"] + installArguments(["chrome"]))
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try sandbox.snapshot(), before)
        XCTAssertTrue(
            result.stdout.contains(
                "would write \(sandbox.config)/google-chrome/NativeMessagingHosts/com.walletbridge.host.json (chrome):"),
            result.stdout)
        XCTAssertTrue(
            result.stdout.contains("\"allowed_origins\": [\n    \"\(TestIDs.chromeOrigin)\"\n  ]"), result.stdout)
    }

    func testUninstallLeavesTheTreeExactlyAsItWasBeforeInstall() throws {
        let sandbox = try Sandbox()
        // Some of the user's own files, in folders install also uses.
        try sandbox.installBrowser("firefox")
        try sandbox.installBrowser("chromium")
        try sandbox.write(sandbox.config + "/chromium/NativeMessagingHosts/someone.else.json", "{}\n")
        try sandbox.write(sandbox.home + "/.local/share/keep.txt", "mine\n", mode: 0o600)
        let before = try sandbox.snapshot()

        XCTAssertEqual(try sandbox.walletBridge(["install"] + installArguments(BrowserCatalog.ids)).status, 0)
        XCTAssertNotEqual(try sandbox.snapshot(), before)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: sandbox.home + "/.local/state/wallet-bridge/installed.json"))

        let result = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testUninstallKeepsAManifestChangedSinceInstallUnlessForced() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        XCTAssertEqual(try sandbox.walletBridge(["install"] + installArguments(["firefox"])).status, 0)
        let path = sandbox.base + "/" + Self.expectedUserPaths["firefox"]!
        try sandbox.write(path, "{\"edited\": true}\n")

        let kept = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(kept.status, 1, kept.output)
        XCTAssertTrue(kept.stdout.contains("kept \(path): it changed since install"), kept.stdout)
        XCTAssertEqual(sandbox.read(path), "{\"edited\": true}\n")

        let forced = try sandbox.walletBridge("uninstall", "--force")
        XCTAssertEqual(forced.status, 0, forced.output)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testInstallRefusesToReplaceAForeignManifestAndForceIsUndoneByUninstall() throws {
        let sandbox = try Sandbox()
        let path = sandbox.base + "/" + Self.expectedUserPaths["chromium"]!
        try sandbox.write(path, "{\"theirs\": true}\n", mode: 0o640)
        let before = try sandbox.snapshot()

        let refused = try sandbox.walletBridge(["install"] + installArguments(["chromium"]))
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("not replacing a file that install did not write"), refused.stderr)
        XCTAssertEqual(try sandbox.snapshot(), before)

        let forced = try sandbox.walletBridge(["install", "--force"] + installArguments(["chromium"]))
        XCTAssertEqual(forced.status, 0, forced.output)
        XCTAssertEqual(try ManifestFile.load(path).string("type"), "stdio")

        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0)
        XCTAssertEqual(try sandbox.snapshot(), before, "the replaced file is back, with its mode")
    }

    func testForceOverAManifestInstallWroteAndSomeoneBrokeIsNotRestoredByUninstall() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        XCTAssertEqual(try sandbox.walletBridge(["install"] + installArguments(["firefox"])).status, 0)
        let path = sandbox.base + "/" + Self.expectedUserPaths["firefox"]!
        try sandbox.write(path, "{\"broken by hand\": ", mode: 0o600)

        let forced = try sandbox.walletBridge(["install", "--force"] + installArguments(["firefox"]))
        XCTAssertEqual(forced.status, 0, forced.output)
        XCTAssertFalse(forced.stdout.contains("uninstall puts the previous file back"), forced.stdout)
        XCTAssertEqual(try ManifestFile.load(path).string("type"), "stdio")

        let uninstall = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertTrue(uninstall.stdout.contains("removed \(path)"), uninstall.stdout)
        XCTAssertEqual(try sandbox.snapshot(), before, "the broken file is not put back; folders and record are gone")
    }

    func testAFolderHoldingARestoredFileIsLeftAndForgotten() throws {
        let sandbox = try Sandbox()
        // A foreign manifest in a folder install then also creates files in: after uninstall the
        // folder holds only the user's file, so it stays, and nothing is left in the record.
        XCTAssertEqual(try sandbox.walletBridge(["install"] + installArguments(["chromium"])).status, 0)
        let own = sandbox.config + "/chromium/NativeMessagingHosts/someone.else.json"
        try sandbox.write(own, "{}\n")
        let uninstall = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertEqual(sandbox.read(own), "{}\n")
        XCTAssertTrue(
            uninstall.stdout.contains(
                "left folder \(sandbox.config)/chromium/NativeMessagingHosts: it holds files install did not write"),
            uninstall.stdout)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: sandbox.home + "/.local/state/wallet-bridge/installed.json"),
            "nothing recorded is left")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: sandbox.home + "/.local"), "the record's folders are gone too")
    }

    func testUninstallForOneBrowserLeavesTheOthers() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(try sandbox.walletBridge(["install"] + installArguments(["firefox", "brave"])).status, 0)
        let result = try sandbox.walletBridge("uninstall", "--browser", "brave")
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.base + "/" + Self.expectedUserPaths["brave"]!))
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.base + "/" + Self.expectedUserPaths["firefox"]!))
    }

    func testAFamilyWithoutItsIDsIsAnErrorNamingTheOption() throws {
        let sandbox = try Sandbox()
        let chrome = try sandbox.walletBridge("install", "--browser", "chromium", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertNotEqual(chrome.status, 0)
        XCTAssertTrue(
            chrome.stderr.contains("installing for Chromium needs the extension's ID: add --chrome-extension ID"),
            chrome.stderr)
        let firefox = try sandbox.walletBridge(
            "install", "--browser", "librewolf", "--chrome-extension", TestIDs.chromeID)
        XCTAssertNotEqual(firefox.status, 0)
        XCTAssertTrue(
            firefox.stderr.contains("installing for LibreWolf needs the extension's ID: add --firefox-addon ID"),
            firefox.stderr)
        // IDs are not needed for a family that is not a target.
        let onlyFirefox = try sandbox.walletBridge(
            "install", "--browser", "firefox", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(onlyFirefox.status, 0, onlyFirefox.output)
    }

    func testMalformedIDsAndNamesAreRefusedBeforeAnythingIsWritten() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        let cases: [([String], String)] = [
            (["--browser", "chrome", "--chrome-extension", "not-an-id"], "--chrome-extension not-an-id:"),
            (["--browser", "chrome", "--chrome-extension", "chrome-extension://*/"], "wildcard"),
            (["--browser", "firefox", "--firefox-addon", "wallet"], "--firefox-addon wallet:"),
            (["--browser", "firefox", "--firefox-addon", TestIDs.firefoxID, "--name", "Com.Example"], "--name:"),
            (["--browser", "opera", "--firefox-addon", TestIDs.firefoxID], "opera"),
        ]
        for (arguments, expected) in cases {
            let result = try sandbox.walletBridge(["install"] + arguments)
            XCTAssertNotEqual(result.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testWithoutBrowsersFoundInstallSaysSoAndAsksForBrowser() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.walletBridge("install", "--chrome-extension", TestIDs.chromeID)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("no browser found"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--browser"), result.stderr)
    }

    func testDefaultTargetsAreTheBrowsersFound() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("vivaldi")
        // A binary on PATH counts too.
        try sandbox.write(sandbox.bin + "/librewolf", "#!/bin/sh\n", mode: 0o755)
        let result = try sandbox.walletBridge(
            "install", "--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxGUID)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stderr.contains("found: librewolf, vivaldi"), result.stderr)
        for browser in BrowserCatalog.ids {
            let exists = FileManager.default.fileExists(atPath: sandbox.base + "/" + Self.expectedUserPaths[browser]!)
            XCTAssertEqual(exists, ["librewolf", "vivaldi"].contains(browser), browser)
        }
    }

    func testUserDataDirPutsTheManifestInsideIt() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.walletBridge(
            "install", "--user-data-dir", "profile", "--chrome-extension", TestIDs.chromeID)
        XCTAssertEqual(result.status, 0, result.output)
        let manifest = try ManifestFile.load(sandbox.base + "/profile/NativeMessagingHosts/com.walletbridge.host.json")
        XCTAssertEqual(manifest.strings("allowed_origins"), [TestIDs.chromeOrigin])
        // Firefox alone: it has no per-profile manifest folder, so --user-data-dir would mean nothing.
        let firefox = try sandbox.walletBridge(
            "install", "--user-data-dir", "profile", "--browser", "firefox", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertNotEqual(firefox.status, 0)
        XCTAssertTrue(firefox.stderr.contains("Firefox has no per-profile manifest folder"), firefox.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: sandbox.home + "/.mozilla/native-messaging-hosts/com.walletbridge.host.json"))
    }

    func testUserDataDirWithFirefoxBesideChromiumPutsFirefoxsManifestInItsOwnFolder() throws {
        let sandbox = try Sandbox()
        let both = try sandbox.walletBridge(
            "install", "--user-data-dir", "profile", "--browser", "chromium", "--browser", "firefox",
            "--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(both.status, 0, both.output)
        XCTAssertTrue(both.stderr.contains("there is no per-profile folder"), both.stderr)
        let chromium = try ManifestFile.load(sandbox.base + "/profile/NativeMessagingHosts/com.walletbridge.host.json")
        XCTAssertEqual(chromium.strings("allowed_origins"), [TestIDs.chromeOrigin])
        let firefox = try ManifestFile.load(
            sandbox.home + "/.mozilla/native-messaging-hosts/com.walletbridge.host.json")
        XCTAssertEqual(firefox.strings("allowed_extensions"), [TestIDs.firefoxID])
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json"))
        let uninstall = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: sandbox.home + "/.mozilla/native-messaging-hosts/com.walletbridge.host.json"))
    }

    func testCustomNameAndBinary() throws {
        let sandbox = try Sandbox()
        let host = try sandbox.write(sandbox.base + "/opt/host", "#!/bin/sh\n", mode: 0o755)
        let result = try sandbox.walletBridge(
            "install", "--browser", "edge", "--chrome-extension", TestIDs.chromeID, "--name", "org.example.wallet",
            "--binary", "opt/host")
        XCTAssertEqual(result.status, 0, result.output)
        let manifest = try ManifestFile.load(
            sandbox.config + "/microsoft-edge/NativeMessagingHosts/org.example.wallet.json")
        XCTAssertEqual(manifest.string("name"), "org.example.wallet")
        XCTAssertEqual(manifest.string("path"), host, "relative --binary made absolute")

        try sandbox.write(sandbox.base + "/opt/plain", "data", mode: 0o644)
        let notExecutable = try sandbox.walletBridge(
            "install", "--browser", "edge", "--chrome-extension", TestIDs.chromeID, "--binary", "opt/plain")
        XCTAssertNotEqual(notExecutable.status, 0)
        XCTAssertTrue(notExecutable.stderr.contains("not executable"), notExecutable.stderr)
    }

    func testSystemInstallWritesTheSystemFoldersAndUninstallRemovesThem() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        let result = try sandbox.walletBridge(
            ["install", "--system"] + installArguments(["firefox", "chrome", "brave", "edge"]))
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: sandbox.root + "/usr/lib/mozilla/native-messaging-hosts/com.walletbridge.host.json"))
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: sandbox.root + "/etc/opt/edge/native-messaging-hosts/com.walletbridge.host.json"))
        // Chrome and Brave share /etc/opt/chrome: one file, serving both.
        XCTAssertTrue(
            result.stdout.contains(
                "wrote \(sandbox.root)/etc/opt/chrome/native-messaging-hosts/com.walletbridge.host.json (chrome, brave)"
            ), result.stdout)
        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }
}

/// Item 14, 15, 17, 23 of issue 12: permissions and the record, under conditions a plain run
/// does not meet.
final class InstallPermissionTests: XCTestCase {
    private let ids = ["--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID]

    /// Runs the built wallet-bridge under `umask`, which a child inherits from its shell.
    private func walletBridge(_ sandbox: Sandbox, umask: String, _ arguments: [String]) throws -> Run {
        try runProcess(
            "/bin/sh", ["-c", "umask \(umask) && exec \"$0\" \"$@\"", try Built.walletBridge()] + arguments,
            environment: sandbox.variables, in: sandbox.base)
    }

    func testSystemInstallUnderUmask077MakesFoldersOthersCanEnterAndManifestsTheyCanRead() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        let result = try walletBridge(
            sandbox, umask: "077", ["install", "--system", "--browser", "firefox", "--browser", "chrome"] + ids)
        XCTAssertEqual(result.status, 0, result.output)
        for manifest in ["/usr/lib/mozilla/native-messaging-hosts", "/etc/opt/chrome/native-messaging-hosts"] {
            var folder = sandbox.root + manifest
            while folder != sandbox.root {
                XCTAssertEqual(FileSystem.status(folder).map { String($0.mode, radix: 8) }, "755", folder)
                folder = Path.parent(folder)
            }
            XCTAssertEqual(
                FileSystem.status(sandbox.root + manifest + "/com.walletbridge.host.json")?.mode, 0o644, manifest)
        }
        let uninstall = try walletBridge(sandbox, umask: "077", ["uninstall"])
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    /// A sandbox whose own folder others may enter (mkdtemp makes it 0700), with `host` in
    /// `folder` under the given modes.
    private func hostIn(
        _ sandbox: Sandbox, folder: String, folderMode: Int, fileMode: Int, script: String = "#!/bin/sh\n"
    ) throws -> String {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.base)
        let host = try sandbox.write(sandbox.base + "/" + folder + "/host", script, mode: fileMode)
        try FileManager.default.setAttributes(
            [.posixPermissions: folderMode], ofItemAtPath: sandbox.base + "/" + folder)
        return host
    }

    func testSystemInstallRefusesABinaryInAFolderOtherUsersCannotEnter() throws {
        let sandbox = try Sandbox()
        let host = try hostIn(sandbox, folder: "private", folderMode: 0o700, fileMode: 0o755)
        let before = try sandbox.snapshot()
        let result = try sandbox.walletBridge(["install", "--system", "--browser", "chromium", "--binary", host] + ids)
        XCTAssertNotEqual(result.status, 0, result.output)
        XCTAssertTrue(
            result.stderr.contains(
                "other users' browsers could not start \(host): \(sandbox.base)/private is mode 0700"), result.stderr)
        XCTAssertTrue(result.stderr.contains("/usr/local/bin"), result.stderr)
        XCTAssertEqual(try sandbox.snapshot(), before, "nothing written")
        // The same binary is fine for the user's own browsers.
        let user = try sandbox.walletBridge(["install", "--browser", "chromium", "--binary", host] + ids)
        XCTAssertEqual(user.status, 0, user.output)
    }

    func testSystemInstallRefusesABinaryOtherUsersMayNotExecute() throws {
        let sandbox = try Sandbox()
        let binary = try hostIn(sandbox, folder: "opt", folderMode: 0o755, fileMode: 0o750)
        let result = try sandbox.walletBridge(
            ["install", "--system", "--browser", "chromium", "--binary", binary] + ids)
        XCTAssertNotEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stderr.contains("\(binary) is mode 0750: other users may not execute it"), result.stderr)

        // A script must be readable as well: the kernel reads its #! line as the user.
        let script = try hostIn(sandbox, folder: "scripts", folderMode: 0o755, fileMode: 0o711)
        let unreadable = try sandbox.walletBridge(
            ["install", "--system", "--browser", "chromium", "--binary", script] + ids)
        XCTAssertNotEqual(unreadable.status, 0, unreadable.output)
        XCTAssertTrue(
            unreadable.stderr.contains("\(script) is mode 0711: other users may not read it"), unreadable.stderr)
    }

    func testSystemInstallAcceptsAReachableBinaryAndWarnsWhenAUserCanChangeIt() throws {
        let sandbox = try Sandbox()
        let host = try hostIn(sandbox, folder: "opt", folderMode: 0o755, fileMode: 0o755)
        let result = try sandbox.walletBridge(["install", "--system", "--browser", "chromium", "--binary", host] + ids)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(result.stderr.lowercased().contains("warning"), result.stderr)
        XCTAssertEqual(
            try ManifestFile.load(sandbox.root + "/etc/chromium/native-messaging-hosts/com.walletbridge.host.json")
                .string("path"), host)

        // Owned by someone other than root: every user's browser would run what they put there.
        guard getuid() == 0 else { throw XCTSkip("chown needs root") }
        let nobody = try XCTUnwrap(getpwnam("nobody")).pointee.pw_uid
        XCTAssertEqual(chown(sandbox.base + "/opt", nobody, 0), 0)
        let warned = try sandbox.walletBridge(["install", "--system", "--browser", "chromium", "--binary", host] + ids)
        XCTAssertEqual(warned.status, 0, warned.output)
        XCTAssertTrue(
            warned.stderr.contains("Warning: \(sandbox.base)/opt can be changed by nobody, so \(host) can be replaced"),
            warned.stderr)
    }

    func testSystemInstallReopensFoldersItCreatedThatAnOlderVersionLeft0700() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(try sandbox.walletBridge(["install", "--system", "--browser", "chromium"] + ids).status, 0)
        // What an install under umask 077 used to leave.
        for folder in ["/etc", "/etc/chromium", "/etc/chromium/native-messaging-hosts"] {
            XCTAssertEqual(chmod(sandbox.root + folder, 0o700), 0)
        }
        let again = try sandbox.walletBridge(["install", "--system", "--browser", "chromium"] + ids)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertFalse(again.stderr.contains("will not find"), again.stderr)
        XCTAssertTrue(
            again.stdout.contains(
                "made \(sandbox.root)/etc/chromium/native-messaging-hosts readable by every user (0755)"), again.stdout)
        for folder in ["/etc", "/etc/chromium", "/etc/chromium/native-messaging-hosts"] {
            XCTAssertEqual(FileSystem.status(sandbox.root + folder)?.mode, 0o755, folder)
        }
    }

    func testSystemInstallWarnsOfAnExistingManifestFolderOthersCannotEnter() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(
            atPath: sandbox.root + "/etc/chromium", withIntermediateDirectories: true)
        XCTAssertEqual(chmod(sandbox.root + "/etc/chromium", 0o700), 0)
        let result = try sandbox.walletBridge(["install", "--system", "--browser", "chromium"] + ids)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(
            result.stderr.contains(
                "Warning: other users' browsers will not find the manifest in \(sandbox.root)/etc/chromium/native-messaging-hosts: \(sandbox.root)/etc/chromium is mode 0700"
            ), result.stderr)
    }

    func testAFolderOnlyRootMayEnterIsNamedAsItsHomeFolder() throws {
        guard let root = getpwuid(0), let home = root.pointee.pw_dir.map({ String(cString: $0) }),
            FileSystem.status(home)?.mode == 0o700
        else { throw XCTSkip("needs root's home to be 0700, as on Debian") }
        // Where scripts/setup.sh puts the binary when run as root. Only read, never written.
        let problem = SystemReach.problem(forBinary: home + "/.local/bin/wallet-bridge")
        XCTAssertTrue(problem?.contains("\(home) is mode 0700 (the home folder of root)") ?? false, problem ?? "nil")
    }

    func testInstallingForABrowserThatIsNotFoundSaysSoAndWritesAnyway() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("firefox")
        let result = try sandbox.walletBridge(["install", "--browser", "firefox", "--browser", "brave"] + ids)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stderr.contains("brave (Brave) was not found on this machine"), result.stderr)
        XCTAssertTrue(result.stderr.contains("`wallet-bridge doctor` reports it as NOT INSTALLED"), result.stderr)
        XCTAssertTrue(result.stderr.contains("wallet-bridge uninstall --browser brave"), result.stderr)
        XCTAssertFalse(result.stderr.contains("firefox (Firefox) was not found"), result.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: sandbox.config + "/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.walletbridge.host.json")
        )
    }

    /// What doctor reads from the record: for each file, its browsers, and how it was installed.
    func testTheRecordSaysForEachFileItsBrowsersAndWhetherSystemOrUserDataDir() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(try sandbox.walletBridge(["install", "--browser", "firefox"] + ids).status, 0)
        XCTAssertEqual(
            try sandbox.walletBridge(["install", "--browser", "brave", "--user-data-dir", "profile"] + ids).status, 0)
        XCTAssertEqual(
            try sandbox.walletBridge(["install", "--system", "--browser", "chrome", "--browser", "brave"] + ids).status,
            0)
        let record = try XCTUnwrap(
            try InstallRecord.load(from: sandbox.home + "/.local/state/wallet-bridge/installed.json"))
        func entry(_ path: String) throws -> InstallRecord.File {
            try XCTUnwrap(record.files.first { $0.path == path }, path)
        }
        let user = try entry(sandbox.home + "/.mozilla/native-messaging-hosts/com.walletbridge.host.json")
        XCTAssertEqual(user.browsers, ["firefox"])
        XCTAssertNil(user.userDataDir)
        XCTAssertNil(user.system)
        let dataDir = try entry(sandbox.base + "/profile/NativeMessagingHosts/com.walletbridge.host.json")
        XCTAssertEqual(dataDir.browsers, ["brave"])
        XCTAssertEqual(dataDir.userDataDir, sandbox.base + "/profile")
        let system = try entry(sandbox.root + "/etc/opt/chrome/native-messaging-hosts/com.walletbridge.host.json")
        XCTAssertEqual(system.browsers, ["brave", "chrome"])
        XCTAssertEqual(system.system, true)
        XCTAssertNil(system.userDataDir)
    }
}
