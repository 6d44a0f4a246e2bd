#if canImport(Glibc)
import Glibc
#endif
@testable import WalletBridgeCLI
import WalletBridgeWallet
import XCTest
@testable import WalletBridgeSystem

/// The host (keystore, configuration) and the command line (manifests, install record) find
/// the user's folders by one rule.
final class UserFoldersTests: XCTestCase {
    private func folders(_ variables: [String: String]) -> UserFolders {
        UserFolders(variable: { variables[$0] }, userID: getuid())
    }

    private var passwordDatabaseHome: String {
        String(cString: getpwuid(getuid())!.pointee.pw_dir)
    }

    func testAbsoluteValuesAreUsed() {
        let found = folders(["HOME": "/home/u", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/config"])
        XCTAssertEqual(found.home, "/home/u")
        XCTAssertEqual(found.dataHome, "/data")
        XCTAssertEqual(found.configHome, "/config")
        XCTAssertEqual(found.stateHome, "/home/u/.local/state")
    }

    func testARelativeHomeIsIgnoredByTheHostAndTheCommandLineAlike() {
        let variables = ["HOME": "relative/home", "XDG_DATA_HOME": "also/relative"]
        XCTAssertEqual(folders(variables).home, passwordDatabaseHome)
        XCTAssertEqual(folders(variables).dataHome, passwordDatabaseHome + "/.local/share")
        let commandLine = CLIEnvironment(variables: variables, systemRoot: "/")
        XCTAssertEqual(commandLine.home, Path.normalized(passwordDatabaseHome))
        XCTAssertEqual(commandLine.dataHome, Path.normalized(passwordDatabaseHome + "/.local/share"))
    }
}
