import WalletBridge

/// What `call --repeat N --concurrency C` measured.
struct LoadSummary: Sendable {
    var total = 0
    var connections = 0
    var results = 0
    /// JSON-RPC error responses: the host answered, with an error.
    var errors = 0
    /// Requests that got no usable answer (the host died, timed out, wrote garbage).
    var failed = 0
    var notSent = 0
    var wallTime: Duration = .zero
    var latencies: [Duration] = []
    var firstError: String?
    var firstFailure: String?

    var answered: Int { results + errors }

    /// Nearest-rank percentile of the latencies.
    func percentile(_ fraction: Double) -> Duration? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var lines: [String] {
        let seconds = Double(wallTime.components.seconds) + Double(wallTime.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int64((Double(answered) / seconds * 1000).rounded()) : 0
        var lines = [
            "requests: \(total) over \(connections) host process\(connections == 1 ? "" : "es"); "
                + "\(results) results, \(errors) errors, \(failed) failed, \(notSent) not sent",
            "wall time: \(NativeHostError.seconds(wallTime)) s (including host start-up); \(Decimal3(rate)) req/s",
        ]
        if let p50 = percentile(0.5), let p99 = percentile(0.99), let max = latencies.max() {
            lines.append("latency: p50 \(Self.milliseconds(p50)) ms, p99 \(Self.milliseconds(p99)) ms, max \(Self.milliseconds(max)) ms")
        }
        return lines
    }

    static func milliseconds(_ duration: Duration) -> String {
        Decimal3(duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000).description
    }
}

/// Sends `total` requests over `concurrency` persistent connections, one in flight on each,
/// the way an extension holding `connectNative` ports and awaiting each reply would. One
/// thread drives every connection with a single poll().
enum LoadRun {
    static func run(command: HostCommand, method: String, params: JSONValue?, total: Int, concurrency: Int, timeout: Duration) -> LoadSummary {
        var summary = LoadSummary()
        summary.total = total
        let clock = ContinuousClock()
        let start = clock.now

        final class Worker {
            let connection: HostConnection
            var inFlight: (id: Int, sent: ContinuousClock.Instant)?
            var alive = true
            init(_ connection: HostConnection) { self.connection = connection }
        }

        var workers: [Worker] = []
        for _ in 0..<min(concurrency, total) {
            do {
                workers.append(Worker(try HostConnection(command)))
            } catch {
                summary.firstFailure = summary.firstFailure ?? error.description
            }
        }
        summary.connections = workers.count
        var nextID = 1

        func sendNext(_ worker: Worker) {
            guard nextID <= total, worker.alive else { return }
            worker.connection.enqueue(CallRequest.body(id: .number(JSONNumber(nextID)), method: method, params: params))
            worker.inFlight = (nextID, clock.now)
            nextID += 1
        }
        func fail(_ worker: Worker, _ error: NativeHostError) {
            if worker.inFlight != nil { summary.failed += 1 }
            worker.inFlight = nil
            worker.alive = false
            summary.firstFailure = summary.firstFailure ?? error.description
        }

        workers.forEach(sendNext)
        while true {
            let live = workers.filter(\.alive)
            let busy = live.filter { $0.inFlight != nil }
            if busy.isEmpty { break }
            let deadline = busy.map { $0.inFlight!.sent + timeout }.min()!
            _ = HostConnection.pump(live.map(\.connection), until: deadline)
            let now = clock.now
            for worker in busy {
                do throws(NativeHostError) {
                    while let body = try worker.connection.nextFrame() {
                        guard let (id, sent) = worker.inFlight else {
                            throw NativeHostError(.notJSONRPC(reason: "a reply nobody asked for", bytes: body), stderrTail: worker.connection.stderrTail)
                        }
                        let reply = try RPCReply(parsing: body)
                        guard reply.id == .number(JSONNumber(id)) else {
                            throw NativeHostError(.notJSONRPC(reason: "id \(String(decoding: reply.id.jsonBytes, as: UTF8.self)) answers no request in flight (expected \(id))", bytes: body))
                        }
                        summary.latencies.append(now - sent)
                        switch reply.outcome {
                        case .result: summary.results += 1
                        case .error(let code, let message):
                            summary.errors += 1
                            summary.firstError = summary.firstError ?? "\(code) \(message)"
                        }
                        worker.inFlight = nil
                        sendNext(worker)
                    }
                    if worker.connection.stdoutEnded, worker.inFlight != nil {
                        throw worker.connection.failure(.exitedWithoutReply(worker.connection.waitForExit(until: .now + .seconds(1))))
                    }
                    if let (_, sent) = worker.inFlight, now >= sent + timeout {
                        throw worker.connection.failure(.timedOut(timeout, waitingFor: "reply"))
                    }
                } catch {
                    fail(worker, error)
                }
            }
        }
        summary.notSent = total - (nextID - 1)
        summary.wallTime = clock.now - start
        // All at once: closed one after another, N hung hosts took N graces. A host that failed
        // (timed out, broke the protocol) gets only a moment: its request is already lost.
        HostConnection.close(workers.map { ($0.connection, $0.alive ? .seconds(2) : .milliseconds(200)) })
        return summary
    }
}
