import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `wallet-bridge doctor` run as a process against a sandboxed HOME: every browser healthy,
/// then one fault at a time, each of which must be named.
final class DoctorProcessTests: XCTestCase {
    private func doctor(_ sandbox: Sandbox, _ arguments: [String] = []) throws -> (run: Run, report: DoctorReport) {
        let result = try sandbox.walletBridge(["doctor", "--json", "--timeout", "20"] + arguments)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(result.stdout.utf8))
        return (result, report)
    }

    private func browser(_ report: DoctorReport, _ id: String) throws -> BrowserReport {
        try XCTUnwrap(report.browsers.first { $0.browser == id }, id)
    }

    private func checks(_ report: DoctorReport, _ id: String) throws -> [String] {
        try browser(report, id).manifests.flatMap(\.faults).map(\.check)
    }

    /// Edits one JSON manifest as text, the way people break them.
    private func edit(_ sandbox: Sandbox, _ path: String, _ change: (String) -> String) throws {
        try sandbox.write(path, change(try XCTUnwrap(sandbox.read(path))))
    }

    /// Asserts that doctor fails, with `check` named (in the JSON and in the text report) for `browserID`.
    private func assertFault(
        _ check: String, for browserID: String, in sandbox: Sandbox, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (result, report) = try doctor(sandbox)
        XCTAssertEqual(result.status, 1, "doctor exits 1 on a problem", file: file, line: line)
        XCTAssertFalse(report.ok, file: file, line: line)
        XCTAssertEqual(try browser(report, browserID).verdict, .problem, file: file, line: line)
        let named = try checks(report, browserID)
        XCTAssertTrue(named.contains(check), "\(check) not in \(named)", file: file, line: line)
        let text = try sandbox.walletBridge("doctor", "--timeout", "20")
        XCTAssertTrue(text.stdout.contains("PROBLEM"), text.stdout, file: file, line: line)
        XCTAssertTrue(text.stdout.contains("problem [\(check)]"), text.stdout, file: file, line: line)
    }

    func testEveryBrowserInstalledAndHealthyIsOKAndTheHostAnswers() throws {
        let sandbox = try Sandbox()
        for id in BrowserCatalog.ids { try sandbox.installBrowser(id) }
        let install = try sandbox.walletBridge(
            "install", "--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(install.status, 0, install.output)

        let (result, report) = try doctor(sandbox)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(report.ok)
        XCTAssertEqual(report.browsers.map(\.browser), BrowserCatalog.ids)
        for browser in report.browsers {
            XCTAssertEqual(browser.verdict, .ok, browser.browser)
            XCTAssertEqual(browser.manifests.count, 1, browser.browser)
            XCTAssertEqual(browser.manifests.first?.faults, [], browser.browser)
            // The shipped wallet describes itself, asking no one and starting no agent.
            XCTAssertEqual(
                browser.manifests.first?.answer, "answers: rpc.discover -> a result (\"wallet-bridge\")",
                browser.browser)
        }
        let text = try sandbox.walletBridge("doctor")
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stdout.contains("Firefox: OK"), text.stdout)
        XCTAssertTrue(text.stdout.contains("Microsoft Edge: OK"), text.stdout)
        XCTAssertTrue(text.stdout.contains("no problems found"), text.stdout)
    }

    /// A host that answers every call with an error, because its configuration cannot be used,
    /// answers: doctor says so with what the host logged, which is why and how to fix it (the
    /// extension is only told that the log says why).
    func testAnErrorAnswerComesWithWhatTheHostLogged() throws {
        let (sandbox, _, _) = try Sandbox.healthy()
        let folder = sandbox.config + "/wallet-bridge"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(folder, 0o777), 0)
        let (result, report) = try doctor(sandbox, ["--browser", "chromium"])
        XCTAssertEqual(result.status, 0, "the host answers: " + result.output)
        let answer = try XCTUnwrap(try browser(report, "chromium").manifests.first?.answer)
        XCTAssertTrue(answer.hasPrefix("answers: rpc.discover -> error -1 "), answer)
        XCTAssertTrue(
            answer.contains(
                "\n  the host logged: the configuration file \(folder)/config.json is not used, because other users can write to the folder \(folder) (mode 0777); run: chmod go-w \(folder); refusing every call until it is fixed"
            ),
            answer)
        let text = try sandbox.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertTrue(
            text.stdout.contains("\n      the host logged: the configuration file \(folder)/config.json is not used"),
            text.stdout)
    }

    func testVerdictsForBrowsersWithoutManifests() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("brave")
        let (result, report) = try doctor(sandbox)
        XCTAssertEqual(result.status, 0, "no manifest is not a broken manifest")
        let brave = try browser(report, "brave")
        XCTAssertEqual(brave.verdict, .notInstalled)
        XCTAssertTrue(brave.browserFound)
        XCTAssertTrue(
            brave.summary?.contains("wallet-bridge install --browser brave --chrome-extension ID") == true,
            brave.summary ?? "")
        XCTAssertEqual(try browser(report, "edge").verdict, .notInstalled)
        XCTAssertEqual(try browser(report, "edge").summary, "browser not found")
    }

    func testWrongName() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try edit(sandbox, chromium) {
            $0.replacingOccurrences(of: #""name": "com.walletbridge.host""#, with: #""name": "com.walletbridge.other""#)
        }
        try assertFault("name-mismatch", for: "chromium", in: sandbox)
    }

    func testManifestUnderTheWrongFileName() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try FileManager.default.moveItem(atPath: chromium, toPath: Path.parent(chromium) + "/wallet-bridge.json")
        try assertFault("name-mismatch", for: "chromium", in: sandbox)
    }

    func testRelativePath() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try edit(sandbox, chromium) { $0.replacingOccurrences(of: try! Built.walletBridge(), with: "wallet-bridge") }
        try assertFault("relative-path", for: "chromium", in: sandbox)
    }

    func testMissingExecBit() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("firefox")
        let copy = sandbox.base + "/opt/wallet-bridge"
        try FileManager.default.createDirectory(atPath: sandbox.base + "/opt", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try Built.walletBridge(), toPath: copy)
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--firefox-addon", TestIDs.firefoxID, "--binary", copy).status, 0)
        XCTAssertEqual(try doctor(sandbox).run.status, 0, "healthy before chmod")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        try assertFault("not-executable", for: "firefox", in: sandbox)
    }

    func testPathThatIsMissingOrADirectory() throws {
        let (sandbox, chromium, firefox) = try Sandbox.healthy()
        try edit(sandbox, chromium) {
            $0.replacingOccurrences(of: try! Built.walletBridge(), with: "/nonexistent/wallet-bridge")
        }
        try edit(sandbox, firefox) { $0.replacingOccurrences(of: try! Built.walletBridge(), with: sandbox.base) }
        try assertFault("path-missing", for: "chromium", in: sandbox)
        try assertFault("path-not-file", for: "firefox", in: sandbox)
    }

    func testBadJSON() throws {
        let (sandbox, _, firefox) = try Sandbox.healthy()
        try edit(sandbox, firefox) { $0.replacingOccurrences(of: #""type": "stdio","#, with: #""type": "stdio""#) }
        try assertFault("bad-json", for: "firefox", in: sandbox)
    }

    func testWrongType() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try edit(sandbox, chromium) { $0.replacingOccurrences(of: #""type": "stdio""#, with: #""type": "pipe""#) }
        try assertFault("wrong-type", for: "chromium", in: sandbox)
    }

    func testMalformedOrigins() throws {
        for broken in [
            "chrome-extension://\(TestIDs.chromeID)", "chrome-extension://*/", TestIDs.chromeID,
            "chrome-extension://ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP/",
        ] {
            let (sandbox, chromium, _) = try Sandbox.healthy()
            try edit(sandbox, chromium) { $0.replacingOccurrences(of: TestIDs.chromeOrigin, with: broken) }
            try assertFault("bad-origin", for: "chromium", in: sandbox)
        }
    }

    func testMalformedAddonID() throws {
        let (sandbox, _, firefox) = try Sandbox.healthy()
        try edit(sandbox, firefox) { $0.replacingOccurrences(of: TestIDs.firefoxID, with: "wallet") }
        try assertFault("bad-addon-id", for: "firefox", in: sandbox)
    }

    func testChromeManifestInTheFirefoxFolder() throws {
        let (sandbox, chromium, firefox) = try Sandbox.healthy()
        try sandbox.write(firefox, try XCTUnwrap(sandbox.read(chromium)))
        try assertFault("wrong-family", for: "firefox", in: sandbox)
    }

    func testFirefoxManifestInAChromeFolder() throws {
        let (sandbox, chromium, firefox) = try Sandbox.healthy()
        try sandbox.write(chromium, try XCTUnwrap(sandbox.read(firefox)))
        try assertFault("wrong-family", for: "chromium", in: sandbox)
    }

    /// Another host's manifest (not the wallet's) only in Chrome's folder, and only Chromium
    /// installed: doctor names Chromium as the browser without one, and the command it prints
    /// writes Chromium's for that host and its binary, never re-pointing the host at the wallet.
    func testAnotherHostsManifestInTheFolderOfABrowserThatIsNotInstalled() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let host = try Built.conformanceHost()
        let name = "com.example.ping_host"
        let placed = try sandbox.walletBridge(
            "install", "--browser", "chrome", "--chrome-extension", TestIDs.chromeID, "--name", name, "--binary", host)
        XCTAssertEqual(placed.status, 0, placed.output)

        let (result, report) = try doctor(sandbox, ["--name", name])
        XCTAssertEqual(result.status, 0, "it reaches nobody, so it breaks nothing: \(result.output)")
        let fault = try XCTUnwrap(
            browser(report, "chrome").manifests.first?.faults.first { $0.check == "wrong-folder" })
        XCTAssertTrue(
            fault.message.hasSuffix("this manifest reaches nobody; Chromium is installed and has no \(name).json"),
            fault.message)
        let install =
            "\(try Built.walletBridge()) install --browser chromium --chrome-extension \(TestIDs.chromeOrigin) --name \(name) --binary \(host)"
        XCTAssertTrue(fault.fix.contains("install for it with: \(install)\n"), fault.fix)
        let summary = try XCTUnwrap(browser(report, "chromium").summary)
        XCTAssertTrue(summary.hasSuffix("add it with: \(install)"), summary)
        let text = try sandbox.walletBridge("doctor", "--name", name, "--timeout", "20")
        XCTAssertTrue(text.stdout.contains("Chromium is installed and has no \(name).json"), text.stdout)

        // As printed, the command fixes it: Chromium's manifest names the host, not the wallet.
        let run = try runProcess("/bin/sh", ["-c", install], environment: sandbox.variables, in: sandbox.base)
        XCTAssertEqual(run.status, 0, "\(install)\n\(run.output)")
        let written = try XCTUnwrap(sandbox.read("\(sandbox.config)/chromium/NativeMessagingHosts/\(name).json"))
        XCTAssertTrue(written.contains(#""path": "\#(host)""#), written)
        let (after, fixed) = try doctor(sandbox, ["--name", name])
        XCTAssertEqual(after.status, 0, after.output)
        XCTAssertEqual(try browser(fixed, "chromium").verdict, .ok, after.output)
        // Chromium has its own now: Chrome's copy is only clutter, and nobody is told to install.
        let left = try XCTUnwrap(browser(fixed, "chrome").manifests.first?.faults.first { $0.check == "wrong-folder" })
        XCTAssertFalse(left.message.contains("has no"), left.message)
        XCTAssertFalse(left.fix.contains(" install "), left.fix)
    }

    func testManifestInTheFolderOfABrowserThatIsNotInstalled() throws {
        // Only Chromium is installed; the manifest went to Google Chrome's folder.
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--browser", "chrome", "--chrome-extension", TestIDs.chromeID).status, 0
        )
        // Nobody reads that manifest: a note on an absent browser, not a failing verdict.
        let (result, report) = try doctor(sandbox)
        XCTAssertEqual(result.status, 0, result.output)
        let chrome = try browser(report, "chrome")
        XCTAssertEqual(chrome.verdict, .notInstalled)
        let fault = try XCTUnwrap(chrome.manifests.first?.faults.first { $0.check == "wrong-folder" })
        XCTAssertEqual(fault.severity, .warning)
        XCTAssertTrue(fault.fix.contains("Chromium reads \(sandbox.config)/chromium/NativeMessagingHosts/"), fault.fix)
        XCTAssertEqual(try browser(report, "chromium").verdict, .notInstalled)

        // The fix, as printed: install for Chromium, uninstall for Chrome (install wrote it).
        let binary = try Built.walletBridge()
        let commands = fault.fix.split(separator: "\n").compactMap { line in
            line.range(of: binary).map { String(line[$0.lowerBound...]) }
        }
        XCTAssertEqual(
            commands,
            [
                "\(binary) install --browser chromium --chrome-extension \(TestIDs.chromeOrigin)",
                "\(binary) uninstall --browser chrome --name com.walletbridge.host",
            ])
        for command in commands {
            let run = try runProcess("/bin/sh", ["-c", command], environment: sandbox.variables, in: sandbox.base)
            XCTAssertEqual(run.status, 0, "\(command)\n\(run.output)")
        }
        let (after, fixed) = try doctor(sandbox)
        XCTAssertEqual(after.status, 0, after.output)
        XCTAssertEqual(try browser(fixed, "chromium").verdict, .ok)
        XCTAssertEqual(try browser(fixed, "chrome").manifests.count, 0)
    }

    func testAUserDataDirInstallIsCheckedFromTheRecord() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--user-data-dir", "profile", "--chrome-extension", TestIDs.chromeID)
                .status, 0)
        let manifest = sandbox.base + "/profile/NativeMessagingHosts/com.walletbridge.host.json"
        try edit(sandbox, manifest) { $0.replacingOccurrences(of: #""type": "stdio""#, with: #""type": "pipe""#) }
        // No --user-data-dir: doctor finds the folder in the install record.
        let (result, report) = try doctor(sandbox)
        XCTAssertEqual(result.status, 1, result.output)
        let entry = try browser(report, "user-data-dir")
        XCTAssertEqual(entry.verdict, .problem)
        XCTAssertEqual(entry.manifests.first?.path, manifest)
        XCTAssertTrue(entry.manifests.flatMap(\.faults).map(\.check).contains("wrong-type"))
    }

    func testAHostThatPrintsToStdoutDoesNotAnswer() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        let host = try sandbox.write(
            sandbox.base + "/chatty-host", "#!/bin/sh\necho 'starting up'\nexec sleep 30\n", mode: 0o755)
        try edit(sandbox, chromium) { $0.replacingOccurrences(of: try! Built.walletBridge(), with: host) }
        try assertFault("no-answer", for: "chromium", in: sandbox)
        let (_, report) = try doctor(sandbox)
        let fault = try XCTUnwrap(
            try browser(report, "chromium").manifests.first?.faults.first { $0.check == "no-answer" })
        XCTAssertTrue(fault.message.contains("message of"), fault.message)
        XCTAssertTrue(fault.message.contains("bytes exceeds the limit"), fault.message)
    }

    func testTheProbeUsesTheBrowsersArgvShape() throws {
        // A host that answers only when started like Firefox: manifest path, then add-on ID.
        let (sandbox, _, firefox) = try Sandbox.healthy()
        let host = try sandbox.write(
            sandbox.base + "/firefox-only-host",
            """
            #!/bin/sh
            [ "$1" = "\(firefox)" ] && [ "$2" = "\(TestIDs.firefoxID)" ] || { echo "argv: $*" >&2; exit 3; }
            [ "$(pwd)" = "\(sandbox.base)" ] || { echo "cwd: $(pwd)" >&2; exit 4; }
            exec "\(try Built.walletBridge())" "$@"

            """, mode: 0o755)
        // Installed so, as the record says: a manifest pointing elsewhere than the recorded binary is a problem of its own.
        let install = try sandbox.walletBridge(
            "install", "--browser", "firefox", "--firefox-addon", TestIDs.firefoxID, "--binary", host)
        XCTAssertEqual(install.status, 0, install.output)
        let (result, report) = try doctor(sandbox, ["--browser", "firefox"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertNotNil(try browser(report, "firefox").manifests.first?.answer)
    }

    func testBothFamilyKeysIsOnlyAWarning() throws {
        let (sandbox, chromium, _) = try Sandbox.healthy()
        try edit(sandbox, chromium) {
            $0.replacingOccurrences(of: #""type": "stdio","#, with: #""type": "stdio", "allowed_extensions": ["a@b"],"#)
        }
        let (result, report) = try doctor(sandbox)
        XCTAssertEqual(result.status, 0, "a warning does not fail doctor")
        XCTAssertEqual(try browser(report, "chromium").verdict, .ok)
        XCTAssertEqual(try checks(report, "chromium"), ["foreign-key"])
    }

    func testUserDataDir() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--user-data-dir", "profile", "--chrome-extension", TestIDs.chromeID)
                .status, 0)
        let (result, report) = try doctor(sandbox, ["--user-data-dir", "profile"])
        XCTAssertEqual(result.status, 0, result.output)
        let entry = try browser(report, "user-data-dir")
        XCTAssertEqual(entry.verdict, .ok)
        XCTAssertEqual(
            entry.manifests.first?.path, sandbox.base + "/profile/NativeMessagingHosts/com.walletbridge.host.json")
    }

    func testSnapAndFlatpakBrowsersGetAdvice() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.root + "/snap/bin", withIntermediateDirectories: true)
        try sandbox.write(sandbox.root + "/snap/bin/firefox", "#!/bin/sh\n", mode: 0o755)
        try FileManager.default.createDirectory(
            atPath: sandbox.home + "/.local/share/flatpak/app/org.chromium.Chromium", withIntermediateDirectories: true)
        let result = try sandbox.walletBridge("doctor", "--browser", "firefox", "--browser", "chromium")
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.stdout.contains("Firefox is a Snap (\(sandbox.root)/snap/bin/firefox)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("widget.use-xdg-desktop-portal.native-messaging"), result.stdout)
        XCTAssertTrue(result.stdout.contains("xdg-native-messaging-proxy"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Chromium is a Flatpak (org.chromium.Chromium)"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains(
                "\(sandbox.home)/.var/app/org.chromium.Chromium/config/chromium/NativeMessagingHosts/com.walletbridge.host.json"
            ), result.stdout)
        XCTAssertTrue(result.stdout.contains("flatpak-spawn --host"), result.stdout)
        XCTAssertTrue(
            result.stdout.contains("flatpak override --user --talk-name=org.freedesktop.Flatpak org.chromium.Chromium"),
            result.stdout)
    }
}
