import Dispatch
import Synchronization

/// The requests being handled right now.
///
/// Every call is answered exactly once: by its own task when it finishes, or by the timeout
/// sweep. Whoever removes the entry from the table answers; the other finds it gone.
final class InFlightTable: Sendable {
    struct Entry {
        var task: Task<Void, Never>?
        let deadline: ContinuousClock.Instant?
        /// Answers the call with an error when it is taken away from its handler.
        let abort: @Sendable (RPCError) -> Void
    }

    /// Entries live in slots that are reused, so a call costs no hashing: a key is its slot
    /// plus a generation, and an old key never matches a reused slot.
    private struct State {
        var slots: [(key: UInt64, entry: Entry)?] = []
        var freeSlots: [Int] = []
        var count = 0
        var generation: UInt64 = 0

        mutating func remove(_ key: UInt64) -> Entry? {
            let slot = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
            guard slot < slots.count, let occupant = slots[slot], occupant.key == key else { return nil }
            slots[slot] = nil
            freeSlots.append(slot)
            count -= 1
            return occupant.entry
        }
    }

    private let state = Mutex(State())
    private let idle = DispatchGroup()
    let limit: Int

    init(limit: Int) { self.limit = limit }

    var count: Int { state.withLock { $0.count } }

    /// Reserves a slot, or returns nil when `limit` calls are already running.
    func reserve(deadline: ContinuousClock.Instant?, abort: @escaping @Sendable (RPCError) -> Void) -> UInt64? {
        let key: UInt64? = state.withLock { state in
            guard state.count < limit else { return nil }
            let slot: Int
            if let free = state.freeSlots.popLast() {
                slot = free
            } else {
                slot = state.slots.count
                state.slots.append(nil)
            }
            state.generation &+= 1
            let key = state.generation << 32 | UInt64(slot)
            state.slots[slot] = (key, Entry(task: nil, deadline: deadline, abort: abort))
            state.count += 1
            return key
        }
        if key != nil { idle.enter() }
        return key
    }

    /// Records the task serving `key`, so that a timeout or shutdown can cancel it. If the task
    /// already finished, there is nothing to record.
    func attach(_ task: Task<Void, Never>, to key: UInt64) {
        state.withLock { state in
            let slot = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
            if slot < state.slots.count, state.slots[slot]?.key == key { state.slots[slot]?.entry.task = task }
        }
    }

    /// Claims the right to answer `key`, and if granted runs `answer` before the call leaves
    /// the table: shutdown waits for an empty table, so a reply must be written by then. False
    /// when a timeout already answered the call.
    @discardableResult
    func finish(_ key: UInt64, answer: () -> Void) -> Bool {
        guard state.withLock({ $0.remove(key) }) != nil else { return false }
        answer()
        idle.leave()
        return true
    }

    /// Removes every call whose deadline has passed, cancels its task and answers it.
    func expire(now: ContinuousClock.Instant) {
        let expired: [Entry] = state.withLock { state in
            let keys = state.slots.compactMap { occupant in
                occupant.flatMap { $0.entry.deadline.map { $0 <= now } == true ? $0.key : nil }
            }
            return keys.compactMap { state.remove($0) }
        }
        for entry in expired {
            entry.task?.cancel()
            entry.abort(RPCError(.requestTimedOut))
            idle.leave()
        }
    }

    /// Cancels every running handler. Each still answers (with its result, or with
    /// `requestCancelled` when it honours cancellation) and then leaves the table.
    func cancelAll() {
        let tasks = state.withLock { $0.slots.compactMap { $0?.entry.task } }
        for task in tasks { task.cancel() }
    }

    /// Waits until no call is running, or `timeout` passes. True when the table emptied.
    func waitUntilEmpty(timeout: Duration) -> Bool {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        return idle.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }
}
