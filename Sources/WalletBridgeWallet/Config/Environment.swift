#if canImport(Glibc)
import Glibc
#endif

/// The process environment and the XDG base directories, read without Foundation.
package enum Environment {
    /// The value of `name`, or nil when it is unset or empty (an empty override means none).
    package static func string(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let value = String(cString: raw)
        return value.isEmpty ? nil : value
    }

    /// The user's home folder: `$HOME`, else the password database.
    package static var home: String? {
        if let home = string("HOME") { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let path = String(cString: directory)
        return path.isEmpty ? nil : path
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`. The XDG specification says a relative value is
    /// invalid and must be ignored.
    package static var dataHome: String? { xdg("XDG_DATA_HOME", fallback: ".local/share") }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    package static var configHome: String? { xdg("XDG_CONFIG_HOME", fallback: ".config") }

    private static func xdg(_ name: String, fallback: String) -> String? {
        if let value = string(name), value.hasPrefix("/") { return value }
        return home.map { "\($0)/\(fallback)" }
    }
}
