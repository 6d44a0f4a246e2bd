/// The two manifest dialects. Every supported browser reads one of them.
enum BrowserFamily: String, Sendable, Codable, CaseIterable {
    case firefox
    case chromium

    /// The key that lists who may connect.
    var allowKey: String { self == .firefox ? "allowed_extensions" : "allowed_origins" }
    var otherFamily: BrowserFamily { self == .firefox ? .chromium : .firefox }
    var displayName: String { self == .firefox ? "Firefox-family" : "Chrome-family" }
    /// The install option that supplies this family's IDs.
    var idOption: String { self == .firefox ? "--firefox-addon" : "--chrome-extension" }
}

/// Where a per-user path starts: `$HOME` (the Mozilla folders), `$XDG_CONFIG_HOME` (Chromium's),
/// or the browser's own install folder (Tor Browser, which keeps its profile inside it).
enum UserBase: Sendable {
    case home
    case config
    /// The folders `TorBrowserFolders` finds; there may be several, or none yet.
    case installFolder
}

/// One browser: where it looks for host manifests, and how to tell it is installed.
struct Browser: Sendable, Hashable, CustomStringConvertible {
    /// The `--browser` value.
    let id: String
    let displayName: String
    let family: BrowserFamily
    let userBase: UserBase
    /// The browser's own folder under `userBase` (`.mozilla`, `google-chrome`, …).
    let profileFolder: String
    /// The manifest folder, relative to `userBase`.
    let userHostFolder: String
    /// System-wide manifest folders, as on `/`; install writes the first. Empty for a browser
    /// that reads manifests only in its own folder (Tor Browser).
    let systemHostFolders: [String]
    /// Paths under `userBase` that only the browser itself creates (on first run). The manifest
    /// folder is not one: install creates it, and must not then mistake it for a browser.
    let profileMarkers: [String]
    /// Names looked up on `$PATH`.
    let executables: [String]
    /// Absolute install locations, as on `/`, for packages that put nothing on `$PATH`; for a
    /// browser whose `userBase` is its install folder, paths relative to that folder too.
    let installPaths: [String]
    let snapNames: [String]
    let flatpakIDs: [String]
    /// Profile markers under `$XDG_CONFIG_HOME` for a browser whose `userBase` is home:
    /// Firefox 147 and later keep new profiles in `~/.config/mozilla/firefox`.
    var configProfileMarkers: [String] = []
    /// Whether xdg-native-messaging-proxy searches this browser's folders: it reads only the
    /// Google Chrome, Chromium and Mozilla ones.
    var proxySearchesFolders = false

    var description: String { id }

    /// The manifest folder under a Chromium `--user-data-dir`.
    static let userDataHostFolder = "NativeMessagingHosts"

    static func chromium(
        _ id: String, _ name: String, folder: String, system: String,
        executables: [String], installPaths: [String], snaps: [String] = [], flatpaks: [String] = []
    ) -> Browser {
        Browser(
            id: id, displayName: name, family: .chromium, userBase: .config,
            profileFolder: folder, userHostFolder: folder + "/" + userDataHostFolder,
            systemHostFolders: [system],
            profileMarkers: [folder + "/Local State", folder + "/Default"],
            executables: executables, installPaths: installPaths, snapNames: snaps, flatpakIDs: flatpaks,
            proxySearchesFolders: ["google-chrome", "chromium"].contains(folder)
        )
    }
}

/// Every browser install, uninstall and doctor know, in the order they are reported.
enum BrowserCatalog {
    static let all: [Browser] = [
        Browser(
            id: "firefox", displayName: "Firefox", family: .firefox, userBase: .home,
            profileFolder: ".mozilla", userHostFolder: ".mozilla/native-messaging-hosts",
            systemHostFolders: [
                "/usr/lib/mozilla/native-messaging-hosts", "/usr/lib64/mozilla/native-messaging-hosts",
            ],
            profileMarkers: [".mozilla/firefox"],
            executables: ["firefox", "firefox-esr"],
            installPaths: ["/usr/lib/firefox/firefox", "/usr/lib/firefox-esr/firefox-esr", "/opt/firefox/firefox"],
            snapNames: ["firefox"], flatpakIDs: ["org.mozilla.firefox"],
            configProfileMarkers: ["mozilla/firefox"], proxySearchesFolders: true
        ),
        Browser(
            id: "librewolf", displayName: "LibreWolf", family: .firefox, userBase: .home,
            profileFolder: ".librewolf", userHostFolder: ".librewolf/native-messaging-hosts",
            systemHostFolders: ["/usr/lib/librewolf/native-messaging-hosts"],
            // LibreWolf keeps profiles directly in ~/.librewolf, next to the manifest folder.
            profileMarkers: [".librewolf/profiles.ini", ".librewolf/installs.ini"],
            executables: ["librewolf"],
            installPaths: ["/usr/lib/librewolf/librewolf", "/opt/librewolf/librewolf"],
            snapNames: [], flatpakIDs: ["io.gitlab.librewolf-community"]
        ),
        // Tor Browser keeps its profile, and the folder it reads manifests from, inside its own
        // folder: <tor-browser>/Browser/TorBrowser/Data/Browser/.mozilla/native-messaging-hosts.
        // Sources: torbrowser-launcher issue #301 and keepassxc-browser issues #687 and #1890
        // (users and KeePassXC's developer found Tor Browser reading exactly that folder, for
        // the launcher's copy and for a tarball in /opt/tor-browser); KeePassXC's
        // NativeMessageInstaller.cpp writes there. Where the folder is: TorBrowserFolders.
        Browser(
            id: "tor-browser", displayName: "Tor Browser", family: .firefox, userBase: .installFolder,
            profileFolder: "Browser/TorBrowser/Data/Browser",
            userHostFolder: "Browser/TorBrowser/Data/Browser/.mozilla/native-messaging-hosts",
            // Its own folder only: a per-user copy, nothing in /usr/lib/mozilla is ours to rely on.
            systemHostFolders: [],
            profileMarkers: [
                "Browser/TorBrowser/Data/Browser/profile.default", "Browser/TorBrowser/Data/Browser/profiles.ini",
            ],
            // torbrowser-launcher (Debian, Ubuntu, Fedora) downloads Tor Browser on first run.
            executables: ["torbrowser-launcher"],
            installPaths: ["Browser/start-tor-browser"],
            // Flathub's torbrowser-launcher (the ID in its metainfo.xml).
            snapNames: [], flatpakIDs: ["org.torproject.torbrowser-launcher"]
        ),
        .chromium(
            "chrome", "Google Chrome", folder: "google-chrome", system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["google-chrome", "google-chrome-stable"], installPaths: ["/opt/google/chrome/chrome"],
            flatpaks: ["com.google.Chrome"]
        ),
        .chromium(
            "chrome-beta", "Google Chrome Beta", folder: "google-chrome-beta",
            system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["google-chrome-beta"], installPaths: ["/opt/google/chrome-beta/chrome"]
        ),
        .chromium(
            "chrome-dev", "Google Chrome Dev", folder: "google-chrome-unstable",
            system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["google-chrome-unstable"], installPaths: ["/opt/google/chrome-unstable/chrome"],
            flatpaks: ["com.google.ChromeDev"]
        ),
        .chromium(
            "chromium", "Chromium", folder: "chromium", system: "/etc/chromium/native-messaging-hosts",
            executables: ["chromium", "chromium-browser"], installPaths: ["/usr/lib/chromium/chromium"],
            snaps: ["chromium"], flatpaks: ["org.chromium.Chromium"]
        ),
        .chromium(
            "brave", "Brave", folder: "BraveSoftware/Brave-Browser", system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["brave-browser", "brave-browser-stable", "brave"],
            installPaths: ["/opt/brave.com/brave/brave"],
            snaps: ["brave"], flatpaks: ["com.brave.Browser"]
        ),
        // Brave's channels: the user folder gets the channel's suffix (brave-core,
        // chromium_src/chrome/common/chrome_paths_linux.cc: "BraveSoftware/Brave-Browser" plus
        // -Beta or -Nightly); the system folder is Chrome's for every channel (brave-core's
        // BraveMainDelegate::PreSandboxStartup overrides DIR_NATIVE_MESSAGING with it).
        .chromium(
            "brave-beta", "Brave Beta", folder: "BraveSoftware/Brave-Browser-Beta",
            system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["brave-browser-beta"], installPaths: ["/opt/brave.com/brave-beta/brave"]
        ),
        .chromium(
            "brave-nightly", "Brave Nightly", folder: "BraveSoftware/Brave-Browser-Nightly",
            system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["brave-browser-nightly"], installPaths: ["/opt/brave.com/brave-nightly/brave"]
        ),
        .chromium(
            "vivaldi", "Vivaldi", folder: "vivaldi", system: "/etc/opt/vivaldi/native-messaging-hosts",
            executables: ["vivaldi", "vivaldi-stable"], installPaths: ["/opt/vivaldi/vivaldi"],
            snaps: ["vivaldi"], flatpaks: ["com.vivaldi.Vivaldi"]
        ),
        // Vivaldi's snapshot channel: its own profile folder, ~/.config/vivaldi-snapshot, and
        // /opt/vivaldi-snapshot (its .deb's postinst links /usr/bin/vivaldi-snapshot there).
        // The system folder is assumed to be the stable channel's, as Chrome's channels share
        // theirs: not confirmed from Vivaldi's (closed) source.
        .chromium(
            "vivaldi-snapshot", "Vivaldi Snapshot", folder: "vivaldi-snapshot",
            system: "/etc/opt/vivaldi/native-messaging-hosts",
            executables: ["vivaldi-snapshot"], installPaths: ["/opt/vivaldi-snapshot/vivaldi-snapshot"]
        ),
        .chromium(
            "edge", "Microsoft Edge", folder: "microsoft-edge", system: "/etc/opt/edge/native-messaging-hosts",
            executables: ["microsoft-edge", "microsoft-edge-stable"], installPaths: ["/opt/microsoft/msedge/msedge"],
            flatpaks: ["com.microsoft.Edge"]
        ),
        // Edge's channels: ~/.config/microsoft-edge-beta and -dev (as other hosts' installers
        // write them), /opt/microsoft/msedge-beta and -dev; the system folder is the stable
        // channel's /etc/opt/edge, shared as Chrome's channels share /etc/opt/chrome (Edge's
        // source is closed; Microsoft's page names only /etc/opt/edge).
        .chromium(
            "edge-beta", "Microsoft Edge Beta", folder: "microsoft-edge-beta",
            system: "/etc/opt/edge/native-messaging-hosts",
            executables: ["microsoft-edge-beta"], installPaths: ["/opt/microsoft/msedge-beta/msedge"]
        ),
        .chromium(
            "edge-dev", "Microsoft Edge Dev", folder: "microsoft-edge-dev",
            system: "/etc/opt/edge/native-messaging-hosts",
            executables: ["microsoft-edge-dev"], installPaths: ["/opt/microsoft/msedge-dev/msedge"],
            flatpaks: ["com.microsoft.EdgeDev"]
        ),
    ]

    static var ids: [String] { all.map(\.id) }

    static func named(_ id: String) -> Browser? { all.first { $0.id == id } }
}

extension Browser {
    /// Where the per-user paths start: for Tor Browser, the first of its folders found (or,
    /// with none, torbrowser-launcher's).
    func userBasePath(in environment: CLIEnvironment) -> String {
        userBasePaths(in: environment)[0]
    }

    /// Every place the per-user paths start. One, except for Tor Browser: each copy found.
    func userBasePaths(in environment: CLIEnvironment) -> [String] {
        switch userBase {
        case .home: [environment.home]
        case .config: [environment.configHome]
        case .installFolder:
            TorBrowserFolders.found(in: environment).isEmpty
                ? [TorBrowserFolders.launcherFolder(in: environment)] : TorBrowserFolders.found(in: environment)
        }
    }

    /// The per-user manifest folder (the first, for Tor Browser).
    func userHostFolder(in environment: CLIEnvironment) -> String {
        userHostFolders(in: environment)[0]
    }

    /// Every per-user manifest folder: one per Tor Browser copy, one for any other browser.
    func userHostFolders(in environment: CLIEnvironment) -> [String] {
        userBasePaths(in: environment).map { Path.join($0, userHostFolder) }
    }

    /// The manifest folder inside the Flatpak `appID`'s sandbox, as seen from outside it.
    ///
    /// Inside, Flathub's browsers keep `~/.mozilla` (`~/.librewolf`) in the app folder
    /// (`--persist`), and have `XDG_CONFIG_HOME` and `XDG_DATA_HOME` set to its `config/` and
    /// `data/`: Chromium-family browsers read `config/<folder>/NativeMessagingHosts`, and
    /// torbrowser-launcher unpacks Tor Browser under `data/torbrowser/`.
    func flatpakHostFolder(appID: String, in environment: CLIEnvironment) -> String {
        let app = Self.flatpakAppFolder(appID, in: environment)
        switch userBase {
        case .home: return Path.join(app, userHostFolder)
        case .config: return Path.join(app, "config/\(profileFolder)/\(Self.userDataHostFolder)")
        case .installFolder:
            return Path.join(TorBrowserFolders.launcherFolder(dataHome: Path.join(app, "data")), userHostFolder)
        }
    }

    /// `~/.var/app/<id>`: all a Flatpak sees of the home folder, at the same path inside.
    static func flatpakAppFolder(_ appID: String, in environment: CLIEnvironment) -> String {
        Path.join(environment.home, ".var/app/\(appID)")
    }

    /// The system-wide manifest folders, under the environment's root.
    func systemHostFolders(in environment: CLIEnvironment) -> [String] {
        systemHostFolders.map(environment.system)
    }
}
