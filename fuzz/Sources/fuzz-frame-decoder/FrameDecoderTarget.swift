import FuzzSupport
import WalletBridge

// Input: byte 0 picks the read size (1...256) and byte 1 the decoder's maximum (0...1020 in
// steps of 4); the rest is the stream. Invariants: the decoder never returns a frame above its
// maximum, never throws for a header within it, and the frames it returns, re-encoded, are
// exactly a prefix of the stream, however the stream is chunked.
@main enum FrameDecoderTarget {
    static func main() {
        fuzzMain { input in
            guard input.count >= 2 else { return }
            let chunkSize = Int(input[0]) + 1
            let maximum = Int(input[1]) * 4
            let stream = Array(input[2...])
            var decoder = FrameDecoder(maxFrameBytes: maximum)
            var reencoded: [UInt8] = []
            var offset = 0
            reading: while offset < stream.count {
                let end = min(offset + chunkSize, stream.count)
                decoder.append(Array(stream[offset..<end]))
                offset = end
                while true {
                    do {
                        guard let frame = try decoder.nextFrame() else { break }
                        require(frame.count <= maximum, "frame of \(frame.count) bytes above the maximum \(maximum)")
                        reencoded += try Frame.encode(frame)
                    } catch {
                        require(
                            decoder.pendingFrameLength.map { $0 > maximum } == true,
                            "rejected a header within the maximum")
                        break reading
                    }
                }
            }
            require(Array(stream.prefix(reencoded.count)) == reencoded, "re-encoded frames differ from the stream")
            require(
                decoder.bufferedByteCount == stream.count - reencoded.count || offset < stream.count,
                "bytes lost: buffered \(decoder.bufferedByteCount), unread \(stream.count - reencoded.count)")
        }
    }
}
