#if canImport(Glibc)
import Glibc
#endif

/// Where the keystore lives.
///
/// First of: the `--keystore` option (command line only), `WALLET_BRIDGE_KEYSTORE`, `keystore`
/// in the configuration file, `$XDG_DATA_HOME/wallet-bridge/keystore.json`,
/// `~/.local/share/wallet-bridge/keystore.json`. A path naming an existing folder means
/// `keystore.json` inside it.
public enum KeystoreLocation {
    public static let fileName = "keystore.json"
    public static let environmentVariable = "WALLET_BRIDGE_KEYSTORE"

    /// The keystore file's path, or nil when there is no override and no home folder.
    public static func resolve(option: String? = nil, configured: String? = nil) -> String? {
        if let chosen = option ?? Environment.string(environmentVariable) ?? configured {
            return isFolder(chosen) ? "\(chosen.hasSuffix("/") ? String(chosen.dropLast()) : chosen)/\(fileName)" : chosen
        }
        return Environment.dataHome.map { "\($0)/wallet-bridge/\(fileName)" }
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
