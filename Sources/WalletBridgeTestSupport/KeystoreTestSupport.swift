#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeSystem
import Synchronization
import XCTest

package func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
}

package func readBytes(_ path: String) throws -> [UInt8] {
    try XCTUnwrap(try AtomicFile.read(path, maxBytes: 1 << 24))
}

package func writeBytes(_ bytes: [UInt8], _ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

package func secure(_ text: String) -> SecureBytes {
    Array(text.utf8).withUnsafeBytes { SecureBytes(copying: $0) }
}

package func secure(_ bytes: [UInt8]) -> SecureBytes {
    bytes.withUnsafeBytes { SecureBytes(copying: $0) }
}

extension SecureBytes {
    package var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}

/// Every test that creates a keystore uses libsodium's minimum Argon2 limits: the stored
/// limits are read back from the file, so the code paths are the same, only faster.
package func useWeakKDF() {
    setenv("WALLET_BRIDGE_TEST_WEAK_KDF", "1", 1)
}

/// The package's root folder, found from this file's location.
package let packageRoot: String = {
    let thisFile = #filePath
    return String(thisFile[..<thisFile.range(of: "/Sources/WalletBridgeTestSupport/")!.lowerBound])
}()

/// Tests/Support/fake-pinentry.
package let fakePinentryPath = "\(packageRoot)/Tests/Support/fake-pinentry"

/// Seeds that are public test vectors, never real keys.
package let testSeedA = [UInt8](repeating: 0xA1, count: 32)
package let testSeedB = [UInt8](repeating: 0xB2, count: 32)

package func publicKey(ofSeed seed: [UInt8]) -> [UInt8] {
    var publicKey = [UInt8](repeating: 0, count: 32)
    var secretKey = [UInt8](repeating: 0, count: 64)
    Ed25519.initialize()
    Ed25519.keyPair(seed: seed, publicKey: &publicKey, secretKey: &secretKey)
    return publicKey
}

/// The `field` and `problem` of the -32602 that `parse` throws; nil (and a failure) when it
/// parses or throws something else.
package func invalidParamsFault(
    _ parse: () throws(RPCError) -> Void, file: StaticString = #filePath, line: UInt = #line
) -> (field: String, problem: String)? {
    do {
        try parse()
        XCTFail("parsed", file: file, line: line)
        return nil
    } catch {
        XCTAssertEqual(error.code, .invalidParams, file: file, line: line)
        guard case .object(let data)? = error.data, case .string(let field)? = data["field"],
            case .string(let problem)? = data["problem"]
        else {
            XCTFail("data \(String(describing: error.data))", file: file, line: line)
            return nil
        }
        return (field, problem)
    }
}

/// Texts kept from any thread, in the order they came: what a recording pinentry or person was shown.
package final class Recorder: Sendable {
    private let recorded = Mutex<[String]>([])
    package init() {}
    package func add(_ value: String) { recorded.withLock { $0.append(value) } }
    package var values: [String] { recorded.withLock { $0 } }
}
