#if canImport(Glibc)
import Glibc
#endif
import CLinux
import WalletBridgeFraming

/// The agent's Unix stream socket: listening, connecting, and the peer's user.
package enum UnixSocket {
    /// A socket call failed; `code` is errno.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let operation: String
        package let path: String
        package let code: Int32
        package var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// The longest socket path the kernel takes (`sun_path` is 108 bytes with its NUL).
    package static let maxPathBytes = 107

    /// A socket listening at `path`. Whatever was at `path` is removed first: call this only
    /// while holding the agent's lock, when any socket left there is a crashed agent's.
    package static func listen(at path: String) throws(Failure) -> Int32 {
        let fd = try makeSocket(path)
        _ = unlink(path)
        let bound = withAddress(path) { bind(fd, $0, $1) }
        // The folder is 0700 already; the socket itself is made 0600 too.
        guard bound == 0, chmod(path, 0o600) == 0, Glibc.listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "listen at", path: path, code: code)
        }
        return fd
    }

    /// A connection to the socket at `path`. ENOENT and ECONNREFUSED mean no agent listens.
    package static func connect(to path: String) throws(Failure) -> Int32 {
        let fd = try makeSocket(path)
        let status = withAddress(path) { address, length in
            SystemCall.retryingInterrupts { Glibc.connect(fd, address, length) }
        }
        guard status == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "connect to", path: path, code: code)
        }
        return fd
    }

    /// The next connection on `listener`, close-on-exec, or nil (none waiting, or it failed).
    package static func accept(_ listener: Int32) -> Int32? {
        let fd = accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
        return fd >= 0 ? fd : nil
    }

    /// The user id of the process at the other end, from the kernel (SO_PEERCRED): it cannot
    /// be forged by the peer.
    package static func peerUserID(_ fd: Int32) -> uid_t? {
        var credentials = wallet_bridge_peer_credentials()
        var length = socklen_t(MemoryLayout<wallet_bridge_peer_credentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.uid
    }

    /// Bounds how long a send may block: a peer that stops reading cannot hold a thread.
    package static func setSendTimeout(_ fd: Int32, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes one frame (header and body). False if the peer is gone or the send timed out.
    package static func sendFrame(_ fd: Int32, _ body: [UInt8]) -> Bool {
        guard let frame = try? Frame.encode(body) else { return false }
        return frame.withUnsafeBytes { SystemCall.sendAll(fd, $0) } == nil
    }

    private static func makeSocket(_ path: String) throws(Failure) -> Int32 {
        guard path.utf8.count <= maxPathBytes else {
            throw Failure(
                operation: "use the socket path (longer than \(maxPathBytes) bytes)", path: path, code: ENAMETOOLONG)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(operation: "make a socket for", path: path, code: errno) }
        return fd
    }

    private static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// Reads frames from a socket, each within an optional deadline, and each begun frame within
/// `frameTimeout` of its first byte.
package struct FrameReader {
    package enum Failure: Error, Equatable {
        /// The peer closed the connection (or it was shut down from this side).
        case closed
        /// Nothing complete arrived before the deadline, or a frame begun was not finished
        /// within `frameTimeout`.
        case timedOut
        /// The peer sent something that is not a frame of an acceptable size.
        case framing(FramingError)
        /// The read failed; errno.
        case system(Int32)
    }

    package let fd: Int32
    private var decoder: FrameDecoder
    /// Reused for every read: 4 KiB at first (most messages are small, and a cold call pays
    /// for every page it touches), twice as large after each read that fills it, up to 64 KiB.
    private var chunk = [UInt8](repeating: 0, count: 4096)
    private static let maxChunkBytes = 64 * 1024
    /// How long a frame may take to arrive once its first byte has; nil: as long as it takes.
    /// Time between frames is not limited by it: a host's kept connection waits for its next call.
    package var frameTimeout: Duration?
    /// When the first byte of the frame not yet complete arrived.
    private var frameBegan: ContinuousClock.Instant?

    package init(fd: Int32, maxFrameBytes: Int = Frame.defaultMaxInboundBytes, frameTimeout: Duration? = nil) {
        self.fd = fd
        decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        self.frameTimeout = frameTimeout
    }

    /// The largest frame body accepted from now on.
    package var maxFrameBytes: Int {
        get { decoder.maxFrameBytes }
        set { decoder.maxFrameBytes = newValue }
    }

    /// The next frame's body. Waits until `deadline` (nil: as long as it takes), and at most
    /// `frameTimeout` after the frame's first byte.
    package mutating func next(deadline: ContinuousClock.Instant? = nil) throws(Failure) -> [UInt8] {
        while true {
            do {
                if let body = try decoder.nextFrame() {
                    // Bytes left over begin the next frame now.
                    frameBegan = decoder.bufferedByteCount > 0 ? .now : nil
                    return body
                }
            } catch {
                throw .framing(error)
            }
            var until = deadline
            if let frameTimeout, let frameBegan {
                let frameDeadline = frameBegan + frameTimeout
                until = until.map { min($0, frameDeadline) } ?? frameDeadline
            }
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = SystemCall.poll(&watched, until: until)
            if ready < 0 { throw .system(errno) }
            if ready == 0 { throw .timedOut }
            let fd = self.fd
            let count = SystemCall.retryingInterrupts {
                chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            }
            if count < 0 {
                if errno == EAGAIN { continue }
                throw .system(errno)
            }
            if count == 0 { throw .closed }
            if frameBegan == nil { frameBegan = .now }
            chunk.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if count == chunk.count, chunk.count < Self.maxChunkBytes {
                chunk = [UInt8](repeating: 0, count: chunk.count * 2)
            }
        }
    }
}
