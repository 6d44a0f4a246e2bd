import Foundation
import WalletBridge
import WalletBridgeTesting
import WalletBridgeTestSupport
import XCTest

final class ConcurrencyTests: XCTestCase {
    private func replyID(_ body: [UInt8]) throws -> String {
        guard case .object(let members) = try JSONParser.parse(body), let id = members["id"] else {
            throw CocoaError(.coderInvalidValue)
        }
        return id.compactText
    }

    func testSlowHandlerDoesNotBlockOthers() throws {
        let host = try HostProcess(executable: BuiltProducts.executable("wallet-bridge-conformance-host"))
        try host.send(#"{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":3000},"id":"slow"}"#)
        try host.send(#"{"jsonrpc":"2.0","method":"sum","params":[1,2],"id":"fast"}"#)
        let first = try XCTUnwrap(host.readFrame(timeout: 2.5))
        XCTAssertEqual(String(decoding: first, as: UTF8.self), #"{"jsonrpc":"2.0","id":"fast","result":3}"#)
        let second = try XCTUnwrap(host.readFrame(timeout: 5))
        XCTAssertEqual(try replyID(second), #""slow""#)
    }

    /// 1,000 requests in flight at once, each sleeping a random time: every one gets exactly one
    /// well-formed reply with its own id, whatever order they finish in.
    func testThousandConcurrentRequestsEachAnsweredOnce() throws {
        let host = try HostProcess(executable: BuiltProducts.executable("wallet-bridge-conformance-host"))
        var expected: [String: Int] = [:]
        var batch: [UInt8] = []
        for index in 0..<1000 {
            let delay = Int.random(in: 0...40)
            let id = index.isMultiple(of: 2) ? "\(index)" : "\"r\(index)\""
            expected[id] = delay
            batch += HostProcess.frame(
                Array(#"{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":\#(delay)},"id":\#(id)}"#.utf8))
        }
        try host.write(batch)
        var seen: [String: Int] = [:]
        for _ in 0..<1000 {
            let body = try XCTUnwrap(host.readFrame(timeout: 10))
            guard case .object(let reply) = try JSONParser.parse(body),
                case .object(let result)? = reply["result"], let id = reply["id"]
            else {
                return XCTFail("not a result: \(String(decoding: body, as: UTF8.self))")
            }
            XCTAssertEqual(result["slept"]?.compactText, expected[id.compactText].map(String.init))
            seen[id.compactText, default: 0] += 1
        }
        XCTAssertEqual(seen.count, 1000)
        XCTAssertTrue(seen.values.allSatisfy { $0 == 1 })
        host.closeStdin()
        XCTAssertNil(try host.readFrame(), "no reply beyond one per request")
        XCTAssertEqual(try host.waitForExit(), 0)
    }

    func testBytesArrivingOneAtATime() throws {
        let host = try HostProcess(executable: BuiltProducts.executable("wallet-bridge-conformance-host"))
        let frame = HostProcess.frame(Array(#"{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1}"#.utf8))
        // Each byte is read alone: the next is written only once the host has taken it from the pipe.
        for byte in frame {
            try host.write([byte])
            try waitUntil("the host reads the byte") { Self.bytesIn(pipe: host.stdinFD) == 0 }
        }
        let reply = try XCTUnwrap(host.readFrame())
        XCTAssertEqual(String(decoding: reply, as: UTF8.self), #"{"jsonrpc":"2.0","id":1,"result":19}"#)
    }

    /// The bytes waiting in the pipe that `fd` is an end of (FIONREAD).
    private static func bytesIn(pipe fd: Int32) -> Int {
        var count: Int32 = 0
        return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : -1
    }

    func testReplyJustUnderAndJustOverTheLimit() throws {
        let host = try HostProcess(executable: BuiltProducts.executable("wallet-bridge-conformance-host"))
        // {"jsonrpc":"2.0","id":1,"result":"…"} is 36 bytes around the string.
        try host.send(#"{"jsonrpc":"2.0","method":"test.large","params":{"bytes":\#(1_048_576 - 36)},"id":1}"#)
        let under = try XCTUnwrap(host.readFrame())
        XCTAssertEqual(under.count, 1_048_576)
        try host.send(#"{"jsonrpc":"2.0","method":"test.large","params":{"bytes":\#(1_048_576 - 35)},"id":2}"#)
        let over = try XCTUnwrap(host.readFrame())
        XCTAssertEqual(
            String(decoding: over, as: UTF8.self),
            #"{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"data":{"bytes":1048577,"limit":1048576},"message":"Response too large"}}"#
        )
    }
}
