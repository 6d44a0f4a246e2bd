#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeSystem
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol

/// Every approval and refusal of a signature, one JSON object per line, appended to
/// `$XDG_STATE_HOME/wallet-bridge/audit.log` (mode 0600, folder 0700); `wallet-bridge log`
/// shows it. A line holds the time, the caller, the key, the payload count, the SHA-256 of the
/// first `listedHashes` payloads (the ones a dialog shows) and one SHA-256 over every
/// payload's (`payload_list_sha256`): enough to tell later what was signed for whom, and
/// never a payload or a secret. For an Ethereum signature the method, chain and digest
/// instead; for transactions also the SHA-256 of the dialog's text (`dialog_sha256`) and, once
/// signed, the transactions' ids (`transaction_ids` for Solana, `transaction_hash` for Ethereum)
/// and this key's Solana signatures (`signatures`).
///
/// **Bounded.** Every line is: at most `listedHashes` hashes, and the texts an extension or
/// the person chose cut to `maxTextLength` characters. A request nobody answered
/// (`Decision.isUnasked`: too many waiting, refused by an earlier "Refuse all", no dialog
/// possible, or cancelled, by its caller or its timeout, before the person answered) is not a
/// line of its own: the first of a caller's refusals of one kind is a line with `"count": 1`,
/// and the others within `tallyWindow` after it are counted and written as one line (`count`,
/// `payload_count` the sum), when the next line is written, the window has passed, or the
/// agent or host ends (`flush`). So an extension adds a few lines a minute at most, unless the
/// person answers or allowed it to sign without asking.
///
/// **Rotated, keeping what the person approved.** The line that would take the file past
/// `maxBytes` first moves it to `audit.log.1` (copied, then emptied, under the lock every
/// writer appends under: `write`), and starts a new one. The older `audit.log.1`
/// it replaces gives up every line but the approvals the person gave in a dialog (`approval`
/// `passphrase`, `confirmation`, `confirmation_and_allow`, not unattended): the newest of
/// them, up to `maxBytes`, go to the start of the new `audit.log.1`. Nothing an extension can
/// do without the person (refusals, signatures within an allowance) pushes those out.
package struct AuditLog: Sendable {
    /// The file; nil when there is no home folder to keep it in (nothing is recorded).
    package let path: String?
    /// The size past which the log moves to `audit.log.1` (docs/wallet.md).
    package var maxBytes: Int
    /// How long a caller's unasked refusals of one kind are counted into one line.
    package var tallyWindow: Duration
    /// The clock `tallyWindow` is measured with; tests pass their own.
    package var now: @Sendable () -> ContinuousClock.Instant = Clocks.system.monotonic
    /// Runs after a writer opens the log and before its line lands: tests pass what another
    /// writer (another thread or process) does in that moment.
    package var beforeAppend: (@Sendable () -> Void)?
    /// The unasked refusals counted and not written yet; shared by every copy of this log.
    private let tally = Tallies()

    /// 8 MiB, and a minute.
    package static let defaultMaxBytes = 8 << 20
    package static let defaultTallyWindow: Duration = .seconds(60)
    /// Payload hashes a line lists: as many as a dialog shows (`ConsentRequest`).
    package static let listedHashes = 3
    /// Characters of a caller, a caller's name or a key's label a line keeps.
    package static let maxTextLength = 256

    package init(path: String?, maxBytes: Int = defaultMaxBytes, tallyWindow: Duration = defaultTallyWindow) {
        (self.path, self.maxBytes, self.tallyWindow) = (path, maxBytes, tallyWindow)
    }

    /// `$XDG_STATE_HOME/wallet-bridge/audit.log`.
    package static var defaultPath: String? {
        Environment.folders.stateHome.map { "\($0)/wallet-bridge/audit.log" }
    }

    /// Where the log moves when it is full.
    package static func rotatedPath(_ path: String) -> String { path + ".1" }

    /// What became of a request.
    package enum Decision: String, Sendable {
        /// Signed, after the passphrase or a confirmation.
        case approved
        /// The person refused (Cancel or Refuse, or a closed dialog).
        case declined
        /// Every passphrase offered was wrong.
        case wrongPassphrase = "wrong_passphrase"
        /// The caller left, or its timeout passed, before the person answered.
        case cancelled
        /// Nobody could be asked (no pinentry that can show a dialog): refused unasked.
        case noPrompt = "no_prompt"
        /// Too many requests already waited for the person: refused unasked.
        case tooManyWaiting = "too_many_waiting"
        /// The person chose "Refuse all from this extension" on an earlier dialog: refused unasked.
        case refusedAll = "refused_all"

        /// Requests the person did not answer: refused without asking, or cancelled before an
        /// answer (a dialog may have been up; nothing was signed).
        package var isUnasked: Bool {
            switch self {
            case .tooManyWaiting, .refusedAll, .noPrompt, .cancelled: true
            case .approved, .declined, .wrongPassphrase: false
            }
        }
    }

    /// How a signature was approved.
    package enum Approval: String, Sendable {
        /// The passphrase, typed while the keys were locked.
        case passphrase
        /// The Sign button, while they were unlocked.
        case confirmation
        /// "Sign and allow": this request, and the caller's requests with this key for a while.
        case confirmationAndAllow = "confirmation_and_allow"
        /// Within a while the person allowed before: nobody was asked.
        case allowedBefore = "allowed_before"
    }

    /// One line.
    package struct Entry: Sendable, Equatable {
        package var decision: Decision
        package var caller: Caller
        package var callerName: String?
        /// The key's address (base64, as the extension names it) and label.
        package var address: String
        package var label: String
        /// SHA-256 of each payload, in hex, in request order; none for an Ethereum signature.
        package var payloadHashes: [String]
        /// For an Ethereum signature: the method, the chain, and the Keccak-256 digest signed
        /// (what eth-account's `_hash_eip191_message` or `encode_typed_data` hashes to), in hex.
        package var ethereum: EthereumRecord?
        /// For Solana transactions (`solana_signTransaction`, `solana_signAllTransactions`): the
        /// method, the chain, and once signed each new signature. The messages signed are the
        /// payloads (`payloadHashes`).
        package var solana: SolanaRecord?
        /// SHA-256 of what a transaction dialog said (`ConsentRequest.dialogSHA256`).
        package var dialogSHA256: [UInt8]?
        /// For a sign-in (`personal_sign` of an EIP-4361 message, `solana_signIn`): what it was
        /// for, and whether that is the site the request came from.
        package var signIn: SignInRecord?
        /// Once signed, each Solana transaction's id (its fee payer's signature, base58), in
        /// the order of the transactions (`solana_sign*Transaction*`) or of the payloads
        /// (SignPayloads); nil where none is known yet (the fee payer signs later) or the payload
        /// is not a transaction. Written as `transaction_ids` (the first `listedSignatures`)
        /// when one is known.
        package var transactionIDs: [String?] = []
        /// How the person approved; nil for a refusal.
        package var approval: Approval?
        /// True when the passphrase file answered (`WALLET_BRIDGE_PASSPHRASE_FILE`): nobody was
        /// asked, whatever `approval` says.
        package var unattended = false

        /// Counted, not written with its hashes (see `AuditLog`).
        package var isUnasked: Bool { decision.isUnasked }
        /// Payloads signed or refused: one for an Ethereum signature.
        var payloadCount: Int { ethereum == nil ? payloadHashes.count : 1 }
        /// What was asked to be signed, as a counted line names it (`what`): "transaction",
        /// "message" (an Ethereum message or typed data) or "payload" (SignPayloads).
        var what: String {
            if signIn != nil { return "message" }
            if solana != nil || ethereum?.method == "eth_signTransaction" { return "transaction" }
            return ethereum == nil ? "payload" : "message"
        }
    }

    private final class Tallies: Sendable {
        let state = Mutex<[TallyKey: Tally]>([:])
        /// Whether the end of the process writes what is counted (`EndOfProcess`).
        let flushesAtEnd = Atomic<Bool>(false)
    }

    /// Whose unasked refusals are counted together.
    private struct TallyKey: Hashable {
        let caller: String
        let decision: Decision
        /// `Entry.what`: transactions, messages and payloads are counted apart.
        let what: String
    }

    /// A caller's unasked refusals of one kind since `windowStart`, beyond the one written then.
    private struct Tally {
        let windowStart: ContinuousClock.Instant
        var callerName: String?
        var firstTime: String?
        var count = 0
        var payloads = 0
    }

    /// What the log keeps of an Ethereum signature.
    package struct EthereumRecord: Sendable, Equatable {
        package var method: String
        package var chain: String
        package var digest: [UInt8]
        /// For a transaction, once signed: Keccak-256 of the raw signed transaction, its hash
        /// on the chain.
        package var transactionHash: [UInt8]?

        package init(method: String, chain: String, digest: [UInt8], transactionHash: [UInt8]? = nil) {
            (self.method, self.chain, self.digest, self.transactionHash) = (method, chain, digest, transactionHash)
        }
    }

    /// What the log keeps of Solana transactions besides their messages' hashes.
    package struct SolanaRecord: Sendable, Equatable {
        package var method: String
        package var chain: String
        /// This key's signature of each transaction, in base58 (a transaction's id when this
        /// key pays its fee); none before signing.
        package var signatures: [String]

        package init(method: String, chain: String, signatures: [String] = []) {
            (self.method, self.chain, self.signatures) = (method, chain, signatures)
        }
    }

    /// What the log keeps of a sign-in: the domain it is for (with the message's scheme, when it
    /// names one) and its URI, as the site wrote them; the site the request came from (the
    /// session's origin), and whether the two are the same (`SignInCheck`). A session without a
    /// site has neither: the sign-in could not be checked. Written as `sign_in`.
    package struct SignInRecord: Sendable, Equatable {
        package var domain: String
        package var uri: String?
        package var site: String?
        package var matchesSite: Bool?

        package init(domain: String, uri: String? = nil, site: String? = nil, matchesSite: Bool? = nil) {
            (self.domain, self.uri, self.site, self.matchesSite) = (domain, uri, site, matchesSite)
        }

        var json: JSONValue {
            var members: [String: JSONValue] = ["domain": .string(AuditLog.bounded(domain))]
            if let uri { members["uri"] = .string(AuditLog.bounded(uri)) }
            if let site { members["site"] = .string(AuditLog.bounded(site)) }
            if let matchesSite { members["matches_site"] = .bool(matchesSite) }
            return .object(members)
        }
    }

    /// Signatures a line lists: a batch holds at most 16 transactions.
    package static let listedSignatures = 16

    /// Appends `entry` with the current time; an unasked refusal is counted (see `AuditLog`).
    /// A log that cannot be written is reported on stderr; it does not stop the signature (the
    /// person has already answered).
    package func record(_ entry: Entry) {
        guard path != nil else { return }
        let time = Keystore.timestampNow()
        guard entry.isUnasked else {
            write(pendingTallies() + [Self.line(entry, time: time)])
            return
        }
        let key = TallyKey(caller: entry.caller.identity ?? "unidentified", decision: entry.decision, what: entry.what)
        let instant = now()
        let lines: [[UInt8]] = tally.state.withLock { tally in
            if var open = tally[key], instant < open.windowStart + tallyWindow {
                open.count += 1
                open.payloads += entry.payloadCount
                open.callerName = open.callerName ?? entry.callerName
                open.firstTime = open.firstTime ?? time
                tally[key] = open
                return []
            }
            var lines = Self.take(&tally, before: instant - tallyWindow)
            lines.append(
                Self.countedLine(
                    time: time, key: key, callerName: entry.callerName, count: 1, payloads: entry.payloadCount))
            tally[key] = Tally(windowStart: instant)
            return lines
        }
        write(lines)
        // What is counted from now on is written at the end of the process at the latest.
        if !tally.flushesAtEnd.exchange(true, ordering: .relaxed) { EndOfProcess.register { [self] in flush() } }
    }

    /// Writes what was counted and not written yet (`EndOfProcess` calls it as the agent or
    /// the host ends).
    package func flush() {
        guard path != nil else { return }
        write(pendingTallies())
    }

    /// The counted lines not written yet; their counts start again at zero.
    private func pendingTallies() -> [[UInt8]] {
        tally.state.withLock { tally in Self.take(&tally, before: nil) }
    }

    /// Lines for the tallies with a count: every one, whose count starts again at zero in the
    /// same window (`expired` nil); or only those whose window began before `expired`, which
    /// are dropped.
    private static func take(_ tally: inout [TallyKey: Tally], before expired: ContinuousClock.Instant?) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for key in tally.keys.sorted(by: {
            ($0.caller, $0.decision.rawValue, $0.what) < ($1.caller, $1.decision.rawValue, $1.what)
        }) {
            guard var open = tally[key] else { continue }
            if let expired, open.windowStart >= expired { continue }
            if open.count > 0, let firstTime = open.firstTime {
                lines.append(
                    countedLine(
                        time: firstTime, key: key, callerName: open.callerName, count: open.count,
                        payloads: open.payloads))
            }
            if expired != nil {
                tally[key] = nil
            } else {
                (open.count, open.payloads, open.firstTime) = (0, 0, nil)
                tally[key] = open
            }
        }
        return lines
    }

    /// `count` unasked refusals from `time` on: no key, no hashes (they are not worth a
    /// growing log), how many payloads they held in all, and what they asked to sign (`what`,
    /// written unless payloads).
    private static func countedLine(time: String, key: TallyKey, callerName: String?, count: Int, payloads: Int)
        -> [UInt8]
    {
        var members: [String: JSONValue] = [
            "time": .string(time),
            "decision": .string(key.decision.rawValue),
            "caller": .string(bounded(key.caller)),
            "count": .number(JSONNumber(count)),
            "payload_count": .number(JSONNumber(payloads)),
        ]
        if key.what != "payload" { members["what"] = .string(key.what) }
        if let callerName { members["caller_name"] = .string(bounded(callerName)) }
        return JSONValue.object(members).jsonBytes + [0x0A]
    }

    private static func line(_ entry: Entry, time: String) -> [UInt8] {
        var members: [String: JSONValue] = [
            "time": .string(time),
            "decision": .string(entry.decision.rawValue),
            "caller": .string(bounded(entry.caller.identity ?? "unidentified")),
            "address": .string(bounded(entry.address)),
            "label": .string(bounded(entry.label)),
        ]
        if let ethereum = entry.ethereum {
            members["method"] = .string(ethereum.method)
            members["chain"] = .string(ethereum.chain)
            members["keccak256"] = .string(Hex.encode(ethereum.digest))
            if let hash = ethereum.transactionHash { members["transaction_hash"] = .string(Hex.prefixed(hash)) }
        } else {
            if let solana = entry.solana {
                members["method"] = .string(solana.method)
                members["chain"] = .string(solana.chain)
                if !solana.signatures.isEmpty {
                    members["signatures"] = .array(
                        solana.signatures.prefix(listedSignatures).map { .string(bounded($0)) })
                }
            }
            members["payload_count"] = .number(JSONNumber(entry.payloadHashes.count))
            members["payload_sha256"] = .array(entry.payloadHashes.prefix(listedHashes).map { .string($0) })
            members["payload_list_sha256"] = .string(listHash(entry.payloadHashes))
        }
        if let dialog = entry.dialogSHA256 { members["dialog_sha256"] = .string(Hex.encode(dialog)) }
        if let signIn = entry.signIn { members["sign_in"] = signIn.json }
        if entry.transactionIDs.contains(where: { $0 != nil }) {
            members["transaction_ids"] = .array(
                entry.transactionIDs.prefix(listedSignatures).map { $0.map { .string(bounded($0)) } ?? .null })
        }
        if let name = entry.callerName { members["caller_name"] = .string(bounded(name)) }
        if let approval = entry.approval { members["approval"] = .string(approval.rawValue) }
        if entry.unattended { members["unattended"] = true }
        return JSONValue.object(members).jsonBytes + [0x0A]
    }

    /// SHA-256 of the payloads' SHA-256 digests (32 bytes each), concatenated in request
    /// order: with the payloads in hand, anyone can tell whether these were the ones, however
    /// many there were (`payload_sha256` lists only the first `listedHashes`).
    package static func listHash(_ hashes: [String]) -> String {
        Hex.encode(Sodium.sha256(hashes.flatMap { Hex.decode($0) ?? [] }))
    }

    /// `text`, cut to `maxTextLength` characters ("…" where cut).
    private static func bounded(_ text: String) -> String {
        text.unicodeScalars.count <= maxTextLength
            ? text : String(String.UnicodeScalarView(text.unicodeScalars.prefix(maxTextLength - 1))) + "…"
    }

    /// Appends `lines`, in one write, holding the log's lock (flock, exclusive, on the file as
    /// opened): every writer (the agent's threads, a host with `"agent": false`, the agents of
    /// two keystores) appends under it, and a rotation holds it from reading the log to
    /// emptying it, so no line lands in between (issue 33 round 2 review, MUST 1). When the
    /// line would take the file past `maxBytes`, the log first moves to `audit.log.1`
    /// (`rotate`). The lock costs one uncontended flock per line.
    private func write(_ lines: [[UInt8]]) {
        guard let path, !lines.isEmpty else { return }
        let bytes = Array(lines.joined())
        do {
            try AtomicFile.ensureFolder(AtomicFile.split(path).folder)
        } catch {
            return Log.error("cannot keep the audit log: \(error)")
        }
        let fd = Self.open(path)
        guard fd >= 0 else {
            return Log.error("cannot open the audit log \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        beforeAppend?()
        // A line matters more than the lock: written even if the lock fails (it does not, on a
        // regular file).
        let locked = SystemCall.retryingInterrupts({ flock(fd, LOCK_EX) }) == 0
        if !locked { Log.error("cannot lock the audit log \(path): \(String(cString: strerror(errno)))") }
        defer { if locked { flock(fd, LOCK_UN) } }
        var info = stat()
        if locked, fstat(fd, &info) == 0, info.st_size > 0, Int(info.st_size) + bytes.count > maxBytes {
            rotate(path, emptying: fd)
        }
        if let code = bytes.withUnsafeBytes({ SystemCall.writeAll(fd, $0) }) {
            Log.error("cannot write the audit log \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Copies the full log to `audit.log.1`, in front of it the newest approvals in a dialog
    /// (up to `maxBytes`) of the `audit.log.1` it replaces, then empties the log. The caller
    /// holds the log's lock (`write`), so no line is appended between the read and the
    /// emptying. audit.log.1 is replaced whole (`AtomicFile.replace`), so a crash leaves the
    /// older one or the newer one; a crash between the replacement and the emptying leaves the
    /// moved lines in both files. Nothing is lost when a step fails: an unreadable log or
    /// audit.log.1 is left as it is, reported, and tried again at the next line.
    private func rotate(_ path: String, emptying fd: Int32) {
        let rotated = Self.rotatedPath(path)
        do {
            try AtomicFile.withFolderLock(AtomicFile.split(path).folder, failed: KeystoreError.init) {
                () throws(KeystoreError) in
                let moved: [UInt8]
                let kept: [UInt8]
                do {
                    moved = try AtomicFile.read(path, maxBytes: Self.maxReadBytes) ?? []
                    kept = try Self.approvalsInADialog(in: rotated, upTo: maxBytes)
                } catch {
                    return Log.error("cannot move the full audit log \(path) aside: \(error)")
                }
                do {
                    try AtomicFile.replace(rotated, with: kept + moved, mode: 0o600)
                } catch {
                    return Log.error("cannot move the full audit log \(path) aside: \(error)")
                }
                if ftruncate(fd, 0) != 0 {
                    Log.error("cannot empty the full audit log \(path): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            Log.error("cannot move the full audit log \(path) aside: \(error)")
        }
    }

    /// The most a rotation reads of a log (a log of an older version could be larger).
    private static let maxReadBytes = 256 << 20

    /// The newest lines of `path` that record an approval in a dialog, at most `limit` bytes of
    /// them, in their order; none when there is no such file. Throws when it cannot be read:
    /// then it is not replaced.
    private static func approvalsInADialog(in path: String, upTo limit: Int) throws(AtomicFile.ReadFailure) -> [UInt8] {
        guard let bytes = try AtomicFile.read(path, maxBytes: maxReadBytes) else { return [] }
        var kept: [ArraySlice<UInt8>] = []
        var size = 0
        for line in bytes.split(separator: 0x0A).reversed() where isApprovalInADialog(line) {
            guard size + line.count + 1 <= limit else { break }
            kept.append(line)
            size += line.count + 1
        }
        return kept.reversed().flatMap { Array($0) + [0x0A] }
    }

    /// Whether a line of the log records an approval the person gave in a dialog: `approved` by
    /// passphrase, confirmation or "Sign and allow", and not by the passphrase file.
    private static func isApprovalInADialog(_ line: ArraySlice<UInt8>) -> Bool {
        guard case .object(let entry)? = try? JSONParser.parse(Array(line)),
            case .string("approved")? = entry["decision"], entry["unattended"] != .bool(true),
            case .string(let approval)? = entry["approval"]
        else { return false }
        return [Approval.passphrase, .confirmation, .confirmationAndAllow].map(\.rawValue).contains(approval)
    }

    private static func open(_ path: String) -> Int32 {
        Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    }
}

extension AuditLog.Entry {
    /// A line before the signing adds its details (in an extension, so that the memberwise
    /// initializer stays for this module).
    package init(
        decision: AuditLog.Decision, caller: Caller, callerName: String?, address: String, label: String,
        payloadHashes: [String]
    ) {
        (self.decision, self.caller, self.callerName) = (decision, caller, callerName)
        (self.address, self.label, self.payloadHashes) = (address, label, payloadHashes)
    }
}
