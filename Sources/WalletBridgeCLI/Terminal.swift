#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys

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
            InterruptCleanup.armEcho(fd: fd, original: original)
            tcsetattr(fd, TCSAFLUSH, &silent)
        }
        defer {
            if canHideEcho {
                tcsetattr(fd, TCSAFLUSH, &original)
                InterruptCleanup.disarmEcho()
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
        InterruptCleanup.armText(fd: fd, text: text)
    }

    func disarmClearOnInterrupt() {
        InterruptCleanup.disarmText()
    }
}

/// What an interrupting signal (Ctrl-C, a hang-up, a kill) must still do to the terminal
/// before the process ends: put the echo back, so that a Ctrl-C at a passphrase prompt does not
/// leave the shell typing blind, and clear a recovery phrase off the screen. One handler does
/// whichever is armed.
private enum InterruptCleanup {
    nonisolated(unsafe) static var echoFD: Int32 = -1
    nonisolated(unsafe) static var originalTermios = termios()
    nonisolated(unsafe) static var textFD: Int32 = -1
    nonisolated(unsafe) static var text: UnsafeMutableBufferPointer<UInt8>?

    private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func armEcho(fd: Int32, original: termios) {
        originalTermios = original
        echoFD = fd
        installHandlers()
    }

    static func disarmEcho() {
        echoFD = -1
        resetHandlersIfIdle()
    }

    static func armText(fd: Int32, text: String) {
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        self.text = buffer
        textFD = fd
        installHandlers()
    }

    static func disarmText() {
        textFD = -1
        text?.deallocate()
        text = nil
        resetHandlersIfIdle()
    }

    private static func installHandlers() {
        for signalNumber in signals {
            signal(signalNumber) { received in
                // Only async-signal-safe calls: tcsetattr, write, signal, raise.
                if InterruptCleanup.echoFD >= 0 {
                    tcsetattr(InterruptCleanup.echoFD, TCSANOW, &InterruptCleanup.originalTermios)
                }
                if InterruptCleanup.textFD >= 0, let text = InterruptCleanup.text {
                    _ = Glibc.write(InterruptCleanup.textFD, text.baseAddress, text.count)
                }
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    private static func resetHandlersIfIdle() {
        guard echoFD < 0, textFD < 0 else { return }
        for signalNumber in signals { signal(signalNumber, SIG_DFL) }
    }
}
