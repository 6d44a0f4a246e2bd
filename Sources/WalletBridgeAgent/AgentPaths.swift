#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeKeys

/// Where the agent for a keystore listens, and the lock that makes it the only one.
///
/// The folder is `$XDG_RUNTIME_DIR/wallet-bridge/`, or, when `XDG_RUNTIME_DIR` is unset (no
/// systemd login session: a container, su, cron), `$XDG_CACHE_HOME/wallet-bridge/run/` (by
/// default `~/.cache/…`): a folder in this user's home, which no other user can make first, as
/// anyone can make `/tmp/wallet-bridge-<uid>` (and this user could then not remove it). Only
/// without any home is it `/tmp/wallet-bridge-<uid>/`. Either way it is 0700 and must belong
/// to this user, and no other user may be able to change a folder above it, up to the home
/// folder (or `/`): the rule for the configuration file (`ChangeableByOthers`), as whoever can
/// rename a folder above it can put a folder of their own in its place.
///
/// As with gpg-agent and its home folders, each keystore has its own agent: in a login session
/// (`XDG_RUNTIME_DIR` set) the default keystore (`$XDG_DATA_HOME/wallet-bridge/keystore.json`)
/// at `agent.sock`, where a systemd socket unit can name it; any other keystore, and every
/// keystore served from the fallback folder, at `agent-<16 hex digits of a hash of its path>.sock`. The
/// hello names the keystore too, and an agent refuses a client that expects another, so a host
/// never reaches keys it was not meant to (two homes sharing one runtime folder get a clear
/// error, `other_keystore`).
package struct AgentPaths: Sendable, Equatable {
    package let folder: String
    /// `agent`, or `agent-<hex>`: what the socket, the lock and the events files are named after.
    package let name: String
    package let socket: String
    /// The command line's own socket (`lock`, `agent stop`, `agent status`, `sessions`): no
    /// host connects to it, so no extension's connections can fill it (docs/agent.md, Limits).
    package let control: String
    /// Held (flock) by the running agent for its whole life.
    package let lock: String
    /// Held shared (flock) by every host with a port open that listens for this agent's
    /// events; the agent does not end for idleness while one does.
    package let ports: String
    /// Where an agent started by a host writes its log (its stderr); nil without a home.
    package let log: String?

    package init(folder: String, name: String, log: String?) {
        self.folder = folder
        self.name = name
        socket = "\(folder)/\(name).sock"
        control = "\(folder)/\(name).ctl"
        lock = "\(folder)/\(name).lock"
        ports = "\(folder)/\(name).ports"
        self.log = log
    }

    /// The paths of the agent that serves the keystore at `keystore`.
    package static func forKeystore(_ keystore: String, folders: UserFolders = Environment.folders) -> AgentPaths {
        let runtime = folders.runtimeHome
        let folder = folder(folders)
        let isDefault =
            runtime != nil && folders.dataHome.map { "\($0)/wallet-bridge/\(KeystoreLocation.fileName)" } == keystore
        let name = isDefault ? "agent" : "agent-\(shortHash(keystore))"
        return AgentPaths(folder: folder, name: name, log: folders.stateHome.map { "\($0)/wallet-bridge/\(name).log" })
    }

    /// The folder of every agent of this user.
    package static func folder(_ folders: UserFolders = Environment.folders) -> String {
        if let runtime = folders.runtimeHome { return "\(runtime)/wallet-bridge" }
        if let cache = folders.cacheHome { return "\(cache)/wallet-bridge/run" }
        return "/tmp/wallet-bridge-\(folders.userID)"
    }

    /// What is wrong with the agent's folder.
    package struct Unsafe: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and what to do about it.
        package let problem: String
        package let fix: String?
        package var description: String { problem + (fix.map { ": \($0)" } ?? "") }
    }

    /// Makes the folder (0700) if it is missing, and refuses one that another user could
    /// reach: a socket there could be replaced by someone else's.
    package func prepareFolder() throws(Unsafe) { try Self.prepare(folder) }

    package static func prepare(_ folder: String, folders: UserFolders = Environment.folders) throws(Unsafe) {
        let parent = AtomicFile.split(folder).folder
        let inRuntime = folders.runtimeHome.map { parent == $0 } ?? false
        // The fallback's parent, in the home, is made if missing (`~/.cache` may not exist);
        // a runtime folder never is, as only the login manager should make it.
        if !inRuntime, parent != "/tmp" { try? AtomicFile.ensureFolder(parent) }
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            let code = errno
            // A runtime folder that is gone (the session ended, or XDG_RUNTIME_DIR was copied
            // from another).
            let fix =
                code == ENOENT && inRuntime
                ? "XDG_RUNTIME_DIR names \(parent), which does not exist; unset XDG_RUNTIME_DIR (the agent then uses \(Self.folder(UserFolders(variable: { $0 == "XDG_RUNTIME_DIR" ? nil : folders.variable($0) }, userID: folders.userID)))) or log in again"
                : nil
            throw Unsafe(
                problem: "cannot create the agent's folder \(folder) (\(String(cString: strerror(code))))", fix: fix)
        }
        try check(folder, missingIsFine: false, home: folders.home)
    }

    /// Refuses a folder that is not this user's alone: a client must not talk to a socket that
    /// someone else could have put there (in /tmp, anyone can make the folder first).
    package func checkFolder(missingIsFine: Bool) throws(Unsafe) {
        try Self.check(folder, missingIsFine: missingIsFine)
    }

    package static func check(_ folder: String, missingIsFine: Bool, home: String? = Environment.folders.home)
        throws(Unsafe)
    {
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            if missingIsFine, errno == ENOENT { return }
            let reason = String(cString: strerror(errno))
            throw Unsafe(
                problem: "cannot use the agent's folder \(folder) (\(reason))",
                fix: "make its parent a folder of yours that you can enter and write to, or set XDG_RUNTIME_DIR to one")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else {
            throw Unsafe(
                problem: "the agent's folder \(folder) is not a folder of this user",
                fix: "remove it; the next request makes a new one")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Unsafe(
                problem:
                    "other users can reach the agent's folder \(folder) (mode \(String(info.st_mode & 0o777, radix: 8)))",
                fix: "run `chmod 700 \(folder)`")
        }
        // The folders above it (the fallback's `~/.cache/wallet-bridge`, `~/.cache`, the home).
        if let reason = ChangeableByOthers.reasonForPath(folder, home: home) {
            throw Unsafe(problem: "another user could replace the agent's folder \(folder)", fix: reason)
        }
    }
}
