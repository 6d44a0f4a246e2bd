import WalletBridge

/// Checks a JSON value against a JSON Schema: the draft-07 keywords that the schemas of
/// `rpc.discover` use (those `JSONSchemaDerivation` writes, and those a developer writes by hand
/// for a method of their own). No Swift package on hand validates JSON Schema, and this subset
/// is a page.
///
/// Checked: boolean schemas, `type`, `enum`, `const`, `properties`, `required`,
/// `additionalProperties`, `patternProperties`, `propertyNames`, `minProperties`, `maxProperties`, `items` (one
/// schema, or a list with `additionalItems`), `minItems`, `maxItems`, `uniqueItems`,
/// `minLength`, `maxLength`, `pattern`, `minimum`, `maximum`, `exclusiveMinimum`,
/// `exclusiveMaximum`, `multipleOf`, `anyOf`, `oneOf`, `allOf`, `not`, and `$ref` within the
/// document (`#/…`). Annotations (`title`, `description`, `default`, `examples`, `x-…`) mean
/// nothing to validation. Any other keyword is not checked, and `notChecked` says which, so a
/// report never claims more than was checked.
public struct JSONSchemaValidator: Sendable {
    /// The document that `$ref`s point into.
    public let root: JSONValue
    /// How deep validation may nest (schemas within schemas, `$ref`s followed) before it stops
    /// with a problem: a `$ref` cycle ends there rather than in a stack overflow.
    public let maxDepth: Int

    public init(root: JSONValue = [:], maxDepth: Int = 64) {
        self.root = root
        self.maxDepth = maxDepth
    }

    /// What is wrong with `value`, one line per problem, each naming where (`path`, then the
    /// member or position: `result.payloads[1]`). Empty when it is valid.
    public func problems(_ value: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        var run = Run(root: root, maxDepth: maxDepth)
        run.validate(value, schema, path: path, depth: 0)
        return run.problems
    }

    /// The keywords in `schema` (and the schemas within it) that this validator does not check.
    public func notChecked(in schema: JSONValue) -> Set<String> {
        var found: Set<String> = []
        Self.collectUnchecked(schema, into: &found, depth: 0)
        return found
    }

    static let checked: Set<String> = [
        "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
        "minProperties", "maxProperties", "items", "additionalItems", "minItems", "maxItems", "uniqueItems",
        "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "anyOf", "oneOf", "allOf", "not", "$ref",
    ]
    static let annotations: Set<String> = [
        "title", "description", "default", "examples", "$schema", "$id", "$comment", "readOnly", "writeOnly",
        "deprecated", "definitions",
    ]

    private static func collectUnchecked(_ schema: JSONValue, into found: inout Set<String>, depth: Int) {
        guard depth < 64, case .object(let members) = schema else { return }
        for (key, value) in members {
            if !checked.contains(key) && !annotations.contains(key) && !key.hasPrefix("x-") { found.insert(key) }
            switch key {
            case "properties", "patternProperties", "definitions":
                for nested in value.objectValue?.values.map({ $0 }) ?? [] {
                    collectUnchecked(nested, into: &found, depth: depth + 1)
                }
            case "items", "anyOf", "oneOf", "allOf":
                if let list = value.arrayValue {
                    for nested in list { collectUnchecked(nested, into: &found, depth: depth + 1) }
                } else {
                    collectUnchecked(value, into: &found, depth: depth + 1)
                }
            case "additionalProperties", "additionalItems", "not", "propertyNames":
                collectUnchecked(value, into: &found, depth: depth + 1)
            default:
                break
            }
        }
    }

    /// One validation: the problems found so far.
    private struct Run {
        let root: JSONValue
        /// `$ref` chains and self-referencing schemas end here rather than in a stack overflow.
        let maxDepth: Int
        var problems: [String] = []

        mutating func validate(_ value: JSONValue, _ schema: JSONValue, path: String, depth: Int) {
            guard depth < maxDepth else {
                problems.append("\(path): the schema nests deeper than \(maxDepth) levels (a $ref cycle?)")
                return
            }
            switch schema {
            case .bool(true): return
            case .bool(false):
                problems.append("\(path): no value is allowed here")
                return
            case .object(let keywords):
                check(value, keywords, path: path, depth: depth)
            default:
                problems.append("\(path): the schema is \(schema.typeName), not an object or a boolean")
            }
        }

        private mutating func check(_ value: JSONValue, _ keywords: [String: JSONValue], path: String, depth: Int) {
            if let reference = keywords["$ref"]?.stringValue {
                guard let target = resolve(reference) else {
                    problems.append("\(path): $ref \(reference) points nowhere in the document")
                    return
                }
                // draft-07: beside a $ref, other keywords are ignored.
                return validate(value, target, path: path, depth: depth + 1)
            }
            if let types = keywords["type"], !matchesType(value, types) {
                problems.append("\(path): expected \(Self.typeList(types)), got \(Self.describe(value))")
                return  // the other keywords would only restate it
            }
            if let allowed = keywords["enum"]?.arrayValue, !allowed.contains(where: { JSONSemantics.equal($0, value) })
            {
                problems.append("\(path): \(Self.shortened(value)) is not one of \(Self.shortened(.array(allowed)))")
            }
            if let constant = keywords["const"], !JSONSemantics.equal(constant, value) {
                problems.append("\(path): expected \(Self.shortened(constant)), got \(Self.shortened(value))")
            }
            switch value {
            case .object(let members): checkObject(members, keywords, path: path, depth: depth)
            case .array(let elements): checkArray(elements, keywords, path: path, depth: depth)
            case .string(let string): checkString(string, keywords, path: path)
            case .number(let number): checkNumber(number, keywords, path: path)
            default: break
            }
            checkCombinations(value, keywords, path: path, depth: depth)
        }

        private mutating func checkObject(
            _ members: [String: JSONValue], _ keywords: [String: JSONValue], path: String, depth: Int
        ) {
            let properties = keywords["properties"]?.objectValue ?? [:]
            for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                problems.append("\(path): the required member \"\(name)\" is missing")
            }
            let patterns = (keywords["patternProperties"]?.objectValue ?? [:]).compactMap { pattern, schema in
                (try? Regex(pattern)).map { ($0, schema) }
            }
            for name in members.keys.sorted() {
                let member = members[name]!
                let memberPath = "\(path).\(name)"
                var matched = false
                if let schema = properties[name] {
                    matched = true
                    validate(member, schema, path: memberPath, depth: depth + 1)
                }
                for (regex, schema) in patterns where name.contains(regex) {
                    matched = true
                    validate(member, schema, path: memberPath, depth: depth + 1)
                }
                if !matched, let additional = keywords["additionalProperties"] {
                    if additional == .bool(false) {
                        problems.append(
                            "\(path): the member \"\(name)\" is not allowed (the schema lists \(properties.keys.sorted().joined(separator: ", ")))"
                        )
                    } else {
                        validate(member, additional, path: memberPath, depth: depth + 1)
                    }
                }
            }
            if let names = keywords["propertyNames"] {
                for name in members.keys.sorted() {
                    validate(
                        .string(name), names, path: "\(path) (the member name \(JSONValue.string(name).compactText))",
                        depth: depth + 1)
                }
            }
            if let minimum = keywords["minProperties"]?.intValue, members.count < minimum {
                problems.append("\(path): \(members.count) members, fewer than \(minimum)")
            }
            if let maximum = keywords["maxProperties"]?.intValue, members.count > maximum {
                problems.append("\(path): \(members.count) members, more than \(maximum)")
            }
        }

        private mutating func checkArray(
            _ elements: [JSONValue], _ keywords: [String: JSONValue], path: String, depth: Int
        ) {
            switch keywords["items"] {
            case .array(let positions)?:
                for (index, element) in elements.enumerated() {
                    let elementPath = "\(path)[\(index)]"
                    if index < positions.count {
                        validate(element, positions[index], path: elementPath, depth: depth + 1)
                    } else if let additional = keywords["additionalItems"] {
                        if additional == .bool(false) {
                            problems.append("\(path): \(elements.count) elements, the schema allows \(positions.count)")
                            break
                        }
                        validate(element, additional, path: elementPath, depth: depth + 1)
                    }
                }
            case let schema?:
                for (index, element) in elements.enumerated() {
                    validate(element, schema, path: "\(path)[\(index)]", depth: depth + 1)
                }
            case nil:
                break
            }
            if let minimum = keywords["minItems"]?.intValue, elements.count < minimum {
                problems.append("\(path): \(elements.count) elements, fewer than \(minimum)")
            }
            if let maximum = keywords["maxItems"]?.intValue, elements.count > maximum {
                problems.append("\(path): \(elements.count) elements, more than \(maximum)")
            }
            if keywords["uniqueItems"] == .bool(true) {
                for (index, element) in elements.enumerated()
                where elements[..<index].contains(where: { JSONSemantics.equal($0, element) }) {
                    problems.append("\(path)[\(index)]: repeats an earlier element, and the elements must be unique")
                }
            }
        }

        private mutating func checkString(_ string: String, _ keywords: [String: JSONValue], path: String) {
            // JSON Schema counts characters as code points.
            let length = string.unicodeScalars.count
            if let minimum = keywords["minLength"]?.intValue, length < minimum {
                problems.append("\(path): \(length) characters, fewer than \(minimum)")
            }
            if let maximum = keywords["maxLength"]?.intValue, length > maximum {
                problems.append("\(path): \(length) characters, more than \(maximum)")
            }
            if let pattern = keywords["pattern"]?.stringValue {
                if let regex = try? Regex(pattern) {
                    if !string.contains(regex) {
                        problems.append(
                            "\(path): \(Self.shortened(.string(string))) does not match the pattern \(pattern)")
                    }
                } else {
                    problems.append(
                        "\(path): the schema's pattern \(pattern) is not a regular expression this validator reads")
                }
            }
        }

        private mutating func checkNumber(_ number: JSONNumber, _ keywords: [String: JSONValue], path: String) {
            guard let value = Double(number.literal) else { return }
            func bound(_ key: String) -> Double? {
                if case .number(let limit)? = keywords[key] { return Double(limit.literal) }
                return nil
            }
            /// The number against a bound: exact when both are integer lexemes (a 64-bit bound
            /// is beyond 2^53, where 2^63 − 1 and 2^63 are the same `Double`), else in `Double`.
            func order(_ key: String) -> (order: Int, text: String)? {
                guard case .number(let limit)? = keywords[key], let limitValue = Double(limit.literal) else {
                    return nil
                }
                if let exact = Self.compareIntegers(number.literal, limit.literal) { return (exact, limit.literal) }
                return (value < limitValue ? -1 : value > limitValue ? 1 : 0, limitValue.shortText)
            }
            if let (order, minimum) = order("minimum"), order < 0 {
                problems.append("\(path): \(number.literal) is less than the minimum \(minimum)")
            }
            if let (order, maximum) = order("maximum"), order > 0 {
                problems.append("\(path): \(number.literal) is more than the maximum \(maximum)")
            }
            if let (order, minimum) = order("exclusiveMinimum"), order <= 0 {
                problems.append("\(path): \(number.literal) must be more than \(minimum)")
            }
            if let (order, maximum) = order("exclusiveMaximum"), order >= 0 {
                problems.append("\(path): \(number.literal) must be less than \(maximum)")
            }
            if let divisor = bound("multipleOf"), divisor > 0 {
                let quotient = value / divisor
                if quotient.rounded() != quotient {
                    problems.append("\(path): \(number.literal) is not a multiple of \(divisor.shortText)")
                }
            }
        }

        private mutating func checkCombinations(
            _ value: JSONValue, _ keywords: [String: JSONValue], path: String, depth: Int
        ) {
            for schema in keywords["allOf"]?.arrayValue ?? [] {
                validate(value, schema, path: path, depth: depth + 1)
            }
            if let branches = keywords["anyOf"]?.arrayValue {
                let failures = branches.map { trial(value, $0, path: path, depth: depth) }
                if !failures.contains(where: \.isEmpty) {
                    problems.append(
                        "\(path): matches none of the \(branches.count) allowed forms (anyOf); the first says: \(failures.first?.first ?? "no form is allowed")"
                    )
                }
            }
            if let branches = keywords["oneOf"]?.arrayValue {
                let failures = branches.map { trial(value, $0, path: path, depth: depth) }
                let matching = failures.filter(\.isEmpty).count
                if matching == 0 {
                    problems.append(
                        "\(path): matches none of the \(branches.count) allowed forms (oneOf); the first says: \(failures.first?.first ?? "no form is allowed")"
                    )
                } else if matching > 1 {
                    problems.append("\(path): matches \(matching) of the forms that oneOf allows, not exactly one")
                }
            }
            if let excluded = keywords["not"], trial(value, excluded, path: path, depth: depth).isEmpty {
                problems.append("\(path): matches a form the schema excludes (not)")
            }
        }

        /// The problems `value` would have against `schema`, without counting them.
        private func trial(_ value: JSONValue, _ schema: JSONValue, path: String, depth: Int) -> [String] {
            var scratch = Run(root: root, maxDepth: maxDepth)
            scratch.validate(value, schema, path: path, depth: depth + 1)
            return scratch.problems
        }

        /// A `#/a/b` JSON Pointer into the document (RFC 6901, with its `~0` and `~1`).
        private func resolve(_ reference: String) -> JSONValue? {
            guard reference.hasPrefix("#") else { return nil }
            var node = root
            for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
                let key = String(token).replacing("~1", with: "/").replacing("~0", with: "~")
                switch node {
                case .object(let members): guard let next = members[key] else { return nil }; node = next
                case .array(let elements):
                    guard let index = Int(key), elements.indices.contains(index) else { return nil };
                    node = elements[index]
                default: return nil
                }
            }
            return node
        }

        private func matchesType(_ value: JSONValue, _ types: JSONValue) -> Bool {
            let names = types.arrayValue?.compactMap(\.stringValue) ?? types.stringValue.map { [$0] } ?? []
            return names.contains { name in
                switch (name, value) {
                case ("integer", .number(let number)): Self.isInteger(number)
                case ("number", .number), ("string", .string), ("boolean", .bool), ("null", .null), ("array", .array),
                    ("object", .object):
                    true
                default: false
                }
            }
        }

        /// -1, 0 or 1 for two integer lexemes (`-?[0-9]+`, as JSON writes them), compared exactly
        /// whatever their size; nil when either is not one.
        static func compareIntegers(_ left: String, _ right: String) -> Int? {
            func parts(_ text: String) -> (negative: Bool, digits: Substring)? {
                let negative = text.hasPrefix("-")
                var digits = negative ? text.dropFirst() : Substring(text)
                guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
                else { return nil }
                digits = digits.drop { $0 == "0" }
                return (negative && !digits.isEmpty, digits)  // -0 is 0
            }
            guard let a = parts(left), let b = parts(right) else { return nil }
            if a.negative != b.negative { return a.negative ? -1 : 1 }
            let magnitude =
                a.digits.count != b.digits.count
                ? (a.digits.count < b.digits.count ? -1 : 1)
                : (a.digits == b.digits ? 0 : (a.digits < b.digits ? -1 : 1))
            return a.negative ? -magnitude : magnitude
        }

        /// An integer in the schema's sense: a number with no fractional part, whatever its lexeme (`1.0`, `1e3`).
        private static func isInteger(_ number: JSONNumber) -> Bool {
            let literal = number.literal
            if !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return true }
            guard let value = Double(literal), value.isFinite else { return false }
            return value.rounded() == value
        }

        private static func typeList(_ types: JSONValue) -> String {
            let names = types.arrayValue?.compactMap(\.stringValue) ?? types.stringValue.map { [$0] } ?? []
            return names.joined(separator: " or ")
        }

        private static func describe(_ value: JSONValue) -> String {
            switch value {
            case .number(let number): "a number (\(number.literal))"
            case .string: "a string (\(shortened(value)))"
            case .null: "null"
            default: "\(value.typeName == "array" || value.typeName == "object" ? "an" : "a") \(value.typeName)"
            }
        }

        static func shortened(_ value: JSONValue) -> String {
            let text = value.compactText
            return text.count > 80 ? String(text.prefix(77)) + "…" : text
        }
    }
}

extension Double {
    /// `3` for 3.0, `0.5` for 0.5: as a schema author wrote the bound.
    fileprivate var shortText: String { rounded() == self && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
