import WalletBridgeKeys
import WalletBridgeProtocol
/// The parts of the Assuan protocol (GnuPG's IPC, which pinentry speaks) that a pinentry
/// client needs. Lines are at most 1000 bytes including the line feed; in parameters and in
/// data lines `%`, CR and LF must be written `%25`, `%0D`, `%0A`.
package enum Assuan {
    /// The protocol's line limit, line feed included.
    package static let maxLineBytes = 1000

    /// libgpg-error's GPG_ERR_CANCELED (99) from source 5 (pinentry): the user pressed Cancel.
    package static let cancelledCode: UInt32 = 83_886_179
    /// GPG_ERR_NOT_CONFIRMED (114) from pinentry: a confirmation dialog was declined.
    package static let notConfirmedCode: UInt32 = 83_886_194
    /// GPG_ERR_ENOTTY: a terminal pinentry with no terminal ("Inappropriate ioctl for device").
    package static let noTerminalCode: UInt32 = 83_918_950

    /// One line from the server, with the payload of `D` lines left to the caller (they may
    /// hold the passphrase and are decoded into secure memory, never into a `String`).
    package enum Response: Equatable, Sendable {
        case ok(String)
        case error(code: UInt32, message: String)
        /// A `D` line; its percent-encoded payload starts at byte 2 of the line.
        case data
        case status(String)
        case inquire(String)
        /// `#` comments and empty lines, which the protocol says to ignore.
        case comment
        /// A line no Assuan server sends.
        case unknown
    }

    /// Classifies a line (without its line feed).
    package static func classify(_ line: UnsafeRawBufferPointer) -> Response {
        func rest(after count: Int) -> String {
            guard line.count > count else { return "" }
            return String(decoding: line[(count + 1)...], as: UTF8.self)
        }
        func startsWith(_ word: String) -> Bool {
            let bytes = Array(word.utf8)
            guard line.count >= bytes.count, line.prefix(bytes.count).elementsEqual(bytes) else { return false }
            return line.count == bytes.count || line[bytes.count] == UInt8(ascii: " ")
        }
        if line.isEmpty || line[0] == UInt8(ascii: "#") { return .comment }
        if startsWith("D") { return .data }
        if startsWith("OK") { return .ok(rest(after: 2)) }
        if startsWith("ERR") {
            let text = rest(after: 3)
            let code = text.split(separator: " ", maxSplits: 1).first.flatMap { UInt32($0) } ?? 0
            let message = text.split(separator: " ", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
            return .error(code: code, message: message)
        }
        if startsWith("S") { return .status(rest(after: 1)) }
        if startsWith("INQUIRE") { return .inquire(rest(after: 7)) }
        return .unknown
    }

    /// `text` escaped for a command parameter: `%`, every control character and DEL become
    /// `%XX`, so a newline in a description reaches pinentry as a line break, not as the end
    /// of the command. Truncated (never inside an escape) to fit `maxBytes`.
    package static func escape(_ text: String, maxBytes: Int = 900) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            var piece: [UInt8] = []
            if scalar.value < 0x20 || scalar.value == 0x25 || scalar.value == 0x7F {
                let byte = UInt8(scalar.value)
                piece = [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                piece = Array(String(scalar).utf8)
            }
            if out.count + piece.count > maxBytes { break }
            out.append(contentsOf: piece)
        }
        // A trailing backslash would ask for a line continuation.
        if out.last == UInt8(ascii: "\\") {
            out.removeLast()
            if out.count + 3 <= maxBytes { out.append(contentsOf: Array("%5C".utf8)) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes the percent-encoded payload of a `D` line into `output` from `offset`.
    /// Returns the new offset, or nil when the payload is malformed or does not fit.
    package static func decodeData(
        _ payload: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, at offset: Int
    ) -> Int? {
        var position = offset
        var index = 0
        while index < payload.count {
            guard position < output.count else { return nil }
            var byte = payload[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < payload.count, let high = Hex.digitValue(payload[index + 1]),
                    let low = Hex.digitValue(payload[index + 2])
                else {
                    return nil
                }
                byte = high << 4 | low
                index += 3
            } else {
                index += 1
            }
            output[position] = byte
            position += 1
        }
        return position
    }
}
