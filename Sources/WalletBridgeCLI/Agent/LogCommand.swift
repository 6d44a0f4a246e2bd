import ArgumentParser
import WalletBridge
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent

/// `wallet-bridge log`: the audit log of approvals and refusals.
struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract:
            "Show every signature approved or refused: when, for whom, with which key, and what was signed (payloads' SHA-256, an Ethereum signing hash, transaction ids).",
        discussion:
            "The log is $XDG_STATE_HOME/wallet-bridge/audit.log, one JSON object per line, and audit.log.1, the older lines it moved aside when it reached 8 MiB, with the approvals given in a dialog before them. It never holds payloads or secrets."
    )

    @Flag(help: "Print the log's JSON lines as they are.")
    var json = false

    @Option(help: "Show only the last N entries.")
    var last: Int?

    func run() throws {
        guard let path = AuditLog.defaultPath else { throw CLIFailure("cannot tell where the log is: HOME is not set") }
        // The log that moved aside when it was full (`audit.log.1`), then the current one.
        var bytes: [UInt8] = []
        for file in [AuditLog.rotatedPath(path), path] {
            do {
                if let read = try AtomicFile.read(file, maxBytes: 256 << 20) {
                    bytes += read
                    if !read.isEmpty, bytes.last != 0x0A { bytes.append(0x0A) }
                }
            } catch {
                throw CLIFailure("\(error)")
            }
        }
        guard bytes.contains(where: { $0 != 0x0A }) else {
            if !json { Console.out("Nothing approved or refused yet (\(path) is empty or absent).") }
            return
        }
        var lines = bytes.split(separator: 0x0A).map(Array.init)
        if let last { lines = Array(lines.suffix(max(0, last))) }
        for line in lines {
            if json {
                Console.write(line + [0x0A])
            } else {
                Console.out(Self.describe(line))
            }
        }
    }

    /// One entry for people: `2026-11-23T10:00:00Z  approved (confirmation)  chrome-extension://…/ "Name"  key "main" …  2 payloads [3f9a…, …]`.
    /// The caller (what the browser said) comes before its installed name (what the
    /// extension's author chose). Every text is escaped (`DisplayText.escaped`): a name or a
    /// Firefox add-on's ID is the extension's choice, recorded even when the request was
    /// refused, and must not reach the terminal as a control sequence (clear the screen, write
    /// the clipboard, forge a line). `--json` prints the lines as they are.
    static func describe(_ line: [UInt8]) -> String {
        guard case .object(let entry)? = try? JSONParser.parse(line) else {
            return "(unreadable line) \(DisplayText.escaped(String(decoding: line.prefix(200), as: UTF8.self)))"
        }
        func raw(_ key: String) -> String? {
            if case .string(let value)? = entry[key] { return value }
            return nil
        }
        func text(_ key: String) -> String? { raw(key).map { DisplayText.escaped($0) } }
        let unattended = entry["unattended"] == .bool(true) ? ", unattended" : ""
        let decision = (text("decision") ?? "?") + (text("approval").map { " (\($0)\(unattended))" } ?? "")
        let caller = (text("caller") ?? "?") + (text("caller_name").map { " \"\($0)\"" } ?? "")
        // Solana transaction ids (the fee payer's signature), where known.
        var transactionIDs = ""
        if case .array(let values)? = entry["transaction_ids"] {
            let ids = values.compactMap {
                if case .string(let id) = $0 { DisplayText.escaped(String(id.prefix(12))) + "…" } else { nil }
            }
            if !ids.isEmpty {
                transactionIDs =
                    ", transaction id\(ids.count == 1 ? "" : "s") \(ids.prefix(3).joined(separator: ", "))"
                    + (ids.count > 3 ? ", +\(ids.count - 3) more" : "")
            }
        }
        // A sign-in: the domain it is for, and whether that is the site the request came from.
        var signIn = ""
        if case .object(let record)? = entry["sign_in"], case .string(let domain)? = record["domain"] {
            signIn = ", sign-in for \(DisplayText.escaped(domain))"
            if case .string(let site)? = record["site"] {
                let matches = record["matches_site"] == .bool(true)
                signIn +=
                    matches
                    ? " (the site \(DisplayText.escaped(site)))"
                    : " (NOT the site \(DisplayText.escaped(site)) that asked)"
            } else {
                signIn += " (no site to check it against)"
            }
        }
        let signed: String
        if case .number(let count)? = entry["count"] {
            // Requests nobody answered, counted (`AuditLog`): no key, no hashes.
            // What they asked to sign: payloads unless the line says (`what`).
            let noun = text("what") ?? "payload"
            let payloads =
                if case .number(let number)? = entry["payload_count"] {
                    number.description == "1" ? "1 \(noun)" : "\(number) \(noun)s"
                } else { "? \(noun)s" }
            signed =
                "\(count) \(raw("decision") == "cancelled" ? "cancelled unanswered" : "refused unasked") (\(payloads))"
            return "\(text("time") ?? "?")  \(decision)  \(caller)  \(signed)"
        } else if let method = text("method"), let digest = raw("keccak256") {
            // An Ethereum signature: what was asked, where, and the digest signed; for a
            // transaction, its hash once signed.
            signed =
                "\(method) on \(text("chain") ?? "?"), signing hash (Keccak-256) \(DisplayText.escaped(String(digest.prefix(12))))…"
                + (raw("transaction_hash").map { ", transaction hash \(DisplayText.escaped(String($0.prefix(14))))…" }
                    ?? "")
        } else if let method = text("method") {
            // Solana transactions: what was asked, where, how many, and this key's signatures.
            var count = 0
            if case .number(let number)? = entry["payload_count"], let value = Int(number.description), value >= 0 {
                count = value
            }
            var signatures: [String] = []
            if case .array(let values)? = entry["signatures"] {
                signatures = values.compactMap {
                    if case .string(let text) = $0 { DisplayText.escaped(String(text.prefix(12))) + "…" } else { nil }
                }
            }
            let what = signIn.isEmpty ? (count == 1 ? "1 transaction" : "\(count) transactions") : "a message"
            signed =
                "\(method) on \(text("chain") ?? "?"), \(what)"
                + (signatures.isEmpty
                    ? ""
                    : ", signed \(signatures.prefix(3).joined(separator: ", "))\(signatures.count > 3 ? ", +\(signatures.count - 3) more" : "")")
                + transactionIDs
        } else {
            // The first hashes (a line of an older version lists every payload's), and the
            // hash over all of them (`payload_list_sha256`) when there are more.
            var hashes: [String] = []
            if case .array(let values)? = entry["payload_sha256"] {
                hashes = values.compactMap {
                    if case .string(let hash) = $0 { DisplayText.escaped(String(hash.prefix(12))) + "…" } else { nil }
                }
            }
            var count = hashes.count
            if case .number(let number)? = entry["payload_count"], let value = Int(number.description), value >= 0 {
                count = value
            }
            var listed = Array(hashes.prefix(AuditLog.listedHashes))
            if count > listed.count {
                listed.append("+\(count - listed.count) more")
                if let all = raw("payload_list_sha256") {
                    listed.append("all \(DisplayText.escaped(String(all.prefix(12))))…")
                }
            }
            signed =
                (count == 1 ? "1 payload" : "\(count) payloads") + " [\(listed.joined(separator: ", "))]"
                + transactionIDs
        }
        return
            "\(text("time") ?? "?")  \(decision)  \(caller)  key \"\(text("label") ?? "?")\" \(text("address") ?? "?")  \(signed)\(signIn)"
    }
}
