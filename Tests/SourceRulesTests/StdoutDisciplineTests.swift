import Foundation
import XCTest
import WalletBridgeSystem

/// stdout carries frames only. This reads every Swift source file and fails on any way of
/// writing to stdout outside the two places allowed to: the host's frame writer and the CLI's
/// console (whose subcommands never run as the host).
final class StdoutDisciplineTests: XCTestCase {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// File → why it may write to fd 1.
    static let allowed: [String: String] = [
        "WalletBridgeStdio/StdioHost.swift":
            "FrameWriter, the only writer of frames; and a library host's answer to --version or --help, which never serves",
        "WalletBridgeCLI/Console.swift": "output of the command-line subcommands",
        "WalletBridgeConsent/PinentryGuard.swift":
            "the guard's fd 1 is pinentry's Assuan socket to the agent, never a host's stdout",
        "WalletBridgeCLI/New/ProjectTemplate.swift":
            "the text of a new project's Python script (its print(f\"...\") lines), written to a file, never run here",
    ]

    static let patterns: [(String, NSRegularExpression)] = [
        #"(^|[^A-Za-z_.])(print|debugPrint|dump)\("#,
        #"FileHandle\.standardOutput"#,
        #"[(,]\s*stdout\s*[),]"#,  // the C stream passed to a writer
        #"STDOUT_FILENO"#,
        #"\b(puts|putchar|printf|fputs|fwrite)\("#,
        #"(writev?|writeAll)\(\s*1\s*,"#,
        #"fileDescriptor:\s*1\b"#,
    ].map { ($0, try! NSRegularExpression(pattern: $0, options: [.anchorsMatchLines])) }

    func testNothingButTheFrameWriterWritesToStdout() throws {
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: Self.sources.path))
        var scanned = 0
        var offences: [String] = []
        for case let relative as String in enumerator where relative.hasSuffix(".swift") {
            scanned += 1
            let text = try String(contentsOf: Self.sources.appendingPathComponent(relative), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""  // comments may name stdout
                let range = NSRange(code.startIndex..., in: code)
                for (pattern, regex) in Self.patterns where regex.firstMatch(in: code, range: range) != nil {
                    if Self.allowed[relative] == nil || !Self.isAllowedLine(code, in: relative) {
                        offences.append(
                            "\(relative):\(number + 1): matches \(pattern): \(line.trimmingCharacters(in: .whitespaces))"
                        )
                    }
                }
            }
        }
        XCTAssertGreaterThan(scanned, 10, "the scan found no sources; is \(Self.sources.path) right?")
        XCTAssertEqual(offences, [], "stdout belongs to the protocol:\n" + offences.joined(separator: "\n"))
    }

    /// Within an allowed file, only the lines that do the sanctioned write.
    static func isAllowedLine(_ code: String, in file: String) -> Bool {
        switch file {
        case "WalletBridgeStdio/StdioHost.swift":
            return code.contains("FrameWriter(fileDescriptor: 1)") || code.contains("stdout closed")
                || code.contains("stdout's reader") || code.contains("output.withUTF8 { _ = SystemCall.writeAll(1, ")
        case "WalletBridgeCLI/Console.swift":
            return code.contains("writeAll(1, bytes)")
        case "WalletBridgeConsent/PinentryGuard.swift":
            return code.contains("write(1, $0.baseAddress, $0.count)")
        case "WalletBridgeCLI/New/ProjectTemplate.swift":
            // Python's f-strings: no Swift expression starts this way.
            return code.trimmingCharacters(in: .whitespaces).hasPrefix("print(f\"")
        default:
            return false
        }
    }

    func testTheScanCatchesAPrint() throws {
        let (_, regex) = Self.patterns[0]
        let line = #"    print("debug")"#
        XCTAssertNotNil(regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)))
    }
}
