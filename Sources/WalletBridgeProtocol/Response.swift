/// Builds response bodies as bytes. Results arrive already encoded (by the method's
/// `Encodable` result), so they are spliced in rather than parsed and re-serialised.
package enum Response {
    package static func success(id: RequestID, encodedResult: [UInt8]) -> [UInt8] {
        success(id: id) { $0.append(contentsOf: encodedResult) }
    }

    /// A success response whose result `writeResult` appends in place.
    package static func success(id: RequestID, writingResult writeResult: (inout [UInt8]) throws -> Void) rethrows -> [UInt8] {
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
