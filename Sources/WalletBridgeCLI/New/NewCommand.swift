#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import FoundationEssentials
import WalletBridge
import WalletBridgeWallet
import WalletBridgeSystem
import WalletBridgeConsent
import WalletBridgeKeys

/// `wallet-bridge new NAME`: a project to start an extension's own host from (ProjectTemplate).
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract:
            "Write a new project: a host with one method, its fixtures and tests, an extension for Chromium and Firefox, and packaging.",
        discussion: """
            Writes the folder NAME (or --output): a Swift package whose host, NAME-host, serves one \
            method (NAME.hello) on the WalletBridge library; Fixtures/NAME.json and tests in Swift \
            and JS that run it; an MV3 extension for Chromium and Firefox whose Chromium ID is fixed \
            by a key made for this project (openssl; the private half is chromium-key.pem); \
            scripts/headless.sh, which runs the extension in headless Chromium and Firefox ESR; and \
            scripts/package-deb.sh. It builds and its tests pass as written: docs/your-own-host.md.
            """
    )

    @Argument(help: "The project's name: lowercase letters and digits, words joined by -.")
    var name: String

    @Option(
        help: ArgumentHelp(
            "The folder to create. Default: NAME in the current folder; it must not exist.", valueName: "dir"),
        completion: .directory)
    var output: String?

    @Option(
        help: ArgumentHelp(
            "The wallet-bridge checkout the project depends on (Swift package, JS package, package builder). Default: the checkout this wallet-bridge was built from.",
            valueName: "dir"), completion: .directory)
    var bridge: String?

    @Option(
        name: .customLong("host-name"),
        help: ArgumentHelp("The native-messaging host name. Default: com.example.NAME (- as _).", valueName: "name"))
    var hostName: String?

    @Option(
        name: .customLong("firefox-addon"),
        help: ArgumentHelp("The Firefox add-on ID. Default: NAME@example.org.", valueName: "id"))
    var firefoxAddon: String?

    func run() throws {
        let environment = CLIEnvironment.current()
        let folder = try NewProject.create(
            name: name, output: output.map(environment.absolute) ?? environment.absolute(name),
            bridge: try bridge.map(environment.absolute) ?? NewProject.builtFromCheckout(),
            hostName: hostName, firefoxAddon: firefoxAddon, keyMaker: NewProject.opensslKey
        )
        Console.out(
            """
            Created \(folder.path) (host \(folder.template.hostName), method \(folder.template.methodName), \
            Chromium ID \(folder.template.chromeID), Firefox add-on \(folder.template.firefoxAddon)).
            Next: cd \(Shell.quoted(folder.path)) && swift build && swift test && node --test test/ && scripts/headless.sh
            """)
    }
}

/// The steps of `new`, apart from the command line, for the tests.
enum NewProject {
    struct Created {
        var path: String
        var template: ProjectTemplate
    }

    /// Makes a Chromium key: writes the private key (PEM) to the path given, returns the public
    /// key as DER SubjectPublicKeyInfo.
    typealias KeyMaker = (_ privateKeyPath: String) throws -> [UInt8]

    /// This file's path when it was compiled (not a default argument: that would be the caller's).
    private static let compiledFrom = #filePath

    /// The checkout this binary was compiled from, while it is still there.
    static func builtFromCheckout(sourceFile: String = compiledFrom) throws -> String {
        var root = sourceFile
        for _ in 0..<4 { root = Path.parent(root) }  // Sources/WalletBridgeCLI/New/NewCommand.swift
        if bridgeProblem(root) == nil { return root }
        throw CLIFailure(
            "no wallet-bridge checkout at \(root), where this binary was built: name one with --bridge DIR")
    }

    /// Why `folder` is not a wallet-bridge checkout the project can use; nil when it is.
    static func bridgeProblem(_ folder: String) -> String? {
        for part in ["Package.swift", "js/src/index.js", "js/src/testing.js", "scripts/package-deb.sh"]
        where !FileSystem.exists(Path.join(folder, part)) {
            return "\(folder) is not a wallet-bridge checkout (no \(part))"
        }
        return nil
    }

    static func create(
        name: String, output: String, bridge: String, hostName: String?, firefoxAddon: String?, keyMaker: KeyMaker
    ) throws -> Created {
        if let problem = ProjectTemplate.nameProblem(name) { throw CLIFailure(problem) }
        let hostName = hostName ?? ProjectTemplate.defaultHostName(for: name)
        if let problem = ManifestIdentifiers.hostNameProblem(hostName) { throw CLIFailure("--host-name: \(problem)") }
        let addon = try ManifestIdentifiers.firefoxAddonID(
            from: firefoxAddon ?? ProjectTemplate.defaultFirefoxAddon(for: name))
        if let problem = bridgeProblem(bridge) { throw CLIFailure("--bridge: \(problem)") }
        var status = stat()
        if lstat(output, &status) == 0 {
            throw CLIFailure("\(output) already exists: choose another name, or another folder with --output")
        }
        let parent = Path.parent(output)
        guard FileSystem.exists(parent) else {
            throw CLIFailure("\(parent) does not exist: create it first, or choose another --output")
        }

        // Everything is written into a folder beside the target and renamed into place at the
        // end, so a failure leaves no half-written project behind.
        var staging = Array(Path.join(parent, ".\(Path.fileName(output)).new-XXXXXX").utf8CString)
        guard let made = mkdtemp(&staging) else {
            throw CLIFailure("cannot create a folder in \(parent): \(String(cString: strerror(errno)))")
        }
        let stage = String(cString: made)
        do {
            _ = chmod(stage, 0o755)
            let der = try keyMaker(Path.join(stage, "chromium-key.pem"))
            let key = Base64.encode(der)
            // The ID Chromium gives an unpacked extension with this `key` (one rule, shared with
            // the consent dialog's naming of extensions).
            guard let chromeID = ExtensionNames.chromiumID(key: key, folder: "") else {
                throw CLIFailure("the Chromium key openssl made is not base64 DER")
            }
            var now = time(nil)
            var parts = tm()
            gmtime_r(&now, &parts)
            let template = ProjectTemplate(
                name: name, hostName: hostName, firefoxAddon: addon, bridge: bridge, chromeKey: key, chromeID: chromeID,
                year: Int(parts.tm_year) + 1900
            )
            for file in template.files {
                let path = Path.join(stage, file.path)
                _ = try FileSystem.makeDirectories(Path.parent(path))
                if file.link {
                    guard symlink(file.contents, path) == 0 else {
                        throw FileSystemError(operation: "create the link", path: path, code: errno)
                    }
                } else {
                    try FileSystem.writeAtomically(
                        path, contents: Array(file.contents.utf8), mode: file.executable ? 0o755 : 0o644)
                }
            }
            guard lstat(output, &status) != 0, rename(stage, output) == 0 else {
                throw CLIFailure(
                    "cannot create \(output): \(lstat(output, &status) == 0 ? "it exists now" : String(cString: strerror(errno)))"
                )
            }
            return Created(path: output, template: template)
        } catch {
            try? FileManager.default.removeItem(atPath: stage)
            throw error
        }
    }

    /// An RSA-2048 key made by openssl, as Chrome's own packer makes them.
    static func opensslKey(privateKeyPath: String) throws -> [UInt8] {
        let publicPath = privateKeyPath + ".der"
        defer { unlink(publicPath) }
        try runOpenSSL([
            "genpkey", "-quiet", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", privateKeyPath,
        ])
        _ = chmod(privateKeyPath, 0o600)
        try runOpenSSL(["pkey", "-in", privateKeyPath, "-pubout", "-outform", "DER", "-out", publicPath])
        guard let der = FileSystem.read(publicPath, limit: 4096), !der.isEmpty else {
            throw CLIFailure("openssl wrote no public key to \(publicPath)")
        }
        return der
    }

    private static func runOpenSSL(_ arguments: [String]) throws {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { throw CLIFailure("cannot open /dev/null: \(String(cString: strerror(errno)))") }
        defer { close(null) }
        let pid: pid_t
        do {
            pid = try Spawn.start("openssl", arguments: arguments, standardStreams: [null, null, 2], searchPath: true)
        } catch {
            throw CLIFailure(
                error.code == ENOENT
                    ? "openssl is needed to make the extension's Chromium key (Debian: apt install openssl)"
                    : "cannot start openssl: \(error.reason)")
        }
        var raw: Int32 = 0
        _ = SystemCall.retryingInterrupts { waitpid(pid, &raw, 0) }
        let status = ExitStatus(raw: raw)
        guard status.exitCode == 0 else { throw CLIFailure("openssl \(arguments[0]) \(status)") }
    }
}
