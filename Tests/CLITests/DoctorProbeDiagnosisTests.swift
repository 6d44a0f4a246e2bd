import Foundation
import XCTest

@testable import WalletBridgeCLI
import WalletBridge

/// Hosts that fail in ways the browser reports only vaguely: doctor must say what is wrong.
final class DoctorProbeDiagnosisTests: XCTestCase {
    func sandboxWithHost(_ script: String) throws -> (sandbox: Sandbox, host: String) {
        let sandbox = try Sandbox()
        try sandbox.installBrowser("chromium")
        let host = try sandbox.write(sandbox.base + "/host", script, mode: 0o755)
        let install = try sandbox.walletBridge(
            "install", "--browser", "chromium", "--chrome-extension", TestIDs.chromeID, "--binary", host)
        XCTAssertEqual(install.status, 0, install.output)
        return (sandbox, host)
    }

    func noAnswer(_ sandbox: Sandbox, timeout: String = "20") throws -> DoctorFault {
        let result = try sandbox.walletBridge("doctor", "--json", "--browser", "chromium", "--timeout", timeout)
        XCTAssertEqual(result.status, 1, result.output)
        let report = try JSONDecoder().decode(DoctorReport.self, from: Data(result.stdout.utf8))
        return try XCTUnwrap(
            report.browsers.first?.manifests.first?.faults.first { $0.check == "no-answer" }, result.stdout)
    }

    /// A host script that reads one request, writes it to `asked`, and answers it with `reply`
    /// (whose id must be "doctor"), whatever it was.
    func answering(_ reply: String, asked: String) -> String {
        let length = reply.utf8.count
        let prefix = [length & 0xff, (length >> 8) & 0xff, 0, 0].map { "\\" + String($0, radix: 8) }.joined()
        return """
            #!/bin/sh
            PATH=/usr/bin:/bin  # the sandbox's PATH has only its own programs
            length=$(head -c 4 | od -An -tu1 | awk '{ print $1 + 256 * $2 }')
            head -c "$length" > '\(asked)'
            printf '\(prefix)%s' '\(reply)'
            cat >/dev/null

            """
    }

    /// Doctor asks the wallet's host for its description, never for the accounts (which asks
    /// the person, in the extension's name): a document titled "wallet-bridge" that lists the
    /// wallet's own method is the wallet; one that does not list it is not, whatever its title.
    func testTheWalletIsAskedForItsDocumentAndKnownByItsMethods() throws {
        func document(title: String, methods: [String]) -> String {
            let listed = methods.map { #"{"name":"\#($0)","params":[],"result":{"name":"r","schema":{}}}"# }.joined(
                separator: ",")
            return
                #"{"jsonrpc":"2.0","id":"doctor","result":{"openrpc":"1.2.6","info":{"title":"\#(title)","version":"1"},"methods":[\#(listed)]}}"#
        }
        let (wallet, walletHost) = try sandboxWithHost("#!/bin/sh\n")
        let asked = wallet.base + "/asked"
        try wallet.write(
            walletHost,
            answering(document(title: "wallet-bridge", methods: [NATIVE_GET_ACCOUNTS_METHOD]), asked: asked),
            mode: 0o755)
        let good = try wallet.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(good.status, 0, good.output)
        XCTAssertTrue(good.stdout.contains("answers: rpc.discover -> a result (\"wallet-bridge\")"), good.stdout)
        let request = try XCTUnwrap(wallet.read(asked))
        XCTAssertTrue(request.contains(#""method":"rpc.discover""#), request)
        XCTAssertFalse(request.contains(NATIVE_GET_ACCOUNTS_METHOD), request)

        // Titled like the wallet, without its method: another program.
        try wallet.write(
            walletHost, answering(document(title: "wallet-bridge", methods: ["notes.save"]), asked: asked), mode: 0o755)
        let impostor = try wallet.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(impostor.status, 1, impostor.output)
        XCTAssertTrue(impostor.stdout.contains("[wrong-host]"), impostor.stdout)
        XCTAssertTrue(
            impostor.stdout.contains("does not know \(NATIVE_GET_ACCOUNTS_METHOD): it is not the wallet"),
            impostor.stdout)

        // The wallet's method under another title: not the wallet either.
        try wallet.write(
            walletHost, answering(document(title: "notes", methods: [NATIVE_GET_ACCOUNTS_METHOD]), asked: asked),
            mode: 0o755)
        let other = try wallet.walletBridge("doctor", "--browser", "chromium", "--timeout", "20")
        XCTAssertEqual(other.status, 1, other.output)
        XCTAssertTrue(other.stdout.contains("it is not the wallet"), other.stdout)
    }

    func testAMissingInterpreterIsNamed() throws {
        let (sandbox, _) = try sandboxWithHost("#!/nonexistent/python9 -u\nprint('hi')\n")
        let fault = try noAnswer(sandbox)
        XCTAssertTrue(fault.message.contains("/nonexistent/python9"), fault.message)
        XCTAssertTrue(fault.message.contains("interpreter"), fault.message)
    }

    func testACarriageReturnAfterTheInterpreterIsNamed() throws {
        let (sandbox, _) = try sandboxWithHost("#!/bin/sh\r\nexec sleep 1\r\n")
        let fault = try noAnswer(sandbox)
        XCTAssertTrue(fault.message.contains("\"/bin/sh\\r\""), fault.message)
        XCTAssertTrue(fault.message.contains("carriage return"), fault.message)
    }
}

extension DoctorProbeDiagnosisTests {
    func testOneStrayByteThenSilenceIsShownAndBlamedOnStrayOutput() throws {
        let (sandbox, _) = try sandboxWithHost("#!/bin/sh\nprintf 'x'\nexec /bin/sleep 30\n")
        let fault = try noAnswer(sandbox, timeout: "1")
        XCTAssertTrue(fault.message.contains("\"x\""), fault.message)
        XCTAssertTrue(fault.message.contains("stray output"), fault.message)
        XCTAssertFalse(fault.fix.contains("TTY"), fault.fix)
        XCTAssertTrue(fault.fix.contains("stdout"), fault.fix)
    }

    func testAHeaderWithoutItsBodyShowsTheBytes() throws {
        let (sandbox, _) = try sandboxWithHost("#!/bin/sh\nprintf '\\005\\000\\000\\000{'\nexec /bin/sleep 30\n")
        let fault = try noAnswer(sandbox, timeout: "1")
        XCTAssertTrue(fault.message.contains(#""\x05\x00\x00\x00{""#), fault.message)
        XCTAssertTrue(fault.message.contains("frame of 5 bytes that never came"), fault.message)
    }
}
