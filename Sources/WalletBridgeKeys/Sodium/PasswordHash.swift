import CSodium
import WalletBridgeSystem

/// Argon2id (libsodium's `crypto_pwhash`, algorithm `argon2id13`): passphrase to key.
package enum PasswordHash {
    /// 16.
    package static let saltBytes = Int(crypto_pwhash_SALTBYTES)
    /// The keystore file's name for it.
    package static let algorithmName = "argon2id13"

    /// The cost of one derivation: passes over memory, and memory in bytes.
    package struct Limits: Sendable, Hashable, CustomStringConvertible {
        package var opslimit: UInt64
        package var memlimit: UInt64

        package init(opslimit: UInt64, memlimit: UInt64) {
            self.opslimit = opslimit
            self.memlimit = memlimit
        }

        /// libsodium's MODERATE preset (3 passes, 256 MiB): about a second on a laptop. A wallet
        /// asks for the passphrase once per signature request, so a second is affordable, and
        /// it multiplies an offline guesser's cost accordingly.
        package static let moderate = Limits(
            opslimit: UInt64(crypto_pwhash_argon2id_OPSLIMIT_MODERATE),
            memlimit: UInt64(crypto_pwhash_argon2id_MEMLIMIT_MODERATE))

        /// libsodium's INTERACTIVE preset (2 passes, 64 MiB): the least any real keystore has.
        package static let interactive = Limits(
            opslimit: UInt64(crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE),
            memlimit: UInt64(crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE))

        /// libsodium's minimum (1 pass, 8 KiB). For tests only: see `forNewKeystores`.
        package static let weakestForTests = Limits(
            opslimit: UInt64(crypto_pwhash_argon2id_OPSLIMIT_MIN),
            memlimit: UInt64(crypto_pwhash_argon2id_MEMLIMIT_MIN))

        /// The most a keystore file may ask for. The limits are read from the file, which an
        /// attacker may have written: without a ceiling, one edited number would make every
        /// unlock allocate 100 GiB or spin for hours. libsodium's SENSITIVE preset is 4 passes
        /// and 1 GiB; the ceiling allows a little more time but no more memory.
        package static let maximum = Limits(
            opslimit: 16,
            memlimit: UInt64(crypto_pwhash_argon2id_MEMLIMIT_SENSITIVE))

        #if WALLET_BRIDGE_TEST_HOOKS
        /// Set to 1 by the test suites only, so they can create hundreds of keystores quickly.
        /// Read only by test builds (Package.swift, `WALLET_BRIDGE_TEST_HOOKS`): the shipped
        /// binary neither reads nor names it, so no environment can weaken its keystores.
        package static let testVariable = "WALLET_BRIDGE_TEST_WEAK_KDF"
        static var testsAllowWeakLimits: Bool { Environment.string(testVariable) == "1" }
        #else
        static var testsAllowWeakLimits: Bool { false }
        #endif

        /// The least a keystore file may ask for: INTERACTIVE. The limits are read from the file,
        /// and one edited down to libsodium's minimum (1 pass, 8 KiB) would let an offline
        /// guesser try passphrases tens of thousands of times faster. Only with
        /// `WALLET_BRIDGE_TEST_WEAK_KDF=1` is the minimum accepted, so a keystore made by a test
        /// is refused everywhere else.
        package static var minimum: Limits { testsAllowWeakLimits ? weakestForTests : interactive }

        /// The limits for a keystore created now: MODERATE, or the weakest with
        /// `WALLET_BRIDGE_TEST_WEAK_KDF=1`. Existing keystores keep the limits stored in them.
        package static var forNewKeystores: Limits { testsAllowWeakLimits ? weakestForTests : moderate }

        /// Nil when both limits are within `minimum...maximum`, else the reason they are not.
        package var problem: String? {
            let minimum = Self.minimum
            // Only built when there is a problem: a keystore is checked on every cold start.
            func floor(_ below: Bool) -> String {
                guard below, minimum == Self.interactive else { return "" }
                #if WALLET_BRIDGE_TEST_HOOKS
                return " (libsodium's INTERACTIVE; weaker limits are for tests only, with \(Self.testVariable)=1)"
                #else
                return " (libsodium's INTERACTIVE; weaker limits are for test builds only)"
                #endif
            }
            if opslimit < minimum.opslimit || opslimit > Self.maximum.opslimit {
                return
                    "opslimit \(opslimit) is outside \(minimum.opslimit)...\(Self.maximum.opslimit)\(floor(opslimit < minimum.opslimit))"
            }
            if memlimit < minimum.memlimit || memlimit > Self.maximum.memlimit {
                return
                    "memlimit \(memlimit) is outside \(minimum.memlimit)...\(Self.maximum.memlimit) bytes\(floor(memlimit < minimum.memlimit))"
            }
            return nil
        }

        package var description: String { "opslimit \(opslimit), memlimit \(memlimit / 1024) KiB" }
    }

    package enum Failure: Error, Sendable, Equatable {
        /// The limits are outside the accepted range; nothing was allocated.
        case limitsOutOfRange(String)
        /// libsodium could not derive (in practice: it could not allocate `memlimit`).
        case derivationFailed
    }

    /// Derives a `keyBytes`-byte key from `passphrase` and `salt`, into secure memory.
    package static func deriveKey(
        keyBytes: Int, passphrase: SecureBytes, salt: [UInt8], limits: Limits
    ) throws(Failure) -> SecureBytes {
        if let problem = limits.problem { throw .limitsOutOfRange(problem) }
        precondition(salt.count == saltBytes, "salt must be \(saltBytes) bytes")
        Sodium.ensureInitialized()
        let key = SecureBytes(count: keyBytes)
        let status: Int32 = key.withUnsafeMutableBytes { out in
            passphrase.withUnsafeBytes { secret in
                crypto_pwhash(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(keyBytes),
                    secret.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(secret.count),
                    salt, limits.opslimit, Int(limits.memlimit), crypto_pwhash_ALG_ARGON2ID13)
            }
        }
        guard status == 0 else { throw .derivationFailed }
        return key
    }
}
