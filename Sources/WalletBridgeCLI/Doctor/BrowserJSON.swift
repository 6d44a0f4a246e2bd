import WalletBridge

/// Reads a manifest as the browsers do, not as the host reads requests. Chrome's JSON reader
/// and Firefox's JSON.parse both skip a UTF-8 byte-order mark and let the last of duplicated
/// keys win; doctor must not call a manifest broken that both browsers load. What the strict
/// parser would have refused comes back as notes.
enum BrowserJSON {
    enum Leniency: Equatable {
        case byteOrderMark
        case duplicateKey(String)
    }

    /// Private-use marker prefixed to a renamed duplicate key, then folded back, last wins.
    private static let marker = "\u{F8FF}dup"

    static func load(_ path: String) throws(ManifestFile.LoadError) -> (manifest: ManifestFile, leniencies: [Leniency])
    {
        guard var bytes = FileSystem.read(path) else { throw .unreadable }
        var leniencies: [Leniency] = []
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes.removeFirst(3)
            leniencies.append(.byteOrderMark)
        }
        var renamed = 0
        while true {
            do {
                let value = try JSONParser.parse(bytes)
                let folded = fold(value)
                guard case .object(let members) = folded else {
                    throw ManifestFile.LoadError.notAnObject(typeName: folded.typeName)
                }
                return (ManifestFile(path: path, members: members), leniencies)
            } catch let error as JSONParseError {
                // The strict parser stops at the second of two equal keys, at its opening
                // quote: rename that one and go on. Bounded by the number of keys in the file.
                guard error.reason.hasPrefix("duplicate key"), let end = stringEnd(bytes, from: error.offset) else {
                    throw .invalidJSON(error)
                }
                renamed += 1
                let original = String(decoding: bytes[(error.offset + 1)..<end], as: UTF8.self)
                leniencies.append(.duplicateKey(String(error.reason.dropFirst("duplicate key ".count))))
                bytes.replaceSubrange((error.offset + 1)..<end, with: Array("\(marker)\(renamed):\(original)".utf8))
            } catch let error as ManifestFile.LoadError {
                throw error
            } catch {
                throw .unreadable
            }
        }
    }

    /// The index of the closing quote of the string that opens at `start`.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }

    /// Puts each renamed duplicate back under its key, in file order, so the last one wins.
    private static func fold(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(fold))
        case .object(let members):
            var result: [String: JSONValue] = [:]
            var duplicates: [(Int, String, JSONValue)] = []
            for (key, member) in members {
                if key.hasPrefix(marker), let colon = key.firstIndex(of: ":"),
                    let number = Int(key[key.index(key.startIndex, offsetBy: marker.count)..<colon])
                {
                    duplicates.append((number, String(key[key.index(after: colon)...]), fold(member)))
                } else {
                    result[key] = fold(member)
                }
            }
            for (_, key, member) in duplicates.sorted(by: { $0.0 < $1.0 }) { result[key] = member }
            return .object(result)
        default:
            return value
        }
    }
}
