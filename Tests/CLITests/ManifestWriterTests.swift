import XCTest

@testable import WalletBridgeCLI

final class ManifestWriterTests: XCTestCase {
    func testChromeFamilyManifest() {
        let manifest = HostManifest(
            name: "com.walletbridge.host", path: "/usr/bin/wallet-bridge", family: .chromium,
            allowed: [TestIDs.chromeOrigin])
        XCTAssertEqual(
            String(decoding: manifest.rendered(), as: UTF8.self),
            """
            {
              "name": "com.walletbridge.host",
              "description": "wallet-bridge: a wallet for browser extensions",
              "path": "/usr/bin/wallet-bridge",
              "type": "stdio",
              "allowed_origins": [
                "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
              ]
            }

            """)
    }

    func testIDsAreSortedAndDeduplicatedSoReinstallsAreByteIdentical() {
        let one = HostManifest(name: "h", path: "/h", family: .firefox, allowed: ["b@x", "a@x", "b@x"])
        let other = HostManifest(name: "h", path: "/h", family: .firefox, allowed: ["a@x", "b@x"])
        XCTAssertEqual(one.rendered(), other.rendered())
        XCTAssertTrue(
            String(decoding: one.rendered(), as: UTF8.self).contains(
                "\"allowed_extensions\": [\n    \"a@x\",\n    \"b@x\"\n  ]"))
    }

    func testPathsWithQuotesAndBackslashesAreEscaped() throws {
        let manifest = HostManifest(
            name: "h", path: "/opt/we\"ird\\dir/wallet-bridge", family: .chromium, allowed: [TestIDs.chromeOrigin])
        let parsed = try ManifestFile.loadBytes(manifest.rendered())
        XCTAssertEqual(parsed.string("path"), "/opt/we\"ird\\dir/wallet-bridge")
    }

    /// manifests/ holds templates for packagers; they must be what install writes.
    func testTemplatesInTheRepositoryMatchWhatInstallWrites() throws {
        let repository = Path.parent(Path.parent(Path.parent(#filePath)))
        let cases: [(BrowserFamily, String, String)] = [
            (.chromium, "manifests/chrome/com.walletbridge.host.json", "chrome-extension://@CHROME_EXTENSION_ID@/"),
            (.firefox, "manifests/firefox/com.walletbridge.host.json", "@FIREFOX_ADDON_ID@"),
        ]
        for (family, relative, placeholder) in cases {
            let template = try XCTUnwrap(
                FileManager.default.contents(atPath: Path.join(repository, relative)), relative)
            let rendered = HostManifest(
                name: ManifestIdentifiers.defaultHostName, path: "@WALLET_BRIDGE_PATH@", family: family,
                allowed: [placeholder]
            ).rendered()
            XCTAssertEqual(
                String(decoding: template, as: UTF8.self), String(decoding: rendered, as: UTF8.self), relative)
        }
    }
}

extension ManifestFile {
    /// Parses bytes as if read from a file, for tests.
    static func loadBytes(_ bytes: [UInt8]) throws -> ManifestFile {
        let path = NSTemporaryDirectory() + "manifest-\(UUID().uuidString).json"
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ManifestFile.load(path)
    }
}
