import Foundation
import XCTest

@testable import WalletBridgeCLI

/// `wallet-bridge install --root DIR`: the system-wide manifests of any host, staged for a
/// package, with no record and nothing written outside DIR.
final class StagedInstallTests: XCTestCase {
    private let ids = ["--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID]
    private let notes = ["--name", "com.example.notes", "--description", "Notes: keeps an extension's notes"]

    /// Every file under `folder`, relative, with its content.
    private func files(under folder: String) throws -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: folder))
        while let relative = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found[relative] = try String(contentsOfFile: folder + "/" + relative, encoding: .utf8)
            }
        }
        return found
    }

    private func runUnderUmask077(_ sandbox: Sandbox, _ arguments: [String]) throws -> Run {
        try runProcess(
            "/bin/sh", ["-c", "umask 077 && exec \"$0\" \"$@\"", try Built.walletBridge()] + arguments,
            environment: sandbox.variables, in: sandbox.base)
    }

    func testStagesExactlyWhatASystemInstallWritesForACustomHost() throws {
        let sandbox = try Sandbox()
        let system = BrowserCatalog.all.filter { !$0.systemHostFolders.isEmpty }.flatMap { ["--browser", $0.id] }
        let installed = try sandbox.walletBridge(
            ["install", "--system"] + system + notes + ["--binary", try Built.walletBridge()] + ids)
        XCTAssertEqual(installed.status, 0, installed.output)
        let binary = try Built.walletBridge()
        let expected = try files(under: sandbox.root).mapValues {
            $0.replacingOccurrences(of: binary, with: "/usr/bin/notes-host")
        }
        XCTAssertEqual(expected.count, 6, "one manifest per system-wide folder: \(expected.keys.sorted())")

        let sandbox2 = try Sandbox()
        let before = try sandbox2.snapshot()
        // A relative DIR is taken from the working folder; the binary need not exist here.
        let staged = try runUnderUmask077(
            sandbox2, ["install", "--root", "stage", "--binary", "/usr/bin/notes-host"] + notes + ids)
        XCTAssertEqual(staged.status, 0, staged.output)
        let stage = sandbox2.base + "/stage"
        XCTAssertEqual(try files(under: stage), expected)
        XCTAssertTrue(
            staged.stdout.contains(
                "wrote \(stage)/etc/opt/chrome/native-messaging-hosts/com.example.notes.json (chrome, chrome-beta, chrome-dev, brave, brave-beta, brave-nightly)"
            ), staged.stdout)
        XCTAssertTrue(
            staged.stdout.contains(
                "wrote \(stage)/usr/lib/mozilla/native-messaging-hosts/com.example.notes.json (firefox)"), staged.stdout
        )
        let manifest = try ManifestFile.load(stage + "/etc/chromium/native-messaging-hosts/com.example.notes.json")
        XCTAssertEqual(manifest.string("description"), "Notes: keeps an extension's notes")
        XCTAssertEqual(manifest.string("path"), "/usr/bin/notes-host")
        // As a package ships them, whatever the umask: folders 0755, manifests 0644.
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: stage))
        while let relative = enumerator.nextObject() as? String {
            let status = try XCTUnwrap(FileSystem.status(stage + "/" + relative))
            XCTAssertEqual(String(status.mode, radix: 8), status.kind == .directory ? "755" : "644", relative)
        }
        // Nothing outside DIR: no install record, no system folder.
        var after = try sandbox2.snapshot()
        after = after.filter { !$0.key.hasPrefix("stage") }
        XCTAssertEqual(after, before)

        let again = try sandbox2.walletBridge(
            ["install", "--root", stage, "--binary", "/usr/bin/notes-host"] + notes + ids)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertFalse(again.stdout.contains("wrote"), again.stdout)
        XCTAssertEqual(again.stdout.components(separatedBy: "unchanged ").count - 1, 6, again.stdout)
        let changed = try sandbox2.walletBridge(
            ["install", "--root", stage, "--binary", "/usr/libexec/notes-host"] + notes + ids)
        XCTAssertEqual(changed.status, 0, changed.output)
        XCTAssertEqual(changed.stdout.components(separatedBy: "updated ").count - 1, 6, changed.stdout)
    }

    func testOnlyTheFamiliesGivenAnIDAndOnlyTheBrowsersNamed() throws {
        let sandbox = try Sandbox()
        let stage = sandbox.base + "/stage"
        let chrome = try sandbox.walletBridge(
            ["install", "--root", stage, "--binary", "/usr/bin/notes-host", "--chrome-extension", TestIDs.chromeID]
                + notes)
        XCTAssertEqual(chrome.status, 0, chrome.output)
        XCTAssertEqual(
            Set(try files(under: stage).keys),
            [
                "etc/opt/chrome/native-messaging-hosts/com.example.notes.json",
                "etc/chromium/native-messaging-hosts/com.example.notes.json",
                "etc/opt/vivaldi/native-messaging-hosts/com.example.notes.json",
                "etc/opt/edge/native-messaging-hosts/com.example.notes.json",
            ])
        let named = sandbox.base + "/named"
        let result = try sandbox.walletBridge(
            [
                "install", "--root", named, "--binary", "/usr/bin/notes-host", "--browser", "firefox",
                "--browser-dir", "chromium:/etc/thorium/native-messaging-hosts",
            ] + notes + ids)
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertEqual(
            Set(try files(under: named).keys),
            [
                "usr/lib/mozilla/native-messaging-hosts/com.example.notes.json",
                "etc/thorium/native-messaging-hosts/com.example.notes.json",
            ])
        let dryRun = try sandbox.walletBridge(
            [
                "install", "--root", sandbox.base + "/dry", "--dry-run", "--binary", "/usr/bin/notes-host", "--browser",
                "chromium",
            ] + notes + ids)
        XCTAssertEqual(dryRun.status, 0, dryRun.output)
        XCTAssertTrue(
            dryRun.stdout.contains(
                "would write \(sandbox.base)/dry/etc/chromium/native-messaging-hosts/com.example.notes.json (chromium):\n{\n  \"name\": \"com.example.notes\""
            ), dryRun.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.base + "/dry"))
    }

    /// DIR is walked, not trusted: a symbolic link below it (a staging folder reused, or
    /// prepared by someone else) would make the writes land outside DIR, and a DIR that leads to
    /// / through links is this machine itself. Both are refused before anything is written.
    func testSymbolicLinksCannotLeadTheStagingOutOfDIR() throws {
        let sandbox = try Sandbox()
        let stage = sandbox.base + "/stage", outside = sandbox.base + "/outside"
        try FileManager.default.createDirectory(atPath: stage, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: stage + "/etc", withDestinationPath: outside)
        let linked = try sandbox.walletBridge(
            ["install", "--root", stage, "--binary", "/usr/bin/notes-host"] + notes + ids)
        XCTAssertEqual(linked.status, 1, linked.output)
        XCTAssertTrue(
            linked.stderr.contains(
                "--root: \(stage)/etc is a symbolic link (to \(outside)); a staged file must not be written through one"
            ), linked.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: outside), [], "nothing written through the link")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stage + "/usr"), "nothing staged by a refused call")

        // The manifest itself a link: refused too (dry run: the plan refuses, before any write).
        try FileManager.default.removeItem(atPath: stage + "/etc")
        let folder = stage + "/etc/chromium/native-messaging-hosts"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/com.example.notes.json", withDestinationPath: outside + "/x.json")
        let file = try sandbox.walletBridge(
            ["install", "--root", stage, "--dry-run", "--binary", "/usr/bin/notes-host"] + notes + ids)
        XCTAssertEqual(file.status, 1, file.output)
        XCTAssertTrue(file.stderr.contains("\(folder)/com.example.notes.json is a symbolic link"), file.stderr)

        // DIR a link to /: --root / by another name (a dry run, so that nothing could be written).
        let slash = sandbox.base + "/slash"
        try FileManager.default.createSymbolicLink(atPath: slash, withDestinationPath: "/")
        for root in [slash, slash + "/.", sandbox.base + "/slash/etc/.."] {
            let result = try sandbox.walletBridge(
                ["install", "--root", root, "--dry-run", "--binary", "/usr/bin/notes-host"] + notes + ids)
            XCTAssertEqual(result.status, 1, "\(root): \(result.output)")
            XCTAssertTrue(
                result.stderr.contains(
                    "is / through symbolic links: that is this machine itself; install system-wide with --system"),
                result.stderr)
            XCTAssertEqual(result.stdout, "", root)
        }

        // DIR itself a link to a folder of the packager's own is what they asked for: staged there.
        let real = sandbox.base + "/real"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sandbox.base + "/alias", withDestinationPath: real)
        let alias = try sandbox.walletBridge(
            ["install", "--root", sandbox.base + "/alias", "--binary", "/usr/bin/notes-host"] + notes + ids)
        XCTAssertEqual(alias.status, 0, alias.output)
        XCTAssertEqual(try files(under: real).count, 6)
    }

    func testRefusalsSayWhatToDo() throws {
        let sandbox = try Sandbox()
        let stage = sandbox.base + "/stage"
        let cases: [([String], String)] = [
            (
                ["--root", stage] + ids,
                "--root needs --binary: the absolute path where the package installs the host, such as /usr/bin/notes-host"
            ),
            (
                ["--root", stage, "--binary", "notes-host"] + ids,
                "--binary notes-host: with --root, give the absolute path where the package installs the host, such as /usr/bin/notes-host"
            ),
            (
                ["--root", stage, "--binary", stage + "/usr/bin/notes-host"] + ids,
                "--binary \(stage)/usr/bin/notes-host is inside --root \(stage): name the path as installed, /usr/bin/notes-host, not the staged copy"
            ),
            (
                ["--root", stage, "--binary", "/usr/bin/notes-host"],
                "--root needs the extensions the package allows: --chrome-extension ID"
            ),
            (
                ["--root", stage, "--binary", "/usr/bin/notes-host", "--browser", "tor-browser"] + ids,
                "Tor Browser reads manifests only inside its own folder"
            ),
            (
                [
                    "--root", stage, "--binary", "/usr/bin/notes-host", "--browser", "firefox", "--chrome-extension",
                    TestIDs.chromeID,
                ], "needs the extension's ID: add --firefox-addon ID"
            ),
            (
                ["--root", "/", "--binary", "/usr/bin/notes-host"] + ids,
                "--root /: that is this machine itself; install system-wide with --system"
            ),
            (
                ["--root", stage, "--binary", "/usr/bin/notes-host", "--name", "Notes"] + ids,
                "--name: \"Notes\" contains \"N\""
            ),
        ]
        for (arguments, message) in cases {
            let result = try sandbox.walletBridge(["install"] + arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.output)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        let flatpak = try sandbox.walletBridge(
            ["install", "--root", stage, "--flatpak", "--binary", "/usr/bin/notes-host"] + ids)
        XCTAssertEqual(flatpak.status, 64, flatpak.output)
        XCTAssertTrue(flatpak.stderr.contains("--root and --flatpak exclude each other"), flatpak.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stage), "nothing staged by a refused call")
    }
}
