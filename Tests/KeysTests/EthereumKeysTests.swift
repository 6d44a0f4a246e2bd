@testable import WalletBridgeWallet
import WalletBridge
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys

/// Ethereum's building blocks against published vectors, and secp256k1 keys in the keystore.
final class EthereumKeysTests: XCTestCase {
    private func hex(_ text: String) -> [UInt8] { Hex.decode(text)! }

    // MARK: Keccak-256

    /// The empty string, "abc" and the pangram are the Keccak team's and Ethereum's usual
    /// vectors; the lengths around the 136-byte rate (where the padding moves into a block of
    /// its own) were computed with pycryptodome 3.24.1's Keccak (through eth-hash 0.8.0).
    func testKeccak256AgainstPublishedVectors() {
        XCTAssertEqual(
            Hex.encode(Keccak256.hash([])), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
        XCTAssertEqual(
            Hex.encode(Keccak256.hash(Array("abc".utf8))),
            "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
        XCTAssertEqual(
            Hex.encode(Keccak256.hash(Array("The quick brown fox jumps over the lazy dog".utf8))),
            "4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15")
        let lengths: [(Int, String)] = [
            (135, "154f5dc27520a599653a2b10189cf53f5ce03b7c594d11fd98f67012ea304b6c"),
            (136, "81e7ecb492d033f1692e770a6eb874e70aac45ec10da93483fc8d3537805c097"),
            (137, "a595973359b39ba1fec5cf8f40710c5a213e76281dd4f174f1ea83106ee7759b"),
            (272, "99d5a295c114ab3f94028d25825ea798399dacfc613f0193fb32c3c4973f1777"),
            (1000, "82bc59cea7b5eac6d5e84cfabd1450ecba233bc6c0b375bda57dd7848a088ce6"),
        ]
        for (length, digest) in lengths {
            let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7) }
            XCTAssertEqual(Hex.encode(Keccak256.hash(input)), digest, "\(length) bytes")
        }
    }

    // MARK: EIP-55

    /// EIP-55's own examples: the checksum written, and read back.
    func testEIP55Checksums() throws {
        for address in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            XCTAssertEqual(try XCTUnwrap(EthereumAddress(address.lowercased())).description, address)
            XCTAssertEqual(EthereumAddress(address)?.description, address)
            XCTAssertNotNil(
                EthereumAddress("0x" + address.dropFirst(2).uppercased()), "all uppercase carries no checksum")
        }
        // One letter's case flipped: a typo, refused.
        XCTAssertNil(EthereumAddress("0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"))
        for bad in [
            "", "0x", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg",
        ] {
            XCTAssertNil(EthereumAddress(bad), bad)
        }
        XCTAssertEqual(EthereumAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")?.short, "0x5aAe…eAed")
    }

    // MARK: BIP-32

    /// BIP-32's own "Test vector 1": the private key at every listed path, hardened and not.
    func testBIP32TestVector1() throws {
        let seed = secure(hex("000102030405060708090a0b0c0d0e0f"))
        let vector: [(String, String)] = [
            ("m", "e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35"),
            ("m/0'", "edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea"),
            ("m/0'/1", "3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368"),
            ("m/0'/1/2'", "cbce0d719ecf7431d88e6a89fa1483e02e35092af60c042b1df2ff59fa424dca"),
            ("m/0'/1/2'/2", "0f479245fb19a38a1954c5c7c0ebab2f9bdfd96a17563ef28a6a4b1a2a764ef4"),
            ("m/0'/1/2'/2/1000000000", "471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8"),
        ]
        for (path, key) in vector {
            let derived = try BIP32.secp256k1Key(seed: seed, path: DerivationPath(parsing: path))
            XCTAssertEqual(Hex.encode(derived.bytes), key, path)
        }
    }

    /// The phrase every wallet's tests use ("abandon" × 11, "about"), at MetaMask's first two
    /// addresses: the addresses every Ethereum wallet shows for it.
    func testTheStandardPhraseGivesMetaMasksAddresses() throws {
        let phrase = try BIP39.normalize(
            secure(Array(String(repeating: "abandon ", count: 11).utf8) + Array("about".utf8)))
        let expected = ["0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0"]
        for (index, address) in expected.enumerated() {
            let secret = try Keystore.seed(
                fromPhrase: phrase, bip39Passphrase: SecureBytes(count: 0), path: .ethereum(index: UInt32(index)),
                type: .secp256k1)
            XCTAssertEqual(
                EthereumAddress(publicKey: try XCTUnwrap(Secp256k1.publicKey(of: secret)))?.description, address)
        }
        XCTAssertEqual(DerivationPath.ethereum(index: 3).description, "m/44'/60'/0'/0/3")
    }

    // MARK: secp256k1

    /// A signature recovers to its signer; v is 27 or 28; the same key and digest give the same
    /// signature (RFC 6979), and another digest another one.
    func testSignaturesRecoverToTheSigner() throws {
        let secret = secure(Keccak256.hash(Array("cow".utf8)))
        let publicKey = try XCTUnwrap(Secp256k1.publicKey(of: secret))
        XCTAssertEqual(EthereumAddress(publicKey: publicKey)?.description, "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")
        let digest = EthereumSigningRequest.personalMessageDigest(Array("hello".utf8))
        let signature = try XCTUnwrap(Secp256k1.sign(digest: digest, secretKey: secret))
        XCTAssertEqual(signature.count, 65)
        XCTAssertTrue([27, 28].contains(signature[64]))
        XCTAssertEqual(Secp256k1.sign(digest: digest, secretKey: secret), signature)
        XCTAssertEqual(Secp256k1.recover(signature: signature, digest: digest), Secp256k1.uncompressed(publicKey))
        let other = Keccak256.hash(Array("other".utf8))
        XCTAssertNotEqual(Secp256k1.recover(signature: signature, digest: other), Secp256k1.uncompressed(publicKey))
        XCTAssertNil(Secp256k1.sign(digest: Array(digest.prefix(31)), secretKey: secret))
        XCTAssertNil(Secp256k1.publicKey(of: secure([UInt8](repeating: 0, count: 32))), "zero is no secret key")
        XCTAssertNil(Secp256k1.publicKey(of: secure([UInt8](repeating: 0xFF, count: 32))), "above the group order")
    }

    /// EIP-191's prefix: "\x19Ethereum Signed Message:\n", the length in decimal, the message.
    func testPersonalMessageDigest() {
        let message = Array("hello".utf8)
        XCTAssertEqual(
            EthereumSigningRequest.personalMessageDigest(message),
            Keccak256.hash(Array("\u{19}Ethereum Signed Message:\n5hello".utf8)))
    }

    // MARK: The keystore

    func testAnEthereumKeyInTheKeystore() throws {
        useWeakKDF()
        let keystore = Keystore(path: "\(temporaryFolder(self))/keystore.json")
        let solana = try keystore.create(label: "sol", passphrase: secure("pass one"))
        let ethereum = try keystore.create(label: "eth", type: .secp256k1, passphrase: secure("pass one"))
        XCTAssertEqual(ethereum.type, .secp256k1)
        XCTAssertEqual(ethereum.publicKey.count, 33)
        let address = try XCTUnwrap(ethereum.ethereumAddress)
        XCTAssertEqual(ethereum.address, address.description)
        XCTAssertEqual(ethereum.displayAddress, address.description)

        let file = try XCTUnwrap(try keystore.read())
        XCTAssertEqual(file.keys, [solana, ethereum], "read back as written")
        XCTAssertEqual(file.entry(matching: address.description.lowercased()), ethereum)
        XCTAssertEqual(file.entry(matching: "eth"), ethereum)
        XCTAssertNil(
            file.entry(address: Base64.encode(ethereum.publicKey)), "walletlib's base64 addresses are Ed25519 keys only"
        )

        // Unlocked, it signs as its address.
        let secret = try Keystore.unlock(ethereum, in: file, passphrase: secure("pass one"))
        XCTAssertEqual(secret.count, 32)
        let digest = Keccak256.hash(Array("x".utf8))
        let signature = try XCTUnwrap(Secp256k1.sign(digest: digest, secretKey: secret))
        let recovered = try XCTUnwrap(Secp256k1.recover(signature: signature, digest: digest))
        XCTAssertEqual(EthereumAddress(publicKey: recovered), address)

        // GetAccounts shows the Solana key alone; a session's eip155 accounts the Ethereum one.
        let contents = try KeystoreReadCache().read(keystore)
        XCTAssertEqual(contents.addresses, [solana.address])
        XCTAssertEqual(contents.ethereumAddresses, [address])
    }

    func testAnEthereumKeyFromItsSecretAndFromAPhrase() throws {
        useWeakKDF()
        let keystore = Keystore(path: "\(temporaryFolder(self))/keystore.json")
        let secret = Keccak256.hash(Array("cow".utf8))
        let imported = try keystore.importKey(
            secure(secret), type: .secp256k1, label: "cow", passphrase: secure("pass one"))
        XCTAssertEqual(imported.address, "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826")
        XCTAssertEqual(imported.origin, .imported)
        XCTAssertThrowsError(
            try keystore.importKey(secure(secret), type: .secp256k1, label: "again", passphrase: secure("pass one")))
        XCTAssertThrowsError(
            try keystore.importKey(
                secure([UInt8](repeating: 0xFF, count: 32)), type: .secp256k1, label: "x",
                passphrase: secure("pass one")))

        let phrase = try BIP39.normalize(
            secure(Array(String(repeating: "abandon ", count: 11).utf8) + Array("about".utf8)))
        let derived = try keystore.addFromPhrase(
            phrase, bip39Passphrase: SecureBytes(count: 0), path: .ethereum(index: 0), type: .secp256k1, label: nil,
            passphrase: secure("pass one"))
        XCTAssertEqual(derived.address, "0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
        XCTAssertEqual(derived.origin, .recoveryPhrase(path: "m/44'/60'/0'/0/0"))
        XCTAssertEqual(try keystore.verify(passphrase: secure("pass one")), 2)
    }

    /// A secp256k1 entry whose public key is not a curve point is a damaged file, named as such.
    func testAKeystoreWithABrokenSecp256k1KeyIsDamaged() throws {
        useWeakKDF()
        let path = "\(temporaryFolder(self))/keystore.json"
        let keystore = Keystore(path: path)
        let entry = try keystore.create(label: "eth", type: .secp256k1, passphrase: secure("pass one"))
        var text = String(decoding: try XCTUnwrap(try keystore.read()).encode(), as: UTF8.self)
        var broken = entry.publicKey
        broken[0] = 0x05  // neither 02 nor 03
        text = text.replacingOccurrences(of: Base64.encode(entry.publicKey), with: Base64.encode(broken))
        XCTAssertThrowsError(try KeystoreFile.decode(Array(text.utf8), path: path)) { error in
            XCTAssertTrue("\(error)".contains("keys[0].public_key is not a secp256k1 public key"), "\(error)")
        }
    }

    // MARK: Consent

    /// Typed data with many long fields still fits one Assuan line with everything else the
    /// dialog says, and counts the fields it leaves out.
    func testTypedDataConsentFitsTheDialog() throws {
        var fields: [JSONValue] = []
        var message: [String: JSONValue] = [:]
        for index in 0..<40 {
            fields.append(["name": .string("field\(index)"), "type": "string"])
            message["field\(index)"] = .string(String(repeating: "%ü", count: 100))
        }
        let document: JSONValue = [
            "types": [
                "EIP712Domain": [["name": "name", "type": "string"], ["name": "chainId", "type": "uint256"]],
                "Big": .array(fields),
            ],
            "primaryType": "Big", "domain": ["name": .string(String(repeating: "n", count: 300)), "chainId": 1],
            "message": .object(message),
        ]
        let data = try TypedData(parsing: document, field: "request.params[1]")
        var request = ConsentRequest(
            caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"),
            callerName: String(repeating: "N", count: 200),
            keyLabel: String(repeating: "L", count: 64), shortAddress: "0x5aAe…eAed", payloads: [])
        request.ethereum = .typedData(data, chain: EIP155.mainnet)
        request.rememberMinutes = 15
        let description = request.description(for: .confirmation)
        XCTAssertTrue(description.contains("asks to sign typed data (EIP-712) on Ethereum (eip155:1)"), description)
        XCTAssertTrue(description.contains("Type: Big"), description)
        XCTAssertTrue(description.contains(" fields not shown: "), description)
        XCTAssertTrue(
            description.hasSuffix("for the next 15 minutes without asking."),
            "the buttons' explanation survives: \(description)")
        let escapedBytes = description.unicodeScalars.reduce(0) { $0 + ($1 == "%" || $1 == "\n" ? 3 : UTF8.width($1)) }
        XCTAssertLessThanOrEqual(escapedBytes + "SETDESC ".utf8.count, 1000, description)
    }

    func testPersonalSignConsentShowsTextOrHex() {
        let text = EthereumConsent.message(Array("Sign in to example.org\nNonce: 1".utf8), chain: EIP155.mainnet)
        XCTAssertEqual(text.lines, ["Text: \"Sign in to example.org ⏎ Nonce: 1\""])
        XCTAssertEqual(text.chain, "Ethereum (eip155:1)")
        let binary = EthereumConsent.message([0x00, 0xFF, 0x10], chain: ChainID("eip155:424242")!)
        XCTAssertEqual(binary.lines, ["3 bytes, not text: 0x00ff10"])
        XCTAssertEqual(binary.chain, "eip155:424242")
    }
}
