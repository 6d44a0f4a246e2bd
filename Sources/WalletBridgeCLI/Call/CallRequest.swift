import WalletBridge

/// The request `call` sends, built from its command line.
enum CallRequest {
    /// `--id`: a JSON number or string literal as written (`7`, `"7"`), else the text as a string.
    static func id(from text: String) -> RequestID {
        if let value = try? JSONParser.parse(Array(text.utf8)) {
            switch value {
            case .number(let number): return .number(number)
            case .string(let string): return .string(string)
            default: break
            }
        }
        return .string(text)
    }

    /// PARAMS_JSON: an object or an array, as JSON-RPC requires of `params`.
    static func params(from text: String) throws(CLIFailure) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(text.utf8))
        } catch {
            throw CLIFailure("PARAMS_JSON is not JSON: \(error)")
        }
        switch value {
        case .object, .array: return value
        default:
            throw CLIFailure(
                "PARAMS_JSON must be an object or an array (JSON-RPC 2.0, section 4.2), not a \(value.typeName)")
        }
    }
}
