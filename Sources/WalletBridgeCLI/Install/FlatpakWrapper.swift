/// What `install --flatpak` puts inside a Flatpak browser's sandbox besides the manifest: a
/// script the browser can start there, which asks Flatpak to run the real host outside.
///
/// A Flatpak sees `~/.var/app/<id>/` at the same path inside as outside, and nothing else of
/// the home folder, so the script lives there and the manifest's `path` names it. It runs
/// `flatpak-spawn --host`, which the Freedesktop runtime ships and which passes stdin, stdout,
/// stderr and the arguments through. That only works once the app may talk to
/// `org.freedesktop.Flatpak` on the session bus: `flatpak override --user
/// --talk-name=org.freedesktop.Flatpak <id>`. That permission lets the app run any command
/// on the host, outside its sandbox, so install prints the command and never runs it.
enum FlatpakWrapper {
    /// Where the script goes for `appID`: `~/.var/app/<id>/data/wallet-bridge/<host>-flatpak`.
    static func path(appID: String, hostName: String, in environment: CLIEnvironment) -> String {
        Path.join(Browser.flatpakAppFolder(appID, in: environment), "data/wallet-bridge/\(hostName)-flatpak")
    }

    /// The script: the host binary's absolute path, quoted for the shell, and the browser's
    /// arguments unchanged. `exec`, so that the browser's signals reach flatpak-spawn, which
    /// forwards them to the host.
    static func script(binary: String, appID: String) -> [UInt8] {
        Array(
            """
            #!/bin/sh
            # Written by `wallet-bridge install --flatpak` for the Flatpak \(appID): the browser starts
            # this inside its sandbox, and flatpak-spawn runs the host outside it. That needs
            #   \(overrideCommand(appID))
            # which lets \(appID) run any command outside its sandbox.
            exec flatpak-spawn --host \(Shell.quoted(binary)) "$@"

            """.utf8)
    }

    /// The permission the wrapper needs, as a command to run by hand.
    static func overrideCommand(_ appID: String) -> String {
        "flatpak override --user --talk-name=org.freedesktop.Flatpak \(Shell.quoted(appID))"
    }
}
