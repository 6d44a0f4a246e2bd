import Foundation
import WalletBridgeWallet
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

    private func create(_ sandbox: Sandbox, _ name: String, output: String? = nil, bridge: String? = nil,
                        hostName: String? = nil, firefoxAddon: String? = nil) throws -> NewProject.Created {
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
        for name in ["", "Notes", "1notes", "-notes", "notes-", "no--tes", "no tes", "no_tes", "nötes", "no.tes", "../x",
                     String(repeating: "a", count: 41)] {
            let refused = failure { try NewProject.create(name: name, output: Path.join(sandbox.base, "n"), bridge: self.checkout,
                                                          hostName: nil, firefoxAddon: nil, keyMaker: self.fakeKey) }
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
        try FileManager.default.createDirectory(atPath: Path.join(sandbox.base, "empty"), withIntermediateDirectories: false)
        for (name, output) in [("notes", "notes"), ("notes", "dangling"), ("notes", "empty")] {
            let path = Path.join(sandbox.base, output)
            let message = failure { try self.create(sandbox, name, output: path) }
            XCTAssertEqual(message, "\(path) already exists: choose another name, or another folder with --output")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: Path.join(sandbox.base, "notes")), ["mine.txt"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: Path.join(sandbox.base, "empty")), [])
        // Nothing staged is left behind.
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: sandbox.base).contains { $0.contains(".new-") })
    }

    func testRefusesABadHostNameAddonBridgeOrParent() throws {
        let sandbox = try Sandbox()
        XCTAssertTrue(failure { try self.create(sandbox, "notes", hostName: "Com.Example") }.hasPrefix("--host-name: "))
        XCTAssertTrue(failure { try self.create(sandbox, "notes", firefoxAddon: "no at sign") }.hasPrefix("--firefox-addon "))
        XCTAssertEqual(failure { try self.create(sandbox, "notes", bridge: sandbox.base) },
                       "--bridge: \(sandbox.base) is not a wallet-bridge checkout (no Package.swift)")
        let missing = Path.join(sandbox.base, "no/such")
        XCTAssertEqual(failure { try self.create(sandbox, "notes", output: Path.join(missing, "notes")) },
                       "\(missing) does not exist: create it first, or choose another --output")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.base).sorted(), ["bin", "config", "home", "root", "run"])
    }

    func testTheDefaultBridgeIsTheCheckoutTheBinaryWasBuiltFromWhileItExists() throws {
        XCTAssertEqual(try NewProject.builtFromCheckout(), checkout)
        let gone = "/nonexistent/wallet-bridge"
        XCTAssertEqual(failure { try NewProject.builtFromCheckout(sourceFile: gone + "/Sources/WalletBridgeCLI/New/NewCommand.swift") },
                       "no wallet-bridge checkout at \(gone), where this binary was built: name one with --bridge DIR")
    }

    func testAKeyMakerThatFailsLeavesNothing() throws {
        let sandbox = try Sandbox()
        let message = failure {
            try NewProject.create(name: "notes", output: Path.join(sandbox.base, "notes"), bridge: self.checkout, hostName: nil,
                                  firefoxAddon: nil, keyMaker: { _ in throw CLIFailure("no key today") })
        }
        XCTAssertEqual(message, "no key today")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sandbox.base).sorted(), ["bin", "config", "home", "root", "run"])
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
        for file in ["Package.swift", "Sources/MyNotesMethods/Methods.swift", "Sources/my-notes-host/main.swift",
                     "Fixtures/my-notes.json", "Tests/MyNotesHostTests/FixtureTests.swift", "package.json",
                     "test/my-notes.test.js", "extension/my-notes.js", "extension/background.js",
                     "scripts/settings.sh", "packaging/copyright", "packaging/my-notes-host.1", "README.md", ".gitignore", "chromium-key.pem"] {
            XCTAssertTrue(manager.fileExists(atPath: Path.join(root, file)), file)
        }
        for script in ["build-extension.sh", "headless.sh", "headless.py", "package-deb.sh"] {
            XCTAssertTrue(manager.isExecutableFile(atPath: Path.join(root, "scripts/" + script)), script)
        }
        XCTAssertEqual(try manager.destinationOfSymbolicLink(atPath: Path.join(root, "extension/wallet-bridge")), Path.join(checkout, "js/src"))
        XCTAssertTrue(sandbox.read(Path.join(root, "Package.swift"))!.contains(#"path: "\#(checkout)""#))

        // The manifests: JSON, the key and the IDs where the browsers read them.
        func json(_ file: String) throws -> [String: Any] {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Path.join(root, file)))) as? [String: Any], file)
        }
        XCTAssertEqual(try json("extension/manifest.chromium.json")["key"] as? String, template.chromeKey)
        let gecko = try json("extension/manifest.firefox.json")["browser_specific_settings"] as? [String: [String: String]]
        XCTAssertEqual(gecko?["gecko"]?["id"], "my-notes@example.org")
        let cases = try XCTUnwrap(try json("Fixtures/my-notes.json")["cases"] as? [[String: Any]])
        XCTAssertEqual(cases.first?["args"] as? [String], ["chrome-extension://\(template.chromeID)/"])
        XCTAssertEqual(try json("package.json")["type"] as? String, "module")
        XCTAssertTrue(sandbox.read(Path.join(root, "scripts/settings.sh"))!.contains("CHROME_EXTENSION_ID=\(template.chromeID)\n"))
        // No placeholder is left anywhere.
        for file in template.files where !file.link {
            XCTAssertFalse(sandbox.read(Path.join(root, file.path))!.contains("@"+"NAME@"), file.path)
            XCTAssertNil(sandbox.read(Path.join(root, file.path))!.range(of: #"@[A-Z_]+@"#, options: .regularExpression), file.path)
        }
    }

    /// The real key: openssl's RSA key, its private half kept private, and the ID Chromium's
    /// rule gives (headless Chromium checks the same ID in scripts/test-guide.sh).
    func testTheCommandMakesARealKeyAndRefusesToOverwrite() throws {
        let sandbox = try Sandbox()
        var variables = sandbox.variables
        variables["PATH"] = "/usr/bin:/bin"
        let first = try runProcess(try Built.walletBridge(), ["new", "notes", "--bridge", checkout], environment: variables, in: sandbox.base)
        XCTAssertEqual(first.status, 0, first.output)
        let root = Path.join(sandbox.base, "notes")
        XCTAssertTrue(first.stdout.hasPrefix("Created \(root) (host com.example.notes, method notes.hello, Chromium ID "), first.stdout)
        let attributes = try FileManager.default.attributesOfItem(atPath: Path.join(root, "chromium-key.pem"))
        XCTAssertEqual(attributes[.posixPermissions] as? Int, 0o600)
        XCTAssertTrue(sandbox.read(Path.join(root, "chromium-key.pem"))!.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Path.join(root, "extension/manifest.chromium.json")))) as? [String: Any])
        let key = try XCTUnwrap(manifest["key"] as? String)
        let der = try XCTUnwrap(Base64.decode(key))
        XCTAssertEqual(der.prefix(2), [0x30, 0x82], "DER SubjectPublicKeyInfo")
        let id = try XCTUnwrap(ExtensionNames.chromiumID(key: key, folder: ""))
        XCTAssertTrue(first.stdout.contains("Chromium ID \(id),"), first.stdout)

        let second = try runProcess(try Built.walletBridge(), ["new", "notes", "--bridge", checkout], environment: variables, in: sandbox.base)
        XCTAssertEqual(second.status, 1)
        XCTAssertEqual(second.stdout, "")
        XCTAssertTrue(second.stderr.contains("\(root) already exists"), second.stderr)

        var noOpenSSL = variables
        noOpenSSL["PATH"] = sandbox.bin
        let third = try runProcess(try Built.walletBridge(), ["new", "other", "--bridge", checkout], environment: noOpenSSL, in: sandbox.base)
        XCTAssertNotEqual(third.status, 0)
        XCTAssertTrue(third.stderr.contains("openssl is needed"), third.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: Path.join(sandbox.base, "other")))
    }
}
