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

    /// This process's folders.
    package static var folders: UserFolders { UserFolders(variable: string, userID: getuid()) }
    package static var dataHome: String? { folders.dataHome }
    package static var configHome: String? { folders.configHome }
    package static var stateHome: String? { folders.stateHome }
}

/// The user's home and XDG base folders, by one rule for the host and the command line.
///
/// Only absolute values count: the XDG specification says a relative `XDG_*` value is invalid
/// and must be ignored, and a relative `HOME` is treated the same way, since it would put the
/// keystore wherever the browser happened to start the host.
package struct UserFolders {
    /// Looks up an environment variable (nil when unset or empty).
    package let variable: (String) -> String?
    package let userID: uid_t

    package init(variable: @escaping (String) -> String?, userID: uid_t) {
        self.variable = variable
        self.userID = userID
    }

    /// An absolute `$HOME`, else the password database's home folder (as under some sudo).
    package var home: String? {
        if let home = variable("HOME"), home.hasPrefix("/") { return home }
        guard let entry = getpwuid(userID), let directory = entry.pointee.pw_dir else { return nil }
        let path = String(cString: directory)
        return path.hasPrefix("/") ? path : nil
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    package var dataHome: String? { xdg("XDG_DATA_HOME", fallback: ".local/share") }
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    package var configHome: String? { xdg("XDG_CONFIG_HOME", fallback: ".config") }
    /// `$XDG_RUNTIME_DIR`, if set to an absolute path: there is no fallback in the home folder,
    /// since a socket must not live on a disk that outlives the session (or on NFS).
    package var runtimeHome: String? {
        variable("XDG_RUNTIME_DIR").flatMap { $0.hasPrefix("/") ? $0 : nil }
    }
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    package var stateHome: String? { xdg("XDG_STATE_HOME", fallback: ".local/state") }
    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    package var cacheHome: String? { xdg("XDG_CACHE_HOME", fallback: ".cache") }

    private func xdg(_ name: String, fallback: String) -> String? {
        if let value = variable(name), value.hasPrefix("/") { return value }
        return home.map { $0 == "/" ? "/\(fallback)" : "\($0)/\(fallback)" }
    }
}
