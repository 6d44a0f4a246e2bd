import WalletBridgeProtocol

/// Where a value sits: `root` is the member of the request that holds the top-level struct
/// ("request.params[1].message"), `path` the way down from it ("items[2].amount"), which is
/// also what a person reads in the flattened message.
struct EIP712Place {
    let root: String
    var path = ""

    /// The field an error names.
    var field: String { path.isEmpty ? root : "\(root).\(path)" }

    func member(_ name: String) -> EIP712Place {
        EIP712Place(root: root, path: path.isEmpty ? name : "\(path).\(name)")
    }
    func element(_ index: Int) -> EIP712Place { EIP712Place(root: root, path: "\(path)[\(index)]") }
}

/// hashStruct and encodeData of EIP-712 over checked `types`, with the bounds that keep a
/// hostile request's work small, writing every value it encodes as a line for a person too.
struct EIP712Encoder {
    let types: EIP712Types
    /// The values encoded since this was last emptied, depth-first in type order.
    var lines: [(path: String, value: String)] = []
    private var typeHashes: [String: [UInt8]] = [:]
    /// Shared by the domain and the message: a struct, an array and an elementary value each
    /// take one.
    private var valuesLeft = TypedData.maxValues

    init(types: EIP712Types) {
        self.types = types
    }

    /// hashStruct(`name`, `value`): keccak256(typeHash ‖ encodeData), encodeData being one
    /// 32-byte word per field in the order `types` declares them. `depth` is this struct's own
    /// level: 1 for the message or the domain.
    ///
    /// Members of `value` that the type does not declare are ignored: eth-account 0.14 and
    /// eth-sig-util do the same, and a contract could not see them anyway. A declared field
    /// that is missing or null is refused. There the two disagree (eth-account signs a zero word
    /// for a missing struct, `string` or `bytes`, eth-sig-util only for a struct) and a
    /// person cannot be shown a value that is not there; a dapp that means zero can send it.
    mutating func hashStruct(_ name: String, _ value: JSONValue, at place: EIP712Place, depth: Int) throws(RPCError)
        -> [UInt8]
    {
        guard depth <= TypedData.maxDepth else {
            throw TypedData.invalid(place.field, "nested deeper than \(TypedData.maxDepth) structs and arrays")
        }
        guard case .object(let members) = value else {
            throw TypedData.invalid(place.field, "expected an object of type \(name), found \(value.typeName)")
        }
        let fields = types.structs[name] ?? []
        if fields.isEmpty, !place.path.isEmpty { lines.append((place.path, "{}")) }
        var data = typeHash(name)
        data.reserveCapacity(32 * (fields.count + 1))
        for field in fields {
            let fieldPlace = place.member(field.name)
            guard let fieldValue = members[field.name], fieldValue != .null else {
                throw TypedData.invalid(fieldPlace.field, "required: a value of type \(field.typeText)")
            }
            data += try encode(field.type, fieldValue, at: fieldPlace, depth: depth + 1)
        }
        return Keccak256.hash(data)
    }

    /// The 32-byte word of one field or array element: elementary values as themselves (left-
    /// padded numbers and addresses, right-padded fixed bytes), `bytes` and `string` by their
    /// keccak256, structs by hashStruct, arrays by `encodeArray`.
    private mutating func encode(_ type: EIP712FieldType, _ value: JSONValue, at place: EIP712Place, depth: Int)
        throws(RPCError) -> [UInt8]
    {
        valuesLeft -= 1
        guard valuesLeft >= 0 else {
            throw TypedData.invalid(place.field, "typed data may hold at most \(TypedData.maxValues) values in all")
        }
        let field = place.field
        let encoded: (word: [UInt8], text: String)
        switch type {
        case .structure(let name):
            return try hashStruct(name, value, at: place, depth: depth)
        case .array(let element, let length):
            return try encodeArray(element, length: length, value, at: place, depth: depth)
        case .bool:
            guard case .bool(let flag) = value else {
                throw TypedData.invalid(field, "expected true or false, found \(value.typeName)")
            }
            encoded = (Self.padded(flag ? [1] : []), flag ? "true" : "false")
        case .address:
            guard case .string(let text) = value, let address = EthereumAddress(text) else {
                throw TypedData.invalid(
                    field, "expected an address: 0x and 40 hex digits, mixed case only as its EIP-55 checksum")
            }
            encoded = (Self.padded(address.bytes), address.description)
        case .integer(let bits, let signed):
            encoded = try EIP712Integer.encode(value, bits: bits, signed: signed, field: field)
        case .fixedBytes(let size):
            let bytes = try Self.hexBytes(value, type: "bytes\(size)", field: field)
            guard bytes.count == size else {
                throw TypedData.invalid(
                    field, "a bytes\(size) is exactly \(size) bytes (\(size * 2) hex digits), not \(bytes.count)")
            }
            encoded = (bytes + [UInt8](repeating: 0, count: 32 - size), Hex.prefixed(bytes))
        case .bytes:
            let bytes = try Self.hexBytes(value, type: "bytes", field: field)
            encoded = (Keccak256.hash(bytes), Hex.prefixed(bytes))
        case .string:
            guard case .string(let text) = value else {
                throw TypedData.invalid(field, "expected a string, found \(value.typeName)")
            }
            encoded = (Keccak256.hash(text.utf8), text)
        }
        lines.append((place.path, encoded.text))
        return encoded.word
    }

    /// An array's word: keccak256 of its elements' words, one after another. `T[k]` must have
    /// exactly k elements (eth-account and eth-sig-util do not check; a contract's `T[k]`
    /// cannot hold any other number, so a request with another is malformed).
    private mutating func encodeArray(
        _ element: EIP712FieldType, length: Int?, _ value: JSONValue, at place: EIP712Place, depth: Int
    ) throws(RPCError) -> [UInt8] {
        guard depth <= TypedData.maxDepth else {
            throw TypedData.invalid(place.field, "nested deeper than \(TypedData.maxDepth) structs and arrays")
        }
        guard case .array(let elements) = value else {
            throw TypedData.invalid(place.field, "expected an array, found \(value.typeName)")
        }
        if let length, elements.count != length {
            throw TypedData.invalid(place.field, "expected \(length) elements, found \(elements.count)")
        }
        // Refused before any is encoded: a huge array would fail on the way anyway.
        guard elements.count <= valuesLeft else {
            throw TypedData.invalid(place.field, "typed data may hold at most \(TypedData.maxValues) values in all")
        }
        if elements.isEmpty { lines.append((place.path, "[]")) }
        var data: [UInt8] = []
        data.reserveCapacity(32 * elements.count)
        for (index, item) in elements.enumerated() {
            data += try encode(element, item, at: place.element(index), depth: depth + 1)
        }
        return Keccak256.hash(data)
    }

    /// keccak256(encodeType(`name`)), worked out once per type.
    private mutating func typeHash(_ name: String) -> [UInt8] {
        if let hash = typeHashes[name] { return hash }
        let hash = Keccak256.hash(types.encodeType(name).utf8)
        typeHashes[name] = hash
        return hash
    }

    /// `bytes` on the left of a 32-byte word, zeros before them.
    private static func padded(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
    }

    /// The bytes of `0x` and an even number of hex digits (`0x` alone is no bytes). eth-account
    /// also takes other strings as their UTF-8; that is refused, since `0x12` and `12` would then
    /// both be bytes and mean different ones.
    private static func hexBytes(_ value: JSONValue, type: String, field: String) throws(RPCError) -> [UInt8] {
        guard case .string(let text) = value, text.hasPrefix("0x"), let bytes = Hex.decode(text.dropFirst(2)) else {
            throw TypedData.invalid(
                field, "expected \(type == "bytes" ? "bytes" : "a \(type)"): 0x and an even number of hex digits")
        }
        return bytes
    }
}
