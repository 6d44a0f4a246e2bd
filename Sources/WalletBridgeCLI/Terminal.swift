#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeWallet

/// The controlling terminal (`/dev/tty`), for prompts: a passphrase typed with echo off, a
/// confirmation. Prompts go to the terminal itself, not to stdout or stderr, so redirected
/// output stays clean and a script never sees them.
final class Terminal {
    fileprivate let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// The terminal, or nil when the process has none (started by a browser, a service, a
    /// test in its own session).
    static func open() -> Terminal? {
        let fd = Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? Terminal(fd: fd) : nil
    }

    /// Reads one line with echo off, straight into secure memory.
    func readSecret(prompt: String) throws(CLIFailure) -> SecureBytes {
        write(prompt)
        var original = termios()
        let canHideEcho = tcgetattr(fd, &original) == 0
        if canHideEcho {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            silent.c_lflag |= tcflag_t(ECHONL)
            EchoRestorer.arm(fd: fd, original: original)
            tcsetattr(fd, TCSAFLUSH, &silent)
        }
        defer {
            if canHideEcho {
                tcsetattr(fd, TCSAFLUSH, &original)
                EchoRestorer.disarm()
            }
        }
        let line = SecureBytes(count: PassphraseInput.maxBytes)
        let length = try readLine(into: line)
        return line.prefix(length)
    }

    /// Asks a question and reads the answer with echo on.
    func ask(_ question: String) throws(CLIFailure) -> String {
        write(question)
        let line = SecureBytes(count: 256)
        let length = try readLine(into: line)
        return line.withUnsafeBytes { String(decoding: $0.prefix(length), as: UTF8.self) }
    }

    /// Secret bytes (a recovery phrase's word), written from where they are, uncopied.
    func writeSecret(_ bytes: UnsafeRawBufferPointer) {
        _ = SystemCall.writeAll(fd, bytes)
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = SystemCall.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    private func readLine(into buffer: SecureBytes) throws(CLIFailure) -> Int {
        try buffer.withUnsafeMutableBytes { raw throws(CLIFailure) -> Int in
            var length = 0
            while true {
                let count = SystemCall.retryingInterrupts { Glibc.read(fd, raw.baseAddress! + length, 1) }
                if count < 0 {
                    throw CLIFailure("cannot read from the terminal: \(String(cString: strerror(errno)))")
                }
                if count == 0 {
                    if length == 0 { throw CLIFailure("no input (end of file on the terminal)") }
                    return length
                }
                if raw[length] == 0x0A { return length }
                length += 1
                guard length < raw.count else { throw CLIFailure("the input line is too long") }
            }
        }
    }
}

extension Terminal {
    /// Until `disarmClearOnInterrupt`, an interrupting signal writes `text` to the terminal (a
    /// recovery phrase's clearing) before the process ends as the signal says.
    func clearOnInterrupt(_ text: String) {
        ScreenClearer.arm(fd: fd, text: text)
    }

    func disarmClearOnInterrupt() {
        ScreenClearer.disarm()
    }
}

private enum ScreenClearer {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var text: UnsafeMutableBufferPointer<UInt8>?

    static func arm(fd: Int32, text: String) {
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        self.text = buffer
        self.fd = fd
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                // Only async-signal-safe calls: write, signal, raise.
                if ScreenClearer.fd >= 0, let text = ScreenClearer.text { _ = Glibc.write(ScreenClearer.fd, text.baseAddress, text.count) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    static func disarm() {
        fd = -1
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(signalNumber, SIG_DFL) }
        text?.deallocate()
        text = nil
    }
}

/// Puts the terminal's echo back if the process is interrupted while it is off: otherwise a
/// Ctrl-C at the passphrase prompt leaves the shell typing blind.
private enum EchoRestorer {
    nonisolated(unsafe) static var fd: Int32 = -1
    nonisolated(unsafe) static var original = termios()

    static func arm(fd: Int32, original: termios) {
        self.original = original
        self.fd = fd
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            signal(signalNumber) { received in
                // Only async-signal-safe calls: tcsetattr, signal, raise.
                if EchoRestorer.fd >= 0 { tcsetattr(EchoRestorer.fd, TCSANOW, &EchoRestorer.original) }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    static func disarm() {
        fd = -1
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { signal(signalNumber, SIG_DFL) }
    }
}
