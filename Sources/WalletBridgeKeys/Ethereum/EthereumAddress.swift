/// A 20-byte Ethereum address: the last 20 bytes of the Keccak-256 of the uncompressed public
/// key (without its 0x04 prefix). Written with EIP-55's mixed-case checksum.
package struct EthereumAddress: Hashable, Sendable, CustomStringConvertible {
    package static let byteCount = 20
    package let bytes: [UInt8]

    /// The address of a secp256k1 public key (33 or 65 bytes); nil when it is not one.
    package init?(publicKey: [UInt8]) {
        guard let point = Secp256k1.uncompressed(publicKey) else { return nil }
        bytes = Array(Keccak256.hash(point.dropFirst()).suffix(Self.byteCount))
    }

    /// `0x` (lowercase, as Ethereum's JSON-RPC writes data) and 40 hex digits. All lowercase or all uppercase is taken as is; mixed case must be
    /// the EIP-55 checksum, since a mixed-case address with one wrong letter is a typo.
    package init?(_ text: String) {
        guard text.utf8.count == 42, text.hasPrefix("0x"), let bytes = Hex.decode(text.dropFirst(2)) else { return nil }
        self.bytes = bytes
        let digits = text.dropFirst(2)
        let hasLower = digits.contains { $0.isLowercase }, hasUpper = digits.contains { $0.isUppercase }
        if hasLower, hasUpper, String(description.dropFirst(2)) != digits { return nil }
    }

    /// EIP-55: each hex letter is uppercase when the matching nibble of the Keccak-256 of the
    /// lowercase hex is 8 or more.
    package var description: String {
        let lower = Array(Hex.encode(bytes).utf8)
        let hash = Keccak256.hash(lower)
        var text = "0x"
        for (index, digit) in lower.enumerated() {
            let nibble = index % 2 == 0 ? hash[index / 2] >> 4 : hash[index / 2] & 0x0F
            let isLetter = digit >= UInt8(ascii: "a")
            text.unicodeScalars.append(Unicode.Scalar(isLetter && nibble >= 8 ? digit - 32 : digit))
        }
        return text
    }

    /// `0x1234…abcd`: enough to recognise an address in a dialog.
    package var short: String {
        let full = description
        return "\(full.prefix(6))…\(full.suffix(4))"
    }
}
