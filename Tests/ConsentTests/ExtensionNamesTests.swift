#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import WalletBridge
@testable import WalletBridgeWallet
import WalletBridgeTestSupport
import XCTest
@testable import WalletBridgeConsent

/// The extension's installed name, read from a browser profile found through the browser's
/// command line. A stand-in "browser" is a shell that waits on its standard input, started
/// with the flags a browser would have; the profiles are fake folders.
final class ExtensionNamesTests: XCTestCase {
    private var standIns: [Process] = []
    private var root = ""
    /// XDG_CONFIG_HOME before a test changed it (nil: the test did not).
    private var savedConfigHome: String??

    private let phantomID = "bfnaelmomeimhlpmgjnjophhpkkoljpa"
    private let solflareID = "bhhhlbepdkbapadjdnnojkbgioiodbic"
    private let unpackedID = "abcdefghijklmnopabcdefghijklmnop"

    override func setUp() {
        root = temporaryFolder(self)
    }

    override func tearDown() {
        if let savedConfigHome {
            if let value = savedConfigHome { setenv("XDG_CONFIG_HOME", value, 1) } else { unsetenv("XDG_CONFIG_HOME") }
            self.savedConfigHome = nil
        }
        for process in standIns where process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        standIns = []
    }

    // MARK: Helpers

    /// Starts a process whose command line ends with `arguments`, and waits until
    /// /proc/<pid>/cmdline shows them. It has no child: `read` is a shell builtin.
    private func startBrowser(_ arguments: [String], executable: String = "/bin/sh", script: String = "read line")
        throws -> Int32
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-c", script, "fake-browser"] + arguments
        process.standardInput = Pipe()  // never written: `read` waits until terminate()
        try process.run()
        standIns.append(process)
        let pid = process.processIdentifier
        try waitUntil("the stand-in's command line shows \(arguments): \(commandLine(of: pid))") {
            commandLine(of: pid).suffix(arguments.count) == ArraySlice(arguments)
        }
        return pid
    }

    private func commandLine(of pid: Int32) -> [String] {
        let fd = open("/proc/\(pid)/cmdline", O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        if bytes.last == 0 { bytes.removeLast() }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    private func write(_ text: String, to path: String) {
        makeFolder(String(path[..<path.lastIndex(of: "/")!]))
        writeBytes(Array(text.utf8), path)
    }

    private func makeFolder(_ path: String) {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/\(component)"
            mkdir(partial, 0o700)
        }
    }

    private func chrome(_ id: String) -> Caller { .chromeExtension(origin: "chrome-extension://\(id)/") }

    private func firefox(_ id: String) -> Caller {
        .firefoxAddon(id: id, manifestPath: "/usr/lib/mozilla/native-messaging-hosts/wallet_bridge.json")
    }

    /// A Chromium user-data folder with a packed extension in Default, a localized one in
    /// Profile 2, and an unpacked one recorded in Profile 1's Secure Preferences.
    private func chromiumUserData() -> String {
        let userData = "\(root)/chromium"
        write(
            #"{"name":"Phantom","version":"1.2.3","manifest_version":3}"#,
            to: "\(userData)/Default/Extensions/\(phantomID)/1.2.3_0/manifest.json")
        write(
            #"{"name":"__MSG_appName__","default_locale":"en","version":"2.0"}"#,
            to: "\(userData)/Profile 2/Extensions/\(solflareID)/2.0_0/manifest.json")
        write(
            #"{"appName":{"message":"Solflare Wallet","description":"the name"}}"#,
            to: "\(userData)/Profile 2/Extensions/\(solflareID)/2.0_0/_locales/en/messages.json")
        let unpacked = "\(root)/source/unpacked-wallet"
        write(#"{"name":"My Unpacked Wallet","version":"0.1"}"#, to: "\(unpacked)/manifest.json")
        write(
            #"{"extensions":{"settings":{"\#(unpackedID)":{"path":"\#(unpacked)","location":4}}}}"#,
            to: "\(userData)/Profile 1/Secure Preferences")
        return userData
    }

    // MARK: Chromium

    func testAPackedExtensionsName() throws {
        let pid = try startBrowser(["--user-data-dir=\(chromiumUserData())"])
        XCTAssertEqual(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid), "Phantom")
        XCTAssertEqual(ExtensionNames.chromiumName(id: phantomID, browserProcess: pid), "Phantom")
    }

    func testTheNewestVersionWins() throws {
        let userData = chromiumUserData()
        write(#"{"name":"Phantom 2"}"#, to: "\(userData)/Default/Extensions/\(phantomID)/1.3.0_0/manifest.json")
        let pid = try startBrowser(["--user-data-dir=\(userData)"])
        XCTAssertEqual(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid), "Phantom 2")
    }

    func testALocalizedName() throws {
        let pid = try startBrowser(["--user-data-dir=\(chromiumUserData())"])
        XCTAssertEqual(ExtensionNames.name(of: chrome(solflareID), browserProcess: pid), "Solflare Wallet")
    }

    func testMessageNamesAreCaseInsensitive() throws {
        let folder = "\(root)/upper"
        write(#"{"name":"__MSG_APPNAME__","default_locale":"en"}"#, to: "\(folder)/manifest.json")
        write(#"{"appName":{"message":"Solflare Wallet"}}"#, to: "\(folder)/_locales/en/messages.json")
        XCTAssertEqual(ExtensionNames.manifestName(in: folder), "Solflare Wallet")

        let mixed = "\(root)/mixed"
        write(#"{"name":"__MSG_appname__","default_locale":"en_US"}"#, to: "\(mixed)/manifest.json")
        write(
            "\u{FEFF}" + #"{"AppName":{"message":"With a byte order mark"}}"#,
            to: "\(mixed)/_locales/en_US/messages.json")
        XCTAssertEqual(ExtensionNames.manifestName(in: mixed), "With a byte order mark")
    }

    func testAMessageThatCannotBeResolvedGivesNoName() {
        let noLocale = "\(root)/no-locale"
        write(#"{"name":"__MSG_appName__"}"#, to: "\(noLocale)/manifest.json")
        XCTAssertNil(ExtensionNames.manifestName(in: noLocale), "no default_locale")

        let missing = "\(root)/missing-message"
        write(#"{"name":"__MSG_appName__","default_locale":"en"}"#, to: "\(missing)/manifest.json")
        write(#"{"other":{"message":"Other"}}"#, to: "\(missing)/_locales/en/messages.json")
        XCTAssertNil(ExtensionNames.manifestName(in: missing), "no such message")

        let escaping = "\(root)/escaping-locale"
        write(#"{"name":"Outside"}"#, to: "\(root)/manifest.json")
        write(#"{"name":"__MSG_appName__","default_locale":"../../x"}"#, to: "\(escaping)/manifest.json")
        XCTAssertNil(ExtensionNames.manifestName(in: escaping), "a locale with a slash is not followed")

        XCTAssertNil(ExtensionNames.manifestName(in: "\(root)/nothing-here"))
    }

    func testAnUnpackedExtensionsName() throws {
        let pid = try startBrowser(["--user-data-dir=\(chromiumUserData())"])
        XCTAssertEqual(ExtensionNames.name(of: chrome(unpackedID), browserProcess: pid), "My Unpacked Wallet")
    }

    /// Both IDs were read from a real Chromium's Preferences after it loaded the extension with
    /// --load-extension: the example extension (its manifest has a `key`), and a manifest
    /// without one in /tmp/wb-unpacked.
    func testUnpackedIDsAreChromiumsOwn() throws {
        let manifest = try String(
            contentsOfFile: "\(packageRoot)/examples/extension/chromium/manifest.json", encoding: .utf8)
        guard case .object(let members) = try JSONParser.parse(Array(manifest.utf8)),
            case .string(let key)? = members["key"]
        else {
            return XCTFail("the example manifest has no key")
        }
        XCTAssertEqual(ExtensionNames.chromiumID(key: key, folder: "/anywhere"), "oeloogpinfhebldicgpgcpochgkpponn")
        XCTAssertEqual(
            ExtensionNames.chromiumID(key: nil, folder: "/tmp/wb-unpacked"), "icobfjejhnkmkhjoagjfmnecmejjfndm")
        XCTAssertNil(ExtensionNames.chromiumID(key: "not base64!", folder: "/anywhere"))
    }

    /// Chromium writes an extension loaded from its command line into Preferences only seconds
    /// after start-up: until then the name comes from the folder the command line names.
    func testAnExtensionLoadedFromTheCommandLineBeforePreferencesRecordIt() throws {
        let unpacked = "\(root)/source/loaded wallet"
        write(#"{"name":"Loaded Wallet","version":"0.1"}"#, to: "\(unpacked)/manifest.json")
        let other = "\(root)/source/other"
        write(#"{"name":"Other","version":"0.1"}"#, to: "\(other)/manifest.json")
        let id = try XCTUnwrap(ExtensionNames.unpackedChromiumID(unpacked))
        let pid = try startBrowser(["--user-data-dir=\(root)/empty-profile", "--load-extension=\(other),\(unpacked)"])
        XCTAssertEqual(ExtensionNames.name(of: chrome(id), browserProcess: pid), "Loaded Wallet")
        XCTAssertNil(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid), "an ID no loaded folder has")
    }

    func testTheProfileDirectoryFlagLimitsTheSearch() throws {
        let userData = chromiumUserData()
        let pid = try startBrowser(["--user-data-dir=\(userData)", "--profile-directory=Profile 1"])
        XCTAssertEqual(ExtensionNames.name(of: chrome(unpackedID), browserProcess: pid), "My Unpacked Wallet")
        XCTAssertNil(
            ExtensionNames.name(of: chrome(phantomID), browserProcess: pid), "Phantom is installed in Default only")
    }

    func testAnUnknownExtensionHasNoName() throws {
        let pid = try startBrowser(["--user-data-dir=\(chromiumUserData())"])
        XCTAssertNil(ExtensionNames.name(of: chrome("pppppppppppppppppppppppppppppppp"), browserProcess: pid))
        XCTAssertNil(ExtensionNames.name(of: .unidentified, browserProcess: pid))
    }

    func testAnIDCannotLeaveTheExtensionsFolder() throws {
        let userData = chromiumUserData()
        // What Extensions/../1.0/manifest.json would reach.
        write(#"{"name":"Not An Extension"}"#, to: "\(userData)/Default/1.0/manifest.json")
        let pid = try startBrowser(["--user-data-dir=\(userData)"])
        XCTAssertNil(ExtensionNames.name(of: .chromeExtension(origin: "chrome-extension://../"), browserProcess: pid))
        XCTAssertNil(ExtensionNames.chromiumName(id: "..", browserProcess: pid))
        XCTAssertNil(ExtensionNames.chromiumName(id: "", browserProcess: pid))
    }

    func testAnEmptyNameIsNoName() throws {
        let userData = chromiumUserData()
        write(#"{"name":""}"#, to: "\(userData)/Default/Extensions/\(phantomID)/9.9.9_0/manifest.json")
        let pid = try startBrowser(["--user-data-dir=\(userData)"])
        XCTAssertNil(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid))
    }

    func testAMissingProfileGivesNoName() throws {
        let missing = try startBrowser(["--user-data-dir=\(root)/does-not-exist"])
        XCTAssertNil(ExtensionNames.name(of: chrome(phantomID), browserProcess: missing))
        // No flag, and /bin/sh is no browser whose default folder is known.
        let plain = try startBrowser(["--some-other-flag"])
        XCTAssertNil(ExtensionNames.name(of: chrome(phantomID), browserProcess: plain))
        XCTAssertNil(ExtensionNames.name(of: firefox("wallet@example.org"), browserProcess: plain))
    }

    func testAProcessThatIsGoneGivesNoName() throws {
        let pid = try startBrowser(["--user-data-dir=\(chromiumUserData())"])
        XCTAssertEqual(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid), "Phantom")
        let process = try XCTUnwrap(standIns.last)
        process.terminate()
        process.waitUntilExit()
        XCTAssertNil(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid))
    }

    // MARK: Without flags: the browser's default folder

    /// A copy of /bin/sh named like a Chromium executable, so /proc/<pid>/exe says "chromium",
    /// with XDG_CONFIG_HOME pointing at a folder whose `chromium` is the fake user-data folder.
    private func startDefaultChromium() throws -> Int32 {
        let config = "\(root)/config"
        makeFolder(config)
        XCTAssertEqual(rename(chromiumUserData(), "\(config)/chromium"), 0)
        savedConfigHome = .some(getenv("XDG_CONFIG_HOME").map { String(cString: $0) })
        setenv("XDG_CONFIG_HOME", config, 1)
        let executable = "\(root)/bin/chromium"
        makeFolder("\(root)/bin")
        writeBytes(try readBytes("/bin/sh"), executable)
        chmod(executable, 0o700)
        return try startBrowser(["--no-user-data-dir-flag"], executable: executable)
    }

    func testTheDefaultChromiumFolderIsFoundFromTheExecutable() throws {
        let pid = try startDefaultChromium()
        XCTAssertEqual(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid), "Phantom")
        XCTAssertEqual(ExtensionNames.name(of: chrome(solflareID), browserProcess: pid), "Solflare Wallet")
        XCTAssertEqual(ExtensionNames.name(of: chrome(unpackedID), browserProcess: pid), "My Unpacked Wallet")
        XCTAssertNil(ExtensionNames.name(of: chrome("pppppppppppppppppppppppppppppppp"), browserProcess: pid))
        XCTAssertNil(ExtensionNames.name(of: .unidentified, browserProcess: pid))
    }

    func testAFirefoxProfileIsFoundFromItsOpenPlacesDatabase() throws {
        let profile = firefoxProfile()
        writeBytes([], "\(profile)/places.sqlite")
        let pid = try startBrowser(["\(profile)/places.sqlite"], script: #"exec 3<"$1"; read line"#)
        try waitUntil("the stand-in opens the database") { directoryEntries("/proc/\(pid)/fd").contains("3") }
        XCTAssertEqual(ExtensionNames.name(of: firefox("wallet@example.org"), browserProcess: pid), "My Firefox Wallet")
        XCTAssertNil(ExtensionNames.name(of: firefox("unknown@example.org"), browserProcess: pid))
    }

    // MARK: Firefox

    private func firefoxProfile() -> String {
        let profile = "\(root)/firefox/abcd1234.default-release"
        write(
            """
            {"schemaVersion":36,"addons":[
              {"id":"other@example.org","defaultLocale":{"name":"Another Add-on"}},
              {"id":"wallet@example.org","type":"extension","defaultLocale":{"name":"My Firefox Wallet","creator":"Someone"}},
              {"id":"nameless@example.org","defaultLocale":{}}
            ]}
            """, to: "\(profile)/extensions.json")
        return profile
    }

    func testAFirefoxAddOnsName() throws {
        let pid = try startBrowser(["-profile", firefoxProfile()])
        XCTAssertEqual(ExtensionNames.name(of: firefox("wallet@example.org"), browserProcess: pid), "My Firefox Wallet")
        XCTAssertEqual(ExtensionNames.name(of: firefox("other@example.org"), browserProcess: pid), "Another Add-on")
        XCTAssertEqual(ExtensionNames.firefoxName(id: "wallet@example.org", browserProcess: pid), "My Firefox Wallet")
    }

    func testTheLongProfileFlagToo() throws {
        let pid = try startBrowser(["--profile", firefoxProfile()])
        XCTAssertEqual(ExtensionNames.name(of: firefox("wallet@example.org"), browserProcess: pid), "My Firefox Wallet")
    }

    func testAnUnknownOrNamelessAddOnHasNoName() throws {
        let pid = try startBrowser(["-profile", firefoxProfile()])
        XCTAssertNil(ExtensionNames.name(of: firefox("unknown@example.org"), browserProcess: pid))
        XCTAssertNil(ExtensionNames.name(of: firefox("nameless@example.org"), browserProcess: pid))
        // A Firefox profile says nothing about a Chromium extension.
        XCTAssertNil(ExtensionNames.name(of: chrome(phantomID), browserProcess: pid))
    }

    /// Writes `addons` as the profile's add-on list the way Firefox does: a new file renamed
    /// into place, so a reader never sees half of it.
    private func writeAddOnList(_ addons: String, in profile: String) {
        write(#"{"schemaVersion":36,"addons":[\#(addons)]}"#, to: "\(profile)/extensions.json.tmp")
        XCTAssertEqual(rename("\(profile)/extensions.json.tmp", "\(profile)/extensions.json"), 0)
    }

    private let walletAddOn = #"{"id":"wallet@example.org","defaultLocale":{"name":"My Firefox Wallet"}}"#

    /// `ExtensionNames.name(of:browserProcess:patience:clocks:)` in a task, on `clock`, while
    /// `meanwhile` runs here. The tests stay synchronous because Foundation's `Process`, which
    /// starts the stand-in browsers, waits for them only on the thread that started them. A
    /// lookup still waiting after 10 seconds (for a clock that only `meanwhile` moves) fails.
    private func nameWaitedFor(
        _ caller: Caller, browserProcess pid: Int32, patience: Duration, clock: ManualClock,
        meanwhile: (_ ended: () -> Bool) -> Void = { _ in }
    ) -> String? {
        let found = Mutex<(ended: Bool, name: String?)>((false, nil))
        let done = expectation(description: "the lookup ended")
        let lookup = Task { [clocks = clock.clocks] in
            let name = await ExtensionNames.name(of: caller, browserProcess: pid, patience: patience, clocks: clocks)
            found.withLock { $0 = (true, name) }
            done.fulfill()
        }
        meanwhile { found.withLock { $0.ended } }
        wait(for: [done], timeout: 10)
        lookup.cancel()
        return found.withLock { $0.name }
    }

    /// Returns once the lookup waits on `clock` (fails after 10 seconds).
    private func waitUntilWaiting(on clock: ManualClock) {
        let waiting = expectation(description: "the lookup waits")
        Task {
            await clock.sleepers(atLeast: 1)
            waiting.fulfill()
        }
        wait(for: [waiting], timeout: 10)
    }

    /// Waits until a file written now is stamped after the process `pid` started: a list must
    /// be, to count as written in this run, and the file system stamps files from a coarse
    /// clock. A millisecond over the start: more than its two readings of the clocks, one after
    /// the other, can differ by.
    private func waitUntilFilesAreStampedAfterTheStart(of pid: Int32, line: UInt = #line) throws {
        let started = try XCTUnwrap(ExtensionNames.startTime(of: pid), line: line) + 0.001
        try waitUntilFilesAreStamped(
            after: timespec(tv_sec: Int(started), tv_nsec: Int((started - started.rounded(.down)) * 1e9)),
            in: temporaryFolder(self), line: line)
    }

    /// Starts a Firefox stand-in on `profile`, whose list must be pending; writes the list with
    /// the add-on in it while the lookup waits, which must then find the name on its next look.
    private func assertTheNameIsWaitedFor(profile: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let pid = try startBrowser(["-profile", profile])
        XCTAssertTrue(ExtensionNames.firefoxListIsPending(pid), file: file, line: line)
        let clock = ManualClock()
        let name = nameWaitedFor(
            firefox("wallet@example.org"), browserProcess: pid, patience: .seconds(60), clock: clock
        ) { _ in
            waitUntilWaiting(on: clock)
            try? waitUntilFilesAreStampedAfterTheStart(of: pid)
            writeAddOnList(walletAddOn, in: profile)
            clock.advance(by: .milliseconds(50))
        }
        XCTAssertEqual(name, "My Firefox Wallet", file: file, line: line)
        XCTAssertFalse(
            ExtensionNames.firefoxListIsPending(pid), "the list is newer than the browser now", file: file, line: line)
    }

    /// A fresh profile: Firefox has not written its list yet when the add-on first asks.
    func testAnAddOnsNameIsWaitedForUntilFirefoxWritesItsFirstList() throws {
        let profile = "\(root)/firefox/fresh"
        makeFolder(profile)
        try assertTheNameIsWaitedFor(profile: profile)
    }

    /// A list from the profile's last run, before the add-on was put in it.
    func testAnAddOnsNameIsWaitedForWhileTheListIsOlderThanTheBrowser() throws {
        let profile = "\(root)/firefox/used"
        makeFolder(profile)
        writeAddOnList(#"{"id":"other@example.org","defaultLocale":{"name":"Another Add-on"}}"#, in: profile)
        let anHourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        XCTAssertEqual(utimensat(AT_FDCWD, "\(profile)/extensions.json", [anHourAgo, anHourAgo], 0), 0)
        try assertTheNameIsWaitedFor(profile: profile)
    }

    /// A list that Firefox wrote in this run and that does not name the add-on is its answer:
    /// no wait (the patience here is ten seconds).
    func testAnAddOnMissingFromAListWrittenInThisRunIsNotWaitedFor() throws {
        let profile = "\(root)/firefox/current"
        makeFolder(profile)
        let pid = try startBrowser(["-profile", profile])
        try waitUntilFilesAreStampedAfterTheStart(of: pid)
        writeAddOnList(#"{"id":"other@example.org","defaultLocale":{"name":"Another Add-on"}}"#, in: profile)
        XCTAssertFalse(ExtensionNames.firefoxListIsPending(pid))
        // On a clock nobody moves: a lookup that waited would never end.
        let clock = ManualClock()
        XCTAssertNil(
            nameWaitedFor(firefox("wallet@example.org"), browserProcess: pid, patience: .seconds(10), clock: clock))
        // Nor for a Chromium extension, whose browser keeps no such list.
        XCTAssertNil(nameWaitedFor(chrome(phantomID), browserProcess: pid, patience: .seconds(10), clock: clock))
        XCTAssertEqual(clock.deadlines, [], "it waited for a list that was already written")
    }

    /// A Firefox past its start-up whose add-ons did not change never writes its list: a name
    /// missing from it is not waited for.
    func testAFirefoxPastItsStartUpIsNotWaitedFor() throws {
        let profile = "\(root)/firefox/long-running"
        makeFolder(profile)
        let pid = try startBrowser(["-profile", profile])
        XCTAssertTrue(ExtensionNames.firefoxListIsPending(pid))
        XCTAssertFalse(ExtensionNames.firefoxListIsPending(pid, startUp: .zero), "started longer ago than the start-up")
    }

    /// The wait ends at its patience when no list comes.
    func testTheWaitEndsAtItsPatience() throws {
        let profile = "\(root)/firefox/never-written"
        makeFolder(profile)
        let pid = try startBrowser(["-profile", profile])
        let clock = ManualClock()
        let name = nameWaitedFor(
            firefox("wallet@example.org"), browserProcess: pid, patience: .milliseconds(300), clock: clock
        ) { ended in
            waitUntilWaiting(on: clock)
            clock.advance(by: .milliseconds(299))
            waitUntilWaiting(on: clock)
            XCTAssertFalse(ended(), "gave up before its patience")
            clock.advance(by: .milliseconds(1))
        }
        XCTAssertNil(name)
    }

    /// `-profile` with a relative folder is the browser's working folder's.
    func testARelativeProfileFolderIsTheBrowsersWorkingFolders() throws {
        _ = firefoxProfile()
        let pid = try startBrowser(
            ["-profile", "firefox/abcd1234.default-release", root], script: #"cd "$3" && read line"#)
        try waitUntil("the stand-in is in its folder") {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd")) == root
        }
        XCTAssertEqual(ExtensionNames.name(of: firefox("wallet@example.org"), browserProcess: pid), "My Firefox Wallet")
    }

    func testAProcesssStartTime() throws {
        let before = Double(time(nil))
        let pid = try startBrowser(["-profile", "\(root)/nowhere"])
        let started = try XCTUnwrap(ExtensionNames.startTime(of: pid))
        XCTAssertGreaterThan(started, before - 1, "the stand-in started after `before`, within a clock tick")
        XCTAssertLessThanOrEqual(started, Double(time(nil)) + 1)
        XCTAssertNil(ExtensionNames.startTime(of: Int32.max), "no such process")
    }

    func testAMissingFirefoxProfileGivesNoName() throws {
        let pid = try startBrowser(["-profile", "\(root)/no-such-profile"])
        XCTAssertNil(ExtensionNames.name(of: firefox("wallet@example.org"), browserProcess: pid))
        let dangling = try startBrowser(["-profile"])
        XCTAssertNil(ExtensionNames.name(of: firefox("wallet@example.org"), browserProcess: dangling))
    }
}
