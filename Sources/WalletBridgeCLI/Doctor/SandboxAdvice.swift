/// What a Snap or Flatpak browser needs, in words. Doctor explains; it changes nothing:
/// every way into a sandbox trades away some of its protection, and that is the user's call.
enum SandboxAdvice {
    /// `hostArguments`: the `--name`, `--binary` and `--description` that keep the host what
    /// it is in the install command the advice names (`Doctor.hostArguments`).
    static func advice(
        for browser: Browser, presence: BrowserPresence, hostName: String, environment: CLIEnvironment,
        hostArguments: [String] = []
    ) -> [String] {
        var advice: [String] = []
        if let snap = presence.snap.first {
            if browser.family == .firefox {
                advice.append(
                    """
                    \(browser.displayName) is a Snap (\(snap)): it cannot start hosts itself. It asks the WebExtensions \
                    portal of xdg-desktop-portal (Ubuntu 22.04 and later) or, on newer systems, \
                    xdg-native-messaging-proxy, to start the host for it.
                    Those read the ordinary folders (~/.mozilla/native-messaging-hosts/, \
                    /usr/lib/mozilla/native-messaging-hosts/), so install as usual, then check:
                    - about:config: widget.use-xdg-desktop-portal.native-messaging must be 1 (always) or 2 (auto, \
                    the Snap's default); 0 turns the portal off and native messaging fails.
                    - the portal (or the proxy) is installed and running in your session.
                    - approve the prompt the first time the extension connects. A refusal is remembered: \
                    delete ~/.local/share/flatpak/db/webextensions to be asked again.
                    """)
            } else {
                advice.append(
                    """
                    \(browser.displayName) is a Snap (\(snap)): confined, it cannot start a host outside its \
                    sandbox on its own, and not every release can go through the desktop portal. If the \
                    extension reports "Specified native messaging host not found" with the manifest in place, \
                    use \(browser.displayName) from a .deb or .rpm package (or the vendor's repository); \
                    wallet-bridge does not work around the confinement.
                    """)
            }
        }
        // The host's own program: the wallet's binary only for the wallet's name.
        let program =
            hostName == ManifestIdentifiers.defaultHostName ? "the wallet-bridge binary" : "\(hostName)'s binary"
        for flatpak in presence.flatpak.prefix(1) {
            let inside = Browser.flatpakAppFolder(flatpak.id, in: environment)
            let folder = browser.flatpakHostFolder(appID: flatpak.id, in: environment)
            let proxy =
                browser.proxySearchesFolders
                ? "it would find the manifest in \(browser.userHostFolder(in: environment))/"
                : "it does not search \(browser.displayName)'s folders, so the manifest would have to be in one of those as well"
            advice.append(
                """
                \(browser.displayName) is a Flatpak (\(flatpak.id)): inside its sandbox it sees \(inside)/ but \
                not ~/.mozilla, ~/.config or \(program), so the ordinary manifest is invisible to it.
                - Where the browser supports xdg-native-messaging-proxy, run the proxy on the host \
                (systemctl --user enable --now xdg-native-messaging-proxy.service). It searches only the \
                Google Chrome, Chromium and Mozilla folders (~/.config/google-chrome/NativeMessagingHosts, \
                ~/.config/chromium/NativeMessagingHosts, ~/.mozilla/native-messaging-hosts and their \
                system-wide counterparts): \(proxy). This is the clean way, where available.
                - Otherwise the manifest must be inside the sandbox (\(folder)/\(hostName).json), and its \
                "path" a wrapper script, also inside, that runs: flatpak-spawn --host <absolute path of \
                \(program)> "$@". `\((["wallet-bridge", "install", "--flatpak", "--browser", browser.id] + hostArguments).map(Shell.quoted).joined(separator: " "))` writes both. They need \
                `\(FlatpakWrapper.overrideCommand(flatpak.id))`, which lets the browser run any command outside \
                its sandbox: weigh that first. wallet-bridge prints that command and never runs it.
                """)
        }
        if browser.userBase == .installFolder, presence.isInstalled,
            let profile = torBrowserAppArmorProfile(environment)
        {
            advice.append(torBrowserAppArmorNote(profile))
        }
        return advice
    }

    /// torbrowser-launcher's AppArmor profile for Tor Browser, when it is on this machine.
    static func torBrowserAppArmorProfile(_ environment: CLIEnvironment) -> String? {
        let profile = environment.system("/etc/apparmor.d/torbrowser.Browser.firefox")
        return FileSystem.exists(profile) ? profile : nil
    }

    /// What that profile means for a host. It lets Tor Browser execute only its own programs
    /// (torbrowser-launcher's apparmor/torbrowser.Browser.firefox: `ix`/`px` rules for files
    /// under the Browser folder, nothing else), so where AppArmor enforces it the browser cannot
    /// start wallet-bridge at all, wherever the manifest is.
    static func torBrowserAppArmorNote(_ profile: String) -> String {
        """
        torbrowser-launcher's AppArmor profile is installed (\(profile)). Where AppArmor enforces it, Tor Browser may run \
        only its own programs, so it cannot start wallet-bridge ("Specified native messaging host not found" or a \
        permission error in the Browser Console, and "apparmor=\"DENIED\"" in the kernel log). Allowing it means a \
        local rule in /etc/apparmor.d/local/torbrowser.Browser.firefox naming the wallet-bridge binary: a hole in \
        the confinement that protects Tor Browser, so decide it deliberately.
        """
    }
}
