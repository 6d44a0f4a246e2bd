/// The rules for the names in a manifest. Install refuses what breaks them; doctor names them.
enum ManifestIdentifiers {
    static let defaultHostName = "com.walletbridge.host"
    static let chromeOriginPrefix = "chrome-extension://"

    /// Lowercase letters, digits and `_`, in segments joined by single dots: the intersection
    /// of what Chrome (lowercase only) and Firefox accept, so one name works in both.
    static func hostNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "the host name is empty" }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        if segments.contains(where: \.isEmpty) {
            return "\(JSONText.quoted(name)) has an empty segment: no leading, trailing or doubled dots"
        }
        let allowed = { (c: Character) in ("a"..."z").contains(c) || ("0"..."9").contains(c) || c == "_" }
        if let bad = name.first(where: { $0 != "." && !allowed($0) }) {
            return
                "\(JSONText.quoted(name)) contains \(JSONText.quoted(String(bad))): use lowercase letters, digits, _ and ."
        }
        return nil
    }

    /// Chrome's extension IDs: 32 letters a–p (a hash written in a base-16 alphabet of a–p).
    static func isChromeExtensionID(_ id: some StringProtocol) -> Bool {
        id.utf8.count == 32 && id.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "p")).contains($0) }
    }

    /// What is wrong with an `allowed_origins` entry, nil if it is exactly `chrome-extension://ID/`.
    static func originProblem(_ origin: String) -> String? {
        if origin.contains("*") {
            return "\(JSONText.quoted(origin)) has a wildcard; Chrome allows only exact origins"
        }
        guard origin.hasPrefix(chromeOriginPrefix) else {
            return "\(JSONText.quoted(origin)) does not start with chrome-extension://"
        }
        let rest = origin.dropFirst(chromeOriginPrefix.count)
        guard rest.hasSuffix("/") else {
            return "\(JSONText.quoted(origin)) lacks the trailing slash: chrome-extension://ID/"
        }
        let id = rest.dropLast()
        if id.contains("/") {
            return "\(JSONText.quoted(origin)) has a path; it must be exactly chrome-extension://ID/"
        }
        guard isChromeExtensionID(id) else {
            return
                "\(JSONText.quoted(String(id))) is not an extension ID (32 letters a-p, as chrome://extensions shows)"
        }
        return nil
    }

    /// Turns a `--chrome-extension` argument (an ID or an origin) into the exact origin.
    static func chromeOrigin(from argument: String) throws(CLIFailure) -> String {
        var candidate = argument
        if !candidate.hasPrefix(chromeOriginPrefix) { candidate = chromeOriginPrefix + candidate }
        if !candidate.hasSuffix("/") { candidate += "/" }
        if let problem = originProblem(candidate) {
            throw CLIFailure("--chrome-extension \(argument): \(problem)")
        }
        return candidate
    }

    /// What is wrong with a Firefox add-on ID, nil if it is `name@domain` or `{GUID}` (the two
    /// forms Firefox and addons.mozilla.org accept).
    static func addonIDProblem(_ id: String) -> String? {
        if isGUIDForm(id) || isEmailForm(id) { return nil }
        if id.hasPrefix(chromeOriginPrefix) || isChromeExtensionID(id) {
            return "\(JSONText.quoted(id)) is a Chrome extension ID; Firefox add-on IDs look like name@domain or {GUID}"
        }
        return "\(JSONText.quoted(id)) is not an add-on ID: use name@domain or {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}"
    }

    static func firefoxAddonID(from argument: String) throws(CLIFailure) -> String {
        if let problem = addonIDProblem(argument) { throw CLIFailure("--firefox-addon \(argument): \(problem)") }
        return argument
    }

    private static func isEmailForm(_ id: String) -> Bool {
        let parts = id.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "." || c == "_") }
        return parts.allSatisfy { $0.allSatisfy(allowed) }
    }

    private static func isGUIDForm(_ id: String) -> Bool {
        let utf8 = Array(id.utf8)
        guard utf8.count == 38, utf8.first == UInt8(ascii: "{"), utf8.last == UInt8(ascii: "}") else { return false }
        let groups = id.dropFirst().dropLast().split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
