import XCTest

extension Sandbox {
    /// A sandbox with Firefox and Chromium installed and the host installed for both: the
    /// healthy state that the doctor tests break one fault at a time. Returns the two manifests.
    static func healthy() throws -> (sandbox: Sandbox, chromium: String, firefox: String) {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("firefox")
        try sandbox.installBrowser("chromium")
        let install = try sandbox.walletBridge(
            "install", "--chrome-extension", TestIDs.chromeID, "--firefox-addon", TestIDs.firefoxID)
        XCTAssertEqual(install.status, 0, install.output)
        return (
            sandbox,
            sandbox.config + "/chromium/NativeMessagingHosts/com.walletbridge.host.json",
            sandbox.home + "/.mozilla/native-messaging-hosts/com.walletbridge.host.json"
        )
    }
}
