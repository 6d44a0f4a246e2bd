/// One consent dialog at a time, in arrival order: two requests must not put two dialogs on
/// screen at once, where one could be mistaken for the other. In the agent it is one queue for
/// every browser and port. Past `limit` waiting requests, a new one is refused at once rather
/// than stacking dialogs; a request cancelled while it waits (its caller left, its timeout
/// passed) leaves the queue at once and is never shown.
import Synchronization

actor ConsentQueue {
    /// Thrown by `run` when `limit` requests already wait.
    struct Full: Error {}

    /// Requests that may wait behind the one being shown.
    nonisolated let limit: Int
    /// Requests in line: waiting, or in a dialog now. Read without waiting for the actor, so
    /// that `agent status` answers while a dialog is shown.
    nonisolated let inLine = Atomic<Int>(0)
    private var busy = false
    private var waiters: [(ticket: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    private var nextTicket = 0

    init(limit: Int = 16) {
        self.limit = limit
    }

    /// Runs `body` once every earlier caller's body has finished.
    nonisolated func run<T>(_ body: () async throws -> T) async throws -> T {
        inLine.add(1, ordering: .relaxed)
        defer { inLine.subtract(1, ordering: .relaxed) }
        try await acquire()
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

    /// How many requests wait behind the one being shown.
    var waiting: Int { waiters.count }

    private func acquire() async throws {
        guard busy else {
            busy = true
            return
        }
        guard waiters.count < limit else { throw Full() }
        let ticket = nextTicket
        nextTicket += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((ticket, continuation))
                }
            }
        } onCancel: {
            Task { await self.leave(ticket) }
        }
    }

    /// A waiter cancelled before its turn leaves without taking it.
    private func leave(_ ticket: Int) {
        guard let index = waiters.firstIndex(where: { $0.ticket == ticket }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().continuation.resume()  // ownership passes on; busy stays true
        }
    }
}
