#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

/// Output of the command-line subcommands (`keys`, `install`, `doctor`, `call`), which never
/// run as the host: the only code outside the frame writer allowed to write to stdout.
public enum Console {
    /// A line of human- or script-readable output on stdout.
    public static func out(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        writeAll(1, bytes)
    }

    /// Exact bytes on stdout, with nothing added: `call --raw`, file contents.
    public static func write(_ bytes: [UInt8]) {
        writeAll(1, bytes)
    }

    /// A line on stderr: prompts, warnings, progress.
    public static func err(_ text: String) {
        Log.writeStderr(text + "\n")
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = SystemCall.writeAll(fd, $0) }
    }
}

/// A command-line failure: ArgumentParser prints the message on stderr and exits nonzero.
public struct CLIFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
