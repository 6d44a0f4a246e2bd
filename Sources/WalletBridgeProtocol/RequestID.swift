/// A request `id`: a string, a number (kept as its exact literal) or null.
///
/// Equality follows the wire: `1`, `1.5` and `"1"` are three different ids.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(JSONNumber)
    case null

    /// The id a JSON value denotes, or nil when that value is not a legal id.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let string): self = .string(string)
        case .number(let number): self = .number(number)
        case .null: self = .null
        default: return nil
        }
    }

    public var jsonValue: JSONValue {
        switch self {
        case .string(let string): .string(string)
        case .number(let number): .number(number)
        case .null: .null
        }
    }

    public var description: String { String(decoding: jsonValue.jsonBytes, as: UTF8.self) }
}
