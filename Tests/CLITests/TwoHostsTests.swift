import Foundation
import XCTest

@testable import WalletBridgeCLI

/// Every tool serves any host, not only the wallet: two hosts side by side (the wallet, and a
/// "notes" host of an extension developer's own: a copy of the conformance host), each
/// installed, checked, repaired, called and uninstalled by name, each manifest still starting
/// its own binary. Real processes, in a private HOME and XDG folders.
final class TwoHostsTests: XCTestCase {
    private let notes = "org.example.notes"

    /// A sandbox with Chromium and Firefox, and a notes host binary of its own (a copy, so a
    /// test may move or delete it).
    private func sandboxWithNotesHost() throws -> (Sandbox, binary: String) {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        try sandbox.installBrowser("firefox")
        try FileManager.default.createDirectory(
            atPath: sandbox.base + "/notes/.build/debug", withIntermediateDirectories: true)
        let binary = sandbox.base + "/notes/.build/debug/notes-host"
        try FileManager.default.copyItem(atPath: try Built.conformanceHost(), toPath: binary)
        return (sandbox, binary)
    }

    private func installNotes(_ sandbox: Sandbox, binary: String, _ extra: String...) throws -> Run {
        try sandbox.walletBridge(
            [
                "install", "--browser", "chromium", "--browser", "firefox", "--chrome-extension", TestIDs.otherChromeID,
                "--firefox-addon", "notes@example.org", "--name", notes, "--binary", binary,
            ] + extra)
    }

    private func report(_ run: Run) throws -> DoctorReport {
        try JSONDecoder().decode(DoctorReport.self, from: Data(run.stdout.utf8))
    }

    private func record(_ sandbox: Sandbox) throws -> InstallRecord? {
        try InstallRecord.load(from: sandbox.home + "/.local/state/wallet-bridge/installed.json")
    }

    private func manifestPath(_ sandbox: Sandbox, _ name: String, firefox: Bool = false) -> String {
        firefox
            ? sandbox.home + "/.mozilla/native-messaging-hosts/\(name).json"
            : sandbox.config + "/chromium/NativeMessagingHosts/\(name).json"
    }

    /// The reported bug: `doctor --fix-paths` re-pointed a custom host's manifest at the
    /// wallet-bridge binary, and doctor then said OK.
    func testFixPathsNeverPointsACustomHostAtTheWallet() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        let install = try installNotes(sandbox, binary: binary)
        XCTAssertEqual(install.status, 0, install.output)
        // `swift package clean`: the host binary is gone.
        try FileManager.default.removeItem(atPath: binary)

        let fixing = try sandbox.walletBridge("doctor", "--name", notes, "--fix-paths", "--json", "--timeout", "20")
        XCTAssertEqual(fixing.status, 1, "a host whose binary is gone is not OK: \(fixing.output)")
        let chromium = manifestPath(sandbox, notes)
        XCTAssertEqual(try ManifestFile.load(chromium).string("path"), binary, "never re-pointed at another program")
        let fix = try XCTUnwrap(try report(fixing).fixed?.first { $0.manifest == chromium })
        XCTAssertEqual(fix.outcome, .skipped)
        XCTAssertTrue(fix.reason?.contains("gone too") == true, fix.reason ?? "")
        XCTAssertFalse(fixing.stdout.contains("\"to\" : \"\(try Built.walletBridge())\""), fixing.stdout)

        // Every command doctor suggests keeps the host's own binary and name.
        let text = try sandbox.walletBridge("doctor", "--name", notes, "--no-probe")
        XCTAssertEqual(text.status, 1, text.output)
        for line in text.stdout.split(separator: "\n") where line.contains(" install ") {
            XCTAssertTrue(
                line.contains("--name \(notes)") && line.contains("--binary"),
                "a suggestion without the host's --name/--binary: \(line)")
        }
        XCTAssertFalse(
            text.stdout.contains("doctor --name \(notes) --fix-paths re-points"),
            "no repair offered that cannot be made:\n\(text.stdout)")

        // Rebuilt where it was: --fix-paths has nothing to do, doctor says OK.
        try FileManager.default.copyItem(atPath: try Built.conformanceHost(), toPath: binary)
        let healthy = try sandbox.walletBridge("doctor", "--name", notes, "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(healthy.status, 0, healthy.output)
        XCTAssertTrue(
            healthy.stdout.contains("rpc.discover -> a result (\"wallet-bridge-conformance-host\")"), healthy.stdout)
    }

    /// A manifest of a custom host that starts the wallet (the bug's aftermath, or a hand
    /// edit) is a problem, however well the wallet answers; `--fix-paths` puts back the
    /// binary install recorded for the host.
    func testDoctorSeesACustomHostsManifestStartingTheWalletAndFixPathsRestoresItsBinary() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        XCTAssertEqual(try installNotes(sandbox, binary: binary).status, 0)
        let chromium = manifestPath(sandbox, notes)
        let original = try XCTUnwrap(sandbox.read(chromium))
        let hijacked = original.replacingOccurrences(of: binary, with: try Built.walletBridge())
        try sandbox.write(chromium, hijacked)

        let doctor = try sandbox.walletBridge("doctor", "--name", notes, "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(doctor.status, 1, doctor.output)
        XCTAssertTrue(doctor.stdout.contains("[other-binary]"), doctor.stdout)
        XCTAssertTrue(
            doctor.stdout.contains("[wrong-host]")
                && doctor.stdout.contains("is the wallet-bridge wallet, and no install --binary chose it"),
            doctor.stdout)

        // Not recorded at all (someone else's file naming the wallet): still the wrong host.
        let foreign = manifestPath(sandbox, "org.example.other")
        try sandbox.write(foreign, hijacked.replacingOccurrences(of: notes, with: "org.example.other"))
        let other = try sandbox.walletBridge(
            "doctor", "--name", "org.example.other", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(other.status, 1, other.output)
        XCTAssertTrue(other.stdout.contains("[wrong-host]"), other.stdout)

        let fixing = try sandbox.walletBridge(
            "doctor", "--name", notes, "--browser", "chromium", "--fix-paths", "--timeout", "20")
        XCTAssertEqual(fixing.status, 0, fixing.output)
        XCTAssertEqual(sandbox.read(chromium), original, "back to the recorded binary, byte for byte")
    }

    /// The wallet and a custom host, side by side: every tool, against each.
    func testTwoHostsSideBySideEveryTool() throws {
        let (sandbox, notesBinary) = try sandboxWithNotesHost()
        let wallet = try Built.walletBridge()
        // The wallet, then the notes host with a description of its own.
        let installWallet = try sandbox.walletBridge(
            "install", "--browser", "chromium", "--browser", "firefox",
            "--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(installWallet.status, 0, installWallet.output)
        let installNotes = try installNotes(sandbox, binary: notesBinary, "--description", "Notes: saves your notes")
        XCTAssertEqual(installNotes.status, 0, installNotes.output)
        XCTAssertTrue(
            installNotes.stdout.contains("check with: wallet-bridge doctor --name \(notes)\n"), installNotes.stdout)
        XCTAssertTrue(installWallet.stdout.contains("check with: wallet-bridge doctor\n"), installWallet.stdout)

        func assertEachStartsItsOwn(_ context: String, file: StaticString = #filePath, line: UInt = #line) throws {
            for firefox in [false, true] {
                let walletManifest = try ManifestFile.load(
                    manifestPath(sandbox, "com.walletbridge.host", firefox: firefox))
                XCTAssertEqual(walletManifest.string("path"), wallet, context, file: file, line: line)
                XCTAssertEqual(
                    walletManifest.string("description"), HostManifest.defaultDescription, context, file: file,
                    line: line)
                let notesManifest = try ManifestFile.load(manifestPath(sandbox, notes, firefox: firefox))
                XCTAssertEqual(notesManifest.string("path"), notesBinary, context, file: file, line: line)
                XCTAssertEqual(
                    notesManifest.string("description"), "Notes: saves your notes", context, file: file, line: line)
            }
        }
        try assertEachStartsItsOwn("after install")
        let recorded = try XCTUnwrap(try record(sandbox))
        XCTAssertEqual(recorded.version, 2)
        XCTAssertEqual(
            recorded.hosts["com.walletbridge.host"],
            InstallRecord.Host(binary: wallet, description: HostManifest.defaultDescription))
        XCTAssertEqual(
            recorded.hosts[notes], InstallRecord.Host(binary: notesBinary, description: "Notes: saves your notes"))

        // doctor: each host answers as itself.
        let walletDoctor = try sandbox.walletBridge("doctor", "--timeout", "20")
        XCTAssertEqual(walletDoctor.status, 0, walletDoctor.output)
        XCTAssertTrue(
            walletDoctor.stdout.contains("answers: rpc.discover -> a result (\"wallet-bridge\")"), walletDoctor.stdout)
        let notesDoctor = try sandbox.walletBridge("doctor", "--name", notes, "--timeout", "20")
        XCTAssertEqual(notesDoctor.status, 0, notesDoctor.output)
        XCTAssertTrue(
            notesDoctor.stdout.contains("answers: rpc.discover -> a result (\"wallet-bridge-conformance-host\")"),
            notesDoctor.stdout)

        // The notes host moved: a manifest names a binary that is gone, the record names it
        // back where it was (rebuilt there); --fix-paths for the notes host fixes only its own.
        let notesChromium = manifestPath(sandbox, notes)
        let good = try XCTUnwrap(sandbox.read(notesChromium))
        try sandbox.write(
            notesChromium, good.replacingOccurrences(of: notesBinary, with: sandbox.base + "/gone/notes-host"))
        let walletChromium = manifestPath(sandbox, "com.walletbridge.host")
        let walletGood = try XCTUnwrap(sandbox.read(walletChromium))
        try sandbox.write(
            walletChromium, walletGood.replacingOccurrences(of: wallet, with: sandbox.base + "/gone/wallet-bridge"))
        let fixNotes = try sandbox.walletBridge("doctor", "--name", notes, "--fix-paths", "--timeout", "20")
        XCTAssertEqual(fixNotes.status, 0, fixNotes.output)
        XCTAssertTrue(
            fixNotes.stdout.contains("fixed \(notesChromium)") && fixNotes.stdout.contains("it is now \(notesBinary)"),
            fixNotes.stdout)
        XCTAssertEqual(sandbox.read(notesChromium), good)
        XCTAssertEqual(
            try ManifestFile.load(walletChromium).string("path"), sandbox.base + "/gone/wallet-bridge",
            "the other host's file untouched")
        let fixWallet = try sandbox.walletBridge("doctor", "--fix-paths", "--timeout", "20")
        XCTAssertEqual(fixWallet.status, 0, fixWallet.output)
        try assertEachStartsItsOwn("after doctor --fix-paths")

        // call, describe and conform, by host name: each through its own manifest.
        let walletCall = try sandbox.walletBridge("call", "--name", "com.walletbridge.host", "rpc.discover")
        XCTAssertEqual(walletCall.status, 0, walletCall.output)
        XCTAssertTrue(walletCall.stdout.contains("\"title\": \"wallet-bridge\""), walletCall.stdout)
        let notesCall = try sandbox.walletBridge("call", "--name", notes, "--as", "firefox", "rpc.discover")
        XCTAssertEqual(notesCall.status, 0, notesCall.output)
        XCTAssertTrue(notesCall.stdout.contains("\"title\": \"wallet-bridge-conformance-host\""), notesCall.stdout)
        let describe = try sandbox.walletBridge("describe", "--name", notes, "--check")
        XCTAssertEqual(describe.status, 0, describe.output)
        XCTAssertTrue(describe.stdout.contains("wallet-bridge-conformance-host"), describe.stdout)
        let fixture = try sandbox.write(
            sandbox.base + "/notes.json",
            """
            {"description": "the notes host echoes", "cases": [{"name": "echo", "rule": "echoes",
              "request": {"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"note": "x"}},
              "response": {"jsonrpc": "2.0", "id": 1, "result": {"note": "x"}}}]}
            """)
        let conform = try sandbox.walletBridge("conform", "--name", notes, fixture)
        XCTAssertEqual(conform.status, 0, conform.output)
        // The same tools by the wallet's name reach the wallet: its own description, and the
        // notes host's method unknown there.
        let describeWallet = try sandbox.walletBridge("describe", "--name", "com.walletbridge.host", "--check")
        XCTAssertEqual(describeWallet.status, 0, describeWallet.output)
        XCTAssertTrue(describeWallet.stdout.contains("document: wallet-bridge "), describeWallet.stdout)
        let walletFixture = try sandbox.write(
            sandbox.base + "/wallet.json",
            """
            {"description": "the wallet has no notes method", "cases": [{"name": "no-echo", "rule": "not the notes host",
              "request": {"jsonrpc": "2.0", "id": 1, "method": "test.echo", "params": {"note": "x"}},
              "response": {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found",
                "data": {"problem": "no method named \\"test.echo\\""}}}}]}
            """)
        let conformWallet = try sandbox.walletBridge("conform", "--name", "com.walletbridge.host", walletFixture)
        XCTAssertEqual(conformWallet.status, 0, conformWallet.output)
        let conformNotesAsWallet = try sandbox.walletBridge("conform", "--name", notes, walletFixture)
        XCTAssertEqual(conformNotesAsWallet.status, 1, "the notes host echoes: \(conformNotesAsWallet.output)")
        let unknown = try sandbox.walletBridge("call", "--name", "org.example.missing", "rpc.discover")
        XCTAssertEqual(unknown.status, 3, unknown.output)
        XCTAssertTrue(unknown.stderr.contains("no manifest for it"), unknown.stderr)

        // uninstall --name: only that host's files; the other host keeps working.
        let uninstallNotes = try sandbox.walletBridge("uninstall", "--name", notes)
        XCTAssertEqual(uninstallNotes.status, 0, uninstallNotes.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: notesChromium))
        XCTAssertFalse(FileManager.default.fileExists(atPath: manifestPath(sandbox, notes, firefox: true)))
        XCTAssertEqual(try ManifestFile.load(walletChromium).string("path"), wallet)
        XCTAssertNil(try record(sandbox)?.hosts[notes], "a host with no file left is forgotten")
        XCTAssertEqual(try sandbox.walletBridge("doctor", "--timeout", "20").status, 0)
        let again = try sandbox.walletBridge("uninstall", "--name", notes)
        XCTAssertEqual(again.status, 1, "a host that is not installed is an error: \(again.output)")
        XCTAssertTrue(
            again.stderr.contains("nothing recorded for --name \(notes); recorded: com.walletbridge.host"), again.stderr
        )
        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0)
        XCTAssertNil(try record(sandbox))
    }

    /// Without --name, uninstall takes back every host recorded, as it always took back
    /// everything recorded.
    func testUninstallWithoutNameRemovesEveryHost() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        XCTAssertEqual(
            try sandbox.walletBridge("install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID).status,
            0)
        XCTAssertEqual(try installNotes(sandbox, binary: binary).status, 0)
        let uninstall = try sandbox.walletBridge("uninstall")
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: manifestPath(sandbox, notes)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: manifestPath(sandbox, "com.walletbridge.host")))
        XCTAssertNil(try record(sandbox))
    }

    func testDescriptionDefaultsAndIsChecked() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        XCTAssertEqual(try installNotes(sandbox, binary: binary).status, 0)
        XCTAssertEqual(
            try ManifestFile.load(manifestPath(sandbox, notes)).string("description"),
            "\(notes): a native messaging host (notes-host)",
            "another binary is not called a wallet")
        // A new description rewrites install's own files, and is recorded.
        let changed = try installNotes(sandbox, binary: binary, "--description", "Notes \"quoted\" é")
        XCTAssertEqual(changed.status, 0, changed.output)
        XCTAssertEqual(
            try ManifestFile.load(manifestPath(sandbox, notes, firefox: true)).string("description"),
            "Notes \"quoted\" é")
        XCTAssertEqual(try record(sandbox)?.hosts[notes]?.description, "Notes \"quoted\" é")
        // Controls, line and paragraph separators, bidi and zero-width format characters.
        for bad in [
            "", "  ", "two\nlines", String(repeating: "x", count: 501), "two\u{2028}lines", "two\u{2029}paragraphs",
            "Notes\u{202E}txt.exe", "Notes\u{200F}", "\u{2066}Notes\u{2069}", "No\u{200B}tes",
        ] {
            let refused = try installNotes(sandbox, binary: binary, "--description", bad)
            XCTAssertNotEqual(refused.status, 0, bad)
            XCTAssertTrue(refused.stderr.contains("--description:"), refused.stderr)
        }
        XCTAssertEqual(
            try ManifestFile.load(manifestPath(sandbox, notes)).string("description"), "Notes \"quoted\" é",
            "a refused install writes nothing")
        // Doctor's reinstall suggestion carries the recorded description.
        try sandbox.write(manifestPath(sandbox, notes), "{}")
        let doctor = try sandbox.walletBridge("doctor", "--name", notes, "--browser", "chromium", "--no-probe")
        XCTAssertTrue(doctor.stdout.contains("--description 'Notes \"quoted\" é'"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("--binary \(binary)"), doctor.stdout)
    }

    /// A host installed for one more browser keeps the description chosen for it, while it
    /// starts the same binary; a new binary without one gets the default again.
    func testAnotherBrowserKeepsTheRecordedDescription() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        let first = try sandbox.walletBridge(
            "install", "--browser", "chromium", "--chrome-extension", TestIDs.otherChromeID, "--name", notes,
            "--binary", binary,
            "--description", "My notes")
        XCTAssertEqual(first.status, 0, first.output)
        let more = try sandbox.walletBridge(
            "install", "--browser", "firefox", "--firefox-addon", "notes@example.org", "--name", notes)
        XCTAssertEqual(more.status, 0, more.output)
        XCTAssertEqual(
            try ManifestFile.load(manifestPath(sandbox, notes, firefox: true)).string("description"), "My notes")
        XCTAssertEqual(try ManifestFile.load(manifestPath(sandbox, notes)).string("description"), "My notes")
        let moved = try sandbox.write(sandbox.base + "/bin/notes-host-2", "#!/bin/sh\n", mode: 0o755)
        let other = try sandbox.walletBridge(
            "install", "--browser", "firefox", "--firefox-addon", "notes@example.org", "--name", notes, "--binary",
            moved)
        XCTAssertEqual(other.status, 0, other.output)
        XCTAssertEqual(
            try ManifestFile.load(manifestPath(sandbox, notes, firefox: true)).string("description"),
            "\(notes): a native messaging host (notes-host-2)")
    }

    /// The wallet's host name must be served by a wallet: a program that does not know its
    /// GetAccounts (-32601) is the wrong host, however well it answers.
    func testTheWalletsNameStartingAnotherProgramIsTheWrongHost() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let reply = #"{"jsonrpc":"2.0","id":"doctor","error":{"code":-32601,"message":"Method not found"}}"#
        let length = reply.utf8.count
        let prefix = [length & 0xff, (length >> 8) & 0xff, 0, 0].map { "\\" + String($0, radix: 8) }.joined()
        let host = try sandbox.write(
            sandbox.base + "/not-a-wallet", "#!/bin/sh\nprintf '\(prefix)%s' '\(reply)'\ncat >/dev/null\n", mode: 0o755)
        let install = try sandbox.walletBridge(
            "install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID, "--binary", host)
        XCTAssertEqual(install.status, 0, install.output)
        let doctor = try sandbox.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(doctor.status, 1, doctor.output)
        XCTAssertTrue(doctor.stdout.contains("answers: rpc.discover -> error -32601"), doctor.stdout)
        XCTAssertTrue(
            doctor.stdout.contains("[wrong-host]") && doctor.stdout.contains("it is not the wallet"), doctor.stdout)
    }

    /// Options that cannot go together, and names that cannot be hosts, are usage errors.
    func testNameIsCheckedAndExcludesTheOtherWaysToNameAHost() throws {
        let sandbox = try Sandbox()
        XCTAssertEqual(
            try sandbox.walletBridge("call", "--name", notes, "--host", "/bin/true", "rpc.discover").status, 64)
        XCTAssertEqual(try sandbox.walletBridge("describe", "--name", notes, "--manifest", "x.json").status, 64)
        XCTAssertEqual(try sandbox.walletBridge("conform", "--name", "Bad Name", "x.json").status, 64)
        let uninstall = try sandbox.walletBridge("uninstall", "--name", "Bad..Name")
        XCTAssertEqual(uninstall.status, 64, uninstall.output)
        XCTAssertTrue(uninstall.stderr.contains("--name:"), uninstall.stderr)
    }

    /// Installing a host with another binary for some browsers says which of its manifests
    /// still start the old one.
    func testInstallNamesTheHostsManifestsThatStillStartAnotherBinary() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        XCTAssertEqual(try installNotes(sandbox, binary: binary).status, 0)
        let other = sandbox.base + "/notes-host-2"
        try FileManager.default.copyItem(atPath: binary, toPath: other)
        let firefoxOnly = try sandbox.walletBridge(
            "install", "--browser", "firefox", "--firefox-addon", "notes@example.org", "--name", notes, "--binary",
            other)
        XCTAssertEqual(firefoxOnly.status, 0, firefoxOnly.output)
        XCTAssertTrue(
            firefoxOnly.stderr.contains("\(manifestPath(sandbox, notes)) (\(binary)) still starts another binary"),
            firefoxOnly.stderr)
        XCTAssertEqual(try record(sandbox)?.hosts[notes]?.binary, other)
    }

    /// A version 1 record whose manifests of one host name different binaries records no
    /// binary for it: nothing for --fix-paths to guess from.
    func testAVersion1HostWhoseManifestsDisagreeGetsNoBinary() throws {
        var record = InstallRecord()
        record.version = 1
        for (folder, binary) in [("/a", "/opt/one/notes-host"), ("/b", "/opt/two/notes-host")] {
            let content = HostManifest(name: notes, path: binary, family: .chromium, allowed: [TestIDs.chromeOrigin])
                .rendered()
            record.files.append(
                .init(
                    path: folder + "/\(notes).json", browsers: ["chromium"],
                    content: String(decoding: content, as: UTF8.self)))
        }
        let wallet = HostManifest(
            name: "com.walletbridge.host", path: "/usr/bin/wallet-bridge", family: .firefox,
            allowed: [TestIDs.firefoxID]
        ).rendered()
        record.files.append(
            .init(
                path: "/c/com.walletbridge.host.json", browsers: ["firefox"],
                content: String(decoding: wallet, as: UTF8.self)))
        let migrated = record.migrated()
        XCTAssertNil(migrated.hosts[notes])
        XCTAssertEqual(
            migrated.hosts["com.walletbridge.host"],
            InstallRecord.Host(binary: "/usr/bin/wallet-bridge", description: HostManifest.defaultDescription))
        XCTAssertEqual(migrated.files, record.files)
    }

    /// A record written by an older wallet-bridge (version 1, no hosts) is read, its hosts
    /// worked out from the manifests it recorded, and written back as version 2 on change.
    func testAVersion1RecordIsReadAndMigrated() throws {
        let sandbox = try Sandbox()
        let path = sandbox.home + "/.local/state/wallet-bridge/installed.json"
        let manifest = sandbox.config + "/chromium/NativeMessagingHosts/org.example.notes.json"
        let content = HostManifest(
            name: notes, description: "Old notes", path: "/opt/notes/notes-host", family: .chromium,
            allowed: [TestIDs.chromeOrigin]
        ).rendered()
        let json: [String: Any] = [
            "version": 1, "folders": [], "recordFolders": [],
            "files": [
                ["path": manifest, "browsers": ["chromium"], "content": String(decoding: content, as: UTF8.self)]
            ],
        ]
        try sandbox.write(path, String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self))
        try sandbox.write(manifest, String(decoding: content, as: UTF8.self))
        let record = try XCTUnwrap(try InstallRecord.load(from: path))
        XCTAssertEqual(record.version, 2)
        XCTAssertEqual(
            record.hosts[notes], InstallRecord.Host(binary: "/opt/notes/notes-host", description: "Old notes"))
        XCTAssertEqual(record.files.count, 1, "nothing of the old record lost")

        // A newer version is refused with its number, never overwritten.
        try sandbox.write(path, #"{"version": 3, "files": []}"#)
        XCTAssertThrowsError(try InstallRecord.load(from: path)) { error in
            XCTAssertTrue("\(error)".contains("has version 3"), "\(error)")
        }
        let install = try sandbox.walletBridge(
            "install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID)
        XCTAssertNotEqual(install.status, 0)
        XCTAssertEqual(sandbox.read(path), #"{"version": 3, "files": []}"#)
    }

    /// The first repro: a custom host installed with its binary, then installed again for more
    /// browsers without --binary. Install took this wallet-bridge (the wallet) for the host's
    /// binary, rewrote the recorded one and both manifests, and doctor said OK.
    func testInstallWithoutBinaryKeepsTheHostsRecordedBinary() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        let first = try sandbox.walletBridge(
            "install", "--name", notes, "--browser", "chromium", "--chrome-extension", TestIDs.otherChromeID,
            "--binary", binary)
        XCTAssertEqual(first.status, 0, first.output)
        let more = try sandbox.walletBridge(
            "install", "--name", notes, "--browser", "chromium", "--browser", "firefox", "--chrome-extension",
            TestIDs.otherChromeID,
            "--firefox-addon", "notes@example.org")
        XCTAssertEqual(more.status, 0, more.output)
        for firefox in [false, true] {
            let manifest = try ManifestFile.load(manifestPath(sandbox, notes, firefox: firefox))
            XCTAssertEqual(manifest.string("path"), binary, "the recorded binary, not the wallet")
            XCTAssertEqual(manifest.string("description"), "\(notes): a native messaging host (notes-host)")
        }
        XCTAssertEqual(
            try record(sandbox)?.hosts[notes],
            InstallRecord.Host(binary: binary, description: "\(notes): a native messaging host (notes-host)"))
        let doctor = try sandbox.walletBridge("doctor", "--name", notes, "--timeout", "20")
        XCTAssertEqual(doctor.status, 0, doctor.output)
        XCTAssertTrue(doctor.stdout.contains("(\"wallet-bridge-conformance-host\")"), doctor.stdout)
    }

    /// The second repro: a custom host for Chromium, then for Firefox without --binary. The
    /// Firefox manifest started the wallet, and doctor --fix-paths then re-pointed the correct
    /// Chromium manifest at it too.
    func testInstallForAnotherBrowserWithoutBinaryThenFixPathsKeepsTheHost() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        XCTAssertEqual(
            try sandbox.walletBridge(
                "install", "--name", notes, "--browser", "chromium", "--chrome-extension", TestIDs.otherChromeID,
                "--binary", binary
            ).status, 0)
        let firefox = try sandbox.walletBridge(
            "install", "--name", notes, "--browser", "firefox", "--firefox-addon", "notes@example.org")
        XCTAssertEqual(firefox.status, 0, firefox.output)
        XCTAssertFalse(firefox.stderr.contains("binary changes"), firefox.stderr)
        let fixing = try sandbox.walletBridge("doctor", "--name", notes, "--fix-paths", "--timeout", "20")
        XCTAssertEqual(fixing.status, 0, fixing.output)
        XCTAssertFalse(fixing.stdout.contains("[other-binary]"), fixing.stdout)
        for firefox in [false, true] {
            XCTAssertEqual(try ManifestFile.load(manifestPath(sandbox, notes, firefox: firefox)).string("path"), binary)
        }
    }

    /// A name with no binary recorded needs --binary: this wallet-bridge is the wallet, never a
    /// default for another host. Nothing is written.
    func testInstallOfANewNameWithoutBinaryIsRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let before = try sandbox.snapshot()
        let refused = try sandbox.walletBridge(
            "install", "--name", notes, "--browser", "chromium", "--chrome-extension", TestIDs.otherChromeID)
        XCTAssertEqual(refused.status, 1, refused.output)
        XCTAssertTrue(refused.stderr.contains("--name \(notes) needs --binary PATH"), refused.stderr)
        XCTAssertEqual(try sandbox.snapshot(), before, "nothing written, nothing recorded")
        // The wallet's own name keeps install's default: this binary.
        let wallet = try sandbox.walletBridge(
            "install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID)
        XCTAssertEqual(wallet.status, 0, wallet.output)
        XCTAssertEqual(
            try ManifestFile.load(manifestPath(sandbox, "com.walletbridge.host")).string("path"),
            try Built.walletBridge())
    }

    /// Changing a host's binary takes an explicit --binary, and install says from what to what.
    func testChangingAHostsBinarySaysOldAndNew() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        XCTAssertEqual(try installNotes(sandbox, binary: binary).status, 0)
        let other = sandbox.base + "/notes-host-2"
        try FileManager.default.copyItem(atPath: binary, toPath: other)
        let moved = try installNotes(sandbox, binary: other)
        XCTAssertEqual(moved.status, 0, moved.output)
        XCTAssertTrue(moved.stderr.contains("note: \(notes)'s binary changes from \(binary) to \(other)"), moved.stderr)
        XCTAssertEqual(try record(sandbox)?.hosts[notes]?.binary, other)
    }

    /// The wallet under another name, on purpose: named with --binary, recorded as chosen, and
    /// doctor accepts it. The same record without that choice (what the old install wrote by
    /// default) is the wrong host: doctor says so without a probe, suggests no command naming
    /// the wallet, --fix-paths leaves the manifests alone, and install without --binary refuses.
    func testTheWalletUnderAnotherNameOnlyOnPurpose() throws {
        let (sandbox, _) = try sandboxWithNotesHost()
        let wallet = try Built.walletBridge()
        let chosen = try sandbox.walletBridge(
            "install", "--name", notes, "--browser", "chromium", "--chrome-extension", TestIDs.otherChromeID,
            "--binary", wallet)
        XCTAssertEqual(chosen.status, 0, chosen.output)
        XCTAssertEqual(try record(sandbox)?.hosts[notes]?.wallet, true)
        let accepted = try sandbox.walletBridge("doctor", "--name", notes, "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(accepted.status, 0, accepted.output)

        // The record an install without --binary wrote before this fix: the wallet, not chosen.
        let recordPath = sandbox.home + "/.local/state/wallet-bridge/installed.json"
        var old = try XCTUnwrap(try record(sandbox))
        old.hosts[notes]?.wallet = nil
        try old.save(to: recordPath)
        for probe in [true, false] {
            let doctor = try sandbox.walletBridge(
                ["doctor", "--name", notes, "--browser", "chromium", "--timeout", "20"] + (probe ? [] : ["--no-probe"]))
            XCTAssertEqual(doctor.status, 1, doctor.output)
            XCTAssertTrue(
                doctor.stdout.contains("[wrong-host]") && doctor.stdout.contains("no install --binary chose it"),
                doctor.stdout)
            XCTAssertFalse(
                doctor.stdout.contains("--binary \(wallet)"), "a fix that keeps the wallet:\n\(doctor.stdout)")
            XCTAssertTrue(doctor.stdout.contains("--name \(notes) --binary PATH --force"), doctor.stdout)
        }
        let fixing = try sandbox.walletBridge(
            "doctor", "--name", notes, "--browser", "chromium", "--fix-paths", "--timeout", "20")
        XCTAssertEqual(fixing.status, 1, fixing.output)
        let again = try sandbox.walletBridge(
            "install", "--name", notes, "--browser", "chromium", "--chrome-extension", TestIDs.otherChromeID)
        XCTAssertEqual(again.status, 1, again.output)
        XCTAssertTrue(again.stderr.contains("needs --binary PATH"), again.stderr)
    }

    /// doctor's wrong-host fix never names the program found behind the manifest: a
    /// hand-written custom host's manifest starting the wallet, and a program that is not the
    /// wallet behind the wallet's own name, with no record either way.
    func testWrongHostFixNeverNamesTheWrongProgram() throws {
        let (sandbox, _) = try sandboxWithNotesHost()
        let wallet = try Built.walletBridge()
        let notesManifest = HostManifest(
            name: notes, path: wallet, family: .chromium, allowed: ["chrome-extension://\(TestIDs.otherChromeID)/"]
        ).rendered()
        try sandbox.write(manifestPath(sandbox, notes), String(decoding: notesManifest, as: UTF8.self))
        let doctor = try sandbox.walletBridge("doctor", "--name", notes, "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(doctor.status, 1, doctor.output)
        XCTAssertTrue(doctor.stdout.contains("[wrong-host]"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("--binary \(wallet)"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("--binary PATH --force"), doctor.stdout)

        let reply = #"{"jsonrpc":"2.0","id":"doctor","error":{"code":-32601,"message":"Method not found"}}"#
        let length = reply.utf8.count
        let prefix = [length & 0xff, (length >> 8) & 0xff, 0, 0].map { "\\" + String($0, radix: 8) }.joined()
        let host = try sandbox.write(
            sandbox.base + "/not-a-wallet", "#!/bin/sh\nprintf '\(prefix)%s' '\(reply)'\ncat >/dev/null\n", mode: 0o755)
        let walletManifest = HostManifest(
            name: "com.walletbridge.host", path: host, family: .chromium, allowed: [TestIDs.chromeOrigin]
        ).rendered()
        try sandbox.write(
            manifestPath(sandbox, "com.walletbridge.host"), String(decoding: walletManifest, as: UTF8.self))
        let mirror = try sandbox.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(mirror.status, 1, mirror.output)
        XCTAssertTrue(mirror.stdout.contains("[wrong-host]"), mirror.stdout)
        XCTAssertFalse(mirror.stdout.contains("--binary \(host)"), mirror.stdout)
        // Installed with it on purpose, the record names it: still never suggested back.
        XCTAssertEqual(
            try sandbox.walletBridge(
                "install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID, "--binary", host, "--force"
            ).status, 0)
        let recorded = try sandbox.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertTrue(recorded.stdout.contains("[wrong-host]"), recorded.stdout)
        XCTAssertFalse(recorded.stdout.contains("--binary \(host)"), recorded.stdout)

        // other-binary: the manifest re-pointed at another program; the fix names the recorded one.
        let (second, binary) = try sandboxWithNotesHost()
        XCTAssertEqual(try installNotes(second, binary: binary).status, 0)
        let stranger = try second.write(second.base + "/stranger", "#!/bin/sh\nexit 0\n", mode: 0o755)
        let path = manifestPath(second, notes)
        try second.write(path, try XCTUnwrap(second.read(path)).replacingOccurrences(of: binary, with: stranger))
        let otherBinary = try second.walletBridge("doctor", "--name", notes, "--browser", "chromium", "--no-probe")
        XCTAssertTrue(otherBinary.stdout.contains("[other-binary]"), otherBinary.stdout)
        XCTAssertFalse(otherBinary.stdout.contains("--binary \(stranger)"), otherBinary.stdout)
        XCTAssertTrue(otherBinary.stdout.contains("--binary \(binary)"), otherBinary.stdout)

        // A copy of the wallet under the host's own file name, installed as its binary: only the
        // probe tells it is the wallet, and the fix does not name it either.
        let (third, copy) = try sandboxWithNotesHost()
        try FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: wallet, toPath: copy)
        XCTAssertEqual(try installNotes(third, binary: copy).status, 0)
        let probed = try third.walletBridge("doctor", "--name", notes, "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(probed.status, 1, probed.output)
        XCTAssertTrue(
            probed.stdout.contains("[wrong-host]") && probed.stdout.contains("answers as the wallet-bridge wallet"),
            probed.stdout)
        XCTAssertFalse(probed.stdout.contains("--binary \(copy)"), probed.stdout)
        XCTAssertTrue(probed.stdout.contains("--binary PATH --force"), probed.stdout)
    }

    /// A Flatpak browser's advice names the host's own binary, not wallet-bridge's.
    func testFlatpakAdviceNamesTheHostsBinary() throws {
        let sandbox = try Sandbox()
        let chromium = try XCTUnwrap(BrowserCatalog.named("chromium"))
        let presence = BrowserPresence(flatpak: [.init(id: "org.chromium.Chromium", path: "/x")])
        let notesAdvice = SandboxAdvice.advice(
            for: chromium, presence: presence, hostName: notes, environment: sandbox.environment
        ).joined()
        XCTAssertTrue(notesAdvice.contains("<absolute path of \(notes)'s binary>"), notesAdvice)
        XCTAssertFalse(notesAdvice.contains("wallet-bridge binary"), notesAdvice)
        let walletAdvice = SandboxAdvice.advice(
            for: chromium, presence: presence, hostName: "com.walletbridge.host", environment: sandbox.environment
        ).joined()
        XCTAssertTrue(walletAdvice.contains("<absolute path of the wallet-bridge binary>"), walletAdvice)
    }

    /// uninstall --name of a host never installed is an error, record or none; the named hosts
    /// that are installed are still taken back.
    func testUninstallOfAnUnknownNameFails() throws {
        let (sandbox, binary) = try sandboxWithNotesHost()
        let none = try sandbox.walletBridge("uninstall", "--name", notes)
        XCTAssertEqual(none.status, 1, none.output)
        XCTAssertTrue(none.stderr.contains("nothing recorded for --name \(notes): no install record"), none.stderr)
        XCTAssertEqual(try sandbox.walletBridge("uninstall").status, 0, "without --name, nothing to do is fine")
        XCTAssertEqual(try installNotes(sandbox, binary: binary).status, 0)
        let mixed = try sandbox.walletBridge("uninstall", "--name", notes, "--name", "org.example.missing")
        XCTAssertEqual(mixed.status, 1, mixed.output)
        XCTAssertTrue(mixed.stderr.contains("nothing recorded for --name org.example.missing"), mixed.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: manifestPath(sandbox, notes)), "the installed one is taken back")
    }
}
