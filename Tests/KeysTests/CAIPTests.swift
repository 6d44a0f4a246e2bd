@testable import WalletBridgeWallet
import XCTest
@testable import WalletBridgeKeys

final class CAIPTests: XCTestCase {
    private let solanaIDs = [
        "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
        "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z",
    ]

    func testTheThreeSolanaChainsOfTheDocument() throws {
        XCTAssertEqual(SolanaChain.all.map(\.description), solanaIDs)
        for text in solanaIDs {
            let chain = try XCTUnwrap(ChainID(text))
            XCTAssertEqual(chain.namespace, "solana")
            XCTAssertEqual(chain.reference, String(text.dropFirst("solana:".count)))
            XCTAssertEqual(chain.description, text)
        }
        XCTAssertEqual(SolanaChain.name(of: SolanaChain.mainnet), "Solana mainnet")
        XCTAssertEqual(SolanaChain.name(of: SolanaChain.devnet), "Solana devnet")
        XCTAssertEqual(SolanaChain.name(of: SolanaChain.testnet), "Solana testnet")
        XCTAssertNil(SolanaChain.name(of: ChainID("eip155:1")!))
        XCTAssertEqual(SolanaChain.devnet.displayName, "Solana devnet")
        XCTAssertEqual(ChainID("eip155:1")!.displayName, "Ethereum (eip155:1)")
        XCTAssertEqual(ChainID("eip155:424242")!.displayName, "eip155:424242")
        XCTAssertEqual(ChainID("cosmos:cosmoshub-4")!.displayName, "cosmos:cosmoshub-4")
    }

    func testNamespaceLengthsAndAlphabet() {
        XCTAssertNotNil(ChainID("abc:1"), "3 is the shortest namespace")
        XCTAssertNotNil(ChainID("abcdefgh:1"), "8 is the longest")
        XCTAssertNil(ChainID("ab:1"))
        XCTAssertNil(ChainID("abcdefghi:1"))
        XCTAssertNotNil(ChainID("eip155:1"))
        XCTAssertNotNil(ChainID("a-b:1"))
        XCTAssertNil(ChainID("Solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"), "uppercase namespace refused")
        XCTAssertNil(ChainID("SOLANA:1"))
        XCTAssertNil(ChainID("sol_ana:1"))
        XCTAssertNil(ChainID("solanä:1"), "ASCII only")
        XCTAssertNil(ChainID(":1"))
        XCTAssertTrue(ChainID.isNamespace("solana"))
        XCTAssertFalse(ChainID.isNamespace("Solana"))
    }

    func testReferenceLengthsAndAlphabet() {
        XCTAssertNotNil(ChainID("solana:a"), "1 is the shortest reference")
        XCTAssertNotNil(ChainID("solana:" + String(repeating: "a", count: 32)), "32 is the longest")
        XCTAssertNil(ChainID("solana:" + String(repeating: "a", count: 33)))
        XCTAssertNil(ChainID("solana:"))
        XCTAssertNil(ChainID("solana"))
        XCTAssertNotNil(ChainID("abc:A-b_9"))
        XCTAssertNil(ChainID("abc:a.b"))
        XCTAssertNil(ChainID("abc:a:b"), "a reference holds no colon")
        XCTAssertNil(ChainID("abc:a b"))
        XCTAssertNil(ChainID("abc:é"))
        XCTAssertNil(ChainID(namespace: "abc", reference: ""))
        XCTAssertEqual(ChainID(namespace: "abc", reference: "1"), ChainID("abc:1"))
    }

    func testChainsCompareAndHashByText() {
        let sorted = SolanaChain.all.sorted()
        XCTAssertEqual(sorted.map(\.description), solanaIDs.sorted())
        XCTAssertEqual(Set(solanaIDs.compactMap(ChainID.init) + [SolanaChain.mainnet]).count, 3)
    }

    func testAccountIDs() throws {
        let text = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv"
        let account = try XCTUnwrap(AccountID(text))
        XCTAssertEqual(account.chain, SolanaChain.mainnet)
        XCTAssertEqual(account.address, "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv")
        XCTAssertEqual(account.description, text)
        XCTAssertEqual(AccountID(chain: SolanaChain.mainnet, address: account.address), account)

        XCTAssertNotNil(AccountID("eip155:1:0xab16a96D359eC26a11e2C2b3d8f8B8942d5Bfcdb"))
        XCTAssertNotNil(AccountID("abc:1:a"), "1 is the shortest address")
        XCTAssertNotNil(AccountID("abc:1:" + String(repeating: "a", count: 128)), "128 is the longest")
        XCTAssertNil(AccountID("abc:1:" + String(repeating: "a", count: 129)))
        XCTAssertNil(AccountID("abc:1:"))
        XCTAssertNotNil(AccountID("abc:1:a.b-c%20"))
        XCTAssertNil(AccountID("abc:1:a_b"), "no underscore in an address")
        XCTAssertNil(AccountID("abc:1:a/b"))
        XCTAssertNil(AccountID("abc:1"), "a chain alone is not an account")
        XCTAssertNil(AccountID("Abc:1:a"), "the chain part is checked too")
        XCTAssertNil(AccountID("abc:1:2:a"), "three colons")
        XCTAssertNil(AccountID(chain: SolanaChain.mainnet, address: ""))
    }
}
