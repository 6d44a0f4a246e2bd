import WalletBridgeWallet
import XCTest
import WalletBridgeConsent

final class AssuanTests: XCTestCase {
    private func classify(_ line: String) -> Assuan.Response {
        Array(line.utf8).withUnsafeBytes { Assuan.classify($0) }
    }

    func testClassifiesServerLines() {
        XCTAssertEqual(classify("OK Pleased to meet you"), .ok("Pleased to meet you"))
        XCTAssertEqual(classify("OK"), .ok(""))
        XCTAssertEqual(
            classify("ERR 83886179 Operation cancelled <Pinentry>"),
            .error(code: 83_886_179, message: "Operation cancelled <Pinentry>"))
        XCTAssertEqual(classify("D abc"), .data)
        XCTAssertEqual(classify("S ERROR curses.isatty 83918950 "), .status("ERROR curses.isatty 83918950 "))
        XCTAssertEqual(classify("INQUIRE QUALITY abc"), .inquire("QUALITY abc"))
        XCTAssertEqual(classify("# comment"), .comment)
        XCTAssertEqual(classify(""), .comment)
        XCTAssertEqual(classify("OKAY"), .unknown)
        XCTAssertEqual(classify("Dabc"), .unknown)
    }

    func testEscapesWhatWouldBreakTheLine() {
        XCTAssertEqual(Assuan.escape("100% sure\nnext\r"), "100%25 sure%0Anext%0D")
        XCTAssertEqual(Assuan.escape("tab\there ü"), "tab%09here ü")
        XCTAssertEqual(Assuan.escape("ends with \\"), "ends with %5C")
        let long = Assuan.escape(String(repeating: "%", count: 1000), maxBytes: 100)
        XCTAssertEqual(long.utf8.count, 99, "never cut inside an escape")
    }

    func testDecodesDataLinesIntoAGivenBuffer() {
        var output = [UInt8](repeating: 0, count: 8)
        let decoded = output.withUnsafeMutableBytes { out in
            Array("a%25b%0Ac".utf8).withUnsafeBytes { Assuan.decodeData($0, into: out, at: 1) }
        }
        XCTAssertEqual(decoded, 6)
        XCTAssertEqual(Array(output[1..<6]), Array("a%b\nc".utf8))
        for bad in ["%4", "%zz", "toolongforthebuffer"] {
            let result = output.withUnsafeMutableBytes { out in
                Array(bad.utf8).withUnsafeBytes { Assuan.decodeData($0, into: out, at: 0) }
            }
            XCTAssertNil(result, bad)
        }
    }
}
