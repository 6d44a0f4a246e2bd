import WalletBridge

/// Why a host's stdout cannot be read as frames: what a browser would choke on.
enum ReplyFault: Sendable, Equatable {
    /// A real frame header announcing more than browsers accept.
    case tooLarge(announced: Int)
    /// Bytes that are not a frame header (text, usually) read as an absurd length.
    case strayOutput(announced: Int, bytes: [UInt8])
    /// Stdout ended inside a frame, or with a few bytes too short to be a header.
    case truncated(announced: Int?, received: Int, bytes: [UInt8])
}

/// Splits a host's stdout into frame bodies, as the browser does, however the bytes arrive.
///
/// It tells an oversized reply from stray output: a header whose four bytes are all printable
/// text, or whose body does not start like JSON, is something printed to stdout; anything else
/// above the limit is a reply too large. Browsers drop the port in both cases; the hint differs.
struct ReplyReader: Sendable {
    let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0

    init(limit: Int = Frame.maxOutboundBytes) { self.limit = limit }

    enum Next: Sendable, Equatable {
        case frame([UInt8])
        case needMore
        /// Stdout ended cleanly between frames.
        case end
        case fault(ReplyFault)
    }

    var bufferedCount: Int { buffer.count - start }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next frame; `atEnd` says stdout has closed, so no more bytes will come.
    mutating func next(atEnd: Bool) -> Next {
        let available = bufferedCount
        guard available >= Frame.headerBytes else {
            if !atEnd { return .needMore }
            return available == 0 ? .end : .fault(.truncated(announced: nil, received: available, bytes: pending))
        }
        let header = Array(buffer[start..<start + Frame.headerBytes])
        let length = Int(header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })  // native byte order
        if length > limit {
            if header.allSatisfy(Self.isText) { return .fault(.strayOutput(announced: length, bytes: pending)) }
            guard available > Frame.headerBytes else {
                return atEnd ? .fault(.tooLarge(announced: length)) : .needMore
            }
            let first = buffer[start + Frame.headerBytes]
            let startsLikeJSON = first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: " ")
                || first == UInt8(ascii: "\n") || first == UInt8(ascii: "\"")
            return .fault(startsLikeJSON ? .tooLarge(announced: length) : .strayOutput(announced: length, bytes: pending))
        }
        guard available >= Frame.headerBytes + length else {
            if !atEnd { return .needMore }
            return .fault(.truncated(announced: length, received: available - Frame.headerBytes, bytes: pending))
        }
        let bodyStart = start + Frame.headerBytes
        let body = Array(buffer[bodyStart..<bodyStart + length])
        start = bodyStart + length
        return .frame(body)
    }

    /// What a wait that timed out was stuck on: an oversized header whose body never came is
    /// still an oversized reply.
    func faultAtTimeout() -> ReplyFault? {
        guard bufferedCount >= Frame.headerBytes else { return nil }
        let length = Int(buffer[start..<start + Frame.headerBytes].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        return length > limit ? .tooLarge(announced: length) : nil
    }

    private var pending: [UInt8] { Array(buffer[start..<min(buffer.count, start + 256)]) }

    /// The first bytes (at most 256) read but not yet part of a whole frame.
    var pendingBytes: [UInt8] { pending }

    private static func isText(_ byte: UInt8) -> Bool {
        (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
