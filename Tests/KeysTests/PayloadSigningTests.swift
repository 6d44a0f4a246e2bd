import FoundationEssentials
import WalletBridge
import WalletBridgeWallet
import XCTest
import WalletBridgeKeys

/// The wallet's own base64 against Foundation's, and the signing shortcut (the request's base64
/// reused for the payload's whole groups) against the plain definition.
final class PayloadSigningTests: XCTestCase {
    private var generator = SystemRandomNumberGenerator()

    private func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    func testEncodingMatchesFoundationAndRoundTrips() {
        for count in 0...300 {
            let bytes = randomBytes(count)
            let encoded = Base64.encode(bytes)
            XCTAssertEqual(encoded, Data(bytes).base64EncodedString(), "length \(count)")
            XCTAssertEqual(Base64.decode(encoded), bytes, "length \(count)")
        }
    }

    func testDecodingRefusesEverythingButCanonicalPaddedBase64() {
        XCTAssertEqual(Base64.decode("QQ=="), [0x41])
        XCTAssertEqual(Base64.decode("QUI="), [0x41, 0x42])
        XCTAssertEqual(Base64.decode("+/8="), [0xFB, 0xFF])
        XCTAssertEqual(Base64.decode(""), [])
        for text in [
            "QR==", "QUJ=",  // bits set after the last byte (Foundation accepts these)
            "QUJD====", "Q===", "====",  // too much padding (Foundation accepts the first)
            "QQ", "QQ=", "QUJDR",  // not a multiple of four
            "QU JD", "QUJD\n",  // whitespace
            "-_8=", "QQ==QQ==", "=QUJ", "QUJ\u{0}", "é===",
        ] {
            XCTAssertNil(Base64.decode(text), text.debugDescription)
        }
    }

    func testSigningMatchesThePlainDefinitionForEveryTailLength() throws {
        Ed25519.initialize()
        var publicKey = [UInt8](repeating: 0, count: Ed25519.publicKeyBytes)
        var secretKey = [UInt8](repeating: 0, count: Ed25519.secretKeyBytes)
        Ed25519.keyPair(seed: [UInt8](repeating: 3, count: 32), publicKey: &publicKey, secretKey: &secretKey)
        let payloads = (1...40).map { randomBytes($0) } + [randomBytes(1024), randomBytes(1025), randomBytes(1026)]
        let decoded = try PayloadSigning.decodePayloads(payloads.map(Base64.encode), maxPayloads: 100)
        let signed = secretKey.withUnsafeBytes { PayloadSigning.sign(decoded, secretKey: $0) }
        XCTAssertEqual(signed.count, payloads.count)
        for (payload, text) in zip(payloads, signed) {
            let signature = secretKey.withUnsafeBytes { Ed25519.sign(payload, secretKey: $0) }
            XCTAssertEqual(text, Base64.encode(payload + signature), "length \(payload.count)")
            XCTAssertTrue(Ed25519.verify(signature, message: payload, publicKey: publicKey))
        }
    }
}
