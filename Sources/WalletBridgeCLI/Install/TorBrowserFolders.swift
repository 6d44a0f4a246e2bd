/// Where Tor Browser is: it is unpacked, not installed, and reads host manifests only inside
/// its own folder (`Browser/TorBrowser/Data/Browser/.mozilla/native-messaging-hosts`).
///
/// Two places are usual, and both are searched:
/// - torbrowser-launcher's: `$XDG_DATA_HOME/torbrowser/tbb/<arch>/tor-browser`, where `<arch>`
///   is `x86_64` on every 64-bit system and `i686` otherwise (torbrowser_launcher/common.py,
///   `build_paths` and `platform.architecture()`); versions before Tor Browser 12 named the
///   folder `tor-browser_<language>`, which the launcher now renames at start.
/// - the tarball from torproject.org, unpacked in the home folder: `~/tor-browser` (since
///   Tor Browser 12), `~/tor-browser_<language>` before.
/// A copy anywhere else (say `/opt/tor-browser`) is reached with `--browser-dir`.
enum TorBrowserFolders {
    /// The folder every Tor Browser copy has; what tells one from any other folder.
    static let marker = "Browser/TorBrowser"

    /// torbrowser-launcher's folder under `dataHome`, whether it exists or not.
    static func launcherFolder(dataHome: String) -> String {
        Path.join(dataHome, "torbrowser/tbb/x86_64/tor-browser")
    }

    static func launcherFolder(in environment: CLIEnvironment) -> String {
        launcherFolder(dataHome: environment.dataHome)
    }

    /// Every Tor Browser copy found: the launcher's first, then the tarballs in the home
    /// folder, each in name order.
    static func found(in environment: CLIEnvironment) -> [String] {
        var candidates: [String] = []
        for arch in ["x86_64", "i686"] {
            let folder = Path.join(environment.dataHome, "torbrowser/tbb/\(arch)")
            candidates += FileSystem.list(folder).filter { $0.hasPrefix("tor-browser") }.map { Path.join(folder, $0) }
        }
        candidates += FileSystem.list(environment.home).filter { $0.hasPrefix("tor-browser") }.map {
            Path.join(environment.home, $0)
        }
        return candidates.filter { FileSystem.status(Path.join($0, marker))?.kind == .directory }
    }
}
