import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys
import WalletBridgeSessions

final class SodiumTests: XCTestCase {
    override func setUp() { useWeakKDF() }  // the derivations below use the weakest limits

    func testSecureBytesStartZeroedAndCopy() {
        let zeroed = SecureBytes(count: 48)
        XCTAssertEqual(zeroed.bytes, [UInt8](repeating: 0, count: 48))
        let copy = secure([1, 2, 3, 4, 5])
        XCTAssertEqual(copy.bytes, [1, 2, 3, 4, 5])
        XCTAssertEqual(copy.prefix(2).bytes, [1, 2])
        XCTAssertEqual(copy.slice(1..<4).bytes, [2, 3, 4])
        XCTAssertEqual(SecureBytes(count: 0).count, 0)
    }

    func testConstantTimeEquality() {
        XCTAssertTrue(secure("same").constantTimeEquals(secure("same")))
        XCTAssertFalse(secure("same").constantTimeEquals(secure("sane")))
        XCTAssertFalse(secure("same").constantTimeEquals(secure("same!")))
    }

    func testMemzeroClearsAnArray() {
        var bytes: [UInt8] = [9, 9, 9]
        Sodium.memzero(&bytes)
        XCTAssertEqual(bytes, [0, 0, 0])
    }

    func testAEADRoundTripAndEveryKindOfTampering() {
        let key = secure([UInt8](repeating: 7, count: AEAD.keyBytes))
        let nonce = Sodium.randomBytes(count: AEAD.nonceBytes)
        let plaintext = secure(Array("seed material".utf8))
        let sealed = AEAD.seal(plaintext, key: key, nonce: nonce, associatedData: [1, 2])
        XCTAssertEqual(sealed.count, plaintext.count + AEAD.tagBytes)
        XCTAssertEqual(AEAD.open(sealed, key: key, nonce: nonce, associatedData: [1, 2])?.bytes, plaintext.bytes)

        var flipped = sealed
        flipped[0] ^= 1
        XCTAssertNil(AEAD.open(flipped, key: key, nonce: nonce, associatedData: [1, 2]), "ciphertext")
        XCTAssertNil(AEAD.open(sealed, key: key, nonce: nonce, associatedData: [1, 3]), "associated data")
        var otherNonce = nonce
        otherNonce[5] ^= 1
        XCTAssertNil(AEAD.open(sealed, key: key, nonce: otherNonce, associatedData: [1, 2]), "nonce")
        XCTAssertNil(
            AEAD.open(
                sealed, key: secure([UInt8](repeating: 8, count: AEAD.keyBytes)), nonce: nonce, associatedData: [1, 2]),
            "key")
        XCTAssertNil(AEAD.open(Array(sealed.prefix(10)), key: key, nonce: nonce, associatedData: [1, 2]), "truncated")
    }

    func testPasswordHashIsDeterministicAndSaltDependent() throws {
        let salt = [UInt8](repeating: 3, count: PasswordHash.saltBytes)
        let first = try PasswordHash.deriveKey(
            keyBytes: 32, passphrase: secure("pass"), salt: salt, limits: .weakestForTests)
        let again = try PasswordHash.deriveKey(
            keyBytes: 32, passphrase: secure("pass"), salt: salt, limits: .weakestForTests)
        let otherSalt = try PasswordHash.deriveKey(
            keyBytes: 32, passphrase: secure("pass"), salt: [UInt8](repeating: 4, count: PasswordHash.saltBytes),
            limits: .weakestForTests)
        let otherPass = try PasswordHash.deriveKey(
            keyBytes: 32, passphrase: secure("Pass"), salt: salt, limits: .weakestForTests)
        XCTAssertEqual(first.bytes, again.bytes)
        XCTAssertNotEqual(first.bytes, otherSalt.bytes)
        XCTAssertNotEqual(first.bytes, otherPass.bytes)
    }

    func testAbsurdLimitsAreRefusedBeforeAnythingIsAllocated() {
        let salt = [UInt8](repeating: 3, count: PasswordHash.saltBytes)
        let hostile: [PasswordHash.Limits] = [
            .init(opslimit: 1, memlimit: 100 << 30),  // 100 GiB
            .init(opslimit: 1_000_000, memlimit: 8192),
            .init(opslimit: 0, memlimit: 8192),
            .init(opslimit: 1, memlimit: 1024),
        ]
        for limits in hostile {
            XCTAssertNotNil(limits.problem, "\(limits)")
            let started = ContinuousClock.now
            XCTAssertThrowsError(
                try PasswordHash.deriveKey(keyBytes: 32, passphrase: secure("p"), salt: salt, limits: limits)
            ) { error in
                guard case PasswordHash.Failure.limitsOutOfRange = error else { return XCTFail("\(error)") }
            }
            // Refused, not derived: deriving with hostile limits would take far longer.
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
        }
        XCTAssertNil(PasswordHash.Limits.moderate.problem)
        XCTAssertNil(PasswordHash.Limits.maximum.problem)
    }
}

final class Base58Tests: XCTestCase {
    func testKnownVectors() {
        // From the Bitcoin base58 test vectors, and Solana's all-zero key (the system program).
        let vectors: [([UInt8], String)] = [
            ([], ""),
            ([0], "1"),
            ([0, 0, 0, 1], "1112"),
            (Array("hello world".utf8), "StV1DL6CwTryKyV"),
            (
                [
                    0x00, 0xEB, 0x15, 0x23, 0x1D, 0xFC, 0xEB, 0x60, 0x92, 0x58, 0x86, 0xB6, 0x7D, 0x06, 0x52, 0x99,
                    0x92, 0x59, 0x15, 0xAE, 0xB1, 0x72, 0xC0, 0x66, 0x47,
                ],
                "1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L"
            ),
            ([UInt8](repeating: 0, count: 32), "11111111111111111111111111111111"),
            ([UInt8](repeating: 0xFF, count: 32), "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG"),
        ]
        for (bytes, text) in vectors {
            XCTAssertEqual(Base58.encode(bytes), text)
            XCTAssertEqual(Base58.decode(text, maxBytes: 64), bytes)
        }
    }

    func testRoundTripOfRandomKeysAndRejectionOfForeignCharacters() {
        for _ in 0..<200 {
            let bytes = Sodium.randomBytes(count: 32)
            XCTAssertEqual(Base58.decode(Base58.encode(bytes), maxBytes: 32), bytes)
        }
        for bad in ["0", "O", "I", "l", "abc+", "é"] { XCTAssertNil(Base58.decode(bad, maxBytes: 32), bad) }
    }

    /// Text longer than `maxBytes` can take is refused by its length, at once; text of the
    /// right length that decodes to too many bytes after decoding. Either way, nil.
    func testTextLongerThanTheLimitIsRefusedAndTheLimitIsExact() {
        let key = [UInt8](repeating: 0xFF, count: 32)
        XCTAssertEqual(Base58.encode(key).utf8.count, 44)
        XCTAssertEqual(Base58.maxCharacters(forBytes: 32), 44)
        XCTAssertEqual(Base58.decode(Base58.encode(key), maxBytes: 32), key)
        XCTAssertNil(Base58.decode(Base58.encode(key), maxBytes: 31))
        XCTAssertNil(Base58.decode(Base58.encode(key + [0xFF]), maxBytes: 32))
        XCTAssertEqual(Base58.decode(String(repeating: "1", count: 32), maxBytes: 32), [UInt8](repeating: 0, count: 32))
        XCTAssertNil(Base58.decode(String(repeating: "1", count: 33), maxBytes: 32))
        let started = ContinuousClock.now
        XCTAssertNil(Base58.decode(String(repeating: "z", count: 2_000_000), maxBytes: 32))
        // Not a speed test: decoding 2 MB of base58 (quadratic) would take hours, so a bound far
        // above any loaded machine's scheduling noise still tells refusing from decoding.
        XCTAssertLessThan(
            ContinuousClock.now - started, .seconds(5), "2 MB of base58 was decoded, not refused by its length")
        // The bound holds for every length: the longest text of n bytes (all 0xFF) fits.
        for count in [1, 2, 31, 32, 33, 100, 999, 1000, 1001, 4096] {
            let text = Base58.encode([UInt8](repeating: 0xFF, count: count))
            XCTAssertLessThanOrEqual(text.utf8.count, Base58.maxCharacters(forBytes: count), "\(count) bytes")
        }
    }

    /// The longest message a session signs decodes fast, and to the same bytes as the plain
    /// digit-by-digit algorithm (checked against random input of every length up to 300).
    func testLongInputDecodesFastAndMatchesTheEncoder() {
        for count in 0...300 {
            var bytes = Sodium.randomBytes(count: count)
            if count > 3 { bytes[0] = 0; bytes[1] = 0 }
            XCTAssertEqual(Base58.decode(Base58.encode(bytes), maxBytes: count), bytes, "\(count) bytes")
        }
        // 22,370 z's: 58^22370 - 1 needs 16,381 bytes, just under the limit. (Not made with
        // `encode`, whose own cost is quadratic: it only ever encodes keys and signatures.)
        let text = String(repeating: "z", count: 22_370)
        let started = ContinuousClock.now
        XCTAssertEqual(Base58.decode(text, maxBytes: SolanaMethod.maxMessageBytes)?.count, 16_381)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(1))
    }
}
