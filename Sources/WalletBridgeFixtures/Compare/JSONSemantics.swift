import WalletBridge

/// JSON equality as the fixtures mean it: object key order ignored, numbers compared by value
/// (exactly, whatever their lexeme: `1000` equals `1e3`; digits beyond a Double still count).
public enum JSONSemantics {
    /// Whether `a` and `b` are the same JSON as a fixture means it.
    public static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return canonical(x.literal) == canonical(y.literal)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return a == b
        }
    }

    /// Sign, significant digits and exponent of a JSON number literal.
    public static func canonical(_ literal: String) -> String {
        var text = Substring(literal)
        var negative = false
        if text.first == "-" { negative = true; text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        var digits = String(text)
        if let dot = digits.firstIndex(of: ".") {
            exponent -= digits.distance(from: dot, to: digits.endIndex) - 1
            digits.remove(at: dot)
        }
        digits = String(digits.drop { $0 == "0" })
        while digits.last == "0" { digits.removeLast(); exponent += 1 }
        if digits.isEmpty { return "0" }
        return (negative ? "-" : "") + digits + "e" + String(exponent)
    }
}
