import Dispatch
import Synchronization
@testable import WalletBridgeHost
import WalletBridgeProtocol
import WalletBridgeTestSupport
import XCTest

/// The server alone, over a scripted in-memory channel: ordering, notifications, batches,
/// load shedding and timeouts, with no process and no pipe.
final class ServerTests: XCTestCase {
    private enum Sleep: RPCMethod {
        static let name = "sleep"
        typealias Params = [Int]
        typealias Result = Int
    }

    private enum Quick: RPCMethod {
        static let name = "quick"
        typealias Params = NoParams
        typealias Result = String
    }

    private enum Hang: RPCMethod {
        static let name = "hang"
        typealias Params = NoParams
        typealias Result = NoResult
    }

    /// `sleep` and `hang` are workloads, not waits: handlers that take the time they are asked
    /// for (`hang`, until the sweep cancels it), which the server must answer around.
    private func router() throws -> Router {
        var router = Router()
        try router.register(Sleep.self) { milliseconds, _ in
            try await Task.sleep(for: .milliseconds(milliseconds.first ?? 0))
            return milliseconds.first ?? 0
        }
        try router.register(Quick.self, execution: .immediate) { _, _ in "at once" }
        try router.register(Hang.self) { _, _ in
            try await Task.sleep(for: .seconds(60))
            return NoResult()
        }
        return router
    }

    private func id(_ reply: JSONValue) -> JSONValue? {
        guard case .object(let members) = reply else { return nil }
        return members["id"]
    }

    private func errorCode(_ reply: JSONValue) -> JSONValue? {
        guard case .object(let members) = reply, case .object(let error)? = members["error"] else { return nil }
        return error["code"]
    }

    func testAQuickHandlerIsAnsweredBeforeTheCallReturnsAndASlowOneLater() throws {
        // The slow one takes until the test lets it go on, not for a while the quick one
        // might outlast on a loaded machine.
        let dialogs = Dialogs(gated: [1])
        var router = try askingRouter(dialogs)
        try router.register(Quick.self, execution: .immediate) { _, _ in "at once" }
        let channel = ScriptedChannel(router: router)
        channel.server.receive(Array(#"{"jsonrpc":"2.0","method":"ask","params":[1],"id":1}"#.utf8))
        channel.server.receive(Array(#"{"jsonrpc":"2.0","method":"quick","id":2}"#.utf8))
        XCTAssertEqual(try channel.frames.map(id), [.number(JSONNumber(2))], "the plain call answered inside receive")
        dialogs.release(1)
        let replies = try channel.waitFor(2)
        XCTAssertEqual(
            replies.map(id), [.number(JSONNumber(2)), .number(JSONNumber(1))], "replies go out as handlers finish")
    }

    func testANotificationGetsNoReplyAndTheRequestAfterItDoes() throws {
        let channel = ScriptedChannel(router: try router())
        let replies = try channel.play(
            [
                #"{"jsonrpc":"2.0","method":"quick"}"#,
                #"{"jsonrpc":"2.0","method":"no.such.method"}"#,
                #"{"jsonrpc":"2.0","method":"sleep","params":[1]}"#,
                #"{"jsonrpc":"2.0","method":"sleep","params":[5],"id":"last"}"#,
            ], expecting: 1)
        XCTAssertEqual(replies.map(id), [.string("last")])
        // Every handler has answered (its reply, if any, written) once the server is idle.
        XCTAssertTrue(channel.server.waitUntilIdle(timeout: .seconds(5)))
        XCTAssertEqual(try channel.frames.count, 1, "nothing else was sent")
    }

    func testABatchIsAnsweredInRequestOrderWhateverOrderItsHandlersFinishIn() throws {
        let channel = ScriptedChannel(router: try router())
        let replies = try channel.play(
            [
                #"[{"jsonrpc":"2.0","method":"sleep","params":[80],"id":1},{"jsonrpc":"2.0","method":"quick","id":2},"#
                    + #"{"jsonrpc":"2.0","method":"sleep","params":[10],"id":3},{"jsonrpc":"2.0","method":"quick"}]"#
            ], expecting: 1)
        guard case .array(let entries) = try XCTUnwrap(replies.first) else {
            return XCTFail("a batch reply is an array")
        }
        XCTAssertEqual(entries.map(id), [1, 2, 3].map { .number(JSONNumber($0)) }, "the notification has no entry")
    }

    func testCallsOverTheInFlightLimitAreShedWithOverloaded() throws {
        var configuration = HostConfiguration()
        configuration.maxInFlight = 1
        // The call in flight stays there until the test lets it go on, however slow the machine.
        let dialogs = Dialogs(gated: [1])
        let channel = ScriptedChannel(router: try askingRouter(dialogs), configuration: configuration)
        channel.server.receive(Array(#"{"jsonrpc":"2.0","method":"ask","params":[1],"id":1}"#.utf8))
        channel.server.receive(Array(#"{"jsonrpc":"2.0","method":"ask","params":[2],"id":2}"#.utf8))
        dialogs.release(1)
        let replies = try channel.waitFor(2)
        XCTAssertEqual(replies.map(id), [.number(JSONNumber(2)), .number(JSONNumber(1))])
        XCTAssertEqual(errorCode(replies[0]), .number(JSONNumber(Int(ErrorCode.overloaded.rawValue))))
        XCTAssertNil(errorCode(replies[1]), "the call in flight still answers")
    }

    func testTheSweepAnswersAnOverdueCallAndCancelsItsHandler() throws {
        let clock = ManualClock()
        var configuration = HostConfiguration()
        configuration.requestTimeout = .milliseconds(20)
        let channel = ScriptedChannel(router: try router(), configuration: configuration, clock: clock)
        let handlerEnded = DispatchSemaphore(value: 0)
        TaskEnd.$watch.withValue(TaskEnd(handlerEnded)) {
            channel.server.receive(Array(#"{"jsonrpc":"2.0","method":"hang","id":9}"#.utf8))
        }
        XCTAssertEqual(channel.server.inFlightCount, 1)
        clock.advance(by: .milliseconds(19))
        channel.server.expireOverdueRequests()  // what the stdio loop does every sweep interval
        XCTAssertEqual(channel.server.inFlightCount, 1, "answered before its time")
        clock.advance(by: .milliseconds(1))
        channel.server.expireOverdueRequests()
        let replies = try channel.waitFor(1)
        XCTAssertEqual(errorCode(replies[0]), .number(JSONNumber(Int(ErrorCode.requestTimedOut.rawValue))))
        XCTAssertTrue(channel.server.waitUntilIdle(timeout: .seconds(5)), "the cancelled handler left the table")
        // Its task has ended, so whatever it would write is written by now.
        XCTAssertEqual(handlerEnded.wait(timeout: .now() + 10), .success, "the cancelled handler never ended")
        XCTAssertEqual(try channel.frames.count, 1, "the cancelled handler's own answer is dropped")
    }

    /// Tells when the task a request ran in has ended, answer and all: a task started while
    /// `watch` is bound holds a copy of it, and lets go once its work is done. How a test
    /// proves that a handler wrote nothing more, without a while that might be too short.
    private final class TaskEnd: Sendable {
        @TaskLocal static var watch: TaskEnd?
        private let ended: DispatchSemaphore

        init(_ ended: DispatchSemaphore) { self.ended = ended }
        deinit { ended.signal() }
    }

    // MARK: Events

    /// An event source starts once, when its owner says, and never before the first reply: a
    /// one-message host's first frame must be its reply.
    func testEventSourcesStartAfterTheFirstReplyAndPushNotifications() throws {
        let notify = Mutex<Router.Notify?>(nil)
        let starts = Atomic<Int>(0)
        var router = try router()
        router.addEventSource { send in
            starts.add(1, ordering: .relaxed)
            notify.withLock { $0 = send }
        }
        let clock = ManualClock()
        let channel = ScriptedChannel(router: router, clock: clock)
        channel.server.receive(Array(#"{"jsonrpc":"2.0","method":"quick"}"#.utf8))  // a notification: no reply
        channel.server.startEventSources()
        XCTAssertEqual(starts.load(ordering: .relaxed), 0, "started before any reply")
        XCTAssertNil(channel.server.eventSourcesDueAt)
        _ = try channel.play([#"{"jsonrpc":"2.0","id":1,"method":"quick"}"#], expecting: 1)
        let firstReply = clock.now
        clock.advance(by: .milliseconds(50))
        _ = try channel.play([#"{"jsonrpc":"2.0","id":2,"method":"quick"}"#], expecting: 2)
        XCTAssertEqual(starts.load(ordering: .relaxed), 0, "started by the owner, not by the reply")
        XCTAssertEqual(
            channel.server.eventSourcesDueAt, firstReply + Server.eventQuietPeriod, "counted from the first reply")
        channel.server.startEventSources()
        channel.server.startEventSources()
        XCTAssertEqual(starts.load(ordering: .relaxed), 1, "started once")
        XCTAssertNil(channel.server.eventSourcesDueAt)
        let send = try XCTUnwrap(notify.withLock { $0 })
        send("session_expire", .object(["topic": .string("ab")]))
        let frames = try channel.waitFor(3)
        guard case .object(let first) = frames[0] else { return XCTFail("not an object: \(frames[0])") }
        XCTAssertEqual(first["id"], .number(JSONNumber(1)))
        XCTAssertEqual(
            frames[2],
            .object([
                "jsonrpc": .string("2.0"), "method": .string("session_expire"),
                "params": .object(["topic": .string("ab")]),
            ]))
    }

    /// Every event source starts, in the order they were added.
    func testEventSourcesStartInTheOrderTheyWereAdded() throws {
        let started = Mutex<[String]>([])
        var router = try router()
        for name in ["first", "second", "third"] {
            router.addEventSource { _ in started.withLock { $0.append(name) } }
        }
        let channel = ScriptedChannel(router: router)
        _ = try channel.play([#"{"jsonrpc":"2.0","id":1,"method":"quick"}"#], expecting: 1)
        channel.server.startEventSources()
        XCTAssertEqual(started.withLock { $0 }, ["first", "second", "third"])
    }

    func testANotificationTooLargeForABrowserIsDropped() throws {
        let notify = Mutex<Router.Notify?>(nil)
        var router = try router()
        router.addEventSource { send in notify.withLock { $0 = send } }
        var configuration = HostConfiguration()
        configuration.maxOutboundFrameBytes = 200
        let channel = ScriptedChannel(router: router, configuration: configuration)
        _ = try channel.play([#"{"jsonrpc":"2.0","id":1,"method":"quick"}"#], expecting: 1)
        channel.server.startEventSources()
        let send = try XCTUnwrap(notify.withLock { $0 })
        send("big", .string(String(repeating: "x", count: 300)))
        send("small", .null)
        let frames = try channel.waitFor(2)
        XCTAssertEqual(frames.count, 2)
        guard case .object(let second) = frames[1] else { return XCTFail("not an object: \(frames[1])") }
        XCTAssertEqual(second["method"], .string("small"))
    }

    // MARK: A quick handler that defers

    /// A wallet whose accounts are at hand for one caller and need a slow step for the others.
    private final class Counts: Sendable {
        let quick = Atomic<Int>(0)
        let slow = Atomic<Int>(0)
    }

    private struct DeferringWallet: AccountsUsuallyAtHand {
        let counts = Counts()
        var getAccountsExecution: Execution { .immediate }

        func accountsAtHand(context: RequestContext) throws -> AtHand {
            counts.quick.add(1, ordering: .relaxed)
            guard context.caller == .unidentified else { return .askOffThread }
            return .answer(GetAccountsResult(addresses: ["quick"]))
        }

        func getAccounts(context: RequestContext) async throws -> GetAccountsResult {
            counts.slow.add(1, ordering: .relaxed)
            await Task.yield()  // suspends, as a real slow step (the agent's reply) does, without taking time
            return GetAccountsResult(addresses: ["slow"])
        }

        func signPayloads(_ params: SignPayloadsParams, context: RequestContext) async throws -> SignPayloadsResult {
            SignPayloadsResult(signed_payloads: [])
        }
    }

    /// The quick half answers when it can; when it says `.askOffThread`, the fallback
    /// answers instead, on the pool, and the quick half is not run a second time.
    func testAQuickHandlerThatDefersIsAnsweredByItsFallbackOnce() throws {
        let wallet = DeferringWallet()
        var router = Router()
        try router.registerWallet(wallet)
        let request = #"{"jsonrpc":"2.0","id":1,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#

        let quick = ScriptedChannel(router: router)
        let quickReply = try quick.play([request], expecting: 1)
        XCTAssertEqual(
            quickReply,
            [try JSONParser.parse(Array(#"{"jsonrpc":"2.0","id":1,"result":{"addresses":["quick"]}}"#.utf8))])
        XCTAssertEqual(wallet.counts.slow.load(ordering: .relaxed), 0)

        let deferred = ScriptedChannel(
            router: router, caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"))
        let slowReply = try deferred.play([request], expecting: 1)
        XCTAssertEqual(
            slowReply, [try JSONParser.parse(Array(#"{"jsonrpc":"2.0","id":1,"result":{"addresses":["slow"]}}"#.utf8))])
        XCTAssertEqual(
            wallet.counts.quick.load(ordering: .relaxed), 2,
            "once per call: the fallback does not run the quick half again")
        XCTAssertEqual(wallet.counts.slow.load(ordering: .relaxed), 1)
    }

    /// A method that asks the person: its handler records when it starts and ends, and the
    /// first call waits until the test lets it go on.
    private enum Ask: RPCMethod {
        static let name = "ask"
        typealias Params = [Int]
        typealias Result = Int
        static var asksThePerson: Bool { true }
    }

    /// What the `ask` handlers did, in order. A gated call's handler waits until the test
    /// releases it (or its task is cancelled), resumed by the release rather than looking.
    private final class Dialogs: Sendable {
        private struct Gates {
            var gated: Set<Int>
            var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
            var cancelled: Set<Int> = []
        }

        let events = Mutex<[String]>([])
        private let gates: Mutex<Gates>

        init(gated: Set<Int> = []) { gates = Mutex(Gates(gated: gated)) }

        func note(_ event: String) { events.withLock { $0.append(event) } }
        var recorded: [String] { events.withLock { $0 } }

        func release(_ number: Int) {
            let waiting = gates.withLock { gates in
                gates.gated.remove(number)
                return gates.waiting.removeValue(forKey: number)
            }
            waiting?.resume()
        }

        /// Returns once `number` is not gated; throws `CancellationError` if the task is
        /// cancelled first (the sweep timed its call out), as a dialog closed by it would.
        func pass(_ number: Int) async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let outcome: Result<Void, any Error>? = gates.withLock { gates in
                        if gates.cancelled.contains(number) { return .failure(CancellationError()) }
                        guard gates.gated.contains(number) else { return .success(()) }
                        gates.waiting[number] = continuation
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                let waiting = gates.withLock { gates in
                    gates.cancelled.insert(number)
                    return gates.waiting.removeValue(forKey: number)
                }
                waiting?.resume(throwing: CancellationError())
            }
        }
    }

    private func askingRouter(_ dialogs: Dialogs) throws -> Router {
        var router = Router()
        try router.register(Ask.self) { params, _ in
            let number = params.first ?? 0
            dialogs.note("start \(number)")
            do { try await dialogs.pass(number) } catch {
                dialogs.note("cancelled \(number)")
                throw error
            }
            dialogs.note("end \(number)")
            return number
        }
        return router
    }

    /// Issue 33, item 15: a batch's dialogs come in request order. Entries of a method that
    /// asks the person run one after another: the second starts only once the first answered,
    /// even when the first takes long. The first is held until the other three are seen
    /// waiting for the one before them (not for a while that might be too short).
    func testABatchsEntriesThatAskThePersonRunOneAfterAnotherInRequestOrder() throws {
        for _ in 0..<5 {
            let dialogs = Dialogs(gated: [0])
            let channel = ScriptedChannel(router: try askingRouter(dialogs))
            let entries = (0..<4).map { #"{"jsonrpc":"2.0","method":"ask","params":[\#($0)],"id":\#($0)}"# }
            channel.server.receive(Array("[\(entries.joined(separator: ","))]".utf8))
            try waitUntil("the later entries wait for the first (recorded: \(dialogs.recorded))") {
                dialogs.recorded.contains("start 0") && channel.server.entriesWaitingForTheOneBefore == 3
            }
            XCTAssertEqual(dialogs.recorded, ["start 0"], "a second dialog while the first was up")
            dialogs.release(0)
            let replies = try channel.waitFor(1)
            guard case .array(let answered) = try XCTUnwrap(replies.first) else {
                return XCTFail("a batch reply is an array")
            }
            XCTAssertEqual(answered.map(id), (0..<4).map { .number(JSONNumber($0)) })
            XCTAssertEqual(
                dialogs.recorded, ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2", "start 3", "end 3"],
                "a batch's dialogs overlapped or came out of request order")
        }
    }

    /// Issue 33 round 2, S5: a batch entry that waits for the dialog before it gets the whole
    /// request timeout from the moment its own turn comes, not from the batch's arrival: else
    /// the third or fourth dialog of a batch timed out before it was shown.
    func testAChainedEntrysTimeoutStartsWhenTheEntryBeforeItAnswers() throws {
        let clock = ManualClock()
        var configuration = HostConfiguration()
        configuration.requestTimeout = .seconds(10)
        let dialogs = Dialogs(gated: [0, 1, 2])
        let channel = ScriptedChannel(router: try askingRouter(dialogs), configuration: configuration, clock: clock)
        let entries = (0..<3).map { #"{"jsonrpc":"2.0","method":"ask","params":[\#($0)],"id":\#($0)}"# }
        channel.server.receive(Array("[\(entries.joined(separator: ","))]".utf8))
        try waitUntil("the first dialog is shown (recorded: \(dialogs.recorded))") { dialogs.recorded == ["start 0"] }
        clock.advance(by: .seconds(9))  // the person takes 9 s over the first dialog
        channel.server.expireOverdueRequests()
        dialogs.release(0)
        try waitUntil("the second dialog is shown (recorded: \(dialogs.recorded))") {
            dialogs.recorded.contains("start 1")
        }
        clock.advance(by: .seconds(3))  // 12 s after the batch came, 3 s into the second dialog
        channel.server.expireOverdueRequests()
        XCTAssertEqual(channel.server.inFlightCount, 2, "the second dialog timed out 3 s after it was shown")
        dialogs.release(1)
        try waitUntil("the third dialog is shown (recorded: \(dialogs.recorded))") {
            dialogs.recorded.contains("start 2")
        }
        // The third has its own 10 s, from the moment the second answered.
        clock.advance(by: .seconds(9))
        channel.server.expireOverdueRequests()
        XCTAssertEqual(channel.server.inFlightCount, 1, "the third dialog timed out before its own 10 s")
        clock.advance(by: .seconds(1))
        channel.server.expireOverdueRequests()
        let replies = try channel.waitFor(1)
        guard case .array(let answered) = try XCTUnwrap(replies.first) else {
            return XCTFail("a batch reply is an array")
        }
        XCTAssertEqual(answered.map(id), (0..<3).map { .number(JSONNumber($0)) })
        XCTAssertEqual(
            answered.map(errorCode), [nil, nil, .number(JSONNumber(Int(ErrorCode.requestTimedOut.rawValue)))])
        try waitUntil("the timed-out dialog's handler is cancelled (recorded: \(dialogs.recorded))") {
            dialogs.recorded.last == "cancelled 2"
        }
    }

    /// Issue 33, item 17: a notification of a method that asks the person is not run at all
    /// (its answer could go nowhere); the same method with an id is.
    func testANotificationOfAMethodThatAsksThePersonIsNotRun() throws {
        let dialogs = Dialogs()
        let channel = ScriptedChannel(router: try askingRouter(dialogs))
        let replies = try channel.play(
            [
                #"{"jsonrpc":"2.0","method":"ask","params":[7]}"#,
                #"[{"jsonrpc":"2.0","method":"ask","params":[8]},{"jsonrpc":"2.0","method":"ask","params":[9],"id":9}]"#,
                #"{"jsonrpc":"2.0","method":"ask","params":[1],"id":1}"#,
            ], expecting: 2)
        XCTAssertEqual(Set(replies.map { "\($0)" }.map { $0.contains("9") ? "batch" : "single" }), ["batch", "single"])
        XCTAssertEqual(
            dialogs.recorded.filter { $0.hasPrefix("start") }.sorted(), ["start 1", "start 9"],
            "a notification asked the person")
    }
}
