import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys

/// SLIP-0010 for Ed25519 against the spec's own test vectors (satoshilabs/slips, slip-0010.md,
/// "Test vector 1 for ed25519" and "Test vector 2 for ed25519"): the private key and the public
/// key (the spec prefixes it with 00) at every listed path.
final class SLIP10Tests: XCTestCase {
    static let vector1Seed = "000102030405060708090a0b0c0d0e0f"
    static let vector1: [(path: String, privateKey: String, publicKey: String)] = [
        (
            "m",
            "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7",
            "a4b2856bfec510abab89753fac1ac0e1112364e7d250545963f135f2a33188ed"
        ),
        (
            "m/0'",
            "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3",
            "8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c"
        ),
        (
            "m/0'/1'",
            "b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2",
            "1932a5270f335bed617d5b935c80aedb1a35bd9fc1e31acafd5372c30f5c1187"
        ),
        (
            "m/0'/1'/2'",
            "92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9",
            "ae98736566d30ed0e9d2f4486a64bc95740d89c7db33f52121f8ea8f76ff0fc1"
        ),
        (
            "m/0'/1'/2'/2'",
            "30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662",
            "8abae2d66361c879b900d204ad2cc4984fa2aa344dd7ddc46007329ac76c429c"
        ),
        (
            "m/0'/1'/2'/2'/1000000000'",
            "8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793",
            "3c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a"
        ),
    ]

    static let vector2Seed =
        "fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542"
    static let vector2: [(path: String, privateKey: String, publicKey: String)] = [
        (
            "m",
            "171cb88b1b3c1db25add599712e36245d75bc65a1a5c9e18d76f9f2b1eab4012",
            "8fe9693f8fa62a4305a140b9764c5ee01e455963744fe18204b4fb948249308a"
        ),
        (
            "m/0'",
            "1559eb2bbec5790b0c65d8693e4d0875b1747f4970ae8b650486ed7470845635",
            "86fab68dcb57aa196c77c5f264f215a112c22a912c10d123b0d03c3c28ef1037"
        ),
        (
            "m/0'/2147483647'",
            "ea4f5bfe8694d8bb74b7b59404632fd5968b774ed545e810de9c32a4fb4192f4",
            "5ba3b9ac6e90e83effcd25ac4e58a1365a9e35a3d3ae5eb07b9e4d90bcf7506d"
        ),
        (
            "m/0'/2147483647'/1'",
            "3757c7577170179c7868353ada796c839135b3d30554bbb74a4b1e4a5a58505c",
            "2e66aa57069c86cc18249aecf5cb5a9cebbfd6fadeab056254763874a9352b45"
        ),
        (
            "m/0'/2147483647'/1'/2147483646'",
            "5837736c89570de861ebc173b1086da4f505d4adb387c6a1b1342d5e4ac9ec72",
            "e33c0f7d81d843c572275f287498e8d408654fdf0d1e065b84e2e6f157aab09b"
        ),
        (
            "m/0'/2147483647'/1'/2147483646'/2'",
            "551d333177df541ad876a60ea71f00447931c0a9da16f227c11ea080d7391b8d",
            "47150c75db263559a70d5778bf36abbab30fb061ad69f69ece61a72b0cfa4fc0"
        ),
    ]

    func testSpecVector1() throws {
        try check(seed: Self.vector1Seed, Self.vector1)
    }

    func testSpecVector2() throws {
        try check(seed: Self.vector2Seed, Self.vector2)
    }

    func testNonHardenedIndexIsRefused() throws {
        let seed = secure(bytes(hex: Self.vector1Seed))
        let path = try DerivationPath(parsing: "m/44'/501'/0'/0")
        XCTAssertFalse(path.isAllHardened)
        XCTAssertThrowsError(try SLIP10.ed25519Key(seed: seed, path: path)) { error in
            XCTAssertEqual(error as? SLIP10.Problem, .notHardened(position: 4))
            XCTAssertEqual(
                "\(error)",
                "Ed25519 derivation (SLIP-0010) allows only hardened indices: index 4 of the path is not hardened; "
                    + "write it with ' after the number, as in 0'")
        }
        XCTAssertThrowsError(try SLIP10.ed25519Key(seed: seed, path: DerivationPath(indices: [0]))) { error in
            XCTAssertEqual(error as? SLIP10.Problem, .notHardened(position: 1))
        }
        XCTAssertThrowsError(
            try SLIP10.ed25519Key(seed: seed, path: DerivationPath(indices: [DerivationPath.hardened, 5, 7]))
        ) {
            XCTAssertEqual($0 as? SLIP10.Problem, .notHardened(position: 2), "the first one is named")
        }
    }

    /// BIP-39 then SLIP-0010, end to end, as Phantom and Solflare derive their first account.
    /// The address was computed independently with bip_utils 2.12.3 (PyPI):
    ///
    ///     /tmp/pyv/bin/python -c "
    ///     from bip_utils import Bip39SeedGenerator, Bip44, Bip44Coins, Bip44Changes
    ///     seed = Bip39SeedGenerator('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about').Generate('')
    ///     acct = Bip44.FromSeed(seed, Bip44Coins.SOLANA).Purpose().Coin().Account(0).Change(Bip44Changes.CHAIN_EXT)
    ///     print(acct.PublicKey().ToAddress()); print(acct.PrivateKey().Raw().ToHex())"
    ///
    /// (Bip32Slip10Ed25519.FromSeed(seed).DerivePath("m/44'/501'/0'/0'") gives the same.)
    func testAbandonAboutAtSolanaDefaultPath() throws {
        let phrase = try BIP39.normalize(
            secure("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"))
        let seed = try BIP39.seed(phrase: phrase, passphrase: secure(""))
        let key = try SLIP10.ed25519Key(seed: seed, path: .solanaDefault)
        XCTAssertEqual(Hex.encode(key.bytes), "37df573b3ac4ad5b522e064e25b63ea16bcbe79d449e81a0268d1047948bb445")
        XCTAssertEqual(Base58.encode(publicKey(ofSeed: key.bytes)), "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk")
    }

    func testEverySeedLengthIsAccepted() throws {
        let long = secure(bytes(hex: Self.vector2Seed))
        XCTAssertEqual(long.count, 64)
        let short = secure(bytes(hex: Self.vector1Seed))
        XCTAssertEqual(short.count, 16)
        XCTAssertNotEqual(
            try SLIP10.ed25519Key(seed: long, path: .solanaDefault).bytes,
            try SLIP10.ed25519Key(seed: short, path: .solanaDefault).bytes)
    }

    private func check(
        seed: String, _ chain: [(path: String, privateKey: String, publicKey: String)],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let seed = secure(bytes(hex: seed))
        for step in chain {
            let key = try SLIP10.ed25519Key(seed: seed, path: DerivationPath(parsing: step.path))
            XCTAssertEqual(key.count, 32, step.path, file: file, line: line)
            XCTAssertEqual(Hex.encode(key.bytes), step.privateKey, step.path, file: file, line: line)
            XCTAssertEqual(Hex.encode(publicKey(ofSeed: key.bytes)), step.publicKey, step.path, file: file, line: line)
        }
    }
}

final class DerivationPathTests: XCTestCase {
    func testParsingAndPrintingRoundTrip() throws {
        let h = DerivationPath.hardened
        XCTAssertEqual(try DerivationPath(parsing: "m/44'/501'/0'/0'").indices, [44 | h, 501 | h, h, h])
        XCTAssertEqual(try DerivationPath(parsing: "m/44h/501H/0'/0h"), .solanaDefault)
        XCTAssertEqual(try DerivationPath(parsing: "m").indices, [])
        XCTAssertEqual(try DerivationPath(parsing: "m/44'/60'/0'/0/7").indices, [44 | h, 60 | h, h, 0, 7])
        XCTAssertEqual(try DerivationPath(parsing: "m/2147483647'/2147483647").indices, [UInt32.max, h - 1])
        XCTAssertEqual(try DerivationPath(parsing: "m/007'").description, "m/7'")
        for text in ["m", "m/0", "m/0'", "m/44'/501'/0'/0'", "m/44'/60'/0'/0/7", "m/2147483647'/1/2147483646'/2"] {
            let path = try DerivationPath(parsing: text)
            XCTAssertEqual(path.description, text)
            XCTAssertEqual(try DerivationPath(parsing: path.description), path)
            XCTAssertEqual(DerivationPath(indices: path.indices), path)
        }
        XCTAssertEqual(DerivationPath.solanaDefault.description, "m/44'/501'/0'/0'")
        XCTAssertEqual(DerivationPath.solana(account: 3).description, "m/44'/501'/3'/0'")
        XCTAssertEqual(DerivationPath.hardened, 0x8000_0000)
    }

    func testIsAllHardened() throws {
        XCTAssertTrue(DerivationPath.solanaDefault.isAllHardened)
        XCTAssertTrue(try DerivationPath(parsing: "m").isAllHardened)
        XCTAssertFalse(try DerivationPath(parsing: "m/44'/60'/0'/0/0").isAllHardened)
    }

    func testErrorsSayWhatIsWrongAndWhere() {
        func problem(_ text: String) -> DerivationPath.Problem? {
            do {
                _ = try DerivationPath(parsing: text)
                return nil
            } catch {
                return error
            }
        }
        for text in ["", "44'/501'", "/44'", "M/44'", " m/44'", "n/0'"] {
            XCTAssertEqual(problem(text), .missingRoot, text)
        }
        XCTAssertEqual(problem("")?.description, "a derivation path must start with m/, as in m/44'/501'/0'/0'")
        XCTAssertEqual(problem("m/"), .emptyIndex(position: 1))
        XCTAssertEqual(problem("m/44'//0'"), .emptyIndex(position: 2))
        XCTAssertEqual(problem("m/44'/"), .emptyIndex(position: 2))
        XCTAssertEqual(
            problem("m/44'//0'")?.description,
            "index 2 of the derivation path is empty: a slash with no number after it")
        XCTAssertEqual(problem("m/44'/x"), .invalidIndex(position: 2, text: "x"))
        XCTAssertEqual(
            problem("m/44'/x")?.description,
            "index 2 (\"x\") is not a number below 2^31 (with ' after it when hardened)")
        let notIndices = [
            "2147483648", "2147483648'", "4294967295", "99999999999999999999", "-1", "+1", "1''", "'", "h", "1 ",
            "0x10", "1'h", "\u{0661}",  // ARABIC-INDIC DIGIT ONE: a digit, but not an ASCII one
        ]
        for bad in notIndices {
            XCTAssertEqual(problem("m/0'/\(bad)"), .invalidIndex(position: 2, text: bad), bad)
        }
        let deep = "m" + String(repeating: "/0'", count: 256)
        XCTAssertEqual(problem(deep), .tooDeep(count: 256))
        XCTAssertEqual(problem(deep)?.description, "a derivation path has at most 255 indices; this one has 256")
        XCTAssertNil(problem("m" + String(repeating: "/0'", count: 255)))
    }
}

/// Bytes from lowercase hex (test vectors only).
private func bytes(hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    precondition(digits.count % 2 == 0)
    func nibble(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : digit - 0x61 + 10 }
    return stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
}
