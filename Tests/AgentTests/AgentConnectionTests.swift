#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import WalletBridge
@testable import WalletBridgeAgent
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem
@testable import WalletBridgeSessions
@testable import WalletBridgeShippedHost

/// The agent's connections: who may hold how many (`ConnectionLimits`), the size of what a
/// client may send, and how long a frame may take (`AgentConnection`; `FrameReaderTests` has the
/// reader's own). Over real socket pairs. The hello's and the frames' deadlines are passed on a
/// `ManualClock`, with bytes sent to wake the connection: none is waited out.
final class AgentConnectionTests: XCTestCase {
    private let chrome = SessionCaller(Caller(arguments: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))
    private let firefox = SessionCaller(
        Caller(arguments: ["/usr/lib/mozilla/native-messaging-hosts/x.json", "wallet@example.org"]))

    // MARK: ConnectionLimits

    func testOneExtensionCannotTakeAnotherExtensionsOrTheCommandLinesConnections() throws {
        let limits = ConnectionLimits(.init(pending: 500, perCaller: 3, callers: 5, control: 2))
        func admit(_ holder: ConnectionLimits.Holder) -> ConnectionLimits.Refusal? {
            XCTAssertTrue(limits.arrive())
            do {
                try limits.admit(holder)
                return nil
            } catch {
                limits.abandon()
                return error
            }
        }
        for _ in 0..<3 { XCTAssertNil(admit(.caller(chrome))) }
        // Hundreds more from the same extension: each refused, none counted.
        for _ in 0..<300 { XCTAssertEqual(admit(.caller(chrome))?.limit, 3) }
        XCTAssertEqual(limits.connected, 3)
        // Another extension still gets its own, up to the total.
        XCTAssertNil(admit(.caller(firefox)))
        XCTAssertNil(admit(.caller(firefox)))
        XCTAssertEqual(admit(.caller(firefox))?.limit, 5, "all extensions together hold 5")
        // The command line has slots no extension can take.
        XCTAssertNil(admit(.control))
        XCTAssertNil(admit(.control))
        XCTAssertEqual(admit(.control)?.limit, 2)
        XCTAssertEqual(limits.connected, 7)
        // A Firefox add-on is one caller whichever manifest started its host.
        let sameAddon = SessionCaller(
            Caller(arguments: ["/home/me/.mozilla/native-messaging-hosts/x.json", "wallet@example.org"]))
        XCTAssertEqual(sameAddon, firefox)
        limits.leave(.caller(chrome))
        XCTAssertNil(admit(.caller(chrome)), "a connection that closed frees its slot")
        limits.leave(.control)
        XCTAssertNil(admit(.control))
    }

    func testConnectionsThatHaveNotSaidHelloAreBounded() {
        let limits = ConnectionLimits(.init(pending: 2, perCaller: 3, callers: 5, control: 2))
        XCTAssertTrue(limits.arrive())
        XCTAssertTrue(limits.arrive())
        XCTAssertFalse(limits.arrive())
        limits.abandon()
        XCTAssertTrue(limits.arrive())
        XCTAssertNoThrow(try limits.admit(.control))
        XCTAssertTrue(limits.arrive(), "an admitted connection is no longer pending")
    }

    /// From half its connections on, an extension's hosts are told to close each after its
    /// call (the hello's `crowded`), so that its other ports get their turn at once.
    func testAnExtensionHoldingHalfItsConnectionsIsCrowded() throws {
        let limits = ConnectionLimits(.init(pending: 10, perCaller: 4, callers: 20, control: 2))
        var crowded: [Bool] = []
        for _ in 0..<4 {
            XCTAssertTrue(limits.arrive())
            crowded.append(try limits.admit(.caller(chrome)))
        }
        XCTAssertEqual(crowded, [false, true, true, true])
        XCTAssertTrue(limits.arrive())
        XCTAssertFalse(try limits.admit(.caller(firefox)), "another extension is not crowded by this one")
        limits.leave(.caller(chrome))
        limits.leave(.caller(chrome))
        limits.leave(.caller(chrome))
        XCTAssertTrue(limits.arrive())
        XCTAssertTrue(try limits.admit(.caller(chrome)), "two held again")
    }

    func testTheCommandLinesSocketHasPendingSlotsOfItsOwnAndAdmitsNoHost() {
        let limits = ConnectionLimits(.init(pending: 2, perCaller: 3, callers: 5, control: 2, controlPending: 2))
        XCTAssertTrue(limits.arrive())
        XCTAssertTrue(limits.arrive())
        XCTAssertFalse(limits.arrive(), "the hosts' socket is full")
        XCTAssertTrue(limits.arrive(at: .control), "the command line's is not")
        XCTAssertTrue(limits.arrive(at: .control))
        XCTAssertFalse(limits.arrive(at: .control))
        XCTAssertThrowsError(try limits.admit(.caller(chrome), at: .control), "a host at the command line's door")
        limits.abandon(at: .control)
        XCTAssertNoThrow(try limits.admit(.control, at: .control))
        XCTAssertTrue(limits.arrive(at: .control))
        XCTAssertFalse(limits.arrive(), "the hosts' pending slots are untouched")
        XCTAssertEqual(limits.connected, 4)
    }

    // MARK: AgentConnection over a socket pair

    /// A served connection: the client's end, and a way to wait for the agent's end to finish.
    private func serve(
        limits: ConnectionLimits, readTimeout: Duration = .seconds(10), helloTimeout: Duration = .seconds(5),
        door: ConnectionLimits.Door = .socket, clock: ManualClock? = nil
    ) -> (client: Int32, done: () -> Void) {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends), 0)
        XCTAssertTrue(limits.arrive(at: door))
        var connection = AgentConnection(
            fd: ends[1], keystorePath: "/k/keystore.json",
            makeRouter: { _, _ in
                var router = Router()
                _ = try? router.register(GetAccounts.self, execution: .immediate) { _, _ in
                    GetAccountsResult(addresses: ["AA=="])
                }
                return router
            }, limits: limits)
        connection.readTimeout = readTimeout
        connection.helloTimeout = helloTimeout
        connection.door = door
        if let clock {
            connection.clocks = clock.clocks
            connection.accepted = clock.now
        }
        let finished = DispatchSemaphore(value: 0)
        let served = connection
        XCTAssertTrue(
            Threads.start {
                served.serve()
                finished.signal()
            })
        return (
            ends[0], { XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, "the connection was not closed") }
        )
    }

    private func hello(_ arguments: [String], control: Bool = false) -> [UInt8] {
        var params: [String: JSONValue] = [
            "version": 1, "arguments": .array(arguments.map { .string($0) }), "browser_pid": .null,
            "keystore": "/k/keystore.json",
        ]
        if control { params["control"] = true }
        return try! Frame.encode(
            JSONValue.object(["jsonrpc": "2.0", "id": 0, "method": "agent.hello", "params": .object(params)]).jsonBytes)
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        XCTAssertNil(bytes.withUnsafeBytes { SystemCall.sendAll(fd, $0) })
    }

    private func reply(_ reader: inout FrameReader) throws -> [String: JSONValue] {
        guard case .object(let members) = try JSONParser.parse(try reader.next(deadline: .now + .seconds(5))) else {
            XCTFail("not an object")
            return [:]
        }
        return members
    }

    private func errorData(_ reply: [String: JSONValue]) -> (code: String?, data: [String: JSONValue]) {
        guard case .object(let error)? = reply["error"] else { return (nil, [:]) }
        let code: String? = if case .number(let number)? = error["code"] { number.literal } else { nil }
        guard case .object(let data)? = error["data"] else { return (code, [:]) }
        return (code, data)
    }

    func testAHelloOverTheCallersLimitIsRefusedWithTheReasonAndTheCommandLineGetsThrough() throws {
        let limits = ConnectionLimits(.init(pending: 10, perCaller: 1, callers: 10, control: 1))
        let origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
        let first = serve(limits: limits)
        send(first.client, hello([origin]))
        var firstReader = FrameReader(fd: first.client)
        XCTAssertNotNil(try reply(&firstReader)["result"])

        let second = serve(limits: limits)
        send(second.client, hello([origin]))
        var secondReader = FrameReader(fd: second.client)
        let refused = try reply(&secondReader)
        let (code, data) = errorData(refused)
        XCTAssertEqual(code, "-32005")
        XCTAssertEqual(data["reason"], "too_many_connections")
        XCTAssertEqual(data["limit"], 1)
        XCTAssertThrowsError(try secondReader.next(deadline: .now + .seconds(5)), "the refused connection is closed")
        second.done()

        let control = serve(limits: limits)
        send(control.client, hello([], control: true))
        var controlReader = FrameReader(fd: control.client)
        XCTAssertNotNil(try reply(&controlReader)["result"], "the command line has a slot of its own")
        XCTAssertEqual(limits.connected, 2)
        close(first.client)
        close(control.client)
        first.done()
        control.done()
        XCTAssertEqual(limits.connected, 0, "every slot is given back when its connection closes")
    }

    /// A host at the command line's socket is refused for that, not as a busy extension (which
    /// its hosts would try again for seconds): `wrong_socket`, with no limit.
    func testAHostsHelloAtTheCommandLinesSocketIsRefusedAsTheWrongSocket() throws {
        let limits = ConnectionLimits()
        let host = serve(limits: limits, door: .control)
        send(host.client, hello(["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))
        var reader = FrameReader(fd: host.client)
        let (code, data) = errorData(try reply(&reader))
        XCTAssertEqual(code, "-32005")
        XCTAssertEqual(data["reason"], "wrong_socket")
        XCTAssertNil(data["limit"])
        close(host.client)
        host.done()
        XCTAssertEqual(limits.connected, 0)
    }

    /// A first frame that is not a hello (here not even JSON) is refused as an invalid request,
    /// and the connection is closed without taking a slot.
    func testAFirstFrameThatIsNotJSONIsRefusedAndTheConnectionClosed() throws {
        let limits = ConnectionLimits()
        let served = serve(limits: limits)
        send(served.client, try Frame.encode(Array("not json".utf8)))
        var reader = FrameReader(fd: served.client)
        let refused = try reply(&reader)
        XCTAssertEqual(errorData(refused).code, "-32600")
        XCTAssertEqual(refused["id"], .null)
        XCTAssertThrowsError(try reader.next(deadline: .now + .seconds(5)), "the connection is closed")
        served.done()
        close(served.client)
        XCTAssertEqual(limits.connected, 0)
    }

    /// After the hello, a frame whose body is not JSON is answered with a parse error and the
    /// connection goes on serving; the client closing its end then ends it and gives its slot back.
    func testAMalformedFrameAfterTheHelloIsAParseErrorAndTheClientClosingEndsTheConnection() throws {
        let limits = ConnectionLimits()
        let served = serve(limits: limits)
        send(served.client, hello(["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))
        var reader = FrameReader(fd: served.client)
        XCTAssertNotNil(try reply(&reader)["result"])
        send(served.client, try Frame.encode(Array(#"{"jsonrpc":"2.0","id":1,"#.utf8)))
        let malformed = try reply(&reader)
        XCTAssertEqual(errorData(malformed).code, "-32700")
        XCTAssertEqual(malformed["id"], .null)
        send(
            served.client,
            try Frame.encode(Array(#"{"jsonrpc":"2.0","id":2,"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#.utf8)))
        let answered = try reply(&reader)
        XCTAssertEqual(answered["id"], 2)
        XCTAssertEqual(answered["result"], .object(["addresses": ["AA=="]]))
        XCTAssertEqual(limits.connected, 1)
        close(served.client)
        served.done()
        XCTAssertEqual(limits.connected, 0, "the slot is given back when the client closes")
    }

    /// A client that closes before saying hello ends its connection at once (no wait for the
    /// hello timeout), and its pending slot is given back.
    func testAClientThatClosesBeforeItsHelloEndsTheConnectionAtOnce() {
        let limits = ConnectionLimits()
        let served = serve(limits: limits, helloTimeout: .seconds(60))
        XCTAssertEqual(limits.connected, 1)
        close(served.client)
        served.done()
        XCTAssertEqual(limits.connected, 0)
    }

    func testFramesLargerThanAHostCanSendAreRefusedAtTheirHeader() throws {
        let limits = ConnectionLimits()
        // The hello: at most 64 KiB.
        let big = serve(limits: limits)
        send(big.client, withUnsafeBytes(of: UInt32(AgentProtocol.maxHelloBytes + 1)) { Array($0) })
        var bigReader = FrameReader(fd: big.client)
        XCTAssertEqual(errorData(try reply(&bigReader)).code, "-32004")
        big.done()
        XCTAssertEqual(limits.connected, 0)
        // After it: 1 MiB, what a reply to a browser may hold.
        let after = serve(limits: limits)
        send(after.client, hello(["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))
        var afterReader = FrameReader(fd: after.client)
        XCTAssertNotNil(try reply(&afterReader)["result"])
        XCTAssertEqual(AgentProtocol.maxRequestBytes, 1 << 20)
        send(after.client, withUnsafeBytes(of: UInt32(AgentProtocol.maxRequestBytes + 1)) { Array($0) })
        XCTAssertEqual(errorData(try reply(&afterReader)).code, "-32004")
        XCTAssertThrowsError(try afterReader.next(deadline: .now + .seconds(5)))
        after.done()
        close(big.client)
        close(after.client)
    }

    private func request(_ id: Int) throws -> [UInt8] {
        try Frame.encode(Array(#"{"jsonrpc":"2.0","id":\#(id),"method":"NATIVE_GET_ACCOUNTS_METHOD"}"#.utf8))
    }

    /// On the agent's clock: an hour idle between frames, and a request is still served, its
    /// time counted from its first byte; a frame begun and not finished is cut off once the
    /// clock passes the read timeout.
    func testAFrameBegunMustArriveWithinTheReadTimeoutButTimeBetweenFramesIsFree() throws {
        let clock = ManualClock()
        let limits = ConnectionLimits()
        let served = serve(limits: limits, readTimeout: .seconds(10), clock: clock)
        send(served.client, hello(["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]))
        var reader = FrameReader(fd: served.client)
        XCTAssertNotNil(try reply(&reader)["result"])
        clock.advance(by: .seconds(3600))
        // In two writes: the frame's time starts at its first byte, not at the hello.
        let first = try request(1)
        send(served.client, Array(first.prefix(Frame.headerBytes)))
        send(served.client, Array(first.dropFirst(Frame.headerBytes)))
        XCTAssertEqual(try reply(&reader)["id"], 1)
        // A whole request and the first bytes of the next frame, in one write: the reply to the
        // request says the connection has read them, so the next frame has begun.
        send(served.client, try request(2) + withUnsafeBytes(of: UInt32(1000)) { Array($0) } + Array(#"{"json"#.utf8))
        XCTAssertEqual(try reply(&reader)["id"], 2)
        clock.advance(by: .seconds(11))
        // A byte more wakes the connection (or finds it closed already).
        _ = [UInt8(ascii: "x")].withUnsafeBytes { SystemCall.sendAll(served.client, $0) }
        XCTAssertTrue(ended(&reader), "the frame begun was not cut off")
        served.done()
        close(served.client)
    }

    /// The hello is due `helloTimeout` after the connection came, on the agent's clock.
    func testAHelloMustComeWithinTheHelloTimeoutOnTheAgentsClock() throws {
        let clock = ManualClock()
        let limits = ConnectionLimits()
        let origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
        let early = serve(limits: limits, helloTimeout: .seconds(5), clock: clock)
        clock.advance(by: .seconds(4))
        send(early.client, hello([origin]))
        var earlyReader = FrameReader(fd: early.client)
        XCTAssertNotNil(try reply(&earlyReader)["result"], "said within its 5 s")
        close(early.client)
        early.done()

        // The first byte after its time (it wakes the connection, or finds it closed already).
        let late = serve(limits: limits, readTimeout: .seconds(3600), helloTimeout: .seconds(5), clock: clock)
        clock.advance(by: .seconds(6))
        _ = Array(hello([origin]).prefix(1)).withUnsafeBytes { SystemCall.sendAll(late.client, $0) }
        var lateReader = FrameReader(fd: late.client)
        XCTAssertTrue(ended(&lateReader), "the connection that said nothing in time was not closed")
        late.done()
        close(late.client)
        XCTAssertEqual(limits.connected, 0)
    }

    /// A host's kept connection (calls that ask nobody) is given back `keptIdleTimeout` after
    /// its last call, not its first: an extension's idle ports hold none of its 32 connections.
    /// The close is work scheduled on the client's clock, a `ManualClock` here: each advance
    /// returns once the work it made due has run, so the connection is looked at right after.
    func testAHostsKeptConnectionClosesAfterItsLastCallAndServesCallsMadeBefore() throws {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        let paths = AgentPaths(folder: folder, name: "agent", log: nil)
        let listener = try UnixSocket.listen(at: paths.socket)
        // The stand-in's ends of the connections, in the order accepted; each is closed once
        // the stand-in has seen its host close it, after the test (so that the test can look at
        // it meanwhile, and no number is reused while the stand-in still reads it).
        let connections = Mutex<[Int32]>([])
        let ended = Mutex<[Int32]>([])
        defer {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            for fd in ended.withLock({ $0 }) { close(fd) }
        }
        // A stand-in agent: answers the hello and every call, and notes each connection that ends.
        XCTAssertTrue(
            Threads.start {
                while let fd = UnixSocket.accept(listener) {
                    connections.withLock { $0.append(fd) }
                    var reader = FrameReader(fd: fd)
                    while let body = try? reader.next(deadline: .now + .seconds(10)) {
                        guard case .object(let request)? = try? JSONParser.parse(body), let id = request["id"] else {
                            break
                        }
                        let result: JSONValue =
                            id == 0 ? ["version": 1, "pid": .number(JSONNumber(Int(getpid())))] : ["ok": true]
                        _ = UnixSocket.sendFrame(
                            fd, JSONValue.object(["jsonrpc": "2.0", "id": id, "result": result]).jsonBytes)
                    }
                    ended.withLock { $0.append(fd) }
                }
            })
        /// Whether the host still holds the connection open: the stand-in answered all it was
        /// sent, so its end has nothing to read, and no end of file.
        func hostHolds(_ connection: Int) -> Bool {
            guard let fd = connections.withLock({ $0.count > connection ? $0[connection] : nil }) else { return false }
            var byte: UInt8 = 0
            return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) < 0 && errno == EAGAIN
        }
        let clock = ManualClock()
        let timeout = Duration.seconds(2)
        let client = AgentClient(
            keystorePath: "/k/keystore.json", agentProgram: nil,
            arguments: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            browserProcess: nil, paths: paths, keptIdleTimeout: timeout, clocks: clock.clocks)
        let calledAt = clock.now
        for _ in 0..<2 { XCTAssertEqual(try client.call("agent.status", params: Array("{}".utf8)), ["ok": true]) }
        clock.advance(by: .seconds(1))
        XCTAssertEqual(try client.call("agent.status", params: Array("{}".utf8)), ["ok": true])
        XCTAssertEqual(connections.withLock { $0.count }, 1, "the calls made a second apart shared one connection")
        XCTAssertEqual(clock.deadlines, [calledAt + timeout, calledAt + timeout, clock.now + timeout])

        // The first calls' timeout is not the last one's.
        clock.advance(by: timeout - .seconds(1))
        XCTAssertTrue(hostHolds(0), "closed \(timeout) after the first call, with a later one")
        // Just short of the last call's.
        clock.advance(by: .seconds(1) - .nanoseconds(1))
        XCTAssertTrue(hostHolds(0), "closed before \(timeout) without a call")
        clock.advance(by: .nanoseconds(1))
        XCTAssertFalse(hostHolds(0), "still open \(timeout) after the last call")
        try waitUntil("the stand-in agent sees the kept connection end") { ended.withLock { $0.count } == 1 }
        XCTAssertEqual(clock.deadlines, [])

        // The next call opens a new one, given back in its turn.
        XCTAssertEqual(try client.call("agent.status", params: Array("{}".utf8)), ["ok": true])
        XCTAssertEqual(connections.withLock { $0.count }, 2)
        XCTAssertTrue(hostHolds(1))
        clock.advance(by: timeout)
        XCTAssertFalse(hostHolds(1), "the new connection was kept past its timeout")
        try waitUntil("the stand-in agent sees the new connection end") { ended.withLock { $0.count } == 2 }
    }

    /// A port whose extension's other ports hold all its connections waits its turn to hear
    /// the agent's events for as long as that lasts: such refusals are not failures, and do not
    /// make it give up after `maxResubscribeFailures`.
    func testAPortRefusedForTooManyConnectionsKeepsTryingToHearEvents() throws {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        let paths = AgentPaths(folder: folder, name: "agent", log: nil)
        let (listener, hellos) = try refusingAgent(at: paths)
        let client = AgentClient(
            keystorePath: "/k/keystore.json", agentProgram: nil,
            arguments: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            browserProcess: nil, paths: paths, busyWait: .zero, resubscribePause: .milliseconds(1))
        // Ends the stand-in and the port's listening, passed or failed: no socket, then no folder.
        defer {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            _ = try? removeTree(folder)
        }
        client.listen { _, _ in }
        let wanted = 4 * AgentClient.maxResubscribeFailures
        try waitUntil(
            "the port asks to hear events \(wanted) times (it asked \(hellos.value.load(ordering: .relaxed))): "
                + "it gave up while the agent was only busy"
        ) { hellos.value.load(ordering: .relaxed) >= wanted }
    }

    /// A port's cold GetAccounts is asked on its reading thread: an agent busy with the
    /// extension's other ports must not hold that thread (stdin's end, SIGTERM, the next
    /// request) for the whole busy wait. The call is deferred to the pool, which waits its turn.
    func testAColdGetAccountsRefusedAsBusyIsDeferredOffTheReadingThreadAtOnce() throws {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        let paths = AgentPaths(folder: folder, name: "agent", log: nil)
        let (listener, hellos) = try refusingAgent(at: paths)
        defer {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
        let client = AgentClient(
            keystorePath: "/k/keystore.json", agentProgram: nil,
            arguments: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"],
            browserProcess: nil, paths: paths, busyWait: .seconds(60))
        let wallet = AgentBackedWallet(client: client)
        let context = RequestContext(
            caller: .chromeExtension(origin: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"), requestID: nil,
            method: GetAccounts.name)
        let deferred = Atomic<Bool>(false)
        let answered = DispatchSemaphore(value: 0)
        XCTAssertTrue(
            Threads.start {
                if case .askOffThread? = try? wallet.accountsAtHand(context: context) {
                    deferred.store(true, ordering: .releasing)
                }
                answered.signal()
            })
        XCTAssertEqual(
            answered.wait(timeout: .now() + 10), .success, "the reading thread waits out the agent's busy wait")
        XCTAssertTrue(deferred.load(ordering: .acquiring), "not deferred to the pool")
        XCTAssertGreaterThanOrEqual(hellos.value.load(ordering: .relaxed), 1)
    }

    /// A stand-in agent that refuses every hello with `too_many_connections`: the extension's
    /// other ports hold all it may. Counts the hellos.
    private func refusingAgent(at paths: AgentPaths) throws -> (listener: Int32, hellos: HelloCount) {
        let listener = try UnixSocket.listen(at: paths.socket)
        let hellos = HelloCount()
        XCTAssertTrue(
            Threads.start {
                while let fd = UnixSocket.accept(listener) {
                    var reader = FrameReader(fd: fd)
                    if let body = try? reader.next(deadline: .now + .seconds(10)),
                        case .object(let request)? = try? JSONParser.parse(body), let id = request["id"]
                    {
                        hellos.value.add(1, ordering: .relaxed)
                        let error: JSONValue = [
                            "code": .number(JSONNumber(ErrorCode.agentUnavailable.rawValue)),
                            "message": "Agent unavailable",
                            "data": ["reason": "too_many_connections", "problem": "busy", "limit": 32],
                        ]
                        _ = UnixSocket.sendFrame(
                            fd, JSONValue.object(["jsonrpc": "2.0", "id": id, "error": error]).jsonBytes)
                    }
                    close(fd)
                }
            })
        return (listener, hellos)
    }
}

/// How `reader`'s next read failed; nil when it read a frame.
private func failure(_ reader: inout FrameReader, deadline: ContinuousClock.Instant?) -> FrameReader.Failure? {
    do {
        _ = try reader.next(deadline: deadline)
        return nil
    } catch {
        return error
    }
}

/// Whether `reader`'s peer ended the connection (within 10 s): closed, or reset when it closed
/// with a byte unread.
private func ended(_ reader: inout FrameReader) -> Bool {
    switch failure(&reader, deadline: .now + .seconds(10)) {
    case .closed?, .system(ECONNRESET)?: true
    default: false
    }
}

/// The hellos a stand-in agent was sent, counted across threads.
final class HelloCount: Sendable {
    let value = Atomic<Int>(0)
}
