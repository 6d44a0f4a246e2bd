import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `--browser-dir chromium:DIR` / `firefox:DIR`: a manifest folder for any browser of either
/// family, written, recorded, checked and removed exactly.
final class BrowserDirTests: XCTestCase {
    private let ids = ["--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID]

    private func folders(_ sandbox: Sandbox) -> (chromium: String, firefox: String) {
        (sandbox.base + "/thorium/NativeMessagingHosts", sandbox.base + "/waterfox/native-messaging-hosts")
    }

    func testEachFamilysManifestGoesIntoExactlyItsFolderAndIsRecordedSo() throws {
        let sandbox = try Sandbox()
        let (chromium, firefox) = folders(sandbox)
        let result = try sandbox.walletBridge(
            ["install", "--browser-dir", "chromium:" + chromium, "--browser-dir", "firefox:" + firefox + "/"] + ids)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(
            result.stdout.contains("wrote \(chromium)/com.walletbridge.host.json (--browser-dir chromium)"),
            result.stdout)
        XCTAssertTrue(
            result.stdout.contains("wrote \(firefox)/com.walletbridge.host.json (--browser-dir firefox)"), result.stdout
        )

        let chromeManifest = try ManifestFile.load(chromium + "/com.walletbridge.host.json")
        XCTAssertEqual(chromeManifest.strings("allowed_origins"), [TestIDs.chromeOrigin])
        XCTAssertNil(chromeManifest.members["allowed_extensions"])
        XCTAssertEqual(chromeManifest.string("path"), try Built.walletBridge())
        let firefoxManifest = try ManifestFile.load(firefox + "/com.walletbridge.host.json")
        XCTAssertEqual(firefoxManifest.strings("allowed_extensions"), [TestIDs.firefoxID])
        XCTAssertNil(firefoxManifest.members["allowed_origins"])

        // Only those folders: no browser was found or named, and none is written for.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.config), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.home + "/.mozilla"))

        let record = try XCTUnwrap(
            try InstallRecord.load(from: sandbox.home + "/.local/state/wallet-bridge/installed.json"))
        let entry = try XCTUnwrap(record.files.first { $0.path == chromium + "/com.walletbridge.host.json" })
        XCTAssertEqual(entry.browserDir, chromium)
        XCTAssertEqual(entry.family, .chromium)
        XCTAssertEqual(entry.browsers, [])
        XCTAssertEqual(record.files.first { $0.path == firefox + "/com.walletbridge.host.json" }?.family, .firefox)
    }

    func testUninstallTakesBackExactlyTheNamedFolder() throws {
        let sandbox = try Sandbox()
        let (chromium, firefox) = folders(sandbox)
        let before = try sandbox.snapshot()
        let install = try sandbox.walletBridge(
            [
                "install", "--browser", "chromium", "--browser-dir", "chromium:" + chromium, "--browser-dir",
                "firefox:" + firefox,
            ] + ids)
        XCTAssertEqual(install.status, 0, install.output)
        let ownChromium = sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json"
        XCTAssertTrue(FileManager.default.fileExists(atPath: ownChromium))

        let one = try sandbox.walletBridge("uninstall", "--browser-dir", "chromium:" + chromium)
        XCTAssertEqual(one.status, 0, one.output)
        XCTAssertTrue(one.stdout.contains("removed \(chromium)/com.walletbridge.host.json"), one.stdout)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: sandbox.base + "/thorium"), "the folders install made went too")
        XCTAssertTrue(FileManager.default.fileExists(atPath: firefox + "/com.walletbridge.host.json"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: ownChromium))

        // The family is part of the name: firefox:<chromium's folder> is not what was installed.
        let wrongFamily = try sandbox.walletBridge("uninstall", "--browser-dir", "chromium:" + firefox)
        XCTAssertEqual(wrongFamily.status, 0, wrongFamily.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: firefox + "/com.walletbridge.host.json"))
        let none = try sandbox.walletBridge("uninstall", "--browser-dir", "firefox:" + sandbox.base + "/elsewhere")
        XCTAssertTrue(
            none.stdout.contains("nothing recorded for --browser-dir firefox:\(sandbox.base)/elsewhere"), none.stdout)

        // --browser leaves the --browser-dir folders alone.
        XCTAssertEqual(try sandbox.walletBridge("uninstall", "--browser", "chromium").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: ownChromium))
        XCTAssertTrue(FileManager.default.fileExists(atPath: firefox + "/com.walletbridge.host.json"))

        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0)
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testABadFamilyOrARelativeFolderIsAClearUsageError() throws {
        let sandbox = try Sandbox()
        let before = try sandbox.snapshot()
        let cases: [(String, String)] = [
            ("chrome:/tmp/x", "--browser-dir chrome:/tmp/x: \"chrome\" is not a browser family; write chromium:"),
            ("/tmp/x", "--browser-dir /tmp/x: no browser family; write chromium:"),
            ("firefox:relative/dir", "--browser-dir firefox:relative/dir: the folder must be an absolute path"),
            (
                "firefox:~/.waterfox/native-messaging-hosts",
                "the shell does not expand ~ after firefox:; write $HOME instead"
            ),
            ("chromium:", "the folder must be an absolute path, and none is given"),
        ]
        for command in [["install"] + ids, ["uninstall"], ["doctor"]] {
            for (value, expected) in cases {
                let result = try sandbox.walletBridge(command + ["--browser-dir", value])
                XCTAssertEqual(result.status, 64, "\(command[0]) \(value): \(result.output)")
                XCTAssertTrue(result.stderr.contains(expected), "\(command[0]) \(value): \(result.stderr)")
            }
        }
        XCTAssertEqual(try sandbox.snapshot(), before)
    }

    func testDoctorChecksTheFoldersNamedAndRecordedAndItsFixWorksAsPrinted() throws {
        let sandbox = try Sandbox()
        let (chromium, firefox) = folders(sandbox)
        XCTAssertEqual(try sandbox.walletBridge(["install", "--browser-dir", "chromium:" + chromium] + ids).status, 0)

        // Recorded: checked without being named, and the host started as Chrome starts it.
        let healthy = try sandbox.walletBridge("doctor", "--json", "--timeout", "20")
        XCTAssertEqual(healthy.status, 0, healthy.output)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(healthy.stdout.utf8))
        let entry = try XCTUnwrap(report.browsers.first { $0.browser == "browser-dir" })
        XCTAssertEqual(entry.name, "Chrome-family browser reading \(chromium)")
        XCTAssertEqual(entry.verdict, .ok)
        XCTAssertEqual(entry.manifests.map(\.scope), ["browser-dir"])
        XCTAssertEqual(entry.manifests.first?.answer, "answers: rpc.discover -> a result (\"wallet-bridge\")")

        // Named: an empty folder is NOT INSTALLED, and fails nothing.
        let named = try sandbox.walletBridge("doctor", "--browser-dir", "firefox:" + firefox, "--no-probe")
        XCTAssertEqual(named.status, 0, named.output)
        XCTAssertTrue(
            named.stdout.contains(
                "Firefox-family browser reading \(firefox): NOT INSTALLED (no com.walletbridge.host.json in \(firefox))"
            ), named.stdout)

        // Broken: a problem, whose printed fix rewrites it where it is.
        let path = chromium + "/com.walletbridge.host.json"
        try sandbox.write(
            path,
            try XCTUnwrap(sandbox.read(path)).replacingOccurrences(of: #""type": "stdio""#, with: #""type": "pipe""#))
        let broken = try sandbox.walletBridge("doctor", "--json", "--timeout", "20")
        XCTAssertEqual(broken.status, 1, broken.output)
        let faults = try JSONDecoder().decode(DoctorReport.self, from: Data(broken.stdout.utf8)).browsers.flatMap(
            \.manifests
        ).flatMap(\.faults)
        let fault = try XCTUnwrap(faults.first { $0.check == "wrong-type" })
        let start = try XCTUnwrap(fault.fix.range(of: try Built.walletBridge() + " install"), fault.fix)
        let end = try XCTUnwrap(fault.fix.range(of: "--force", range: start.upperBound..<fault.fix.endIndex), fault.fix)
        let command = String(fault.fix[start.lowerBound..<end.upperBound])
        XCTAssertTrue(command.contains("--browser-dir chromium:\(chromium)"), command)
        let run = try runProcess("/bin/sh", ["-c", command], environment: sandbox.variables, in: sandbox.base)
        XCTAssertEqual(run.status, 0, "\(command)\n\(run.output)")
        XCTAssertEqual(try sandbox.walletBridge("doctor", "--timeout", "20").status, 0)
    }

    func testAFirefoxManifestInAChromiumFolderIsTheWrongFamily() throws {
        let sandbox = try Sandbox()
        let (chromium, firefox) = folders(sandbox)
        XCTAssertEqual(try sandbox.walletBridge(["install", "--browser-dir", "firefox:" + firefox] + ids).status, 0)
        try sandbox.write(
            chromium + "/com.walletbridge.host.json",
            try XCTUnwrap(sandbox.read(firefox + "/com.walletbridge.host.json")))
        let result = try sandbox.walletBridge("doctor", "--browser-dir", "chromium:" + chromium, "--no-probe")
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertTrue(result.stdout.contains("problem [wrong-family]"), result.stdout)
    }
}
