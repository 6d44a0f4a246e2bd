#if canImport(Glibc)
import Glibc
#endif
@_spi(KeptAnswer) import WalletBridgeSystem
import WalletBridgeHost
import WalletBridgeKeys
import WalletBridgeProtocol

/// The name a person installed an extension under, read from the browser's own profile: a
/// person recognises "Phantom", not `bfnaelmomeimhlpmgjnjophhpkkoljpa`. The browser is the
/// process that started the host; its profile is found from its command line or its open
/// files, so a browser run with its own profile folder (as the end-to-end tests run it) is
/// read as well as the default one. Nil when the name cannot be found: the dialog then shows
/// the ID alone (it always shows the ID).
///
/// Chromium family: `Extensions/<id>/<version>/manifest.json` in a profile, or, for an unpacked
/// extension, the folder that `Preferences` or `Secure Preferences` records for the ID, or a
/// folder named by the browser's `--load-extension` whose ID is this one; a `__MSG_name__` is
/// looked up in the extension's default locale. Firefox: `extensions.json`
/// in the profile, the add-on's `defaultLocale.name`.
package enum ExtensionNames {
    /// The name of `caller`'s extension as installed in the browser with pid `browserProcess`.
    package static func name(of caller: Caller, browserProcess: Int32) -> String? {
        let name: String? =
            switch caller {
            case .chromeExtension(let origin):
                chromiumName(
                    id: String(origin.dropFirst("chrome-extension://".count).prefix { $0 != "/" }),
                    browserProcess: browserProcess)
            case .firefoxAddon(let id, _):
                firefoxName(id: id, browserProcess: browserProcess)
            case .unidentified:
                nil
            }
        guard let name, !name.isEmpty else { return nil }
        return name
    }

    /// How long a dialog waits for a Firefox to write down the add-on that asks: see
    /// `name(of:browserProcess:patience:clocks:)`.
    package static let firefoxPatience: Duration = .seconds(5)

    /// How recently a Firefox must have started for its missing or older list to be waited
    /// for: one that has run longer has written what it was going to write.
    static let firefoxStartUp: Duration = .seconds(60)

    /// `name(of:browserProcess:)`, waiting up to `patience` for a Firefox that has just started
    /// and not yet written its add-on list. Firefox writes `extensions.json` a moment after it
    /// starts when its add-ons changed (a new profile, a new add-on), and an add-on it has just
    /// started can ask before then: a first connect request did, in a fresh profile on a busy
    /// 2-core machine, and its dialog showed the ID alone. The wait happens only while the list
    /// is missing or older than the browser, and only in the browser's first minute: a Firefox
    /// whose add-ons did not change never writes the list, and a name missing from it must not
    /// cost every dialog the wait. The first list written after the start is final. The
    /// patience runs on `clocks`, and ends the wait when it is up.
    package static func name(
        of caller: Caller, browserProcess: Int32, patience: Duration, clocks: Clocks = .system
    ) async -> String? {
        let start = clocks.monotonic()
        var waited = false
        while true {
            if let name = name(of: caller, browserProcess: browserProcess) {
                if waited { Log.debug("waited \(clocks.monotonic() - start) for Firefox to list the add-on") }
                return name
            }
            guard case .firefoxAddon = caller, clocks.monotonic() - start < patience,
                firefoxListIsPending(browserProcess)
            else {
                if waited {
                    Log.debug(
                        "waited \(clocks.monotonic() - start) for Firefox to list the add-on; no list written since it started names it"
                    )
                }
                return nil
            }
            waited = true
            // Looks again a moment later, or at the end of the patience if that comes first.
            let next = min(clocks.monotonic() + .milliseconds(50), start + patience)
            do { try await clocks.sleep(until: next) } catch { return nil }
        }
    }

    /// The most any profile file read here may hold: Preferences files run to a few megabytes.
    static let maxFileBytes = 32 << 20

    // MARK: Chromium

    static func chromiumName(id: String, browserProcess: Int32) -> String? {
        guard !id.isEmpty, !id.contains("/"), !id.contains(".") else { return nil }
        let arguments = commandLine(of: browserProcess)
        guard let userData = argumentValue("--user-data-dir=", in: arguments) ?? defaultChromiumFolder(browserProcess)
        else { return nil }
        let profiles =
            argumentValue("--profile-directory=", in: arguments).map { [$0] }
            ?? Files.names(in: userData).filter { $0 == "Default" || $0.hasPrefix("Profile ") }.sorted()
        for profile in profiles {
            let folder = "\(userData)/\(profile)"
            for version in Files.names(in: "\(folder)/Extensions/\(id)").sorted().reversed() {
                if let name = manifestName(in: "\(folder)/Extensions/\(id)/\(version)") { return name }
            }
            for preferences in ["Secure Preferences", "Preferences"] {
                guard let settings = json("\(folder)/\(preferences)")?["extensions"]?["settings"]?[id] else { continue }
                if case .string(let path)? = settings["path"], path.hasPrefix("/"), let name = manifestName(in: path) {
                    return name
                }
                if case .string(let name)? = settings["manifest"]?["name"], !name.hasPrefix("__MSG_") { return name }
            }
        }
        // Chromium records an extension loaded from its command line in Preferences only on
        // its next write of that file, seconds after start-up: its first requests come sooner.
        for folder in argumentValue("--load-extension=", in: arguments)?.split(separator: ",").map(String.init) ?? []
        where folder.hasPrefix("/") {
            guard let manifest = json("\(folder)/manifest.json"), unpackedChromiumID(folder, manifest: manifest) == id
            else { continue }
            if let name = manifestName(manifest, in: folder) { return name }
        }
        return nil
    }

    /// The ID Chromium gives the unpacked extension in `folder`.
    static func unpackedChromiumID(_ folder: String) -> String? {
        json("\(folder)/manifest.json").flatMap { unpackedChromiumID(folder, manifest: $0) }
    }

    /// The same, with the folder's manifest already read.
    private static func unpackedChromiumID(_ folder: String, manifest: JSONValue) -> String? {
        if case .string(let key)? = manifest["key"] { return chromiumID(key: key, folder: folder) }
        return chromiumID(key: nil, folder: folder)
    }

    /// Chromium's ID for an unpacked extension: from the manifest's `key` (the public key,
    /// base64 DER) when it has one, else from the folder's path; either way the first 16 bytes
    /// of a SHA-256, each hex digit written as a letter from "a" to "p".
    package static func chromiumID(key: String?, folder: String) -> String? {
        let hashed: [UInt8]
        if let key {
            guard let der = Base64.decode(key) else { return nil }
            hashed = der
        } else {
            hashed = Array(folder.utf8)
        }
        let letters = Array("abcdefghijklmnop".unicodeScalars)
        var id = String.UnicodeScalarView()
        for byte in Sodium.sha256(hashed).prefix(16) {
            id.append(letters[Int(byte >> 4)])
            id.append(letters[Int(byte & 0x0F)])
        }
        return String(id)
    }

    /// The browser's default profile folder, told by its executable.
    private static func defaultChromiumFolder(_ pid: Int32) -> String? {
        guard let executable = Files.linkTarget("/proc/\(pid)/exe"), let config = Environment.configHome else {
            return nil
        }
        let folders: [(marker: String, folder: String)] = [
            ("chrome-beta", "google-chrome-beta"), ("chrome-unstable", "google-chrome-unstable"),
            ("/google/chrome", "google-chrome"), ("brave", "BraveSoftware/Brave-Browser"),
            ("vivaldi", "vivaldi"), ("msedge", "microsoft-edge"), ("chromium", "chromium"),
        ]
        return folders.first { executable.contains($0.marker) }.map { "\(config)/\($0.folder)" }
    }

    /// `name` from the manifest in `folder`, with a `__MSG_key__` resolved in the default locale.
    static func manifestName(in folder: String) -> String? {
        json("\(folder)/manifest.json").flatMap { manifestName($0, in: folder) }
    }

    /// The same, with the folder's manifest already read.
    private static func manifestName(_ manifest: JSONValue, in folder: String) -> String? {
        guard case .string(let name)? = manifest["name"] else { return nil }
        guard name.hasPrefix("__MSG_"), name.hasSuffix("__"), name.count > 8 else { return name }
        let key = name.dropFirst(6).dropLast(2).lowercased()
        guard case .string(let locale)? = manifest["default_locale"], !locale.contains("/"),
            case .object(let messages)? = json("\(folder)/_locales/\(locale)/messages.json")
        else { return nil }
        // Message names are case-insensitive.
        guard let entry = messages.first(where: { $0.key.lowercased() == key })?.value,
            case .string(let message)? = entry["message"]
        else { return nil }
        return message
    }

    // MARK: Firefox

    static func firefoxName(id: String, browserProcess: Int32) -> String? {
        guard let profile = firefoxProfile(browserProcess),
            case .array(let addons)? = json("\(profile)/extensions.json")?["addons"]
        else {
            return nil
        }
        guard let addon = addons.first(where: { $0["id"] == .string(id) }) else { return nil }
        if case .string(let name)? = addon["defaultLocale"]?["name"] { return name }
        return nil
    }

    /// True when the Firefox with pid `pid` started less than `startUp` ago and has not
    /// written its add-on list since: the profile has no `extensions.json`, or one older than
    /// the process.
    static func firefoxListIsPending(_ pid: Int32, startUp: Duration = firefoxStartUp) -> Bool {
        guard let profile = firefoxProfile(pid), let started = startTime(of: pid) else { return false }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard seconds(now) - started < Double(startUp / .milliseconds(1)) / 1000 else { return false }
        switch FileStamp.lookUp("\(profile)/extensions.json") {
        case .absent: return true
        case .present(let stamp):
            return Double(stamp.modified.seconds) + Double(stamp.modified.nanoseconds) / 1e9 < started
        case .unknown: return false
        }
    }

    /// The profile folder: `-profile DIR` on the command line (a relative one from the
    /// browser's working folder), else the folder of the profile database the browser has open.
    private static func firefoxProfile(_ pid: Int32) -> String? {
        let arguments = commandLine(of: pid)
        if let index = arguments.firstIndex(where: { $0 == "-profile" || $0 == "--profile" }),
            index + 1 < arguments.count
        {
            let profile = arguments[index + 1]
            if profile.hasPrefix("/") { return profile }
            return Files.linkTarget("/proc/\(pid)/cwd").map { "\($0)/\(profile)" }
        }
        for descriptor in Files.names(in: "/proc/\(pid)/fd") {
            if let path = Files.linkTarget("/proc/\(pid)/fd/\(descriptor)"), path.hasSuffix("/places.sqlite") {
                return String(path.dropLast("/places.sqlite".count))
            }
        }
        return nil
    }

    // MARK: Reading

    /// The process's arguments.
    private static func commandLine(of pid: Int32) -> [String] {
        procFile("/proc/\(pid)/cmdline").split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// When the process started, in seconds since the epoch. `/proc/<pid>/stat` gives it in
    /// clock ticks after boot, as its 22nd field; the fields are counted after the name in
    /// parentheses, which may itself hold spaces and parentheses.
    static func startTime(of pid: Int32) -> Double? {
        let stat = procFile("/proc/\(pid)/stat")
        guard let nameEnd = stat.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = stat[(nameEnd + 1)...].split(separator: UInt8(ascii: " "))
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard fields.count > 19, let ticks = Double(String(decoding: fields[19], as: UTF8.self)), ticksPerSecond > 0
        else { return nil }
        var sinceBoot = timespec(), now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &sinceBoot)
        clock_gettime(CLOCK_REALTIME, &now)
        return seconds(now) - seconds(sinceBoot) + ticks / Double(ticksPerSecond)
    }

    private static func seconds(_ time: timespec) -> Double { Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 }

    /// A /proc file's bytes, up to 1 MiB. Read to the end of the file, not by its size: /proc
    /// files say they hold 0 bytes.
    private static func procFile(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = SystemCall.retryingInterrupts {
                chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    private static func argumentValue(_ prefix: String, in arguments: [String]) -> String? {
        arguments.last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }.flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    private static func json(_ path: String) -> JSONValue? {
        guard let bytes = try? AtomicFile.read(path, maxBytes: maxFileBytes) else { return nil }
        // A UTF-8 byte order mark, which some messages.json files carry.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        return try? JSONParser.parse(body)
    }
}

extension JSONValue {
    /// The member `key` of an object; nil for anything else.
    fileprivate subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }
}
