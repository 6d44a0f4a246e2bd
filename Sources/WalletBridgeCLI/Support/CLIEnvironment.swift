#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import WalletBridgeWallet
import WalletBridgeSystem

/// What decides where manifests go and what the checks see: the process environment, the user,
/// and the file-system root. Commands use `current()`; tests build one around a temporary
/// folder, so no test ever reads or writes the real home or `/etc`.
struct CLIEnvironment: Sendable {
    /// Environment variables (HOME, XDG_*, PATH), as the child processes will get them too.
    var variables: [String: String]
    /// Prefix for every system path (`/etc`, `/usr`, `/opt`, `/snap`, `/var`): `/` in real use.
    var systemRoot: String
    /// The user the checks are made for (ownership, readability).
    var userID: UInt32
    /// Relative paths given on the command line are taken from here.
    var workingDirectory: String

    init(
        variables: [String: String], systemRoot: String = "/", userID: UInt32 = getuid(),
        workingDirectory: String? = nil
    ) {
        self.variables = variables
        self.systemRoot = systemRoot
        self.userID = userID
        self.workingDirectory = workingDirectory ?? FileManager.default.currentDirectoryPath
    }

    /// Moves every system path under another folder. The test suite sets it so that process
    /// tests see neither this machine's browsers nor its `/etc`; nothing else should.
    static let systemRootVariable = "WALLET_BRIDGE_SYSTEM_ROOT"

    /// The environment this process runs in.
    static func current() -> CLIEnvironment {
        let variables = ProcessInfo.processInfo.environment
        let root = variables[systemRootVariable].flatMap { $0.hasPrefix("/") ? Path.normalized($0) : nil } ?? "/"
        return CLIEnvironment(variables: variables, systemRoot: root)
    }

    /// The home and XDG folders, by the same rule as the host's (`UserFolders`).
    private var folders: UserFolders {
        UserFolders(variable: { [variables] name in variables[name].flatMap { $0.isEmpty ? nil : $0 } }, userID: userID)
    }

    /// `$HOME` if absolute, else the password database's home folder, else `/`.
    var home: String { folders.home.map(Path.normalized) ?? "/" }
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    var configHome: String { folders.configHome.map(Path.normalized) ?? Path.join(home, ".config") }
    /// `$XDG_STATE_HOME`, default `~/.local/state`: where the install record lives.
    var stateHome: String { folders.stateHome.map(Path.normalized) ?? Path.join(home, ".local/state") }
    /// `$XDG_DATA_HOME`, default `~/.local/share`: where per-user Flatpak apps live.
    var dataHome: String { folders.dataHome.map(Path.normalized) ?? Path.join(home, ".local/share") }

    /// The folders of `$PATH`, in order.
    var searchPath: [String] {
        (variables["PATH"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// A system path (given as if the root were `/`) under `systemRoot`.
    func system(_ path: String) -> String {
        systemRoot == "/" ? path : Path.join(systemRoot, path)
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved.
    func absolute(_ path: String) -> String {
        Path.normalized(path.hasPrefix("/") ? path : Path.join(workingDirectory, path))
    }
}

/// String paths, so that what is printed, recorded and compared is exactly what was built.
enum Path {
    static func join(_ base: String, _ component: String) -> String {
        if component.isEmpty { return base }
        if base.hasSuffix("/") { return base + component.drop { $0 == "/" } }
        return base + "/" + component.drop { $0 == "/" }
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func fileName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Removes empty, `.` and `..` components; keeps the path absolute if it was.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
