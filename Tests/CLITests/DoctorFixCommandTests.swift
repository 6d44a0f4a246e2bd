import Foundation
import XCTest

@testable import WalletBridgeCLI

/// Every command doctor suggests must work as printed: run it in the sandbox, then doctor
/// must find nothing wrong.
final class DoctorFixCommandTests: XCTestCase {
    /// The `wallet-bridge install … --force` commands in the report's fixes, exactly as printed.
    private func suggestedInstalls(_ report: DoctorReport) throws -> [String] {
        let binary = try Built.walletBridge()
        var commands: [String] = []
        for fault in report.browsers.flatMap(\.manifests).flatMap(\.faults) {
            var rest = Substring(fault.fix)
            while let start = rest.range(of: binary + " install") {
                let tail = rest[start.lowerBound...]
                guard let end = tail.range(of: "--force") else { break }
                commands.append(String(tail[..<end.upperBound]))
                rest = tail[end.upperBound...]
            }
        }
        return commands
    }

    private func assertSuggestedCommandRepairs(
        _ sandbox: Sandbox, _ breakIt: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        try breakIt()
        let before = try sandbox.walletBridge("doctor", "--json", "--timeout", "20")
        XCTAssertEqual(before.status, 1, before.output, file: file, line: line)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(before.stdout.utf8))
        let commands = try suggestedInstalls(report)
        XCTAssertFalse(commands.isEmpty, "no install command suggested: \(before.stdout)", file: file, line: line)
        for command in commands {
            XCTAssertFalse(command.contains(" NAME "), command, file: file, line: line)
            XCTAssertFalse(
                command.hasSuffix(" ID --force") || command.contains(" ID "), "placeholder in \(command)", file: file,
                line: line)
            let run = try runProcess("/bin/sh", ["-c", command], environment: sandbox.variables, in: sandbox.base)
            XCTAssertEqual(run.status, 0, "\(command)\n\(run.output)", file: file, line: line)
        }
        let after = try sandbox.walletBridge("doctor", "--timeout", "20")
        XCTAssertEqual(after.status, 0, after.output, file: file, line: line)
    }

    func testReinstallFixForABrokenChromiumManifestWorksAsPrinted() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try assertSuggestedCommandRepairs(sandbox) {
            try sandbox.write(
                chromium,
                try XCTUnwrap(sandbox.read(chromium)).replacingOccurrences(
                    of: #""type": "stdio""#, with: #""type": "pipe""#))
        }
    }

    func testReinstallFixForAManifestThatNoLongerParsesTakesTheIDsFromTheRecord() throws {
        let (sandbox, _, firefox) = try Sandbox.healthy()
        try assertSuggestedCommandRepairs(sandbox) {
            try sandbox.write(firefox, "[1, 2]")
        }
    }

    func testFixForAChromeManifestInTheFirefoxFolderWorksAsPrinted() throws {
        let (sandbox, chromium, firefox) = try Sandbox.healthy()
        try assertSuggestedCommandRepairs(sandbox) {
            try sandbox.write(firefox, try XCTUnwrap(sandbox.read(chromium)))
        }
    }

    func testFixForAMissingHostPathWorksAsPrinted() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try assertSuggestedCommandRepairs(sandbox) {
            try sandbox.write(
                chromium,
                try XCTUnwrap(sandbox.read(chromium)).replacingOccurrences(
                    of: try Built.walletBridge(), with: "/nonexistent/wallet-bridge"))
        }
    }

    func testFixForAnEmptyAllowListWorksAsPrinted() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try assertSuggestedCommandRepairs(sandbox) {
            try sandbox.write(
                chromium,
                try XCTUnwrap(sandbox.read(chromium)).replacingOccurrences(of: "\"\(TestIDs.chromeOrigin)\"", with: ""))
        }
    }

    func testReinstallFixForAUserDataDirInstall() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(
            try sandbox.walletBridge(
                "install", "--user-data-dir", "profile dir", "--chrome-extension", TestIDs.chromeID
            ).status, 0)
        let manifest = sandbox.base + "/profile dir/NativeMessagingHosts/com.walletbridge.host.json"
        try sandbox.write(
            manifest,
            try XCTUnwrap(sandbox.read(manifest)).replacingOccurrences(
                of: #""name": "com.walletbridge.host""#, with: #""name": "Bad Name""#))
        let before = try sandbox.walletBridge("doctor", "--json", "--user-data-dir", "profile dir")
        XCTAssertEqual(before.status, 1, before.output)
        let commands = try suggestedInstalls(
            try JSONDecoder().decode(DoctorReport.self, from: Data(before.stdout.utf8)))
        XCTAssertFalse(commands.isEmpty, before.stdout)
        for command in commands {
            let run = try runProcess("/bin/sh", ["-c", command], environment: sandbox.variables, in: sandbox.base)
            XCTAssertEqual(run.status, 0, "\(command)\n\(run.output)")
        }
        let after = try sandbox.walletBridge("doctor", "--user-data-dir", "profile dir")
        XCTAssertEqual(after.status, 0, after.output)
    }
}
