/// What `wallet-bridge new NAME` writes: a Swift package with a host and one method on the
/// WalletBridge library, its fixture file, tests in Swift and JS, an MV3 extension for Chromium
/// and Firefox with a fixed Chromium ID, a script that runs it headless in both browsers, and
/// packaging. The files are kept here, in the binary, so that an installed `wallet-bridge` (with
/// no checkout beside it) writes the same project; `NewProjectTests` generates one and builds and
/// tests it, so a template that stops building fails there.
struct ProjectTemplate: Sendable, Equatable {
    /// The project's name: lowercase words joined by `-` (`notes`, `my-notes`).
    var name: String
    /// The native-messaging host name the manifests carry.
    var hostName: String
    /// The Firefox add-on ID (`browser_specific_settings.gecko.id`).
    var firefoxAddon: String
    /// The wallet-bridge checkout the package depends on by path, and whose `js/` and scripts it uses.
    var bridge: String
    /// The Chromium manifest's `key`: base64 of the DER SubjectPublicKeyInfo.
    var chromeKey: String
    /// The ID Chromium derives from `chromeKey`.
    var chromeID: String
    /// The year in the copyright file.
    var year: Int

    struct File: Sendable, Equatable {
        var path: String
        var contents: String
        var executable = false
        /// A symbolic link to `contents` instead of a file.
        var link = false
    }

    /// Lowercase letters and digits, words joined by single `-`, starting with a letter, at most
    /// 40 characters: a folder, a Swift package, an executable (`NAME-host`) and a JSON-RPC
    /// method prefix all accept it. Nil when `name` is one; else why not.
    static func nameProblem(_ name: String) -> String? {
        let example =
            "lowercase letters and digits, words joined by \"-\", starting with a letter (e.g. notes or my-notes)"
        if name.isEmpty { return "the project name is empty: \(example)" }
        if name.utf8.count > 40 { return "\(JSONText.quoted(name)) is longer than 40 characters" }
        let words = name.split(separator: "-", omittingEmptySubsequences: false)
        let valid =
            words.allSatisfy { word in
                !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            } && name.unicodeScalars.first.map { ("a"..."z").contains($0) } == true
        return valid ? nil : "\(JSONText.quoted(name)) is not a project name: \(example)"
    }

    /// `my-notes` -> `MyNotes`.
    var typeName: String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `my-notes` -> `myNotes`.
    var camelName: String { typeName.prefix(1).lowercased() + typeName.dropFirst() }

    var moduleName: String { typeName + "Methods" }
    var executable: String { name + "-host" }
    var methodName: String { name + ".hello" }
    static let version = "0.1.0"

    /// The default host name for `name`: `com.example.` and the name with `_` for `-`.
    static func defaultHostName(for name: String) -> String {
        "com.example." + name.replacing("-", with: "_")
    }

    static func defaultFirefoxAddon(for name: String) -> String { name + "@example.org" }

    /// `text` as a Swift string literal, quotes included: whatever the checkout's path holds
    /// (quotes, backslashes, `\(`, control characters) stays text.
    static func swiftStringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                literal += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    var files: [File] {
        let values: [(String, String)] = [
            ("@NAME@", name), ("@TYPE@", typeName), ("@CAMEL@", camelName), ("@MODULE@", moduleName),
            ("@EXECUTABLE@", executable), ("@METHOD@", methodName), ("@HOST@", hostName),
            ("@FIREFOX_ADDON@", firefoxAddon), ("@BRIDGE_SWIFT@", Self.swiftStringLiteral(bridge)),
            ("@BRIDGE_SH@", Shell.quoted(bridge)), ("@KEY@", chromeKey),
            ("@CHROME_ID@", chromeID), ("@VERSION@", Self.version), ("@YEAR@", String(year)),
        ]
        func fill(_ text: String) -> String {
            values.reduce(text) { $0.replacing($1.0, with: $1.1) }
        }
        return [
            File(path: "Package.swift", contents: fill(Self.packageSwift)),
            File(path: "Sources/\(moduleName)/Methods.swift", contents: fill(Self.methodsSwift)),
            File(path: "Sources/\(executable)/main.swift", contents: fill(Self.mainSwift)),
            File(path: "Fixtures/\(name).json", contents: fill(Self.fixtures)),
            File(path: "Tests/\(typeName)HostTests/FixtureTests.swift", contents: fill(Self.testsSwift)),
            File(path: "package.json", contents: fill(Self.packageJSON)),
            File(path: "test/\(name).test.js", contents: fill(Self.testJS)),
            File(path: "extension/\(name).js", contents: fill(Self.clientJS)),
            File(path: "extension/background.js", contents: fill(Self.backgroundJS)),
            File(path: "extension/manifest.chromium.json", contents: fill(Self.chromiumManifest)),
            File(path: "extension/manifest.firefox.json", contents: fill(Self.firefoxManifest)),
            // The JS package, from the checkout: the extension loads it as its own files, and
            // the JS tests import its runner from the same place. This machine's link, not
            // committed: scripts/settings.sh makes it again from WALLET_BRIDGE_DIR.
            File(path: "extension/wallet-bridge", contents: Path.join(bridge, "js/src"), link: true),
            File(path: "scripts/settings.sh", contents: fill(Self.settingsSh)),
            File(path: "scripts/build-extension.sh", contents: fill(Self.buildExtensionSh), executable: true),
            File(path: "scripts/headless.sh", contents: fill(Self.headlessSh), executable: true),
            File(path: "scripts/headless.py", contents: fill(Self.headlessPy), executable: true),
            File(path: "test/headless.json", contents: fill(Self.headlessExpected)),
            File(path: "scripts/check-version.sh", contents: fill(Self.checkVersionSh), executable: true),
            File(path: "scripts/package-deb.sh", contents: fill(Self.packageDebSh), executable: true),
            File(path: "packaging/copyright", contents: fill(Self.copyright)),
            File(path: "packaging/\(executable).1", contents: fill(Self.manPage)),
            File(path: "README.md", contents: fill(Self.readme)),
            File(path: ".gitignore", contents: fill(Self.gitignore)),
        ]
    }
}

// MARK: - The files

extension ProjectTemplate {
    static let packageSwift = #"""
        // swift-tools-version:6.1
        import PackageDescription

        // @EXECUTABLE@: a native-messaging host built on wallet-bridge's library (written by
        // `wallet-bridge new @NAME@`). `swift build`, then `swift test`; README.md says the rest.
        let package = Package(
            name: "@NAME@",
            dependencies: [
                // A wallet-bridge checkout, by path. From a published copy instead:
                // .package(url: "https://…/wallet-bridge.git", from: "0.1.0")
                .package(name: "wallet-bridge", path: @BRIDGE_SWIFT@),
            ],
            targets: [
                // The methods and the router that serves them: what the host runs, and what the
                // tests run in process.
                .target(name: "@MODULE@", dependencies: [.product(name: "WalletBridge", package: "wallet-bridge")]),
                .executableTarget(
                    name: "@EXECUTABLE@",
                    dependencies: ["@MODULE@", .product(name: "WalletBridge", package: "wallet-bridge")]
                ),
                // Fixtures/@NAME@.json against the built host over real pipes, and in process.
                .testTarget(
                    name: "@TYPE@HostTests",
                    dependencies: ["@MODULE@", .product(name: "WalletBridgeTesting", package: "wallet-bridge")]
                ),
            ]
        )

        """#

    static let methodsSwift = #"""
        import WalletBridge

        /// The host's version, the project's one source of it: `--version` prints it,
        /// `rpc.discover` (and `wallet-bridge describe`) names it, and scripts/package-deb.sh takes
        /// it from the built host. package.json and the extension's manifests carry it too:
        /// scripts/check-version.sh (which the package script runs) refuses them when they differ.
        public let hostVersion = "@VERSION@"

        /// The method, as a type: its wire name, its parameters and its result. The extension's
        /// side (extension/@NAME@.js) uses the same name and the same two shapes.
        public enum Hello: RPCMethod {
            public static let name = "@METHOD@"
            public static let summary: String? = "Greets the caller by name."
            /// The method's own error: declared so that `rpc.discover` lists it and the generated
            /// TypeScript and the fixture checks know it. Codes from -32099 to -32000 are the
            /// host's own in JSON-RPC; wallet-bridge's own use some, so pick from -32050 up.
            public static let emptyName = RPCError(code: -32050, message: "Empty name", data: ["field": "name"])
            public static let errors = [emptyName]

            public struct Params: Codable, Sendable {
                public var name: String
            }

            public struct Result: Codable, Sendable {
                public var greeting: String
            }
        }

        /// The host's router. The executable serves it over stdio; the tests also serve it in process.
        /// Throws only on a programmer error (the same name registered twice, or an `rpc.` name).
        public func makeRouter() throws -> Router {
            var router = Router()
            router.info = OpenRPC.Info(title: "@EXECUTABLE@", version: hostVersion)
            try router.register(Hello.self) { params, context in
                guard !params.name.isEmpty else { throw Hello.emptyName }
                return Hello.Result(greeting: "Hello, \(params.name), from \(context.caller)")
            }
            return router
        }

        """#

    static let mainSwift = #"""
        #if canImport(Glibc)
        import Glibc
        #endif
        import @MODULE@
        import WalletBridge

        // First, before anything slow: the browser that started the host, whose death must end it.
        let parent = getppid()
        let router = try makeRouter()
        // Reads frames from stdin and answers on stdout until the browser closes the port.
        StdioHost.run(router: router, arguments: Array(CommandLine.arguments.dropFirst()), parent: parent)

        """#

    static let testsSwift = #"""
        import @MODULE@
        import Testing
        import WalletBridgeTesting
        import XCTest

        // Fixtures/@NAME@.json, the cases the extension's side (test/@NAME@.test.js) checks too:
        // against the built @EXECUTABLE@ over real pipes, and against its router in process.

        final class FixtureTests: XCTestCase {
            func testFixturesAgainstTheBuiltHost() throws {
                try XCTAssertFixtures("../../Fixtures/@NAME@.json", host: .executable("@EXECUTABLE@"))
            }

            func testFixturesInProcess() throws {
                try XCTAssertFixtures("../../Fixtures/@NAME@.json", host: .router(makeRouter()))
            }
        }

        @Test func fixturesAgainstTheBuiltHost() async throws {
            try await expectFixtures("../../Fixtures/@NAME@.json", host: .executable("@EXECUTABLE@"))
        }

        """#

    static let fixtures = #"""
        {
          "description": "@EXECUTABLE@'s method (Sources/@MODULE@/Methods.swift), as the extension's side (extension/@NAME@.js) sends it. docs/fixtures.md in wallet-bridge has the format.",
          "cases": [
            {
              "name": "hello-from-chromium",
              "rule": "the greeting names the caller: the extension's origin, with its fixed ID",
              "args": ["chrome-extension://@CHROME_ID@/"],
              "request": {"jsonrpc": "2.0", "method": "@METHOD@", "params": {"name": "Ada"}, "id": 1},
              "response": {"jsonrpc": "2.0", "id": 1, "result": {"greeting": "Hello, Ada, from chrome-extension://@CHROME_ID@/"}}
            },
            {
              "name": "hello-from-firefox",
              "rule": "Firefox starts the host with its manifest's path and the add-on ID",
              "args": ["/usr/lib/mozilla/native-messaging-hosts/@HOST@.json", "@FIREFOX_ADDON@"],
              "request": {"jsonrpc": "2.0", "method": "@METHOD@", "params": {"name": "Ada"}, "id": 2},
              "response": {"jsonrpc": "2.0", "id": 2, "result": {"greeting": "Hello, Ada, from @FIREFOX_ADDON@"}}
            },
            {
              "name": "hello-empty-name",
              "rule": "the method's own error, -32050, with data naming the field",
              "args": ["chrome-extension://@CHROME_ID@/"],
              "request": {"jsonrpc": "2.0", "method": "@METHOD@", "params": {"name": ""}, "id": 3},
              "response": {"jsonrpc": "2.0", "id": 3, "error": {"code": -32050, "message": "Empty name", "data": {"field": "name"}}}
            },
            {
              "name": "hello-missing-name",
              "rule": "a missing member is -32602 naming it",
              "args": ["chrome-extension://@CHROME_ID@/"],
              "request": {"jsonrpc": "2.0", "method": "@METHOD@", "params": {}, "id": 4},
              "response": {"jsonrpc": "2.0", "id": 4, "error": {"code": -32602, "message": "Invalid params", "data": {"field": "name", "problem": "required field is missing"}}}
            }
          ]
        }

        """#

    static let packageJSON = #"""
        {
          "name": "@NAME@",
          "version": "@VERSION@",
          "private": true,
          "type": "module",
          "scripts": {
            "test": "node --test test/"
          }
        }

        """#

    static let testJS = #"""
        // extension/@NAME@.js against Fixtures/@NAME@.json, the file the Swift tests run against
        // the host too: what it sends must be the fixture's request, and what it makes of the
        // fixture's response must be its result or its error. `node --test test/` (no host needed).
        import { runFixtureFile } from '../extension/wallet-bridge/testing.js';
        import { sendHello } from '../extension/@NAME@.js';

        runFixtureFile(new URL('../Fixtures/@NAME@.json', import.meta.url), {
          methods: {
            '@METHOD@': (params, client) => sendHello(params, client),
          },
        });

        """#

    static let clientJS = #"""
        // The extension's side of @METHOD@: the same name and shapes as Sources/@MODULE@/Methods.swift.
        import { NativeProtocolError, sendNativeRpcRequest } from './wallet-bridge/index.js';

        // The two shapes, by hand, so that this file stands before the host is built. Once
        // extension/@NAME@-methods.d.ts is generated from the host (wallet-bridge's
        // docs/your-own-host.md, step 4), it declares them from the Swift types: import its
        // `…Params` and `…Result` types here instead, and they follow the host.
        /** @typedef {{ name: string }} HelloParams */
        /** @typedef {{ greeting: string }} HelloResult */

        /** @type {import('./wallet-bridge/index.js').NativeMethod<'@METHOD@', HelloParams, HelloResult>} */
        export const HELLO_METHOD = '@METHOD@';

        /** The method's own error code (Hello.emptyName). */
        export const EMPTY_NAME = -32050;

        /**
         * Sends @METHOD@ and checks the result's shape before trusting it. The params go out as
         * given: the host checks them, and answers a wrong one with -32602 naming the field.
         * @param {HelloParams} params
         * @param {import('./wallet-bridge/index.js').NativeClient} [client] left out: the default
         *   client (configureNativeClient sets it)
         * @returns {Promise<HelloResult>}
         */
        export async function sendHello(params, client) {
          const request = { method: HELLO_METHOD, params };
          const result = await (client ? client.request(request) : sendNativeRpcRequest(request));
          if (typeof result?.greeting !== 'string') {
            throw new NativeProtocolError({ kind: 'invalid-result', message: `${HELLO_METHOD} returned no greeting`, response: result, method: HELLO_METHOD });
          }
          return result;
        }

        """#

    static let backgroundJS = #"""
        // The extension's background (a service worker in Chromium, an event page in Firefox):
        // calls the host once at start and logs what it answered.
        import { configureNativeClient } from './wallet-bridge/index.js';
        import { sendHello } from './@NAME@.js';

        const HOST = '@HOST@';
        // Only scripts/headless.py installs this host: it hears the outcome, so the headless run
        // can check it. Anywhere else the report fails quietly.
        const REPORT_HOST = '@HOST@.report';
        const runtime = (globalThis.browser ?? globalThis.chrome).runtime;

        configureNativeClient({ application: HOST });

        async function start() {
          let outcome;
          try {
            outcome = { ok: true, result: await sendHello({ name: 'extension' }) };
          } catch (error) {
            outcome = { ok: false, error: { class: error?.constructor?.name, code: error?.code, message: String(error?.message ?? error) } };
          }
          console.log('@METHOD@', outcome);
          try {
            await runtime.sendNativeMessage(REPORT_HOST, outcome);
          } catch {
            // No report host: not a headless run.
          }
        }

        start();

        """#

    static let chromiumManifest = #"""
        {
          "manifest_version": 3,
          "name": "@NAME@",
          "version": "@VERSION@",
          "description": "Talks to the @EXECUTABLE@ native host.",
          "key": "@KEY@",
          "permissions": ["nativeMessaging"],
          "background": { "service_worker": "background.js", "type": "module" }
        }

        """#

    static let firefoxManifest = #"""
        {
          "manifest_version": 3,
          "name": "@NAME@",
          "version": "@VERSION@",
          "description": "Talks to the @EXECUTABLE@ native host.",
          "browser_specific_settings": { "gecko": { "id": "@FIREFOX_ADDON@", "strict_min_version": "115.0" } },
          "permissions": ["nativeMessaging"],
          "background": { "scripts": ["background.js"], "type": "module" }
        }

        """#

    static let settingsSh = #"""
        # The project's names and IDs, in one place for the scripts (sourced, not run: every script
        # sources it). WALLET_BRIDGE_DIR: the wallet-bridge checkout (Package.swift names the same
        # one); set it to yours in a clone made on another machine.
        if [ -z "${WALLET_BRIDGE_DIR:-}" ]; then WALLET_BRIDGE_DIR=@BRIDGE_SH@; fi
        HOST_NAME=@HOST@
        HOST_BINARY_NAME=@EXECUTABLE@
        # The manifests' description and the package's one-line summary (at most 80 characters).
        HOST_DESCRIPTION="native host of the @NAME@ extension"
        # No version here: the host's is hostVersion in Sources/@MODULE@/Methods.swift.
        # From extension/manifest.chromium.json's "key"; the private key is chromium-key.pem.
        CHROME_EXTENSION_ID=@CHROME_ID@
        FIREFOX_ADDON_ID=@FIREFOX_ADDON@
        # The package's maintainer: "Full Name <email>". Export MAINTAINER, or write yours here.
        MAINTAINER=${MAINTAINER:-"@NAME@ developers <@NAME@@example.org>"}

        # extension/wallet-bridge, the link to the JS package of WALLET_BRIDGE_DIR (the extension's
        # imports and test/ go through it): made or re-pointed here, as it is not committed. A
        # folder you put there yourself is left alone.
        if [ -d "$WALLET_BRIDGE_DIR/js/src" ]; then
          WALLET_BRIDGE_DIR=$(cd "$WALLET_BRIDGE_DIR" && pwd)
          _project_link="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)/extension/wallet-bridge"
          if [ -L "$_project_link" ] || [ ! -e "$_project_link" ]; then
            if [ "$(readlink "$_project_link" || true)" != "$WALLET_BRIDGE_DIR/js/src" ]; then
              ln -sfn "$WALLET_BRIDGE_DIR/js/src" "$_project_link"
            fi
          fi
          unset _project_link
        else
          echo "scripts/settings.sh: no wallet-bridge JS package in $WALLET_BRIDGE_DIR/js/src: set WALLET_BRIDGE_DIR to a wallet-bridge checkout" >&2
        fi

        """#

    static let buildExtensionSh = #"""
        #!/usr/bin/env bash
        # Assembles the extension for one browser into OUT_DIR (default: .build/extension-BROWSER):
        # its manifest, its scripts, and the wallet-bridge JS modules it loads (copied from
        # WALLET_BRIDGE_DIR: an extension loads only its own files). OUT_DIR is replaced on every
        # run, so a folder that holds the project, lies in extension/ or in the JS package, or was
        # not written by this script is refused (wallet-bridge's scripts/extension-build-lib.sh).
        #   scripts/build-extension.sh chromium|firefox [OUT_DIR]
        set -euo pipefail
        usage="usage: scripts/build-extension.sh chromium|firefox [OUT_DIR]"
        browser=${1:?$usage}
        [ $# -le 2 ] || { echo "$usage" >&2; exit 2; }
        case "$browser" in chromium|firefox) ;; *) echo "unknown browser: $browser (chromium or firefox)" >&2; exit 2 ;; esac
        root=$(cd "$(dirname "$0")/.." && pwd)
        source "$root/scripts/settings.sh"
        source "$WALLET_BRIDGE_DIR/scripts/extension-build-lib.sh"
        out=${2:-$root/.build/extension-$browser}
        extension_output_prepare build-extension.sh "$out" "$root" "$root/extension" "$WALLET_BRIDGE_DIR/js/src"
        for entry in "$root"/extension/*; do
          case "${entry##*/}" in manifest.*.json|wallet-bridge) ;; *) cp -R "$entry" "$out/" ;; esac
        done
        cp "$root/extension/manifest.$browser.json" "$out/manifest.json"
        extension_copy_js_runtime "$WALLET_BRIDGE_DIR/js/src" "$out/wallet-bridge"

        """#

    static let headlessSh = #"""
        #!/usr/bin/env bash
        # Runs the extension in headless Chromium and Firefox ESR against the built host, each in
        # a scratch HOME (and XDG folders: nothing of yours is written), and checks what each one
        # reported against test/headless.json (the greeting names the caller, so a wrong Chromium
        # ID fails too).
        #   scripts/headless.sh [chromium] [firefox] [--binary PATH]   (default: both, .build/debug)
        set -euo pipefail
        root=$(cd "$(dirname "$0")/.." && pwd)
        source "$root/scripts/settings.sh"
        export WALLET_BRIDGE_DIR HOST_NAME HOST_BINARY_NAME CHROME_EXTENSION_ID FIREFOX_ADDON_ID
        exec python3 "$root/scripts/headless.py" "$@"

        """#

    static let headlessPy = #"""
        #!/usr/bin/env python3
        """Headless Chromium and Firefox ESR load the extension, which calls the host and reports the
        outcome to a small report host (below); this checks it. Every wait is bounded. Run through
        scripts/headless.sh, which sets the project's names. How each browser is started, given the
        extension and awaited is wallet-bridge's scripts/headless_browser.py (its own e2e tests
        use it too)."""
        import json, os, shutil, subprocess, sys, tempfile

        sys.path.insert(0, os.path.join(os.environ["WALLET_BRIDGE_DIR"], "scripts"))
        import headless_browser  # noqa: E402

        ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        HOST_NAME = os.environ["HOST_NAME"]
        CHROME_ID = os.environ["CHROME_EXTENSION_ID"]
        FIREFOX_ADDON = os.environ["FIREFOX_ADDON_ID"]
        # What each browser's background.js must report: change it when you change background.js.
        EXPECTED = os.path.join(ROOT, "test", "headless.json")
        REPORT_TIMEOUT_S = 60
        REPORT_HOST = '''#!/usr/bin/env python3
        import os, struct, sys
        size = struct.unpack("=I", sys.stdin.buffer.read(4))[0]
        body = sys.stdin.buffer.read(size)
        with open(os.environ["HEADLESS_REPORT"], "ab") as out:
            out.write(body + b"\\n")
        sys.stdout.buffer.write(struct.pack("=I", 2) + b"{}")
        sys.stdout.buffer.flush()
        '''


        def wallet_bridge():
            return os.environ.get("WALLET_BRIDGE") or shutil.which("wallet-bridge") or sys.exit(
                "wallet-bridge is not on PATH: set WALLET_BRIDGE to the binary (README.md)")


        def run_browser(browser, binary, scratch):
            # A scratch user: HOME and every XDG folder (cache and runtime folder included).
            env = headless_browser.scratch_env(os.environ, scratch, HEADLESS_REPORT=os.path.join(scratch, "report.jsonl"))
            home = env["HOME"]
            # The host, installed per user as a user would; Chromium runs on its default profile
            # folder, where that install writes.
            if browser == "chromium":
                ids = ["--chrome-extension", CHROME_ID]
                manifests = os.path.join(env["XDG_CONFIG_HOME"], "chromium", "NativeMessagingHosts")
            else:
                ids = ["--firefox-addon", FIREFOX_ADDON]
                manifests = os.path.join(home, ".mozilla", "native-messaging-hosts")
            subprocess.run([wallet_bridge(), "install", "--name", HOST_NAME, "--binary", binary,
                            "--browser", browser, *ids], env=env, check=True, stdout=subprocess.DEVNULL)
            report_host = os.path.join(scratch, "report-host.py")
            with open(report_host, "w") as out:
                out.write(REPORT_HOST)
            os.chmod(report_host, 0o755)
            allowed = ({"allowed_origins": [f"chrome-extension://{CHROME_ID}/"]} if browser == "chromium"
                       else {"allowed_extensions": [FIREFOX_ADDON]})
            with open(os.path.join(manifests, HOST_NAME + ".report.json"), "w") as out:
                json.dump({"name": HOST_NAME + ".report", "description": "headless report", "path": report_host,
                           "type": "stdio", **allowed}, out)

            extension = os.path.join(scratch, "extension")
            subprocess.run([os.path.join(ROOT, "scripts", "build-extension.sh"), browser, extension], check=True)
            profile = (os.path.join(env["XDG_CONFIG_HOME"], "chromium") if browser == "chromium"
                       else os.path.join(scratch, "profile"))
            command = headless_browser.command(browser, extension, profile, FIREFOX_ADDON)
            with open(os.path.join(scratch, "browser.log"), "w") as log:
                process = headless_browser.start(command, env, log)
            try:
                return headless_browser.wait_for_report(process, env["HEADLESS_REPORT"], REPORT_TIMEOUT_S, browser)
            finally:
                headless_browser.quit_browsers({browser: process}, 20)


        def main():
            args = sys.argv[1:]
            binary = os.path.join(ROOT, ".build", "debug", os.environ["HOST_BINARY_NAME"])
            if "--binary" in args:
                index = args.index("--binary")
                binary = os.path.abspath(args[index + 1])
                del args[index:index + 2]
            browsers = args or ["chromium", "firefox"]
            for browser in browsers:
                if browser not in ("chromium", "firefox"):
                    sys.exit(f"unknown browser: {browser} (chromium or firefox)")
            if not os.access(binary, os.X_OK):
                sys.exit(f"no host at {binary}: run swift build first, or name one with --binary")
            with open(EXPECTED) as file:
                expectations = json.load(file)
            failed = False
            for browser in browsers:
                scratch = tempfile.mkdtemp(prefix=f"headless-{browser}-")
                expected = expectations[browser]
                try:
                    outcome = run_browser(browser, binary, scratch)
                except (headless_browser.Failure, subprocess.CalledProcessError) as error:
                    outcome = {"failure": str(error)}
                if outcome == expected:
                    print(f"{browser}: ok, {json.dumps(outcome)}")
                    shutil.rmtree(scratch, ignore_errors=True)
                else:
                    failed = True
                    print(f"{browser}: FAILED, got {json.dumps(outcome)}; expected {json.dumps(expected)}"
                          f" (test/headless.json; browser log: {scratch}/browser.log)", file=sys.stderr)
            sys.exit(1 if failed else 0)


        if __name__ == "__main__":
            main()

        """#

    static let headlessExpected = #"""
        {
          "description": "What extension/background.js reports from each browser to scripts/headless.sh, which compares it exactly: change it when you change background.js.",
          "chromium": {"ok": true, "result": {"greeting": "Hello, extension, from chrome-extension://@CHROME_ID@/"}},
          "firefox": {"ok": true, "result": {"greeting": "Hello, extension, from @FIREFOX_ADDON@"}}
        }

        """#

    static let checkVersionSh = #"""
        #!/usr/bin/env bash
        # The host's version is hostVersion in Sources/@MODULE@/Methods.swift (the built host prints
        # it for --version, and the package takes it from there). package.json and the extension's
        # manifests carry a version too: this refuses them when they say another. The package
        # script runs it; so can you, after changing hostVersion.
        #   scripts/check-version.sh VERSION
        set -euo pipefail
        [ $# -eq 1 ] && [ -n "$1" ] || { echo "usage: scripts/check-version.sh VERSION" >&2; exit 2; }
        version=$1
        root=$(cd "$(dirname "$0")/.." && pwd)
        mismatches=()
        for file in package.json extension/manifest.chromium.json extension/manifest.firefox.json; do
          found=$(sed -nE 's/^[[:space:]]*"version"[[:space:]]*:[[:space:]]*"([^"]*)".*/\1/p' "$root/$file" | head -1)
          [ "$found" = "$version" ] || mismatches+=("$file says ${found:-no version}")
        done
        if [ ${#mismatches[@]} -gt 0 ]; then
          echo "check-version.sh: the host is version $version (hostVersion in Sources/@MODULE@/Methods.swift), but:" >&2
          printf '  %s\n' "${mismatches[@]}" >&2
          echo "write $version as their \"version\" (an extension's version is 1 to 4 numbers joined by dots)" >&2
          exit 1
        fi

        """#

    static let packageDebSh = #"""
        #!/usr/bin/env bash
        # Builds the Debian package of the host: a release build with Swift's libraries linked in
        # (it runs without the toolchain), then wallet-bridge's package builder with this project's
        # names, description, extension IDs, maintainer (MAINTAINER, scripts/settings.sh) and
        # packaging/copyright (Debian's machine-readable format: say your licence there). The
        # version is the built host's `--version` (hostVersion in Methods.swift); the other files
        # that carry it must agree (scripts/check-version.sh). Prints the package's path on stdout.
        #   scripts/package-deb.sh [--output DIR]   (default: .build/deb)
        set -euo pipefail
        root=$(cd "$(dirname "$0")/.." && pwd)
        source "$root/scripts/settings.sh"
        output=$root/.build/deb
        case "$#:${1:-}" in
          0:) ;;
          2:--output) output=$2 ;;
          *) echo "usage: scripts/package-deb.sh [--output DIR]" >&2; exit 2 ;;
        esac
        [ -n "$output" ] || { echo "package-deb.sh: --output needs a folder" >&2; exit 2; }
        case $output in /*) ;; *) output=$PWD/$output ;; esac   # the caller's folder, not the project's
        cd "$root"
        swift build -c release --static-swift-stdlib --product "$HOST_BINARY_NAME" >&2
        binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/$HOST_BINARY_NAME"
        version=$(timeout 10 "$binary" --version </dev/null | head -1)
        [ -n "$version" ] || { echo "package-deb.sh: $binary --version printed nothing" >&2; exit 1; }
        "$root/scripts/check-version.sh" "$version"
        exec "$WALLET_BRIDGE_DIR/scripts/package-deb.sh" \
          --binary "$binary" --name "$HOST_NAME" --description "$HOST_DESCRIPTION" --summary "$HOST_DESCRIPTION" \
          --copyright "$root/packaging/copyright" --maintainer "$MAINTAINER" \
          --man-page "$root/packaging/$HOST_BINARY_NAME.1" \
          --chrome-extension "$CHROME_EXTENSION_ID" --firefox-addon "$FIREFOX_ADDON_ID" \
          --output "$output"

        """#

    static let readme = #"""
        # @NAME@

        A native-messaging host, `@EXECUTABLE@`, with one method (`@METHOD@`), and an extension for
        Chromium and Firefox that calls it. Written by `wallet-bridge new @NAME@`; wallet-bridge's
        docs/your-own-host.md walks through every step below.

        | what | where |
        |---|---|
        | the method and the router | `Sources/@MODULE@/Methods.swift` |
        | the host's `main` | `Sources/@EXECUTABLE@/main.swift` |
        | requests and the replies they must get | `Fixtures/@NAME@.json` |
        | the Swift tests (the fixtures, over pipes and in process) | `Tests/@TYPE@HostTests/` |
        | the extension's side of the method, and its test | `extension/@NAME@.js`, `test/@NAME@.test.js` |
        | the extension (one folder, a manifest per browser) | `extension/` |
        | names, IDs, description, maintainer | `scripts/settings.sh` |
        | the version (`package.json` and the extension's manifests must agree: `scripts/check-version.sh`) | `hostVersion` in `Sources/@MODULE@/Methods.swift` |
        | what each browser must report in the headless run | `test/headless.json` |
        | the package's copyright file (your licence) | `packaging/copyright` |

        ```sh
        swift build && swift test          # the host, and the fixtures against it
        node --test test/                  # the extension's side, against the same fixtures
        scripts/headless.sh                # the extension in headless Chromium and Firefox ESR
        scripts/package-deb.sh             # the .deb
        ```

        The Chromium ID, `@CHROME_ID@`, is fixed by the `key` in `extension/manifest.chromium.json`
        (the public half of `chromium-key.pem`, which is not committed: keep it to pack a `.crx`).
        The Firefox add-on ID is `@FIREFOX_ADDON@`. `extension/wallet-bridge` links to the
        wallet-bridge JS package of `WALLET_BRIDGE_DIR` (`scripts/settings.sh`); the link is not
        committed: in a fresh clone, `source scripts/settings.sh` (every script does) makes it,
        from `WALLET_BRIDGE_DIR` when you set it to your checkout.

        """#

    static let copyright = #"""
        Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
        Upstream-Name: @EXECUTABLE@

        Files: *
        Copyright: @YEAR@ the @NAME@ developers
        License: Apache-2.0
         On Debian systems, the full text of the Apache License 2.0 is in
         /usr/share/common-licenses/Apache-2.0.
        Comment: The licence wallet-bridge itself has, written by `wallet-bridge new`: name yours.

        """#

    static let manPage = #"""
        .TH @EXECUTABLE@ 1 "" "@EXECUTABLE@" "User Commands"
        .SH NAME
        @EXECUTABLE@ \- native-messaging host of the @NAME@ browser extension
        .SH SYNOPSIS
        .B @EXECUTABLE@
        [\fB\-\-help\fR | \fB\-\-version\fR]
        .SH DESCRIPTION
        A browser starts
        .B @EXECUTABLE@
        when the @NAME@ extension calls the native host
        .BR @HOST@ ,
        and the host answers JSON\-RPC 2.0 requests over its standard input and output.
        .B \-\-help
        names its methods, and
        .B rpc.discover
        describes them.
        .SH OPTIONS
        .TP
        .B \-\-help
        Print the host's name and methods, and exit.
        .TP
        .B \-\-version
        Print the host's version, and exit.
        .SH FILES
        The host's manifests, which allow the extension's IDs: in
        .I /usr/lib/mozilla/native\-messaging\-hosts/
        for Firefox, and in
        .I /etc/chromium/native\-messaging\-hosts/
        and the other Chromium\-family folders.

        """#

    static let gitignore = #"""
        .build/
        # The private half of the Chromium key: the manifest's "key" alone fixes the ID.
        chromium-key.pem
        # This machine's link into its wallet-bridge checkout (scripts/settings.sh makes it).
        /extension/wallet-bridge

        """#
}
