import Foundation
import XCTest

@testable import WalletBridgeCLI

/// Permission errors, as a user who really gets EACCES sees them. Root passes every permission
/// check, so when the tests run as root, doctor runs as `nobody` (setpriv) over a sandbox
/// handed to `nobody`.
final class DoctorPermissionTests: XCTestCase {
    private static let nobody: UInt32 = 65534

    private func sandbox() throws -> (sandbox: Sandbox, chromium: String) {
        if getuid() == 0 && !FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            throw XCTSkip("running as root without setpriv: cannot run doctor as a user that gets EACCES")
        }
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let install = try sandbox.walletBridge(
            "install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID)
        XCTAssertEqual(install.status, 0, install.output)
        if getuid() == 0 {
            let chown = try runProcess(
                "/bin/chown", ["-R", "\(Self.nobody):\(Self.nobody)", sandbox.base], environment: [:])
            XCTAssertEqual(chown.status, 0, chown.output)
        }
        return (sandbox, sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json")
    }

    /// Doctor as a user without root's privileges.
    private func doctor(_ sandbox: Sandbox) throws -> (run: Run, report: DoctorReport) {
        let arguments = ["doctor", "--json", "--browser", "chromium", "--timeout", "20"]
        let run =
            getuid() == 0
            ? try runProcess(
                "/usr/bin/setpriv",
                ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", try Built.walletBridge()]
                    + arguments, environment: sandbox.variables, in: "/")
            : try runProcess(try Built.walletBridge(), arguments, environment: sandbox.variables, in: "/")
        return (run, try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8)))
    }

    func testAManifestFolderThatCannotBeEnteredIsAProblemNamingThePermission() throws {
        let (sandbox, chromium) = try sandbox()
        XCTAssertEqual(try doctor(sandbox).run.status, 0, "healthy before chmod")
        let folder = Path.parent(chromium)
        XCTAssertEqual(chmod(folder, 0o000), 0)
        defer { chmod(folder, 0o755) }
        let (run, report) = try doctor(sandbox)
        XCTAssertEqual(run.status, 1, run.output)
        let entry = try XCTUnwrap(report.browsers.first)
        XCTAssertEqual(entry.verdict, .problem, run.stdout)
        let fault = try XCTUnwrap(entry.manifests.flatMap(\.faults).first { $0.check == "unreadable" }, run.stdout)
        XCTAssertTrue(fault.message.contains("permission denied"), fault.message)
        XCTAssertTrue(fault.message.contains(folder), fault.message)
    }

    func testAFolderThatCanBeEnteredButNotListedStillWorks() throws {
        let (sandbox, chromium) = try sandbox()
        let folder = Path.parent(chromium)
        XCTAssertEqual(chmod(folder, 0o311), 0)
        defer { chmod(folder, 0o755) }
        let (run, report) = try doctor(sandbox)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(report.browsers.first?.verdict, .ok, run.stdout)
    }

    func testAHostBehindAFolderThatCannotBeEnteredIsPermissionDeniedNotMissing() throws {
        let (sandbox, chromium) = try sandbox()
        let privateFolder = sandbox.base + "/private"
        try FileManager.default.createDirectory(atPath: privateFolder, withIntermediateDirectories: true)
        let host = privateFolder + "/wallet-bridge"
        try FileManager.default.copyItem(atPath: try Built.walletBridge(), toPath: host)
        try sandbox.write(
            chromium,
            try XCTUnwrap(sandbox.read(chromium)).replacingOccurrences(of: try Built.walletBridge(), with: host))
        if getuid() == 0 { XCTAssertEqual(chown(chromium, Self.nobody, Self.nobody), 0) }
        // Owned by root (or by us) and closed to everyone else.
        XCTAssertEqual(chmod(privateFolder, 0o700), 0)
        if getuid() != 0 { XCTAssertEqual(chmod(privateFolder, 0o000), 0) }
        defer { chmod(privateFolder, 0o755) }
        let (run, report) = try doctor(sandbox)
        XCTAssertEqual(run.status, 1, run.output)
        let faults = try XCTUnwrap(report.browsers.first).manifests.flatMap(\.faults)
        XCTAssertFalse(faults.contains { $0.check == "path-missing" }, run.stdout)
        let fault = try XCTUnwrap(faults.first { $0.check == "path-denied" }, run.stdout)
        XCTAssertTrue(fault.message.contains("permission denied"), fault.message)
        XCTAssertTrue(fault.message.contains(privateFolder), fault.message)
        XCTAssertFalse(fault.message.contains("does not exist"), fault.message)
    }
}
