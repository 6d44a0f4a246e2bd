import Foundation
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys

/// Every short address the documentation shows (`0x9858…da94`, `DsPf…1zq1`) is what the code
/// makes of an address the documentation also shows in full: a reader comparing a dialog with
/// the docs sees the same characters.
final class DocumentedAddressTests: XCTestCase {
    private static let documents = [
        "README.md", "SECURITY.md", "js/README.md", "docs/agent.md", "docs/sessions.md", "docs/wallet.md",
        "docs/install.md",
    ]

    private func text(_ document: String) throws -> String {
        String(decoding: try readBytes("\(packageRoot)/\(document)"), as: UTF8.self)
    }

    /// Every full address in the documents: Ethereum hex, Solana base58, and walletlib's base64
    /// public keys (shown in the audit log's example), in the form the code shortens.
    private func fullAddresses() throws -> (ethereum: [EthereumAddress], solana: Set<String>) {
        var ethereum: [EthereumAddress] = []
        var solana: Set<String> = []
        for document in Self.documents {
            let text = try text(document)
            for match in text.matches(of: /0x[0-9a-fA-F]{40}(?![0-9a-fA-F])/) {
                if let address = EthereumAddress(String(match.output)) { ethereum.append(address) }
            }
            for match in text.matches(of: /[1-9A-HJ-NP-Za-km-z]{32,44}/)
            where Base58.decode(String(match.output), maxBytes: 32)?.count == 32 {
                solana.insert(String(match.output))
            }
            for match in text.matches(of: /[A-Za-z0-9+\/]{43}=/) {
                if let key = Base64.decode(String(match.output)), key.count == 32 { solana.insert(Base58.encode(key)) }
            }
        }
        return (ethereum, solana)
    }

    func testEveryShortAddressInTheDocsIsTheCodesShorteningOfOneShownInFull() throws {
        let (ethereum, solana) = try fullAddresses()
        let ethereumShort = Set(ethereum.map(\.short))
        // `KeystoreFile.Entry.shortAddress` of an Ed25519 key (KeystoreFileTests checks the rule).
        let solanaShort = Set(solana.map { "\($0.prefix(4))…\($0.suffix(4))" })
        var checked = 0
        for document in Self.documents {
            let text = try text(document)
            for match in text.matches(of: /[^0-9A-Za-z](0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4})(?![0-9A-Za-z])/) {
                checked += 1
                XCTAssertTrue(
                    ethereumShort.contains(String(match.output.1)),
                    "\(document): \(match.output.1) is not how the code shortens any address the docs show (\(ethereumShort.sorted()))"
                )
            }
            for match in text.matches(
                of: /[^0-9A-Za-z]([1-9A-HJ-NP-Za-km-z]{4}…[1-9A-HJ-NP-Za-km-z]{4})(?![0-9A-Za-z])/)
            {
                checked += 1
                XCTAssertTrue(
                    solanaShort.contains(String(match.output.1)),
                    "\(document): \(match.output.1) is not how the code shortens any key the docs show (\(solanaShort.sorted()))"
                )
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 3, "the docs' short addresses were not found")
    }

    func testTheEthereumExampleIsTheWellKnownFirstAddress() {
        // MetaMask's first address for the "abandon … about" phrase, which the docs use.
        XCTAssertEqual(EthereumAddress("0x9858EfFD232B4033E47d90003D41EC34EcaEda94")?.short, "0x9858…da94")
    }
}
