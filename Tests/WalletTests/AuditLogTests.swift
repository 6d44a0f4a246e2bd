#if canImport(Glibc)
import Glibc
#endif
import Foundation
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
}
