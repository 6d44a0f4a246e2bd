/// Builds response bodies as bytes. Results arrive already encoded (by the method's
/// `Encodable` result), so they are spliced in rather than parsed and re-serialised.
package enum Response {
    package static func success(id: RequestID, encodedResult: [UInt8]) -> [UInt8] {
        success(id: id) { $0.append(contentsOf: encodedResult) }
    }

    /// A success response whose result `writeResult` appends in place.
    package static func success(id: RequestID, writingResult writeResult: (inout [UInt8]) throws -> Void) rethrows
        -> [UInt8]
    {
        var out: [UInt8] = []
        out.reserveCapacity(256)  // most results are small: one allocation instead of five
        out.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        JSONWriter.write(id.jsonValue, into: &out)
        out.append(contentsOf: #","result":"#.utf8)
        try writeResult(&out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    package static func failure(id: RequestID, error: RPCError) -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"jsonrpc":"2.0","id":"#.utf8)
        JSONWriter.write(id.jsonValue, into: &out)
        out.append(contentsOf: #","error":"#.utf8)
        JSONWriter.write(error.jsonValue, into: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A batch reply: the elements' bodies joined into one array.
    package static func batch(_ elements: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(elements.reduce(2) { $0 + $1.count + 1 })
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: element)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}

extension Response {
    /// A response as a client reads it: the id it answers, and its result or error.
    package struct Parsed: Sendable, Equatable {
        package var id: RequestID
        package var outcome: Outcome

        package enum Outcome: Sendable, Equatable {
            case result(JSONValue)
            case error(RPCError)
        }
    }

    /// Why a body is not a response.
    package enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Longer than the reader accepts; not parsed.
        case tooLarge(bytes: Int, limit: Int)
        /// Not JSON at all.
        case notJSON(String)
        /// JSON, but not a JSON-RPC 2.0 response object (section 5); says which rule it breaks.
        case notResponse(String)

        /// The rule broken, without the words around it.
        package var reason: String {
            switch self {
            case .tooLarge(let bytes, let limit): "\(bytes) bytes, over the limit of \(limit)"
            case .notJSON(let reason), .notResponse(let reason): reason
            }
        }

        package var description: String {
            switch self {
            case .tooLarge(let bytes, let limit): "the response is \(bytes) bytes, over the limit of \(limit)"
            case .notJSON(let reason): "the response is not JSON (\(reason))"
            case .notResponse(let reason): "the response is not a JSON-RPC 2.0 response (\(reason))"
            }
        }
    }

    /// Browsers' own cap on a message from a host: a client reads no longer reply.
    package static let defaultMaxParsedBytes = 1_048_576

    /// Reads one response object (JSON-RPC 2.0, section 5): `"jsonrpc": "2.0"`, an id that is
    /// a string, a number or null, and exactly one of `result` and `error`, an error being an
    /// object with an integer `code`, a string `message` and any `data`. Members the
    /// specification does not name are let pass, as extensions' client libraries let them.
    package static func parse(_ body: [UInt8], maxBytes: Int = defaultMaxParsedBytes) throws(ParseError) -> Parsed {
        guard body.count <= maxBytes else { throw .tooLarge(bytes: body.count, limit: maxBytes) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            throw .notJSON(error.description)
        }
        return try parse(value)
    }

    /// `parse(_:maxBytes:)` for a value already parsed.
    package static func parse(_ value: JSONValue) throws(ParseError) -> Parsed {
        guard case .object(let members) = value else {
            throw .notResponse(
                "a response is an object, this is \(value.typeName == "array" ? "an array" : "a \(value.typeName)")")
        }
        guard members["jsonrpc"] == .string("2.0") else { throw .notResponse("\"jsonrpc\" must be \"2.0\"") }
        guard let rawID = members["id"], let id = RequestID(rawID) else { throw .notResponse("no valid \"id\"") }
        switch (members["result"], members["error"]) {
        case (let result?, nil):
            return Parsed(id: id, outcome: .result(result))
        case (nil, .object(let error)?):
            guard case .number(let number)? = error["code"], let code = Int(number.literal) else {
                throw .notResponse("error.code must be an integer")
            }
            guard case .string(let message)? = error["message"] else {
                throw .notResponse("error.message must be a string")
            }
            return Parsed(
                id: id,
                outcome: .error(RPCError(code: ErrorCode(rawValue: code), message: message, data: error["data"])))
        case (nil, _?):
            throw .notResponse("\"error\" must be an object")
        case (_?, _?):
            throw .notResponse("both \"result\" and \"error\"")
        case (nil, nil):
            throw .notResponse("neither \"result\" nor \"error\"")
        }
    }
}
