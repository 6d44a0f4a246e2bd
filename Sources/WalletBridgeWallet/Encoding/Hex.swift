import CSodium

/// Lowercase hex, by libsodium (`sodium_bin2hex`): public keys for `keys export-public`, payload
/// hashes for the consent dialog and the audit log. Not for secrets, which never become text.
package enum Hex {
    package static func encode(_ bytes: [UInt8]) -> String {
        Sodium.ensureInitialized()
        var text = [CChar](repeating: 0, count: bytes.count * 2 + 1)
        _ = sodium_bin2hex(&text, text.count, bytes, bytes.count)
        return String(decoding: text.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
