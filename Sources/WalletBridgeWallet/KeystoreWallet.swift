import CLinux
import Dispatch
import WalletBridge

/// The shipped wallet: accounts from the encrypted keystore, signatures after the person
/// approves with the keystore passphrase.
///
/// GetAccounts reads the keystore's public part on every call (so keys created while a port is
/// open appear) and never needs the passphrase or runs Argon2. SignPayloads checks the request
/// before asking anyone: unknown address -32602, bad payloads -2, too many payloads -6. Then it
/// asks for the passphrase (one dialog at a time), unlocks the key and signs; any failure to
/// get or use the passphrase is -3 with `data.reason`.
public struct KeystoreWallet: AccountsAtHand {
    /// Where the keys are.
    public let keystore: Keystore
    /// More payloads in one request are refused with -6.
    public let maxPayloads: Int
    /// The payload limit unless the config sets one (`max_payloads`).
    public static let defaultMaxPayloads = 1024
    /// Where the passphrase, and with it consent, comes from.
    public let passphrases: any PassphraseSource
    private let gate = SerialGate()
    /// GetAccounts' copy of the keystore, checked with one stat per call.
    private let readCache = KeystoreReadCache()

    /// Argon2 takes up to a second of CPU: off the cooperative pool, like pinentry.
    private static let unlockQueue = DispatchQueue(label: "wallet-bridge.unlock", attributes: .concurrent)

    public init(keystore: Keystore, maxPayloads: Int = defaultMaxPayloads, passphrases: any PassphraseSource) {
        self.keystore = keystore
        self.maxPayloads = maxPayloads
        self.passphrases = passphrases
        self.getAccountsExecution = Self.isOnNetworkFilesystem(keystore.path) ? .concurrent : .immediate
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

    /// The wallet the shipped host serves with `config`: its keystore, its payload limit, and
    /// its passphrase source (`WALLET_BRIDGE_PASSPHRASE_FILE` if set, else pinentry).
    public init(config: WalletConfig) {
        let resolved = KeystoreLocation.resolve(configured: config.keystore)
        if resolved == nil {
            Log.error("no keystore location: HOME is not set; set \(KeystoreLocation.environmentVariable)")
        }
        let path = resolved ?? "/nonexistent/wallet-bridge/\(KeystoreLocation.fileName)"
        let source: any PassphraseSource
        if let file = Environment.string(PassphraseSources.fileVariable) {
            Log.warning("\(PassphraseSources.fileVariable) is set: signing with the passphrase from \(file), asking nobody (automation only)")
            source = PassphraseFileSource(path: file)
        } else {
            let configured = Environment.string(PassphraseSources.pinentryVariable) ?? config.pinentry
            source = PinentrySource(PinentryChoice.forThisProcess(configured: configured))
        }
        self.init(keystore: Keystore(path: path), maxPayloads: config.maxPayloads, passphrases: source)
    }

    /// The keystore's public keys in base64, in the order they were added.
    public func accountsAtHand(context: RequestContext) throws -> GetAccountsResult {
        let contents = try readKeystore { () throws(KeystoreError) in try readCache.read(keystore, notBefore: context.receivedAt) }
        // Said when the file was read anew, not on every call of a persistent port.
        if contents.file != nil, contents.fresh { for warning in keystore.exposureWarnings() { Log.warning(warning) } }
        return GetAccountsResult(addresses: contents.addresses)
    }

    /// `.immediate` when the keystore is on a local filesystem: GetAccounts reads the public
    /// part of a small file, no passphrase, no Argon2, quick enough to answer on the reader
    /// thread, which is most of what a `sendNativeMessage` call waits for. On NFS, SMB or FUSE
    /// (sshfs) a read can hang, and on the reader thread it would hold up every other request,
    /// signals and timeouts with it: there, GetAccounts runs on the pool.
    public let getAccountsExecution: Execution

    /// Each payload followed by its signature, after the person approves.
    public func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
        if let reason = ChangeableByOthers.reason(for: keystore.path) {
            // Whoever can change the keystore can put their own key under this address, and
            // the person's approval would sign with it.
            Log.error("not signing: \(reason)")
            throw RPCError(.notSigned, data: .object(["reason": .string("keystore_writable_by_others")]))
        }
        // Read anew: signing is rare and slow, and must use the file as it is now.
        guard let file = try readKeystore({ () throws(KeystoreError) in try keystore.read() }), let entry = file.entry(address: params.address) else {
            throw RPCError(.invalidParams, data: .object([
                "field": .string("address"), "problem": .string("no account with this address"),
            ]))
        }
        let payloads = try PayloadSigning.decodePayloads(params.payloads, maxPayloads: maxPayloads)
        let request = ConsentRequest(
            caller: context.caller, keyLabel: entry.label, shortAddress: entry.shortAddress, payloadCount: payloads.count)
        for warning in keystore.exposureWarnings() { Log.warning(warning) }

        let secretKey: SecureBytes
        do {
            secretKey = try await gate.run {
                try await passphrases.obtain(for: request) { passphrase in
                    try await Self.unlock(entry, in: file, passphrase: passphrase)
                }
            }
        } catch let refusal as ConsentRefusal {
            throw Self.notSigned(refusal)
        } catch UnlockFailure.keystore(let error) {
            // Logged where it happened. A damaged entry is "key_damaged" so that someone
            // debugging an extension knows retrying is pointless.
            let reason = if case .keyDamaged = error { "key_damaged" } else { "unlock_failed" }
            throw RPCError(.notSigned, data: .object(["reason": .string(reason)]))
        }
        let signed = secretKey.withUnsafeBytes { key in PayloadSigning.sign(payloads, secretKey: key) }
        return SignPayloadsResult(signed_payloads: signed)
    }

    /// The secret key, or nil for a wrong passphrase (the source may ask again). A damaged
    /// entry is not something another attempt can fix: it ends the request.
    private static func unlock(_ entry: KeystoreFile.Entry, in file: KeystoreFile, passphrase: SecureBytes) async throws -> SecureBytes? {
        try await Blocking.run(on: unlockQueue) { () throws -> SecureBytes? in
            do throws(KeystoreError) {
                return try Keystore.unlock(entry, in: file, passphrase: passphrase)
            } catch .wrongPassphrase {
                return nil
            } catch {
                Log.error("cannot unlock \(entry.address): \(error)")
                throw UnlockFailure.keystore(error)
            }
        }
    }

    private enum UnlockFailure: Error { case keystore(KeystoreError) }

    /// `read`'s result; its failure becomes an internal error that names no path (logged).
    private func readKeystore<T>(_ read: () throws(KeystoreError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            Log.error("\(error)")
            throw RPCError(.internalError, data: .object([
                "problem": .string("the keystore cannot be read; run `wallet-bridge keys list` for details"),
            ]))
        }
    }

    private static func notSigned(_ refusal: ConsentRefusal) -> RPCError {
        let reason: String
        switch refusal {
        case .declined:
            reason = "declined"
        case .wrongPassphrase:
            Log.warning("signature refused: wrong passphrase")
            reason = "wrong_passphrase"
        case .unavailable(let detail, let fix):
            Log.error("cannot ask for the passphrase: \(detail)" + (fix.map { "; \($0)" } ?? ""))
            var data: [String: JSONValue] = ["reason": "no_passphrase_prompt"]
            if let fix { data["fix"] = .string(fix) }
            return RPCError(.notSigned, data: .object(data))
        }
        return RPCError(.notSigned, data: .object(["reason": .string(reason)]))
    }
}

/// The environment variables that choose how the host gets the passphrase.
package enum PassphraseSources {
    /// For automation only: sign with the passphrase in this file, asking nobody.
    package static let fileVariable = "WALLET_BRIDGE_PASSPHRASE_FILE"
    /// The pinentry program; overrides `pinentry` in the configuration file.
    package static let pinentryVariable = "WALLET_BRIDGE_PINENTRY"
    /// Used when neither the environment nor the configuration names a pinentry.
    package static let defaultPinentry = "pinentry"
}
