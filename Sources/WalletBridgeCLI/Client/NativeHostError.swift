import WalletBridge
import WalletBridgeSystem

/// Why talking to a host failed, worded as what the browser would do about it.
struct NativeHostError: Error, CustomStringConvertible {
    enum Kind: Sendable {
        case cannotStart(path: String, reason: String)
        case fault(FrameFault)
        case notJSON(reason: String, bytes: [UInt8])
        case notJSONRPC(reason: String, bytes: [UInt8])
        case exitedWithoutReply(ExitStatus?)
        /// `received`: the bytes of stdout that never became a whole frame (at most 256).
        case timedOut(Duration, waitingFor: String, received: [UInt8] = [])
    }

    var kind: Kind
    /// The end of what the host wrote on stderr, where its own explanation usually is.
    var stderrTail: String

    init(_ kind: Kind, stderrTail: String = "") {
        self.kind = kind
        self.stderrTail = stderrTail
    }

    /// The failure in one paragraph, without the stderr tail.
    var summary: String {
        switch kind {
        case .cannotStart(let path, let reason):
            return "cannot start \(path): \(reason)"
        case .fault(let fault):
            return fault.description
        case .notJSON(let reason, let bytes):
            return """
                the reply is not JSON (\(reason)): \(JSONText.preview(bytes)). Browsers drop the port on a \
                frame that does not parse; if this is text, something printed to stdout.
                """
        case .notJSONRPC(let reason, let bytes):
            return
                "the reply is JSON but not a JSON-RPC 2.0 response (\(reason)): \(JSONText.preview(bytes, limit: 200))"
        case .exitedWithoutReply(let status):
            return "the host \(status.map(\.description) ?? "closed its stdout") without replying"
        case .timedOut(let duration, let waitingFor, let received) where !received.isEmpty:
            // A browser reads these bytes as the start of a frame and waits for the rest: the
            // usual cause is stray output, not a slow host.
            let what = FrameFault.stalled(received) ?? ""
            return """
                no \(waitingFor) within \(Self.seconds(duration)) s (--timeout): the host wrote \(what). \
                Most likely something in the host printed stray output to stdout; the browser waits for \
                the rest of that "frame" and never sees the reply.
                """
        case .timedOut(let duration, let waitingFor, _):
            return "no \(waitingFor) within \(Self.seconds(duration)) s (--timeout)"
        }
    }

    var description: String {
        let tail = stderrTail.trimmingTrailingNewlines
        guard !tail.isEmpty else { return summary }
        return summary + "\nhost stderr (last lines):\n"
            + tail.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return Decimal3(milliseconds).description
    }
}

/// Thousandths shown with up to three decimals, without Foundation's formatters.
struct Decimal3: CustomStringConvertible {
    let thousandths: Int64
    init(_ thousandths: Int64) { self.thousandths = thousandths }

    var description: String {
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = thousandths.magnitude
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(magnitude / 1000) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var copy = self
        while copy.last == "\n" || copy.last == "\r" { copy.removeLast() }
        return copy
    }
}
