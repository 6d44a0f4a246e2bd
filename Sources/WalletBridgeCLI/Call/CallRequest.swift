import WalletBridge

/// The request `call` sends, built from its command line.
enum CallRequest {
    /// A JSON-RPC 2.0 request body; `id` nil makes it a notification.
    static func body(id: JSONValue?, method: String, params: JSONValue?) -> [UInt8] {
        var members: [String: JSONValue] = ["jsonrpc": .string("2.0"), "method": .string(method)]
        if let id { members["id"] = id }
        if let params { members["params"] = params }
        return JSONValue.object(members).jsonBytes
    }

    /// `--id`: a JSON number or string literal as written (`7`, `"7"`), else the text as a string.
    static func id(from text: String) -> JSONValue {
        if let value = try? JSONParser.parse(Array(text.utf8)) {
            switch value {
            case .number, .string: return value
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
        default: throw CLIFailure("PARAMS_JSON must be an object or an array (JSON-RPC 2.0, section 4.2), not a \(value.typeName)")
        }
    }
}
