import WalletBridgeProtocol

/// EIP-712's integer values, uintN and intN, without a big-integer library: 256 bits are four
/// 64-bit limbs, and reading decimal or hex, negating and writing decimal are a few loops.
package enum EIP712Integer {
    /// The 32-byte big-endian word of `value` as a uintN (`signed` false) or intN (two's
    /// complement when negative), and its decimal text for a person.
    ///
    /// Taken as eth-account takes them, only stricter about spelling: a JSON number that is an
    /// integer literal (no fraction, no exponent, though JSON allows `1e3`), a decimal string
    /// (`-` and digits), or `0x` and hex digits (never negative). Leading zeros are fine. The
    /// value must fit N bits: 0 to 2^N-1, or -2^(N-1) to 2^(N-1)-1.
    static func encode(_ value: JSONValue, bits: Int, signed: Bool, field: String) throws(RPCError) -> (
        word: [UInt8], text: String
    ) {
        let typeName = "\(signed ? "int" : "uint")\(bits)"
        let article = signed ? "an" : "a"
        let text: Substring
        var isString = false
        switch value {
        case .number(let number):
            guard !number.literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
                throw TypedData.invalid(
                    field, "\(article) \(typeName) is an integer; \(number.literal.prefix(40)) is not one")
            }
            text = Substring(number.literal)
        case .string(let string):
            text = Substring(string)
            isString = true
        default:
            throw TypedData.invalid(
                field,
                "expected \(article) \(typeName): an integer, a decimal string or a 0x-hex string, found \(value.typeName)"
            )
        }
        let negative = text.hasPrefix("-")
        let unsigned = negative ? text.dropFirst() : text
        let isHex = isString && unsigned.hasPrefix("0x")
        let digits = isHex ? unsigned.dropFirst(2) : unsigned
        let radix: UInt64 = isHex ? 16 : 10
        guard !(negative && isHex) else {
            throw TypedData.invalid(field, "a hex \(typeName) cannot be negative; write it in decimal")
        }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ Limbs.digitValue($0, radix: radix) != nil }) else {
            throw TypedData.invalid(
                field, "expected \(article) \(typeName): an integer in decimal, or 0x and hex digits")
        }
        let range = signed ? "-2^\(bits - 1) to 2^\(bits - 1)-1" : "0 to 2^\(bits)-1"
        let outOfRange = TypedData.invalid(field, "out of range for \(typeName): \(range)")
        guard let magnitude = Limbs(digits: digits, radix: radix) else { throw outOfRange }
        let isNegative = negative && !magnitude.isZero
        // -m is ~(m-1) in two's complement, and m ≤ 2^(N-1) is m-1 < 2^(N-1).
        let word =
            isNegative
            ? (signed ? magnitude.minusOne.fitting(bits: bits - 1)?.inverted : nil)
            : magnitude.fitting(bits: signed ? bits - 1 : bits)
        guard let word else { throw outOfRange }
        return (word.bytes, (isNegative ? "-" : "") + magnitude.decimal)
    }

    /// An unsigned 256-bit number, as four 64-bit limbs, most significant first.
    package struct Limbs: Equatable {
        package var limbs: [UInt64] = [0, 0, 0, 0]

        /// The number written in `digits` in `radix`, 10 or 16; nil when it needs more than 256
        /// bits, or a digit is not one (which `encode` has ruled out before, to say which it is).
        /// Leading zeros are skipped first, so that a long run of them costs a scan and not a
        /// multiplication each.
        package init?(digits: Substring, radix: UInt64) {
            let significant = digits.utf8.drop { $0 == UInt8(ascii: "0") }
            guard significant.count <= (radix == 16 ? 64 : 78) else { return nil }
            for digit in significant {
                guard let value = Self.digitValue(digit, radix: radix) else { return nil }
                var carry = UInt64(value)
                for index in (0..<4).reversed() {
                    let (high, low) = limbs[index].multipliedFullWidth(by: radix)
                    let (sum, overflow) = low.addingReportingOverflow(carry)
                    limbs[index] = sum
                    carry = high + (overflow ? 1 : 0)
                }
                guard carry == 0 else { return nil }
            }
        }

        private init(limbs: [UInt64]) { self.limbs = limbs }

        static func digitValue(_ digit: UInt8, radix: UInt64) -> UInt8? {
            let value: UInt8? =
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
                default: nil
                }
            guard let value, UInt64(value) < radix else { return nil }
            return value
        }

        package var isZero: Bool { limbs.allSatisfy { $0 == 0 } }

        /// This number less one; only for a number that is not zero.
        var minusOne: Limbs {
            var result = limbs
            for index in (0..<4).reversed() {
                let (difference, borrow) = result[index].subtractingReportingOverflow(1)
                result[index] = difference
                if !borrow { break }
            }
            return Limbs(limbs: result)
        }

        var inverted: Limbs { Limbs(limbs: limbs.map { ~$0 }) }

        /// This number when it is below 2^`bits`, else nil.
        func fitting(bits: Int) -> Limbs? {
            for (index, limb) in limbs.enumerated() {
                let lowest = (3 - index) * 64
                if bits <= lowest, limb != 0 { return nil }
                if bits > lowest, bits < lowest + 64, limb >> UInt64(bits - lowest) != 0 { return nil }
            }
            return self
        }

        /// The 32 bytes, big-endian.
        package var bytes: [UInt8] {
            limbs.flatMap { limb in (0..<8).reversed().map { UInt8(truncatingIfNeeded: limb >> (UInt64($0) * 8)) } }
        }

        /// In decimal, without leading zeros: by 10^19 at a time, the largest power of ten a
        /// limb holds.
        package var decimal: String {
            let chunk: UInt64 = 10_000_000_000_000_000_000
            var rest = limbs
            var chunks: [UInt64] = []
            repeat {
                var remainder: UInt64 = 0
                for index in 0..<4 {
                    (rest[index], remainder) = chunk.dividingFullWidth((remainder, rest[index]))
                }
                chunks.append(remainder)
            } while rest.contains { $0 != 0 }
            var text = String(chunks.removeLast())
            for part in chunks.reversed() {
                let digits = String(part)
                text += String(repeating: "0", count: 19 - digits.count) + digits
            }
            return text
        }
    }
}
