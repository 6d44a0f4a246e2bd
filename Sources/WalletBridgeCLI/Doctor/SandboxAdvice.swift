/// What a Snap or Flatpak browser needs, in words. Doctor explains; it changes nothing:
/// every way into a sandbox trades away some of its protection, and that is the user's call.
enum SandboxAdvice {
    static func advice(for browser: Browser, presence: BrowserPresence, hostName: String, environment: CLIEnvironment) -> [String] {
        var advice: [String] = []
        if let snap = presence.snap.first {
            if browser.family == .firefox {
                advice.append("""
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
                advice.append("""
                    \(browser.displayName) is a Snap (\(snap)): confined, it cannot start a host outside its \
                    sandbox on its own, and not every release can go through the desktop portal. If the \
                    extension reports "Specified native messaging host not found" with the manifest in place, \
                    use \(browser.displayName) from a .deb or .rpm package (or the vendor's repository); \
                    wallet-bridge does not work around the confinement.
                    """)
            }
        }
        for flatpak in presence.flatpak.prefix(1) {
            let inside = Path.join(environment.home, ".var/app/\(flatpak.id)")
            // Inside, HOME is the app folder and XDG_CONFIG_HOME its config/: LibreWolf reads
            // .librewolf/native-messaging-hosts there, Firefox .mozilla/native-messaging-hosts.
            let folder = browser.family == .firefox
                ? Path.join(inside, browser.userHostFolder)
                : Path.join(inside, "config/\(browser.profileFolder)/NativeMessagingHosts")
            let proxy = browser.proxySearchesFolders
                ? "it would find the manifest in \(browser.userHostFolder(in: environment))/"
                : "it does not search \(browser.displayName)'s folders, so the manifest would have to be in one of those as well"
            advice.append("""
                \(browser.displayName) is a Flatpak (\(flatpak.id)): inside its sandbox it sees \(inside)/ but \
                not ~/.mozilla, ~/.config or the wallet-bridge binary, so the ordinary manifest is invisible to it.
                - Where the browser supports xdg-native-messaging-proxy, run the proxy on the host \
                (systemctl --user enable --now xdg-native-messaging-proxy.service). It searches only the \
                Google Chrome, Chromium and Mozilla folders (~/.config/google-chrome/NativeMessagingHosts, \
                ~/.config/chromium/NativeMessagingHosts, ~/.mozilla/native-messaging-hosts and their \
                system-wide counterparts): \(proxy). This is the clean way, where available.
                - Otherwise the manifest must be inside the sandbox (\(folder)/\(hostName).json), and its \
                "path" a wrapper script, also inside, that runs: flatpak-spawn --host <absolute path of \
                wallet-bridge> "$@". That needs `flatpak override --user --talk-name=org.freedesktop.Flatpak \
                \(flatpak.id)`, which lets the browser run any command outside its sandbox: weigh that first. \
                wallet-bridge does not set this up for you.
                """)
        }
        return advice
    }
}
