#if canImport(Glibc)
import Glibc
#endif
import Synchronization
@testable import WalletBridgeAgent
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeSystem
import WalletBridgeProtocol

/// `AgentClient` on its own: what it asks for only when it needs it.
final class AgentClientTests: XCTestCase {
    /// The program that would start an agent is looked up when one is to be started, not when
    /// the client is made: a host that finds the agent running never asks.
    func testTheAgentProgramIsAskedForOnlyWhenAnAgentIsToBeStarted() throws {
        let folder = temporaryFolder(self)
        chmod(folder, 0o700)
        let paths = AgentPaths(folder: folder, name: "agent", log: nil)
        let asked = ProgramLookups()

        // No agent listens, and there is no program to start one with: asked once, and the call
        // says no agent runs.
        let alone = AgentClient(
            keystorePath: "/k/keystore.json", agentProgram: asked.program(nil), arguments: [],
            browserProcess: nil, paths: paths)
        XCTAssertEqual(asked.count, 0, "the program was looked up when the client was made")
        XCTAssertThrowsError(try alone.call("agent.status", params: Array("{}".utf8))) { error in
            guard case .unavailable(let unavailable) = error as? AgentClient.CallError else {
                return XCTFail("not unavailable: \(error)")
            }
            XCTAssertEqual(unavailable.reason, .notRunning)
        }
        XCTAssertEqual(asked.count, 1)

        // An agent listens: never asked.
        let listener = try UnixSocket.listen(at: paths.socket)
        defer {
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
        XCTAssertTrue(
            Threads.start {
                while let fd = UnixSocket.accept(listener) {
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
                    close(fd)
                }
            })
        let client = AgentClient(
            keystorePath: "/k/keystore.json", agentProgram: asked.program("/nonexistent/wallet-bridge"),
            arguments: [], browserProcess: nil, paths: paths)
        XCTAssertEqual(try client.call("agent.status", params: Array("{}".utf8)), ["ok": true])
        XCTAssertEqual(asked.count, 1, "the program was looked up though the agent was running")
    }
}

/// Counts lookups of the agent's program.
private final class ProgramLookups: Sendable {
    private let lookups = Atomic<Int>(0)
    var count: Int { lookups.load(ordering: .relaxed) }

    func program(_ path: String?) -> String? {
        lookups.add(1, ordering: .relaxed)
        return path
    }
}
