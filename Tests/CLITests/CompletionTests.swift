import XCTest

@testable import WalletBridgeCLI

/// Shell completion (#12 item 25): what `wallet-bridge --generate-completion-script` gives the
/// shells, which scripts/setup.sh installs for bash.
final class CompletionTests: XCTestCase {
    private func script(_ shell: String) throws -> String {
        let sandbox = try Sandbox()
        let result = try sandbox.walletBridge("--generate-completion-script", shell)
        XCTAssertEqual(result.status, 0, result.output)
        return result.stdout
    }

    /// The bash case arm for `option` inside the function for `subcommand`.
    private func bashArm(_ script: String, _ subcommand: String, _ option: String) throws -> String {
        let function = try XCTUnwrap(script.range(of: "_wallet-bridge_\(subcommand)() {"), subcommand)
        let body = script[function.upperBound...].prefix { _ in true }
        let end = body.range(of: "\n}\n").map { body[..<$0.lowerBound] } ?? body
        let arm = try XCTUnwrap(end.range(of: "'\(option)')"), "\(subcommand) \(option)")
        let rest = end[arm.upperBound...]
        return String(rest[..<(rest.range(of: ";;")?.lowerBound ?? rest.endIndex)])
    }

    func testBashCompletesBrowserNames() throws {
        let bash = try script("bash")
        for subcommand in ["install", "uninstall", "doctor"] {
            let arm = try bashArm(bash, subcommand, "--browser")
            for id in BrowserCatalog.ids {
                XCTAssertTrue(arm.contains("'\(id)'"), "\(subcommand) --browser: \(id) in \(arm)")
            }
        }
    }

    func testBashCompletesFilesAndFoldersForPathOptions() throws {
        let bash = try script("bash")
        let files: [(String, String)] = [
            ("install", "--binary"), ("call", "--manifest"), ("call", "--host-path"),
            ("conform", "--manifest"), ("conform", "--host-path"), ("describe", "--host-path"),
            ("describe", "--output"),
            ("keys_list", "--keystore"), ("keys_import", "--file"), ("keys_import", "--passphrase-file"),
            ("keys_change-passphrase", "--new-passphrase-file"),
        ]
        for (subcommand, option) in files {
            let arm = try bashArm(bash, subcommand, option)
            XCTAssertTrue(arm.contains("-f"), "\(subcommand) \(option) completes file names: \(arm)")
        }
        for (subcommand, option) in [("install", "--user-data-dir"), ("doctor", "--user-data-dir")] {
            let arm = try bashArm(bash, subcommand, option)
            XCTAssertTrue(arm.contains("-d"), "\(subcommand) \(option) completes folder names: \(arm)")
        }
    }

    /// The script run by bash itself, as `complete -F` runs it: the words so far, then the
    /// function with the command, the word being completed and the one before.
    func testBashItselfOffersBrowsersAndFiles() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { throw XCTSkip("needs bash") }
        let sandbox = try Sandbox()
        let scriptPath = try sandbox.write(sandbox.base + "/wallet-bridge.bash", try script("bash"))
        try sandbox.write(sandbox.base + "/work/host-binary", "", mode: 0o755)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let program = """
                source "$0"; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                _wallet-bridge wallet-bridge '\(words[words.count - 1])' '\(words[words.count - 2])'
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let run = try runProcess(
                "/bin/bash", ["-c", program, scriptPath], environment: ["PATH": "/usr/bin:/bin"],
                in: sandbox.base + "/work")
            XCTAssertEqual(run.status, 0, run.output)
            return run.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(
            try complete(["wallet-bridge", "install", "--browser", "chr"]),
            ["chrome", "chrome-beta", "chrome-dev", "chromium"])
        XCTAssertEqual(try complete(["wallet-bridge", "doctor", "--browser", "li"]), ["librewolf"])
        XCTAssertEqual(try complete(["wallet-bridge", "install", "--binary", "host"]), ["host-binary"])
        XCTAssertEqual(try complete(["wallet-bridge", "call", "--host-path", "ho"]), ["host-binary"])
        XCTAssertEqual(
            try complete(["wallet-bridge", "conform", "--host", "ho"]), ["host-binary"],
            "the option's second name completes too")
        XCTAssertEqual(try complete(["wallet-bridge", "conform", "--format", ""]), ["plain", "tap"])
    }

    func testZshAndFishNameTheBrowsersToo() throws {
        for shell in ["zsh", "fish"] {
            let text = try script(shell)
            XCTAssertTrue(text.contains("chrome-beta") && text.contains("librewolf"), shell)
        }
    }

    func testHelpGivesEveryOptionARealValueName() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.walletBridge("call", "--help")
        XCTAssertTrue(help.stdout.contains("--as <family>"), help.stdout)
        XCTAssertFalse(help.stdout.contains("<as>"), help.stdout)
        for name in ["--repeat <n>", "--concurrency <n>", "--timeout <seconds>"] {
            XCTAssertTrue(help.stdout.contains(name), "\(name): \(help.stdout)")
        }
    }
}
