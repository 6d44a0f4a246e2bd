#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeSystem

/// Output of the command-line subcommands (`keys`, `install`, `doctor`, `call`), which never
/// run as the host: the only code outside the frame writer allowed to write to stdout.
package enum Console {
    /// A line of human- or script-readable output on stdout.
    package static func out(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        writeAll(1, bytes)
    }

    /// Exact bytes on stdout, with nothing added: `call --raw`, file contents.
    package static func write(_ bytes: [UInt8]) {
        writeAll(1, bytes)
    }

    /// A line on stderr: prompts, progress, details.
    package static func err(_ text: String) {
        Log.writeStderr(text + "\n")
    }

    /// The command line's one style for diagnostics on stderr: `Error: …`, as ArgumentParser
    /// prints a thrown `CLIFailure` (use this only when a command ends by throwing `ExitCode`
    /// with a status of its own), and `Warning: …` for what does not stop the command.
    package static func error(_ text: String) { err("Error: \(text)") }
    package static func warning(_ text: String) { err("Warning: \(text)") }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = SystemCall.writeAll(fd, $0) }
    }
}

/// A command-line failure: ArgumentParser prints the message on stderr and exits nonzero.
package struct CLIFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
