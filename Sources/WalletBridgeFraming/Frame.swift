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
