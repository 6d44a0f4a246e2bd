#if canImport(Glibc)
import Glibc
#endif
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeKeys

/// The agent's unlocked keystore key: its two lifetimes, locking, and that a key never opens a
/// keystore it was not derived for. Every instant is injected, so nothing here sleeps.
final class UnlockCacheTests: XCTestCase {
    private var keystore = Keystore(path: "")
    private var file: KeystoreFile!
    private var entry: KeystoreFile.Entry!
    private var key: SecureBytes!
    /// The 64-byte secret key of `testSeedA`: the seed, then its public key.
    private let expectedSecretKey = testSeedA + publicKey(ofSeed: testSeedA)

    override func setUpWithError() throws {
        useWeakKDF()
        keystore = Keystore(path: "\(temporaryFolder(self))/keystore.json")
        entry = try keystore.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        file = try keystore.read()!
        key = try Keystore.deriveKey(file, passphrase: secure("right"))
    }

    /// The secret key of `entry` that the cache's key opens; nil when locked.
    private func secretKey(
        _ cache: UnlockCache, for file: KeystoreFile, now: ContinuousClock.Instant
    ) throws -> [UInt8]? {
        // The entry as this file has it: a new passphrase seals the seed anew.
        let entry = try XCTUnwrap(file.keys.first { $0.publicKey == self.entry.publicKey })
        return try cache.withKey(for: file, now: now) { (key: SecureBytes) throws(KeystoreError) -> [UInt8] in
            try Keystore.secretKey(entry, key: key).bytes
        }
    }

    func testDefaultLifetimesAreGpgAgents() {
        let lifetimes = UnlockCache.Lifetimes()
        XCTAssertEqual(lifetimes.idle, .seconds(600))
        XCTAssertEqual(lifetimes.maximum, .seconds(7200))
        XCTAssertEqual(UnlockCache().lifetimes, lifetimes)
    }

    func testLockedAtFirst() throws {
        let cache = UnlockCache()
        let now = ContinuousClock.now
        XCTAssertFalse(cache.isUnlocked(for: file, now: now))
        XCTAssertNil(try secretKey(cache, for: file, now: now), "no key is held, so the body must not run")
        XCTAssertNil(cache.status(now: now))
        XCTAssertNil(cache.nextExpiry)
        XCTAssertFalse(cache.expire(now: now + .seconds(100_000)), "nothing to expire")
        XCTAssertFalse(cache.lock(), "nothing to lock")
    }

    func testAStoredKeyOpensTheKeystoresSecretKey() throws {
        let cache = UnlockCache()
        let now = ContinuousClock.now
        cache.store(key, for: file, now: now)
        XCTAssertTrue(cache.isUnlocked(for: file, now: now))
        XCTAssertEqual(try secretKey(cache, for: file, now: now + .seconds(1)), expectedSecretKey)
        // The same answer as unlocking with the passphrase.
        XCTAssertEqual(try Keystore.unlock(entry, in: file, passphrase: secure("right")).bytes, expectedSecretKey)
    }

    func testWithKeyPassesOnTheBodysError() throws {
        let cache = UnlockCache()
        let now = ContinuousClock.now
        cache.store(key, for: file, now: now)
        XCTAssertThrowsError(
            try cache.withKey(for: file, now: now) { (_: SecureBytes) throws(KeystoreError) -> Int in
                throw KeystoreError.wrongPassphrase
            }
        ) { error in
            guard case .wrongPassphrase? = error as? KeystoreError else { return XCTFail("\(error)") }
        }
        XCTAssertTrue(cache.isUnlocked(for: file, now: now), "a failing body does not lock the keys")
    }

    func testIdleLifetimeExpiry() throws {
        let cache = UnlockCache()
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        XCTAssertEqual(cache.nextExpiry, start + .seconds(600))
        XCTAssertTrue(cache.isUnlocked(for: file, now: start + .seconds(599)))
        XCTAssertFalse(cache.isUnlocked(for: file, now: start + .seconds(601)), "600 s unused: locked")
        XCTAssertNil(try secretKey(cache, for: file, now: start + .seconds(601)))
        XCTAssertNil(cache.nextExpiry, "the stale key was dropped")
        XCTAssertFalse(cache.lock(), "nothing was left to lock")
    }

    /// On the cache's own clocks (`Clocks`), as the agent runs it: no instant passed in. The
    /// status's wall times are the wall clock's, and the keys lock when the monotonic one says.
    func testTheCachesOwnClockDecidesItsStatusAndItsExpiry() throws {
        let clock = ManualClock(wall: 1_800_000_000)
        let cache = UnlockCache(lifetimes: .init(idle: .seconds(10), maximum: .seconds(25)), clocks: clock.clocks)
        cache.store(key, for: file)
        clock.advance(by: .seconds(4))
        XCTAssertEqual(
            cache.status(),
            UnlockCache.Status(unlockedAt: 1_800_000_000, locksAt: 1_800_000_010, locksAtLatest: 1_800_000_025))
        XCTAssertNotNil(try cache.withKey(for: file) { Array($0.bytes) }, "a use, at 4 s")
        XCTAssertEqual(cache.status()?.locksAt, 1_800_000_014)
        clock.advance(by: .seconds(9))
        XCTAssertFalse(cache.expire(), "13 s: used 9 s ago")
        XCTAssertTrue(cache.isUnlocked(for: file))
        clock.advance(by: .seconds(1))
        XCTAssertTrue(cache.expire(), "14 s: 10 s unused")
        XCTAssertNil(cache.status())
        XCTAssertFalse(cache.isUnlocked(for: file))
    }

    func testIsUnlockedIsNotAUse() throws {
        let cache = UnlockCache()
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        XCTAssertTrue(cache.isUnlocked(for: file, now: start + .seconds(500)))
        XCTAssertEqual(cache.nextExpiry, start + .seconds(600), "looking does not refresh the idle deadline")
        XCTAssertFalse(cache.isUnlocked(for: file, now: start + .seconds(601)))
    }

    func testAUseRefreshesTheIdleDeadline() throws {
        let cache = UnlockCache()
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        XCTAssertEqual(try secretKey(cache, for: file, now: start + .seconds(500)), expectedSecretKey)
        XCTAssertEqual(cache.nextExpiry, start + .seconds(1100))
        XCTAssertTrue(cache.isUnlocked(for: file, now: start + .seconds(1000)), "used at 500 s: unlocked until 1100 s")
        XCTAssertTrue(cache.isUnlocked(for: file, now: start + .seconds(1099)))
        XCTAssertFalse(cache.isUnlocked(for: file, now: start + .seconds(1101)))
    }

    func testUsesDoNotExtendTheMaximumLifetime() throws {
        let cache = UnlockCache()
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        // Used every 500 s: never idle for 600 s.
        for seconds in stride(from: 500, through: 7000, by: 500) {
            XCTAssertEqual(
                try secretKey(cache, for: file, now: start + .seconds(seconds)), expectedSecretKey, "at \(seconds) s")
        }
        // Last used at 7000 s, so idle would end at 7600 s; the maximum ends it at 7200 s.
        XCTAssertEqual(cache.nextExpiry, start + .seconds(7200))
        XCTAssertTrue(cache.isUnlocked(for: file, now: start + .seconds(7199)))
        XCTAssertFalse(
            cache.isUnlocked(for: file, now: start + .seconds(7201)), "7200 s after the unlock: locked, used or not")
        XCTAssertNil(try secretKey(cache, for: file, now: start + .seconds(7201)))
    }

    func testMaximumLifetimeWithCustomLifetimes() throws {
        let cache = UnlockCache(lifetimes: .init(idle: .seconds(10), maximum: .seconds(25)))
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        XCTAssertNotNil(try secretKey(cache, for: file, now: start + .seconds(9)))
        XCTAssertNotNil(try secretKey(cache, for: file, now: start + .seconds(18)))
        XCTAssertEqual(cache.nextExpiry, start + .seconds(25), "min(18 + 10, 0 + 25)")
        XCTAssertNotNil(try secretKey(cache, for: file, now: start + .seconds(24)))
        XCTAssertNil(try secretKey(cache, for: file, now: start + .seconds(25)))
    }

    func testStoringAgainRestartsBothLifetimes() throws {
        let cache = UnlockCache()
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        let later = start + .seconds(7000)
        cache.store(key, for: file, now: later)
        XCTAssertEqual(cache.nextExpiry, later + .seconds(600))
        XCTAssertTrue(cache.isUnlocked(for: file, now: start + .seconds(7500)))
    }

    func testExpireReturnsTrueOnceAndWipes() throws {
        let cache = UnlockCache()
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        XCTAssertFalse(cache.expire(now: start + .seconds(599)), "not yet")
        XCTAssertTrue(cache.isUnlocked(for: file, now: start + .seconds(599)), "an early expire() keeps the key")
        XCTAssertTrue(cache.expire(now: start + .seconds(600)))
        XCTAssertFalse(cache.expire(now: start + .seconds(601)), "already wiped")
        XCTAssertNil(cache.nextExpiry)
        // Wiped, not just stale: even an instant before the deadline finds nothing now.
        XCTAssertFalse(cache.isUnlocked(for: file, now: start + .seconds(1)))
        XCTAssertNil(try secretKey(cache, for: file, now: start + .seconds(1)))
        XCTAssertFalse(cache.lock())
    }

    /// "For N minutes" counts on the cache's clock, as the check does: not the system's (this
    /// one is an hour ahead of it).
    func testAnAllowanceForADurationCountsOnTheCachesClock() throws {
        let clock = ManualClock(monotonic: .now + .seconds(3600))
        let cache = UnlockCache(clocks: clock.clocks)
        let caller = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
        cache.store(key, for: file)
        cache.remember(caller: caller, address: entry.address, for: .seconds(60))
        clock.advance(by: .seconds(59))
        XCTAssertTrue(cache.isRemembered(caller: caller, address: entry.address, for: file))
        clock.advance(by: .seconds(1))
        XCTAssertFalse(cache.isRemembered(caller: caller, address: entry.address, for: file), "its time is up")
    }

    func testAnAllowanceLastsItsTimeForItsCallerAndKeyAndNoLongerThanTheUnlock() throws {
        let cache = UnlockCache()
        let now = ContinuousClock.now
        let caller = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
        cache.remember(caller: caller, address: entry.address, until: now + .seconds(60))
        XCTAssertFalse(
            cache.isRemembered(caller: caller, address: entry.address, for: file, now: now),
            "nothing is remembered while locked")
        cache.store(key, for: file, now: now)
        cache.remember(caller: caller, address: entry.address, until: now + .seconds(60))
        XCTAssertTrue(cache.isRemembered(caller: caller, address: entry.address, for: file, now: now + .seconds(59)))
        XCTAssertFalse(
            cache.isRemembered(caller: caller, address: entry.address, for: file, now: now + .seconds(60)),
            "its time is up")
        XCTAssertFalse(
            cache.isRemembered(caller: "other@example.org", address: entry.address, for: file, now: now),
            "another caller")
        XCTAssertFalse(cache.isRemembered(caller: caller, address: "another", for: file, now: now), "another key")
        cache.lock()
        cache.store(key, for: file, now: now)
        XCTAssertFalse(
            cache.isRemembered(caller: caller, address: entry.address, for: file, now: now), "locking forgets it")
    }

    func testLockReturnsTrueThenFalse() throws {
        let cache = UnlockCache()
        let now = ContinuousClock.now
        cache.store(key, for: file, now: now)
        XCTAssertTrue(cache.lock())
        XCTAssertFalse(cache.lock())
        XCTAssertFalse(cache.isUnlocked(for: file, now: now))
        XCTAssertNil(try secretKey(cache, for: file, now: now))
        XCTAssertNil(cache.status(now: now))
        XCTAssertNil(cache.nextExpiry)
    }

    func testStatus() throws {
        let cache = UnlockCache()
        let start = ContinuousClock.now
        XCTAssertNil(cache.status(now: start), "locked: no status")
        cache.store(key, for: file, now: start)

        let wallBefore = Int(time(nil))
        let status = try XCTUnwrap(cache.status(now: start + .seconds(100)))
        let wallAfter = Int(time(nil))
        XCTAssertLessThanOrEqual(status.unlockedAt, status.locksAt)
        XCTAssertLessThanOrEqual(status.locksAt, status.locksAtLatest)
        // Seen from 100 s after the unlock: unlocked 100 s ago, idle lock in 500 s, latest in 7100 s.
        XCTAssertEqual(status.locksAt - status.unlockedAt, 600)
        XCTAssertEqual(status.locksAtLatest - status.unlockedAt, 7200)
        XCTAssertTrue((wallBefore - 100 - 1)...(wallAfter - 100 + 1) ~= status.unlockedAt, "\(status) at \(wallBefore)")
        XCTAssertTrue((wallBefore + 500 - 1)...(wallAfter + 500 + 1) ~= status.locksAt, "\(status) at \(wallBefore)")

        // Status is not a use; a use moves locksAt, never locksAtLatest.
        for seconds in stride(from: 500, through: 7000, by: 500) {
            XCTAssertNotNil(try secretKey(cache, for: file, now: start + .seconds(seconds)), "at \(seconds) s")
        }
        let late = try XCTUnwrap(cache.status(now: start + .seconds(7000)))
        XCTAssertEqual(late.locksAt, late.locksAtLatest, "the maximum comes before the idle deadline")
        XCTAssertLessThanOrEqual(late.unlockedAt, late.locksAt)
        XCTAssertEqual(late.locksAtLatest - late.unlockedAt, 7200)

        XCTAssertNil(cache.status(now: start + .seconds(7200)), "expired: no status")
    }

    func testNextExpiry() throws {
        let cache = UnlockCache()
        XCTAssertNil(cache.nextExpiry)
        let start = ContinuousClock.now
        cache.store(key, for: file, now: start)
        XCTAssertEqual(cache.nextExpiry, start + .seconds(600))
        _ = try secretKey(cache, for: file, now: start + .seconds(100))
        XCTAssertEqual(cache.nextExpiry, start + .seconds(700))
        cache.lock()
        XCTAssertNil(cache.nextExpiry)
    }

    func testAKeyDoesNotOpenAKeystoreWithANewPassphrase() throws {
        let cache = UnlockCache()
        let now = ContinuousClock.now
        cache.store(key, for: file, now: now)
        XCTAssertTrue(cache.isUnlocked(for: file, now: now))

        try keystore.changePassphrase(from: secure("right"), to: secure("changed"))
        let changed = try keystore.read()!
        XCTAssertNotEqual(changed.kdf.salt, file.kdf.salt, "a new passphrase comes with a new salt")
        XCTAssertFalse(cache.isUnlocked(for: changed, now: now), "the old key must not count for the new passphrase")
        XCTAssertNil(try secretKey(cache, for: changed, now: now))
        XCTAssertFalse(cache.lock(), "the key for the old passphrase was dropped")

        // The new passphrase's key works as usual.
        let newKey = try Keystore.deriveKey(changed, passphrase: secure("changed"))
        cache.store(newKey, for: changed, now: now)
        XCTAssertEqual(try secretKey(cache, for: changed, now: now), expectedSecretKey)
    }

    func testAKeyDoesNotOpenAnotherKeystoreWithTheSamePassphrase() throws {
        let other = Keystore(path: "\(temporaryFolder(self))/other.json")
        try other.importKey(secure(testSeedA), label: "main", passphrase: secure("right"))
        let otherFile = try other.read()!
        let cache = UnlockCache()
        let now = ContinuousClock.now
        cache.store(key, for: file, now: now)
        XCTAssertFalse(cache.isUnlocked(for: otherFile, now: now), "another salt: another key")
        XCTAssertNil(try secretKey(cache, for: otherFile, now: now))
    }

    func testAKeyWithTheRightSaltButTheWrongBytesIsNotUsed() throws {
        // Same salt (so the cheap check passes) but not the key: the passphrase check must catch it.
        let cache = UnlockCache()
        let now = ContinuousClock.now
        cache.store(secure([UInt8](repeating: 7, count: key.count)), for: file, now: now)
        XCTAssertFalse(cache.isUnlocked(for: file, now: now))
        XCTAssertNil(try secretKey(cache, for: file, now: now))
    }
}
