import WalletBridgeWallet
import XCTest

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
        XCTAssertNil(AEAD.open(sealed, key: secure([UInt8](repeating: 8, count: AEAD.keyBytes)), nonce: nonce, associatedData: [1, 2]), "key")
        XCTAssertNil(AEAD.open(Array(sealed.prefix(10)), key: key, nonce: nonce, associatedData: [1, 2]), "truncated")
    }

    func testPasswordHashIsDeterministicAndSaltDependent() throws {
        let salt = [UInt8](repeating: 3, count: PasswordHash.saltBytes)
        let first = try PasswordHash.deriveKey(keyBytes: 32, passphrase: secure("pass"), salt: salt, limits: .weakestForTests)
        let again = try PasswordHash.deriveKey(keyBytes: 32, passphrase: secure("pass"), salt: salt, limits: .weakestForTests)
        let otherSalt = try PasswordHash.deriveKey(
            keyBytes: 32, passphrase: secure("pass"), salt: [UInt8](repeating: 4, count: PasswordHash.saltBytes), limits: .weakestForTests)
        let otherPass = try PasswordHash.deriveKey(keyBytes: 32, passphrase: secure("Pass"), salt: salt, limits: .weakestForTests)
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
            XCTAssertThrowsError(try PasswordHash.deriveKey(keyBytes: 32, passphrase: secure("p"), salt: salt, limits: limits)) { error in
                guard case PasswordHash.Failure.limitsOutOfRange = error else { return XCTFail("\(error)") }
            }
            XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(100))
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
            ([0x00, 0xEB, 0x15, 0x23, 0x1D, 0xFC, 0xEB, 0x60, 0x92, 0x58, 0x86, 0xB6, 0x7D, 0x06, 0x52, 0x99, 0x92, 0x59, 0x15, 0xAE, 0xB1, 0x72, 0xC0, 0x66, 0x47],
             "1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L"),
            ([UInt8](repeating: 0, count: 32), "11111111111111111111111111111111"),
            ([UInt8](repeating: 0xFF, count: 32), "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG"),
        ]
        for (bytes, text) in vectors {
            XCTAssertEqual(Base58.encode(bytes), text)
            XCTAssertEqual(Base58.decode(text), bytes)
        }
    }

    func testRoundTripOfRandomKeysAndRejectionOfForeignCharacters() {
        for _ in 0..<200 {
            let bytes = Sodium.randomBytes(count: 32)
            XCTAssertEqual(Base58.decode(Base58.encode(bytes)), bytes)
        }
        for bad in ["0", "O", "I", "l", "abc+", "é"] { XCTAssertNil(Base58.decode(bad), bad) }
    }
}
