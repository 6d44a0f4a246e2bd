// For an extension developer's test target: each fixture file one line, from XCTest
// (`XCTAssertFixtures`) or Swift Testing (`expectFixtures`), against a built host or a router in
// process. Everything the runner has (`FixtureRunner`, `FixtureFile`, `HostProcess`) comes along.
@_exported import WalletBridgeFixtures
import Foundation
import Testing
import XCTest

extension HostUnderTest {
    /// An executable product of the package under test, built beside the test bundle (`swift
    /// build` and `swift test` put them in the same folder; `BuiltProducts`).
    public static func executable(_ name: String, arguments: [String] = [], environment: [String: String] = [:])
        -> HostUnderTest
    {
        .process(path: BuiltProducts.path(name), arguments: arguments, environment: environment)
    }

    /// A host executable at a full path.
    public static func path(_ path: String, arguments: [String] = [], environment: [String: String] = [:])
        -> HostUnderTest
    {
        .process(path: path, arguments: arguments, environment: environment)
    }
}

/// Where the package's built executables are: the folder of the running test bundle, or
/// `WALLET_BRIDGE_BUILD_DIR` when set.
public enum BuiltProducts {
    /// The folder.
    public static var directory: String {
        if let override = ProcessInfo.processInfo.environment["WALLET_BRIDGE_BUILD_DIR"] { return override }
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (me as NSString).deletingLastPathComponent
    }

    /// The path of the product `name` in it.
    public static func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    /// `path(name)`, or an error that says to build first when no executable is there.
    public static func executable(_ name: String) throws -> String {
        let path = path(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw FixtureTestError(description: "\(path) is missing: run `swift build` before `swift test`")
        }
        return path
    }
}

/// Runs every case of the fixture file (or folder) at `path` against `host`, in file order, each
/// file's `setup` cases first and `{tmpdir}` a folder of its own (docs/fixtures.md, "State");
/// each failing case is an `XCTFail` with its diff. A relative `path` is resolved against the folder of the test file
/// that calls it. Throws when the fixtures cannot be read or the host executable is missing.
///
/// Call it from a synchronous test method: with `.router`, the handlers need Swift's
/// concurrency pool while this waits for them.
public func XCTAssertFixtures(
    _ path: String, host: HostUnderTest, checkSchemas: Bool = true, timeout: TimeInterval = 5,
    file: StaticString = #filePath, line: UInt = #line
) throws {
    let run = try FixtureTest(path, host: host, checkSchemas: checkSchemas, timeout: timeout, calledFrom: "\(file)")
    let report = run.runner.run(run.files)
    for failure in run.failures(report) { XCTFail(failure, file: file, line: line) }
    // XCTest has no warnings: stderr, which `swift test` shows.
    for note in run.notes(report) { FileHandle.standardError.write(Data("\(file):\(line): warning: \(note)\n".utf8)) }
}

/// Runs every case of the fixture file (or folder) at `path` against `host`, in file order, each
/// file's `setup` cases first and `{tmpdir}` a folder of its own (docs/fixtures.md, "State");
/// each failing case is an issue with its diff, skipped cases and warnings are issues of warning severity. A relative
/// `path` is resolved against the folder of the test file that calls it. Throws when the
/// fixtures cannot be read or the host executable is missing.
///
/// Async because the cases run on a thread of their own: waiting on one of the concurrency
/// pool's few threads could starve the handlers of a `.router` host that need them.
public func expectFixtures(
    _ path: String, host: HostUnderTest, checkSchemas: Bool = true, timeout: TimeInterval = 5,
    filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let run = try FixtureTest(path, host: host, checkSchemas: checkSchemas, timeout: timeout, calledFrom: filePath)
    let report = await run.runner.runOnOwnThread(run.files)
    for failure in run.failures(report) { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    for note in run.notes(report) {
        Issue.record(Comment(rawValue: note), severity: .warning, sourceLocation: sourceLocation)
    }
}

extension FixtureCase: CustomTestStringConvertible {
    /// `file#case`, for parameterized tests over cases (`@Test(arguments:)`).
    public var testDescription: String { id }
}

/// What the two entry points share: the files, the runner, and how a report becomes messages.
struct FixtureTest {
    let files: [FixtureFile]
    let runner: FixtureRunner

    init(_ path: String, host: HostUnderTest, checkSchemas: Bool, timeout: TimeInterval, calledFrom testFile: String)
        throws
    {
        let resolved =
            path.hasPrefix("/")
            ? path : ((testFile as NSString).deletingLastPathComponent as NSString).appendingPathComponent(path)
        files = try FixtureFile.loadAll((resolved as NSString).standardizingPath)
        if let executable = host.executablePath, !FileManager.default.isExecutableFile(atPath: executable) {
            throw FixtureTestError(
                description:
                    "\(executable) is not an executable file: build the host first (`swift build`), or name it with .path(_:)"
            )
        }
        runner = FixtureRunner(host: host, timeout: timeout, checkSchemas: checkSchemas)
    }

    /// One message per failing case, with its diff; one more when no case ran at all, since a
    /// test that checked nothing must not pass.
    func failures(_ report: FixtureReport) -> [String] {
        var messages: [String] = []
        for outcome in report.outcomes {
            guard case .failed(let problems) = outcome.verdict else { continue }
            let rule = outcome.fixture.rule.map { " (\($0))" } ?? ""
            messages.append(
                "\(outcome.fixture.id) failed\(rule):\n" + problems.map(Self.indented).joined(separator: "\n"))
        }
        if report.passed == 0 && report.failed == 0 {
            let reasons = Set(
                report.outcomes.compactMap { if case .skipped(let reason) = $0.verdict { reason } else { nil } })
            messages.append(
                "none of the \(report.outcomes.count) cases could run against this host, so nothing was checked: "
                    + reasons.sorted().joined(separator: "; "))
        }
        return messages
    }

    /// The skipped cases, in one note, then each distinct warning.
    func notes(_ report: FixtureReport) -> [String] {
        let skipped = report.outcomes.compactMap { outcome in
            if case .skipped(let reason) = outcome.verdict { "\(outcome.fixture.id): \(reason)" } else { nil }
        }
        let skips =
            skipped.isEmpty || report.passed + report.failed == 0
            ? []
            : [
                "\(skipped.count) of \(report.outcomes.count) cases skipped:\n"
                    + skipped.map(Self.indented).joined(separator: "\n")
            ]
        return skips + report.distinctWarnings
    }

    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }
}

struct FixtureTestError: Error, CustomStringConvertible {
    let description: String
}
