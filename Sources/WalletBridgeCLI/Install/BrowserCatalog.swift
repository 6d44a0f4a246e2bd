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

/// Where a per-user path starts: `$HOME` (the Mozilla folders) or `$XDG_CONFIG_HOME` (Chromium's).
enum UserBase: Sendable {
    case home
    case config
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
    /// System-wide manifest folders, as on `/`; install writes the first.
    let systemHostFolders: [String]
    /// Paths under `userBase` that only the browser itself creates (on first run). The manifest
    /// folder is not one: install creates it, and must not then mistake it for a browser.
    let profileMarkers: [String]
    /// Names looked up on `$PATH`.
    let executables: [String]
    /// Absolute install locations, as on `/`, for packages that put nothing on `$PATH`.
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
            systemHostFolders: ["/usr/lib/mozilla/native-messaging-hosts", "/usr/lib64/mozilla/native-messaging-hosts"],
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
        .chromium(
            "chrome", "Google Chrome", folder: "google-chrome", system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["google-chrome", "google-chrome-stable"], installPaths: ["/opt/google/chrome/chrome"],
            flatpaks: ["com.google.Chrome"]
        ),
        .chromium(
            "chrome-beta", "Google Chrome Beta", folder: "google-chrome-beta", system: "/etc/opt/chrome/native-messaging-hosts",
            executables: ["google-chrome-beta"], installPaths: ["/opt/google/chrome-beta/chrome"]
        ),
        .chromium(
            "chrome-dev", "Google Chrome Dev", folder: "google-chrome-unstable", system: "/etc/opt/chrome/native-messaging-hosts",
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
            executables: ["brave-browser", "brave-browser-stable", "brave"], installPaths: ["/opt/brave.com/brave/brave"],
            snaps: ["brave"], flatpaks: ["com.brave.Browser"]
        ),
        .chromium(
            "vivaldi", "Vivaldi", folder: "vivaldi", system: "/etc/opt/vivaldi/native-messaging-hosts",
            executables: ["vivaldi", "vivaldi-stable"], installPaths: ["/opt/vivaldi/vivaldi"],
            snaps: ["vivaldi"], flatpaks: ["com.vivaldi.Vivaldi"]
        ),
        .chromium(
            "edge", "Microsoft Edge", folder: "microsoft-edge", system: "/etc/opt/edge/native-messaging-hosts",
            executables: ["microsoft-edge", "microsoft-edge-stable"], installPaths: ["/opt/microsoft/msedge/msedge"],
            flatpaks: ["com.microsoft.Edge"]
        ),
    ]

    static var ids: [String] { all.map(\.id) }

    static func named(_ id: String) -> Browser? { all.first { $0.id == id } }
}

extension Browser {
    func userBasePath(in environment: CLIEnvironment) -> String {
        userBase == .home ? environment.home : environment.configHome
    }

    /// The per-user manifest folder.
    func userHostFolder(in environment: CLIEnvironment) -> String {
        Path.join(userBasePath(in: environment), userHostFolder)
    }

    /// The system-wide manifest folders, under the environment's root.
    func systemHostFolders(in environment: CLIEnvironment) -> [String] {
        systemHostFolders.map(environment.system)
    }
}
