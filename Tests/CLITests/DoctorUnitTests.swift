import XCTest

@testable import WalletBridgeCLI

/// Checks that depend on who the user is: run in-process with another uid than the test's.
final class DoctorUnitTests: XCTestCase {
    private func report(_ sandbox: Sandbox, userID: UInt32) -> DoctorReport {
        var environment = sandbox.environment
        environment.userID = userID
        return Doctor.run(
            DoctorOptions(browsers: [BrowserCatalog.named("chromium")!], probe: false), environment: environment)
    }

    private func installChromium(_ sandbox: Sandbox) throws -> String {
        try sandbox.installBrowser("chromium")
        var record = InstallRecord()
        let request = InstallRequest(
            browsers: [BrowserCatalog.named("chromium")!], chromeOrigins: [TestIDs.chromeOrigin], binaryPath: "/bin/sh")
        let plan = try Installer.plan(request, environment: sandbox.environment, record: nil)
        _ = try Installer.apply(plan, recordPath: InstallRecord.location(in: sandbox.environment), record: &record)
        return plan.targets[0].path
    }

    func testAManifestOwnedBySomeoneElseInTheUsersFolderIsFlagged() throws {
        let sandbox = try Sandbox()
        let path = try installChromium(sandbox)
        let owner = try XCTUnwrap(FileSystem.status(path)?.owner)
        let faults = report(sandbox, userID: owner + 1000).browsers[0].manifests[0].faults
        XCTAssertEqual(faults.map(\.check), ["owner"])
        XCTAssertEqual(faults[0].severity, .warning, "still readable: works, but the user cannot manage it")
        XCTAssertTrue(faults[0].fix.hasPrefix("sudo chown"), faults[0].fix)
        XCTAssertEqual(report(sandbox, userID: owner).browsers[0].manifests[0].faults, [])
    }

    func testAManifestTheUserCannotReadIsAProblem() throws {
        let sandbox = try Sandbox()
        let path = try installChromium(sandbox)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let owner = try XCTUnwrap(FileSystem.status(path)?.owner)
        let result = report(sandbox, userID: owner + 1000).browsers[0]
        XCTAssertEqual(result.verdict, .problem)
        XCTAssertEqual(result.manifests[0].faults.map(\.check), ["owner", "unreadable"])
        XCTAssertTrue(result.manifests[0].faults[1].fix.contains("chmod 644"))
    }

    func testSystemFoldersAreCheckedToo() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        try sandbox.write(
            sandbox.root + "/etc/chromium/native-messaging-hosts/com.walletbridge.host.json", "{\"name\": 1}")
        let result = report(sandbox, userID: getuid()).browsers[0]
        XCTAssertEqual(result.manifests.map(\.scope), ["system"])
        XCTAssertTrue(result.manifests[0].faults.map(\.check).contains("missing-field"))
    }
}
