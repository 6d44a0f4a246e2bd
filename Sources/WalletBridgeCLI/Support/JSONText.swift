import WalletBridge

/// JSON as text, for people: the manifests install writes and the replies `call` prints.
enum JSONText {
    /// Re-indents valid JSON with two spaces, keeping member order and every lexeme (numbers,
    /// escapes) exactly as they came: a reply is shown as the host wrote it, only laid out.
    static func pretty(_ json: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(json.count + json.count / 4)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0

        func newline() {
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        func nextSignificant(after position: Int) -> UInt8? {
            var cursor = position + 1
            while cursor < json.count {
                switch json[cursor] {
                case 0x20, 0x09, 0x0A, 0x0D: cursor += 1
                default: return json[cursor]
                }
            }
            return nil
        }

        while index < json.count {
            let byte = json[index]
            defer { index += 1 }
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                out.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if nextSignificant(after: index) == close {
                    // `{}` and `[]` stay on one line.
                    while json[index] != close { index += 1 }
                    out.append(close)
                } else {
                    depth += 1
                    newline()
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            case 0x20, 0x09, 0x0A, 0x0D:
                break
            default:
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String {
        String(decoding: JSONValue.string(text).jsonBytes, as: UTF8.self)
    }

    /// Up to `limit` bytes as a quoted, escaped string: how stray output is shown.
    static func preview(_ bytes: some Collection<UInt8>, limit: Int = 64) -> String {
        FrameFault.preview(bytes, limit: limit)
    }
}
