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
