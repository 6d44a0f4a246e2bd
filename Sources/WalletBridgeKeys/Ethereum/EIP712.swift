import WalletBridgeProtocol

/// Typed structured data (EIP-712) as `eth_signTypedData_v4` receives it, checked and hashed:
/// the digest a signature covers, and what a person should read before signing it.
///
/// It hashes as eth-account (0.14) and MetaMask's eth-sig-util (v4) do, where they agree, and is
/// stricter where they are lenient: values must be spelled as their type says (no `"yes"` for a
/// bool, no text for bytes), fixed arrays and fixed bytes must have their exact length, and no
/// declared field may be missing. Where they differ, it follows the EIP and eth-sig-util: the
/// domain is hashed as `types.EIP712Domain` declares it (eth-account reorders and restricts it),
/// `primaryType` is taken as given (eth-account insists on the one type no other refers to), and
/// a `primaryType` of `EIP712Domain` signs the domain alone. Layout: the type grammar and
/// encodeType in EIP712Types.swift, hashStruct in EIP712Encoding.swift, integers in
/// EIP712Integer.swift.
package struct TypedData: Sendable {
    /// The standard fields of a domain, those `types.EIP712Domain` declares, for the consent
    /// dialog: a field the domain holds but the type does not declare is not signed, so is not here.
    package struct Domain: Sendable, Equatable {
        package var name: String?
        package var version: String?
        /// In decimal.
        package var chainId: String?
        /// EIP-55.
        package var verifyingContract: String?
        /// `0x` and 64 lowercase hex digits.
        package var salt: String?

        package init(
            name: String? = nil, version: String? = nil, chainId: String? = nil, verifyingContract: String? = nil,
            salt: String? = nil
        ) {
            self.name = name
            self.version = version
            self.chainId = chainId
            self.verifyingContract = verifyingContract
            self.salt = salt
        }
    }

    // Bounds on what one request may ask to be hashed: real typed data has a handful of types of
    // a few fields, nested two or three deep, and at most some hundreds of values (a batch of
    // orders). These are far above that and keep a hostile request's work small; the bytes of
    // values are bounded by the host's message size, and cost one keccak256 pass.

    /// Types in `types`, `EIP712Domain` included.
    package static let maxTypes = 64
    /// Fields of one type.
    package static let maxFields = 64
    /// Structs and arrays within one another, the message (or domain) itself the first: a type
    /// may refer to itself (a tree), and only the data, which is finite, ends the nesting.
    package static let maxDepth = 16
    /// Structs, arrays and elementary values of the domain and the message together.
    package static let maxValues = 65_536
    /// The type names, field names and field types of `types` together, in UTF-8 bytes: bounds
    /// encodeType, which lists a type's dependencies in full, for each type used.
    package static let maxTypesBytes = 65_536
    /// JSON nesting of typed data sent as a string: `maxDepth` levels of data, and the few of
    /// the document and of `types` around them.
    package static let maxJSONDepth = 64

    /// The type of `message`, a key of `types`.
    package let primaryType: String
    package let domain: Domain
    /// hashStruct("EIP712Domain", domain).
    package let domainSeparator: [UInt8]
    /// hashStruct(primaryType, message); nil when `primaryType` is `EIP712Domain`, which signs
    /// the domain alone.
    package let messageHash: [UInt8]?
    private let lines: [(path: String, value: String)]

    /// What is signed: keccak256(0x19 0x01 ‖ domainSeparator ‖ messageHash), without
    /// messageHash when it is nil (as eth-account and eth-sig-util do).
    package var digest: [UInt8] {
        Keccak256.hash([0x19, 0x01] + domainSeparator + (messageHash ?? []))
    }

    /// Reads `value`: the typed data as an object, or as a string of its JSON (MetaMask sends
    /// one). `field` is where it sits in the request ("request.params[1]"), and prefixes the
    /// field of every error: anything malformed is -32602 with `data` `{"field":
    /// "request.params[1].message.to.wallet", "problem": "…"}`. Checks `types` whole, then
    /// `primaryType`, then the domain and then the message, each field in type order.
    package init(parsing value: JSONValue, field: String) throws(RPCError) {
        let document = try Self.document(value, field: field)
        let types = try EIP712Types(parsing: document["types"], field: "\(field).types")
        guard case .string(let primaryType)? = document["primaryType"] else {
            throw Self.invalid("\(field).primaryType", "required: the name of the message's type, a string")
        }
        guard types.structs[primaryType] != nil else {
            let shown =
                Self.isIdentifier(Substring(primaryType)) && primaryType.utf8.count <= 64 ? " \(primaryType)" : ""
            throw Self.invalid("\(field).primaryType", "no type\(shown) is defined in types")
        }
        guard let domainValue = document["domain"] else {
            throw Self.invalid("\(field).domain", "required: an object of the domain's fields")
        }
        guard let messageValue = document["message"] else {
            throw Self.invalid("\(field).message", "required: an object of the message's fields")
        }

        var encoder = EIP712Encoder(types: types)
        domainSeparator = try encoder.hashStruct(
            "EIP712Domain", domainValue, at: EIP712Place(root: "\(field).domain"), depth: 1)
        let domainLines = encoder.lines
        let standard = { (name: String) in domainLines.first { $0.path == name }?.value }
        domain = Domain(
            name: standard("name"), version: standard("version"), chainId: standard("chainId"),
            verifyingContract: standard("verifyingContract"), salt: standard("salt"))
        self.primaryType = primaryType
        if primaryType == "EIP712Domain" {
            // The message is not hashed, but is still asked to be an object, as MetaMask's
            // schema asks; what a person reads is then the domain, which is what is signed.
            guard case .object = messageValue else {
                throw Self.invalid("\(field).message", "expected an object, found \(messageValue.typeName)")
            }
            messageHash = nil
            lines = domainLines
        } else {
            encoder.lines = []
            messageHash = try encoder.hashStruct(
                primaryType, messageValue, at: EIP712Place(root: "\(field).message"), depth: 1)
            lines = encoder.lines
        }
    }

    /// The message's fields flattened depth-first in type order, for a person to read. Paths
    /// are like `to.wallet`, `contents`, `items[2].amount`, `matrix[0][1]`; values are text:
    /// integers in decimal, addresses EIP-55, bytes as 0x-hex, strings as given, bools
    /// true/false. An array of elementary values gives one line per element; an empty array
    /// one line, `[]`, and a struct with no fields `{}`, so that no field goes unseen. When
    /// `primaryType` is `EIP712Domain`, these are the domain's fields, which are then the
    /// whole of what is signed.
    package func flattenedMessage() -> [(path: String, value: String)] {
        lines
    }

    /// The document: `value` itself, or the JSON that the string `value` holds.
    private static func document(_ value: JSONValue, field: String) throws(RPCError) -> [String: JSONValue] {
        var document = value
        if case .string(let text) = value {
            do throws(JSONParseError) {
                document = try JSONParser.parse(Array(text.utf8), maxDepth: maxJSONDepth)
            } catch {
                throw invalid(field, "a string of typed data must be JSON: \(error)")
            }
        }
        guard case .object(let members) = document else {
            throw invalid(
                field,
                "expected typed data: an object of types, primaryType, domain and message, or a string of its JSON; found \(document.typeName)"
            )
        }
        return members
    }

    /// -32602 naming the faulty `field`.
    static func invalid(_ field: String, _ problem: String) -> RPCError { .invalidParams(field, problem) }

    /// `[A-Za-z_$][A-Za-z0-9_$]*`: Solidity's identifiers, and so the only type and field
    /// names that a contract's type hash can have.
    static func isIdentifier(_ name: Substring) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"), UInt8(ascii: "$"):
                true
            default: false
            }
        }
    }

    /// Byte order, as eth-account (code points) and eth-sig-util (UTF-16 units) sort type names:
    /// all three agree on identifiers, which are ASCII.
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }
}

/// The typed-data parser's entry for the fuzzers (fuzz/), which live in a package of their own
/// and so cannot see `package` declarations. Not API: `@_spi(Fuzzing) import` only.
@_spi(Fuzzing) public enum TypedDataFuzzing {
    /// Parses `bytes` as JSON and then as typed data, flattens its message, and returns its
    /// digest; nil when the bytes are not valid typed data.
    public static func digestIfValid(_ bytes: [UInt8]) -> [UInt8]? {
        guard let value = try? JSONParser.parse(bytes, maxDepth: TypedData.maxJSONDepth),
            let typedData = try? TypedData(parsing: value, field: "typedData")
        else { return nil }
        _ = typedData.flattenedMessage()
        return typedData.digest
    }

    /// Whether typed data sent as a string of its JSON (as MetaMask sends it) reads the same as
    /// sent as an object: the same digest, or refused with the same error. Nil when `bytes`
    /// are not a JSON object.
    public static func stringFormAgrees(_ bytes: [UInt8]) -> Bool? {
        guard let value = try? JSONParser.parse(bytes, maxDepth: TypedData.maxJSONDepth), case .object = value else {
            return nil
        }
        let asObject = Result { () throws(RPCError) in try TypedData(parsing: value, field: "typedData").digest }
        let asString = Result { () throws(RPCError) in
            try TypedData(parsing: .string(value.compactText), field: "typedData").digest
        }
        switch (asObject, asString) {
        case (.success(let left), .success(let right)): return left == right
        case (.failure(let left), .failure(let right)): return left == right
        default: return false
        }
    }
}
