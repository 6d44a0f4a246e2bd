import XCTest

@testable import WalletBridgeCLI

final class ManifestIdentifiersTests: XCTestCase {
    func testHostNamesThatBothFamiliesAccept() {
        for name in ["com.walletbridge.host", "wallet_bridge", "a.b2.c_3", "host"] {
            XCTAssertNil(ManifestIdentifiers.hostNameProblem(name), name)
        }
    }

    func testHostNamesRejectedWithTheReason() {
        XCTAssertEqual(ManifestIdentifiers.hostNameProblem(""), "the host name is empty")
        for name in [".com.host", "com.host.", "com..host"] {
            XCTAssertTrue(ManifestIdentifiers.hostNameProblem(name)?.contains("empty segment") == true, name)
        }
        XCTAssertTrue(ManifestIdentifiers.hostNameProblem("Com.Host")?.contains("\"C\"") == true)
        XCTAssertTrue(ManifestIdentifiers.hostNameProblem("com-host")?.contains("\"-\"") == true)
    }

    func testChromeExtensionArgumentsBecomeExactOrigins() throws {
        for argument in [TestIDs.chromeID, "chrome-extension://\(TestIDs.chromeID)", TestIDs.chromeOrigin] {
            XCTAssertEqual(try ManifestIdentifiers.chromeOrigin(from: argument), TestIDs.chromeOrigin, argument)
        }
    }

    func testMalformedChromeExtensionArgumentsAreRefused() {
        for argument in [
            "abc", String(repeating: "q", count: 32), TestIDs.chromeID.uppercased(), "chrome-extension://*/",
            "chrome-extension://\(TestIDs.chromeID)/page.html",
        ] {
            XCTAssertThrowsError(try ManifestIdentifiers.chromeOrigin(from: argument), argument) { error in
                XCTAssertTrue("\(error)".hasPrefix("--chrome-extension \(argument): "), "\(error)")
            }
        }
    }

    func testOriginProblemsNameTheFault() {
        XCTAssertNil(ManifestIdentifiers.originProblem(TestIDs.chromeOrigin))
        XCTAssertTrue(ManifestIdentifiers.originProblem("chrome-extension://*/")!.contains("wildcard"))
        XCTAssertTrue(
            ManifestIdentifiers.originProblem("chrome-extension://\(TestIDs.chromeID)")!.contains("trailing slash"))
        XCTAssertTrue(
            ManifestIdentifiers.originProblem("moz-extension://\(TestIDs.chromeID)/")!.contains(
                "does not start with chrome-extension://"))
        XCTAssertTrue(
            ManifestIdentifiers.originProblem("chrome-extension://abcdefghijklmnopabcdefghijklmnoz/")!.contains(
                "not an extension ID"))
    }

    func testFirefoxAddonIDs() {
        for id in [TestIDs.firefoxID, TestIDs.firefoxGUID, "wallet-bridge@tests.mozilla.org", "a_b.c@d"] {
            XCTAssertNil(ManifestIdentifiers.addonIDProblem(id), id)
        }
        for id in ["wallet", "@example.org", "wallet@", "a@b@c", "{1234}", "wallet @example.org"] {
            XCTAssertNotNil(ManifestIdentifiers.addonIDProblem(id), id)
        }
        XCTAssertTrue(ManifestIdentifiers.addonIDProblem(TestIDs.chromeID)!.contains("is a Chrome extension ID"))
    }
}
