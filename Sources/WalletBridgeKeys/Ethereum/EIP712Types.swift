import WalletBridgeProtocol

/// A field's type in EIP-712: an atomic type (one 32-byte word), a dynamic one (`bytes`,
/// `string`: hashed), a reference to a struct of `types`, or an array of any of these.
package indirect enum EIP712FieldType: Equatable, Sendable {
    case bool
    case address
    /// uintN (`signed` false) and intN: N is 8 to 256, a multiple of 8.
    case integer(bits: Int, signed: Bool)
    /// bytes1 to bytes32.
    case fixedBytes(Int)
    case bytes
    case string
    case structure(String)
    /// `T[]` (`length` nil) or `T[k]`.
    case array(EIP712FieldType, length: Int?)
}

extension EIP712FieldType {
    /// The atomic or dynamic type spelled `name`, or nil.
    static func elementary(_ name: Substring) -> EIP712FieldType? {
        switch name {
        case "bool": return .bool
        case "address": return .address
        case "bytes": return .bytes
        case "string": return .string
        default: break
        }
        // Canonical spellings only (`uint08` is not uint8): the text goes into encodeType as written.
        if let size = sizeSuffix(name, after: "bytes"), (1...32).contains(size), name == "bytes\(size)" {
            return .fixedBytes(size)
        }
        for (prefix, signed) in [("uint", false), ("int", true)] {
            if let bits = sizeSuffix(name, after: prefix), bits % 8 == 0, (8...256).contains(bits),
                name == "\(prefix)\(bits)"
            {
                return .integer(bits: bits, signed: signed)
            }
        }
        return nil
    }

    /// True for a name that is, or reads like, an elementary type: `uint`, `int`, `uint7`,
    /// `bytes33`. No struct may take such a name, and as a field's type each is refused, not
    /// looked up among the structs: a reader would take `uint` for uint256, which it is not in
    /// encodeType (and so in no contract's type hash).
    static func looksElementary(_ name: Substring) -> Bool {
        if ["bool", "address", "bytes", "string", "uint", "int"].contains(name) { return true }
        return ["bytes", "uint", "int"].contains { sizeSuffix(name, after: $0) != nil }
    }

    /// The number after `prefix` when `name` is `prefix` and 1 to 4 decimal digits; else nil.
    private static func sizeSuffix(_ name: Substring, after prefix: String) -> Int? {
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count)
        guard (1...4).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// Reads a field's type as written (`Person`, `uint256[]`, `bytes32[2][]`): an elementary
    /// type or one of `structs`, then at most `maxDimensions` of `[]` or `[k]`, nothing else (no
    /// space: the text goes into encodeType as written, and a contract's type hash has none).
    /// Problems are thrown as -32602 on `field`.
    static func parse(_ text: String, structs: Set<String>, maxDimensions: Int, maxLength: Int, field: String)
        throws(RPCError) -> EIP712FieldType
    {
        let base = text.prefix { $0 != "[" }
        var type: EIP712FieldType
        if let elementary = elementary(base) {
            type = elementary
        } else if base == "uint" || base == "int" {
            throw TypedData.invalid(field, "\(base) is not accepted: write \(base)256, as a contract's type hash does")
        } else if looksElementary(base) {
            throw TypedData.invalid(
                field,
                "\(base) is not a type: integers are uint8 to uint256 and int8 to int256 in steps of 8, fixed bytes bytes1 to bytes32"
            )
        } else if TypedData.isIdentifier(base) {
            guard structs.contains(String(base)) else {
                throw TypedData.invalid(field, "no type \(base) is defined in types")
            }
            type = .structure(String(base))
        } else {
            throw TypedData.invalid(
                field, "a type is an elementary type or a name from types, then [] or [k] for arrays")
        }
        var rest = text[base.endIndex...]
        var dimensions = 0
        while !rest.isEmpty {
            guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                throw TypedData.invalid(field, "after the type's name only [] or [k] may follow")
            }
            let digits = rest[rest.index(after: rest.startIndex)..<close]
            var length: Int?
            if !digits.isEmpty {
                guard digits.count <= 6, digits.first != "0", digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                    let count = Int(digits), count <= maxLength
                else {
                    throw TypedData.invalid(
                        field, "a fixed array's length is 1 to \(maxLength), in decimal without leading zeros")
                }
                length = count
            }
            dimensions += 1
            guard dimensions <= maxDimensions else {
                throw TypedData.invalid(field, "at most \(maxDimensions) array dimensions")
            }
            type = .array(type, length: length)
            rest = rest[rest.index(after: close)...]
        }
        return type
    }

    /// The struct this type refers to, through any arrays; nil for elementary types.
    var structName: String? {
        switch self {
        case .structure(let name): name
        case .array(let element, _): element.structName
        default: nil
        }
    }
}

/// One member of a struct type: its name, its type as written (for encodeType) and as read.
package struct EIP712Member: Sendable {
    package let name: String
    package let typeText: String
    package let type: EIP712FieldType
}

/// The `types` of typed data, checked: every type and field named by an identifier, every
/// field's type elementary or defined, within the bounds of `TypedData`. Types no one uses are
/// checked too, so that a request is refused or accepted on its whole text.
package struct EIP712Types: Sendable {
    package let structs: [String: [EIP712Member]]

    /// The standard domain fields with the type each must be declared with: a `chainId` that is
    /// a string, say, would be shown as a chain id while no contract's domain matches it.
    static let domainFieldTypes = [
        "name": "string", "version": "string", "chainId": "uint256",
        "verifyingContract": "address", "salt": "bytes32",
    ]

    /// Reads `types` (the member `field`, "request.params[1].types").
    init(parsing value: JSONValue?, field: String) throws(RPCError) {
        guard let value else { throw TypedData.invalid(field, "required: an object of type name to fields") }
        guard case .object(let members) = value else {
            throw TypedData.invalid(field, "expected an object of type name to fields, found \(value.typeName)")
        }
        guard members.count <= TypedData.maxTypes else {
            throw TypedData.invalid(field, "at most \(TypedData.maxTypes) types, not \(members.count)")
        }
        let names = members.keys.sorted(by: TypedData.precedes)
        for name in names {
            guard TypedData.isIdentifier(Substring(name)) else {
                throw TypedData.invalid(field, "a type name must be an identifier ([A-Za-z_$][A-Za-z0-9_$]*)")
            }
            guard !EIP712FieldType.looksElementary(Substring(name)) else {
                throw TypedData.invalid("\(field).\(name)", "an elementary type's name cannot name a struct")
            }
        }
        var structs: [String: [EIP712Member]] = [:]
        var budget = TypedData.maxTypesBytes
        let known = Set(names)
        for name in names {
            budget -= name.utf8.count
            guard budget >= 0 else {
                throw TypedData.invalid(field, "the names in types may total at most \(TypedData.maxTypesBytes) bytes")
            }
            structs[name] = try Self.members(members[name]!, field: "\(field).\(name)", structs: known, budget: &budget)
        }
        guard let domain = structs["EIP712Domain"] else {
            throw TypedData.invalid(
                "\(field).EIP712Domain",
                "required: the fields of the domain, a subset of name, version, chainId, verifyingContract and salt")
        }
        for (index, member) in domain.enumerated() {
            if let standard = Self.domainFieldTypes[member.name], member.typeText != standard {
                throw TypedData.invalid(
                    "\(field).EIP712Domain[\(index)].type", "the domain's \(member.name) is a \(standard)")
            }
        }
        self.structs = structs
    }

    /// The fields of one type: an array of `{name, type}`.
    private static func members(_ value: JSONValue, field: String, structs: Set<String>, budget: inout Int)
        throws(RPCError) -> [EIP712Member]
    {
        guard case .array(let entries) = value else {
            throw TypedData.invalid(field, "expected an array of {name, type}, found \(value.typeName)")
        }
        guard entries.count <= TypedData.maxFields else {
            throw TypedData.invalid(field, "at most \(TypedData.maxFields) fields, not \(entries.count)")
        }
        var result: [EIP712Member] = []
        for (index, entry) in entries.enumerated() {
            let entryField = "\(field)[\(index)]"
            guard case .object(let pair) = entry else {
                throw TypedData.invalid(entryField, "expected an object {name, type}, found \(entry.typeName)")
            }
            guard case .string(let name)? = pair["name"] else {
                throw TypedData.invalid("\(entryField).name", "required: the field's name, a string")
            }
            guard case .string(let typeText)? = pair["type"] else {
                throw TypedData.invalid("\(entryField).type", "required: the field's type, a string")
            }
            budget -= name.utf8.count + typeText.utf8.count
            guard budget >= 0 else {
                throw TypedData.invalid(
                    entryField, "the names in types may total at most \(TypedData.maxTypesBytes) bytes")
            }
            guard TypedData.isIdentifier(Substring(name)) else {
                throw TypedData.invalid(
                    "\(entryField).name", "a field name must be an identifier ([A-Za-z_$][A-Za-z0-9_$]*)")
            }
            guard !result.contains(where: { $0.name == name }) else {
                throw TypedData.invalid("\(entryField).name", "\(name) is listed twice")
            }
            let type = try EIP712FieldType.parse(
                typeText, structs: structs, maxDimensions: TypedData.maxDepth,
                maxLength: TypedData.maxValues, field: "\(entryField).type")
            result.append(EIP712Member(name: name, typeText: typeText, type: type))
        }
        return result
    }

    /// encodeType: `name` and then every type it refers to, through arrays and transitively,
    /// sorted by name, each as `Name(type1 name1,type2 name2)`. A type that refers to itself,
    /// directly or through others, is listed once: the walk keeps the names it has seen.
    package func encodeType(_ name: String) -> String {
        var seen: Set<String> = [name]
        var pending = [name]
        while let next = pending.popLast() {
            for member in structs[next] ?? [] {
                if let referenced = member.type.structName, seen.insert(referenced).inserted {
                    pending.append(referenced)
                }
            }
        }
        seen.remove(name)
        return ([name] + seen.sorted(by: TypedData.precedes)).map { type in
            "\(type)(" + (structs[type] ?? []).map { "\($0.typeText) \($0.name)" }.joined(separator: ",") + ")"
        }.joined()
    }
}
