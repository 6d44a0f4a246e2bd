#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import WalletBridgeSystem
import WalletBridgeKeys

/// Why no passphrase was obtained for a request. Each becomes -3 "Payload not signed".
public enum ConsentRefusal: Error, Sendable, Equatable {
    /// The person pressed Cancel (or closed the dialog).
    case declined
    /// Every passphrase offered was wrong.
    case wrongPassphrase
    /// No way to ask: pinentry missing or unable to show a dialog, passphrase file unreadable.
    /// The detail goes to the log, not the wire; `fix`, what the person can do about it, goes
    /// to both.
    case unavailable(String, fix: String? = nil)
}

/// Thrown by a confirmation or a question that offered "Refuse all from this extension"
/// (`ConsentRequest.offersRefuseAll`, `ConsentQuestion.offersRefuseAll`) when the person chose
/// it: a refusal of this request, and of the caller's others (`ConsentQueue.refuseAll`).
package struct RefusedAllFromCaller: Error, Sendable {
    package init() {}
}

/// Where the wallet gets the person's consent: with the passphrase that unlocks a key, or, while
/// the keys are unlocked (in the agent), with a confirmation alone.
public protocol PassphraseSource: Sendable {
    /// Obtains a passphrase for `request` and hands it to `attempt`, which returns nil when it
    /// is wrong (a source may then ask again) or a value to finish with. Throws
    /// `ConsentRefusal` when no acceptable passphrase came, and `CancellationError` when the
    /// task was cancelled (any dialog is closed first).
    func obtain<T: Sendable>(
        for request: ConsentRequest,
        attempt: @Sendable (SecureBytes) async throws -> T?
    ) async throws -> T

    /// Asks the person to approve `request` without a passphrase. Returns how they approved
    /// (`.remember` only when the request offered it); throws `ConsentRefusal` when refused or
    /// when nobody can be asked, and `CancellationError` when the task was cancelled (any
    /// dialog is closed first).
    func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation

    /// Asks the person a yes-or-no question that needs no passphrase (connecting an extension).
    /// True when they approved; throws `ConsentRefusal.unavailable` when nobody can be asked,
    /// and `CancellationError` when the task was cancelled (any dialog is closed first).
    func ask(_ question: ConsentQuestion) async throws -> Bool

    /// False for a source that answers without asking anyone (the passphrase file): the audit
    /// log then marks the entry `unattended`.
    var asksAPerson: Bool { get }
}

/// A question for the person with two buttons, such as "connect this extension?".
public struct ConsentQuestion: Sendable, Equatable {
    public var title: String
    /// The dialog's text: whoever builds it keeps what others chose (names, metadata) within
    /// one Assuan line (`ConsentRequest.printable`).
    public var description: String
    /// The buttons' labels, with `_` before the access key, as pinentry takes them.
    public var approve: String
    public var reject: String
    /// The dialog offers "Refuse all from this extension" as a third button: pressing it throws
    /// `RefusedAllFromCaller`.
    package var offersRefuseAll = false

    public init(title: String, description: String, approve: String, reject: String) {
        (self.title, self.description, self.approve, self.reject) = (title, description, approve, reject)
    }
}

extension PassphraseSource {
    public var asksAPerson: Bool { true }
}

/// The non-interactive source, for automation: the passphrase is read from a file, and nobody
/// is asked. Whoever can start the host with this file configured signs without consent.
public struct PassphraseFileSource: PassphraseSource {
    /// The file holding the passphrase (one trailing newline is ignored).
    public let path: String

    public init(path: String) { self.path = path }

    /// Reads the file and offers its contents once.
    public func obtain<T: Sendable>(
        for request: ConsentRequest, attempt: @Sendable (SecureBytes) async throws -> T?
    ) async throws -> T {
        let passphrase: SecureBytes
        do {
            passphrase = try PassphraseInput.read(path: path)
        } catch {
            throw ConsentRefusal.unavailable("\(error)")
        }
        // Asking again would read the same file: one attempt.
        guard let result = try await attempt(passphrase) else { throw ConsentRefusal.wrongPassphrase }
        return result
    }

    /// Approves at once, for this request: whoever configured the file chose to be asked nothing.
    public func confirm(_ request: ConsentRequest) async throws -> ConsentRequest.Confirmation { .once }

    /// Approves at once, for the same reason.
    public func ask(_ question: ConsentQuestion) async throws -> Bool { true }

    public var asksAPerson: Bool { false }
}

/// Passphrases from files and file descriptors, read straight into secure memory.
package enum PassphraseInput {
    /// Longer than any passphrase a person types; short enough to refuse a wrong file early.
    package static let maxBytes = 4096

    /// Why no passphrase could be read; names the file, never its contents.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        /// The message.
        package let description: String
        package init(description: String) { self.description = description }
    }

    /// The contents of the file at `path`, without one trailing line feed (LF or CR LF).
    package static func read(path: String) throws(Failure) -> SecureBytes {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw Failure(description: "cannot open the passphrase file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        return try read(fd: fd, name: "the passphrase file \(path)")
    }

    /// Everything readable from `fd` until end of file, without one trailing line feed. `name`
    /// labels errors.
    package static func read(fd: Int32, name: String) throws(Failure) -> SecureBytes {
        let buffer = try readAll(fd: fd, name: name, maxBytes: maxBytes)
        let length = buffer.withUnsafeBytes { raw in
            var length = raw.count
            if length > 0, raw[length - 1] == 0x0A {
                length -= 1
                if length > 0, raw[length - 1] == 0x0D { length -= 1 }
            }
            return length
        }
        guard length > 0 else { throw Failure(description: "\(name) is empty") }
        return buffer.prefix(length)
    }

    /// Every byte readable from `fd` until end of file, as read: for secrets whose last byte
    /// may well be 0x0A. Refuses more than `maxBytes`.
    package static func readAll(fd: Int32, name: String, maxBytes: Int) throws(Failure) -> SecureBytes {
        let buffer = SecureBytes(count: maxBytes + 1)
        var total = 0
        let failure: Failure? = buffer.withUnsafeMutableBytes { raw in
            while total < raw.count {
                let count = SystemCall.retryingInterrupts {
                    Glibc.read(fd, raw.baseAddress! + total, raw.count - total)
                }
                if count < 0 {
                    return Failure(description: "cannot read \(name): \(String(cString: strerror(errno)))")
                }
                if count == 0 { return nil }
                total += count
            }
            return Failure(description: "\(name) holds more than \(maxBytes) bytes")
        }
        if let failure { throw failure }
        return buffer.prefix(total)
    }
}

/// Runs blocking work (Argon2, pinentry's pipes) off Swift's cooperative pool, whose few
/// threads (one per core) must stay free to serve other requests meanwhile.
package enum Blocking {
    package static func run<T: Sendable>(on queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T)
        async throws -> T
    {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}

/// The environment variables that choose how the host gets the passphrase.
package enum PassphraseSources {
    /// For automation only: sign with the passphrase in this file, asking nobody.
    package static let fileVariable = "WALLET_BRIDGE_PASSPHRASE_FILE"
    /// The pinentry program; overrides `pinentry` in the configuration file.
    package static let pinentryVariable = "WALLET_BRIDGE_PINENTRY"
    /// Used when neither the environment nor the configuration names a pinentry.
    package static let defaultPinentry = "pinentry"
}
