/// A request object that passed JSON-RPC 2.0 validation.
public struct Request: Sendable, Hashable {
    /// Nil for a notification, which is never answered.
    public var id: RequestID?
    public var method: String
    /// An object or an array; nil when the request had no `params` member.
    public var params: JSONValue?

    public var isNotification: Bool { id == nil }

    public init(id: RequestID?, method: String, params: JSONValue?) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// What one element of a request (or one entry of a batch) turned out to be.
    package enum Parsed: Sendable, Hashable {
        case request(Request)
        /// Not a valid request. `id` is the request's own id when it could be read, else null.
        case invalid(id: RequestID, reason: String)
    }

    /// Validates one request object against section 4 of the JSON-RPC 2.0 specification.
    package static func parse(_ value: JSONValue) -> Parsed {
        guard case .object(let members) = value else { return parse(.other(value)) }
        return parse(
            .object(
                Envelope(
                    jsonrpc: members["jsonrpc"], id: members["id"], method: members["method"], params: members["params"]
                )))
    }

    /// `parse(_:)` for what `JSONParser.parseRequestDocument` read.
    package static func parse(_ element: RequestElement) -> Parsed {
        let members: Envelope
        switch element {
        case .object(let envelope): members = envelope
        case .other(let value): return .invalid(id: .null, reason: "a request must be an object, not \(value.typeName)")
        }
        var id: RequestID?
        if let rawID = members.id {
            guard let parsedID = RequestID(rawID) else {
                return .invalid(id: .null, reason: "id must be a string, a number or null, not \(rawID.typeName)")
            }
            id = parsedID
        }
        let idForErrors = id ?? .null
        guard members.jsonrpc == .string("2.0") else {
            return .invalid(id: idForErrors, reason: "jsonrpc must be exactly \"2.0\"")
        }
        guard let rawMethod = members.method else {
            return .invalid(id: idForErrors, reason: "method is missing")
        }
        guard case .string(let method) = rawMethod else {
            return .invalid(id: idForErrors, reason: "method must be a string, not \(rawMethod.typeName)")
        }
        let params = members.params
        switch params {
        case nil, .object?, .array?: break
        case let other?:
            return .invalid(id: idForErrors, reason: "params must be an object or an array, not \(other.typeName)")
        }
        return .request(Request(id: id, method: method, params: params))
    }
}

extension Request {
    /// The request's frame body, as a client sends it.
    package var encoded: [UInt8] {
        var params: [UInt8]?
        if let value = self.params {
            var bytes: [UInt8] = []
            JSONWriter.write(value, into: &bytes)
            params = bytes
        }
        return Self.encode(id: id, method: method, encodedParams: params)
    }

    /// A request body from its parts: `id` nil for a notification, `params` nil for none (an
    /// object or an array otherwise, which the caller has checked).
    package static func encode(id: RequestID?, method: String, params: JSONValue?) -> [UInt8] {
        Request(id: id, method: method, params: params).encoded
    }

    /// A request body whose params are already JSON (`encodedParams`, nil for none): what a
    /// client with a method's `Encodable` params sends without building a `JSONValue` first.
    /// Written into one buffer sized up front.
    package static func encode(id: RequestID?, method: String, encodedParams: [UInt8]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + method.utf8.count + (encodedParams?.count ?? 0))
        out.append(contentsOf: #"{"jsonrpc":"2.0","#.utf8)
        if let id {
            out.append(contentsOf: #""id":"#.utf8)
            JSONWriter.write(id.jsonValue, into: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: #""method":"#.utf8)
        JSONWriter.writeString(method, into: &out)
        if let encodedParams {
            out.append(contentsOf: #","params":"#.utf8)
            out.append(contentsOf: encodedParams)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
