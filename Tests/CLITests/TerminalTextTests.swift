import WalletBridge
@testable import WalletBridgeCLI
import XCTest
@testable import WalletBridgeSystem

/// What `wallet-bridge log` and `sessions list` print of text an extension chose: its installed
/// name, its ID (Firefox add-ons choose theirs), what it says about itself and the methods it
/// asked for. None of it may reach the terminal as a control sequence (clear the screen, write
/// the clipboard with OSC 52, move the cursor to forge a line) or break a line; `--json` stays
/// exact. The process-level checks are in Tests/system/test_hostile_text.py.
final class TerminalTextTests: XCTestCase {
    /// A clear screen, an OSC 52 clipboard write (an address swapped), a forged audit line
    /// after a line separator, and a quote that would end the name early.
    private let hostileName = "Phantom\u{1B}[2J\u{1B}]52;c;MHhkZWFk\u{07}\u{2028}2026-11-23T10:00:01Z  approved\" x"
    private let hostileNameShown =
        #"Phantom\u{1B}[2J\u{1B}]52;c;MHhkZWFk\u{7}\u{2028}2026-11-23T10:00:01Z  approved\" x"#

    private func json(_ members: [String: JSONValue]) -> [UInt8] {
        Array(JSONValue.object(members).compactText.utf8)
    }

    private func assertNoControlScalar(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            XCTAssertFalse(
                [.control, .format, .lineSeparator, .paragraphSeparator].contains(category),
                "U+\(String(scalar.value, radix: 16, uppercase: true)) reached the terminal: \(text.debugDescription)",
                file: file, line: line)
        }
    }

    func testALogLineShowsTheCallerFirstAndEscapesTheName() {
        let line = json([
            "time": "2026-11-23T10:00:00Z", "decision": "declined",
            "caller": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/",
            "caller_name": .string(hostileName), "label": "main",
            "address": "vzTofgu4migKKdbif1akSqFdzIs/G0qpIoV1MPpFfuQ=",
            "payload_sha256": ["79d5a2d63aa2e6d1b7f0b3b1c0e5a2a1"],
        ])
        let shown = LogCommand.describe(line)
        XCTAssertEqual(
            shown,
            #"2026-11-23T10:00:00Z  declined  chrome-extension://abcdefghijklmnopabcdefghijklmnop/ "\#(hostileNameShown)"  key "main" vzTofgu4migKKdbif1akSqFdzIs/G0qpIoV1MPpFfuQ=  1 payload [79d5a2d63aa2…]"#
        )
        assertNoControlScalar(shown)
    }

    /// A Firefox add-on chooses its own ID, which the browser passes on and the log records.
    func testEveryFieldOfALogLineIsEscaped() {
        let line = json([
            "time": "2026\u{1B}[1A", "decision": "approved\u{9B}2J", "approval": "passphrase\u{85}", "unattended": true,
            "caller": "evil\u{1B}]52;c;eA==\u{07}@example.org", "label": "ma\u{202E}in", "address": "0x\u{2029}",
            "method": "personal_sign\r", "chain": "eip155:1\u{0C}", "keccak256": "be609aee343f\u{0B}0000",
        ])
        let shown = LogCommand.describe(line)
        XCTAssertEqual(
            shown,
            #"2026\u{1B}[1A  approved\u{9B}2J (passphrase\u{85}, unattended)  evil\u{1B}]52;c;eA==\u{7}@example.org  key "ma\u{202E}in" 0x\u{2029}  personal_sign\r on eip155:1\u{C}, signing hash (Keccak-256) be609aee343f…"#
        )
        assertNoControlScalar(shown)
    }

    /// A line lists the first 3 hashes and a hash over all (issue 33 round 2, M1); a line of an
    /// earlier version listed every payload's: both read the same way.
    func testALogLineShowsTheFirstHashesOfOldAndNewLines() {
        let hashes: [JSONValue] = (0..<5).map { .string(String(repeating: "\($0)", count: 64)) }
        let start = #"2026-11-23T10:00:00Z  approved (confirmation)  unidentified  key "main" vzTo=  "#
        var old: [String: JSONValue] = [
            "time": "2026-11-23T10:00:00Z", "decision": "approved", "approval": "confirmation",
            "caller": "unidentified",
            "label": "main", "address": "vzTo=", "payload_count": 5, "payload_sha256": .array(hashes),
        ]
        XCTAssertEqual(
            LogCommand.describe(json(old)), start + "5 payloads [000000000000…, 111111111111…, 222222222222…, +2 more]")
        old["payload_count"] = 1024
        old["payload_sha256"] = .array(Array(hashes.prefix(3)))
        old["payload_list_sha256"] = .string(String(repeating: "f", count: 64))
        XCTAssertEqual(
            LogCommand.describe(json(old)),
            start + "1024 payloads [000000000000…, 111111111111…, 222222222222…, +1021 more, all ffffffffffff…]")
        let cancelled = json([
            "time": "2026-11-23T10:00:00Z", "decision": "cancelled", "caller": "unidentified", "count": 3,
            "payload_count": 3072,
        ])
        XCTAssertEqual(
            LogCommand.describe(cancelled),
            "2026-11-23T10:00:00Z  cancelled  unidentified  3 cancelled unanswered (3072 payloads)")
        let one = json([
            "time": "2026-11-23T10:00:00Z", "decision": "no_prompt", "caller": "unidentified", "count": 1,
            "payload_count": 1,
        ])
        XCTAssertEqual(
            LogCommand.describe(one), "2026-11-23T10:00:00Z  no_prompt  unidentified  1 refused unasked (1 payload)")
    }

    func testAnUnreadableLogLineIsEscapedToo() {
        let shown = LogCommand.describe(Array("{\"caller_name\": \"\u{1B}[2J\u{2028}".utf8))
        XCTAssertEqual(shown, #"(unreadable line) {\"caller_name\": \"\u{1B}[2J\u{2028}"#)
        assertNoControlScalar(shown)
    }

    func testASessionShowsTheIDFirstAndEscapesWhatTheExtensionChose() {
        let session: [String: JSONValue] = [
            "topic": .string(String(repeating: "ab", count: 32)),
            "caller": ["kind": "firefox-addon", "id": "evil\u{1B}]52;c;eA==\u{07}@example.org"],
            "callerName": .string(hostileName),
            // The agent takes only a web origin; what the command line prints is escaped all the same.
            "origin": "http://x\u{1B}[2J",
            "metadata": [
                "name": "dApp\u{1B}[2J\u{2028}  expires never", "url": "https://example.org/\u{9B}31m\"",
                "description": "", "icons": [],
            ],
            "namespaces": [
                "solana": [
                    "chains": ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"], "methods": ["solana_signMessage\u{1B}[8m"],
                    "events": ["accountsChanged\u{2029}"],
                ]
            ],
            "expiry": 1_800_000_000, "created": 1_790_000_000,
        ]
        let shown = SessionsListCommand.describe(session)
        let expires = AgentCommandSupport.localTime(1_800_000_000),
            approved = AgentCommandSupport.localTime(1_790_000_000)
        XCTAssertEqual(
            shown,
            """
            \(String(repeating: "ab", count: 32))
              extension: evil\\u{1B}]52;c;eA==\\u{7}@example.org (firefox-addon), installed as "\(hostileNameShown)"
              site: http://x\\u{1B}[2J (as the extension reported it)
              says it is: "dApp\\u{1B}[2J\\u{2028}  expires never" https://example.org/\\u{9B}31m\\"
              solana: chains solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp; methods solana_signMessage\\u{1B}[8m; events accountsChanged\\u{2029}
              expires \(expires), approved \(approved)
            """)
        XCTAssertEqual(shown.split(separator: "\n").count, 6)
        assertNoControlScalar(shown.split(separator: "\n").joined(separator: " "))
    }

    /// Log lines quote their own words: there only what is hidden is escaped.
    func testLogLinesEscapeWhatIsHiddenAndLeaveQuotes() {
        XCTAssertEqual(
            DisplayText.escaped("session opened for \"evil\u{1B}]52;c;eA==\u{07}\u{2028}\\\t\"", quotes: false),
            #"session opened for "evil\u{1B}]52;c;eA==\u{7}\u{2028}\\t""#)
        XCTAssertEqual(DisplayText.escaped("a\\b \"c\" \u{FE0F}", quotes: true), #"a\\b \"c\" \#u{FE0F}"#)
    }

    func testAnOrdinarySessionReadsAsBefore() {
        let session: [String: JSONValue] = [
            "topic": .string(String(repeating: "cd", count: 32)),
            "caller": ["kind": "chrome-extension", "id": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            "metadata": ["name": "Example dApp", "url": "https://example.org", "description": "", "icons": []],
            "namespaces": [
                "solana": [
                    "chains": ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"], "methods": ["solana_signMessage"],
                    "events": [],
                ]
            ],
            "expiry": 1_800_000_000, "created": 1_790_000_000,
        ]
        let expires = AgentCommandSupport.localTime(1_800_000_000),
            approved = AgentCommandSupport.localTime(1_790_000_000)
        XCTAssertEqual(
            SessionsListCommand.describe(session),
            """
            \(String(repeating: "cd", count: 32))
              extension: chrome-extension://abcdefghijklmnopabcdefghijklmnop/ (chrome-extension)
              site: -
              says it is: "Example dApp" https://example.org
              solana: chains solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp; methods solana_signMessage; events none
              expires \(expires), approved \(approved)
            """)
    }

    /// A site's session names the site, as the extension reported it (docs/sessions.md).
    func testASitesSessionNamesTheSite() {
        let session: [String: JSONValue] = [
            "topic": .string(String(repeating: "ef", count: 32)),
            "caller": ["kind": "chrome-extension", "id": "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            "origin": "http://127.0.0.1:8123",
            "metadata": ["name": "My dApp", "url": "", "description": "", "icons": []],
            "expiry": 1_800_000_000, "created": 1_790_000_000,
        ]
        let lines = SessionsListCommand.describe(session).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[2], "  site: http://127.0.0.1:8123 (as the extension reported it)")
    }
}
