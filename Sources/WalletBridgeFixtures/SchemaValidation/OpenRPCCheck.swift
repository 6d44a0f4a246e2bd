import WalletBridge

/// Checks a fixture case against what the host says of itself (`rpc.discover`): a case that
/// succeeds must send params that the method's params schema accepts and get a result that its
/// result schema accepts; a case that fails must get an error code that any call may get or
/// that the method documents. So a fixture that has drifted from the Swift types fails even
/// where the host happens to answer it.
public struct OpenRPCCheck: Sendable {
    /// Codes any call may get, whatever its method documents: JSON-RPC's own (-32700,
    /// -32600 to -32603) and the host's (-32000 to -32005: sizes, timeouts, cancellation, load,
    /// the agent). The rest of the range JSON-RPC leaves to implementations is a developer's
    /// own, as -32050 is the example's, so a method declares it.
    static func isGeneric(_ code: Int) -> Bool {
        code == -32700 || (-32603 ... -32600).contains(code) || (-32005 ... -32000).contains(code)
    }

    public struct NotADocument: Error, CustomStringConvertible {
        public let description: String
    }

    private let document: JSONValue
    private let methods: [String: [String: JSONValue]]
    private let validator: JSONSchemaValidator

    public init(document: JSONValue) throws {
        guard case .object(let members) = document, members["openrpc"]?.stringValue != nil else {
            throw NotADocument(description: "not an OpenRPC document: no \"openrpc\" version string")
        }
        guard let methods = members["methods"]?.arrayValue else {
            throw NotADocument(description: "not an OpenRPC document: no \"methods\" list")
        }
        var byName: [String: [String: JSONValue]] = [:]
        for method in methods {
            guard let object = method.objectValue, let name = object["name"]?.stringValue else {
                throw NotADocument(description: "a method in the OpenRPC document has no \"name\"")
            }
            byName[name] = object
        }
        self.document = document
        self.methods = byName
        validator = JSONSchemaValidator(root: document)
    }

    /// The method names the document lists.
    public var methodNames: [String] { methods.keys.sorted() }

    public func check(request: JSONValue, response: JSONValue) -> (failures: [String], warnings: [String]) {
        // Batches, malformed requests and replies without an id are the host's business, which
        // the reply itself already pins; there is no method to hold them to.
        guard let name = request.objectValue?["method"]?.stringValue, let reply = response.objectValue else {
            return ([], [])
        }
        guard let method = methods[name] else {
            if reply["result"] != nil {
                return (["\(name) answered with a result, but the host's rpc.discover document does not list it"], [])
            }
            return ([], [])
        }
        var failures: [String] = []
        var warnings: [String] = []
        if let problems = method["x-derivation-problems"]?.arrayValue, !problems.isEmpty {
            warnings.append(
                "the host derived \(name)'s schemas only in part, so they were checked only as far as they go: "
                    + problems.compactMap(\.stringValue).joined(separator: "; "))
        }
        if let result = reply["result"] {
            let params = request.objectValue?["params"]
            let schema = paramsSchema(method, forArray: params?.arrayValue != nil)
            failures += paramsProblems(params, schema: schema, method: method)
            if let schema { warnings += unchecked(schema, what: "\(name)'s params schema") }
            if let schema = method["result"]?.objectValue?["schema"] {
                failures += validator.problems(result, against: schema, at: "result")
                warnings += unchecked(schema, what: "\(name)'s result schema")
            }
        } else if let code = reply["error"]?.objectValue?["code"]?.intValue, !Self.isGeneric(code) {
            let documented = method["errors"]?.arrayValue?.compactMap { $0.objectValue?["code"]?.intValue } ?? []
            if !documented.contains(code) {
                let list =
                    documented.isEmpty
                    ? "it documents none" : "it documents \(documented.map(String.init).joined(separator: ", "))"
                failures.append(
                    "error.code \(code) is not among \(name)'s errors in rpc.discover (\(list)); declare it in the method's `errors`"
                )
            }
        }
        return (failures, warnings)
    }

    /// What is wrong with params that the host accepted; `schema` is `paramsSchema` for their form.
    private func paramsProblems(_ params: JSONValue?, schema: JSONValue?, method: [String: JSONValue]) -> [String] {
        let optional = method["x-params-optional"] == .bool(true)
        switch params {
        case nil:
            // Left out: a method that takes none, or optional params, or one whose every member is
            // optional (a missing `params` reads as `{}`).
            guard !optional, let schema else { return [] }
            return validator.problems([:], against: schema, at: "params (left out, so read as {})")
        case .array(let positions)?:
            guard let schema else {
                return positions.isEmpty
                    ? []
                    : [
                        "params: \(method["name"]?.stringValue ?? "the method") takes none, and was given \(positions.count)"
                    ]
            }
            return validator.problems(.array(positions), against: schema, at: "params")
        case let given?:
            guard let schema else {
                return given == .object([:])
                    ? []
                    : [
                        "params: \(method["name"]?.stringValue ?? "the method") takes none, and was given \(given.compactText)"
                    ]
            }
            return validator.problems(given, against: schema, at: "params")
        }
    }

    /// The schema for params given as an array or as an object: the method's whole-params schema
    /// where it applies (`x-params-schema`: one typed `array` or `object` is that form's, one
    /// without a `type`, such as the `anyOf` of both forms, is both), else one built from its
    /// content descriptors, as OpenRPC states params. Nil for a method that takes none.
    private func paramsSchema(_ method: [String: JSONValue], forArray: Bool) -> JSONValue? {
        let whole = method["x-params-schema"]
        let wholeType = whole?.objectValue?["type"]
        let structure = method["paramStructure"]?.stringValue ?? "either"
        let descriptors = (method["params"]?.arrayValue ?? []).compactMap(\.objectValue)
        if let whole, wholeType == nil || forArray == (wholeType == "array") { return whole }
        if descriptors.isEmpty { return whole }
        if forArray {
            // By name only: an array is refused outright.
            if structure == "by-name" { return ["type": "array", "maxItems": 0] }
            let required = descriptors.prefix { $0["required"] == .bool(true) }.count
            return [
                "type": "array", "items": .array(descriptors.map { $0["schema"] ?? [:] }),
                "minItems": .number(JSONNumber(required)),
                "maxItems": .number(JSONNumber(descriptors.count)),
            ]
        }
        if structure == "by-position" { return ["type": "object", "maxProperties": 0] }
        var properties: [String: JSONValue] = [:]
        var required: [JSONValue] = []
        for descriptor in descriptors {
            guard let name = descriptor["name"]?.stringValue else { continue }
            properties[name] = descriptor["schema"] ?? [:]
            if descriptor["required"] == .bool(true) { required.append(.string(name)) }
        }
        return ["type": "object", "properties": .object(properties), "required": .array(required)]
    }

    private func unchecked(_ schema: JSONValue, what: String) -> [String] {
        let keywords = validator.notChecked(in: schema)
        guard !keywords.isEmpty else { return [] }
        return ["\(what) uses \(keywords.sorted().joined(separator: ", ")), which conform does not check"]
    }
}
