#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeSystem

/// Where the keystore lives.
///
/// First of: the `--keystore` option (command line only), `WALLET_BRIDGE_KEYSTORE`, `keystore`
/// in the configuration file, `$XDG_DATA_HOME/wallet-bridge/keystore.json`,
/// `~/.local/share/wallet-bridge/keystore.json`. A path naming an existing folder means
/// `keystore.json` inside it.
package enum KeystoreLocation {
    /// The file's name inside the default folder, or inside a folder given as the location.
    package static let fileName = "keystore.json"
    /// Overrides the location for the host and the command line.
    package static let environmentVariable = "WALLET_BRIDGE_KEYSTORE"

    /// The keystore file's path, or nil when there is no override and no home folder.
    package static func resolve(option: String? = nil, configured: String? = nil) -> String? {
        if let chosen = option ?? Environment.string(environmentVariable) ?? configured {
            return isFolder(chosen)
                ? "\(chosen.hasSuffix("/") ? String(chosen.dropLast()) : chosen)/\(fileName)" : chosen
        }
        return Environment.dataHome.map { "\($0)/wallet-bridge/\(fileName)" }
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
