import Synchronization

/// One answer kept for reuse, and the one explicit rule for when it still holds (`Validity`):
/// the host's last GetAccounts (`AgentBackedWallet`) and the keystore as last read
/// (`KeystoreReadCache`, under `ConnectedAccounts` and `KeystoreWallet`) are kept here.
///
/// An answer holds for a request read at or before it was taken: requests read together share
/// one answer (`RequestContext.receivedAt`). Later, it holds while the events that announce
/// every change of what it was read from have said nothing since (the same `mark`), until
/// `expiresAt`, past which what those events cannot announce is looked at again. Otherwise the
/// owner checks its file: when its stamp is as kept, the answer holds again (`renewed`).
///
/// A struct held in its owner, not a class, and inlinable, so that a module that keeps an answer
/// gets a copy made for its value's type: the cold call pays for no generic type built at run
/// time and no allocation. Not copyable: it is one answer, shared by whoever holds its owner.
///
/// `public` behind an SPI, not `package`: Swift 6.3 makes a copy for the caller's type only of
/// a `public` inlinable body, and calls a `package` one as written, for any type, building its
/// generic types at run time on every call (a two-module package shows it: a `package` generic
/// `@inlinable` function is called unspecialized from the other module, a `public` one is
/// inlined). Not for users: only `@_spi(KeptAnswer)` imports see it.
@_spi(KeptAnswer)
public struct KeptAnswer<Value: Sendable>: ~Copyable, Sendable {
    /// When a kept answer holds.
    ///
    /// Its times are `Duration`s since `keptTimeOrigin`, not `ContinuousClock.Instant`s: an
    /// instant's layout is the concurrency library's to change, so every type that holds one
    /// (this, the entry, the lock around it, the class that keeps it) has its layout worked out
    /// at run time, on a host's cold start; a duration's layout is fixed.
    public struct Validity: Sendable {
        /// When it was taken (before what it was read from was checked): it answers every
        /// request read at or before this.
        @usableFromInline var takenAt: Duration
        /// The count of an event source when it was taken (the folder watch's generation, the
        /// agent's events); nil when nothing listens.
        public var mark: UInt64?
        /// How long the mark vouches for it.
        @usableFromInline var expiresAt: Duration
        /// The file it was read from, as `stat` saw it; nil when it was not read from a file.
        public var stamp: FileStamp?

        @inlinable
        public init(
            takenAt: ContinuousClock.Instant, mark: UInt64?, expiresAt: ContinuousClock.Instant, stamp: FileStamp? = nil
        ) {
            (self.takenAt, self.mark, self.expiresAt, self.stamp) = (
                keptTimeOrigin.duration(to: takenAt), mark, keptTimeOrigin.duration(to: expiresAt), stamp
            )
        }
    }

    /// A kept answer and why it was given.
    public struct Found: Sendable {
        public let value: Value
        /// Given on the events' word (`Validity.mark`), not because it was taken after the
        /// request was read.
        public let onTheMark: Bool

        @inlinable
        init(value: Value, onTheMark: Bool) { (self.value, self.onTheMark) = (value, onTheMark) }
    }

    /// A struct, not a tuple: a tuple's type is built at run time, on a cold call.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var value: Value
        @usableFromInline var validity: Validity

        @inlinable
        init(value: Value, validity: Validity) { (self.value, self.validity) = (value, validity) }
    }

    @usableFromInline
    let kept: Mutex<Entry?>

    @inlinable
    public init() { kept = Mutex(nil) }

    /// The kept answer if it holds for a request read at `notBefore`, at `now`, with the events
    /// counted to `mark` (nil: nobody listens; asked only when it matters): taken at `notBefore`
    /// or later, or taken under the same mark and not yet expired.
    @inlinable
    public func answer(
        notBefore: ContinuousClock.Instant, now: ContinuousClock.Instant, mark: @autoclosure () -> UInt64?
    ) -> Found? {
        let (notBefore, now) = (keptTimeOrigin.duration(to: notBefore), keptTimeOrigin.duration(to: now))
        return kept.withLock { entry -> Found? in
            guard let entry else { return nil }
            if entry.validity.takenAt >= notBefore { return Found(value: entry.value, onTheMark: false) }
            guard let kept = entry.validity.mark, kept == mark(), now < entry.validity.expiresAt else { return nil }
            return Found(value: entry.value, onTheMark: true)
        }
    }

    /// After the owner checked its file: the kept answer, with `validity` from now on, when it
    /// was read from the file stamped `validity.stamp`; `update` brings along what the check
    /// found out beside the stamp. Nil, and nothing changed, when the file is not as kept.
    @inlinable
    public func renewed(_ validity: Validity, update: (Value) -> Value) -> Value? {
        kept.withLock { entry -> Value? in
            guard let kept = entry, let stamp = validity.stamp, kept.validity.stamp == stamp else { return nil }
            let value = update(kept.value)
            entry = Entry(value: value, validity: validity)
            return value
        }
    }

    /// Keeps `value` as holding by `validity`, in place of any kept before; nil forgets.
    @inlinable
    public func keep(_ value: Value?, _ validity: Validity) {
        kept.withLock { $0 = value.map { Entry(value: $0, validity: validity) } }
    }
}

/// The instant that kept times count from (`KeptAnswer.Validity`, `FileChecker`'s retry, the
/// server's first reply): any will do, as only their order matters.
@usableFromInline
package let keptTimeOrigin = ContinuousClock.now
