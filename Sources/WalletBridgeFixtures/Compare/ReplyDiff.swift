import WalletBridge

/// What differs between the reply a fixture expects and the one the host sent, as a person
/// wants to read it: one line per difference, by JSON path
/// (`result.signed_payloads[0]: expected "…", got "…"`, `error.code: expected -32050, got -32602`),
/// with equality as `JSONSemantics` has it and long strings shortened around where they differ.
public enum ReplyDiff {
    /// Strings longer than this are shortened in messages.
    static let stringLimit = 60
    /// Compact replies longer than this are cut.
    static let replyLimit = 600

    /// The problems to report for a wrong reply: the differences, then both replies compactly.
    public static func problems(expected: JSONValue, actual: JSONValue, limit: Int = 20) -> [String] {
        differences(expected: expected, actual: actual, limit: limit)
            + ["expected reply: \(abbreviated(expected))", "actual reply:   \(abbreviated(actual))"]
    }

    /// One line per difference, at most `limit` (then a line saying how many more). Empty when
    /// the two are equal.
    public static func differences(expected: JSONValue, actual: JSONValue, limit: Int = 20) -> [String] {
        var lines: [String] = []
        compare(expected, actual, at: "", into: &lines)
        guard lines.count > limit else { return lines }
        return Array(lines.prefix(limit)) + ["… and \(lines.count - limit) more differences"]
    }

    private static func compare(_ expected: JSONValue, _ actual: JSONValue, at path: String, into lines: inout [String])
    {
        guard !JSONSemantics.equal(expected, actual) else { return }
        let shown = path.isEmpty ? "reply" : path
        switch (expected, actual) {
        case (.object(let want), .object(let got)):
            for key in Set(want.keys).union(got.keys).sorted() {
                let member = path + memberPath(key, root: path.isEmpty)
                switch (want[key], got[key]) {
                case (let value?, nil): lines.append("\(member): missing (expected \(abbreviated(value)))")
                case (nil, let value?): lines.append("\(member): unexpected member (got \(abbreviated(value)))")
                case (let wanted?, let value?): compare(wanted, value, at: member, into: &lines)
                case (nil, nil): break
                }
            }
        case (.array(let want), .array(let got)):
            if want.count != got.count { lines.append("\(shown): expected \(count(want)), got \(count(got))") }
            for index in 0..<max(want.count, got.count) {
                let element = "\(path)[\(index)]"
                switch (index < want.count, index < got.count) {
                case (true, true): compare(want[index], got[index], at: element, into: &lines)
                case (true, false): lines.append("\(element): missing (expected \(abbreviated(want[index])))")
                default: lines.append("\(element): unexpected element (got \(abbreviated(got[index])))")
                }
            }
        case (.string(let want), .string(let got)):
            let (wantText, gotText) = shortened(want, got)
            lines.append("\(shown): expected \(wantText), got \(gotText)")
        default:
            lines.append("\(shown): expected \(abbreviated(expected)), got \(abbreviated(actual))")
        }
    }

    /// `.name` for a plain name (`name` at the top), `["odd key"]` for anything else.
    private static func memberPath(_ key: String, root: Bool) -> String {
        func letter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == "$"
        }
        let scalars = Array(key.unicodeScalars)
        if let head = scalars.first, letter(head), scalars.allSatisfy({ letter($0) || ("0"..."9").contains($0) }) {
            return root ? key : "." + key
        }
        return "[\(JSONValue.string(key).compactText)]"
    }

    private static func count(_ elements: [JSONValue]) -> String {
        elements.count == 1 ? "1 element" : "\(elements.count) elements"
    }

    /// Two differing strings as JSON literals; long ones cut to a window around the first
    /// character where they differ, so that the difference is what shows.
    static func shortened(_ a: String, _ b: String) -> (String, String) {
        let first = Array(a), second = Array(b)
        guard first.count > stringLimit || second.count > stringLimit else {
            return (JSONValue.string(a).compactText, JSONValue.string(b).compactText)
        }
        let common = zip(first, second).prefix { $0 == $1 }.count
        let start = max(0, common - stringLimit / 3)
        return (window(first, from: start), window(second, from: start))
    }

    private static func window(_ characters: [Character], from start: Int) -> String {
        let end = min(characters.count, start + stringLimit)
        let text = JSONValue.string(String(characters[min(start, characters.count)..<end])).compactText
        return (start > 0 ? "…" : "") + text + (end < characters.count ? "…" : "") + " (\(characters.count) characters)"
    }

    /// A value as compact JSON, with long strings cut (`"xxxx…[10000 characters]"`) and the
    /// whole cut at `replyLimit`: the shape stays readable however large the reply.
    public static func abbreviated(_ value: JSONValue) -> String {
        let text = cutStrings(value).compactText
        guard text.count > replyLimit else { return text }
        return String(text.prefix(replyLimit)) + "… (\(text.utf8.count) bytes)"
    }

    private static func cutStrings(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.count > stringLimit:
            return .string(String(text.prefix(stringLimit)) + "…[\(text.count) characters]")
        case .array(let elements): return .array(elements.map(cutStrings))
        case .object(let members): return .object(members.mapValues(cutStrings))
        default: return value
        }
    }
}
