import Dispatch
import Synchronization
import WalletBridgeProtocol

/// The requests being handled right now.
///
/// Every call is answered exactly once: by its own task when it finishes, or by the timeout
/// sweep. Whoever removes the entry from the table answers; the other finds it gone.
final class InFlightTable: Sendable {
    struct Entry {
        var task: Task<Void, Never>?
        var deadline: ContinuousClock.Instant?
        /// Answers the call with an error when it is taken away from its handler.
        let abort: @Sendable (RPCError) -> Void
    }

    /// A call's place in the table. Slots are reused; the generation (a 64-bit count of calls,
    /// which does not wrap in practice) tells this call from earlier ones in the same slot.
    struct Key: Sendable, Hashable {
        let slot: Int
        let generation: UInt64
    }

    /// Entries live in slots that are reused, so a call costs no hashing.
    private struct State {
        /// The generation each slot holds now, 0 when free (generations start at 1).
        var generations: [UInt64] = []
        var entries: [Entry?] = []
        var freeSlots: [Int] = []
        var count = 0
        /// Calls reserved and not yet answered: `count`, plus those whose answer is being
        /// written right now. Shutdown waits for this, not `count`: a call leaves the table
        /// before its reply is written (whoever removes it answers), and an exit in between
        /// lost that reply.
        var unanswered = 0
        var generation: UInt64 = 0

        func holds(_ key: Key) -> Bool {
            key.slot < generations.count && generations[key.slot] == key.generation
        }

        mutating func remove(_ key: Key) -> Entry? {
            guard holds(key) else { return nil }
            var entry: Entry? = nil
            swap(&entry, &entries[key.slot])
            generations[key.slot] = 0
            freeSlots.append(key.slot)
            count -= 1
            return entry
        }
    }

    private let state = Mutex(State())
    private let idle = DispatchGroup()
    let limit: Int

    init(limit: Int) { self.limit = limit }

    var count: Int { state.withLock { $0.count } }

    /// `count`, and the calls whose answer is being written now: 0 once every reply is out.
    var unansweredCount: Int { state.withLock { $0.unanswered } }

    /// Reserves a slot, or returns nil when `limit` calls are already running.
    func reserve(deadline: ContinuousClock.Instant?, abort: @escaping @Sendable (RPCError) -> Void) -> Key? {
        let key: Key? = state.withLock { state in
            guard state.count < limit else { return nil }
            let slot: Int
            if let free = state.freeSlots.popLast() {
                slot = free
            } else {
                slot = state.generations.count
                state.generations.append(0)
                state.entries.append(nil)
            }
            state.generation += 1
            state.generations[slot] = state.generation
            state.entries[slot] = Entry(task: nil, deadline: deadline, abort: abort)
            state.count += 1
            state.unanswered += 1
            return Key(slot: slot, generation: state.generation)
        }
        if key != nil { idle.enter() }
        return key
    }

    /// Records the task serving `key`, so that a timeout or shutdown can cancel it. If the task
    /// already finished, there is nothing to record.
    func attach(_ task: Task<Void, Never>, to key: Key) {
        state.withLock { state in
            if state.holds(key) { state.entries[key.slot]?.task = task }
        }
    }

    /// Sets the deadline of `key`, reserved without one (a batch entry that waited for the one
    /// before it): its time runs from now on.
    func start(_ key: Key, deadline: ContinuousClock.Instant?) {
        state.withLock { state in
            if state.holds(key) { state.entries[key.slot]?.deadline = deadline }
        }
    }

    /// Claims the right to answer `key`, and if granted runs `answer` before the call leaves
    /// the table: shutdown waits for an empty table, so a reply must be written by then. So
    /// `answer` (like `abort`) must never wait for the table to empty, as performing a shutdown
    /// does: it would wait for its own call. False when a timeout already answered the call.
    @discardableResult
    func finish(_ key: Key, answer: () -> Void) -> Bool {
        guard state.withLock({ $0.remove(key) }) != nil else { return false }
        answer()
        answered(1)
        return true
    }

    private func answered(_ calls: Int) {
        state.withLock { $0.unanswered -= calls }
        for _ in 0..<calls { idle.leave() }
    }

    /// Removes every call whose deadline has passed, cancels its task and answers it.
    func expire(now: ContinuousClock.Instant) {
        let expired: [Entry] = state.withLock { state in
            let overdue = state.entries.indices.filter { state.entries[$0]?.deadline.map { $0 <= now } == true }
            return overdue.compactMap { state.remove(Key(slot: $0, generation: state.generations[$0])) }
        }
        for entry in expired {
            entry.task?.cancel()
            entry.abort(RPCError(.requestTimedOut))
        }
        answered(expired.count)
    }

    /// Cancels every running handler. Each still answers (with its result, or with
    /// `requestCancelled` when it honours cancellation) and then leaves the table.
    func cancelAll() {
        let tasks = state.withLock { $0.entries.compactMap { $0?.task } }
        for task in tasks { task.cancel() }
    }

    /// Waits until no call is running, or `timeout` passes. True when the table emptied.
    func waitUntilEmpty(timeout: Duration) -> Bool {
        // The common end of a `sendNativeMessage` call: nothing runs, and Dispatch's clock is
        // not worth starting for it.
        if state.withLock({ $0.unanswered == 0 }) { return true }
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        return idle.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }
}
