import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
import WalletBridgeKeys

final class SecretKeyInputTests: XCTestCase {
    private let seed = (0..<32).map { UInt8($0 * 7 % 256) }
    private var secretKey: [UInt8] { seed + publicKey(ofSeed: seed) }

    private func decode(_ text: String, _ format: SecretKeyInput.Format = .auto) throws -> [UInt8] {
        try SecretKeyInput.decode(secure(text), format: format).bytes
    }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    func testAutoDetectsEveryForm() throws {
        XCTAssertEqual(try decode(hex(seed)), seed)
        XCTAssertEqual(try decode(hex(secretKey).uppercased() + "\n"), secretKey)
        XCTAssertEqual(try decode("0x" + hex(seed) + "\n"), seed, "as Ethereum's tools write a secret")
        XCTAssertEqual(try decode("0x" + hex(seed), .hex), seed)
        XCTAssertThrowsError(try decode("0x0x" + hex(seed), .hex))
        XCTAssertEqual(try decode(Base64.encode(seed)), seed)
        XCTAssertEqual(try decode("  " + Base64.encode(secretKey) + "\r\n"), secretKey)
        let urlSafeUnpadded = Base64.encode(secretKey).replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        XCTAssertEqual(try decode(urlSafeUnpadded), secretKey)
        XCTAssertEqual(try decode("[" + secretKey.map(String.init).joined(separator: ", ") + "]\n"), secretKey)
        XCTAssertEqual(try SecretKeyInput.decode(secure(seed), format: .auto).bytes, seed, "raw bytes")
        XCTAssertEqual(try SecretKeyInput.decode(secure(secretKey), format: .raw).bytes, secretKey)
    }

    func testRawInputEndingInALineFeedIsKeptWhole() throws {
        var bytes = [UInt8](repeating: 0x80, count: 31)
        bytes.append(0x0A)
        XCTAssertEqual(try SecretKeyInput.decode(secure(bytes), format: .auto).bytes, bytes)
    }

    func testWrongSizesAndMalformedInputAreRefusedWithoutEchoingThem() {
        let bad: [(String, SecretKeyInput.Format)] = [
            (hex(Array(seed.prefix(31))), .hex), ("zz" + hex(Array(seed.prefix(31))), .hex),
            (Base64.encode(Array(seed.prefix(20))), .base64), ("[1,2,3]", .json),
            ("[256" + String(repeating: ",1", count: 31) + "]", .json),
            ("[1 2" + String(repeating: ",1", count: 30) + "]", .json), ("[,]", .json), ("hello", .auto), ("abc", .raw),
        ]
        for (input, format) in bad {
            XCTAssertThrowsError(try decode(input, format), "\(input) as \(format)") { error in
                guard case .invalidSecretKey(let reason)? = error as? KeystoreError else { return XCTFail("\(error)") }
                XCTAssertFalse(reason.contains(input), "the message must not quote the input")
            }
        }
    }
}
