import CSodium

/// A secret held in `sodium_malloc` memory: guard pages around it, locked into RAM where the
/// system allows (so it is not swapped out), and zeroed by `sodium_free` when released.
///
/// Passphrases, derived keys, seeds and secret keys live only here. The bytes never become a
/// `String` or an `Array`, whose copies Swift may leave anywhere in the heap.
///
/// Not safe for concurrent use. It is `Sendable` only so that ownership can move between
/// tasks (from the pinentry thread back to the signing task); it is never shared.
public final class SecureBytes: @unchecked Sendable {
    /// The number of bytes.
    public let count: Int
    private let pointer: UnsafeMutableRawPointer

    /// Allocates `count` zeroed bytes.
    public init(count: Int) {
        precondition(count >= 0)
        Sodium.ensureInitialized()
        // sodium_malloc(0) may return NULL; one spare byte keeps the pointer valid and unused.
        guard let pointer = sodium_malloc(max(count, 1)) else {
            fatalError("sodium_malloc failed: out of memory for \(count) secret bytes")
        }
        sodium_memzero(pointer, max(count, 1))
        self.pointer = pointer
        self.count = count
    }

    /// A secure copy of `bytes`. The caller zeroes its own copy.
    public convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(count: bytes.count)
        if let source = bytes.baseAddress, bytes.count > 0 {
            pointer.copyMemory(from: source, byteCount: bytes.count)
        }
    }

    deinit { sodium_free(pointer) }

    /// Reads the bytes. The buffer must not escape the closure.
    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// Writes the bytes. The buffer must not escape the closure.
    public func withUnsafeMutableBytes<R, E: Error>(_ body: (UnsafeMutableRawBufferPointer) throws(E) -> R) throws(E)
        -> R
    {
        try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
    }

    /// The first `length` bytes, as a new secure buffer.
    package func prefix(_ length: Int) -> SecureBytes {
        precondition(length >= 0 && length <= count)
        let copy = SecureBytes(count: length)
        if length > 0 { copy.pointer.copyMemory(from: pointer, byteCount: length) }
        return copy
    }

    /// Bytes `range` of this buffer, as a new secure buffer.
    package func slice(_ range: Range<Int>) -> SecureBytes {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        let copy = SecureBytes(count: range.count)
        if !range.isEmpty { copy.pointer.copyMemory(from: pointer + range.lowerBound, byteCount: range.count) }
        return copy
    }

    /// True when both hold the same bytes; compared in constant time.
    package func constantTimeEquals(_ other: SecureBytes) -> Bool {
        withUnsafeBytes { mine in other.withUnsafeBytes { theirs in Sodium.constantTimeEqual(mine, theirs) } }
    }
}
