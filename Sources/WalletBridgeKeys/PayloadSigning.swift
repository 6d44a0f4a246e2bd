import WalletBridgeProtocol

/// The SignPayloads rules every wallet shares: how payloads are checked before anything is
/// signed, and how a signed payload is laid out.
package enum PayloadSigning {
    /// A payload as the request gave it (canonical base64, checked) and as bytes.
    package struct Payload: Sendable {
        package let bytes: [UInt8]
        package let base64: String
    }

    /// Decodes every payload, or throws the documented error: `tooManyPayloads` (-6) above the
    /// maximum; `invalidPayloads` (-2) with `data.valid` for an empty list or any payload that is
    /// not canonical standard base64 of at least one byte.
    package static func decodePayloads(_ payloads: [String], maxPayloads: Int) throws(RPCError) -> [Payload] {
        guard payloads.count <= maxPayloads else {
            throw RPCError(
                .tooManyPayloads,
                data: .object([
                    "count": .number(JSONNumber(payloads.count)),
                    "max": .number(JSONNumber(maxPayloads)),
                ]))
        }
        guard !payloads.isEmpty else { throw RPCError.invalidPayloads(valid: []) }
        let decoded = payloads.map(Base64.decode)
        let valid = decoded.map { $0 != nil && !$0!.isEmpty }
        guard valid.allSatisfy({ $0 }) else { throw RPCError.invalidPayloads(valid: valid) }
        return zip(decoded, payloads).map { Payload(bytes: $0!, base64: $1) }
    }

    /// Signs each payload and returns it in Mobile Wallet Adapter's `sign_messages` layout:
    /// base64 of the payload followed by its 64-byte signature.
    ///
    /// Each payload is laid out in one reused buffer and signed in place. Only its tail is
    /// encoded: canonical base64 of a payload's whole 3-byte groups is the same text whatever
    /// follows them, so those characters are copied from the request, and only the last one
    /// or two bytes and the signature are encoded here. Encoding the whole payload again was a
    /// large share of the host's own work per payload.
    package static func sign(_ payloads: [Payload], secretKey: UnsafeRawBufferPointer) -> [String] {
        let longest = payloads.lazy.map(\.bytes.count).max() ?? 0
        var buffer = [UInt8](repeating: 0, count: longest + Ed25519.signatureBytes)
        return buffer.withUnsafeMutableBytes { buffer in
            payloads.map { payload in
                let count = payload.bytes.count
                payload.bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
                Ed25519.sign(
                    UnsafeRawBufferPointer(rebasing: buffer[0..<count]), secretKey: secretKey,
                    into: buffer.baseAddress! + count)
                let wholeGroups = count / 3
                var prefix = payload.base64
                return prefix.withUTF8 { prefix in
                    Base64.encode(
                        UnsafeRawBufferPointer(rebasing: buffer[wholeGroups * 3..<count + Ed25519.signatureBytes]),
                        after: UnsafeBufferPointer(rebasing: prefix[0..<wholeGroups * 4]))
                }
            }
        }
    }
}
