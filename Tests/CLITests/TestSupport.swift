import Foundation
import WalletBridgeTestSupport
import WalletBridgeTesting
import XCTest

@testable import WalletBridgeCLI

/// A temporary folder laid out like a small machine: `home/`, `config/` (XDG_CONFIG_HOME),
/// `bin/` (the only PATH entry) and `root/` (every system path, via WALLET_BRIDGE_SYSTEM_ROOT).
/// Nothing a test does reaches the real home, `/etc` or this machine's browsers.
final class Sandbox {
    let base: String
    var home: String { base + "/home" }
    var config: String { base + "/config" }
    var bin: String { base + "/bin" }
    var root: String { base + "/root" }
    /// XDG_RUNTIME_DIR: a host started here starts its agent with its socket here, and the
    /// agent ends within a second of the sandbox's removal (its socket is gone).
    var runtime: String { base + "/run" }

    init() throws {
        base = try makeTemporaryFolder(prefix: "wallet-bridge-cli-tests")
        for folder in [home, config, bin, root] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit { try? removeTree(base) }

    /// The variables a child process gets: only these, so the caller's environment cannot leak in.
    var variables: [String: String] {
        [
            "HOME": home, "XDG_CONFIG_HOME": config, "XDG_RUNTIME_DIR": runtime, "PATH": bin,
            CLIEnvironment.systemRootVariable: root,
        ]
    }

    /// The same, for calling the code in-process.
    var environment: CLIEnvironment {
        CLIEnvironment(variables: variables, systemRoot: root, workingDirectory: base)
    }

    /// Makes `browser` look installed, the way its first run would: the profile marker.
    func installBrowser(_ id: String) throws {
        let browser = try XCTUnwrap(BrowserCatalog.named(id))
        let marker = Path.join(browser.userBasePath(in: environment), browser.profileMarkers[0])
        try FileManager.default.createDirectory(atPath: Path.parent(marker), withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: marker, contents: Data())
    }

    @discardableResult
    func write(_ path: String, _ text: String, mode: Int = 0o644) throws -> String {
        try FileManager.default.createDirectory(atPath: Path.parent(path), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every path under the sandbox with its type, mode and content: two equal snapshots mean
    /// an identical tree.
    func snapshot() throws -> [String: String] {
        var entries: [String: String] = [:]
        let manager = FileManager.default
        let enumerator = try XCTUnwrap(manager.enumerator(atPath: base))
        while let relative = enumerator.nextObject() as? String {
            let path = base + "/" + relative
            let attributes = try manager.attributesOfItem(atPath: path)
            let type = attributes[.type] as? FileAttributeType
            let mode = String((attributes[.posixPermissions] as? Int) ?? -1, radix: 8)
            if type == .typeDirectory {
                entries[relative] = "dir \(mode)"
            } else if type == .typeSymbolicLink {
                entries[relative] = "link \(try manager.destinationOfSymbolicLink(atPath: path))"
            } else {
                entries[relative] = "file \(mode) " + (read(path) ?? "<unreadable>")
            }
        }
        return entries
    }
}

/// The executables `swift build` put next to the test bundle.
enum Built {
    static func walletBridge() throws -> String { try BuiltProducts.executable("wallet-bridge") }
    static func conformanceHost() throws -> String { try BuiltProducts.executable("wallet-bridge-conformance-host") }
}

/// The outcome of running a command to completion.
struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var output: String { stdout + stderr }
}

/// Runs `executable` with exactly `environment`, stdin from /dev/null, and collects its output.
/// Output goes through files, not pipes, so a chatty child can never block on a full pipe.
func runProcess(_ executable: String, _ arguments: [String], environment: [String: String], in directory: String? = nil)
    throws -> Run
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let scratch = NSTemporaryDirectory() + "wallet-bridge-run-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: scratch + ".out", contents: nil)
    _ = FileManager.default.createFile(atPath: scratch + ".err", contents: nil)
    defer {
        try? FileManager.default.removeItem(atPath: scratch + ".out")
        try? FileManager.default.removeItem(atPath: scratch + ".err")
    }
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + ".out"))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + ".err"))
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    let stdout = String(decoding: FileManager.default.contents(atPath: scratch + ".out") ?? Data(), as: UTF8.self)
    let stderr = String(decoding: FileManager.default.contents(atPath: scratch + ".err") ?? Data(), as: UTF8.self)
    return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

extension Sandbox {
    /// Runs the built `wallet-bridge` in this sandbox.
    func walletBridge(_ arguments: String...) throws -> Run {
        try walletBridge(arguments)
    }

    func walletBridge(_ arguments: [String]) throws -> Run {
        try runProcess(try Built.walletBridge(), arguments, environment: variables, in: base)
    }
}

/// IDs used throughout: well-formed, and not anyone's real extension.
enum TestIDs {
    static let chromeID = "abcdefghijklmnopabcdefghijklmnop"
    static let chromeOrigin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
    static let otherChromeID = "ponmlkjihgfedcbaponmlkjihgfedcba"
    static let firefoxID = "wallet@example.org"
    static let firefoxGUID = "{12345678-9abc-def0-1234-56789abcdef0}"
}
