import WalletBridgeProtocol

/// One consent dialog at a time: two requests must not put two dialogs on screen at once, where
/// one could be mistaken for the other. In the agent it is one queue for every browser and port.
///
/// **Fair between callers.** Each caller (an extension, `Caller.identity`) waits in its own
/// line, and the lines take turns: after one caller's dialog, the next dialog is another
/// caller's whenever another waits, so one extension's stream of requests (or its unanswered
/// dialog) never puts another's request behind all of its own. Within a line, arrival order.
///
/// **Bounded.** Past `perCallerLimit` requests of one caller waiting, that caller's next one is
/// refused at once (`Full`), and no other caller is affected; `limit` bounds all lines together
/// (many callers at once). A request cancelled while it waits (its caller left, its timeout
/// passed) leaves the queue at once and is never shown.
///
/// **"Refuse all from this extension".** `refuseAll(_:)` (the dialog's third button) refuses
/// the caller's waiting requests unasked, and its new ones for `refuseAllDuration`
/// (`RefusedAll`).
import Synchronization

package actor ConsentQueue {
    /// Thrown by `run` when its caller already has `perCallerLimit` requests waiting
    /// (`perCaller`), or when `limit` requests of all callers already wait.
    package struct Full: Error {
        package let perCaller: Bool
    }

    /// Thrown by `run` for a caller the person refused everything from
    /// (`refuseAll(_:)`): while it waited, or arriving within `refuseAllDuration` of it.
    package struct RefusedAll: Error {}

    /// Requests of all callers that may wait behind the one being shown.
    package nonisolated let limit: Int
    /// Requests of one caller that may wait behind the one being shown.
    package nonisolated let perCallerLimit: Int
    /// How long after "Refuse all" a caller's new requests are refused unasked.
    package nonisolated let refuseAllDuration: Duration
    /// Requests in line: waiting, or in a dialog now. Read without waiting for the actor, so
    /// that `agent status` answers while a dialog is shown.
    package nonisolated let inLine = Atomic<Int>(0)
    /// The clock `refuseAllDuration` is measured with; tests pass their own.
    private let now: @Sendable () -> ContinuousClock.Instant

    private struct Waiter {
        let ticket: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private var busy = false
    /// The caller whose request holds the turn (or held it last).
    private var served: String?
    /// Each caller's waiting requests, in arrival order.
    private var lines: [String: [Waiter]] = [:]
    /// Callers with a waiting request, in the order they get their next turn.
    private var turns: [String] = []
    /// Callers refused until then.
    private var refusedUntil: [String: ContinuousClock.Instant] = [:]
    private var nextTicket = 0

    /// The defaults, documented in docs/wallet.md: 32 in all, 8 per caller, 10 minutes.
    package init(
        limit: Int = 32, perCallerLimit: Int = 8, refuseAllDuration: Duration = .seconds(600),
        now: @escaping @Sendable () -> ContinuousClock.Instant = Clocks.system.monotonic
    ) {
        self.limit = limit
        self.perCallerLimit = perCallerLimit
        self.refuseAllDuration = refuseAllDuration
        self.now = now
    }

    /// Runs `body` in `caller`'s turn: once no other body runs, and after the callers whose turn
    /// comes first.
    package nonisolated func run<T>(for caller: String, _ body: () async throws -> T) async throws -> T {
        inLine.add(1, ordering: .relaxed)
        defer { inLine.subtract(1, ordering: .relaxed) }
        try await acquire(caller)
        do {
            try Task.checkCancellation()  // cancelled as its turn came: ask nobody
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    /// How many requests of all callers wait behind the one being shown.
    var waiting: Int { lines.values.reduce(0) { $0 + $1.count } }

    /// How many requests of `caller` wait behind the one being shown.
    package func waiting(for caller: String) -> Int { lines[caller]?.count ?? 0 }

    /// The person refused everything from `caller`: its waiting requests leave the queue with
    /// `RefusedAll`, unasked, and so do its new ones for `refuseAllDuration`.
    package func refuseAll(_ caller: String) {
        refusedUntil[caller] = now() + refuseAllDuration
        turns.removeAll { $0 == caller }
        for waiter in lines.removeValue(forKey: caller) ?? [] {
            waiter.continuation.resume(throwing: RefusedAll())
        }
    }

    private func acquire(_ caller: String) async throws {
        if let until = refusedUntil[caller] {
            guard now() >= until else { throw RefusedAll() }
            refusedUntil[caller] = nil
        }
        guard busy else {
            busy = true
            served = caller
            return
        }
        let line = lines[caller] ?? []
        guard line.count < perCallerLimit else { throw Full(perCaller: true) }
        guard waiting < limit else { throw Full(perCaller: false) }
        let ticket = nextTicket
        nextTicket += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    if lines[caller, default: []].isEmpty { turns.append(caller) }
                    lines[caller, default: []].append(Waiter(ticket: ticket, continuation: continuation))
                }
            }
        } onCancel: {
            Task { await self.leave(ticket) }
        }
    }

    /// A waiter cancelled before its turn leaves without taking it.
    private func leave(_ ticket: Int) {
        for (caller, line) in lines {
            guard let index = line.firstIndex(where: { $0.ticket == ticket }) else { continue }
            let waiter = lines[caller]!.remove(at: index)
            if lines[caller]!.isEmpty {
                lines[caller] = nil
                turns.removeAll { $0 == caller }
            }
            waiter.continuation.resume(throwing: CancellationError())
            return
        }
    }

    /// Passes the turn on: to the next caller in turn, and not back to the caller just served
    /// while another waits.
    private func release() {
        guard !turns.isEmpty else {
            busy = false
            return
        }
        if turns.count > 1, turns[0] == served { turns.append(turns.removeFirst()) }
        let caller = turns.removeFirst()
        let waiter = lines[caller]!.removeFirst()
        if lines[caller]!.isEmpty {
            lines[caller] = nil
        } else {
            turns.append(caller)  // its next request after every other caller's
        }
        served = caller
        waiter.continuation.resume()  // ownership passes on; busy stays true
    }
}
