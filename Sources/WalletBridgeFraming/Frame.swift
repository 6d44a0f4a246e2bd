/// Native messaging's frame: a 32-bit length in the machine's byte order, then that many bytes.
public enum Frame {
    /// Browsers drop the port on a host-to-browser message longer than this (Chrome and Firefox
    /// both use 1 MiB), so the host never writes one.
    public static let maxOutboundBytes = 1_048_576
    /// Chrome refuses browser-to-host messages above 64 MiB; the host's default cap matches.
    public static let defaultMaxInboundBytes = 64 * 1_048_576
    public static let headerBytes = 4

    /// Header and body in one buffer, so the frame goes out in one write.
    public static func encode(_ body: [UInt8]) throws(FramingError) -> [UInt8] {
        guard let length = UInt32(exactly: body.count) else {
            throw .frameTooLarge(length: UInt64(body.count), limit: UInt64(UInt32.max))
        }
        var frame: [UInt8] = []
        frame.reserveCapacity(headerBytes + body.count)
        withHeader(length: length) { frame.append(contentsOf: $0) }
        frame.append(contentsOf: body)
        return frame
    }

    /// Hands `use` the header of a frame whose body is `length` bytes: the length in the
    /// machine's byte order. `encode` writes it before the body; the host's frame writer hands
    /// it to `writev` beside the body, which then is never copied.
    package static func withHeader(length: UInt32, _ use: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeBytes(of: length, use)
    }
}

public enum FramingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A header announced more than the configured maximum. The stream cannot be resynchronised
    /// without reading (and so buffering or discarding) the announced bytes.
    case frameTooLarge(length: UInt64, limit: UInt64)

    public var description: String {
        switch self {
        case .frameTooLarge(let length, let limit):
            "frame of \(length) bytes exceeds the limit of \(limit) bytes"
        }
    }
}

/// Splits a byte stream into frame bodies, however the bytes are chunked.
///
/// Memory grows only with bytes actually received: a header that announces 64 MiB reserves
/// nothing, and one that announces more than `maxFrameBytes` is rejected on the spot.
public struct FrameDecoder: Sendable {
    /// The largest body accepted; a reader may lower or raise it between frames (the agent
    /// takes a small hello first, then requests).
    public var maxFrameBytes: Int
    private var buffer: [UInt8] = []
    private var readIndex = 0

    public init(maxFrameBytes: Int = Frame.defaultMaxInboundBytes) {
        self.maxFrameBytes = maxFrameBytes
    }

    /// Bytes received but not yet returned as a frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// The length the pending header announces, once all four header bytes have arrived.
    public var pendingFrameLength: Int? {
        guard bufferedByteCount >= Frame.headerBytes else { return nil }
        return Int(readLength(at: readIndex))
    }

    /// The first bytes (at most 256) received but not yet part of a whole frame: what a
    /// diagnosis quotes.
    public var pendingBytes: [UInt8] { Array(buffer[readIndex..<min(buffer.count, readIndex + 256)]) }

    /// The pending header's four bytes are all printable text: something printed, not a length.
    private var headerIsText: Bool {
        guard bufferedByteCount >= Frame.headerBytes else { return false }
        return buffer[readIndex..<readIndex + Frame.headerBytes].allSatisfy { byte in
            (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }
    }

    /// The buffered byte `offset` bytes past the read position, if it has arrived.
    private func byte(at offset: Int) -> UInt8? {
        readIndex + offset < buffer.count ? buffer[readIndex + offset] : nil
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete frame body, nil if more bytes are needed.
    public mutating func nextFrame() throws(FramingError) -> [UInt8]? {
        guard let range = try nextBodyRange() else { return nil }
        if readIndex == 0, buffer.count == range.upperBound, range.count >= 1 << 16 {
            // The buffer holds exactly this frame (the usual case for a large message): hand
            // the buffer itself over instead of copying the body into a second allocation,
            // which for a 60 MiB request doubled the decoder's peak memory.
            buffer.removeFirst(Frame.headerBytes)
            defer { buffer = [] }
            return buffer
        }
        let body = Array(buffer[range])
        consume(through: range.upperBound)
        return body
    }

    /// Hands the next complete frame body to `body` where it lies in the buffer, without
    /// copying it out. False if more bytes are needed.
    package mutating func withNextFrame(_ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(FramingError) -> Bool {
        guard let range = try nextBodyRange() else { return false }
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        consume(through: range.upperBound)
        return true
    }

    /// Where the next frame's body lies in the buffer, nil if it has not all arrived.
    private func nextBodyRange() throws(FramingError) -> Range<Int>? {
        guard bufferedByteCount >= Frame.headerBytes else { return nil }
        let length = readLength(at: readIndex)
        guard length <= maxFrameBytes else {
            throw .frameTooLarge(length: UInt64(length), limit: UInt64(maxFrameBytes))
        }
        let bodyStart = readIndex + Frame.headerBytes
        guard buffer.count - bodyStart >= Int(length) else { return nil }
        return bodyStart..<bodyStart + Int(length)
    }

    private mutating func consume(through end: Int) {
        readIndex = end
        if readIndex == buffer.count {
            // A large frame's buffer is let go rather than kept for the next small one.
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            readIndex = 0
        }
    }

    private func readLength(at index: Int) -> UInt32 {
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { raw in
            for offset in 0..<Frame.headerBytes { raw[offset] = buffer[index + offset] }
        }
        return length  // native byte order, as written
    }

    /// Drops consumed bytes once they dominate the buffer, so a long stream of frames does not
    /// grow it without bound and the copy stays amortised O(1) per byte.
    private mutating func compactIfWorthwhile() {
        if readIndex > 0, readIndex >= buffer.count - readIndex {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}

/// Why bytes read from a peer cannot be frames: what a browser would choke on. One wording for
/// every client (`call`, `doctor`, the fixtures' runner, the load runner).
public enum FrameFault: Sendable, Equatable, CustomStringConvertible {
    /// A real frame header announcing more than the reader accepts.
    case tooLarge(announced: Int, limit: Int)
    /// Bytes that are not a frame header (text, usually) read as an absurd length.
    case strayOutput(announced: Int, limit: Int, bytes: [UInt8])
    /// The input ended inside a frame (`announced` its length), or with a few bytes too short to
    /// be a header (`announced` nil).
    case truncated(announced: Int?, received: Int, bytes: [UInt8])

    public var description: String {
        switch self {
        case .tooLarge(let announced, let limit):
            return "Chrome and Firefox would drop the port: reply of \(announced) bytes exceeds \(limit)"
        case .strayOutput(let announced, let limit, let bytes):
            let looksLikeJSON = bytes.first == UInt8(ascii: "{") || bytes.first == UInt8(ascii: "[")
            return """
                message of \(announced) bytes exceeds the limit (\(limit)): the host's stdout began \
                \(Self.preview(bytes)), which is not a frame header. Something printed to stdout\
                \(looksLikeJSON ? " (it looks like JSON without the 4-byte length in front)" : ""); \
                every byte on stdout must be part of a frame: send logs to stderr.
                """
        case .truncated(let announced, let received, let bytes):
            let what =
                announced.map { "in the middle of a frame of \($0) bytes, after \(received)" }
                ?? "after \(received) byte\(received == 1 ? "" : "s"), fewer than a frame's 4-byte length"
            return """
                the host closed stdout \(what) (\(Self.preview(bytes))); \
                the browser would report a broken port. If these bytes are text, something printed to stdout.
                """
        }
    }

    /// What a wait that timed out with `received` bytes short of a frame says about them: a
    /// browser reads them as the start of a frame and waits for the rest, so the usual cause is
    /// stray output, not a slow peer. Nil when nothing was received.
    public static func stalled(_ received: [UInt8]) -> String? {
        guard !received.isEmpty else { return nil }
        if received.count < Frame.headerBytes {
            let count = received.count
            return "only \(count) byte\(count == 1 ? "" : "s") on stdout, \(preview(received)), "
                + "fewer than the 4-byte length a frame starts with"
        }
        let announced = Int(received.prefix(Frame.headerBytes).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
        return "\(preview(received)) on stdout, read as a frame of \(announced) bytes that never came"
    }

    /// Up to `limit` bytes as a quoted, escaped string: how stray output is shown.
    public static func preview(_ bytes: some Collection<UInt8>, limit: Int = 64) -> String {
        let hex = Array("0123456789abcdef")
        var text = ""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\t"): text += "\\t"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0xF)])
            }
        }
        return "\"" + text + "\"" + (bytes.count > limit ? "…" : "")
    }
}

extension FrameDecoder {
    /// What `next(atEnd:)` found.
    public enum Next: Sendable, Equatable {
        case frame([UInt8])
        case needMore
        /// The input ended cleanly between frames.
        case end
        case fault(FrameFault)
    }

    /// The next frame, with a diagnosis instead of a bare error: `atEnd` says the input has
    /// closed, so no more bytes will come. A header above `maxFrameBytes` is told apart from
    /// stray output: four printable bytes, or a body that does not start like JSON, are
    /// something printed where frames belong; anything else is a frame too large.
    public mutating func next(atEnd: Bool) -> Next {
        let available = bufferedByteCount
        guard let length = pendingFrameLength else {
            if !atEnd { return .needMore }
            return available == 0 ? .end : .fault(.truncated(announced: nil, received: available, bytes: pendingBytes))
        }
        if length > maxFrameBytes {
            if headerIsText {
                return .fault(.strayOutput(announced: length, limit: maxFrameBytes, bytes: pendingBytes))
            }
            guard let first = byte(at: Frame.headerBytes) else {
                return atEnd ? .fault(.tooLarge(announced: length, limit: maxFrameBytes)) : .needMore
            }
            let startsLikeJSON = [
                UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: " "), UInt8(ascii: "\n"),
                UInt8(ascii: "\""),
            ].contains(first)
            return .fault(
                startsLikeJSON
                    ? .tooLarge(announced: length, limit: maxFrameBytes)
                    : .strayOutput(announced: length, limit: maxFrameBytes, bytes: pendingBytes))
        }
        guard available >= Frame.headerBytes + length else {
            if !atEnd { return .needMore }
            return .fault(.truncated(announced: length, received: available - Frame.headerBytes, bytes: pendingBytes))
        }
        // Within the limit and complete: nextFrame cannot throw here.
        guard let body = try? nextFrame() else { return .needMore }
        return .frame(body)
    }

    /// What a wait that timed out was stuck on: an oversized header whose body never came is
    /// still an oversized frame.
    public var faultAtTimeout: FrameFault? {
        guard let length = pendingFrameLength, length > maxFrameBytes else { return nil }
        return .tooLarge(announced: length, limit: maxFrameBytes)
    }
}
