#if canImport(Glibc)
import Glibc
#endif
import WalletBridge

/// Checks one manifest file as a browser of `family` would read it, then (if the host can be
/// started at all) sends it a real request through the manifest.
struct ManifestCheck {
    var path: String
    var family: BrowserFamily
    var hostName: String
    /// Whether the file sits in a per-user folder (ownership matters there).
    var inUserFolder: Bool
    var environment: CLIEnvironment
    var timeout: Duration
    var probe = true
    /// What install recorded: the binary and description of each host, the files it wrote.
    var record: InstallRecord? = nil
    /// The `install` arguments that rewrite this manifest where it is: `--browser chromium`,
    /// `--user-data-dir DIR`, plus `--system` for a system folder.
    var installTarget: [String] = []
    /// Also check what every other user's browser needs (`doctor --system`): a system-wide
    /// manifest is read, and its host started, by each user's browser as that user.
    var forEveryUser = false

    /// Every host, the wallet included, is asked for its own description, `rpc.discover`,
    /// which says which program answered (its title, its methods) and which a host built on
    /// the library answers without doing anything. Never the wallet's own methods: asking for
    /// the accounts would ask the person, in the extension's name, and open a session.
    static let probeMethod = "rpc.discover"
    static let probeID = "doctor"
    /// What the wallet's own `rpc.discover` calls it (ShippedHost).
    static let walletTitle = "wallet-bridge"

    func run() -> (faults: [DoctorFault], answer: String?) {
        var faults: [DoctorFault] = []
        func fault(_ check: String, _ message: String, fix: String, _ severity: DoctorFault.Severity = .problem) {
            faults.append(DoctorFault(check: check, severity: severity, message: message, fix: fix))
        }
        let reinstall = "\(reinstallCommand()) rewrites it correctly"

        guard checkAccess(fault: fault), let manifest = loadManifest(reinstall: reinstall, fault: fault) else {
            return (faults, nil)
        }
        checkFields(manifest, reinstall: reinstall, fault: fault)
        let hostPath = checkHostPath(manifest, fault: fault)
        let allowed = checkAllowList(manifest, fault: fault)
        if forEveryUser { checkOtherUsers(hostPath: hostPath, fault: fault) }

        // Said once: a manifest seen to start the wallet is not probed to be told so again.
        let unlikeTheWallet = hostPath.map { checkNotTheWallet($0, fault: fault) } ?? true
        if let hostPath { checkRecordedBinary(hostPath, fault: fault) }
        guard probe, unlikeTheWallet, let hostPath else { return (faults, nil) }
        let answer = probeHost(hostPath, allowed: allowed, fault: fault)
        return (faults, answer)
    }

    /// Checks that the file is there and readable by the checked user, and warns when someone
    /// else owns it in the user's own folder. False when it cannot be read.
    private func checkAccess(fault: (String, String, String, DoctorFault.Severity) -> Void) -> Bool {
        guard let status = FileSystem.status(path) else {
            fault("unreadable", "the file vanished while being checked", "run doctor again", .problem)
            return false
        }
        if inUserFolder && status.owner != environment.userID {
            let owner = status.owner == 0 ? "root" : "user \(status.owner)"
            fault(
                "owner", "owned by \(owner), in your own folder: you cannot change or remove it without sudo",
                "sudo chown \(environment.userID) \(path)   (a manifest written with sudo belongs to root; install without sudo writes your own)",
                .warning)
        }
        guard permits(path, status, read: true) else {
            fault(
                "unreadable", "you (uid \(environment.userID)) cannot read it, so neither can your browser",
                "chmod 644 \(path)", .problem)
            return false
        }
        return true
    }

    /// What passes for the user running doctor (root, often, for a system-wide check) but not
    /// for the others: only the "others" permission bits count, as install --system counts them.
    private func checkOtherUsers(hostPath: String?, fault: (String, String, String, DoctorFault.Severity) -> Void) {
        if let status = FileSystem.status(path), status.mode & 0o004 == 0 {
            fault(
                "other-users",
                "mode 0\(String(status.mode & 0o777, radix: 8)): other users' browsers cannot read this manifest",
                "chmod 644 \(Shell.quoted(path))", .problem)
        }
        if let barrier = SystemReach.manifestFolderBarrier(Path.parent(path), systemRoot: environment.systemRoot) {
            fault(
                "other-users", String(barrier.dropFirst("Warning: ".count)),
                "chmod 755 on that folder (as root)", .problem)
        }
        guard let hostPath else { return }
        if let problem = SystemReach.problem(forBinary: hostPath) {
            fault("other-users", problem, SystemReach.remedy(for: hostPath), .problem)
        } else if let warning = SystemReach.changeableBy(hostPath) {
            fault(
                "other-users", String(warning.dropFirst("Warning: ".count)),
                "make root the owner of the binary and its folders, writable by root only", .warning)
        }
    }

    /// Parses the file as the browsers do; returns nil when it is no JSON object.
    private func loadManifest(reinstall: String, fault: (String, String, String, DoctorFault.Severity) -> Void)
        -> ManifestFile?
    {
        do {
            let loaded = try BrowserJSON.load(path)
            // Both browsers load these; strict JSON tools may not, and which duplicate wins
            // is easy to misread, so they are worth a warning, never a problem.
            for leniency in loaded.leniencies {
                switch leniency {
                case .byteOrderMark:
                    fault(
                        "strict-json",
                        "the file starts with a UTF-8 byte-order mark; browsers skip it, stricter JSON tools refuse it",
                        "save it without the BOM, or: \(reinstall)", .warning)
                case .duplicateKey(let key):
                    fault(
                        "strict-json",
                        "key \(key) appears more than once; browsers use the last one, and only that one is checked here",
                        "keep one \(key); \(reinstall)", .warning)
                }
            }
            return loaded.manifest
        } catch {
            switch error {
            case .unreadable: fault("unreadable", "cannot read it", "chmod 644 \(path)", .problem)
            case .invalidJSON(let parse):
                fault("bad-json", "not valid JSON: \(parse)", "correct the syntax; \(reinstall)", .problem)
            case .notAnObject(let type):
                fault(
                    "bad-json",
                    "the JSON is \(type == "array" || type == "object" ? "an" : "a") \(type), not an object", reinstall,
                    .problem)
            }
            return nil
        }
    }

    /// Checks "name", "description" and "type".
    private func checkFields(
        _ manifest: ManifestFile, reinstall: String, fault: (String, String, String, DoctorFault.Severity) -> Void
    ) {
        // name: the browser opens <name>.json, then insists the name inside matches.
        let fileStem =
            Path.fileName(path).hasSuffix(".json") ? String(Path.fileName(path).dropLast(5)) : Path.fileName(path)
        if let name = manifest.string("name") {
            if let problem = ManifestIdentifiers.hostNameProblem(name) {
                fault(
                    "bad-name", "\"name\": \(problem)", "use lowercase letters, digits, _ and . only; \(reinstall)",
                    .problem)
            }
            if name != fileStem {
                fault(
                    "name-mismatch",
                    "\"name\" is \(JSONText.quoted(name)) but the file is \(Path.fileName(path)); browsers look up \(hostName).json and require the name inside to be \(JSONText.quoted(hostName))",
                    fileStem == hostName
                        ? "set \"name\" to \(JSONText.quoted(hostName)), or: \(reinstall)"
                        : "rename the file to \(hostName).json, or \(reinstall)",
                    .problem)
            }
        } else {
            fault(
                "missing-field", "no \"name\" string", "add \"name\": \(JSONText.quoted(hostName)), or: \(reinstall)",
                .problem)
        }
        if manifest.string("description") == nil {
            let description = record?.hosts[hostName]?.description ?? "a line saying what the host is"
            fault(
                "missing-field", "no \"description\" string; browsers reject a manifest without one",
                "add \"description\": \(JSONText.quoted(description)), or: \(reinstall)", .problem)
        }
        switch manifest.members["type"] {
        case .string("stdio")?: break
        case nil: fault("missing-field", "no \"type\"", "add \"type\": \"stdio\", or: \(reinstall)", .problem)
        case let other?:
            fault(
                "wrong-type", "\"type\" is \(String(decoding: other.jsonBytes, as: UTF8.self)), not \"stdio\"",
                "set \"type\": \"stdio\", or: \(reinstall)", .problem)
        }
    }

    /// Starts the host through this manifest as a browser of `family` would, with the first
    /// well-formed ID as the caller; returns its answer.
    private func probeHost(
        _ hostPath: String, allowed: [String], fault: (String, String, String, DoctorFault.Severity) -> Void
    ) -> String? {
        let launch: BrowserLaunch =
            switch family {
            case .chromium: .chrome(origin: allowed.first ?? BrowserLaunch.placeholderOrigin)
            case .firefox: .firefox(manifestPath: path, addonID: allowed.first ?? BrowserLaunch.placeholderAddonID)
            }
        let method = Self.probeMethod
        switch Self.probe(
            HostCommand(path: hostPath, launch: launch, environment: environment.variables), method: method,
            timeout: timeout)
        {
        case .success(let answer):
            if let mismatch = identityProblem(answer, hostPath: hostPath) {
                fault("wrong-host", mismatch, wrongHostFix(hostPath), .problem)
            }
            return answer.text
        case .failure(let error):
            fault(
                "no-answer", "started \(launch), the host gave no usable answer: \(error)",
                Self.fix(for: error, manifest: path, method: method), .problem)
            return nil
        }
    }

    /// A manifest install wrote for this host must start the binary install recorded for it:
    /// anything else has been re-pointed since, and may start another program altogether.
    private func checkRecordedBinary(_ hostPath: String, fault: (String, String, String, DoctorFault.Severity) -> Void)
    {
        guard let record, record.files.contains(where: { $0.path == path && $0.flatpak == nil }),
            let binary = record.binary(of: hostName),
            !FileSystem.sameFile(hostPath, binary)
        else { return }
        let repair =
            FileSystem.status(binary)?.kind == .file
            ? "\(Doctor.executable) doctor\(nameOption) --fix-paths re-points it at \(binary); or: \(reinstallCommand(avoiding: hostPath))"
            : "\(binary) is gone too: rebuild it there, or install the host's binary with --binary: \(reinstallCommand(avoiding: hostPath))"
        fault(
            "other-binary",
            "\"path\" \(JSONText.quoted(hostPath)) is not the binary install recorded for \(hostName) (\(binary)): the browser would start another program",
            repair, .problem)
    }

    /// ` --name NAME` for a host other than the wallet, as doctor's own commands need it.
    private var nameOption: String {
        hostName == ManifestIdentifiers.defaultHostName ? "" : " --name \(Shell.quoted(hostName))"
    }

    /// Checks `path`; returns it when it can be started, so the probe may run.
    private func checkHostPath(_ manifest: ManifestFile, fault: (String, String, String, DoctorFault.Severity) -> Void)
        -> String?
    {
        guard let hostPath = manifest.string("path") else {
            fault(
                "missing-field", "no \"path\" string", "add the host binary's absolute path, or let install write it",
                .problem)
            return nil
        }
        guard hostPath.hasPrefix("/") else {
            fault(
                "relative-path",
                "\"path\" \(JSONText.quoted(hostPath)) is relative; on Linux browsers start only absolute paths",
                "set \"path\" to the host binary's absolute path; or: \(reinstallCommand())", .problem)
            return nil
        }
        guard let status = FileSystem.status(hostPath) else {
            if FileSystem.statError(hostPath) == EACCES {
                let blocked = FileSystem.untraversableAncestor(of: hostPath) ?? Path.parent(hostPath)
                fault(
                    "path-denied",
                    "\"path\" \(JSONText.quoted(hostPath)) cannot be reached: permission denied on the folder \(blocked)/, which you (uid \(getuid())) may not enter",
                    "let the browser's user through: chmod o+x \(Shell.quoted(blocked)) (as its owner), or install the binary somewhere readable (e.g. /usr/local/bin) and reinstall",
                    .problem)
                return nil
            }
            fault(
                "path-missing",
                "\"path\" \(JSONText.quoted(hostPath)) does not exist (moved, or a build folder cleaned?)",
                pathMissingFix(hostPath), .problem)
            return nil
        }
        guard status.kind == .file else {
            fault(
                "path-not-file",
                "\"path\" \(JSONText.quoted(hostPath)) is \(status.kind == .directory ? "a directory" : "not a regular file")",
                "point \"path\" at the host binary itself: \(reinstallCommand())", .problem)
            return nil
        }
        guard status.mode & 0o111 != 0 else {
            fault(
                "not-executable",
                "\"path\" \(JSONText.quoted(hostPath)) has no exec bit (mode \(String(status.mode, radix: 8)))",
                "chmod +x \(hostPath)", .problem)
            return nil
        }
        guard permits(hostPath, status, read: false) else {
            fault(
                "not-executable", "you (uid \(environment.userID)) may not execute \(JSONText.quoted(hostPath))",
                "chmod 755 \(hostPath)", .problem)
            return nil
        }
        return hostPath
    }

    /// What to do about a manifest whose binary is gone: `--fix-paths` where it would re-point
    /// the file at its host's recorded binary (or, for the wallet, this wallet-bridge binary),
    /// else install with the host's own binary.
    private func pathMissingFix(_ hostPath: String) -> String {
        let recorded = record?.files.contains { $0.path == path } == true
        guard recorded, let binary = record?.binary(of: hostName) else {
            if hostName == ManifestIdentifiers.defaultHostName, PathRepair.isThisProgram(hostPath) {
                return "point it at this binary: \(Doctor.executable) doctor --fix-paths; or: \(reinstallCommand())"
            }
            return
                "install did not write this manifest, so no install record names its host's binary: install it with the binary: \(reinstallCommand())"
        }
        if FileSystem.status(binary)?.kind == .file {
            return
                "\(Doctor.executable) doctor\(nameOption) --fix-paths re-points it at \(binary), the binary install recorded for \(hostName); or: \(reinstallCommand())"
        }
        if PathRepair.isThisProgram(binary) {
            return
                "point it at this binary: \(Doctor.executable) doctor\(nameOption) --fix-paths; or install from where the binary now is: \(reinstallCommand())"
        }
        return
            "install recorded \(binary) for \(hostName), and it is gone too: rebuild it there, or install it with its new place: \(reinstallCommand())"
    }

    /// Checks this family's allow list; returns its well-formed entries.
    private func checkAllowList(_ manifest: ManifestFile, fault: (String, String, String, DoctorFault.Severity) -> Void)
        -> [String]
    {
        let key = family.allowKey
        let otherKey = family.otherFamily.allowKey
        let browserName = family == .firefox ? "Firefox" : "Chrome"
        guard manifest.members[key] != nil else {
            if manifest.members[otherKey] != nil {
                fault(
                    "wrong-family",
                    "this is a \(family.otherFamily.displayName) manifest (\(otherKey), no \(key)) in a folder the \(family.displayName) browsers read; \(browserName) rejects it",
                    "here a manifest needs \(key): \(reinstallCommand()); the \(family.otherFamily.displayName) manifest belongs in that family's folder",
                    .problem)
            } else {
                fault(
                    "missing-field", "no \"\(key)\": no extension may connect",
                    "name the extensions that may connect: \(reinstallCommand())", .problem)
            }
            return []
        }
        if manifest.members[otherKey] != nil {
            fault(
                "foreign-key", "\"\(otherKey)\" is a \(family.otherFamily.displayName) key; \(browserName) ignores it",
                "remove it; each family gets its own manifest, in its own folder", .warning)
        }
        guard let entries = manifest.strings(key) else {
            fault("bad-ids", "\"\(key)\" must be an array of strings", "list each ID as a string", .problem)
            return []
        }
        if entries.isEmpty {
            fault(
                "bad-ids", "\"\(key)\" is empty: no extension may connect",
                "name the extensions that may connect: \(reinstallCommand())", .problem)
        }
        var wellFormed: [String] = []
        for entry in entries {
            switch family {
            case .chromium:
                if let problem = ManifestIdentifiers.originProblem(entry) {
                    fault(
                        "bad-origin", problem,
                        "write it as chrome-extension://<32 letters a-p>/, exactly, one entry per extension", .problem)
                } else {
                    wellFormed.append(entry)
                }
            case .firefox:
                if let problem = ManifestIdentifiers.addonIDProblem(entry) {
                    fault(
                        "bad-addon-id", problem,
                        "use the add-on's ID from its manifest (browser_specific_settings.gecko.id), as about:debugging shows it",
                        .problem)
                } else {
                    wellFormed.append(entry)
                }
            }
        }
        return wellFormed
    }

    /// A command that rewrites this manifest correctly, as printed: the wallet-bridge running
    /// doctor, the browser or folder, the IDs the manifest
    /// (or, when it no longer parses, the install record) names, and `--force`, since install
    /// refuses to replace a file changed since it wrote it.
    /// Its `--binary` is never taken from this manifest (which may start the wrong program),
    /// nor is it `avoiding`, the program found behind it: the host's recorded binary, else
    /// `PATH` to fill in (for the wallet's name: none, install's default being the wallet).
    func reinstallCommand(avoiding: String? = nil) -> String {
        let record = record ?? ((try? InstallRecord.load(from: InstallRecord.location(in: environment))) ?? nil)
        return Doctor.installCommand(
            installTarget, family: family, hostName: hostName, record: record, manifest: path, avoiding: avoiding)
            + " --force"
    }

    /// May the checked user read (or execute) this file? Asks the kernel when the checked user
    /// is the one running doctor; otherwise reads the mode bits (owner and others; groups are
    /// not resolved for another user).
    private func permits(_ path: String, _ status: FileStatus, read: Bool) -> Bool {
        if environment.userID == getuid() { return FileSystem.accessible(path, read ? R_OK : X_OK) }
        if environment.userID == 0 { return read || status.mode & 0o111 != 0 }
        let (ownerBit, otherBit): (UInt32, UInt32) = read ? (0o400, 0o004) : (0o100, 0o001)
        return status.owner == environment.userID ? status.mode & ownerBit != 0 : status.mode & otherBit != 0
    }

    /// Starts the host and sends one request; any well-formed JSON-RPC response with our id
    /// (a result or an error) means it answers. An error comes with the errors the host logged,
    /// which say why (a configuration file other users can change, and the command that fixes
    /// it): the extension is told only that the log says why.
    /// What the probe got back: the line doctor prints, and what tells the program apart.
    struct ProbeAnswer: Sendable {
        var text: String
        /// The error code, for an error answer.
        var errorCode: Int?
        /// `rpc.discover`'s info.title, for a document.
        var title: String?
        /// The names of the methods `rpc.discover`'s document lists, for a document.
        var methods: [String]? = nil
    }

    /// Whether a probe's answer is the wallet's document: titled "wallet-bridge" and listing
    /// the wallet's own method (a host merely called wallet-bridge does not list it).
    static func isWallet(_ answer: ProbeAnswer) -> Bool {
        answer.title == walletTitle && answer.methods?.contains(NATIVE_GET_ACCOUNTS_METHOD) == true
    }

    /// Why the program that answered is not `hostName`'s, or nil: the wallet must answer with
    /// its document (a host that does not know `rpc.discover`, or whose document is another
    /// program's, is not the wallet; another error, such as the caller policy's refusal, says
    /// nothing either way); any other host must not be the wallet, unless install recorded
    /// exactly this binary for it (the wallet installed under another name, on purpose).
    func identityProblem(_ answer: ProbeAnswer, hostPath: String) -> String? {
        if hostName == ManifestIdentifiers.defaultHostName {
            if let code = answer.errorCode, code != ErrorCode.methodNotFound.rawValue { return nil }
            guard !Self.isWallet(answer) else { return nil }
            return
                "\(JSONText.quoted(hostPath)) does not know \(NATIVE_GET_ACCOUNTS_METHOD): it is not the wallet, so an extension expecting the wallet gets another program"
        }
        guard Self.isWallet(answer), !walletChosen(hostPath) else { return nil }
        return """
            \(JSONText.quoted(hostPath)) answers as the wallet-bridge wallet (rpc.discover's title is "\(Self.walletTitle)", \
            with \(NATIVE_GET_ACCOUNTS_METHOD)), \
            and no install --binary chose it for \(hostName): an extension that connects to \(hostName) would start a wallet
            """
    }

    /// Whether the user named `hostPath`, the wallet, with `install --name NAME --binary` for
    /// this host name on purpose (`InstallRecord.Host.wallet`).
    private func walletChosen(_ hostPath: String) -> Bool {
        guard let host = record?.hosts[hostName], host.wallet == true else { return false }
        return FileSystem.sameFile(hostPath, host.binary)
    }

    /// A host other than the wallet whose "path" is the wallet-bridge binary (by its name, or
    /// the binary running doctor), not chosen on purpose: the wrong host, probe or no probe.
    private func checkNotTheWallet(_ hostPath: String, fault: (String, String, String, DoctorFault.Severity) -> Void)
        -> Bool
    {
        guard hostName != ManifestIdentifiers.defaultHostName, InstallRequest.namesTheWallet(hostPath),
            !walletChosen(hostPath)
        else { return true }
        fault(
            "wrong-host",
            """
            "path" \(JSONText.quoted(hostPath)) is the wallet-bridge wallet, and no install --binary chose it for \(hostName): \
            an extension that connects to \(hostName) would start a wallet
            """, wrongHostFix(hostPath), .problem)
        return false
    }

    /// The fix for a manifest that starts another program than its host: install with the
    /// host's own binary, never the program it starts now.
    private func wrongHostFix(_ hostPath: String) -> String {
        "point it at \(hostName)'s own binary: \(reinstallCommand(avoiding: hostPath))"
    }

    static func probe(
        _ command: HostCommand, method: String = probeMethod, timeout: Duration
    ) -> Result<ProbeAnswer, NativeHostError> {
        do throws(NativeHostError) {
            let connection = try HostConnection(command)
            let reply: Response.Parsed
            let body: [UInt8]
            do throws(NativeHostError) {
                let deadline = ContinuousClock.now + timeout
                connection.enqueue(
                    Request.encode(id: .string(probeID), method: method, params: nil), id: .string(probeID))
                try connection.flush(until: deadline, timeout: timeout)
                body = try connection.receive(until: deadline, timeout: timeout)
                reply = try Response.Parsed(reply: body)
            } catch {
                connection.close(grace: .milliseconds(500))
                throw error
            }
            connection.close(grace: .milliseconds(500))  // and its stderr read to the end
            guard reply.id == .string(probeID) else {
                throw NativeHostError(.notJSONRPC(reason: "its id is \(reply.id), not \"doctor\"", bytes: body))
            }
            switch reply.outcome {
            case .result(let result):
                let title = result.objectValue?["info"]?.objectValue?["title"]?.stringValue
                let methods = result.objectValue?["methods"]?.arrayValue?
                    .compactMap { $0.objectValue?["name"]?.stringValue }
                let named = method == "rpc.discover" ? title.map { " (\(JSONText.quoted($0)))" } ?? "" : ""
                return .success(
                    ProbeAnswer(
                        text: "answers: \(method) -> a result\(named)", title: title, methods: methods))
            case .error(let error):
                let (code, message) = (error.code.rawValue, error.message)
                let logged = loggedErrors(connection.stderrTail)
                return .success(
                    ProbeAnswer(
                        text: "answers: \(method) -> error \(code) \(JSONText.quoted(message))"
                            + logged.map { "\n  the host logged: \($0)" }.joined(),
                        errorCode: code))
            }
        } catch {
            return .failure(error)
        }
    }

    /// The last few `error:` lines of a host's stderr (`Log`'s format), without the prefix.
    static func loggedErrors(_ stderr: String) -> [String] {
        let marker = ": error: "
        return stderr.split(separator: "\n").compactMap { line in
            line.firstRange(of: marker).map { String(line[$0.upperBound...]) }
        }.suffix(3).map { $0 }
    }

    private static func fix(for error: NativeHostError, manifest: String, method: String) -> String {
        let reproduce = "to see it as the browser does: wallet-bridge call --manifest \(manifest) \(method)"
        switch error.kind {
        case .cannotStart:
            return "the kernel refused to run it: check the file and, for a script, its #! line; \(reproduce)"
        case .fault(.tooLarge): return "the host must answer with an error instead of a frame over 1 MiB; \(reproduce)"
        case .fault(.strayOutput), .fault(.truncated), .notJSON:
            return "something in the host writes to stdout besides frames: send it to stderr; \(reproduce)"
        case .notJSONRPC: return "the host must answer with a JSON-RPC 2.0 response; \(reproduce)"
        case .exitedWithoutReply:
            return "the host ended without answering; its stderr (above) usually says why; \(reproduce)"
        case .timedOut(_, _, let received) where !received.isEmpty:
            return
                "something in the host writes to stdout besides frames (the bytes above): send it to stderr; \(reproduce)"
        case .timedOut:
            return "the host did not answer in time: is it waiting for something (a TTY, D-Bus)? \(reproduce)"
        }
    }
}
