// The bare Swift host: what any Swift program pays to answer a native-messaging call, and so
// the yardstick for wallet-bridge's own start-up (the issue's target: the shipped binary's cold
// call within 1.3x of this).
//
// It is the C floor (c_host.c) written in Swift, for GetAccounts only: it reads a frame, finds
// the id by scanning (no JSON parser), and writes the same reply bytes wallet-bridge sends, until
// end of input. Only Glibc, no Foundation. Built the way wallet-bridge ships:
//   swiftc -O -static-executable -o bare_swift_host bare_swift_host.swift
import Glibc

// The conformance host's two test accounts (public keys of seeds 0x01 x 32 and 0x02 x 32).
let addresses = #"["iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=","gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q="]"#
let maxInbound = 64 * 1_048_576

/// Reads exactly `count` bytes; false at end of input.
func readExact(_ buffer: UnsafeMutableRawPointer, _ count: Int) -> Bool {
    var got = 0
    while got < count {
        let n = read(0, buffer + got, count - got)
        if n < 0, errno == EINTR { continue }
        if n <= 0 { return false }
        got += n
    }
    return true
}

/// The id's lexeme: a string with its quotes, or a number or null up to the next `,` or `}`.
func idLexeme(_ body: [UInt8]) -> ArraySlice<UInt8> {
    let key = Array(#""id":"#.utf8)
    guard body.count >= key.count,
        let start = (0...(body.count - key.count)).first(where: { body[$0..<$0 + key.count].elementsEqual(key) })
    else {
        return Array("null".utf8)[...]
    }
    var end = start + key.count
    let valueStart = end
    if end < body.count, body[end] == UInt8(ascii: "\"") {
        end += 1
        while end < body.count, body[end] != UInt8(ascii: "\"") { end += body[end] == UInt8(ascii: "\\") ? 2 : 1 }
        return body[valueStart...min(end, body.count - 1)]
    }
    while end < body.count, body[end] != UInt8(ascii: ","), body[end] != UInt8(ascii: "}") { end += 1 }
    return body[valueStart..<end]
}

var header: UInt32 = 0
while readExact(&header, 4) {
    let length = Int(header)
    guard length <= maxInbound else { exit(1) }
    var body = [UInt8](repeating: 0, count: length)
    guard body.withUnsafeMutableBytes({ readExact($0.baseAddress!, length) }) else { exit(0) }
    var reply = [UInt8](repeating: 0, count: 4)
    reply += #"{"jsonrpc":"2.0","id":"#.utf8
    reply += idLexeme(body)
    reply += #","result":{"addresses":"#.utf8
    reply += addresses.utf8
    reply += "}}".utf8
    var bodyLength = UInt32(reply.count - 4)
    withUnsafeBytes(of: &bodyLength) { for i in 0..<4 { reply[i] = $0[i] } }  // native byte order
    var sent = 0
    while sent < reply.count {
        let n = reply[sent...].withUnsafeBytes { write(1, $0.baseAddress!, $0.count) }
        if n < 0, errno == EINTR { continue }
        if n <= 0 { exit(0) }  // the reader went away
        sent += n
    }
}
