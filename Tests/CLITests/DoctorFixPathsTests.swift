import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `doctor --fix-paths`: a manifest whose binary moved is re-pointed at the running binary, on
/// request only; nothing else is touched.
final class DoctorFixPathsTests: XCTestCase {
    private func report(_ run: Run) throws -> DoctorReport {
        try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8))
    }

    func testOnlyAManifestWhoseBinaryIsGoneIsRepointedAndOnlyWhenAsked() throws {
        let (sandbox, chromium, firefox) = try Sandbox.healthy()
        let binary = try Built.walletBridge()
        let original = try XCTUnwrap(sandbox.read(chromium))
        let healthyFirefox = try XCTUnwrap(sandbox.read(firefox))
        try sandbox.write(
            chromium, original.replacingOccurrences(of: binary, with: "/nonexistent/old-build/wallet-bridge"))
        // Someone else's host, gone too: not this program, so not this program's to re-point.
        let foreign = sandbox.home + "/.librewolf/native-messaging-hosts/com.walletbridge.host.json"
        let foreignText = healthyFirefox.replacingOccurrences(of: binary, with: "/nonexistent/other-host")
        try sandbox.write(foreign, foreignText)
        // Relative: broken, but not "moved"; doctor's relative-path check says what to do.
        let relative = sandbox.config + "/vivaldi/NativeMessagingHosts/com.walletbridge.host.json"
        let relativeText = original.replacingOccurrences(of: binary, with: "wallet-bridge")
        try sandbox.write(relative, relativeText)

        let untouched = try sandbox.walletBridge("doctor", "--no-probe")
        XCTAssertEqual(untouched.status, 1, untouched.output)
        XCTAssertTrue(untouched.stdout.contains("problem [path-missing]"), untouched.stdout)
        XCTAssertEqual(
            sandbox.read(chromium),
            original.replacingOccurrences(of: binary, with: "/nonexistent/old-build/wallet-bridge"),
            "doctor alone changes nothing")

        let fixing = try sandbox.walletBridge("doctor", "--fix-paths", "--json", "--timeout", "20")
        XCTAssertEqual(fixing.status, 0, fixing.output)
        let fixes = try XCTUnwrap(try report(fixing).fixed)
        XCTAssertEqual(fixes.filter { $0.outcome == .fixed }.map(\.manifest), [chromium])
        XCTAssertEqual(fixes.first { $0.manifest == chromium }?.from, "/nonexistent/old-build/wallet-bridge")
        XCTAssertEqual(fixes.first { $0.manifest == chromium }?.to, binary)
        XCTAssertEqual(fixes.first { $0.manifest == foreign }?.outcome, .skipped)
        XCTAssertNil(fixes.first { $0.manifest == relative })
        XCTAssertEqual(fixes.count, 2)

        XCTAssertEqual(sandbox.read(chromium), original, "only the path changed, byte for byte")
        XCTAssertEqual(sandbox.read(firefox), healthyFirefox)
        XCTAssertEqual(sandbox.read(foreign), foreignText)
        XCTAssertEqual(sandbox.read(relative), relativeText)
        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0, "the record still matches what is there")
    }

    func testEachChangeIsPrintedAndTheRecordFollowsSoUninstallStillWorks() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        // Installed from a copy that is then deleted: the binary "moved".
        let old = sandbox.base + "/old/wallet-bridge"
        try FileManager.default.createDirectory(atPath: sandbox.base + "/old", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Built.walletBridge(), toPath: old)
        XCTAssertEqual(
            try sandbox.walletBridge(
                "install", "--browser", "chromium", "--binary", old, "--chrome-extension", TestIDs.chromeID
            ).status, 0)
        try FileManager.default.removeItem(atPath: sandbox.base + "/old")
        let manifest = sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json"

        let fixing = try sandbox.walletBridge("doctor", "--fix-paths", "--no-probe")
        XCTAssertEqual(fixing.status, 0, fixing.output)
        let line =
            "fixed \(manifest): \"path\" was \(old), which no longer exists; it is now \(try Built.walletBridge())"
        XCTAssertEqual(fixing.stdout.split(separator: "\n").first.map(String.init), line, fixing.stdout)
        XCTAssertTrue(fixing.stdout.contains("Chromium: OK"), fixing.stdout)
        XCTAssertEqual(try ManifestFile.load(manifest).string("path"), try Built.walletBridge())

        let record = try XCTUnwrap(
            try InstallRecord.load(from: sandbox.home + "/.local/state/wallet-bridge/installed.json"))
        XCTAssertEqual(record.files.first { $0.path == manifest }?.content, sandbox.read(manifest))
        let uninstall = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertTrue(uninstall.stdout.contains("removed \(manifest)"), uninstall.stdout)

        let nothing = try sandbox.walletBridge("doctor", "--fix-paths", "--no-probe")
        XCTAssertTrue(nothing.stdout.hasPrefix("no manifest names a binary that is gone\n"), nothing.stdout)
    }

    func testAPathWrittenWithEscapesIsLeftForAHumanWithAReason() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let manifest = sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json"
        let text =
            #"{"name": "com.walletbridge.host", "description": "x", "path": "\/gone\/wallet-bridge", "type": "stdio", "allowed_origins": ["\#(TestIDs.chromeOrigin)"]}"#
        try sandbox.write(manifest, text)
        let run = try sandbox.walletBridge("doctor", "--fix-paths", "--json", "--no-probe")
        XCTAssertEqual(run.status, 1, run.output)
        let fix = try XCTUnwrap(try report(run).fixed?.first)
        XCTAssertEqual(fix.outcome, .skipped)
        XCTAssertEqual(fix.from, "/gone/wallet-bridge")
        XCTAssertTrue(fix.reason?.contains("edit it by hand") == true, fix.reason ?? "")
        XCTAssertEqual(sandbox.read(manifest), text)
    }
}
