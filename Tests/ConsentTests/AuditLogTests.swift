#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent
@testable import WalletBridgeKeys

/// The audit log: one JSON object per decision, private to the user, with hashes and never a
/// payload.
final class AuditLogTests: XCTestCase {
    private let documentedMembers: Set<String> = [
        "time", "decision", "caller", "caller_name", "address", "label", "payload_count", "payload_sha256",
        "payload_list_sha256",
        "approval", "unattended",
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
        log.record(
            AuditLog.Entry(
                decision: .approved,
                caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"),
                callerName: "Phantom", address: address, label: "main", payloadHashes: hashes, approval: .passphrase))
        log.record(
            AuditLog.Entry(
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
            XCTAssertNotNil(
                time.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression), time)
        }
    }

    func testEveryDecisionIsWrittenByItsName() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let log = AuditLog(path: path)
        let decisions: [AuditLog.Decision] = [.approved, .declined, .wrongPassphrase, .cancelled]  // cancelled: counted
        for decision in decisions {
            log.record(
                AuditLog.Entry(
                    decision: decision, caller: .unidentified, callerName: nil, address: address, label: "main",
                    payloadHashes: [], approval: decision == .approved ? .confirmation : nil))
        }
        let records = try lines(path)
        XCTAssertEqual(
            records.map { $0["decision"] as? String }, ["approved", "declined", "wrong_passphrase", "cancelled"])
        XCTAssertEqual(records[0]["approval"] as? String, "confirmation")
        XCTAssertEqual(records[1]["caller"] as? String, "unidentified")
        XCTAssertEqual((records[2]["payload_count"] as? NSNumber)?.intValue, 0)
        XCTAssertNil(records[3]["payload_sha256"], "nobody answered: counted")
        XCTAssertEqual((records[3]["count"] as? NSNumber)?.intValue, 1)
    }

    func testTheFileIsPrivateAndItsFolderIsCreatedPrivate() throws {
        let root = temporaryFolder(self)
        chmod(root, 0o755)
        let folder = "\(root)/state/wallet-bridge"
        let path = "\(folder)/audit.log"
        let oldMask = umask(0o022)
        defer { umask(oldMask) }
        AuditLog(path: path).record(
            AuditLog.Entry(
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
        AuditLog(path: path).record(
            AuditLog.Entry(
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
        AuditLog(path: path).record(
            AuditLog.Entry(
                decision: .declined,
                caller: .firefoxAddon(id: "evil\n{\"decision\":\"approved\"}", manifestPath: "/m.json"),
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
        AuditLog(path: path).record(
            AuditLog.Entry(
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
        log.record(
            AuditLog.Entry(
                decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "main",
                payloadHashes: [], approval: .passphrase))
        XCTAssertEqual(directoryEntries(folder), [], "nothing was written anywhere we can see")
    }

    func testAnUnwritableLogDoesNotStopTheCaller() throws {
        let folder = temporaryFolder(self)
        // A folder where the file should be: open fails, and record only reports it.
        mkdir("\(folder)/audit.log", 0o700)
        AuditLog(path: "\(folder)/audit.log").record(
            AuditLog.Entry(
                decision: .approved, caller: .unidentified, callerName: nil, address: address, label: "main",
                payloadHashes: [], approval: .passphrase))
        XCTAssertEqual(directoryEntries("\(folder)/audit.log"), [])
    }

    // MARK: Growth (issue 33, item 5)

    private func refusal(_ decision: AuditLog.Decision, caller: Caller, payloads: Int) -> AuditLog.Entry {
        AuditLog.Entry(
            decision: decision, caller: caller, callerName: "Flood", address: address, label: "main",
            payloadHashes: Array(repeating: PayloadSummary.sha256Hex([7]), count: payloads), approval: nil)
    }

    func testRefusalsNobodyWasAskedAboutAreCountedNotWrittenWithEveryHash() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let clock = ManualClock()
        var log = AuditLog(path: path, tallyWindow: .seconds(60))
        log.now = { clock.now }
        let flood = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
        for _ in 0..<500 { log.record(refusal(.tooManyWaiting, caller: flood, payloads: 1024)) }
        for _ in 0..<20 { log.record(refusal(.refusedAll, caller: flood, payloads: 2)) }
        // Cancelled before the person answered, with or without a dialog up (issue 33 round 2, M1).
        log.record(refusal(.cancelled, caller: flood, payloads: 3))
        log.record(refusal(.cancelled, caller: flood, payloads: 3))

        let size = try readBytes(path).count
        XCTAssertLessThan(size, 4096, "unasked refusals grew the log by \(size) bytes")
        var records = try lines(path)
        XCTAssertEqual(
            records.map { $0["decision"] as? String }, ["too_many_waiting", "refused_all", "cancelled"],
            "one line each, at first")
        for record in records {
            XCTAssertNil(record["payload_sha256"], "an unasked refusal with every payload's hash")
            XCTAssertEqual((record["count"] as? NSNumber)?.intValue, 1)
            XCTAssertEqual(record["caller_name"] as? String, "Flood")
        }

        // A line the person answered writes what was counted first, then itself.
        log.record(
            AuditLog.Entry(
                decision: .declined, caller: flood, callerName: nil, address: address, label: "main",
                payloadHashes: [PayloadSummary.sha256Hex([1])], approval: nil))
        records = try lines(path)
        XCTAssertEqual(records.count, 7)
        let counted = records[3...5].map {
            (
                $0["decision"] as? String ?? "", ($0["count"] as? NSNumber)?.intValue ?? 0,
                ($0["payload_count"] as? NSNumber)?.intValue ?? 0
            )
        }
        XCTAssertEqual(counted.map(\.0), ["cancelled", "refused_all", "too_many_waiting"])
        XCTAssertEqual(counted.map(\.1), [1, 19, 499])
        XCTAssertEqual(counted.map(\.2), [3, 38, 499 * 1024])
        XCTAssertEqual(
            records[6]["payload_sha256"] as? [String], [PayloadSummary.sha256Hex([1])],
            "a refusal by the person keeps its hashes")

        // Within the window the count goes on; after it, a new refusal is a line at once.
        log.record(refusal(.tooManyWaiting, caller: flood, payloads: 1))
        XCTAssertEqual(try lines(path).count, 7)
        clock.advance(by: .seconds(61))
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
            log.record(
                AuditLog.Entry(
                    decision: .declined, caller: .unidentified, callerName: nil, address: address,
                    label: "key \(number)",
                    payloadHashes: [PayloadSummary.sha256Hex([UInt8(number & 0xFF)])], approval: nil))
            largest = max(largest, try readBytes(path).count)
        }
        XCTAssertLessThanOrEqual(largest, 4096, "the log passed its limit")
        let older = try lines(AuditLog.rotatedPath(path))
        let newer = try lines(path)
        XCTAssertFalse(older.isEmpty, "nothing moved aside")
        XCTAssertLessThanOrEqual(try readBytes(AuditLog.rotatedPath(path)).count, 4096)
        XCTAssertEqual(newer.last?["label"] as? String, "key 199", "the newest line is in audit.log")
        let labels = (older + newer).compactMap { $0["label"] as? String }
        XCTAssertEqual(
            labels, (200 - labels.count..<200).map { "key \($0)" }, "the two files hold the latest lines, in order")
        XCTAssertEqual(fileMode(path), 0o600)
        XCTAssertEqual(Set(directoryEntries(folder)), ["audit.log", "audit.log.1"], "one older file, no more")
    }

    // MARK: A flood cannot push the record of what was signed out (issue 33 round 2, M1)

    /// A line lists the first 3 hashes (what a dialog shows), the count, and one hash over
    /// every payload's: its size does not grow with the payloads.
    func testALineIsBoundedWhateverThePayloadsAndStillMatchesThemAll() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let payloads = (0..<1024).map { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
        let hashes = payloads.map(PayloadSummary.sha256Hex)
        AuditLog(path: path).record(
            AuditLog.Entry(
                decision: .approved,
                caller: .firefoxAddon(
                    id: String(repeating: "x", count: 5000) + "@example.org", manifestPath: "/m.json"),
                callerName: String(repeating: "N", count: 5000), address: address, label: "main", payloadHashes: hashes,
                approval: .confirmation))
        let size = try readBytes(path).count
        XCTAssertLessThan(size, 1200, "a line of \(size) bytes")
        let record = try XCTUnwrap(try lines(path).first)
        XCTAssertEqual(record["payload_sha256"] as? [String], Array(hashes.prefix(3)))
        XCTAssertEqual((record["payload_count"] as? NSNumber)?.intValue, 1024)
        // Independently: SHA-256 of the 32-byte digests, in order.
        let digests = payloads.flatMap { Sodium.sha256($0) }
        XCTAssertEqual(record["payload_list_sha256"] as? String, Hex.encode(Sodium.sha256(digests)))
        XCTAssertEqual((record["caller_name"] as? String)?.count, AuditLog.maxTextLength)
        XCTAssertTrue((record["caller"] as? String)?.hasSuffix("…") == true)

        // The worst case: every text an escaped control character (6 bytes in JSON).
        let control = String(repeating: "\u{1}", count: 5000)
        let worst = "\(temporaryFolder(self))/worst.log"
        AuditLog(path: worst).record(
            AuditLog.Entry(
                decision: .approved, caller: .firefoxAddon(id: control, manifestPath: "/m.json"), callerName: control,
                address: control, label: control, payloadHashes: hashes, approval: .confirmation))
        let worstSize = try readBytes(worst).count
        XCTAssertLessThan(worstSize, 8192, "a line of \(worstSize) bytes: docs/agent.md says under 8 KB")
    }

    /// The attack: an extension asks for 1024 payloads, waits for its dialog, closes the port,
    /// again and again; and, allowed to sign without asking for a while, signs as fast as it
    /// can. An approval the person gave before survives both, however often the log rotates.
    func testAFloodDoesNotPushAnEarlierApprovalOutOfTheLog() throws {
        let folder = temporaryFolder(self)
        let path = "\(folder)/audit.log"
        let maxBytes = 16 << 10
        let log = AuditLog(path: path, maxBytes: maxBytes)
        let flood = Caller.chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
        let approvedHash = PayloadSummary.sha256Hex(Array("pay Alice 1 SOL".utf8))
        log.record(
            AuditLog.Entry(
                decision: .approved, caller: flood, callerName: "Flood", address: address, label: "the approval",
                payloadHashes: [approvedHash], approval: .confirmation))
        let many = (0..<1024).map { PayloadSummary.sha256Hex([UInt8(truncatingIfNeeded: $0)]) }
        var rotations = 0
        var lastSize: off_t = 0
        for round in 0..<500 {
            log.record(
                AuditLog.Entry(
                    decision: .cancelled, caller: flood, callerName: "Flood", address: address, label: "main",
                    payloadHashes: many,
                    approval: nil))
            log.record(
                AuditLog.Entry(
                    decision: .approved, caller: flood, callerName: "Flood", address: address,
                    label: "allowed \(round)", payloadHashes: many,
                    approval: .allowedBefore))
            var info = stat()
            if stat(path, &info) == 0, info.st_size < lastSize { rotations += 1 }  // a new log began
            lastSize = info.st_size
        }
        log.flush()
        XCTAssertGreaterThanOrEqual(rotations, 3, "the flood moved the log aside \(rotations) times")
        let all = (try lines(AuditLog.rotatedPath(path))) + (try lines(path))
        let kept = all.filter { $0["label"] as? String == "the approval" }
        XCTAssertEqual(kept.count, 1, "the person's approval was pushed out of the log")
        XCTAssertEqual(kept.first?["payload_sha256"] as? [String], [approvedHash])
        XCTAssertEqual(all.first?["label"] as? String, "the approval", "the oldest line first")
        XCTAssertLessThanOrEqual(try readBytes(path).count, maxBytes)
        XCTAssertLessThanOrEqual(try readBytes(AuditLog.rotatedPath(path)).count, 2 * maxBytes)
        XCTAssertEqual(Set(directoryEntries(folder)), ["audit.log", "audit.log.1"], "one older file, no more")
        // The newest signatures within the allowance are there too, in order.
        let allowed = all.compactMap { $0["label"] as? String }.filter { $0.hasPrefix("allowed ") }
        XCTAssertEqual(allowed.last, "allowed 499")
        XCTAssertEqual(allowed, allowed.sorted { Int($0.dropFirst(8))! < Int($1.dropFirst(8))! })
        let cancelled = all.filter { $0["decision"] as? String == "cancelled" }
        XCTAssertTrue(
            cancelled.allSatisfy { $0["count"] != nil && $0["payload_sha256"] == nil },
            "a cancelled request written in full")
    }

    /// Approvals carried over from rotation to rotation keep at most `maxBytes`, the newest.
    func testTheApprovalsCarriedOverAreBoundedToo() throws {
        let path = "\(temporaryFolder(self))/audit.log"
        let maxBytes = 8 << 10
        let log = AuditLog(path: path, maxBytes: maxBytes)
        for number in 0..<400 {
            log.record(
                AuditLog.Entry(
                    decision: .approved, caller: .unidentified, callerName: nil, address: address,
                    label: "person \(number)",
                    payloadHashes: [PayloadSummary.sha256Hex([1])], approval: .passphrase))
        }
        let older = try readBytes(AuditLog.rotatedPath(path)).count
        XCTAssertLessThanOrEqual(older, 2 * maxBytes)
        let labels = (try lines(AuditLog.rotatedPath(path)) + lines(path)).compactMap { $0["label"] as? String }
        XCTAssertEqual(labels, (400 - labels.count..<400).map { "person \($0)" }, "the newest, in order, none twice")
        XCTAssertGreaterThan(labels.count, 2 * maxBytes / 700, "more than two logs' worth of the person's approvals")
    }

    // MARK: Two writers at the moment the log rotates (issue 33 round 2 review, MUST 1)

    /// A writer (a thread, a host with `"agent": false`, another keystore's agent) opened
    /// audit.log; before its line lands, another writer's line takes the log past its limit and
    /// rotates it. The first writer's line is not lost, and neither are the approvals carried
    /// over from the older `audit.log.1`.
    func testALineWrittenWhileAnotherWriterRotatesTheLogIsNotLost() throws {
        let folder = temporaryFolder(self)
        let path = "\(folder)/audit.log"
        // An older audit.log.1 holding an approval the person gave.
        let older = "\(folder)/older.log"
        AuditLog(path: older).record(
            AuditLog.Entry(
                decision: .approved, caller: .unidentified, callerName: nil, address: address,
                label: "earlier approval",
                payloadHashes: [PayloadSummary.sha256Hex([1])], approval: .passphrase))
        XCTAssertEqual(rename(older, AuditLog.rotatedPath(path)), 0)

        var first = AuditLog(path: path, maxBytes: 1 << 20)
        for number in 0..<20 {
            first.record(
                AuditLog.Entry(
                    decision: .declined, caller: .unidentified, callerName: nil, address: address,
                    label: "filler \(number)",
                    payloadHashes: [PayloadSummary.sha256Hex([2])], approval: nil))
        }
        // The second writer's limit is what the log holds now: its line rotates the log.
        let second = AuditLog(path: path, maxBytes: try readBytes(path).count)
        let interleaved = Atomic<Bool>(false)
        let address = address
        first.beforeAppend = {
            guard !interleaved.exchange(true, ordering: .relaxed) else { return }
            second.record(
                AuditLog.Entry(
                    decision: .approved, caller: .unidentified, callerName: nil, address: address,
                    label: "rotating line",
                    payloadHashes: [PayloadSummary.sha256Hex([3])], approval: .confirmation))
        }
        first.record(
            AuditLog.Entry(
                decision: .approved, caller: .unidentified, callerName: nil, address: address,
                label: "line of the writer that opened first",
                payloadHashes: [PayloadSummary.sha256Hex([4])], approval: .confirmation))
        XCTAssertTrue(interleaved.load(ordering: .relaxed), "the second writer wrote while the first had the log open")

        let labels = (try lines(AuditLog.rotatedPath(path)) + lines(path)).compactMap { $0["label"] as? String }
        XCTAssertTrue(
            labels.contains("line of the writer that opened first"), "a line was lost in the rotation: \(labels)")
        XCTAssertTrue(labels.contains("rotating line"), "\(labels)")
        XCTAssertEqual(labels.first, "earlier approval", "the approval carried over from audit.log.1: \(labels)")
        XCTAssertEqual(
            labels.filter { $0.hasPrefix("filler ") }, (0..<20).map { "filler \($0)" }, "the moved log, whole")
        XCTAssertEqual(Set(labels).count, labels.count, "no line twice")
    }

    /// Unasked refusals are counted apart by what they asked to sign, and the counted line says
    /// so (`what`) unless payloads: a cancelled transaction is not counted as a payload.
    func testCountedLinesSayWhatTheyCounted() throws {
        let folder = temporaryFolder(self)
        let log = AuditLog(path: "\(folder)/audit.log")
        var transaction = AuditLog.Entry(
            decision: .cancelled, caller: .unidentified, callerName: nil, address: "vzTo=", label: "main",
            payloadHashes: [])
        transaction.ethereum = .init(
            method: "eth_signTransaction", chain: "eip155:1", digest: [UInt8](repeating: 1, count: 32))
        var message = transaction
        message.ethereum?.method = "personal_sign"
        var solana = AuditLog.Entry(
            decision: .cancelled, caller: .unidentified, callerName: nil, address: "vzTo=", label: "main",
            payloadHashes: ["00", "11"])
        solana.solana = .init(method: "solana_signAllTransactions", chain: "solana:x")
        let payload = AuditLog.Entry(
            decision: .cancelled, caller: .unidentified, callerName: nil, address: "vzTo=", label: "main",
            payloadHashes: ["00"])
        for entry in [transaction, message, solana, payload] { log.record(entry) }
        // The Solana transactions are counted with the Ethereum one (the same caller, decision
        // and kind), and written when the log is flushed.
        log.flush()
        let lines = try String(contentsOfFile: "\(folder)/audit.log", encoding: .utf8).split(separator: "\n").map {
            line in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        XCTAssertEqual(lines.map { $0["what"] as? String }, ["transaction", "message", nil, "transaction"])
        XCTAssertEqual(lines.map { ($0["payload_count"] as? NSNumber)?.intValue }, [1, 1, 1, 2])
    }
}
