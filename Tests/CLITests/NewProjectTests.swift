import Foundation
import WalletBridgeWallet
import WalletBridgeConsent
import WalletBridgeKeys
import XCTest

@testable import WalletBridgeCLI

/// `wallet-bridge new` (issue 35): what it refuses and what it writes. That the project it writes
/// builds, passes its tests and runs in both browsers is docs/your-own-host.md's test
/// (scripts/test-guide.sh), which follows the guide from `new` to the .deb.
final class NewProjectTests: XCTestCase {
    /// This checkout: what the generated package depends on.
    private let checkout: String = {
        var root = #filePath
        for _ in 0..<3 { root = Path.parent(root) }  // Tests/CLITests/NewProjectTests.swift
        return root
    }()

    /// A stand-in for openssl: a fixed "public key", and a private key file like openssl's.
    private func fakeKey(_ path: String) throws -> [UInt8] {
        try Data("private".utf8).write(to: URL(fileURLWithPath: path))
        return Array("not a real key, only bytes to hash".utf8)
    }

    private func create(
        _ sandbox: Sandbox, _ name: String, output: String? = nil, bridge: String? = nil,
        hostName: String? = nil, firefoxAddon: String? = nil
    ) throws -> NewProject.Created {
        try NewProject.create(
            name: name, output: output ?? Path.join(sandbox.base, name), bridge: bridge ?? checkout,
            hostName: hostName, firefoxAddon: firefoxAddon, keyMaker: fakeKey
        )
    }

    private func failure(_ body: () throws -> Any) -> String {
        do {
            _ = try body()
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    func testRefusesNamesThatAreNotProjectNames() throws {
        let sandbox = try Sandbox()
        for name in [
            "", "Notes", "1notes", "-notes", "notes-", "no--tes", "no tes", "no_tes", "nötes", "no.tes", "../x",
            String(repeating: "a", count: 41),
        ] {
            let refused = failure {
                try NewProject.create(
                    name: name, output: Path.join(sandbox.base, "n"), bridge: self.checkout,
                    hostName: nil, firefoxAddon: nil, keyMaker: self.fakeKey)
            }
            XCTAssertTrue(refused.contains("project name") || refused.contains("longer than 40"), "\(name): \(refused)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: Path.join(sandbox.base, "n")), name)
        }
        for name in ["notes", "my-notes", "n2", String(repeating: "a", count: 40)] {
            XCTAssertNil(ProjectTemplate.nameProblem(name), name)
        }
    }

    func testRefusesAFolderThatExistsAndLeavesItAlone() throws {
        let sandbox = try Sandbox()
        try sandbox.write(Path.join(sandbox.base, "notes/mine.txt"), "my own file")
        XCTAssertTrue(symlink(Path.join(sandbox.base, "nowhere"), Path.join(sandbox.base, "dangling")) == 0)
        try FileManager.default.createDirectory(
            atPath: Path.join(sandbox.base, "empty"), withIntermediateDirectories: false)
        for (name, output) in [("notes", "notes"), ("notes", "dangling"), ("notes", "empty")] {
            let path = Path.join(sandbox.base, output)
            let message = failure { try self.create(sandbox, name, output: path) }
            XCTAssertEqual(message, "\(path) already exists: choose another name, or another folder with --output")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: Path.join(sandbox.base, "notes")), ["mine.txt"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: Path.join(sandbox.base, "empty")), [])
        // Nothing staged is left behind.
        XCTAssertFalse(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.base).contains { $0.contains(".new-") })
    }

    func testRefusesABadHostNameAddonBridgeOrParent() throws {
        let sandbox = try Sandbox()
        XCTAssertTrue(failure { try self.create(sandbox, "notes", hostName: "Com.Example") }.hasPrefix("--host-name: "))
        XCTAssertTrue(
            failure { try self.create(sandbox, "notes", firefoxAddon: "no at sign") }.hasPrefix("--firefox-addon "))
        XCTAssertEqual(
            failure { try self.create(sandbox, "notes", bridge: sandbox.base) },
            "--bridge: \(sandbox.base) is not a wallet-bridge checkout (no Package.swift)")
        let missing = Path.join(sandbox.base, "no/such")
        XCTAssertEqual(
            failure { try self.create(sandbox, "notes", output: Path.join(missing, "notes")) },
            "\(missing) does not exist: create it first, or choose another --output")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.base).sorted(),
            ["bin", "config", "home", "root", "run"])
    }

    func testTheDefaultBridgeIsTheCheckoutTheBinaryWasBuiltFromWhileItExists() throws {
        XCTAssertEqual(try NewProject.builtFromCheckout(), checkout)
        let gone = "/nonexistent/wallet-bridge"
        XCTAssertEqual(
            failure {
                try NewProject.builtFromCheckout(sourceFile: gone + "/Sources/WalletBridgeCLI/New/NewCommand.swift")
            },
            "no wallet-bridge checkout at \(gone), where this binary was built: name one with --bridge DIR")
    }

    func testAKeyMakerThatFailsLeavesNothing() throws {
        let sandbox = try Sandbox()
        let message = failure {
            try NewProject.create(
                name: "notes", output: Path.join(sandbox.base, "notes"), bridge: self.checkout, hostName: nil,
                firefoxAddon: nil, keyMaker: { _ in throw CLIFailure("no key today") })
        }
        XCTAssertEqual(message, "no key today")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: sandbox.base).sorted(),
            ["bin", "config", "home", "root", "run"])
    }

    func testWritesTheProjectWithItsNamesAndTheKeysID() throws {
        let sandbox = try Sandbox()
        let created = try create(sandbox, "my-notes")
        let root = created.path
        let template = created.template
        XCTAssertEqual(template.hostName, "com.example.my_notes")
        XCTAssertEqual(template.firefoxAddon, "my-notes@example.org")
        XCTAssertEqual(template.methodName, "my-notes.hello")
        let der = Array("not a real key, only bytes to hash".utf8)
        XCTAssertEqual(template.chromeKey, Base64.encode(der))
        XCTAssertEqual(template.chromeID, ExtensionNames.chromiumID(key: Base64.encode(der), folder: "/elsewhere"))

        let manager = FileManager.default
        for file in [
            "Package.swift", "Sources/MyNotesMethods/Methods.swift", "Sources/my-notes-host/main.swift",
            "Fixtures/my-notes.json", "Tests/MyNotesHostTests/FixtureTests.swift", "package.json",
            "test/my-notes.test.js", "extension/my-notes.js", "extension/background.js",
            "scripts/settings.sh", "packaging/copyright", "packaging/my-notes-host.1", "README.md", ".gitignore",
            "chromium-key.pem",
        ] {
            XCTAssertTrue(manager.fileExists(atPath: Path.join(root, file)), file)
        }
        for script in ["build-extension.sh", "headless.sh", "headless.py", "package-deb.sh"] {
            XCTAssertTrue(manager.isExecutableFile(atPath: Path.join(root, "scripts/" + script)), script)
        }
        XCTAssertEqual(
            try manager.destinationOfSymbolicLink(atPath: Path.join(root, "extension/wallet-bridge")),
            Path.join(checkout, "js/src"))
        XCTAssertTrue(sandbox.read(Path.join(root, "Package.swift"))!.contains(#"path: "\#(checkout)""#))

        // The manifests: JSON, the key and the IDs where the browsers read them.
        func json(_ file: String) throws -> [String: Any] {
            try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Path.join(root, file))))
                    as? [String: Any], file)
        }
        XCTAssertEqual(try json("extension/manifest.chromium.json")["key"] as? String, template.chromeKey)
        let gecko =
            try json("extension/manifest.firefox.json")["browser_specific_settings"] as? [String: [String: String]]
        XCTAssertEqual(gecko?["gecko"]?["id"], "my-notes@example.org")
        let cases = try XCTUnwrap(try json("Fixtures/my-notes.json")["cases"] as? [[String: Any]])
        XCTAssertEqual(cases.first?["args"] as? [String], ["chrome-extension://\(template.chromeID)/"])
        XCTAssertEqual(try json("package.json")["type"] as? String, "module")
        XCTAssertTrue(
            sandbox.read(Path.join(root, "scripts/settings.sh"))!.contains("CHROME_EXTENSION_ID=\(template.chromeID)\n")
        )
        // No placeholder is left anywhere.
        for file in template.files where !file.link {
            XCTAssertFalse(sandbox.read(Path.join(root, file.path))!.contains("@" + "NAME@"), file.path)
            XCTAssertNil(
                sandbox.read(Path.join(root, file.path))!.range(of: #"@[A-Z_]+@"#, options: .regularExpression),
                file.path)
        }
    }

    /// The real key: openssl's RSA key, its private half kept private, and the ID Chromium's
    /// rule gives (headless Chromium checks the same ID in scripts/test-guide.sh).
    func testTheCommandMakesARealKeyAndRefusesToOverwrite() throws {
        let sandbox = try Sandbox()
        var variables = sandbox.variables
        variables["PATH"] = "/usr/bin:/bin"
        let first = try runProcess(
            try Built.walletBridge(), ["new", "notes", "--bridge", checkout], environment: variables, in: sandbox.base)
        XCTAssertEqual(first.status, 0, first.output)
        let root = Path.join(sandbox.base, "notes")
        XCTAssertTrue(
            first.stdout.hasPrefix("Created \(root) (host com.example.notes, method notes.hello, Chromium ID "),
            first.stdout)
        let attributes = try FileManager.default.attributesOfItem(atPath: Path.join(root, "chromium-key.pem"))
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        XCTAssertTrue(sandbox.read(Path.join(root, "chromium-key.pem"))!.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let manifest = try XCTUnwrap(
            JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: Path.join(root, "extension/manifest.chromium.json"))))
                as? [String: Any])
        let key = try XCTUnwrap(manifest["key"] as? String)
        let der = try XCTUnwrap(Base64.decode(key))
        XCTAssertEqual(der.prefix(2), [0x30, 0x82], "DER SubjectPublicKeyInfo")
        let id = try XCTUnwrap(ExtensionNames.chromiumID(key: key, folder: ""))
        XCTAssertTrue(first.stdout.contains("Chromium ID \(id),"), first.stdout)

        let second = try runProcess(
            try Built.walletBridge(), ["new", "notes", "--bridge", checkout], environment: variables, in: sandbox.base)
        XCTAssertEqual(second.status, 1)
        XCTAssertEqual(second.stdout, "")
        XCTAssertTrue(second.stderr.contains("\(root) already exists"), second.stderr)

        var noOpenSSL = variables
        noOpenSSL["PATH"] = sandbox.bin
        let third = try runProcess(
            try Built.walletBridge(), ["new", "other", "--bridge", checkout], environment: noOpenSSL, in: sandbox.base)
        XCTAssertNotEqual(third.status, 0)
        XCTAssertTrue(third.stderr.contains("openssl is needed"), third.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: Path.join(sandbox.base, "other")))
    }

    private func bash(
        _ sandbox: Sandbox, _ script: String, in directory: String, environment extra: [String: String] = [:]
    ) throws -> Run {
        var variables = sandbox.variables
        variables["PATH"] = "/usr/bin:/bin"
        variables.merge(extra) { $1 }
        return try runProcess("/bin/bash", ["-c", script], environment: variables, in: directory)
    }

    /// A checkout path with characters that mean something to a shell and to Swift: the project
    /// must take it as text (quoted for each), never run or misparse it.
    func testTheCheckoutPathIsQuotedForTheShellAndForSwift() throws {
        let sandbox = try Sandbox()
        let bridge = Path.join(sandbox.base, #"wb "$(touch PWNED)" `touch PWNED` it's \ ok"#)
        for part in ["Package.swift", "js/src/index.js", "js/src/testing.js", "scripts/package-deb.sh"] {
            try sandbox.write(Path.join(bridge, part), "")
        }
        let created = try create(sandbox, "notes", bridge: bridge)
        let settings = try bash(
            sandbox, #"set -u; source scripts/settings.sh; printf %s "$WALLET_BRIDGE_DIR""#, in: created.path)
        XCTAssertEqual(settings.status, 0, settings.output)
        XCTAssertEqual(settings.stdout, bridge)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: Path.join(created.path, "PWNED")),
            "settings.sh ran a command in the path")

        // Package.swift's path: the literal, given to Swift, is the path.
        let manifest = try XCTUnwrap(sandbox.read(Path.join(created.path, "Package.swift")))
        let line = try XCTUnwrap(
            manifest.split(separator: "\n").first { $0.contains(#".package(name: "wallet-bridge", path: "#) })
        let literal = line.components(separatedBy: "path: ").last!.dropLast(2)  // "),"
        let program = try sandbox.write(
            Path.join(sandbox.base, "literal.swift"), "print(\(literal), terminator: \"\")\n")
        var variables = sandbox.variables
        variables["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let swift = try runProcess("/usr/bin/env", ["swift", program], environment: variables, in: sandbox.base)
        XCTAssertEqual(swift.status, 0, swift.output)
        XCTAssertEqual(swift.stdout, bridge)
        XCTAssertFalse(manifest.contains(bridge), "the path pasted into Swift unescaped")
        XCTAssertFalse(sandbox.read(Path.join(created.path, "README.md"))!.contains(bridge))
    }

    func testTheNextLineQuotesTheFolderForTheShell() throws {
        let sandbox = try Sandbox()
        var variables = sandbox.variables
        variables["PATH"] = "/usr/bin:/bin"
        let output = Path.join(sandbox.base, "my notes $(x)")
        let run = try runProcess(
            try Built.walletBridge(), ["new", "notes", "--bridge", checkout, "--output", output],
            environment: variables, in: sandbox.base)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.stdout.contains("Next: cd '\(output)' && swift build"), run.stdout)
    }

    /// scripts/build-extension.sh replaces its output folder: never the project, a folder holding
    /// it, the extension's own sources, or a folder it did not write.
    func testBuildExtensionReplacesOnlyAFolderItWrote() throws {
        let sandbox = try Sandbox()
        let root = try create(sandbox, "notes").path
        try sandbox.write(Path.join(root, "scripts/mine/keep.txt"), "mine")
        let file = try sandbox.write(Path.join(sandbox.base, "a-file"), "mine")
        for out in [
            root, ".", "..", sandbox.base, "extension", "extension/sub", "extension/wallet-bridge/sub", "scripts/mine",
            file,
            Path.join(checkout, "js/src/sub"),
        ] {
            let run = try bash(sandbox, "scripts/build-extension.sh chromium \(Shell.quoted(out))", in: root)
            XCTAssertEqual(run.status, 2, "\(out): \(run.output)")
            XCTAssertTrue(run.stderr.contains("build-extension.sh: "), run.stderr)
        }
        for kept in [
            "chromium-key.pem", "extension/background.js", "extension/manifest.chromium.json", "scripts/mine/keep.txt",
            "Package.swift",
        ] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Path.join(root, kept)), kept)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: Path.join(checkout, "js/src/sub")))
        XCTAssertEqual(sandbox.read(file), "mine")

        // The default output, twice (it replaces its own), and an empty folder.
        for _ in 0..<2 {
            let run = try bash(sandbox, "scripts/build-extension.sh firefox", in: root)
            XCTAssertEqual(run.status, 0, run.output)
        }
        let built = Path.join(root, ".build/extension-firefox")
        let runtime = try FileManager.default.contentsOfDirectory(atPath: Path.join(built, "wallet-bridge")).sorted()
        XCTAssertTrue(runtime.contains("index.js") && runtime.contains("client.js"), "\(runtime)")
        for left in ["fixture-runner.js", "openrpc-types.js", "testing.js", "index.d.ts", "testing.d.ts"] {
            XCTAssertFalse(runtime.contains(left), left)
        }
        XCTAssertTrue(sandbox.read(Path.join(built, "manifest.json"))!.contains("gecko"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: Path.join(built, "manifest.firefox.json")))
        try FileManager.default.createDirectory(
            atPath: Path.join(sandbox.base, "empty"), withIntermediateDirectories: false)
        let empty = try bash(sandbox, "scripts/build-extension.sh chromium ../empty", in: root)
        XCTAssertEqual(empty.status, 0, empty.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: Path.join(sandbox.base, "empty/wallet-bridge/index.js")))
    }

    /// One version: the host's `hostVersion` (what the built host prints for `--version`). The
    /// package takes it from the binary, and scripts/check-version.sh (which the package script
    /// runs) refuses files that say another; nothing else in the project states it.
    func testTheHostsVersionIsTheOneTheOtherFilesAreCheckedAgainst() throws {
        let sandbox = try Sandbox()
        let root = try create(sandbox, "notes").path
        let same = try bash(sandbox, "scripts/check-version.sh 0.1.0", in: root)
        XCTAssertEqual(same.status, 0, same.output)
        // The developer changed hostVersion to 0.2.0 and nothing else.
        let other = try bash(sandbox, "scripts/check-version.sh 0.2.0", in: root)
        XCTAssertEqual(other.status, 1, other.output)
        for file in [
            "package.json says 0.1.0", "extension/manifest.chromium.json says 0.1.0",
            "extension/manifest.firefox.json says 0.1.0",
        ] {
            XCTAssertTrue(other.stderr.contains(file), other.stderr)
        }
        XCTAssertTrue(other.stderr.contains("hostVersion"), other.stderr)
        XCTAssertEqual(try bash(sandbox, "scripts/check-version.sh", in: root).status, 2)

        let script = try XCTUnwrap(sandbox.read(Path.join(root, "scripts/package-deb.sh")))
        XCTAssertTrue(script.contains("scripts/check-version.sh"), script)
        XCTAssertFalse(script.contains("--version \"$"), "the package script passes a version of its own: \(script)")
        XCTAssertTrue(script.contains("--summary \"$HOST_DESCRIPTION\""), script)
        XCTAssertFalse(sandbox.read(Path.join(root, "scripts/settings.sh"))!.contains("VERSION"))
        let man = try XCTUnwrap(sandbox.read(Path.join(root, "packaging/notes-host.1")))
        XCTAssertFalse(man.contains("0.1.0") || man.contains("notes.hello"), "the man page goes stale: \(man)")
        let description = try bash(sandbox, #"source scripts/settings.sh; printf %s "$HOST_DESCRIPTION""#, in: root)
        XCTAssertLessThanOrEqual(description.stdout.count, 80, "Debian's one-line summary: \(description.stdout)")
    }

    /// The package script's `--output` is the caller's folder, as with the bridge's own builder,
    /// and it takes no other arguments. Swift and the bridge's builder are stand-ins here: the
    /// arguments the builder receives are what is checked.
    func testThePackageScriptTakesTheCallersOutputFolder() throws {
        let sandbox = try Sandbox()
        let root = try create(sandbox, "notes").path
        let fake = Path.join(sandbox.base, "fake")
        _ = try sandbox.write(
            Path.join(fake, "bin/swift"), "#!/bin/sh\ncase \"$*\" in *--show-bin-path*) echo \(fake)/out ;; esac\n",
            mode: 0o755)
        _ = try sandbox.write(Path.join(fake, "out/notes-host"), "#!/bin/sh\necho 0.1.0\n", mode: 0o755)
        _ = try sandbox.write(
            Path.join(fake, "bridge/scripts/package-deb.sh"), "#!/bin/sh\nprintf '%s\\n' \"$@\"\n", mode: 0o755)
        try FileManager.default.createDirectory(atPath: Path.join(root, "sub"), withIntermediateDirectories: true)
        let environment = ["PATH": "\(fake)/bin:/usr/bin:/bin", "WALLET_BRIDGE_DIR": Path.join(fake, "bridge")]
        let run = try bash(
            sandbox, "../scripts/package-deb.sh --output out", in: Path.join(root, "sub"), environment: environment)
        XCTAssertEqual(run.status, 0, run.output)
        let arguments = run.stdout.split(separator: "\n").map(String.init)
        let output = try XCTUnwrap(arguments.firstIndex(of: "--output")).advanced(by: 1)
        XCTAssertEqual(arguments[output], Path.join(root, "sub/out"), run.stdout)
        for extra in ["--output out --bogus", "--output", "--bogus"] {
            let refused = try bash(sandbox, "scripts/package-deb.sh \(extra)", in: root, environment: environment)
            XCTAssertEqual(refused.status, 2, "\(extra): \(refused.output)")
        }
    }

    /// What scripts/headless.sh expects each browser to report is a JSON file beside the
    /// extension's tests, not a value inside the Python script.
    func testTheHeadlessExpectationIsAFileOfItsOwn() throws {
        let sandbox = try Sandbox()
        let created = try create(sandbox, "notes")
        let data = try Data(contentsOf: URL(fileURLWithPath: Path.join(created.path, "test/headless.json")))
        let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let chromium = try XCTUnwrap(expected["chromium"] as? [String: Any])
        XCTAssertEqual(
            (chromium["result"] as? [String: String])?["greeting"],
            "Hello, extension, from chrome-extension://\(created.template.chromeID)/")
        let firefox = try XCTUnwrap(expected["firefox"] as? [String: Any])
        XCTAssertEqual(
            (firefox["result"] as? [String: String])?["greeting"], "Hello, extension, from notes@example.org")
        let script = try XCTUnwrap(sandbox.read(Path.join(created.path, "scripts/headless.py")))
        XCTAssertTrue(script.contains("test/headless.json") || script.contains(#""test", "headless.json""#), script)
        XCTAssertFalse(script.contains("Hello, extension"), script)
    }

    /// extension/wallet-bridge is this machine's link into the checkout: not committed, and made
    /// again from WALLET_BRIDGE_DIR by scripts/settings.sh (which every script sources).
    func testTheLinkToTheJSPackageIsIgnoredAndMadeFromWalletBridgeDir() throws {
        let sandbox = try Sandbox()
        let root = try create(sandbox, "notes").path
        XCTAssertTrue(sandbox.read(Path.join(root, ".gitignore"))!.contains("\n/extension/wallet-bridge\n"))
        let link = Path.join(root, "extension/wallet-bridge")
        XCTAssertEqual(unlink(link), 0)
        XCTAssertEqual(symlink("/nonexistent/js/src", link), 0)  // a teammate's checkout
        let run = try bash(
            sandbox, "source scripts/settings.sh", in: root, environment: ["WALLET_BRIDGE_DIR": checkout])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), Path.join(checkout, "js/src"))
        XCTAssertEqual(unlink(link), 0)
        XCTAssertEqual(
            try bash(sandbox, "source scripts/settings.sh", in: root, environment: ["WALLET_BRIDGE_DIR": checkout])
                .status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), Path.join(checkout, "js/src"))
    }
}
