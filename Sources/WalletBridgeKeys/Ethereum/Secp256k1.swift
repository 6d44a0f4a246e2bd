import CSecp256k1

/// secp256k1 by libsecp256k1: Ethereum's key pairs, and recoverable ECDSA signatures (RFC 6979
/// nonces, so the same key and digest always give the same signature, which lets the fixtures
/// pin them). Secret keys stay in `SecureBytes`.
package enum Secp256k1 {
    package static let secretKeyBytes = 32
    /// SEC 1 compressed: 0x02 or 0x03, then x. How the keystore keeps the public key.
    package static let compressedPublicKeyBytes = 33
    /// r, s, and v (27 or 28): what `personal_sign` and `eth_signTypedData_v4` answer.
    package static let signatureBytes = 65

    /// For what uses a secret with the generator point (a public key from a secret, a
    /// signature): one context for the process, safe to share once made, and randomized against
    /// side channels. Made on first use, which only a signature or a new key needs.
    nonisolated(unsafe) private static let signingContext: OpaquePointer = {
        let context = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE))!
        var seed = Sodium.randomBytes(count: 32)
        _ = secp256k1_context_randomize(context, &seed)
        return context
    }()

    /// For the rest (parsing and writing points, checking a secret, tweaks, recovery): the
    /// library's static context, which costs nothing to set up. Reading a keystore's Ethereum
    /// addresses then never builds the signing context.
    nonisolated(unsafe) private static let context: OpaquePointer = wallet_bridge_secp256k1_static_context()

    /// True when `secretKey` is a valid secret key: not zero, below the group order.
    package static func isValidSecretKey(_ secretKey: SecureBytes) -> Bool {
        secretKey.count == secretKeyBytes
            && secretKey.withUnsafeBytes { key in
                secp256k1_ec_seckey_verify(context, key.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 1
            }
    }

    /// The public key of a valid `secretKey`, compressed (33 bytes) or not (65 bytes); nil when
    /// the secret key is not valid.
    package static func publicKey(of secretKey: SecureBytes, compressed: Bool = true) -> [UInt8]? {
        guard isValidSecretKey(secretKey) else { return nil }
        var point = secp256k1_pubkey()
        let made = secretKey.withUnsafeBytes { key in
            secp256k1_ec_pubkey_create(signingContext, &point, key.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        guard made == 1 else { return nil }
        return serialize(point, compressed: compressed)
    }

    /// `publicKey` (33 or 65 bytes) in the other form: uncompressed for an Ethereum address.
    package static func uncompressed(_ publicKey: [UInt8]) -> [UInt8]? {
        guard let point = parse(publicKey) else { return nil }
        return serialize(point, compressed: false)
    }

    /// The compressed public key of `publicKey`'s point plus `tweak`·G: BIP-32's public child.
    package static func addingTweak(_ tweak: [UInt8], toPublicKey publicKey: [UInt8]) -> [UInt8]? {
        guard tweak.count == 32, var point = parse(publicKey),
            secp256k1_ec_pubkey_tweak_add(context, &point, tweak) == 1
        else { return nil }
        return serialize(point, compressed: true)
    }

    /// `secretKey + tweak` modulo the group order, in place; false when the tweak is not below
    /// the order or the sum is zero (BIP-32 then skips to the next index).
    package static func addTweak(_ tweak: UnsafeRawBufferPointer, toSecretKey secretKey: SecureBytes) -> Bool {
        secretKey.withUnsafeMutableBytes { key in
            secp256k1_ec_seckey_tweak_add(
                context, key.baseAddress!.assumingMemoryBound(to: UInt8.self),
                tweak.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 1
        }
    }

    /// The recoverable signature of the 32-byte `digest` by `secretKey`: r ‖ s ‖ v, with v 27 or
    /// 28 as Ethereum writes it (27 + the recovery id), s in the lower half (libsecp256k1
    /// always gives that, as Ethereum requires since EIP-2).
    package static func sign(digest: [UInt8], secretKey: SecureBytes) -> [UInt8]? {
        guard digest.count == 32, isValidSecretKey(secretKey) else { return nil }
        var signature = secp256k1_ecdsa_recoverable_signature()
        let signed = secretKey.withUnsafeBytes { key in
            secp256k1_ecdsa_sign_recoverable(
                signingContext, &signature, digest, key.baseAddress!.assumingMemoryBound(to: UInt8.self), nil, nil)
        }
        guard signed == 1 else { return nil }
        var compact = [UInt8](repeating: 0, count: 64)
        var recoveryID: Int32 = 0
        guard secp256k1_ecdsa_recoverable_signature_serialize_compact(context, &compact, &recoveryID, &signature) == 1
        else { return nil }
        return compact + [UInt8(27 + recoveryID)]
    }

    /// The uncompressed public key that made `signature` (r ‖ s ‖ v) over `digest`, or nil:
    /// how the tests, and anyone holding a signature, check it against an address.
    package static func recover(signature: [UInt8], digest: [UInt8]) -> [UInt8]? {
        guard signature.count == signatureBytes, digest.count == 32, (27...28).contains(signature[64]) else {
            return nil
        }
        var parsed = secp256k1_ecdsa_recoverable_signature()
        guard
            secp256k1_ecdsa_recoverable_signature_parse_compact(
                context, &parsed, Array(signature[0..<64]), Int32(signature[64] - 27)) == 1
        else {
            return nil
        }
        var point = secp256k1_pubkey()
        guard secp256k1_ecdsa_recover(context, &point, &parsed, digest) == 1 else { return nil }
        return serialize(point, compressed: false)
    }

    private static func parse(_ publicKey: [UInt8]) -> secp256k1_pubkey? {
        var point = secp256k1_pubkey()
        return secp256k1_ec_pubkey_parse(context, &point, publicKey, publicKey.count) == 1 ? point : nil
    }

    private static func serialize(_ point: secp256k1_pubkey, compressed: Bool) -> [UInt8] {
        var point = point
        var length = compressed ? compressedPublicKeyBytes : 65
        var bytes = [UInt8](repeating: 0, count: length)
        _ = secp256k1_ec_pubkey_serialize(
            context, &bytes, &length, &point, UInt32(compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED))
        return bytes
    }
}
