import ArgumentParser

/// A manifest folder named on the command line, for a browser the catalogue does not know (a
/// Chromium or Firefox fork, a Tor Browser unpacked elsewhere): `--browser-dir chromium:DIR`
/// or `firefox:DIR`. DIR is the folder itself, where `<name>.json` goes; the family says which
/// manifest dialect that browser reads.
struct BrowserDir: Sendable, Equatable, Hashable {
    var family: BrowserFamily
    /// Absolute and normalized.
    var folder: String

    /// The option's value, as it is recorded and printed: `chromium:/path/to/folder`.
    var argument: String { "\(family.rawValue):\(folder)" }

    /// Reads `FAMILY:DIR`. Refuses an unknown family and a relative folder: the folder is
    /// recorded and uninstalled exactly, so it must not depend on where the command ran.
    static func parse(_ argument: String) throws(CLIFailure) -> BrowserDir {
        let example =
            "chromium:$HOME/.config/thorium/NativeMessagingHosts or firefox:$HOME/.waterfox/native-messaging-hosts"
        guard let colon = argument.firstIndex(of: ":"),
            let family = BrowserFamily(rawValue: String(argument[..<colon]))
        else {
            let given =
                argument.firstIndex(of: ":").map { "\"\(argument[..<$0])\" is not a browser family" }
                ?? "no browser family"
            throw CLIFailure(
                """
                --browser-dir \(argument): \(given); write chromium: (for Chrome-family browsers, allowed_origins) or \
                firefox: (for Firefox-family browsers, allowed_extensions), then the manifest folder, as in \(example)
                """)
        }
        let folder = String(argument[argument.index(after: colon)...])
        guard folder.hasPrefix("/") else {
            let tilde =
                folder.hasPrefix("~")
                ? " (the shell does not expand ~ after \(family.rawValue):; write $HOME instead)" : ""
            throw CLIFailure(
                "--browser-dir \(argument): the folder must be an absolute path\(folder.isEmpty ? ", and none is given" : "")\(tilde)"
            )
        }
        return BrowserDir(family: family, folder: Path.normalized(folder))
    }

    /// `parse` as ArgumentParser's transform for `--browser-dir`: the value is read once, and a
    /// bad one is a usage error (status 64) with `parse`'s message.
    static func option(_ argument: String) throws -> BrowserDir {
        do { return try parse(argument) } catch { throw ValidationError(error.description) }
    }
}
