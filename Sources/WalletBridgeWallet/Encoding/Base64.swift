#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Standard base64 (RFC 4648 section 4, with padding): how the protocol writes keys and
/// payloads, and how the keystore file writes its binary fields.
public enum Base64 {
    /// Padded standard base64.
    public static func encode(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    /// The bytes, or nil for anything that is not canonical padded standard base64.
    public static func decode(_ text: String) -> [UInt8]? {
        guard let data = Data(base64Encoded: text) else { return nil }
        return Array(data)
    }
}
