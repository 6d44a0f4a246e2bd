/// Standard base64 (RFC 4648 section 4, with padding): how the protocol writes keys and
/// payloads, and how the keystore file writes its binary fields.
///
/// Written here rather than taken from Foundation for two reasons. Foundation's decoder is
/// lenient: it accepts `QR==` (bits set after the last byte) and `QQ===` (extra padding), so two
/// different strings could stand for one payload. And a SignPayloads request is mostly base64:
/// Foundation's encoder and decoder were a large share of the host's own work per signed
/// payload, more than these loops cost.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// Set in every table entry of a byte outside the alphabet, so one test on a whole quad
    /// finds any of them.
    private static let invalid: UInt32 = 0x0100_0000
    /// Each character's 6 bits, already shifted to where they go in a quad's 24 bits.
    private static let quadTables: [[UInt32]] = [18, 12, 6, 0].map { shift in
        var table = [UInt32](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt32(value) << shift }
        return table
    }

    /// Padded standard base64.
    package static func encode(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { encode($0) } }

    /// Padded standard base64, written straight into the string's storage.
    package static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
        encode(bytes, after: UnsafeBufferPointer(start: nil, count: 0))
    }

    /// `prefix` (already base64 text of whole 3-byte groups), then the encoding of `bytes`.
    static func encode(_ bytes: UnsafeRawBufferPointer, after prefix: UnsafeBufferPointer<UInt8>) -> String {
        let length = prefix.count + (bytes.count + 2) / 3 * 4
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { out in
            let raw = UnsafeMutableRawPointer(out.baseAddress!)
            if let start = prefix.baseAddress { raw.copyMemory(from: start, byteCount: prefix.count) }
            write(bytes, to: raw + prefix.count)
            return length
        }
    }

    /// Writes the padded encoding of `bytes`, `(bytes.count + 2) / 3 * 4` characters, at `out`.
    /// A plain loop: payloads are mostly copied, not encoded (see `PayloadSigning.sign`).
    private static func write(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutableRawPointer) {
        alphabet.withUnsafeBufferPointer { alphabet in
            var input = 0
            var output = 0
            while input < bytes.count {
                let rest = bytes.count - input
                let group =
                    Int(bytes[input]) << 16 | (rest > 1 ? Int(bytes[input + 1]) << 8 : 0)
                    | (rest > 2 ? Int(bytes[input + 2]) : 0)
                out.storeBytes(of: alphabet[group >> 18], toByteOffset: output, as: UInt8.self)
                out.storeBytes(of: alphabet[group >> 12 & 0x3F], toByteOffset: output + 1, as: UInt8.self)
                out.storeBytes(
                    of: rest > 1 ? alphabet[group >> 6 & 0x3F] : UInt8(ascii: "="), toByteOffset: output + 2,
                    as: UInt8.self)
                out.storeBytes(
                    of: rest > 2 ? alphabet[group & 0x3F] : UInt8(ascii: "="), toByteOffset: output + 3, as: UInt8.self)
                input += 3
                output += 4
            }
        }
    }

    /// The bytes, or nil for anything that is not canonical padded standard base64: a length
    /// that is not a multiple of four, a byte outside the alphabet (whitespace included),
    /// padding anywhere but at the end or more than two `=`, or bits set after the last byte.
    package static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }

    package static func decode(_ characters: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = characters.count
        guard count % 4 == 0 else { return nil }
        guard count > 0 else { return [] }
        let padding =
            characters[count - 1] != UInt8(ascii: "=") ? 0 : characters[count - 2] != UInt8(ascii: "=") ? 1 : 2
        let length = count / 4 * 3 - padding
        let (t0, t1, t2, t3) = (quadTables[0], quadTables[1], quadTables[2], quadTables[3])
        var failed: UInt32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
            t0.withUnsafeBufferPointer { t0 in
                t1.withUnsafeBufferPointer { t1 in
                    t2.withUnsafeBufferPointer { t2 in
                        t3.withUnsafeBufferPointer { t3 in
                            var input = 0
                            var output = 0
                            // Every quad but the last, which may hold padding. Failures are collected,
                            // not branched on: invalid input is rare and the loop stays straight.
                            while input < count - 4 {
                                let group =
                                    t0[Int(characters[input])] | t1[Int(characters[input + 1])]
                                    | t2[Int(characters[input + 2])] | t3[Int(characters[input + 3])]
                                failed |= group
                                out[output] = UInt8(truncatingIfNeeded: group >> 16)
                                out[output + 1] = UInt8(truncatingIfNeeded: group >> 8)
                                out[output + 2] = UInt8(truncatingIfNeeded: group)
                                input += 4
                                output += 3
                            }
                            let c = padding == 2 ? 0 : t2[Int(characters[input + 2])]
                            let d = padding >= 1 ? 0 : t3[Int(characters[input + 3])]
                            let group = t0[Int(characters[input])] | t1[Int(characters[input + 1])] | c | d
                            failed |= group
                            // Canonical: the bits that padding leaves over must be zero.
                            if padding > 0, group & (padding == 1 ? 0xFF : 0xFFFF) != 0 { failed |= invalid }
                            out[output] = UInt8(truncatingIfNeeded: group >> 16)
                            if padding < 2 { out[output + 1] = UInt8(truncatingIfNeeded: group >> 8) }
                            if padding < 1 { out[output + 2] = UInt8(truncatingIfNeeded: group) }
                        }
                    }
                }
            }
            initialized = length
        }
        return failed & invalid == 0 ? bytes : nil
    }
}
