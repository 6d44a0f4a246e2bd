/// A host's description of itself: an OpenRPC document (spec.open-rpc.org), what `rpc.discover`
/// answers. Version 1.2.6 of the specification, the newest whose meta-schema is published
/// where the tests can reach it (PyPI); our documents use nothing that 1.3 changed.
///
/// Beyond the specification, in its `x-` extension space:
/// - `x-params-schema` on a method: the JSON Schema of the whole `params` value. The content
///   descriptors in `params` say each member; this says what they cannot (a variadic list, any
///   JSON, both forms of an `either` method as an `anyOf`) and carries the Swift type's name as
///   `title`. Absent for a method that takes none.
/// - `x-params-optional: true`: the whole `params` may be left out (`Params = Inner?`).
/// - `x-derivation-problems`: where a schema could not be derived from the Swift types, so that
///   a tool can say the description is incomplete rather than trust it.
public enum OpenRPC {
    public static let specificationVersion = "1.2.6"
    /// The method name the OpenRPC specification reserves for the document itself.
    public static let discoverMethod = "rpc.discover"

    /// The document's `info`: what the host is called and its version.
    public struct Info: Sendable, Hashable {
        public var title: String
        public var version: String
        public var description: String?
        public init(title: String, version: String, description: String? = nil) {
            (self.title, self.version, self.description) = (title, version, description)
        }

        var json: JSONValue {
            var info: [String: JSONValue] = ["title": .string(title), "version": .string(version)]
            if let description { info["description"] = .string(description) }
            return .object(info)
        }
    }

    /// The whole document for `methods` (method objects from `method(_:)`), in name order.
    public static func document(info: Info, methods: [JSONValue]) -> JSONValue {
        let sorted = methods.sorted {
            ($0.objectValue?["name"]?.stringValue ?? "") < ($1.objectValue?["name"]?.stringValue ?? "")
        }
        return ["openrpc": .string(specificationVersion), "info": info.json, "methods": .array(sorted)]
    }

    /// `method` with `errors` added to its own, where its own lack their codes: the refusals of
    /// a check that runs before every method (`Router.authorize`).
    public static func adding(_ errors: [RPCError], to method: JSONValue) -> JSONValue {
        guard !errors.isEmpty, case .object(var object) = method else { return method }
        var listed = object["errors"]?.arrayValue ?? []
        for error in errors where !listed.contains(where: { $0.objectValue?["code"]?.intValue == error.code.rawValue })
        {
            listed.append(error.jsonValue)
        }
        object["errors"] = .array(listed)
        return .object(object)
    }

    /// The method object for `M`: its params as content descriptors, its result and its errors.
    public static func method<M: RPCMethod>(_: M.Type) -> JSONValue {
        var object: [String: JSONValue] = ["name": .string(M.name)]
        if let summary = M.summary { object["summary"] = .string(summary) }
        var problems: [String] = []

        // A method that states its params schema reads them by hand (`Params = JSONValue?`, say),
        // so whether they may be left out is not in its type: its schema says what `{}` may be,
        // which is how a missing `params` is read.
        let params =
            M.paramsSchema.map(ParamsDescription.init(given:))
            ?? ParamsDescription(derived: JSONSchemaDerivation.params(M.Params.self))
        object["paramStructure"] = .string(params.structure.rawValue)
        object["params"] = .array(
            params.descriptors.map { member in
                [
                    "name": .string(member.name), "required": .bool(member.required && !params.optional),
                    "schema": member.schema,
                ]
            })
        if let whole = params.schema { object["x-params-schema"] = whole }
        if params.optional { object["x-params-optional"] = true }
        problems += params.problems.map { "params: \($0)" }

        let result: JSONValue
        if let given = M.resultSchema {
            result = given
        } else {
            let derived = JSONSchemaDerivation.resultSchema(for: M.Result.self)
            result = derived.schema
            problems += derived.problems.map { "result: \($0)" }
        }
        object["result"] = ["name": .string(result.objectValue?["title"]?.stringValue ?? "result"), "schema": result]

        object["errors"] = .array(M.errors.map(\.jsonValue))
        if !problems.isEmpty { object["x-derivation-problems"] = .array(problems.map(JSONValue.string)) }
        return .object(object)
    }
}

/// A method's params as the document states them.
private struct ParamsDescription {
    var structure: JSONSchemaDerivation.ParamStructure
    var descriptors: [JSONSchemaDerivation.Member]
    /// `x-params-schema`.
    var schema: JSONValue?
    var optional = false
    var problems: [String] = []

    init(derived shape: JSONSchemaDerivation.ParamsShape) {
        structure = shape.structure
        descriptors = shape.structure == .byPosition ? shape.positional : shape.named
        schema = shape.schema
        optional = shape.allOptional
        problems = shape.problems
    }

    /// From a method's own `paramsSchema`: an object schema's properties are by name, an array
    /// schema's `items` (as a list) by position; anything else has no descriptors.
    init(given schema: JSONValue) {
        self.schema = schema
        let members = schema.objectValue ?? [:]
        let required = Set(members["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        if members["type"] == "object", let properties = members["properties"]?.objectValue {
            structure = .byName
            descriptors = properties.keys.sorted().map {
                .init(name: $0, schema: properties[$0]!, required: required.contains($0))
            }
        } else if members["type"] == "array", let positions = members["items"]?.arrayValue {
            structure = .byPosition
            let minimum = members["minItems"]?.intValue ?? 0
            descriptors = positions.enumerated().map { index, schema in
                .init(
                    name: schema.objectValue?["title"]?.stringValue ?? "param\(index + 1)", schema: schema,
                    required: index < minimum)
            }
        } else {
            structure = members["type"] == "array" ? .byPosition : .either
            descriptors = []
        }
    }
}
