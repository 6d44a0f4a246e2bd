/// Quoting for commands doctor prints: they must work when pasted into a POSIX shell.
enum Shell {
    static func quoted(_ word: String) -> String {
        let plain = word.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "-_./:@=+,%".utf8.contains(byte)
            }
        }
        if plain && !word.isEmpty { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
