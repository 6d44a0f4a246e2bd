#if canImport(Glibc)
import Glibc
#endif
import WalletBridgeSystem

/// Which pinentry program asks for the passphrase, and what to tell the person when it cannot.
///
/// A browser starts the host with no terminal, so Debian's default `pinentry` (curses, through
/// the alternatives system) and `pinentry-tty` cannot ask there. When nothing is configured and
/// there is a display, an installed graphical pinentry is picked instead.
package struct PinentryChoice: Sendable, Equatable {
    /// A name searched in PATH, or a path.
    package let program: String
    /// What the person can do when `program` cannot ask: shown in the log and in the -3
    /// error's `data.fix`.
    package let fix: String

    /// Debian's package for a graphical pinentry, named in every fix that asks to install one.
    static let installAdvice = "sudo apt install pinentry-gtk2 (or pinentry-gnome3, or pinentry-qt)"

    /// Picks the program.
    ///
    /// - `configured` (`WALLET_BRIDGE_PINENTRY`, else `"pinentry"` in the configuration) is
    ///   used as it is.
    /// - Otherwise, with `DISPLAY` or `WAYLAND_DISPLAY` set: the first installed of
    ///   pinentry-gnome3, -gtk-2, -qt. pinentry-gnome3 shows its dialog through the desktop's
    ///   D-Bus prompter; with no session bus it falls back to curses, so without
    ///   `DBUS_SESSION_BUS_ADDRESS` it comes last.
    /// - Otherwise `pinentry`: with no display, only a terminal can ask.
    package static func choose(
        configured: String?, environment: (String) -> String?, isInstalled: (String) -> Bool
    ) -> PinentryChoice {
        if let configured {
            return PinentryChoice(
                program: configured,
                fix:
                    "\(configured) is the configured pinentry: make it work here, or set WALLET_BRIDGE_PINENTRY (or \"pinentry\" in the configuration file) to a graphical pinentry: \(installAdvice)"
            )
        }
        let hasDisplay = environment("DISPLAY") != nil || environment("WAYLAND_DISPLAY") != nil
        guard hasDisplay else {
            return PinentryChoice(
                program: PassphraseSources.defaultPinentry,
                fix:
                    "no dialog (a passphrase or a question) can be shown: DISPLAY and WAYLAND_DISPLAY are unset, so there is no screen to show one on. Run the browser in a graphical session; the agent keeps the environment it started with, so then run `wallet-bridge agent stop` and the next request starts one that has the display"
            )
        }
        let graphical =
            environment("DBUS_SESSION_BUS_ADDRESS") != nil
            ? ["pinentry-gnome3", "pinentry-gtk-2", "pinentry-qt"]
            : ["pinentry-gtk-2", "pinentry-qt", "pinentry-gnome3"]
        if let program = graphical.first(where: isInstalled) {
            return PinentryChoice(
                program: program,
                fix:
                    "\(program) could not show its dialog; check that it works on this display, or install another: \(installAdvice)"
            )
        }
        return PinentryChoice(
            program: PassphraseSources.defaultPinentry,
            fix:
                "no graphical pinentry is installed, and a browser starts the host without a terminal: \(installAdvice)"
        )
    }

    /// The choice for this process: its environment, and programs found in its PATH.
    package static func forThisProcess(configured: String?) -> PinentryChoice {
        choose(configured: configured, environment: Environment.string, isInstalled: isInPath)
    }

    /// True when `name` is an executable file in one of PATH's folders.
    static func isInPath(_ name: String) -> Bool { locate(name) != nil }

    /// The file `program` runs: itself when it has a slash, else the first match in PATH.
    static func locate(_ program: String) -> String? {
        if program.contains("/") { return program }
        let path = Environment.string("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }

    /// True for the pinentries that can only ask in a terminal (pinentry-tty, pinentry-curses,
    /// and `pinentry` when Debian's alternatives point it at one): they cannot ask when the
    /// host has no controlling terminal, and pinentry-tty then answers as if Cancel had been
    /// pressed, which would be reported as `declined`.
    static func needsTerminal(_ program: String) -> Bool {
        guard let found = locate(program), let resolved = realpath(found, nil) else { return false }
        defer { free(resolved) }
        let name = String(cString: resolved).split(separator: "/").last.map(String.init) ?? ""
        return name == "pinentry-tty" || name == "pinentry-curses"
    }

    /// True when this process has a controlling terminal a pinentry could open.
    static var hasTerminal: Bool {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }
}
