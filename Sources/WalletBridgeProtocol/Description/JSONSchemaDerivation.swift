/// A type that states its own JSON Schema, for where derivation from its `Decodable`
/// conformance cannot see the shape (a hand-written `init(from:)` that reads keys it finds at
/// run time, a value checked against a pattern, a recursive type). See `JSONSchemaDerivation`.
public protocol JSONSchemaDescribing {
    /// A JSON Schema (draft-07, the dialect OpenRPC 1.x uses) for the type's JSON form.
    static var jsonSchema: JSONValue { get }
}

/// A type that states its own JSON Schema and gives derivation a value to go on with, for one
/// whose initializer refuses what derivation would feed it (a reader that checks the value).
package protocol JSONSchemaPlaceholding: JSONSchemaDescribing {
    static var schemaPlaceholder: Self { get }
}

/// A type whose derived schema needs what its Swift types cannot say, stated next to its
/// properties: for each member (by its JSON name), JSON Schema keywords that derivation merges
/// into the member's derived schema (a `pattern`, `minLength`/`maxLength`, an `enum`, a
/// `format`, a `description`, an array's `items`), and keywords for the type's own schema (a
/// `title`, a `description`, `maxProperties`). A type read as an array by position names its
/// positions `[0]`, `[1]`, … for the same purpose. A keyword given replaces the derived one of
/// the same name; one given as `null` removes it. A member's keywords go on its own schema, before
/// an optional member is also allowed to be null, unless they allow it themselves (a `type` that
/// lists `"null"`). A member named that the type does not decode
/// is a derivation problem, so a renamed property cannot leave its constraint behind.
///
/// ```swift
/// struct Transfer: Codable, JSONSchemaConstraining {
///     var to: String
///     var memo: String?
///     static var memberConstraints: [String: JSONValue] {
///         ["to": ["pattern": "^0x[0-9a-fA-F]{40}$"], "memo": ["maxLength": 256]]
///     }
/// }
/// ```
public protocol JSONSchemaConstraining {
    /// By member name: keywords merged into that member's derived schema.
    static var memberConstraints: [String: JSONValue] { get }
    /// Keywords merged into the type's own derived schema.
    static var typeConstraints: [String: JSONValue] { get }
}

extension JSONSchemaConstraining {
    public static var memberConstraints: [String: JSONValue] { [:] }
    public static var typeConstraints: [String: JSONValue] { [:] }
}

/// A schema derived from a Swift type, and where derivation fell short.
public struct DerivedSchema: Sendable, Equatable {
    public var schema: JSONValue
    /// Empty when the schema is complete; otherwise what could not be derived, and where.
    public var problems: [String]

    /// A schema given whole (a method's own `paramsSchema`), or derived.
    package init(schema: JSONValue, problems: [String]) { (self.schema, self.problems) = (schema, problems) }
}

/// Derives JSON Schemas from `Decodable` types by decoding them once with a decoder that
/// records what each `init(from:)` asks for instead of reading a document: which keys (and
/// whether through `decodeIfPresent`, so optional), and which type at each. Synthesised
/// conformances, the standard library's types, nested types, optionals, arrays, dictionaries with
/// `String` keys and `CaseIterable` enums with `String` or integer raw values come out exact.
///
/// The limits, all of them reported in `DerivedSchema.problems` rather than guessed at:
/// - a hand-written `init(from:)` is seen only along the path it takes when every key is present
///   and every value is the first of its type (`""`, `0`, `false`); keys it finds with
///   `allKeys` at run time are invisible;
/// - a check the initializer makes beyond types (a non-empty string, a pattern) is not seen, and
///   an initializer that then throws stops the derivation of its type where it threw;
/// - a raw-value enum that is not `CaseIterable` has no instance to go on with;
/// - a recursive type is not unrolled.
/// Such a type conforms to `JSONSchemaDescribing`, or its method supplies `paramsSchema` or
/// `resultSchema` (`RPCMethod`). A type whose members need more than their types say (a
/// pattern, a length) keeps its derived schema and states that (`JSONSchemaConstraining`).
public enum JSONSchemaDerivation {
    /// The schema of `type`'s JSON form.
    public static func schema(for type: any Decodable.Type) -> DerivedSchema {
        schema(for: type, encoded: false)
    }

    /// The schema of a params type's whole value, as `rpc.discover` states it for a method
    /// (`x-params-schema`): by name, by position, or the `anyOf` of both for a type that reads
    /// either; `NoParams`' for a type that takes none.
    public static func paramsSchema(for type: any Decodable.Type) -> DerivedSchema {
        let shape = params(type)
        return DerivedSchema(schema: shape.schema ?? NoParams.jsonSchema, problems: shape.problems)
    }

    /// The schema of `type`'s JSON form as the host writes it: a result. The same as
    /// `schema(for:)`, except that an optional member is not also allowed to be null, since the
    /// synthesised `encode(to:)` leaves a nil member out.
    public static func resultSchema(for type: any Decodable.Type) -> DerivedSchema {
        schema(for: type, encoded: true)
    }

    private static func schema(for type: any Decodable.Type, encoded: Bool) -> DerivedSchema {
        var deriver = Deriver(topLevel: .any)
        deriver.optionalMembersAreNullable = !encoded
        let schema = deriver.derive(type, path: "").schema.json
        return DerivedSchema(schema: schema, problems: deriver.problems)
    }

    /// How a method's params may be given, as JSON-RPC allows: by name (an object), by
    /// position (an array), or either.
    public enum ParamStructure: String, Sendable {
        case byName = "by-name"
        case byPosition = "by-position"
        case either
    }

    /// A params type's shape: its named members in declaration order (by name), its positional
    /// ones (by position), or the whole-params schema when neither list can say it exactly
    /// (a variadic `[Int]`, free-form `JSONValue`).
    struct ParamsShape {
        var structure: ParamStructure
        var named: [Member]
        var positional: [Member]
        /// The schema of the whole params value: the by-name form's, the by-position form's, or
        /// for `either` the `anyOf` of both (titled as the type); nil for a method that takes none.
        var schema: JSONValue?
        var allOptional: Bool
        var problems: [String]
    }

    struct Member {
        var name: String
        var schema: JSONValue
        var required: Bool
    }

    /// Derives the params shape of `type`, trying it once as an object and once as an array: a
    /// hand-written `init(from:)` that takes both (`try? decoder.unkeyedContainer()`, then a
    /// keyed one) shows both.
    static func params(_ type: any Decodable.Type) -> ParamsShape {
        var allOptional = false
        var inner = type
        if let optional = type as? any OptionalDecodable.Type {
            allOptional = true
            inner = optional.wrappedDecodable
        }
        var byName = Deriver(topLevel: .object)
        let named = byName.derive(inner, path: "")
        var byPosition = Deriver(topLevel: .array)
        let positional = byPosition.derive(inner, path: "")

        var shape = ParamsShape(
            structure: .byName, named: [], positional: [], schema: nil, allOptional: allOptional, problems: [])
        let objectMembers = named.schema.members
        let arrayMembers = positional.schema.tupleMembers
        switch (objectMembers, arrayMembers) {
        case (let object?, let tuple?) where object.count == tuple.count:
            // Positions take the names of the members in declaration order. The whole params are
            // either form: the object's title on the pair, so the params keep their type's name.
            shape.structure = .either
            shape.named = object
            shape.positional = zip(object, tuple).map {
                Member(name: $0.name, schema: $1.schema, required: $1.required)
            }
            var byNameForm = named.schema.json.objectValue ?? [:]
            let title = byNameForm.removeValue(forKey: "title")
            var whole: [String: JSONValue] = ["anyOf": [.object(byNameForm), positional.schema.json]]
            if let title { whole["title"] = title }
            shape.schema = .object(whole)
            shape.problems = byName.problems + byPosition.problems
        case (let object?, _):
            shape.structure = .byName
            shape.named = object
            shape.schema = named.schema.json
            shape.problems = byName.problems
        case (nil, let tuple?):
            shape.structure = .byPosition
            shape.positional = tuple.enumerated().map {
                Member(name: "param\($0.offset + 1)", schema: $0.element.schema, required: $0.element.required)
            }
            shape.schema = positional.schema.json
            shape.problems = byPosition.problems
        case (nil, nil):
            // A variadic list, an empty params type, or any JSON: one schema for all the params.
            var whole = Deriver(topLevel: .any)
            let schema = whole.derive(inner, path: "").schema
            let json = schema.json
            if schema.isEmptyParams {
                shape.structure = .either
            } else {
                // Any JSON may be given either way; an array schema (a variadic list) by position.
                shape.structure = json == [:] ? .either : .byPosition
                shape.schema = json
            }
            shape.problems = whole.problems
        }
        return shape
    }
}

// MARK: - The schema as it is recorded

/// A schema under construction. Objects keep their members in the order `init(from:)` asked for
/// them, so by-name params list in declaration order.
indirect enum RecordedSchema {
    /// Any JSON value: nothing was asked for, or the type said so.
    case any
    case given(JSONValue)
    /// `keywords`: what the type's `JSONSchemaConstraining.typeConstraints` add.
    case object(title: String?, members: [RecordedMember], keywords: [String: JSONValue] = [:])
    /// `prefix` positions, then any number of `rest` (nil: no more).
    case array(prefix: [RecordedMember], rest: RecordedSchema?)
    /// A nested container's record, filled after the container was handed out.
    case nested(Record)

    var json: JSONValue {
        switch self {
        case .any:
            return [:]
        case .given(let schema):
            return schema
        case .nested(let record):
            return record.schema.json
        case .object(let title, let members, let keywords):
            var schema: [String: JSONValue] = ["type": "object"]
            if let title { schema["title"] = .string(title) }
            schema["properties"] = .object(
                Dictionary(members.map { ($0.name, $0.valueSchema) }, uniquingKeysWith: { first, _ in first }))
            let required = members.filter(\.required).map { JSONValue.string($0.name) }
            if !required.isEmpty { schema["required"] = .array(required) }
            return RecordedSchema.merging(keywords, into: .object(schema))
        case .array(let prefix, let rest):
            var schema: [String: JSONValue] = ["type": "array"]
            if prefix.isEmpty {
                if let rest { schema["items"] = rest.json }
                return .object(schema)
            }
            // draft-07's tuple form: `items` as an array, then `additionalItems`. Positions after
            // the last one read are ignored by the decoder, as unknown members of an object are
            // (README, "Params and results"), so a fixed-length tuple says `additionalItems: true`.
            schema["items"] = .array(prefix.map(\.valueSchema))
            schema["additionalItems"] = rest?.json ?? true
            let required = prefix.prefix { $0.required }.count
            if required > 0 { schema["minItems"] = .number(JSONNumber(required)) }
            return .object(schema)
        }
    }

    /// The members of an object, resolved.
    var members: [JSONSchemaDerivation.Member]? {
        switch self {
        case .object(_, let members, _): members.map(\.resolved)
        case .nested(let record): record.schema.members
        default: nil
        }
    }

    /// The positions of a fixed-length array (no variadic rest).
    var tupleMembers: [JSONSchemaDerivation.Member]? {
        switch self {
        case .array(let prefix, nil) where !prefix.isEmpty: prefix.map(\.resolved)
        case .nested(let record): record.schema.tupleMembers
        default: nil
        }
    }

    /// `schema` with `keywords` merged in: each replaces the keyword of its name; null removes it.
    static func merging(_ keywords: [String: JSONValue], into schema: JSONValue) -> JSONValue {
        guard !keywords.isEmpty else { return schema }
        var members = schema.objectValue ?? [:]
        for (keyword, value) in keywords { members[keyword] = value == .null ? nil : value }
        return .object(members)
    }

    /// This schema with `type`'s constraints merged in; a member constraint of no member is a
    /// problem (reported at `path`).
    func constrained(by type: any JSONSchemaConstraining.Type, path: String, problems: inout [String]) -> RecordedSchema
    {
        var memberConstraints = type.memberConstraints
        let typeConstraints = type.typeConstraints
        let result: RecordedSchema
        switch self {
        case .object(let title, var members, var keywords):
            for index in members.indices {
                guard
                    let keywords = Self.keywords(
                        of: members[index].name, kind: "member", in: &memberConstraints, type, path, &problems)
                else { continue }
                let derived = members[index].schema.json
                members[index].schema = .given(Self.merging(keywords, into: derived))
                // Keywords whose `type` lists null already say how null is taken: not again.
                if keywords["type"]?.arrayValue?.contains("null") == true { members[index].nullable = false }
            }
            keywords.merge(typeConstraints) { _, given in given }
            result = .object(title: title, members: members, keywords: keywords)
        case .nested(let record):
            return record.schema.constrained(by: type, path: path, problems: &problems)
        case .array(var prefix, let rest) where !prefix.isEmpty:
            // Positions are named `[0]`, `[1]`, … (`RecordingUnkeyedContainer`).
            for index in prefix.indices {
                guard
                    let keywords = Self.keywords(
                        of: prefix[index].name, kind: "position", in: &memberConstraints, type, path, &problems)
                else { continue }
                prefix[index].schema = .given(Self.merging(keywords, into: prefix[index].schema.json))
            }
            result = .given(Self.merging(typeConstraints, into: RecordedSchema.array(prefix: prefix, rest: rest).json))
        default:
            result = .given(Self.merging(typeConstraints, into: json))
        }
        for name in memberConstraints.keys.sorted() {
            problems.append(
                "\(path.isEmpty ? "the value" : path): \(Deriver.name(of: type)) constrains the member \(name), which it does not decode"
            )
        }
        return result
    }

    /// The keywords `type` states for its member or position `name`, taken out of `constraints`
    /// (what is left there afterwards names nothing the type decodes); nil when it states none,
    /// or states something that is not an object of keywords (a problem, said).
    private static func keywords(
        of name: String, kind: String, in constraints: inout [String: JSONValue],
        _ type: any JSONSchemaConstraining.Type, _ path: String, _ problems: inout [String]
    ) -> [String: JSONValue]? {
        guard let constraint = constraints.removeValue(forKey: name) else { return nil }
        guard let keywords = constraint.objectValue else {
            problems.append(
                "\(path.isEmpty ? "the value" : path): \(Deriver.name(of: type))'s constraint of the \(kind) \(name) is not an object of keywords"
            )
            return nil
        }
        return keywords
    }

    var isEmptyParams: Bool {
        if case .given(let schema) = self { return schema == NoParams.jsonSchema }
        return false
    }
}

/// An object member or an array position as recorded.
struct RecordedMember {
    var name: String
    var schema: RecordedSchema
    var required: Bool
    /// Whether an optional member may also be null: when read, not when written (a result).
    var nullable = true

    /// The member's schema as the host takes it: an optional member (`decodeIfPresent`) may also
    /// be null, which the standard decoders read as absent.
    var valueSchema: JSONValue {
        let schema = schema.json
        let null: JSONValue = ["type": "null"]
        guard !required, nullable, schema != [:], schema.objectValue?["anyOf"]?.arrayValue?.contains(null) != true
        else {
            return schema
        }
        return ["anyOf": [schema, null]]
    }

    var resolved: JSONSchemaDerivation.Member { .init(name: name, schema: valueSchema, required: required) }
}

// MARK: - The types derivation knows without decoding

/// Containers whose schema follows from their element's: decoding them would only show an empty
/// container.
protocol SchemaContainer {
    static func recordedSchema(_ deriver: inout Deriver, path: String) -> RecordedSchema
    static var schemaPlaceholder: Self { get }
}

/// `Optional`, seen through a metatype: `Params = Inner?` ("params may be left out"), for the
/// params decoder and for derivation alike.
package protocol OptionalDecodable {
    static var wrappedDecodable: any Decodable.Type { get }
    static var absent: Self { get }
}

extension Optional: OptionalDecodable where Wrapped: Decodable {
    package static var wrappedDecodable: any Decodable.Type { Wrapped.self }
    package static var absent: Self { nil }
}

extension Optional: SchemaContainer where Wrapped: Decodable {
    static func recordedSchema(_ deriver: inout Deriver, path: String) -> RecordedSchema {
        let wrapped = deriver.derive(Wrapped.self, path: path).schema
        if case .any = wrapped { return .any }
        return .given(["anyOf": [wrapped.json, ["type": "null"]]])
    }
    static var schemaPlaceholder: Self { nil }
}

extension Array: SchemaContainer where Element: Decodable {
    static func recordedSchema(_ deriver: inout Deriver, path: String) -> RecordedSchema {
        .array(prefix: [], rest: deriver.derive(Element.self, path: path + "[]").schema)
    }
    static var schemaPlaceholder: Self { [] }
}

extension Set: SchemaContainer where Element: Decodable {
    static func recordedSchema(_ deriver: inout Deriver, path: String) -> RecordedSchema {
        let element = deriver.derive(Element.self, path: path + "[]").schema
        return .given(["type": "array", "items": element.json, "uniqueItems": true])
    }
    static var schemaPlaceholder: Self { [] }
}

extension Dictionary: SchemaContainer where Key == String, Value: Decodable {
    static func recordedSchema(_ deriver: inout Deriver, path: String) -> RecordedSchema {
        let value = deriver.derive(Value.self, path: path + ".*").schema
        return .given(["type": "object", "additionalProperties": value.json])
    }
    static var schemaPlaceholder: Self { [:] }
}

/// The standard library's scalars: a schema, and a value for `init(from:)` to go on with.
enum Scalar {
    static func schema(_ type: Any.Type) -> (schema: JSONValue, placeholder: Any)? {
        switch type {
        case is String.Type: (["type": "string"], "")
        case is Bool.Type: (["type": "boolean"], false)
        case is Double.Type: (["type": "number"], 0 as Double)
        case is Float.Type: (["type": "number"], 0 as Float)
        case is Int.Type: (bounded(Int.self), 0 as Int)
        case is Int64.Type: (bounded(Int64.self), 0 as Int64)
        case is Int32.Type: (bounded(Int32.self), 0 as Int32)
        case is Int16.Type: (bounded(Int16.self), 0 as Int16)
        case is Int8.Type: (bounded(Int8.self), 0 as Int8)
        case is UInt.Type: (bounded(UInt.self), 0 as UInt)
        case is UInt64.Type: (bounded(UInt64.self), 0 as UInt64)
        case is UInt32.Type: (bounded(UInt32.self), 0 as UInt32)
        case is UInt16.Type: (bounded(UInt16.self), 0 as UInt16)
        case is UInt8.Type: (bounded(UInt8.self), 0 as UInt8)
        default: nil
        }
    }

    /// Both bounds of a fixed-width integer, exactly the range `JSONValueDecoder` takes (it reads
    /// the number's lexeme as `T`, so `Int64.max` is taken and one more is not). Written as exact
    /// decimal lexemes: `UInt64.max` and the 64-bit bounds are beyond 2^53, where a validator that
    /// compares in `Double` would round.
    private static func bounded<T: FixedWidthInteger>(_: T.Type) -> JSONValue {
        [
            "type": "integer", "minimum": .number(JSONNumber(validatedLiteral: String(T.min))),
            "maximum": .number(JSONNumber(validatedLiteral: String(T.max))),
        ]
    }
}

extension JSONValue: JSONSchemaDescribing {
    /// Any JSON value.
    public static var jsonSchema: JSONValue { [:] }
}

extension NoParams: JSONSchemaDescribing {
    /// Nothing: an empty object or an empty array (or no params at all).
    public static var jsonSchema: JSONValue {
        ["anyOf": [["type": "object", "maxProperties": 0], ["type": "array", "maxItems": 0]]]
    }
}

extension NoResult: JSONSchemaDescribing {
    public static var jsonSchema: JSONValue { ["type": "null"] }
}

extension ErrorCode: JSONSchemaDescribing {
    public static var jsonSchema: JSONValue { ["type": "integer"] }
}

// MARK: - The recording decoder

/// One derivation: the problems met so far, and the types being derived (to stop at recursion).
struct Deriver {
    enum TopLevel { case any, object, array }
    /// What the outermost `init(from:)` may ask for: forcing one shape shows a hand-written
    /// initializer's other branch.
    let topLevel: TopLevel
    var problems: [String] = []
    /// False for a result's schema (`JSONSchemaDerivation.resultSchema(for:)`).
    var optionalMembersAreNullable = true
    private var inProgress: [ObjectIdentifier] = []

    init(topLevel: TopLevel) { self.topLevel = topLevel }

    /// The schema of `type`, and a value of it for a containing `init(from:)` to go on with (nil
    /// when its initializer threw).
    mutating func derive(_ type: any Decodable.Type, path: String) -> (schema: RecordedSchema, value: Any?) {
        if let scalar = Scalar.schema(type) { return (.given(scalar.schema), scalar.placeholder) }
        if let described = type as? any JSONSchemaDescribing.Type {
            if let placeholder = Self.placeholder(for: described) { return (.given(described.jsonSchema), placeholder) }
            // The schema is the type's word; its initializer is run only for a value to go on with.
            var scratch = Deriver(topLevel: .any)
            let value = scratch.probe(type, path: path).value
            if value == nil {
                problems.append(
                    "\(path.isEmpty ? "the value" : path): \(Self.name(of: type)) gives a jsonSchema, but its init(from:) gave no value to go on deriving what contains it"
                )
            }
            return (.given(described.jsonSchema), value)
        }
        if let container = type as? any SchemaContainer.Type {
            return (container.recordedSchema(&self, path: path), container.schemaPlaceholder)
        }
        if let cases = type as? any (CaseIterable & RawRepresentable).Type, let enumerated = Self.enumeration(cases) {
            return enumerated
        }
        let identity = ObjectIdentifier(type)
        guard !inProgress.contains(identity) else {
            problems.append(
                "\(path.isEmpty ? "the value" : path): \(Self.name(of: type)) contains itself; give it a jsonSchema (JSONSchemaDescribing)"
            )
            return (.any, nil)
        }
        inProgress.append(identity)
        defer { inProgress.removeLast() }
        let (schema, value) = probe(type, path: path)
        guard let constrained = type as? any JSONSchemaConstraining.Type else { return (schema, value) }
        return (schema.constrained(by: constrained, path: path, problems: &problems), value)
    }

    /// Runs `type`'s initializer against the recording decoder.
    fileprivate mutating func probe(_ type: any Decodable.Type, path: String) -> (schema: RecordedSchema, value: Any?) {
        let record = Record(title: Self.name(of: type))
        let decoder = RecordingDecoder(record: record, deriver: DeriverBox(self), path: path, isTopLevel: path.isEmpty)
        let value: Any?
        do {
            value = try type.init(from: decoder)
        } catch let stop as DerivationStopped {
            value = nil
            _ = stop  // already reported where it happened
        } catch {
            value = nil
            decoder.deriver.value.problems.append(
                "\(path.isEmpty ? "the value" : path): \(Self.name(of: type))'s init(from:) threw while being derived (\(error)); give it a jsonSchema (JSONSchemaDescribing)"
            )
        }
        self = decoder.deriver.value
        return (record.schema, value)
    }

    private static func placeholder(for type: any JSONSchemaDescribing.Type) -> Any? {
        switch type {
        case is JSONValue.Type: JSONValue.null
        case is NoParams.Type: NoParams()
        case is NoResult.Type: NoResult()
        case is ErrorCode.Type: ErrorCode(rawValue: 0)
        case let placeholding as any JSONSchemaPlaceholding.Type: placeholding.schemaPlaceholder
        default: nil
        }
    }

    private static func enumeration<T: CaseIterable & RawRepresentable>(_: T.Type) -> (
        schema: RecordedSchema, value: Any?
    )? {
        let raw = T.allCases.map(\.rawValue)
        let values: [JSONValue]
        if let strings = raw as? [String] {
            values = strings.map(JSONValue.string)
        } else if let integers = raw as? [Int] {
            values = integers.map { .number(JSONNumber($0)) }
        } else {
            return nil
        }
        return (.given(["enum": .array(values)]), T.allCases.first)
    }

    /// The type's name as its declaration spells it, without the module: `Ping.Params`. A
    /// private type's name carries an `(unknown context at $…)` part, which is left out too.
    static func name(of type: Any.Type) -> String {
        let parts = String(reflecting: type).split(separator: ".").dropFirst().filter { !$0.hasPrefix("(") }
        return parts.isEmpty ? String(describing: type) : parts.joined(separator: ".")
    }
}

/// What one `init(from:)` asked for.
final class Record {
    enum Shape {
        case unasked
        case keyed([RecordedMember])
        /// `loopAt`: the position at which the initializer first asked `isAtEnd`; positions
        /// from there on are a variadic rest.
        case unkeyed([RecordedMember], loopAt: Int?)
        case single(RecordedSchema)
    }
    var shape: Shape = .unasked
    /// Whether `isAtEnd` was asked again after the position read at `loopAt`, as a loop over the
    /// rest asks it: without that, the position was one that may be left out
    /// (`if !container.isAtEnd { … }`), not the first of a list.
    var loopClosed = false
    let title: String?
    /// Keys asked about with `decodeNil(forKey:)` before being decoded: what the standard
    /// `decodeIfPresent` does, so the member is optional (it forwards the scalar types to
    /// `decode` and is never seen itself).
    var nilChecked: Set<String> = []
    /// The same for the next position of an unkeyed container (`isAtEnd`, then `decodeNil()`).
    var nextPositionOptional = false

    init(title: String?) { self.title = title }

    var schema: RecordedSchema {
        switch shape {
        case .unasked:
            return .any
        case .keyed(let members):
            return .object(title: title, members: members)
        case .unkeyed(var positions, let loopAt):
            guard let loopAt, loopAt < positions.count else { return .array(prefix: positions, rest: nil) }
            guard loopClosed else {
                // One last position that may be left out. Not also null: nothing asked `decodeNil`,
                // so a null there is read as a value, which its type takes or refuses.
                positions[loopAt].required = false
                positions[loopAt].nullable = false
                return .array(prefix: positions, rest: nil)
            }
            return .array(prefix: Array(positions[..<loopAt]), rest: positions[loopAt].schema)
        case .single(let schema):
            return schema
        }
    }

    func add(_ member: RecordedMember) {
        guard case .keyed(var members) = shape else { return }
        guard !members.contains(where: { $0.name == member.name }) else { return }  // a second try at the same key
        members.append(member)
        shape = .keyed(members)
    }
}

/// The deriver, shared by reference between a decoder and the containers it hands out.
final class DeriverBox {
    var value: Deriver
    init(_ value: Deriver) { self.value = value }

    /// Derives `type` at `path`: its schema, and its value, or a stop when it has none.
    func derive<T: Decodable>(_ type: T.Type, path: String) -> (schema: RecordedSchema, value: T?) {
        let (schema, value) = self.value.derive(type, path: path)
        return (schema, value as? T)
    }
}

struct RecordingDecoder: Decoder {
    let record: Record
    let deriver: DeriverBox
    let path: String
    let isTopLevel: Bool
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if isTopLevel && deriver.value.topLevel == .array {
            throw DecodingError.typeMismatch(
                [String: JSONValue].self, .init(codingPath: [], debugDescription: "deriving the by-position form"))
        }
        if case .unasked = record.shape { record.shape = .keyed([]) }
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(record: record, deriver: deriver, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        if isTopLevel && deriver.value.topLevel == .object {
            throw DecodingError.typeMismatch(
                [JSONValue].self, .init(codingPath: [], debugDescription: "deriving the by-name form"))
        }
        if case .unasked = record.shape { record.shape = .unkeyed([], loopAt: nil) }
        return RecordingUnkeyedContainer(record: record, deriver: deriver, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(record: record, deriver: deriver, path: path)
    }
}

/// Thrown into an `init(from:)` where a member has no value to give it (its own initializer
/// threw, and that was reported): the derivation of the containing type stops there.
struct DerivationStopped: Error {}

struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let record: Record
    let deriver: DeriverBox
    let path: String
    var codingPath: [any CodingKey] { [] }
    /// Unknown: nothing is being read. A type that iterates its keys derives as an empty object.
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
        record.nilChecked.insert(key.stringValue)
        return false
    }

    private func memberPath(_ key: Key) -> String { path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)" }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (schema, value) = deriver.derive(type, path: memberPath(key))
        record.add(
            RecordedMember(
                name: key.stringValue, schema: schema, required: !record.nilChecked.contains(key.stringValue),
                nullable: deriver.value.optionalMembersAreNullable))
        guard let value else { throw DerivationStopped() }
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let (schema, value) = deriver.derive(type, path: memberPath(key))
        record.add(
            RecordedMember(
                name: key.stringValue, schema: schema, required: false,
                nullable: deriver.value.optionalMembersAreNullable))
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = nestedRecord(key, shape: .keyed([]))
        return KeyedDecodingContainer(
            RecordingKeyedContainer<NestedKey>(record: nested, deriver: deriver, path: memberPath(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        RecordingUnkeyedContainer(
            record: nestedRecord(key, shape: .unkeyed([], loopAt: nil)), deriver: deriver, path: memberPath(key))
    }

    func superDecoder() throws -> any Decoder {
        RecordingDecoder(record: record, deriver: deriver, path: path, isTopLevel: false)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        RecordingDecoder(
            record: nestedRecord(key, shape: .unasked), deriver: deriver, path: memberPath(key), isTopLevel: false)
    }

    /// A member read through a nested container; optional when `decodeNil(forKey:)` was asked
    /// first, as for a value.
    private func nestedRecord(_ key: Key, shape: Record.Shape) -> Record {
        let nested = Record(title: nil)
        nested.shape = shape
        record.add(
            RecordedMember(
                name: key.stringValue, schema: .nested(nested), required: !record.nilChecked.contains(key.stringValue),
                nullable: deriver.value.optionalMembersAreNullable))
        return nested
    }
}

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let record: Record
    let deriver: DeriverBox
    let path: String
    var codingPath: [any CodingKey] { [] }
    var count: Int? { nil }

    private var positions: [RecordedMember] {
        if case .unkeyed(let positions, _) = record.shape { return positions }
        return []
    }
    var currentIndex: Int { positions.count }

    /// Asked before a position, `isAtEnd` marks a loop over the rest: false once, so the loop
    /// reads one element, then true. Asked only once, it marks one position that may be left out.
    var isAtEnd: Bool {
        guard case .unkeyed(let positions, let loopAt) = record.shape else { return true }
        guard let loopAt else {
            record.shape = .unkeyed(positions, loopAt: positions.count)
            return false
        }
        if positions.count > loopAt { record.loopClosed = true }
        return positions.count > loopAt
    }

    private mutating func append(_ schema: RecordedSchema, required: Bool) {
        guard case .unkeyed(var positions, let loopAt) = record.shape else { return }
        positions.append(
            RecordedMember(
                name: "[\(positions.count)]", schema: schema, required: required && !record.nextPositionOptional))
        record.nextPositionOptional = false
        record.shape = .unkeyed(positions, loopAt: loopAt)
    }

    /// The standard `decodeIfPresent` asks `isAtEnd`, then this, then decodes: one optional
    /// position, not the start of a loop.
    mutating func decodeNil() throws -> Bool {
        if case .unkeyed(let positions, let loopAt) = record.shape, loopAt == positions.count {
            record.shape = .unkeyed(positions, loopAt: nil)
        }
        record.nextPositionOptional = true
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = deriver.derive(type, path: "\(path)[\(currentIndex)]")
        append(schema, required: true)
        guard let value else { throw DerivationStopped() }
        return value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        let (schema, value) = deriver.derive(type, path: "\(path)[\(currentIndex)]")
        append(schema, required: false)
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let nested = Record(title: nil)
        nested.shape = .keyed([])
        let nestedPath = "\(path)[\(currentIndex)]"
        append(.nested(nested), required: true)
        return KeyedDecodingContainer(
            RecordingKeyedContainer<NestedKey>(record: nested, deriver: deriver, path: nestedPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let nested = Record(title: nil)
        nested.shape = .unkeyed([], loopAt: nil)
        let nestedPath = "\(path)[\(currentIndex)]"
        append(.nested(nested), required: true)
        return RecordingUnkeyedContainer(record: nested, deriver: deriver, path: nestedPath)
    }

    mutating func superDecoder() throws -> any Decoder {
        let nested = Record(title: nil)
        let nestedPath = "\(path)[\(currentIndex)]"
        append(.nested(nested), required: true)
        return RecordingDecoder(record: nested, deriver: deriver, path: nestedPath, isTopLevel: false)
    }
}

/// A single value: the schema of whatever is decoded from it (a wrapper type's inner value).
struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let record: Record
    let deriver: DeriverBox
    let path: String
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (schema, value) = deriver.derive(type, path: path)
        if case .unasked = record.shape { record.shape = .single(schema) }
        guard let value else { throw DerivationStopped() }
        return value
    }
}
