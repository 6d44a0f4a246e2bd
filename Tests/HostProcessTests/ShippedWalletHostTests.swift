import Foundation
import WalletBridgeTestSupport
import XCTest

/// The shipped `wallet-bridge` over real pipes, as a browser starts it: the keystore wallet and
/// the caller policy are wired in. Signing is covered end to end in Tests/system/test_wallet.py.
final class ShippedWalletHostTests: XCTestCase {
    private var home = ""

    /// The home is removed when the test ends, and the agent's socket with it: an agent whose
    /// socket is gone ends within a second.
    override func setUpWithError() throws {
        home = temporaryFolder(self, prefix: "shipped-wallet")
        try FileManager.default.createDirectory(
            atPath: "\(home)/.config/wallet-bridge", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: "\(home)/run", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    func testGetAccountsOnAnEmptyKeystoreIsAnEmptyList() throws {
        let replies = try exchange(
            caller: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
            [
                #"{"jsonrpc":"2.0","id":1,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#
            ])
        XCTAssertEqual(replies, [#"{"jsonrpc":"2.0","id":1,"result":{"addresses":[]}}"#])
    }

    func testAccountsAreServedWithoutStartingAThread() throws {
        // The shipped main has a top-level `await`, so it serves from inside the main task: the
        // `.immediate` GetAccounts must still run right there, not on a pool thread.
        var threads = 0
        let replies = try exchange(
            caller: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
            [
                #"{"jsonrpc":"2.0","id":1,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#
            ]
        ) { pid in threads = try LifecycleTests.threadCount(pid) }
        XCTAssertEqual(replies, [#"{"jsonrpc":"2.0","id":1,"result":{"addresses":[]}}"#])
        XCTAssertEqual(threads, 1)
    }

    func testTheConfiguredPolicyRefusesOtherCallers() throws {
        try #"{"allow": {"chrome-extension://abcdefghijklmnopabcdefghijklmnop/": ["*"]}}"#
            .write(toFile: "\(home)/.config/wallet-bridge/config.json", atomically: true, encoding: .utf8)
        let allowed = try exchange(
            caller: "chrome-extension://abcdefghijklmnopabcdefghijklmnop",
            [
                #"{"jsonrpc":"2.0","id":1,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#
            ])
        XCTAssertEqual(allowed, [#"{"jsonrpc":"2.0","id":1,"result":{"addresses":[]}}"#])
        let refused = try exchange(
            caller: "chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/",
            [
                #"{"jsonrpc":"2.0","id":1,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"anything.custom"}"#,
            ])
        XCTAssertEqual(refused.count, 2)
        for reply in refused { XCTAssertTrue(reply.contains(#""code":-1"#), reply) }
    }

    func testAnUnreadableConfigurationRefusesEveryone() throws {
        try "{".write(toFile: "\(home)/.config/wallet-bridge/config.json", atomically: true, encoding: .utf8)
        let replies = try exchange(
            caller: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
            [
                #"{"jsonrpc":"2.0","id":1,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#
            ])
        XCTAssertEqual(replies.count, 1)
        XCTAssertTrue(replies[0].contains(#""code":-1"#), replies[0])
    }

    /// Sends each request as a frame, reads one reply per request, hands the host's pid to
    /// `afterReplies`, then closes stdin.
    private func exchange(caller: String, _ requests: [String], afterReplies: (pid_t) throws -> Void = { _ in }) throws
        -> [String]
    {
        let process = Process()
        process.executableURL = try Self.shippedBinary()
        process.arguments = [caller]
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("WALLET_BRIDGE_") && !$0.key.hasPrefix("XDG_")
        }
        environment["HOME"] = home
        environment["XDG_RUNTIME_DIR"] = "\(home)/run"  // this test's own agent
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        for request in requests {
            var length = UInt32(request.utf8.count)
            input.fileHandleForWriting.write(Data(bytes: &length, count: 4) + Data(request.utf8))
        }
        var replies: [String] = []
        let reader = output.fileHandleForReading
        for _ in requests {
            let header = try Self.read(reader, count: 4)
            let length = header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
            replies.append(String(decoding: try Self.read(reader, count: Int(length)), as: UTF8.self))
        }
        try afterReplies(process.processIdentifier)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return replies.sorted()
    }

    private static func read(_ handle: FileHandle, count: Int) throws -> Data {
        var data = Data()
        while data.count < count {
            guard let chunk = try handle.read(upToCount: count - data.count), !chunk.isEmpty else {
                throw CocoaError(.fileReadUnknown)
            }
            data += chunk
        }
        return data
    }

    /// `wallet-bridge` beside the test bundle (SwiftPM builds every product with the tests),
    /// or `WALLET_BRIDGE_BIN`.
    private static func shippedBinary() throws -> URL {
        if let configured = ProcessInfo.processInfo.environment["WALLET_BRIDGE_BIN"] {
            return URL(fileURLWithPath: configured)
        }
        var folder = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("wallet-bridge")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw MissingBinary(near: Bundle.main.bundleURL.path)
    }
}

/// A failure, never a skip: these tests exist to run.
private struct MissingBinary: Error, CustomStringConvertible {
    let near: String
    var description: String { "wallet-bridge not found near \(near); build it or set WALLET_BRIDGE_BIN" }
}
