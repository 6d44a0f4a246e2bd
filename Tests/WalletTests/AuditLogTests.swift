#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import XCTest

/// The audit log: one JSON object per decision, private to the user, with hashes and never a
/// payload.
final class AuditLogTests: XCTestCase {
    private let documentedMembers: Set<String> = [
        "time", "decision", "caller", "caller_name", "address", "label", "payload_count", "payload_sha256", "approval",
        "unattended",
    ]
    private let address = "oVzR0TLbZ+jdTG+8nZFLMpF4Eb1bhOmodb3zmQ0Tj7k="

    private func lines(_ path: String) throws -> [[String: Any]] {
        let text = String(decoding: try readBytes(path), as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("\n"), "every line ends with a line feed")
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return try XCTUnwrap(object as? [String: Any], String(line))
        }
    }

    func testEachRecordIsOneJSONLine() throws {
        let path = "\(temporaryFolder(self))/state/wallet-bridge/audit.log"
        let log = AuditLog(path: path)
        let payloads = [Array("Sign in to Example".utf8), [0x00, 0x01, 0x02]]
        let hashes = payloads.map(PayloadSummary.sha256Hex)
        log.record(AuditLog.Entry(
            decision: .approved, caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"),
            callerName: "Phantom", address: address, label: "main", payloadHashes: hashes, approval: .passphrase))
        log.record(AuditLog.Entry(
            decision: .declined, caller: .firefoxAddon(id: "wallet@example.org", manifestPath: "/m.json"),
            callerName: nil, address: address, label: "savings", payloadHashes: [hashes[1]], approval: nil))

        let records = try lines(path)
        XCTAssertEqual(records.count, 2)

        let first = records[0]
        XCTAssertEqual(first["decision"] as? String, "approved")
        XCTAssertEqual(first["caller"] as? String, "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
        XCTAssertEqual(first["caller_name"] as? String, "Phantom")
        XCTAssertEqual(first["address"] as? String, address)
        XCTAssertEqual(first["label"] as? String, "main")
        XCTAssertEqual((first["payload_count"] as? NSNumber)?.intValue, 2)
        XCTAssertEqual(first["payload_sha256"] as? [String], hashes)
        XCTAssertEqual(first["approval"] as? String, "passphrase")
        XCTAssertEqual(Set(first.keys), documentedMembers.subtracting(["unattended"]), "a person answered")

        let second = records[1]
        XCTAssertEqual(second["decision"] as? String, "declined")
        XCTAssertEqual(second["caller"] as? String, "wallet@example.org")
        XCTAssertNil(second["caller_name"], "no name known: no member")
        XCTAssertNil(second["approval"], "a refusal has no approval")
        XCTAssertEqual(second["label"] as? String, "savings")
        XCTAssertEqual((second["payload_count"] as? NSNumber)?.intValue, 1)
        XCTAssertEqual(second["payload_sha256"] as? [String], [hashes[1]])
        XCTAssertEqual(Set(second.keys), documentedMembers.subtracting(["caller_name", "approval", "unattended"]))

        var unattended = AuditLog.Entry(
            decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "main",
            payloadHashes: [hashes[0]], approval: .passphrase)
        unattended.unattended = true
        log.record(unattended)
        let third = try XCTUnwrap(try lines(path).last)
        XCTAssertEqual(third["unattended"] as? Bool, true, "the passphrase file answered: nobody was asked")

        for record in records {
            let time = try XCTUnwrap(record["time"] as? String)
            XCTAssertNotNil(time.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression), time)
        }
    }

    func testEveryDecisionIsWrittenByItsName() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let log = AuditLog(path: path)
        let decisions: [AuditLog.Decision] = [.approved, .declined, .wrongPassphrase, .cancelled]
        for decision in decisions {
            log.record(AuditLog.Entry(
                decision: decision, caller: .unidentified, callerName: nil, address: address, label: "main",
                payloadHashes: [], approval: decision == .approved ? .confirmation : nil))
        }
        let records = try lines(path)
        XCTAssertEqual(records.map { $0["decision"] as? String }, ["approved", "declined", "wrong_passphrase", "cancelled"])
        XCTAssertEqual(records[0]["approval"] as? String, "confirmation")
        XCTAssertEqual(records[1]["caller"] as? String, "unidentified")
        XCTAssertEqual((records[2]["payload_count"] as? NSNumber)?.intValue, 0)
        XCTAssertEqual(records[3]["payload_sha256"] as? [String], [])
    }

    func testTheFileIsPrivateAndItsFolderIsCreatedPrivate() throws {
        let root = temporaryFolder(self)
        chmod(root, 0o755)
        let folder = "\(root)/state/wallet-bridge"
        let path = "\(folder)/audit.log"
        let oldMask = umask(0o022)
        defer { umask(oldMask) }
        AuditLog(path: path).record(AuditLog.Entry(
            decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "main",
            payloadHashes: [PayloadSummary.sha256Hex([1])], approval: .passphrase))
        XCTAssertEqual(fileMode(path), 0o600)
        XCTAssertEqual(fileMode(folder), 0o700)
        XCTAssertEqual(fileMode("\(root)/state"), 0o700)
        XCTAssertEqual(try lines(path).count, 1)
    }

    func testNoPayloadBytesAreWritten() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let secretText = "transfer 1000 SOL to Mallory; nonce 7f3a9c"
        let payload = Array(secretText.utf8)
        AuditLog(path: path).record(AuditLog.Entry(
            decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "main",
            payloadHashes: [PayloadSummary.sha256Hex(payload)], approval: .confirmation))
        let text = String(decoding: try readBytes(path), as: UTF8.self)
        XCTAssertFalse(text.contains("Mallory"), text)
        XCTAssertFalse(text.contains("transfer"), text)
        XCTAssertTrue(text.contains(PayloadSummary.sha256Hex(payload)), text)
        let record = try XCTUnwrap(try lines(path).first)
        XCTAssertTrue(Set(record.keys).isSubset(of: documentedMembers), "\(record.keys)")
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 1)
    }

    func testNamesThatCouldBreakTheLineStayInOneLine() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        AuditLog(path: path).record(AuditLog.Entry(
            decision: .declined, caller: .firefoxAddon(id: "evil\n{\"decision\":\"approved\"}", manifestPath: "/m.json"),
            callerName: "Evil\"\nName", address: address, label: "main", payloadHashes: [], approval: nil))
        let records = try lines(path)
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records[0]["decision"] as? String, "declined")
        XCTAssertEqual(records[0]["caller"] as? String, "evil\n{\"decision\":\"approved\"}")
        XCTAssertEqual(records[0]["caller_name"] as? String, "Evil\"\nName")
    }

    func testRecordsAppendToAnExistingLog() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let earlier = #"{"time":"2025-01-01T00:00:00Z","decision":"approved"}"# + "\n"
        writeBytes(Array(earlier.utf8), path)
        AuditLog(path: path).record(AuditLog.Entry(
            decision: .cancelled, caller: .unidentified, callerName: nil, address: address, label: "main",
            payloadHashes: [], approval: nil))
        let records = try lines(path)
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records[0]["time"] as? String, "2025-01-01T00:00:00Z", "the earlier line is kept")
        XCTAssertEqual(records[1]["decision"] as? String, "cancelled")
    }

    func testANilPathRecordsNothing() throws {
        let folder = temporaryFolder(self)
        let log = AuditLog(path: nil)
        XCTAssertNil(log.path)
        log.record(AuditLog.Entry(
            decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "main",
            payloadHashes: [], approval: .passphrase))
        XCTAssertEqual(directoryEntries(folder), [], "nothing was written anywhere we can see")
    }

    func testAnUnwritableLogDoesNotStopTheCaller() throws {
        let folder = temporaryFolder(self)
        // A folder where the file should be: open fails, and record only reports it.
        mkdir("\(folder)/audit.log", 0o700)
        AuditLog(path: "\(folder)/audit.log").record(AuditLog.Entry(
            decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "main",
            payloadHashes: [], approval: .passphrase))
        XCTAssertEqual(directoryEntries("\(folder)/audit.log"), [])
    }

    // MARK: Growth (issue 33, item 5)

    /// A clock the test moves by hand.
    private final class TestClock: Sendable {
        private let start = ContinuousClock.now
        private let offset = Mutex<Duration>(.zero)
        func advance(_ by: Duration) { offset.withLock { $0 += by } }
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
    }

    private func refusal(_ decision: AuditLog.Decision, caller: Caller, payloads: Int) -> AuditLog.Entry {
        AuditLog.Entry(
            decision: decision, caller: caller, callerName: "Flood", address: address, label: "main",
            payloadHashes: Array(repeating: PayloadSummary.sha256Hex([7]), count: payloads), approval: nil)
    }

    func testRefusalsNobodyWasAskedAboutAreCountedNotWrittenWithEveryHash() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let clock = TestClock()
        var log = AuditLog(path: path, tallyWindow: .seconds(60))
        log.now = { clock.now }
        let flood = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
        for _ in 0..<500 { log.record(refusal(.tooManyWaiting, caller: flood, payloads: 1024)) }
        for _ in 0..<20 { log.record(refusal(.refusedAll, caller: flood, payloads: 2)) }
        var cancelledUnseen = refusal(.cancelled, caller: flood, payloads: 3)
        cancelledUnseen.shown = false
        log.record(cancelledUnseen)
        log.record(cancelledUnseen)

        let size = try readBytes(path).count
        XCTAssertLessThan(size, 4096, "unasked refusals grew the log by \(size) bytes")
        var records = try lines(path)
        XCTAssertEqual(records.map { $0["decision"] as? String }, ["too_many_waiting", "refused_all", "cancelled"], "one line each, at first")
        for record in records {
            XCTAssertNil(record["payload_sha256"], "an unasked refusal with every payload's hash")
            XCTAssertEqual((record["count"] as? NSNumber)?.intValue, 1)
            XCTAssertEqual(record["caller_name"] as? String, "Flood")
        }

        // A line the person answered writes what was counted first, then itself.
        log.record(AuditLog.Entry(
            decision: .declined, caller: flood, callerName: nil, address: address, label: "main",
            payloadHashes: [PayloadSummary.sha256Hex([1])], approval: nil))
        records = try lines(path)
        XCTAssertEqual(records.count, 7)
        let counted = records[3...5].map { ($0["decision"] as? String ?? "", ($0["count"] as? NSNumber)?.intValue ?? 0, ($0["payload_count"] as? NSNumber)?.intValue ?? 0) }
        XCTAssertEqual(counted.map(\.0), ["cancelled", "refused_all", "too_many_waiting"])
        XCTAssertEqual(counted.map(\.1), [1, 19, 499])
        XCTAssertEqual(counted.map(\.2), [3, 38, 499 * 1024])
        XCTAssertEqual(records[6]["payload_sha256"] as? [String], [PayloadSummary.sha256Hex([1])], "a refusal by the person keeps its hashes")

        // Within the window the count goes on; after it, a new refusal is a line at once.
        log.record(refusal(.tooManyWaiting, caller: flood, payloads: 1))
        XCTAssertEqual(try lines(path).count, 7)
        clock.advance(.seconds(61))
        log.record(refusal(.tooManyWaiting, caller: flood, payloads: 1))
        records = try lines(path)
        XCTAssertEqual(records.count, 9, "the window's count, then the new window's first")
        XCTAssertEqual((records[7]["count"] as? NSNumber)?.intValue, 1)
        XCTAssertEqual((records[8]["count"] as? NSNumber)?.intValue, 1)
        log.record(refusal(.tooManyWaiting, caller: flood, payloads: 1))
        log.flush()
        XCTAssertEqual((try lines(path).last?["count"] as? NSNumber)?.intValue, 1, "flush writes what was counted")
        log.flush()
        XCTAssertEqual(try lines(path).count, 10, "nothing twice")
    }

    func testTheLogMovesAsideBeforeItPassesItsLimit() throws {
        let folder = temporaryFolder(self)
        let path = "\(folder)/audit.log"
        let log = AuditLog(path: path, maxBytes: 4096)
        var largest = 0
        for number in 0..<200 {
            log.record(AuditLog.Entry(
                decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "key \(number)",
                payloadHashes: [PayloadSummary.sha256Hex([UInt8(number & 0xFF)])], approval: .confirmation))
            largest = max(largest, try readBytes(path).count)
        }
        XCTAssertLessThanOrEqual(largest, 4096, "the log passed its limit")
        let older = try lines(AuditLog.rotatedPath(path))
        let newer = try lines(path)
        XCTAssertFalse(older.isEmpty, "nothing moved aside")
        XCTAssertLessThanOrEqual(try readBytes(AuditLog.rotatedPath(path)).count, 4096)
        XCTAssertEqual(newer.last?["label"] as? String, "key 199", "the newest line is in audit.log")
        let labels = (older + newer).compactMap { $0["label"] as? String }
        XCTAssertEqual(labels, (200 - labels.count..<200).map { "key \($0)" }, "the two files hold the latest lines, in order")
        XCTAssertEqual(fileMode(path), 0o600)
        XCTAssertEqual(Set(directoryEntries(folder)), ["audit.log", "audit.log.1"], "one older file, no more")
    }
}
