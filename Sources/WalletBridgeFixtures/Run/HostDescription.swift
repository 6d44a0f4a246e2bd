#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WalletBridge

/// A host's own description: what `rpc.discover` answers (an OpenRPC document, see `OpenRPC`).
public enum HostDescription {
    static let request = #"{"jsonrpc":"2.0","method":"rpc.discover","id":"rpc.discover"}"#

    /// Why a host gave no description.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// It answered with an error: -32601 from a host that does not implement `rpc.discover`.
        case refused(code: Int, message: String)
        /// It gave no usable reply.
        case noReply(String)

        /// -32601: the host does not implement `rpc.discover`.
        public var isMethodNotFound: Bool {
            if case .refused(let code, _) = self { code == ErrorCode.methodNotFound.rawValue } else { false }
        }

        public var description: String {
            switch self {
            case .refused(let code, let message) where code == ErrorCode.methodNotFound.rawValue:
                "the host does not answer rpc.discover (\(code) \(message)): it is not built on a WalletBridge library that describes itself"
            case .refused(let code, let message): "the host answered rpc.discover with the error \(code) \(message)"
            case .noReply(let why): "no usable reply to rpc.discover: \(why)"
            }
        }
    }

    /// Asks the host once, with its default arguments, and returns the document: the reply's
    /// `result`, whatever it holds (`OpenRPCCheck` says whether it is a document).
    public static func fetch(from host: HostUnderTest, timeout: TimeInterval = 5) throws(Failure) -> JSONValue {
        let frame: [UInt8]?
        do {
            let session = try host.open(arguments: nil, environment: [:])
            defer {
                session.closeInput()
                _ = try? session.waitForExit(timeout: timeout)
            }
            try session.send(Array(request.utf8))
            frame = try session.readFrame(timeout: timeout)
        } catch {
            throw .noReply("\(error)")
        }
        guard let frame else { throw .noReply("the host's output ended without a reply") }
        guard case .object(let reply)? = try? JSONParser.parse(frame, maxDepth: 512),
            reply["id"] == .string("rpc.discover")
        else {
            throw .noReply(
                "the reply is not a JSON-RPC response to it: \(String(decoding: frame.prefix(200), as: UTF8.self))")
        }
        if let result = reply["result"] { return result }
        guard case .object(let error)? = reply["error"], let code = error["code"]?.intValue else {
            throw .noReply(
                "the reply has neither a result nor an error object: \(String(decoding: frame.prefix(200), as: UTF8.self))"
            )
        }
        throw .refused(code: code, message: error["message"]?.stringValue ?? "")
    }
}
