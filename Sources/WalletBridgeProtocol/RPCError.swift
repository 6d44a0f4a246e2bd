/// A JSON-RPC error object. Handlers throw it to answer with a specific code; any other error
/// a handler throws becomes `internalError` with no detail on the wire.
public struct RPCError: Error, Sendable, Hashable {
    public var code: ErrorCode
    public var message: String
    public var data: JSONValue?

    public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// An error with the catalogue's fixed message for `code`.
    public init(_ code: ErrorCode, data: JSONValue? = nil) {
        self.init(code: code, message: code.standardMessage ?? "Error", data: data)
    }

    /// A catalogue error whose `data` is a short explanation: `{"problem": detail}`, the shape
    /// every error's `data` has (README, "Error codes").
    public init(_ code: ErrorCode, detail: String) {
        self.init(code, data: .object(["problem": .string(detail)]))
    }

    public static func invalidPayloads(valid: [Bool]) -> RPCError {
        RPCError(.invalidPayloads, data: .object(["valid": .array(valid.map(JSONValue.bool))]))
    }

    /// -32000: a reply of `bytes` would exceed the `limit` the browsers accept.
    public static func responseTooLarge(bytes: Int, limit: Int) -> RPCError {
        RPCError(
            .responseTooLarge,
            data: .object(["bytes": .number(JSONNumber(bytes)), "limit": .number(JSONNumber(limit))]))
    }

    /// The `error` member of a response.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "code": .number(JSONNumber(code.rawValue)),
            "message": .string(message),
        ]
        if let data { members["data"] = data }
        return .object(members)
    }
}

extension RPCError {
    /// -32602 naming the member of the params that is wrong (`field`, a path such as
    /// `params.origin`) and what is wrong with it (`problem`), as `data`.
    package static func invalidParams(_ field: String, _ problem: String) -> RPCError {
        RPCError(.invalidParams, data: .object(["field": .string(field), "problem": .string(problem)]))
    }
}
