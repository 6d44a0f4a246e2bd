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

    private struct State {
        var nextKey: UInt64 = 0
        var entries: [UInt64: Entry] = [:]
    }

    private let state = Mutex(State())
    private let idle = DispatchGroup()
    let limit: Int

    init(limit: Int) { self.limit = limit }

    var count: Int { state.withLock { $0.entries.count } }

    /// Reserves a slot, or returns nil when `limit` calls are already running.
    func reserve(deadline: ContinuousClock.Instant?, abort: @escaping @Sendable (RPCError) -> Void) -> UInt64? {
        let key: UInt64? = state.withLock { state in
            guard state.entries.count < limit else { return nil }
            state.nextKey += 1
            state.entries[state.nextKey] = Entry(task: nil, deadline: deadline, abort: abort)
            return state.nextKey
        }
        if key != nil { idle.enter() }
        return key
    }

    /// Records the task serving `key`, so that a timeout or shutdown can cancel it. If the task
    /// already finished, there is nothing to record.
    func attach(_ task: Task<Void, Never>, to key: UInt64) {
        state.withLock { state in state.entries[key]?.task = task }
    }

    /// Claims the right to answer `key`, and if granted runs `answer` before the call leaves
    /// the table: shutdown waits for an empty table, so a reply must be written by then. False
    /// when a timeout already answered the call.
    @discardableResult
    func finish(_ key: UInt64, answer: () -> Void) -> Bool {
        guard state.withLock({ $0.entries.removeValue(forKey: key) }) != nil else { return false }
        answer()
        idle.leave()
        return true
    }

    /// Removes every call whose deadline has passed, cancels its task and answers it.
    func expire(now: ContinuousClock.Instant) {
        let expired: [Entry] = state.withLock { state in
            let keys = state.entries.compactMap { key, entry in
                entry.deadline.map { $0 <= now } == true ? key : nil
            }
            return keys.compactMap { state.entries.removeValue(forKey: $0) }
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
        let tasks = state.withLock { $0.entries.values.compactMap(\.task) }
        for task in tasks { task.cancel() }
    }

    /// Waits until no call is running, or `timeout` passes. True when the table emptied.
    func waitUntilEmpty(timeout: Duration) -> Bool {
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        return idle.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success
    }
}
