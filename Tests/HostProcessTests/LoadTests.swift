import Foundation
import Glibc
import WalletBridge
import WalletBridgeTesting
import XCTest

/// Memory and overload on the real process. Peak memory is read from the kernel (VmHWM), so the
/// bounds are about what the host really touched, not what it meant to.
final class LoadTests: XCTestCase {
    static func peakResidentBytes(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { return nil }
        return kilobytes * 1024
    }

    /// 10,000 requests at once, each sleeping 300 ms: the first 4,096 (the in-flight limit) run,
    /// the rest are shed with -32003 at once, and every request gets exactly one reply.
    func testTenThousandInFlightAreAnsweredOrShed() throws {
        let host = try HostProcess(executable: BuiltProducts.executable("wallet-bridge-conformance-host"))
        var stream: [UInt8] = []
        for index in 0..<10_000 {
            stream += HostProcess.frame(
                Array(#"{"jsonrpc":"2.0","method":"test.sleep","params":{"ms":300},"id":\#(index)}"#.utf8))
        }
        host.writeInBackground(stream)
        var results = 0, shed = 0
        var seen = Set<String>()
        for _ in 0..<10_000 {
            let body = try XCTUnwrap(host.readFrame(timeout: 20))
            guard case .object(let reply) = try JSONParser.parse(body), let id = reply["id"] else {
                return XCTFail("not a reply")
            }
            XCTAssertTrue(seen.insert(id.compactText).inserted, "id \(id.compactText) answered twice")
            if reply["result"] != nil {
                results += 1
            } else if case .object(let error)? = reply["error"], error["code"] == .number(JSONNumber(-32003)) {
                shed += 1
            } else {
                XCTFail("unexpected reply: \(String(decoding: body, as: UTF8.self))")
            }
        }
        XCTAssertEqual(results + shed, 10_000)
        XCTAssertGreaterThanOrEqual(results, 4096, "at least the in-flight limit ran")
        XCTAssertGreaterThan(shed, 0, "10,000 at once exceeds the limit of 4096; some must be shed")
        let peak = try XCTUnwrap(Self.peakResidentBytes(host.pid))
        XCTAssertLessThan(peak, 256 << 20, "peak RSS \(peak >> 20) MiB for 10,000 small requests")
        host.closeStdin()
        XCTAssertEqual(try host.waitForExit(timeout: 5), 0)
    }

    /// A 60 MiB request: answered, and the host's peak memory stays within three times the
    /// frame, however the bytes arrive.
    func testSixtyMebibyteRequestStaysWithinThreeTimesItsSize() throws {
        let host = try HostProcess(executable: BuiltProducts.executable("wallet-bridge-conformance-host"))
        let size = 60 << 20
        let prefix = Array(#"{"jsonrpc":"2.0","method":"test.measure","id":1,"params":{"data":""#.utf8)
        let suffix = Array(#""}}"#.utf8)
        let filler = size - prefix.count - suffix.count
        var body = prefix
        body.reserveCapacity(size)
        body += [UInt8](repeating: UInt8(ascii: "a"), count: filler)
        body += suffix
        let frame = HostProcess.frame(body)
        body = []
        host.writeInBackground(frame)
        let reply = try XCTUnwrap(host.readFrame(timeout: 60))
        XCTAssertEqual(
            String(decoding: reply, as: UTF8.self), #"{"jsonrpc":"2.0","id":1,"result":{"bytes":\#(filler)}}"#)
        let peak = try XCTUnwrap(Self.peakResidentBytes(host.pid))
        XCTAssertLessThanOrEqual(peak, 3 * size, "peak RSS \(peak >> 20) MiB for a \(size >> 20) MiB frame")
    }
}
