import CLinux
import Dispatch
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol
import WalletBridgeSessions
import WalletBridgeTransactions

/// The shipped wallet: accounts from the encrypted keystore, signatures after the person
/// approves, with the keystore passphrase or, while the keys are unlocked, with a confirmation.
///
/// The agent runs it with an `UnlockCache`: after one passphrase the keystore key stays in
/// secure memory for a while, and each request needs only the person's confirmation. A wallet
/// without one (a host that signs by itself) asks for the passphrase every time.
///
/// GetAccounts reads the keystore's public part on every call (so keys created while a port is
/// open appear) and never needs the passphrase or runs Argon2. SignPayloads checks the request
/// before asking anyone: unknown address -32602, bad payloads -2, too many payloads -6. Then it
/// asks (one dialog at a time, callers in turn: `ConsentQueue`), unlocks the key and signs; any failure to get
/// consent or use the passphrase is -3 with `data.reason`. Each answer goes to the audit log.
public struct KeystoreWallet: AccountsAtHand {
    /// Where the keys are.
    public let keystore: Keystore
    /// More payloads in one request are refused with -6.
    public let maxPayloads: Int
    /// The payload limit unless the config sets one (`max_payloads`).
    public static let defaultMaxPayloads = 1024
    /// Where the passphrase, and with it consent, comes from.
    public let passphrases: any PassphraseSource
    /// Keeps the keys unlocked between requests; nil asks for the passphrase every time.
    package var unlockCache: UnlockCache?
    /// Where each approval and refusal is recorded.
    package var auditLog = AuditLog(path: AuditLog.defaultPath)
    /// The process that started the caller's host (the browser), to find the extension's name
    /// in its profile; nil when unknown.
    package var browserProcess: Int32?
    /// `approve_for_minutes`: when set (and the keys are kept unlocked), a confirmation also
    /// offers to sign what this caller asks of this key for that long without asking.
    package var allowMinutes: Int?
    private let consentQueue: ConsentQueue
    /// Signature requests waiting for the person, the one in a dialog included (every copy of
    /// this wallet shares one queue, with a line per caller).
    package var signatureRequestsInLine: Int { consentQueue.inLine.load(ordering: .relaxed) }
    /// GetAccounts' copy of the keystore (see there for when it is checked).
    private let readCache: KeystoreReadCache

    /// Argon2 takes up to a second of CPU: off the cooperative pool, like pinentry.
    private static let unlockQueue = DispatchQueue(label: "wallet-bridge.unlock", attributes: .concurrent)

    public init(keystore: Keystore, maxPayloads: Int = defaultMaxPayloads, passphrases: any PassphraseSource) {
        self.init(keystore: keystore, maxPayloads: maxPayloads, passphrases: passphrases, clocks: .system)
    }

    /// `clocks`: the time the read cache, the consent queue and the audit log count in.
    package init(
        keystore: Keystore, maxPayloads: Int = defaultMaxPayloads, passphrases: any PassphraseSource, clocks: Clocks
    ) {
        self.keystore = keystore
        consentQueue = ConsentQueue(now: clocks.monotonic)
        auditLog.now = clocks.monotonic
        self.maxPayloads = maxPayloads
        self.passphrases = passphrases
        let onNetworkFilesystem = Self.isOnNetworkFilesystem(keystore.path)
        self.getAccountsExecution = onNetworkFilesystem ? .concurrent : .immediate
        readCache = KeystoreReadCache(watchable: !onNetworkFilesystem, clocks: clocks)
    }

    /// Looks at the nearest existing folder of `path` (the keystore may not exist yet).
    static func isOnNetworkFilesystem(_ path: String) -> Bool {
        // f_type values from statfs(2) and linux/magic.h. A switch, not a Set: this runs on
        // every cold start, and a Set's first use costs more than the statfs.
        func isNetwork(_ type: Int) -> Bool {
            switch type {
            case 0x6969,  // NFS
                0x517B, 0xFF53_4D42, 0xFE53_4D42,  // SMB, CIFS, SMB2
                0x6573_5546,  // FUSE: sshfs, rclone and the like
                0x00C3_6400, 0x5346_414F, 0x7375_7245, 0x0102_1997, 0x0BD0_0BD0:  // Ceph, AFS, Coda, 9p, Lustre
                true
            default:
                false
            }
        }
        var folder = path
        while true {
            var info = statfs()
            if statfs(folder, &info) == 0 { return isNetwork(Int(info.f_type)) }
            guard let slash = folder.lastIndex(of: "/"), slash != folder.startIndex else { return false }
            folder = String(folder[..<slash])
        }
    }

    /// The wallet the shipped host serves with `config`: its keystore (`keystorePath`, else the
    /// configured one), its payload limit, and its passphrase source
    /// (`WALLET_BRIDGE_PASSPHRASE_FILE` if set, else pinentry).
    /// `pinentryGuard`: the `wallet-bridge` executable, which runs pinentry under
    /// `PinentryGuard` (a process that may be killed outright, the agent, passes it).
    public init(config: WalletConfig, keystorePath: String? = nil, pinentryGuard: String? = nil) {
        let resolved = keystorePath ?? KeystoreLocation.resolve(configured: config.keystore)
        if resolved == nil {
            Log.error("no keystore location: HOME is not set; set \(KeystoreLocation.environmentVariable)")
        }
        let path = resolved ?? "/nonexistent/wallet-bridge/\(KeystoreLocation.fileName)"
        let source: any PassphraseSource
        if let file = Environment.string(PassphraseSources.fileVariable) {
            Log.warning(
                "\(PassphraseSources.fileVariable) is set: signing with the passphrase from \(file), asking nobody (automation only)"
            )
            source = PassphraseFileSource(path: file)
        } else {
            let configured = Environment.string(PassphraseSources.pinentryVariable) ?? config.pinentry
            source = PinentrySource(
                PinentryChoice.forThisProcess(configured: configured), guardExecutable: pinentryGuard)
        }
        self.init(keystore: Keystore(path: path), maxPayloads: config.maxPayloads, passphrases: source)
    }

    /// Asks `question` in `caller`'s turn: one dialog at a time with the signatures'
    /// (`ConsentQueue`), with "Refuse all from this extension" as a third button.
    /// `.failure(.unavailable)` when nobody could be asked (the reason is logged; `fix` says
    /// what to do); `.failure(.declined)`, unasked, within a while after "Refuse all".
    package func ask(_ question: ConsentQuestion, for caller: Caller) async throws -> Result<Bool, ConsentRefusal> {
        let line = Self.queueLine(caller)
        var question = question
        question.offersRefuseAll = true
        do {
            return .success(
                try await consentQueue.run(for: line) {
                    do {
                        return try await passphrases.ask(question)
                    } catch is RefusedAllFromCaller {
                        await refuseAll(line)
                        return false
                    }
                })
        } catch let refusal as ConsentRefusal {
            if case .unavailable(let detail, _) = refusal { Log.error("cannot ask the person: \(detail)") }
            return .failure(refusal)
        } catch let full as ConsentQueue.Full {
            Log.warning("not asked: \(Self.describe(full, consentQueue)) wait for the person")
            return .failure(.unavailable("too many requests wait for the person"))
        } catch is ConsentQueue.RefusedAll {
            Log.info("not asked: the person refused everything from \(caller) a moment ago")
            return .failure(.declined)
        }
    }

    /// The caller's line in the consent queue.
    private static func queueLine(_ caller: Caller) -> String { caller.identity ?? "unidentified" }

    /// "Refuse all from this extension": its waiting requests and, for a while, its new ones.
    private func refuseAll(_ line: String) async {
        Log.info("the person refused everything from \(line) for \(consentQueue.refuseAllDuration)")
        await consentQueue.refuseAll(line)
    }

    private static func describe(_ full: ConsentQueue.Full, _ queue: ConsentQueue) -> String {
        full.perCaller ? "\(queue.perCallerLimit) requests of this caller already" : "\(queue.limit) requests already"
    }

    /// The keystore's public keys in base64, in the order they were added.
    public func accountsAtHand(context: RequestContext) throws -> GetAccountsResult {
        GetAccountsResult(addresses: try publicContents(context: context).addresses)
    }

    /// The keystore's public part as of the request, from `readCache`; the file's exposure is
    /// warned about when it was read anew, not on every call of a persistent port.
    ///
    /// Every address an extension is given comes through here: GetAccounts, the agent's
    /// answers, a session's accounts, `eth_accounts`. None is given from a keystore that other
    /// users could have changed (`ChangeableByOthers`): they could have put their own address
    /// in it, and an extension would have the person pay it. Signing refuses such a keystore
    /// too (`keystoreForSigning`).
    private func publicContents(context: RequestContext) throws -> KeystoreReadCache.Contents {
        let contents = try readKeystore { () throws(KeystoreError) in
            try readCache.read(keystore, notBefore: context.receivedAt)
        }
        if let reason = contents.changeableByOthers {
            Log.error("not listing the accounts: \(reason)")
            throw Self.keystoreChangeableByOthers
        }
        contents.warnIfExposed(keystore)
        return contents
    }

    /// The answer to a request for the accounts of a keystore other users could have changed:
    /// -32603, with the reason for the extension and the fix in the log (it names paths).
    package static let keystoreChangeableByOthers = RPCError(
        .internalError,
        data: .object([
            "reason": ErrorReason.keystoreWritableByOthers.jsonValue,
            "problem": .string("other users can change the keystore; the wallet's log says how to fix it"),
        ]))

    /// `.immediate` when the keystore is on a local filesystem: GetAccounts reads the public
    /// part of a small file, no passphrase, no Argon2, quick enough to answer on the reader
    /// thread, which is most of what a `sendNativeMessage` call waits for. On NFS, SMB or FUSE
    /// (sshfs) a read can hang, and on the reader thread it would hold up every other request,
    /// signals and timeouts with it: there, GetAccounts runs on the pool.
    public let getAccountsExecution: Execution

    /// Each payload followed by its signature, after the person approves.
    public func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        let file = try keystoreForSigning()
        guard let entry = file.entry(address: params.address) else { throw Self.noSuchAddress }
        let payloads = try PayloadSigning.decodePayloads(params.payloads, maxPayloads: maxPayloads)
        let bytes = payloads.map(\.bytes)
        let (secretKey, approved, messages) = try await consentToSignPayloads(
            bytes, entry: entry, in: file, context: context)
        let signed = secretKey.withUnsafeBytes { key in PayloadSigning.sign(payloads, secretKey: key) }
        record(approved, signedBy: entry, messages: messages) { index in
            // Such a payload is at most a transaction's size: decoding it again is cheap.
            Base64.decode(signed[index]).map { Array($0.suffix(Ed25519.signatureBytes)) }
        }
        return SignPayloadsResult(signed_payloads: signed)
    }

    /// The 64-byte Ed25519 signature of `message` by the key of `publicKey`, with the consent
    /// and audit of a SignPayloads of that one message: `solana_signMessage` in a session,
    /// which has the bytes and the key at hand and needs no payload text either way.
    package func signMessage(_ message: [UInt8], publicKey: [UInt8], context: RequestContext) async throws -> [UInt8] {
        let file = try keystoreForSigning()
        guard let entry = file.entry(address: Base64.encode(publicKey)) else { throw Self.noSuchAddress }
        let (secretKey, approved, messages) = try await consentToSignPayloads(
            [message], entry: entry, in: file, context: context)
        let signature = secretKey.withUnsafeBytes { key in Ed25519.sign(message, secretKey: key) }
        record(approved, signedBy: entry, messages: messages) { _ in signature }
        return signature
    }

    private static let noSuchAddress = RPCError.invalidParams("address", "no account with this address")

    /// What SignPayloads shows and asks for `payloads`: the unlocked key, the audit entry of its
    /// approval (`consentAndKey`), and each payload read as a Solana transaction message.
    private func consentToSignPayloads(
        _ payloads: [[UInt8]], entry: KeystoreFile.Entry, in file: KeystoreFile, context: RequestContext
    ) async throws -> (SecureBytes, AuditLog.Entry, [SolanaMessage?]) {
        var request = ConsentRequest(
            caller: context.caller, callerName: await callerName(of: context.caller),
            keyLabel: entry.label, shortAddress: entry.shortAddress,
            payloads: payloads.map { PayloadSummary(bytes: $0) })
        request.site = context.site
        // A text that reads as a Sign In With Solana message (solana_signMessage of one) is a
        // sign-in to the person: asked each time, and checked against the site as far as its
        // first line goes.
        let signIns = payloads.compactMap { payload in
            String(validating: payload, as: UTF8.self).flatMap { $0.contains(SolanaSignInInput.marker) ? $0 : nil }
        }
        request.isSignIn = !signIns.isEmpty
        request.warnings = signIns.compactMap { text in
            SignInCheck.malformedWarning(text: text, site: context.site, schemelessIsHTTPS: false)
        }
        let messages = Self.solanaMessages(in: payloads)
        request.transactions = Self.solanaTransactions(messages, payloads: payloads, signer: entry.publicKey)
        do throws(TransactionConsent.TooMuch) {
            try request.checkTransactionsFit()
        } catch {
            // walletlib has no -32602 for payloads: -6, "too many payloads", says to send fewer.
            throw RPCError(
                .tooManyPayloads,
                data: .object([
                    "count": .number(JSONNumber(payloads.count)), "problem": .string(error.problem),
                ]))
        }
        var audit = AuditLog.Entry(
            decision: .approved, caller: context.caller, callerName: request.callerName, address: entry.address,
            label: entry.label,
            payloadHashes: payloads.map(PayloadSummary.sha256Hex))
        audit.dialogSHA256 = request.dialogSHA256
        let (secretKey, approved) = try await consentAndKey(request, entry: entry, in: file, audit: audit)
        return (secretKey, approved, messages)
    }

    /// Records an approved signature of payloads read as `messages`: a transaction message this
    /// key pays the fee of has its signature (`signature(index)`) as its id.
    private func record(
        _ approved: AuditLog.Entry, signedBy entry: KeystoreFile.Entry, messages: [SolanaMessage?],
        signature: (Int) -> [UInt8]?
    ) {
        var approved = approved
        if messages.contains(where: { $0 != nil }) {
            approved.transactionIDs = messages.indices.map { index in
                guard messages[index]?.accountKeys.first == entry.publicKey, let bytes = signature(index) else {
                    return nil
                }
                return Base58.encode(bytes)
            }
        }
        auditLog.record(approved)
    }

    /// Each payload read as a Solana transaction message (`SolanaMessage(bytes:)` reads all of
    /// it, and refuses one longer than a transaction before reading), or nil.
    static func solanaMessages(in payloads: [[UInt8]]) -> [SolanaMessage?] {
        payloads.map { try? SolanaMessage(bytes: $0) }
    }

    /// What SignPayloads shows when one of its payloads or more is a Solana transaction
    /// message (`SolanaMessage(bytes:)` reads all of it): each such payload as
    /// `solana_signTransaction` shows it for `signer`, the others as their preview; nil when
    /// none is (the payloads are shown as they always were). A payload longer than a
    /// transaction is not read.
    static func solanaTransactions(in payloads: [[UInt8]], signer: [UInt8]) -> TransactionConsent? {
        solanaTransactions(solanaMessages(in: payloads), payloads: payloads, signer: signer)
    }

    /// As above, with the payloads already read (`solanaMessages(in:)`). The transactions are
    /// laid out before the other payloads (`TransactionConsent`).
    static func solanaTransactions(_ messages: [SolanaMessage?], payloads: [[UInt8]], signer: [UInt8])
        -> TransactionConsent?
    {
        guard messages.contains(where: { $0 != nil }) else { return nil }
        let summaries = zip(messages, payloads).map { message, bytes in
            message?.summary(signer: signer)
                ?? TransactionSummary(kind: PayloadSummary(bytes: bytes).preview, actionNoun: "part")
        }
        return TransactionConsent(chain: nil, summaries: summaries, noun: "payload")
    }

    /// The Ed25519 signature of each of `signing.messages` by the key of `signing.publicKey`,
    /// after the person approves what `signing.consent` shows. The audit log records the
    /// messages' SHA-256 (as payloads), the dialog's, and the signatures.
    package func signSolana(_ signing: SolanaSigningRequest, context: RequestContext) async throws -> [[UInt8]] {
        let file = try keystoreForSigning()
        guard let entry = file.entry(address: Base64.encode(signing.publicKey)) else {
            throw RPCError.invalidParams("request.params.pubkey", "no account with this public key")
        }
        var request = ConsentRequest(
            caller: context.caller, callerName: await callerName(of: context.caller), keyLabel: entry.label,
            shortAddress: entry.shortAddress,
            payloads: [])
        request.site = context.site
        request.isSignIn = signing.signIn != nil
        request.transactions = signing.consent
        do throws(TransactionConsent.TooMuch) { try request.checkTransactionsFit() } catch {
            throw error.rpcError(at: signing.field)
        }
        var audit = AuditLog.Entry(
            decision: .approved, caller: context.caller, callerName: request.callerName, address: entry.address,
            label: entry.label,
            payloadHashes: signing.messages.map(PayloadSummary.sha256Hex))
        audit.solana = .init(method: signing.method, chain: signing.chain.description)
        audit.signIn = signing.signIn
        audit.dialogSHA256 = request.dialogSHA256
        var (secretKey, approved) = try await consentAndKey(request, entry: entry, in: file, audit: audit)
        let signatures = secretKey.withUnsafeBytes { key in signing.messages.map { Ed25519.sign($0, secretKey: key) } }
        approved.solana?.signatures = signatures.map(Base58.encode)
        approved.transactionIDs = signing.transactionIDs(signedWith: signatures)
        auditLog.record(approved)
        return signatures
    }

    /// An Ethereum signature (r ‖ s ‖ v) of `signing.digest` by the secp256k1 key of its
    /// address, after the person approves what `signing.consent` shows. The audit log records
    /// the digest.
    package func signEthereum(_ signing: EthereumSigningRequest, context: RequestContext) async throws -> [UInt8] {
        let file = try keystoreForSigning()
        guard let entry = file.entry(ethereumAddress: signing.address) else {
            throw RPCError.invalidParams(signing.addressField, "no Ethereum account with this address")
        }
        var request = ConsentRequest(
            caller: context.caller, callerName: await callerName(of: context.caller), keyLabel: entry.label,
            shortAddress: entry.shortAddress,
            payloads: [])
        request.site = context.site
        request.isSignIn = signing.consent?.readsAsSignIn == true
        request.ethereum = signing.consent
        request.transactions = signing.transactionConsent
        do throws(TransactionConsent.TooMuch) {
            try request.checkTransactionsFit()
        } catch {
            throw error.rpcError(at: signing.transactionField)
        }
        var audit = AuditLog.Entry(
            decision: .approved, caller: context.caller, callerName: request.callerName, address: entry.address,
            label: entry.label,
            payloadHashes: [])
        audit.ethereum = .init(method: signing.method, chain: signing.chain.description, digest: signing.digest)
        audit.signIn = signing.consent?.signIn
        audit.dialogSHA256 = request.dialogSHA256
        var (secretKey, approved) = try await consentAndKey(request, entry: entry, in: file, audit: audit)
        guard let signature = Secp256k1.sign(digest: signing.digest, secretKey: secretKey) else {
            auditLog.record(approved)
            Log.error("libsecp256k1 did not sign with \(entry.address)")
            throw RPCError(.notSigned, reason: .unlockFailed)
        }
        if let transaction = signing.transaction {
            approved.ethereum?.transactionHash = Keccak256.hash(transaction.signed(with: signature))
        }
        auditLog.record(approved)
        return signature
    }

    /// A session's accounts: the Ed25519 keys' base58, the secp256k1 keys' EIP-55 addresses.
    package func accounts(context: RequestContext) throws -> SessionAccounts {
        let contents = try publicContents(context: context)
        return SessionAccounts(
            walletlibAddresses: contents.addresses, eip155: contents.ethereumAddresses.map(\.description))
    }

    /// The keystore as it is now, for a signature: read anew (signing is rare and slow, and
    /// must use the file as it is now), and refused when others could have changed it.
    private func keystoreForSigning() throws -> KeystoreFile {
        if let reason = ChangeableByOthers.reason(for: keystore.path) {
            // Whoever can change the keystore can put their own key under this address, and
            // the person's approval would sign with it.
            Log.error("not signing: \(reason)")
            throw RPCError(.notSigned, reason: .keystoreWritableByOthers)
        }
        guard let file = try readKeystore({ () throws(KeystoreError) in try keystore.read() }) else {
            throw RPCError.invalidParams("address", "no account with this address")
        }
        for warning in keystore.exposureWarnings() { Log.warning(warning) }
        return file
    }

    /// Asks the person about `request` in its turn, and gives the secret key of `entry` once
    /// they approve, with `audit` (what is signed) completed with the approval: the caller
    /// records it once it has signed (adding what only signing gives: a transaction's id). A
    /// refusal is recorded here. Any failure to get consent or use the passphrase is -3 with
    /// `data.reason`.
    private func consentAndKey(
        _ request: ConsentRequest, entry: KeystoreFile.Entry, in file: KeystoreFile, audit: AuditLog.Entry
    ) async throws -> (SecureBytes, AuditLog.Entry) {
        var request = request
        request.keysStayUnlocked = unlockCache != nil
        var audit = audit
        audit.unattended = !passphrases.asksAPerson
        let secretKey: SecureBytes
        let line = Self.queueLine(request.caller)
        do {
            let approval: AuditLog.Approval
            (secretKey, approval) = try await consentQueue.run(for: line) {
                do {
                    return try await approve(request, entry: entry, in: file, line: line)
                } catch is RefusedAllFromCaller {
                    await refuseAll(line)
                    throw ConsentRefusal.declined
                }
            }
            audit.approval = approval
        } catch let refusal as ConsentRefusal {
            // A refusal by the person is recorded; no way to ask anyone is only logged.
            switch refusal {
            case .declined: audit.decision = .declined
            case .wrongPassphrase: audit.decision = .wrongPassphrase
            case .unavailable: audit.decision = .noPrompt
            }
            auditLog.record(audit)
            throw Self.notSigned(refusal)
        } catch let full as ConsentQueue.Full {
            Log.warning("signature refused before asking: \(Self.describe(full, consentQueue)) wait for the person")
            audit.decision = .tooManyWaiting
            auditLog.record(audit)
            throw RPCError(.notSigned, reason: .tooManyWaiting)
        } catch is ConsentQueue.RefusedAll {
            // The person said so a moment ago: a refusal by the person, though not asked again.
            audit.decision = .refusedAll
            auditLog.record(audit)
            throw Self.notSigned(.declined)
        } catch UnlockFailure.keystore(let error) {
            // Logged where it happened. A damaged entry is "key_damaged" so that someone
            // debugging an extension knows retrying is pointless.
            let reason: ErrorReason = if case .keyDamaged = error { .keyDamaged } else { .unlockFailed }
            throw RPCError(.notSigned, reason: reason)
        } catch is CancellationError {
            // Nobody answered, whether or not its dialog was up: counted, like the refusals
            // nobody was asked about, so that a caller that leaves as its dialog comes cannot
            // fill the log with lines of its own (`AuditLog`).
            audit.decision = .cancelled
            auditLog.record(audit)
            throw CancellationError()
        }
        return (secretKey, audit)
    }

    /// The person's consent to `request`, and with it the secret key of `entry`: while the keys
    /// are unlocked, an approval the person allowed for a while, or a confirmation; else the
    /// passphrase (which unlocks them, when there is a cache). Runs in the consent queue, so an
    /// unlock or an allowance by the request before counts here.
    private func approve(
        _ request: ConsentRequest, entry: KeystoreFile.Entry, in file: KeystoreFile, line: String
    ) async throws -> (SecureBytes, AuditLog.Approval) {
        if let unlockCache, unlockCache.isUnlocked(for: file) {
            let heldKey = { () throws -> SecureBytes? in
                try Self.keystoreCall(entry) { () throws(KeystoreError) in
                    try unlockCache.withKey(for: file) { key throws(KeystoreError) in
                        try Keystore.secretKey(entry, key: key)
                    }
                }
            }
            // An allowance is the extension's for one site (or for itself, without one): the
            // person allowed what they saw come from that site, not from the extension's others.
            let identity = request.caller.identity.map { id in request.site.map { "\(id) for \($0)" } ?? id }
            // A transaction is signed only after the person has seen it: an allowance covers
            // messages, and none is offered in a transaction's dialog, nor in a sign-in's
            // (well-formed or not), whose site check the person sees each time.
            let allowance = request.transactions == nil && !request.isSignIn ? allowMinutes : nil
            if let identity, allowance != nil,
                unlockCache.isRemembered(caller: identity, address: entry.address, for: file),
                let key = try heldKey()
            {
                return (key, .allowedBefore)
            }
            var offer = request
            offer.rememberMinutes = identity == nil ? nil : allowance
            // One third button: "Refuse all from this extension", unless "Sign and allow" is
            // offered and none of the caller's other requests wait.
            let othersWait = await consentQueue.waiting(for: line) > 0
            if offer.rememberMinutes == nil || othersWait {
                offer.offersRefuseAll = true
                offer.rememberMinutes = nil
            }
            let answer = try await passphrases.confirm(offer)
            // Nil if the keys were locked while the dialog was up: then the passphrase after all.
            if let key = try heldKey() {
                guard answer == .remember, let identity, let minutes = offer.rememberMinutes else {
                    return (key, .confirmation)
                }
                unlockCache.remember(caller: identity, address: entry.address, for: .seconds(minutes * 60))
                return (key, .confirmationAndAllow)
            }
        }
        let cache = unlockCache
        let key = try await passphrases.obtain(for: request) { passphrase in
            try await Self.unlock(entry, in: file, passphrase: passphrase, keepingKeyIn: cache)
        }
        return (key, .passphrase)
    }

    /// The secret key, or nil for a wrong passphrase (the source may ask again). With a
    /// cache, the keystore key is kept there. A damaged entry is not something another attempt
    /// can fix: it ends the request.
    private static func unlock(
        _ entry: KeystoreFile.Entry, in file: KeystoreFile, passphrase: SecureBytes, keepingKeyIn cache: UnlockCache?
    ) async throws -> SecureBytes? {
        try await Blocking.run(on: unlockQueue) { () throws -> SecureBytes? in
            do throws(KeystoreError) {
                let key = try Keystore.deriveKey(file, passphrase: passphrase)
                let secretKey = try Keystore.secretKey(entry, key: key)
                cache?.store(key, for: file)
                return secretKey
            } catch .wrongPassphrase {
                return nil
            } catch {
                Log.error("cannot unlock \(entry.address): \(error)")
                throw UnlockFailure.keystore(error)
            }
        }
    }

    /// `call`'s result, with a keystore failure logged and turned into `UnlockFailure`.
    private static func keystoreCall<T>(_ entry: KeystoreFile.Entry, _ call: () throws(KeystoreError) -> T) throws -> T
    {
        do {
            return try call()
        } catch {
            Log.error("cannot unlock \(entry.address): \(error)")
            throw UnlockFailure.keystore(error)
        }
    }

    private enum UnlockFailure: Error { case keystore(KeystoreError) }

    /// `read`'s result; its failure becomes an internal error that names no path (logged).
    private func readKeystore<T>(_ read: () throws(KeystoreError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            Log.error("\(error)")
            throw RPCError(
                .internalError,
                data: .object([
                    "problem": .string("the keystore cannot be read; run `wallet-bridge keys list` for details")
                ]))
        }
    }

    private static func notSigned(_ refusal: ConsentRefusal) -> RPCError {
        let reason: ErrorReason
        switch refusal {
        case .declined:
            reason = .declined
        case .wrongPassphrase:
            Log.warning("signature refused: wrong passphrase")
            reason = .wrongPassphrase
        case .unavailable(let detail, let fix):
            Log.error("cannot ask for the passphrase: \(detail)" + (fix.map { "; \($0)" } ?? ""))
            return RPCError(.notSigned, reason: .noPassphrasePrompt, fix: fix)
        }
        return RPCError(.notSigned, reason: reason)
    }
}

extension SolanaSigningRequest {
    /// Where a refusal of the whole request points: the transaction, the batch, or a sign-in's params.
    package var field: String {
        switch method {
        case "solana_signTransaction": "request.params.transaction"
        case SolanaMethod.signIn: "request.params"
        default: "request.params.transactions"
        }
    }

    /// Each transaction's id, as explorers name it (the fee payer's signature): `signatures`'
    /// own where this key pays the fee, else the fee payer's as the request carried it
    /// (`transactionIDs`), else nil (the fee payer signs later).
    func transactionIDs(signedWith signatures: [[UInt8]]) -> [String?] {
        zip(messages, signatures).enumerated().map { index, pair in
            let (message, signature) = pair
            if (try? SolanaMessage(bytes: message))?.accountKeys.first == publicKey { return Base58.encode(signature) }
            return transactionIDs.indices.contains(index) ? transactionIDs[index] : nil
        }
    }
}
