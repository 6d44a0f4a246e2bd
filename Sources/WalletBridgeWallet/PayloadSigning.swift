import WalletBridge

/// The SignPayloads rules every wallet shares: how payloads are checked before anything is
/// signed, and how a signed payload is laid out.
public enum PayloadSigning {
    public static let defaultMaxPayloads = 1024

    /// Decodes every payload, or throws the documented error: `tooManyPayloads` (-6) above the
    /// maximum; `invalidPayloads` (-2) with `data.valid` for an empty list or any payload that is
    /// not standard base64 of at least one byte.
    public static func decodePayloads(_ payloads: [String], maxPayloads: Int) throws(RPCError) -> [[UInt8]] {
        guard payloads.count <= maxPayloads else {
            throw RPCError(.tooManyPayloads, data: .object([
                "count": .number(JSONNumber(payloads.count)),
                "max": .number(JSONNumber(maxPayloads)),
            ]))
        }
        guard !payloads.isEmpty else { throw RPCError.invalidPayloads(valid: []) }
        let decoded = payloads.map(Base64.decode)
        let valid = decoded.map { $0 != nil && !$0!.isEmpty }
        guard valid.allSatisfy({ $0 }) else { throw RPCError.invalidPayloads(valid: valid) }
        return decoded.map { $0! }
    }

    /// Mobile Wallet Adapter's `sign_messages` layout: the payload, then its 64-byte signature.
    public static func signedPayload(_ payload: [UInt8], signature: [UInt8]) -> String {
        Base64.encode(payload + signature)
    }
}
