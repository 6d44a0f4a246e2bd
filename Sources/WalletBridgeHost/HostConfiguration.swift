#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeFraming
import WalletBridgeProtocol
import WalletBridgeSystem

/// The host's limits. Each can be set from the environment, because a browser starts the host
/// with no arguments of ours; the names are in README.md.
public struct HostConfiguration: Sendable {
    /// Largest inbound frame accepted (`WALLET_BRIDGE_MAX_FRAME_BYTES`). A header above it ends
    /// the session: the stream cannot be resynchronised without reading the announced bytes.
    public var maxInboundFrameBytes = Frame.defaultMaxInboundBytes
    /// Largest reply written. Never above `Frame.maxOutboundBytes`; lower only for tests.
    public var maxOutboundFrameBytes = Frame.maxOutboundBytes
    /// Requests (batch entries count one each) running at once before new ones are shed with
    /// `overloaded` (`WALLET_BRIDGE_MAX_IN_FLIGHT`).
    public var maxInFlight = 4096
    /// Entries one batch may hold (`WALLET_BRIDGE_MAX_BATCH`).
    public var maxBatchEntries = 1024
    /// Deepest JSON nesting accepted (`WALLET_BRIDGE_MAX_JSON_DEPTH`).
    public var maxJSONDepth = JSONParser.defaultMaxDepth
    /// A request still running after this is answered with `requestTimedOut` and cancelled
    /// (`WALLET_BRIDGE_REQUEST_TIMEOUT_MS`; 0 turns it off). Long enough for a person to read a
    /// pinentry prompt and type a passphrase.
    public var requestTimeout: Duration? = .seconds(300)
    /// After end of input or SIGTERM, how long cancelled handlers get to finish and answer
    /// (`WALLET_BRIDGE_SHUTDOWN_GRACE_MS`). Chrome kills the host 2 s after the port closes.
    public var shutdownGrace: Duration = .milliseconds(1000)
    /// The time deadlines, the sweep and the events' quiet period are counted in; tests pass
    /// their own, to move time on instead of waiting for it.
    package var clocks: Clocks = .system

    public init() {}

    /// Defaults overridden by any `WALLET_BRIDGE_*` variable that is set. An unparsable value
    /// is reported and ignored rather than silently turning a limit off.
    public static func fromEnvironment() -> HostConfiguration {
        var configuration = HostConfiguration()
        if let value = integer("WALLET_BRIDGE_MAX_FRAME_BYTES", range: 16...Int(UInt32.max)) {
            configuration.maxInboundFrameBytes = value
        }
        if let value = integer("WALLET_BRIDGE_MAX_OUTBOUND_BYTES", range: 64...Frame.maxOutboundBytes) {
            configuration.maxOutboundFrameBytes = value
        }
        if let value = integer("WALLET_BRIDGE_MAX_IN_FLIGHT", range: 1...1_000_000) {
            configuration.maxInFlight = value
        }
        if let value = integer("WALLET_BRIDGE_MAX_BATCH", range: 1...1_000_000) {
            configuration.maxBatchEntries = value
        }
        if let value = integer("WALLET_BRIDGE_MAX_JSON_DEPTH", range: 2...512) {
            configuration.maxJSONDepth = value
        }
        if let value = integer("WALLET_BRIDGE_REQUEST_TIMEOUT_MS", range: 0...86_400_000) {
            configuration.requestTimeout = value == 0 ? nil : .milliseconds(value)
        }
        if let value = integer("WALLET_BRIDGE_SHUTDOWN_GRACE_MS", range: 0...60_000) {
            configuration.shutdownGrace = .milliseconds(value)
        }
        return configuration
    }

    private static func integer(_ name: String, range: ClosedRange<Int>) -> Int? {
        guard let raw = getenv(name) else { return nil }
        let text = String(cString: raw)
        guard let value = Int(text), range.contains(value) else {
            Log.warning(
                "ignoring \(name)=\(text.prefix(32)): expected a whole number in \(range.lowerBound)...\(range.upperBound)"
            )
            return nil
        }
        return value
    }
}
