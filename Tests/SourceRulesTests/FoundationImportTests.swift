import Foundation
import XCTest

/// The shipped binary links FoundationEssentials, never the whole of Foundation: Foundation
/// brings ICU's data with it, which makes the static binary far larger and slows every cold
/// start a browser pays for. A source may name Foundation only as the fallback of
/// `#if canImport(FoundationEssentials) ... #else import Foundation #endif`.
final class FoundationImportTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Linked only into test targets, never into a shipped binary.
    static let testOnly: Set<String> = ["WalletBridgeTesting"]

    func testNoSourceImportsTheWholeOfFoundation() throws {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: Self.sources.path))
        var scanned = 0
        var offences: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            guard let module = relative.split(separator: "/").first, !Self.testOnly.contains(String(module)) else {
                continue
            }
            scanned += 1
            let text = try String(contentsOf: Self.sources.appendingPathComponent(relative), encoding: .utf8)
            offences += Self.unconditionalImports(text).map { "\(relative):\($0)" }
        }
        XCTAssertGreaterThan(scanned, 10, "the scan found no sources; is \(Self.sources.path) right?")
        XCTAssertEqual(offences, [], "import FoundationEssentials instead (or Foundation only after #else)")
    }

    /// The line numbers of `import Foundation` (or `@_exported import Foundation`, or a member
    /// import such as `import struct Foundation.Date`) that do not follow an `#else`.
    static func unconditionalImports(_ text: String) -> [Int] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return lines.indices.compactMap { index in
            let words = lines[index].split(separator: " ").filter { $0 != "@_exported" && $0 != "@preconcurrency" }
            guard words.count >= 2, words[0] == "import" else { return nil }
            let module = words.last!.split(separator: ".").first.map(String.init)
            guard module == "Foundation" else { return nil }
            return index > 0 && lines[index - 1] == "#else" ? nil : index + 1
        }
    }

    func testTheScanCatchesAnImport() {
        XCTAssertEqual(Self.unconditionalImports("import Glibc\nimport Foundation\n"), [2])
        XCTAssertEqual(Self.unconditionalImports("import struct Foundation.Date"), [1])
        XCTAssertEqual(
            Self.unconditionalImports(
                "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif"),
            [])
    }
}
