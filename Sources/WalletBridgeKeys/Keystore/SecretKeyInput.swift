import CSodium

/// Reads a secret key someone wants to import, in whichever form they have it, straight into
/// secure memory: libsodium's own hex and base64 decoders write into the destination buffer,
/// so the decoded secret never sits in an ordinary Swift array.
package enum SecretKeyInput {
    /// How the input is written.
    package enum Format: String, Sendable, CaseIterable {
        /// Try, in order: a JSON array of byte values (Solana CLI keypair files), hex, base64,
        /// and finally the raw bytes.
        case auto
        /// Exactly 32 or 64 bytes, as they are.
        case raw
        /// 64 or 128 hex digits, after an optional `0x`; surrounding whitespace is ignored.
        case hex
        /// Standard or URL-safe base64, padded or not; surrounding whitespace is ignored.
        case base64
        /// `[1,2,…]`: 32 or 64 numbers from 0 to 255.
        case json
    }

    /// The 32- or 64-byte secret in `input`, or an error that says what was expected (and
    /// never what was found).
    package static func decode(_ input: SecureBytes, format: Format) throws(KeystoreError) -> SecureBytes {
        switch format {
        case .raw:
            guard input.count == Ed25519.seedBytes || input.count == Ed25519.secretKeyBytes else {
                throw .invalidSecretKey("raw input must be exactly 32 or 64 bytes, got \(input.count)")
            }
            return input.slice(0..<input.count)
        case .hex:
            guard let key = hex(input) else { throw .invalidSecretKey("expected 64 or 128 hex digits") }
            return key
        case .base64:
            guard let key = base64(input) else { throw .invalidSecretKey("expected base64 of 32 or 64 bytes") }
            return key
        case .json:
            guard let key = jsonArray(input) else {
                throw .invalidSecretKey("expected a JSON array of 32 or 64 numbers from 0 to 255")
            }
            return key
        case .auto:
            if let key = jsonArray(input) ?? hex(input) ?? base64(input) { return key }
            if input.count == Ed25519.seedBytes || input.count == Ed25519.secretKeyBytes {
                return input.slice(0..<input.count)
            }
            throw .invalidSecretKey(
                "expected 32 or 64 bytes: raw, hex, base64, or a JSON array of byte values (got \(input.count) bytes that are none of these)"
            )
        }
    }

    /// The range of `input` without leading and trailing ASCII whitespace.
    private static func trimmed(_ input: UnsafeRawBufferPointer) -> Range<Int> {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var start = 0
        var end = input.count
        while start < end, isSpace(input[start]) { start += 1 }
        while end > start, isSpace(input[end - 1]) { end -= 1 }
        return start..<end
    }

    private static func hex(_ input: SecureBytes) -> SecureBytes? {
        input.withUnsafeBytes { raw -> SecureBytes? in
            var range = trimmed(raw)
            // Ethereum's tools write a secret as 0x and its hex (eth-account's to_0x_hex).
            if range.count >= 2, raw[range.lowerBound] == UInt8(ascii: "0"),
                raw[range.lowerBound + 1] == UInt8(ascii: "x")
            {
                range = (range.lowerBound + 2)..<range.upperBound
            }
            guard range.count == 2 * Ed25519.seedBytes || range.count == 2 * Ed25519.secretKeyBytes else { return nil }
            let out = SecureBytes(count: range.count / 2)
            var written = 0
            let status = out.withUnsafeMutableBytes { buffer in
                sodium_hex2bin(
                    buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count,
                    (raw.baseAddress! + range.lowerBound).assumingMemoryBound(to: CChar.self), range.count,
                    nil, &written, nil)
            }
            return status == 0 && written == out.count ? out : nil
        }
    }

    private static func base64(_ input: SecureBytes) -> SecureBytes? {
        let variants = [
            sodium_base64_VARIANT_ORIGINAL, sodium_base64_VARIANT_ORIGINAL_NO_PADDING,
            sodium_base64_VARIANT_URLSAFE, sodium_base64_VARIANT_URLSAFE_NO_PADDING,
        ]
        return input.withUnsafeBytes { raw -> SecureBytes? in
            let range = trimmed(raw)
            guard !range.isEmpty else { return nil }
            let scratch = SecureBytes(count: range.count)
            for variant in variants {
                var written = 0
                var end: UnsafePointer<CChar>?
                let status = scratch.withUnsafeMutableBytes { buffer in
                    sodium_base642bin(
                        buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), buffer.count,
                        (raw.baseAddress! + range.lowerBound).assumingMemoryBound(to: CChar.self), range.count,
                        nil, &written, &end, Int32(variant))
                }
                let consumedAll =
                    end.map { UnsafeRawPointer($0) == UnsafeRawPointer(raw.baseAddress! + range.upperBound) } ?? false
                if status == 0, consumedAll, written == Ed25519.seedBytes || written == Ed25519.secretKeyBytes {
                    return scratch.prefix(written)
                }
            }
            return nil
        }
    }

    private static func jsonArray(_ input: SecureBytes) -> SecureBytes? {
        input.withUnsafeBytes { raw -> SecureBytes? in
            let range = trimmed(raw)
            guard range.count >= 2, raw[range.lowerBound] == UInt8(ascii: "["),
                raw[range.upperBound - 1] == UInt8(ascii: "]")
            else {
                return nil
            }
            let out = SecureBytes(count: Ed25519.secretKeyBytes)
            var count = 0
            var value = -1  // -1: no digit read yet for the current element
            var numberEnded = false  // whitespace after digits: another digit would be a new number
            var ok = true
            out.withUnsafeMutableBytes { buffer in
                for index in (range.lowerBound + 1)..<(range.upperBound - 1) {
                    let byte = raw[index]
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"):
                        if numberEnded { ok = false }
                        value = (value < 0 ? 0 : value * 10) + Int(byte - UInt8(ascii: "0"))
                        if value > 255 { ok = false }
                    case UInt8(ascii: ","):
                        if value < 0 || count == buffer.count {
                            ok = false
                        } else {
                            buffer[count] = UInt8(value); count += 1
                        }
                        value = -1
                        numberEnded = false
                    case 0x20, 0x09, 0x0A, 0x0D:
                        if value >= 0 { numberEnded = true }
                    default:
                        ok = false
                    }
                    if !ok { break }
                }
                if ok {
                    if value < 0 || count == buffer.count {
                        ok = false
                    } else {
                        buffer[count] = UInt8(value); count += 1
                    }
                }
                value = 0
            }
            guard ok, count == Ed25519.seedBytes || count == Ed25519.secretKeyBytes else { return nil }
            return out.prefix(count)
        }
    }
}
