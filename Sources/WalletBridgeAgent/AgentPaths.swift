#if canImport(Glibc)
import Glibc
#endif
import CSodium
import WalletBridge
import WalletBridgeWallet

/// Where the agent for a keystore listens, and the lock that makes it the only one.
///
/// The folder is `$XDG_RUNTIME_DIR/wallet-bridge/`, or, when `XDG_RUNTIME_DIR` is unset (no
/// systemd login session: a container, su, cron), `/tmp/wallet-bridge-<uid>/`, as tmux and
/// ssh-agent fall back to /tmp. Either way it is 0700 and must belong to this user.
///
/// As with gpg-agent and its home folders, each keystore has its own agent: the default one
/// (`~/.local/share/wallet-bridge/keystore.json` in the home folder the password database
/// names, with no variable changing it) at `agent.sock`, where a systemd socket unit can name
/// it, and any other at `agent-<16 hex digits of a hash of its path>.sock`. A host started
/// with another keystore, or another HOME, never reaches keys it was not meant to; the hello
/// names the keystore too, and an agent refuses a client that expects another.
package struct AgentPaths: Sendable, Equatable {
    package let folder: String
    package let socket: String
    /// Held (flock) by the running agent for its whole life.
    package let lock: String
    /// Where an agent started by a host writes its log (its stderr); nil without a home.
    package let log: String?

    package init(folder: String, name: String, log: String?) {
        self.folder = folder
        socket = "\(folder)/\(name).sock"
        lock = "\(folder)/\(name).lock"
        self.log = log
    }

    /// The paths of the agent that serves the keystore at `keystore`.
    package static func forKeystore(_ keystore: String, folders: UserFolders = Environment.folders) -> AgentPaths {
        let folder = folders.runtimeHome.map { "\($0)/wallet-bridge" } ?? "/tmp/wallet-bridge-\(getuid())"
        let unchanged = UserFolders(variable: { _ in nil }, userID: getuid())
        let isDefault = unchanged.dataHome.map { "\($0)/wallet-bridge/\(KeystoreLocation.fileName)" } == keystore
        let name = isDefault ? "agent" : "agent-\(shortHash(keystore))"
        return AgentPaths(folder: folder, name: name, log: folders.stateHome.map { "\($0)/wallet-bridge/\(name).log" })
    }

    /// What is wrong with the agent's folder.
    package struct Unsafe: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Makes the folder (0700) if it is missing, and refuses one that another user could
    /// reach: a socket there could be replaced by someone else's.
    package func prepareFolder() throws(Unsafe) {
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw Unsafe(description: "cannot create the agent's folder \(folder): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(folder, &info) == 0 else {
            throw Unsafe(description: "cannot use the agent's folder \(folder): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else {
            throw Unsafe(description: "the agent's folder \(folder) is not a folder of this user; remove it")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw Unsafe(description: "other users can reach the agent's folder \(folder) (mode \(String(info.st_mode & 0o777, radix: 8))); run `chmod 700 \(folder)`")
        }
    }

    /// 8 bytes of BLAKE2b of `text`, in hex: a name, not a secret.
    private static func shortHash(_ text: String) -> String {
        Sodium.ensureInitialized()
        var digest = [UInt8](repeating: 0, count: 8)
        let bytes = Array(text.utf8)
        _ = crypto_generichash(&digest, digest.count, bytes, UInt64(bytes.count), nil, 0)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
