// Start-up probe: the smallest Swift native-messaging host, plus optional pieces of what
// wallet-bridge does at start-up, each switched on by a compile-time flag, so bench/profile.sh
// can time them side by side and attribute the host's cold-call cost. Not a product.
//
//   (no flag)         Glibc only: read a frame, write the GetAccounts reply (the Swift floor)
//   -D ENCODER        encode the result with FoundationEssentials' JSONEncoder, as Router does
//   -D DISPATCH       three signal sources and a 500 ms timer (Session), one sweeper timer (Server)
//   -D TASK           answer from a Task on the concurrency pool, the reader waiting, as Server does
#if canImport(Glibc)
import Glibc
#endif
#if ENCODER
import FoundationEssentials
#endif
#if DISPATCH || TASK
import Dispatch
#endif

let addresses = ["iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=", "gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q="]

struct GetAccountsResult: Codable { var addresses: [String] }

func readExact(_ count: Int) -> [UInt8]? {
    var out = [UInt8](repeating: 0, count: count)
    var got = 0
    while got < count {
        let n = out.withUnsafeMutableBytes { read(0, $0.baseAddress! + got, count - got) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return nil }
        got += n
    }
    return out
}

func idLexeme(_ body: [UInt8]) -> [UInt8] {
    let key = Array("\"id\":".utf8)
    guard body.count > key.count else { return Array("null".utf8) }
    for i in 0...(body.count - key.count) where Array(body[i..<i + key.count]) == key {
        var j = i + key.count
        while j < body.count, body[j] != UInt8(ascii: ","), body[j] != UInt8(ascii: "}") { j += 1 }
        return Array(body[(i + key.count)..<j])
    }
    return Array("null".utf8)
}

func encodedResult() -> [UInt8] {
    #if ENCODER
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return Array(try! encoder.encode(GetAccountsResult(addresses: addresses)))
    #else
    return Array(("{\"addresses\":[\"" + addresses.joined(separator: "\",\"") + "\"]}").utf8)
    #endif
}

func reply(to body: [UInt8]) {
    var out: [UInt8] = [0, 0, 0, 0]
    out += Array("{\"jsonrpc\":\"2.0\",\"id\":".utf8) + idLexeme(body) + Array(",\"result\":".utf8) + encodedResult()
    out.append(UInt8(ascii: "}"))
    var length = UInt32(out.count - 4)
    withUnsafeBytes(of: &length) { for k in 0..<4 { out[k] = $0[k] } }
    out.withUnsafeBytes { _ = write(1, $0.baseAddress!, $0.count) }
}

#if DISPATCH
let queue = DispatchQueue(label: "probe.signals")
var sources: [any DispatchSourceProtocol] = []
for s in [SIGTERM, SIGINT, SIGHUP] {
    signal(s, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: s, queue: queue)
    source.setEventHandler { exit(0) }
    source.resume()
    sources.append(source)
}
let timer = DispatchSource.makeTimerSource(queue: queue)
timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
timer.setEventHandler { if getppid() == 1 { exit(0) } }
timer.resume()
let sweeper = DispatchSource.makeTimerSource(queue: .global())
sweeper.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
sweeper.setEventHandler {}
sweeper.resume()
#endif

while let header = readExact(4) {
    let length = Int(UInt32(header[0]) | UInt32(header[1]) << 8 | UInt32(header[2]) << 16 | UInt32(header[3]) << 24)
    guard let body = readExact(length) else { break }
    #if TASK
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        reply(to: body)
        done.signal()
    }
    done.wait()
    #else
    reply(to: body)
    #endif
}
exit(0)
