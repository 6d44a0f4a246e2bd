/// What on this machine shows that a browser is installed, and how it is packaged.
struct BrowserPresence: Sendable, Equatable {
    /// A file or folder the browser created in the user's profile area.
    var profile: String?
    /// A browser binary outside any sandbox.
    var executable: String?
    /// Paths that show a Snap package of the browser.
    var snap: [String] = []
    /// Paths that show a Flatpak of the browser, with its application ID.
    var flatpak: [FlatpakInstall] = []

    struct FlatpakInstall: Sendable, Equatable {
        var id: String
        var path: String
    }

    var isInstalled: Bool { profile != nil || executable != nil || !snap.isEmpty || !flatpak.isEmpty }
    var isSandboxed: Bool { !snap.isEmpty || !flatpak.isEmpty }
    /// Installed as a Flatpak and in no other way: the ordinary manifest folders are outside
    /// everything it can see.
    var isFlatpakOnly: Bool { !flatpak.isEmpty && profile == nil && executable == nil && snap.isEmpty }

    /// One line on how it was found, for reports.
    var evidence: String {
        var parts: [String] = []
        if let executable { parts.append("binary \(executable)") }
        if let profile { parts.append("profile \(profile)") }
        if let first = snap.first { parts.append("Snap \(first)") }
        if let first = flatpak.first { parts.append("Flatpak \(first.id) at \(first.path)") }
        return parts.isEmpty ? "not found" : parts.joined(separator: ", ")
    }
}

enum BrowserDetection {
    static func presence(of browser: Browser, in environment: CLIEnvironment) -> BrowserPresence {
        var presence = BrowserPresence()
        let bases = browser.userBasePaths(in: environment)
        let markers = bases.flatMap { base in browser.profileMarkers.map { Path.join(base, $0) } }
        presence.profile = (markers + browser.configProfileMarkers.map { Path.join(environment.configHome, $0) })
            .first(where: FileSystem.exists)

        let onPath = browser.executables.lazy.flatMap { name in environment.searchPath.map { Path.join($0, name) } }
        // Relative install paths are inside the browser's own folder (Tor Browser's launcher script).
        let installed = browser.installPaths.flatMap { path in
            path.hasPrefix("/") ? [environment.system(path)] : bases.map { Path.join($0, path) }
        }
        // /snap/bin is on PATH on Snap systems: a binary there is the Snap, not a native install.
        presence.executable = (Array(onPath) + Array(installed)).first { path in
            !path.hasPrefix(environment.system("/snap/")) && isExecutableFile(path)
        }

        for name in browser.snapNames {
            let candidates = [
                environment.system("/snap/bin/\(name)"), environment.system("/snap/\(name)"),
                Path.join(environment.home, "snap/\(name)"),
            ]
            presence.snap += candidates.filter(FileSystem.exists)
        }
        for id in browser.flatpakIDs {
            // Where Flatpak installs apps, system-wide and per user. Not ~/.var/app/<id>: that
            // is only the app's data, left behind by an uninstalled app, and made by
            // `install --flatpak` itself, which would then take its own folder for the browser.
            let candidates = [
                environment.system("/var/lib/flatpak/app/\(id)"),
                Path.join(environment.dataHome, "flatpak/app/\(id)"),
            ]
            presence.flatpak += candidates.filter(FileSystem.exists).map {
                BrowserPresence.FlatpakInstall(id: id, path: $0)
            }
        }
        return presence
    }

    /// Every catalogue browser that is installed, in catalogue order.
    static func installedBrowsers(in environment: CLIEnvironment) -> [Browser] {
        BrowserCatalog.all.filter { presence(of: $0, in: environment).isInstalled }
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        guard let status = FileSystem.status(path) else { return false }
        return status.kind == .file && status.mode & 0o111 != 0
    }
}
