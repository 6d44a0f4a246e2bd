/// One failed check: which, how bad, what is wrong, and what to do.
struct DoctorFault: Codable, Sendable, Equatable {
    enum Severity: String, Codable, Sendable {
        /// The browser will not reach the host.
        case problem
        /// Works today, but is fragile or surprising.
        case warning
    }

    /// A stable name for the check (`relative-path`, `name-mismatch`, …) for scripts and tests.
    var check: String
    var severity: Severity
    var message: String
    var fix: String
}

/// One manifest file that a browser reads (or that sits where it should not).
struct ManifestReport: Codable, Sendable {
    var path: String
    /// `user`, `system` or `user-data-dir`.
    var scope: String
    var faults: [DoctorFault]
    /// How the host answered the probe request, when it did.
    var answer: String?

    var hasProblem: Bool { faults.contains { $0.severity == .problem } }
}

struct BrowserReport: Codable, Sendable {
    enum Verdict: String, Codable, Sendable {
        case ok = "OK"
        case problem = "PROBLEM"
        case notInstalled = "NOT INSTALLED"
    }

    var browser: String
    var name: String
    var verdict: Verdict
    /// Whether the browser itself was found on this machine.
    var browserFound: Bool
    var evidence: String
    /// Why the verdict is what it is, when the manifests alone do not say.
    var summary: String?
    var manifests: [ManifestReport]
    /// Packaging-specific guidance (Snap, Flatpak).
    var advice: [String]
}

/// Everything `doctor` found, as printed or as `--json`.
struct DoctorReport: Codable, Sendable {
    var hostName: String
    var browsers: [BrowserReport]
    /// With `--system`: finding no manifest at all fails too, since there is nothing to verify.
    var requiresManifest = false
    /// With `--fix-paths`: what was re-pointed (or could not be), before the checks ran.
    var fixed: [PathFix]? = nil

    /// Whether any manifest was found (a folder doctor may not enter counts as one).
    var foundManifest: Bool { browsers.contains { !$0.manifests.isEmpty } }

    /// False when any manifest has a problem: the exit status follows this.
    var ok: Bool {
        !browsers.contains { $0.manifests.contains(where: \.hasProblem) } && (!requiresManifest || foundManifest)
    }

    private enum CodingKeys: String, CodingKey { case hostName, browsers, ok, fixed }

    init(hostName: String, browsers: [BrowserReport]) {
        self.hostName = hostName
        self.browsers = browsers
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hostName = try container.decode(String.self, forKey: .hostName)
        browsers = try container.decode([BrowserReport].self, forKey: .browsers)
        fixed = try container.decodeIfPresent([PathFix].self, forKey: .fixed)
        // Not encoded as such: an `ok` that is false with no problem found is what it leaves.
        let ok = try container.decodeIfPresent(Bool.self, forKey: .ok)
        requiresManifest = ok == false && !browsers.contains { $0.manifests.contains(where: \.hasProblem) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hostName, forKey: .hostName)
        try container.encode(browsers, forKey: .browsers)
        try container.encode(ok, forKey: .ok)
        try container.encodeIfPresent(fixed, forKey: .fixed)
    }

    /// The report for people: a verdict per browser, then each failed check with its fix.
    var text: String {
        var lines = ["wallet-bridge doctor: host \(hostName)", ""]
        for browser in browsers {
            lines += Self.indented(
                "\(browser.name): \(browser.verdict.rawValue)" + (browser.summary.map { " (\($0))" } ?? ""), first: "",
                rest: "  ")
            if browser.browserFound { lines.append("  found: \(browser.evidence)") }
            for manifest in browser.manifests {
                lines.append("  manifest \(manifest.path)")
                for fault in manifest.faults {
                    lines += Self.indented(
                        fault.message, first: "    \(fault.severity.rawValue) [\(fault.check)]: ", rest: "      ")
                    lines += Self.indented(fault.fix, first: "      fix: ", rest: "           ")
                }
                if let answer = manifest.answer { lines += Self.indented(answer, first: "    ", rest: "    ") }
            }
            for advice in browser.advice {
                lines += Self.indented(advice, first: "  note: ", rest: "        ")
            }
        }
        let problems = browsers.flatMap(\.manifests).filter(\.hasProblem).count
        lines.append("")
        if requiresManifest && !foundManifest {
            lines.append("no system-wide manifest for \(hostName) found")
        } else {
            lines.append(
                problems == 0
                    ? "no problems found" : "\(problems) manifest\(problems == 1 ? " has" : "s have") problems")
        }
        return lines.joined(separator: "\n")
    }

    /// A text of one or more lines under a heading: every line after the first keeps the
    /// indentation, so a host's stderr or a multi-line fix stays inside its entry.
    private static func indented(_ text: String, first: String, rest: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            (index == 0 ? first : rest) + line
        }
    }
}
