import ArgumentParser
@testable import WalletBridgeCLI
import XCTest

/// The command tree and its options. Running the commands is tested on the built binary
/// (Tests/system/test_wallet.py), where stdout, stderr and the terminal are real.
final class KeysCommandTests: XCTestCase {
    func testKeysIsASubcommandOfTheRootWithEveryOperation() {
        XCTAssertTrue(WalletBridgeCommand.configuration.subcommands.contains { $0 == KeysCommand.self })
        let names = KeysCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        XCTAssertEqual(
            names,
            ["create", "list", "import", "export", "export-public", "rename", "delete", "change-passphrase", "verify"])
    }

    func testAutomationOptionsParse() throws {
        let create = try XCTUnwrap(
            try WalletBridgeCommand.parseAsRoot(
                ["keys", "create", "--label", "main", "--keystore", "/k.json", "--passphrase-fd", "3", "--json"])
                as? KeysCreateCommand)
        XCTAssertEqual(create.label, "main")
        XCTAssertEqual(create.keystoreOptions.path, "/k.json")
        XCTAssertTrue(create.keystoreOptions.json)
        XCTAssertEqual(create.passphraseOptions.passphraseFD, 3)

        let change = try XCTUnwrap(
            try WalletBridgeCommand.parseAsRoot(
                ["keys", "change-passphrase", "--passphrase-file", "/old", "--new-passphrase-file", "/new"])
                as? KeysChangePassphraseCommand)
        XCTAssertEqual(change.passphraseOptions.passphraseFile, "/old")
        XCTAssertEqual(change.newPassphraseFile, "/new")

        let delete = try XCTUnwrap(
            try WalletBridgeCommand.parseAsRoot(["keys", "delete", "main", "--force"]) as? KeysDeleteCommand)
        XCTAssertTrue(delete.force)
        XCTAssertEqual(delete.key, "main")
    }

    func testImportRefusesStdinForBothKeyAndPassphraseAndUnknownFormats() {
        XCTAssertThrowsError(try WalletBridgeCommand.parseAsRoot(["keys", "import", "--passphrase-fd", "0"]))
        XCTAssertThrowsError(
            try WalletBridgeCommand.parseAsRoot(["keys", "import", "--format", "pem", "--file", "/k"]))
        XCTAssertNoThrow(
            try WalletBridgeCommand.parseAsRoot([
                "keys", "import", "--format", "hex", "--file", "/k", "--passphrase-fd", "0",
            ]))
    }
}
