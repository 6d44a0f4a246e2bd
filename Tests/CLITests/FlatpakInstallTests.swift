import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `install --flatpak`: a manifest and a flatpak-spawn wrapper inside the sandbox, the
/// override printed (never run), and uninstall taking both back.
final class FlatpakInstallTests: XCTestCase {
    private func installFlatpak(_ sandbox: Sandbox, _ id: String, user: Bool = true) throws {
        let folder =
            user ? sandbox.home + "/.local/share/flatpak/app/\(id)" : sandbox.root + "/var/lib/flatpak/app/\(id)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The script, written out here rather than taken from the code under test.
    private func expectedWrapper(binary: String, app: String) -> String {
        """
        #!/bin/sh
        # Written by `wallet-bridge install --flatpak` for the Flatpak \(app): the browser starts
        # this inside its sandbox, and flatpak-spawn runs the host outside it. That needs
        #   flatpak override --user --talk-name=org.freedesktop.Flatpak \(app)
        # which lets \(app) run any command outside its sandbox.
        exec flatpak-spawn --host \(binary) "$@"

        """
    }

    func testChromiumFlatpakGetsManifestAndWrapperInsideItsSandboxAndTheOverrideIsPrinted() throws {
        let sandbox = try Sandbox()
        try installFlatpak(sandbox, "org.chromium.Chromium")
        let binary = try Built.walletBridge()
        let result = try sandbox.walletBridge("install", "--flatpak", "--chrome-extension", TestIDs.chromeID)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stderr.contains("found as Flatpaks: chromium"), result.stderr)

        let app = sandbox.home + "/.var/app/org.chromium.Chromium"
        let manifestPath = app + "/config/chromium/NativeMessagingHosts/com.walletbridge.host.json"
        let wrapperPath = app + "/data/wallet-bridge/com.walletbridge.host-flatpak"
        let manifest = try ManifestFile.load(manifestPath)
        XCTAssertEqual(
            manifest.string("path"), wrapperPath, "the manifest names the wrapper, which the sandbox can see")
        XCTAssertEqual(manifest.strings("allowed_origins"), [TestIDs.chromeOrigin])
        XCTAssertEqual(sandbox.read(wrapperPath), expectedWrapper(binary: binary, app: "org.chromium.Chromium"))
        XCTAssertEqual(FileSystem.status(wrapperPath)?.mode, 0o755)
        XCTAssertEqual(FileSystem.status(manifestPath)?.mode, 0o644)

        XCTAssertTrue(
            result.stdout.contains("wrote \(manifestPath) (chromium, Flatpak org.chromium.Chromium)\n"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("wrote \(wrapperPath) (chromium, Flatpak org.chromium.Chromium, wrapper script)\n"),
            result.stdout)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.last, "  flatpak override --user --talk-name=org.freedesktop.Flatpak org.chromium.Chromium",
            result.stdout)
        XCTAssertTrue(result.stdout.contains("which lets it run any command outside its sandbox"), result.stdout)
        // Only inside the sandbox.
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.config + "/chromium"))
    }

    func testFirefoxFlatpakReadsItsMozillaFolderInsideTheAppFolder() throws {
        let sandbox = try Sandbox()
        try installFlatpak(sandbox, "org.mozilla.firefox", user: false)
        let result = try sandbox.walletBridge(
            "install", "--flatpak", "--browser", "firefox", "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(result.status, 0, result.output)
        let app = sandbox.home + "/.var/app/org.mozilla.firefox"
        let manifest = try ManifestFile.load(app + "/.mozilla/native-messaging-hosts/com.walletbridge.host.json")
        XCTAssertEqual(manifest.string("path"), app + "/data/wallet-bridge/com.walletbridge.host-flatpak")
        XCTAssertEqual(manifest.strings("allowed_extensions"), [TestIDs.firefoxID])
        XCTAssertEqual(
            sandbox.read(app + "/data/wallet-bridge/com.walletbridge.host-flatpak"),
            expectedWrapper(binary: try Built.walletBridge(), app: "org.mozilla.firefox"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.home + "/.mozilla"))
    }

    /// The wrapper run as the browser would run it, with a stand-in flatpak-spawn that runs
    /// its command here: the host must answer through it.
    func testTheWrapperStartsTheHostThroughFlatpakSpawn() throws {
        let sandbox = try Sandbox()
        try installFlatpak(sandbox, "com.brave.Browser")
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--flatpak", "--chrome-extension", TestIDs.chromeID).status, 0)
        try sandbox.write(
            sandbox.bin + "/flatpak-spawn", "#!/bin/sh\n[ \"$1\" = --host ] || exit 97\nshift\nexec \"$@\"\n",
            mode: 0o755)
        let manifest =
            sandbox.home
            + "/.var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser/NativeMessagingHosts/com.walletbridge.host.json"
        let call = try sandbox.walletBridge(
            "call", "--manifest", manifest, "--timeout", "20", "NATIVE_GET_ACCOUNTS_METHOD")
        XCTAssertEqual(call.status, 0, call.output)
        XCTAssertTrue(call.stdout.contains("\"result\""), call.stdout)
    }

    func testUninstallTakesBackManifestAndWrapperAndOnlyWithFlatpakWhenABrowserIsNamed() throws {
        let sandbox = try Sandbox()
        try installFlatpak(sandbox, "org.chromium.Chromium")
        try sandbox.installBrowser("chromium")
        let before = try sandbox.snapshot()
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID).status,
            0)
        XCTAssertEqual(
            try sandbox.walletBridge(
                "install", "--flatpak", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID
            ).status, 0)
        let app = sandbox.home + "/.var/app/org.chromium.Chromium"
        let wrapper = app + "/data/wallet-bridge/com.walletbridge.host-flatpak"

        // As install: --browser alone is the ordinary manifest, --flatpak the sandbox's.
        let ordinary = try sandbox.walletBridge("uninstall", "--browser", "chromium")
        XCTAssertEqual(ordinary.status, 0, ordinary.output)
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: wrapper))

        let flatpak = try sandbox.walletBridge("uninstall", "--flatpak", "--browser", "chromium")
        XCTAssertEqual(flatpak.status, 0, flatpak.output)
        XCTAssertTrue(
            flatpak.stdout.contains("removed \(app)/config/chromium/NativeMessagingHosts/com.walletbridge.host.json"),
            flatpak.stdout)
        XCTAssertTrue(flatpak.stdout.contains("removed \(wrapper)"), flatpak.stdout)
        XCTAssertEqual(try sandbox.snapshot(), before)

        // And a plain uninstall takes everything.
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--flatpak", "--chrome-extension", TestIDs.chromeID).status, 0)
        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testAWrapperThatLostItsExecBitIsRewrittenByAReinstall() throws {
        let sandbox = try Sandbox()
        try installFlatpak(sandbox, "org.chromium.Chromium")
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--flatpak", "--chrome-extension", TestIDs.chromeID).status, 0)
        let wrapper = sandbox.home + "/.var/app/org.chromium.Chromium/data/wallet-bridge/com.walletbridge.host-flatpak"
        XCTAssertEqual(chmod(wrapper, 0o644), 0)
        let again = try sandbox.walletBridge("install", "--flatpak", "--chrome-extension", TestIDs.chromeID)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.stdout.contains("updated \(wrapper)"), again.stdout)
        XCTAssertEqual(FileSystem.status(wrapper)?.mode, 0o755)
    }

    func testWhatFlatpakRefuses() throws {
        let sandbox = try Sandbox()
        let ids = ["--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID]
        // Options that exclude each other are usage errors (64); the rest fail as install does (1).
        let cases: [([String], String, Int32)] = [
            (["--flatpak"], "--flatpak: no Flatpak browser found; looked for firefox (org.mozilla.firefox)", 1),
            (
                ["--flatpak", "--browser", "chrome-beta"],
                "--flatpak: chrome-beta (Google Chrome Beta) has no Flatpak that wallet-bridge knows of", 1
            ),
            (["--flatpak", "--system", "--browser", "chromium"], "--flatpak and --system exclude each other", 64),
            (["--flatpak", "--user-data-dir", "profile"], "--flatpak and --user-data-dir exclude each other", 64),
            (["--flatpak", "--browser-dir", "chromium:/tmp/x"], "--flatpak and --browser-dir exclude each other", 64),
        ]
        let before = try sandbox.snapshot()
        for (arguments, expected, status) in cases {
            let result = try sandbox.walletBridge(["install"] + arguments + ids)
            XCTAssertEqual(result.status, status, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testANamedBrowserWhoseFlatpakIsNotHereIsWrittenForLaterWithANote() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.walletBridge(
            "install", "--flatpak", "--browser", "edge-dev", "--chrome-extension", TestIDs.chromeID)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(
            result.stderr.contains(
                "edge-dev (Microsoft Edge Dev) was not found as a Flatpak here (com.microsoft.EdgeDev)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("wallet-bridge uninstall --browser edge-dev --flatpak"), result.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: sandbox.home
                    + "/.var/app/com.microsoft.EdgeDev/config/microsoft-edge-dev/NativeMessagingHosts/com.walletbridge.host.json"
            ))
        XCTAssertTrue(
            result.stdout.hasSuffix(
                "  flatpak override --user --talk-name=org.freedesktop.Flatpak com.microsoft.EdgeDev\n"), result.stdout)
    }

    func testDryRunShowsTheWrapperAndTheOverrideAndWritesNothing() throws {
        let sandbox = try Sandbox()
        try installFlatpak(sandbox, "com.google.Chrome")
        let before = try sandbox.snapshot()
        let result = try sandbox.walletBridge(
            "install", "--flatpak", "--dry-run", "--chrome-extension", TestIDs.chromeID)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(try sandbox.snapshot(), before)
        let wrapper = sandbox.home + "/.var/app/com.google.Chrome/data/wallet-bridge/com.walletbridge.host-flatpak"
        XCTAssertTrue(
            result.stdout.contains(
                "would write \(wrapper) (chrome, Flatpak com.google.Chrome, wrapper script), mode 0755:\n#!/bin/sh\n"),
            result.stdout)
        XCTAssertTrue(
            result.stdout.contains("  flatpak override --user --talk-name=org.freedesktop.Flatpak com.google.Chrome\n"),
            result.stdout)
    }

    /// Doctor checks the sandbox's manifest as a file (its wrapper would only run inside), and
    /// a Flatpak-only browser with it is OK.
    func testDoctorChecksTheSandboxManifestWithoutStartingIt() throws {
        let sandbox = try Sandbox()
        try installFlatpak(sandbox, "org.chromium.Chromium")
        let missing = try sandbox.walletBridge("doctor", "--browser", "chromium")
        XCTAssertTrue(
            missing.stdout.contains(
                "add it with: \(try Built.walletBridge()) install --browser chromium --flatpak --chrome-extension ID"),
            missing.stdout)
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--flatpak", "--chrome-extension", TestIDs.chromeID).status, 0)

        let run = try sandbox.walletBridge("doctor", "--json", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(run.status, 0, run.output)
        let chromium = try XCTUnwrap(
            try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8)).browsers.first)
        XCTAssertEqual(chromium.verdict, .ok)
        XCTAssertEqual(chromium.manifests.map(\.scope), ["flatpak"])
        XCTAssertEqual(chromium.manifests.first?.faults, [])
        XCTAssertNil(chromium.manifests.first?.answer, "never started: flatpak-spawn works only inside the sandbox")

        // The ordinary manifest beside it reaches nothing: a warning, no longer a problem.
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID).status,
            0)
        let both = try sandbox.walletBridge("doctor", "--json", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(both.status, 0, both.output)
        let report = try XCTUnwrap(
            try JSONDecoder().decode(DoctorReport.self, from: Data(both.stdout.utf8)).browsers.first)
        let sandboxFault = try XCTUnwrap(
            report.manifests.first { $0.scope == "user" }?.faults.first { $0.check == "sandbox" })
        XCTAssertEqual(sandboxFault.severity, .warning)

        // A wrapper that is gone is a problem, which --fix-paths leaves alone (it would name the
        // binary outside the sandbox).
        let wrapper = sandbox.home + "/.var/app/org.chromium.Chromium/data/wallet-bridge/com.walletbridge.host-flatpak"
        try FileManager.default.removeItem(atPath: wrapper)
        let manifest =
            sandbox.home
            + "/.var/app/org.chromium.Chromium/config/chromium/NativeMessagingHosts/com.walletbridge.host.json"
        let content = sandbox.read(manifest)
        let gone = try sandbox.walletBridge("doctor", "--fix-paths", "--browser", "chromium", "--no-probe")
        XCTAssertEqual(gone.status, 1, gone.output)
        XCTAssertTrue(gone.stdout.contains("problem [path-missing]"), gone.stdout)
        XCTAssertEqual(sandbox.read(manifest), content)
    }
}
