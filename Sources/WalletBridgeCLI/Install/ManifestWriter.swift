/// A host manifest as install writes it.
struct HostManifest: Sendable, Equatable {
    static let defaultDescription = "wallet-bridge: a wallet for browser extensions"

    var name: String
    var description: String = HostManifest.defaultDescription
    /// Absolute path of the host binary.
    var path: String
    var family: BrowserFamily
    /// Origins (Chrome family) or add-on IDs (Firefox family).
    var allowed: [String]

    /// The file's bytes: fixed key order, IDs sorted and deduplicated, two-space indent and a
    /// final newline, so the same inputs always give the same file (install's "unchanged").
    func rendered() -> [UInt8] {
        let members: [(String, String)] = [
            ("name", JSONText.quoted(name)),
            ("description", JSONText.quoted(description)),
            ("path", JSONText.quoted(path)),
            ("type", JSONText.quoted("stdio")),
            (family.allowKey, "[" + Set(allowed).sorted().map(JSONText.quoted).joined(separator: ",") + "]"),
        ]
        let compact = "{" + members.map { "\(JSONText.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}"
        return Array((JSONText.pretty(Array(compact.utf8)) + "\n").utf8)
    }
}
