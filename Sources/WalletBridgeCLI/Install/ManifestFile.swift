import WalletBridge

/// A manifest read back from disk, valid JSON object or not: doctor reports what is wrong with
/// it, `call --manifest` starts the host it names.
struct ManifestFile: Sendable {
    let path: String
    let members: [String: JSONValue]

    enum LoadError: Error, Sendable {
        case unreadable
        case invalidJSON(JSONParseError)
        case notAnObject(typeName: String)
    }

    static func load(_ path: String) throws(LoadError) -> ManifestFile {
        guard let bytes = FileSystem.read(path) else { throw .unreadable }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON(error)
        }
        guard case .object(let members) = value else { throw .notAnObject(typeName: value.typeName) }
        return ManifestFile(path: path, members: members)
    }

    func string(_ key: String) -> String? {
        if case .string(let text)? = members[key] { return text }
        return nil
    }

    /// The strings listed under `key`, nil if the key is absent or not an array of strings.
    func strings(_ key: String) -> [String]? {
        guard case .array(let elements)? = members[key] else { return nil }
        var strings: [String] = []
        for element in elements {
            guard case .string(let text) = element else { return nil }
            strings.append(text)
        }
        return strings
    }

    /// The family the manifest is written for, judged by its allow-list key.
    var family: BrowserFamily? {
        if members[BrowserFamily.chromium.allowKey] != nil { return .chromium }
        if members[BrowserFamily.firefox.allowKey] != nil { return .firefox }
        return nil
    }
}

extension ManifestFile.LoadError: CustomStringConvertible {
    /// For people: what is wrong, without Swift's spelling of the case.
    var description: String {
        switch self {
        case .unreadable: "cannot be read"
        case .invalidJSON(let error): "not valid JSON: \(error)"
        case .notAnObject(let typeName): "a JSON \(typeName), not an object"
        }
    }
}
