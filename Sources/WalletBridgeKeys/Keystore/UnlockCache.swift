#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WalletBridgeProtocol

/// The keystore key, kept in secure memory after one passphrase, as gpg-agent keeps one: until
/// it goes unused for the idle lifetime, or the maximum lifetime has passed since the unlock,
/// or someone locks it. Only the agent has one; a host started per message could not keep it.
///
/// It keeps the key that Argon2 derived, not the passphrase: the passphrase never outlives the
/// unlock, and a key whose keystore got a new passphrase (and so a new salt) opens nothing.
package final class UnlockCache: Sendable {
    /// gpg-agent's `default-cache-ttl` and `max-cache-ttl`, with gpg-agent's defaults.
    package struct Lifetimes: Sendable, Equatable {
        /// Locked after this long without a signature.
        package var idle: Duration = .seconds(600)
        /// Locked this long after the unlock, used or not.
        package var maximum: Duration = .seconds(7200)
        package init() {}
        package init(idle: Duration, maximum: Duration) {
            self.idle = idle
            self.maximum = maximum
        }
    }

    /// What `agent status` shows: when the keys were unlocked and when they lock, never a key.
    package struct Status: Sendable, Equatable {
        /// Seconds since the Unix epoch.
        package var unlockedAt: Int
        /// When the keys lock if nothing uses them before (seconds since the epoch).
        package var locksAt: Int
        /// When they lock whatever happens (seconds since the epoch).
        package var locksAtLatest: Int
    }

    private struct Unlocked {
        let key: SecureBytes
        /// Approvals the person gave "for N minutes": caller identity and address, until when.
        var remembered: [Remembered: ContinuousClock.Instant] = [:]
        /// The keystore's KDF salt: a new passphrase comes with a new salt.
        let salt: [UInt8]
        let unlockedAt: ContinuousClock.Instant
        var lastUsed: ContinuousClock.Instant

        func deadline(_ lifetimes: Lifetimes) -> ContinuousClock.Instant {
            min(lastUsed + lifetimes.idle, unlockedAt + lifetimes.maximum)
        }
    }

    private struct Remembered: Hashable {
        let caller: String
        let address: String
    }

    package let lifetimes: Lifetimes
    private let unlocked = Mutex<Unlocked?>(nil)

    /// Remembers that the person approved what `caller` asks of the key at `address` until
    /// `until`, for as long as the keys stay unlocked: locking forgets it.
    package func remember(caller: String, address: String, until: ContinuousClock.Instant) {
        unlocked.withLock { $0?.remembered[Remembered(caller: caller, address: address)] = until }
    }

    /// `remember(caller:address:until:)` for `duration` from now, on the cache's clock.
    package func remember(caller: String, address: String, for duration: Duration) {
        remember(caller: caller, address: address, until: clocks.monotonic() + duration)
    }

    /// True while an approval remembered for `caller` and `address` lasts (and the keys for
    /// `file` are unlocked).
    package func isRemembered(
        caller: String, address: String, for file: KeystoreFile, now: ContinuousClock.Instant? = nil
    ) -> Bool {
        let now = now ?? clocks.monotonic()
        return unlocked.withLock { held in
            Self.dropIfStale(&held, file: file, now: now, lifetimes: lifetimes)
            guard let until = held?.remembered[Remembered(caller: caller, address: address)] else { return false }
            return now < until
        }
    }

    /// The times deadlines and `status` are read from (`Clocks`); a test moves its own.
    private let clocks: Clocks

    package init(lifetimes: Lifetimes = Lifetimes(), clocks: Clocks = .system) {
        self.lifetimes = lifetimes
        self.clocks = clocks
    }

    /// True when a key for `file` is held and has not expired. Does not count as a use.
    package func isUnlocked(for file: KeystoreFile, now: ContinuousClock.Instant? = nil) -> Bool {
        let now = now ?? clocks.monotonic()
        return unlocked.withLock { held in
            Self.dropIfStale(&held, file: file, now: now, lifetimes: lifetimes)
            return held != nil
        }
    }

    /// `body`'s result with the key for `file`, counted as a use; nil when locked.
    package func withKey<R>(
        for file: KeystoreFile, now: ContinuousClock.Instant? = nil, _ body: (SecureBytes) throws(KeystoreError) -> R
    ) throws(KeystoreError) -> R? {
        let now = now ?? clocks.monotonic()
        return try unlocked.withLock { held throws(KeystoreError) -> R? in
            Self.dropIfStale(&held, file: file, now: now, lifetimes: lifetimes)
            guard held != nil else { return nil }
            held!.lastUsed = now
            return try body(held!.key)
        }
    }

    /// Keeps `key`, which `Keystore.deriveKey` derived for `file`; replaces any other.
    package func store(_ key: SecureBytes, for file: KeystoreFile, now: ContinuousClock.Instant? = nil) {
        let now = now ?? clocks.monotonic()
        unlocked.withLock { $0 = Unlocked(key: key, salt: file.kdf.salt, unlockedAt: now, lastUsed: now) }
    }

    /// Wipes the key now. Returns true if one was held.
    @discardableResult
    package func lock() -> Bool {
        // Released outside the lock; `sodium_free` zeroes the memory.
        let released = unlocked.withLock { held in
            defer { held = nil }
            return held
        }
        return released != nil
    }

    /// Wipes the key if a lifetime has run out. Returns true if it did.
    @discardableResult
    package func expire(now: ContinuousClock.Instant? = nil) -> Bool {
        let now = now ?? clocks.monotonic()
        return unlocked.withLock { held in
            guard let current = held, now >= current.deadline(lifetimes) else { return false }
            held = nil
            return true
        }
    }

    /// When the held key was unlocked and when it locks; nil when locked.
    package func status(now: ContinuousClock.Instant? = nil) -> Status? {
        let now = now ?? clocks.monotonic()
        return unlocked.withLock { held in
            guard let current = held, now < current.deadline(lifetimes) else { return nil }
            let wallNow = clocks.wall()
            func wall(_ instant: ContinuousClock.Instant) -> Int {
                wallNow + Int(((instant - now) / .seconds(1)).rounded())
            }
            return Status(
                unlockedAt: wall(current.unlockedAt), locksAt: wall(current.deadline(lifetimes)),
                locksAtLatest: wall(current.unlockedAt + lifetimes.maximum))
        }
    }

    /// When the held key will expire, if one is held: the agent wakes then to wipe it.
    package var nextExpiry: ContinuousClock.Instant? {
        unlocked.withLock { $0?.deadline(lifetimes) }
    }

    private static func dropIfStale(
        _ held: inout Unlocked?, file: KeystoreFile, now: ContinuousClock.Instant, lifetimes: Lifetimes
    ) {
        guard let current = held else { return }
        if now >= current.deadline(lifetimes) || current.salt != file.kdf.salt || !Keystore.isKey(current.key, of: file)
        {
            held = nil
        }
    }
}
