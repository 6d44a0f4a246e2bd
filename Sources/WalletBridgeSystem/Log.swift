#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Diagnostics on stderr, never stdout: stdout carries frames only.
///
/// The level comes from `WALLET_BRIDGE_LOG` (`off`, `error`, `warning`, `info`, `debug`) and is
/// `warning` by default: a healthy host says nothing, and a dangerous setting (signing with no
/// one asked, a keystore others can read) is said where the person will look, not only when
/// someone thought to raise the level. Firefox shows these lines in its Browser
/// Console; Chrome in its own log. Never log secrets, params or payloads. Control and format
/// characters in a message are escaped (`DisplayText`), so each message is one line.
public enum Log {
    public enum Level: Int, Sendable, Comparable {
        case off = 0, error, warning, info, debug
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        var label: String {
            switch self {
            case .off: ""
            case .error: "error"
            case .warning: "warning"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    public static let level: Level = {
        guard let raw = getenv("WALLET_BRIDGE_LOG").map({ String(cString: $0).lowercased() }) else { return .warning }
        switch raw {
        case "off", "none", "quiet": return .off
        case "warning", "warn": return .warning
        case "info": return .info
        case "debug", "trace": return .debug
        case "error": return .error
        default: return .warning
        }
    }()

    public static func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public static func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public static func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public static func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private static func write(_ messageLevel: Level, _ message: () -> String) {
        guard messageLevel <= level else { return }
        // A message may name what others chose (a Firefox add-on's ID, a method's name): none of
        // it reaches a terminal or a log file as a control sequence or a line of its own.
        writeStderr("\(programName): \(messageLevel.label): \(DisplayText.escaped(message(), quotes: false))\n")
    }

    /// The name lines start with: the running executable's, so that a developer's own host
    /// (built on this package, under its own name) is not mistaken for the shipped one in a
    /// browser's log.
    static let programName: String = {
        let path = CommandLine.arguments.first ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? "wallet-bridge" : name
    }()

    /// One write(2) per line, so concurrent lines do not interleave mid-line.
    package static func writeStderr(_ text: String) {
        var text = text
        text.withUTF8 { _ = SystemCall.writeAll(2, UnsafeRawBufferPointer($0)) }
    }
}
