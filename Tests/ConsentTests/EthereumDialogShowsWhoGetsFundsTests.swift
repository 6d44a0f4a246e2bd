import Foundation
import WalletBridge
@testable import WalletBridgeWallet
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys
@testable import WalletBridgeTransactions

/// From the EVM review of issue 36 (i36-rev2): an eth_signTransaction dialog must show who gets
/// the tokens, and never drop a call that moves them (rules R1, R2). Each builds the dialog as
/// KeystoreWallet.signEthereum does: the check that refuses what cannot be shown
/// (`checkTransactionsFit`), then `transactionText` of `EthereumSigningRequest.transactionConsent`.
///
/// They need the EVM decoder to put the recipient on a line of its own and mark the calls that
/// move funds (`Action.movesFunds`): they pass once that branch is merged.
final class EthereumDialogShowsWhoGetsFundsTests: XCTestCase {
    private let me = "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"
    private let attacker = "0x1111111111111111111111111111111111111111"

    private func dialog(to: String, data: String, callerName: String? = nil) throws -> String {
        let transaction = try EthereumTransaction(
            json: .object([
                "from": .string(me), "to": .string(to), "data": .string(data), "nonce": .string("0x7"),
                "gas": .string("0x30d40"),
                "maxFeePerGas": .string("0x6fc23ac00"), "maxPriorityFeePerGas": .string("0x59682f00"),
            ]), chain: EIP155.mainnet, field: "request.params[0]")
        let signing = EthereumSigningRequest(
            method: "eth_signTransaction", chain: EIP155.mainnet, address: try XCTUnwrap(transaction.from),
            transaction: transaction)
        var request = ConsentRequest(
            caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"),
            callerName: callerName,
            keyLabel: "main", shortAddress: try XCTUnwrap(transaction.from).short, payloads: [])
        request.transactions = signing.transactionConsent
        try request.checkTransactionsFit()
        return try XCTUnwrap(request.transactionText)
    }

    private func word(_ hex: String) -> String { String(repeating: "0", count: 64 - hex.count) + hex }
    private func address(_ a: String) -> String { word(String(a.dropFirst(2)).lowercased()) }

    /// ERC-721 transferFrom of an ENS name (ENS token ids are keccak hashes: 77-78 digits): the
    /// line was cut at 160 bytes before "to 0x1111…1111", and the recipient never shown.
    func testERC721TransferFromOfAnENSNameShowsTheRecipient() throws {
        let ens = "0x57f1887a8BF19b14fC0dF6Fd9B2acc9Af147eA85"
        let id = "6c5ba3e4ac4ca0ab3d1c0f4d5d7e0e5c0b4d2e6b0d7c1f8a9e3b2c4d5e6f7a8b"
        let text = try dialog(to: ens, data: "0x23b872dd" + address(me) + address(attacker) + word(id))
        XCTAssertTrue(text.contains("0x1111…1111"), text)
    }

    /// ERC-1155 safeTransferFrom with a large id and amount: recipient and sender cut off.
    func testERC1155TransferWithLargeNumbersShowsTheRecipient() throws {
        let data =
            "0xf242432a" + address(me) + address(attacker) + word(String(repeating: "f", count: 64))
            + word(String(repeating: "f", count: 60)) + word("a0") + word("0")
        let text = try dialog(to: "0x2222222222222222222222222222222222222222", data: data)
        XCTAssertTrue(text.contains("0x1111…1111"), text)
    }

    /// safeBatchTransferFrom of 8 tokens with large ids, from the sender: the whole call was
    /// dropped ("…and 1 call not shown") without a warning. It moves funds: shown, recipient
    /// and all.
    func testERC1155BatchIsNeverHiddenWithoutAWarning() throws {
        var data =
            "0x2eb2c2d6" + address(me) + address(attacker) + word("a0") + word(String(0xa0 + 32 * 9, radix: 16))
            + word(String(0xa0 + 32 * 18, radix: 16))
        let ids = word("8") + String(repeating: word(String(repeating: "f", count: 64)), count: 8)
        data += ids + ids + word("0")
        let text = try dialog(to: "0x2222222222222222222222222222222222222222", data: data)
        XCTAssertTrue(text.contains("0x1111…1111"), text)
        XCTAssertFalse(text.contains("call not shown"), text)
    }

    /// Permit2 permit under an ordinary 40-character extension name: the call (amount,
    /// expiration, the spender) was dropped; it must be shown, not refused.
    func testPermit2PermitIsShownUnderAnOrdinaryExtensionName() throws {
        let data =
            "0x2b67b570" + address(me) + address("0x2222222222222222222222222222222222222222")
            + word(String(repeating: "f", count: 39) + "e") + word("ffffffffffff") + word("0") + address(attacker)
            + word(String(repeating: "f", count: 64)) + word("100") + word("41") + String(repeating: "01", count: 65)
            + String(repeating: "0", count: 62)
        let text = try dialog(
            to: "0x000000000022D473030F116dDEE9F6B43aC78BA3", data: data,
            callerName: "Uniswap Extension Wallet Helper Official")
        XCTAssertFalse(text.contains("call not shown"), text)
    }
}
