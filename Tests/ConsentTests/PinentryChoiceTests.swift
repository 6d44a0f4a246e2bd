import WalletBridgeWallet
import XCTest
import WalletBridgeConsent

final class PinentryChoiceTests: XCTestCase {
    private func choose(configured: String? = nil, _ environment: [String: String], installed: Set<String>)
        -> PinentryChoice
    {
        PinentryChoice.choose(configured: configured, environment: { environment[$0] }, isInstalled: installed.contains)
    }

    private let all: Set<String> = [
        "pinentry", "pinentry-gnome3", "pinentry-gtk-2", "pinentry-qt", "pinentry-tty", "pinentry-curses",
    ]

    func testWithADisplayAnInstalledGraphicalPinentryIsPicked() {
        let desktop = ["DISPLAY": ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]
        XCTAssertEqual(choose(desktop, installed: all).program, "pinentry-gnome3")
        XCTAssertEqual(choose(desktop, installed: all.subtracting(["pinentry-gnome3"])).program, "pinentry-gtk-2")
        XCTAssertEqual(choose(desktop, installed: ["pinentry", "pinentry-qt"]).program, "pinentry-qt")
        // Wayland alone counts as a display too.
        XCTAssertEqual(
            choose(["WAYLAND_DISPLAY": "wayland-0", "DBUS_SESSION_BUS_ADDRESS": "x"], installed: all).program,
            "pinentry-gnome3")
    }

    func testWithoutADBusSessionGnome3ComesLastBecauseItWouldFallBackToCurses() {
        XCTAssertEqual(choose(["DISPLAY": ":0"], installed: all).program, "pinentry-gtk-2")
        XCTAssertEqual(choose(["DISPLAY": ":0"], installed: ["pinentry-gnome3", "pinentry-qt"]).program, "pinentry-qt")
        XCTAssertEqual(choose(["DISPLAY": ":0"], installed: ["pinentry-gnome3"]).program, "pinentry-gnome3")
    }

    func testWhenNoneCanAskTheFixSaysWhatToInstall() {
        let none = choose(["DISPLAY": ":0"], installed: ["pinentry", "pinentry-curses", "pinentry-tty"])
        XCTAssertEqual(none.program, "pinentry")
        XCTAssertEqual(
            none.fix,
            "no graphical pinentry is installed, and a browser starts the host without a terminal: sudo apt install pinentry-gtk2 (or pinentry-gnome3, or pinentry-qt)"
        )
        let headless = choose([:], installed: all)
        XCTAssertEqual(headless.program, "pinentry", "with no display only a terminal can ask")
        XCTAssertTrue(headless.fix.contains("DISPLAY and WAYLAND_DISPLAY are unset"), headless.fix)
    }

    func testAConfiguredProgramIsUsedAsItIs() {
        let chosen = choose(configured: "/opt/my-pinentry", ["DISPLAY": ":0"], installed: all)
        XCTAssertEqual(chosen.program, "/opt/my-pinentry")
        XCTAssertTrue(
            chosen.fix.hasPrefix(
                "/opt/my-pinentry is the configured pinentry: make it work here, or set WALLET_BRIDGE_PINENTRY"),
            chosen.fix)
    }
}
