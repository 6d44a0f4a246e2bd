/// Ethereum's 256-bit quantities (value, fees, token amounts) are EIP-712's four-limb integer:
/// a transaction needs reading bytes and hex, comparing, one multiplication by a 64-bit gas
/// limit, and exact decimal text, which is too little to take a big-integer library for; and
/// attaswift/BigInt imports Foundation, which would link the whole of it into the shipped binary.
package typealias UInt256 = EIP712Integer.Limbs

extension EIP712Integer.Limbs {
    /// The number whose big-endian bytes are `bytes` (leading zeros allowed); nil past 32 bytes.
    package init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count <= 32 else { return nil }
        var limbs: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.reversed().enumerated() {
            limbs[3 - index / 8] |= UInt64(byte) << (UInt64(index % 8) * 8)
        }
        self.init(limbs64: limbs)
    }

    package init(_ value: UInt64) { self.init(limbs64: [0, 0, 0, value]) }

    private init(limbs64: [UInt64]) {
        self.limbs = limbs64
    }

    package static let max = UInt256(limbs64: [.max, .max, .max, .max])

    /// The bytes big-endian without leading zeros (empty for zero): how RLP writes an integer.
    package var minimalBytes: [UInt8] { Array(bytes.drop { $0 == 0 }) }

    /// The value when it fits 64 bits.
    package var uint64: UInt64? { limbs[0] == 0 && limbs[1] == 0 && limbs[2] == 0 ? limbs[3] : nil }

    /// The number of bits it takes: 0 for zero, 256 for 2^255 and above.
    package var bitWidth: Int {
        for (index, limb) in limbs.enumerated() where limb != 0 {
            return (3 - index) * 64 + (64 - limb.leadingZeroBitCount)
        }
        return 0
    }

    /// This number times `factor`, and whether that overflowed 256 bits.
    package func multipliedReportingOverflow(by factor: UInt64) -> (UInt256, overflow: Bool) {
        var result: [UInt64] = [0, 0, 0, 0]
        var carry: UInt64 = 0
        for index in (0..<4).reversed() {
            let (high, low) = limbs[index].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            result[index] = sum
            carry = high + (overflow ? 1 : 0)
        }
        return (UInt256(limbs64: result), carry != 0)
    }

    /// This number plus a small `addend`, wrapping past 2^256 - 1 (only ever used below it).
    package func adding(_ addend: UInt64) -> UInt256 {
        var result = limbs
        var carry = addend
        for index in (0..<4).reversed() where carry != 0 {
            let (sum, overflow) = result[index].addingReportingOverflow(carry)
            result[index] = sum
            carry = overflow ? 1 : 0
        }
        return UInt256(limbs64: result)
    }

    package static func < (lhs: UInt256, rhs: UInt256) -> Bool { lhs.limbs.lexicographicallyPrecedes(rhs.limbs) }
    package static func <= (lhs: UInt256, rhs: UInt256) -> Bool { !(rhs < lhs) }

    /// 10^`exponent`, for exponent up to 77 (the largest power of ten below 2^256).
    package static func powerOfTen(_ exponent: Int) -> UInt256 {
        var value = UInt256(1)
        for _ in 0..<min(exponent, 77) { value = value.multipliedReportingOverflow(by: 10).0 }
        return value
    }

    /// 2^`exponent` - 1, for exponent 0 to 256: the largest uintN.
    package static func maxOf(bits: Int) -> UInt256 {
        var limbs: [UInt64] = [0, 0, 0, 0]
        for index in 0..<4 {
            let lowest = (3 - index) * 64
            if bits >= lowest + 64 {
                limbs[index] = .max
            } else if bits > lowest {
                limbs[index] = (1 << UInt64(bits - lowest)) - 1
            }
        }
        return UInt256(limbs64: limbs)
    }
}
