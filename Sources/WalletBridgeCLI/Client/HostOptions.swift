#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import WalletBridge

/// Which browser a host is started as.
enum CallerKind: String, ExpressibleByArgument, CaseIterable, Sendable {
    case chrome
    case firefox
}

/// The options that choose a host and start it as a browser would: `call`, `conform` and
/// `describe` take the same ones.
struct HostOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Start the host this manifest names (its \"path\"), with its first ID as caller.", valueName: "path"),
        completion: .file(extensions: ["json"]))
    var manifest: String?

    // Two spellings: `call` has always said --host-path, and `conform --host` reads better.
    @Option(
        name: [.customLong("host"), .customLong("host-path")],
        help: ArgumentHelp("Start this host binary.", valueName: "path"), completion: .file())
    var hostPath: String?

    @Option(
        name: .customLong("name"),
        help: ArgumentHelp(
            "Start the host installed under this name, through its manifest: the one install recorded (of the --as family, else a Chromium-family one first), else the first found in the browsers' folders.",
            valueName: "host-name"))
    var hostName: String?

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "Start the host as this browser family would. Default: the manifest's family, else chrome.",
            valueName: "family"))
    var caller: CallerKind?

    @Option(help: "The chrome-extension://ID/ origin to pass (with --as chrome).")
    var origin: String?

    @Option(help: "The add-on ID to pass (with --as firefox).")
    var addonID: String?

    /// Whether a caller was named (a manifest names its own): `conform` then gives the host that
    /// browser's arguments where a case gives none.
    var namesCaller: Bool { manifest != nil || hostName != nil || caller != nil || origin != nil || addonID != nil }

    func validate() throws {
        if manifest != nil && hostPath != nil {
            throw ValidationError("--manifest and --host (--host-path) exclude each other")
        }
        if let hostName {
            if manifest != nil || hostPath != nil {
                throw ValidationError(
                    "--name finds the host's manifest itself; it excludes --manifest and --host (--host-path)")
            }
            if let problem = ManifestIdentifiers.hostNameProblem(hostName) {
                throw ValidationError("--name: \(problem)")
            }
        }
        if origin != nil && caller == .firefox {
            throw ValidationError("--origin is what Chrome passes; with --as firefox use --addon-id")
        }
        if addonID != nil && caller == .chrome {
            throw ValidationError("--addon-id is what Firefox passes; with --as chrome use --origin")
        }
    }

    /// The host to start and the arguments to start it with; a failure is a --manifest that
    /// cannot be used (exit status 3 in every command).
    func hostCommand(environment: CLIEnvironment) throws(CLIFailure) -> HostCommand {
        var path: String
        var manifestPath: String?
        var manifestFamily: BrowserFamily?
        var manifestIDs: [String] = []
        let manifest =
            try hostName.map { name throws(CLIFailure) in
                try Self.installedManifest(of: name, preferring: caller, environment: environment)
            } ?? manifest
        if let manifest {
            let absolute = environment.absolute(manifest)
            let file: ManifestFile
            do {
                file = try ManifestFile.load(absolute)
            } catch .unreadable {
                throw CLIFailure(
                    "--manifest \(absolute): cannot be read: \(FileSystem.openError(absolute) ?? "not a readable file")"
                )
            } catch {
                throw CLIFailure(
                    "--manifest \(absolute): \(error); `wallet-bridge doctor` says what else is wrong with it")
            }
            guard let named = file.string("path") else {
                throw CLIFailure("--manifest \(absolute): no \"path\" string")
            }
            guard named.hasPrefix("/") else {
                throw CLIFailure(
                    "--manifest \(absolute): \"path\" \(JSONText.quoted(named)) is not absolute; browsers on Linux refuse it"
                )
            }
            path = named
            manifestPath = absolute
            manifestFamily = file.family
            manifestIDs = manifestFamily.flatMap { file.strings($0.allowKey) } ?? []
        } else if let hostPath {
            path = environment.absolute(hostPath)
        } else if let own = FileSystem.currentExecutable() {
            path = own
        } else {
            throw CLIFailure("cannot tell this binary's path from /proc/self/exe; name the host with --host")
        }
        let family: BrowserFamily =
            switch caller {
            case .chrome?: .chromium
            case .firefox?: .firefox
            case nil: origin != nil ? .chromium : addonID != nil ? .firefox : manifestFamily ?? .chromium
            }
        let fromManifest = family == manifestFamily ? manifestIDs.first : nil
        let launch: BrowserLaunch =
            switch family {
            case .chromium:
                .chrome(origin: origin ?? fromManifest ?? BrowserLaunch.placeholderOrigin)
            case .firefox:
                .firefox(
                    manifestPath: manifestPath ?? "/dev/null/wallet-bridge-call.json",
                    addonID: addonID ?? fromManifest ?? BrowserLaunch.placeholderAddonID
                )
            }
        return HostCommand(path: path, launch: launch, environment: environment.variables)
    }
}

extension HostOptions {
    /// The manifest of the host installed as `name`: one install recorded that is still there
    /// (outside Flatpak sandboxes, whose "path" is a wrapper that runs only inside), of
    /// `caller`'s family first, else Chromium's first; else the first `<name>.json` in the
    /// folders the known browsers read, per user, then system-wide.
    static func installedManifest(of name: String, preferring caller: CallerKind?, environment: CLIEnvironment)
        throws(CLIFailure) -> String
    {
        let family: BrowserFamily = caller == .firefox ? .firefox : .chromium
        let record = try InstallRecord.load(from: InstallRecord.location(in: environment))
        let recorded = (record?.files(of: name) ?? []).filter {
            $0.isManifest && $0.flatpak == nil && FileSystem.exists($0.path)
        }.map(\.path)
        var found = recorded
        if found.isEmpty {
            let folders =
                BrowserCatalog.all.flatMap { $0.userHostFolders(in: environment) }
                + BrowserCatalog.all.flatMap { $0.systemHostFolders(in: environment) }
            for folder in folders where FileSystem.exists(Path.join(folder, name + ".json")) {
                let path = Path.join(folder, name + ".json")
                if !found.contains(path) { found.append(path) }
            }
        }
        let ofFamily = found.filter { (try? ManifestFile.load($0))?.family == family }
        guard let chosen = ofFamily.first ?? found.first else {
            throw CLIFailure(
                """
                --name \(name): no manifest for it: the install record names none and no browser's folder holds \(name).json; \
                install it first (wallet-bridge install --name \(name) --binary PATH ...), or name the host with --manifest or --host
                """)
        }
        return chosen
    }

    /// `hostCommand`, checked before anything runs: a --manifest that cannot be used, or a host
    /// that is not an executable file, ends the command with `status` and the reason, once,
    /// rather than as every case's failure.
    func startableCommand(environment: CLIEnvironment, status: Int32) throws -> HostCommand {
        let command: HostCommand
        do {
            command = try hostCommand(environment: environment)
        } catch {
            Console.error("\(error)")
            throw ExitCode(status)
        }
        if FileSystem.status(command.path)?.kind == .directory {
            Console.error("cannot start \(command.path): it is a folder")
            throw ExitCode(status)
        }
        if !FileSystem.accessible(command.path, X_OK) {
            Console.error("cannot start \(command.path): \(HostProcess.startFailure(command.path, code: errno))")
            throw ExitCode(status)
        }
        return command
    }
}
