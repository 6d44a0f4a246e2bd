/// Lets one consent dialog run at a time, in arrival order: two requests must not put two
/// passphrase prompts on screen at once, where one could be mistaken for the other.
actor SerialGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier caller's body has finished.
    nonisolated func run<T>(_ body: () async throws -> T) async throws -> T {
        await acquire()
        do {
            try Task.checkCancellation()  // cancelled while waiting its turn: ask nobody
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            busy = false
        } else {
            waiters.removeFirst().resume()  // ownership passes on; busy stays true
        }
    }
}
