import WalletBridge
import WalletBridgeClient

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
            lines.append(
                "latency: p50 \(Self.milliseconds(p50)) ms, p99 \(Self.milliseconds(p99)) ms, max \(Self.milliseconds(max)) ms"
            )
        }
        return lines
    }

    static func milliseconds(_ duration: Duration) -> String {
        Decimal3(duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000)
            .description
    }
}

/// Sends `total` requests over `concurrency` persistent connections, one in flight on each,
/// the way an extension holding `connectNative` ports and awaiting each reply would. One
/// thread drives every connection with a single poll().
enum LoadRun {
    static func run(
        command: HostCommand, method: String, params: JSONValue?, total: Int, concurrency: Int, timeout: Duration
    ) -> LoadSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var encodedParams: [UInt8]?
        if let params { encodedParams = params.jsonBytes }
        var load = Load(method: method, params: encodedParams, total: total, timeout: timeout, clock: clock)
        let workers = load.connect(command, count: min(concurrency, total))
        for worker in workers { load.sendNext(worker) }
        while load.pumpOnce(workers) {}
        load.summary.notSent = total - (load.nextID - 1)
        load.summary.wallTime = clock.now - start
        // All at once: closed one after another, N hung hosts took N graces. A host that failed
        // (timed out, broke the protocol) gets only a moment: its request is already lost.
        HostConnection.close(workers.map { ($0.connection, $0.alive ? .seconds(2) : .milliseconds(200)) })
        return load.summary
    }

    /// One host process, with at most one request in flight.
    private final class Worker {
        let connection: HostConnection
        var inFlight: (id: Int, sent: ContinuousClock.Instant)?
        var alive = true
        init(_ connection: HostConnection) { self.connection = connection }
    }

    /// The run so far: the next request's id, and what has been measured.
    private struct Load {
        let method: String
        /// Encoded once: every request differs only in its id.
        let params: [UInt8]?
        let total: Int
        let timeout: Duration
        let clock: ContinuousClock
        var summary = LoadSummary()
        var nextID = 1

        init(method: String, params: [UInt8]?, total: Int, timeout: Duration, clock: ContinuousClock) {
            self.method = method
            self.params = params
            self.total = total
            self.timeout = timeout
            self.clock = clock
            summary.total = total
        }

        /// Starts `count` hosts; one that fails to start is counted as a failure, not a connection.
        mutating func connect(_ command: HostCommand, count: Int) -> [Worker] {
            var workers: [Worker] = []
            for _ in 0..<count {
                do {
                    workers.append(Worker(try HostConnection(command)))
                } catch {
                    summary.firstFailure = summary.firstFailure ?? error.description
                }
            }
            summary.connections = workers.count
            return workers
        }

        mutating func sendNext(_ worker: Worker) {
            guard nextID <= total, worker.alive else { return }
            let id = RequestID.number(JSONNumber(nextID))
            worker.connection.enqueue(Request.encode(id: id, method: method, encodedParams: params), id: id)
            worker.inFlight = (nextID, clock.now)
            nextID += 1
        }

        mutating func fail(_ worker: Worker, _ error: NativeHostError) {
            if worker.inFlight != nil { summary.failed += 1 }
            worker.inFlight = nil
            worker.alive = false
            summary.firstFailure = summary.firstFailure ?? error.description
        }

        /// Waits (one poll over every live connection) until a reply arrives or the earliest
        /// request times out, then handles every busy worker. False once nothing is in flight.
        mutating func pumpOnce(_ workers: [Worker]) -> Bool {
            let live = workers.filter(\.alive)
            let busy = live.filter { $0.inFlight != nil }
            if busy.isEmpty { return false }
            let deadline = busy.map { $0.inFlight!.sent + timeout }.min()!
            _ = HostConnection.pump(live.map(\.connection), until: deadline)
            let now = clock.now
            for worker in busy {
                do throws(NativeHostError) {
                    try collect(worker, now: now)
                } catch {
                    fail(worker, error)
                }
            }
            return true
        }

        /// Takes every reply `worker` has ready, sending the next request after each; throws
        /// when the host broke the protocol, or ended or timed out with a request in flight.
        mutating func collect(_ worker: Worker, now: ContinuousClock.Instant) throws(NativeHostError) {
            while let (id, sent) = worker.inFlight {
                let reply: Response.Parsed
                do {
                    guard let taken = try worker.connection.connection.takeReply(to: .number(JSONNumber(id))) else {
                        break
                    }
                    reply = taken
                } catch {
                    // Notifications are let pass; anything else that is not the reply is a failure.
                    throw worker.connection.failure(error, timeout: timeout)
                }
                tally(reply, latency: now - sent)
                worker.inFlight = nil
                sendNext(worker)
            }
            if worker.connection.stdoutEnded, worker.inFlight != nil {
                throw worker.connection.failure(
                    .exitedWithoutReply(worker.connection.waitForExit(until: .now + .seconds(1))))
            }
            if let (_, sent) = worker.inFlight, now >= sent + timeout {
                throw worker.connection.failure(.timedOut(timeout, waitingFor: "reply"))
            }
        }

        /// Counts one answered request: its latency, and whether it was a result or an error.
        mutating func tally(_ reply: Response.Parsed, latency: Duration) {
            summary.latencies.append(latency)
            switch reply.outcome {
            case .result: summary.results += 1
            case .error(let error):
                summary.errors += 1
                summary.firstError = summary.firstError ?? "\(error.code.rawValue) \(error.message)"
            }
        }
    }
}
