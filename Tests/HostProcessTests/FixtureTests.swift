import Foundation
import WalletBridge
import Testing
import XCTest

/// Runs every case in Tests/Fixtures through the real conformance host over real pipes, as
/// Tests/Fixtures/README.md describes.
final class FixtureTests: XCTestCase {
    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let sentinel = #"{"jsonrpc":"2.0","method":"test.echo","params":["sentinel"],"id":"sentinel"}"#

    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        let members: [String: JSONValue]
        var name: String { "\(file)#\(members["name"].flatMap(\.stringValue) ?? "?")" }
        var testDescription: String { name }
    }

    static func loadCases() throws -> [Case] {
        let files = try FileManager.default.contentsOfDirectory(atPath: fixturesDirectory.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        var cases: [Case] = []
        for file in files {
            let bytes = try Array(Data(contentsOf: fixturesDirectory.appendingPathComponent(file)))
            guard case .object(let document) = try JSONParser.parse(bytes, maxDepth: 512),
                  case .array(let entries)? = document["cases"] else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: file])
            }
            XCTAssertFalse(entries.isEmpty, "\(file) has no cases")
            for entry in entries {
                guard case .object(let members) = entry else { XCTFail("\(file): a case is not an object"); continue }
                cases.append(Case(file: file, members: members))
            }
        }
        return cases
    }

    func testFixtureFilesHoldEnoughCases() throws {
        let cases = try Self.loadCases()
        XCTAssertGreaterThanOrEqual(cases.count, 60)
        XCTAssertEqual(Set(cases.map(\.name)).count, cases.count, "case names must be unique per file")
    }

}

/// Runs one fixture case against a host over real pipes and returns what went wrong (nothing,
/// when the host answered as the fixture says).
enum FixtureRunner {
    static func run(_ fixture: FixtureTests.Case, host: String) throws -> [String] {
        var problems: [String] = []
        func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { problems.append(message()) }
        }
        let m = fixture.members
        let arguments = m["args"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var environment: [String: String] = [:]
        if case .object(let env)? = m["env"] {
            for (key, value) in env { environment[key] = value.stringValue }
        }
        let process = try HostProcess(executable: host, arguments: arguments, environment: environment)

        if let request = m["request"] {
            try process.send(request.jsonBytes)
        } else if let text = m["request_text"]?.stringValue {
            try process.send(text)
        } else if let base64 = m["request_base64"]?.stringValue {
            try process.send(Array(Data(base64Encoded: base64)!))
        } else if let base64 = m["stream_base64"]?.stringValue {
            try process.write(Array(Data(base64Encoded: base64)!))
        } else {
            return ["\(fixture.name): no input"]
        }

        let expected = m["response"] ?? .null
        let includes = m["response_text_includes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if let exitCode = m["exit_code"] {
            process.closeStdin()
            let reply = try process.readFrame()
            problems += check(reply, expected: expected, includes: includes, fixture)
            if reply != nil { expect(try process.readFrame() == nil, "\(fixture.name): more than one reply") }
            let status = try process.waitForExit()
            expect(JSONValue.number(JSONNumber(Int(status))) == exitCode, "\(fixture.name): exit status \(status), expected \(exitCode.compactText); stderr: \(process.stderrText)")
            return problems
        }

        // The sentinel goes out only after the case's reply is in, so a slow reply cannot race it.
        if expected != .null {
            problems += check(try process.readFrame(), expected: expected, includes: includes, fixture)
        }
        try process.send(FixtureTests.sentinel)
        let sentinelReply = try process.readFrame()
        expect(sentinelReply.map { String(decoding: $0, as: UTF8.self) } == #"{"jsonrpc":"2.0","id":"sentinel","result":["sentinel"]}"#,
               "\(fixture.name): the next frame must be the sentinel's reply (no reply expected before it, and the host keeps serving)")
        process.closeStdin()
        let status = try process.waitForExit()
        expect(status == 0, "\(fixture.name): exit status \(status) after end of input; stderr: \(process.stderrText)")
        return problems
    }

    private static func check(_ reply: [UInt8]?, expected: JSONValue, includes: [String], _ fixture: FixtureTests.Case) -> [String] {
        guard let reply else {
            return expected == .null ? [] : ["\(fixture.name): no reply, expected \(expected.compactText)"]
        }
        guard expected != .null else {
            return ["\(fixture.name): expected no reply, got \(String(decoding: reply.prefix(300), as: UTF8.self))"]
        }
        let text = String(decoding: reply, as: UTF8.self)
        guard let actual = try? JSONParser.parse(reply, maxDepth: 512) else {
            return ["\(fixture.name): reply is not JSON: \(text.prefix(300))"]
        }
        var problems: [String] = []
        if !JSONSemantics.equal(actual, expected) {
            problems.append("\(fixture.name):\n  expected \(expected.compactText.prefix(400))\n  actual   \(text.prefix(400))")
        }
        for fragment in includes where !text.contains(fragment) {
            problems.append("\(fixture.name): reply lacks \(fragment): \(text.prefix(300))")
        }
        return problems
    }
}

/// Every fixture case is its own test case (Swift Testing's arguments), named `file#case`, so a
/// failure names the case and `swift test --filter` can run one. Serialized: some cases time
/// requests out, and 200 hosts at once on two cores would make their timing the test.
@Suite(.serialized) struct FixtureCases {
    static let cases = (try? FixtureTests.loadCases()) ?? []

    @Test("a fixture case against the real conformance host", arguments: cases)
    func fixture(_ fixture: FixtureTests.Case) throws {
        let host = try HostProcess.executable("wallet-bridge-conformance-host")
        let problems = try FixtureRunner.run(fixture, host: host)
        #expect(problems.isEmpty, Comment(rawValue: problems.joined(separator: "\n")))
    }
}

/// JSON equality as the fixtures mean it: object key order ignored, numbers compared by value
/// (exactly, whatever their lexeme: `1000` equals `1e3`; digits beyond a Double still count).
enum JSONSemantics {
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return canonical(x.literal) == canonical(y.literal)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return a == b
        }
    }

    /// Sign, significant digits and exponent of a JSON number literal.
    static func canonical(_ literal: String) -> String {
        var text = Substring(literal)
        var negative = false
        if text.first == "-" { negative = true; text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        var digits = String(text)
        if let dot = digits.firstIndex(of: ".") {
            exponent -= digits.distance(from: dot, to: digits.endIndex) - 1
            digits.remove(at: dot)
        }
        digits = String(digits.drop { $0 == "0" })
        while digits.last == "0" { digits.removeLast(); exponent += 1 }
        if digits.isEmpty { return "0" }
        return (negative ? "-" : "") + digits + "e" + String(exponent)
    }
}

extension JSONValue {
    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var compactText: String { String(decoding: jsonBytes, as: UTF8.self) }
}
