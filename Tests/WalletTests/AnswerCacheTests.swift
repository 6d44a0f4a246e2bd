#if canImport(Glibc)
import Glibc
#endif
import WalletBridge
@testable import WalletBridgeWallet
import XCTest

/// A GetAccounts answer kept for the next process: given back only while every file it was
/// worked out from is as it was, and never kept when it could not be told apart from the next.
final class AnswerCacheTests: XCTestCase {
    private var folder = ""
    private var input = ""
    private let key = ["wallet-bridge test", "/usr/bin/wallet-bridge", "arguments", "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]
    private let answer = GetAccountsResult(addresses: ["iojj3XQJ8ZX9UtstPLpdcspnCb8dlBIb83SIAbQPb1w=", "gTl3Dqh9F19Wo1Rmw0x+zMuNipG07jeiXfYPW4/Js5Q="])
    /// A clock far enough ahead that every file here counts as settled (`FileStamp.isSettled`).
    private let later: @Sendable () -> Int64 = { Int64(time(nil)) + 60 }

    override func setUpWithError() throws {
        folder = temporaryFolder(self)
        mkdir("\(folder)/keys", 0o700)
        input = "\(folder)/keys/keystore.json"
        writeBytes(Array("version one".utf8), input)
    }

    private var cache: AnswerCache { AnswerCache(folder: folder, key: key) }

    /// Records `result` the way a host does: stamps first, then the answer.
    private func keep(_ result: GetAccountsResult? = nil, inputs: [String]? = nil, until: Int? = nil, now: (@Sendable () -> Int64)? = nil,
                      between: () -> Void = {}) {
        let recorder = AnswerCache.Recorder(cache, now: now ?? later) { true }
        recorder.stamp(inputs ?? [input, "\(folder)/keys", "\(folder)/keys/keystore.sessions.json"])
        between()
        recorder.record(result ?? answer, until: until)
    }

    private func kept(now: Int64 = Int64(time(nil))) -> [String]? { cache.accounts(now: now)?.addresses }

    func testAnAnswerIsGivenBackWhileNothingChanged() {
        XCTAssertNil(kept(), "nothing kept yet")
        keep()
        XCTAssertEqual(kept(), answer.addresses)
        XCTAssertEqual(kept(), answer.addresses, "reading changes nothing")
        XCTAssertEqual(fileMode(cache.path), 0o600)
    }

    func testAnEmptyListIsKeptToo() {
        keep(GetAccountsResult(addresses: []))
        XCTAssertEqual(kept(), [])
    }

    func testAFileWrittenAgainIsAMiss() {
        keep()
        writeBytes(Array("version two".utf8), input)  // same size, in place
        XCTAssertNil(kept())
    }

    func testAFileRenamedIntoPlaceIsAMiss() throws {
        keep()
        try AtomicFile.replace(input, with: Array("version one".utf8), mode: 0o600)  // same bytes, new inode
        XCTAssertNil(kept())
    }

    func testAChangeOfModeIsAMiss() {
        keep()
        chmod(input, 0o644)
        XCTAssertNil(kept(), "the keystore may now be exposed, which the host warns about")
    }

    func testAFileThatAppearedIsAMiss() {
        keep()
        writeBytes(Array("{}".utf8), "\(folder)/keys/keystore.sessions.json")
        XCTAssertNil(kept())
    }

    func testAFileThatWentAwayIsAMiss() {
        keep()
        unlink(input)
        XCTAssertNil(kept())
    }

    func testAFolderThatChangedIsAMiss() {
        keep()
        writeBytes([], "\(folder)/keys/other")
        XCTAssertNil(kept(), "a file added beside the keystore changes its folder")
    }

    func testAnInputThatChangedDuringTheWorkIsAMiss() {
        keep(between: { writeBytes(Array("version two".utf8), input) })
        XCTAssertNil(kept(), "the stamp came before the read, so the answer read later is not trusted")
    }

    func testAnInputThatChangedJustBeforeKeepsNothing() {
        keep(now: { Int64(time(nil)) })  // the file was written a moment ago
        XCTAssertNil(kept())
        XCTAssertNotEqual(access(cache.path, F_OK), 0, "nothing was written")
    }

    func testAnInputThatCannotBeLookedAtKeepsNothing() {
        keep(inputs: [input, String(repeating: "x", count: 5000)])  // ENAMETOOLONG: neither there nor missing
        XCTAssertNil(kept())
    }

    func testAWarningKeepsNothing() {
        let recorder = AnswerCache.Recorder(cache, now: later) { true }
        recorder.stamp([input])
        Log.warning("a warning the next process would give again")
        recorder.record(answer, until: nil)
        XCTAssertNil(kept(), "an answer given with a warning must come with it every time")
    }

    func testOnlyTheFirstAnswerOfAProcessIsKept() {
        let recorder = AnswerCache.Recorder(cache, now: later) { true }
        recorder.stamp([input])
        recorder.record(answer, until: nil)
        recorder.record(GetAccountsResult(addresses: []), until: nil)
        XCTAssertEqual(kept(), answer.addresses)
    }

    func testAnAnswerHoldsUntilItsSessionEnds() {
        let until = Int(time(nil)) + 100
        keep(until: until)
        XCTAssertEqual(kept(now: Int64(until) - 1), answer.addresses)
        XCTAssertNil(kept(now: Int64(until)), "the session has ended: the person is asked again")
    }

    func testAnotherKeyIsAMissEvenInTheSameFile() throws {
        keep()
        let other = AnswerCache(folder: folder, key: key.dropLast() + ["chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"])
        XCTAssertNotEqual(other.path, cache.path)
        try AtomicFile.replace(other.path, with: try readBytes(cache.path), mode: 0o600)
        XCTAssertNil(other.accounts(now: Int64(time(nil))), "another extension's answer, whatever the file's name")
    }

    func testADamagedFileIsAMiss() throws {
        keep()
        let good = try readBytes(cache.path)
        for damaged in [Array(good.dropLast()), good + [0x41], Array(good.prefix(40)), [], Array("not a kept answer".utf8)] {
            try AtomicFile.replace(cache.path, with: damaged, mode: 0o600)
            XCTAssertNil(kept(), "\(damaged.count) bytes")
        }
    }

    func testAFileOthersCouldHaveWrittenIsNotTrusted() {
        keep()
        chmod(cache.path, 0o620)
        XCTAssertNil(kept(), "group-writable")
        chmod(cache.path, 0o600)
        XCTAssertEqual(kept(), answer.addresses, "as written again")
    }

    func testAFolderThatCannotBeUsedKeepsNothing() {
        let recorder = AnswerCache.Recorder(cache, now: later) { false }
        recorder.stamp([input])
        recorder.record(answer, until: nil)
        XCTAssertNil(kept())
    }

    func testTheKeyHoldsTheCallerAndTheVariablesThatDecideTheFiles() {
        setenv("WALLET_BRIDGE_ANSWER_CACHE_TEST", "1", 1)
        setenv("XDG_ACTIVATION_TOKEN", "changes-every-launch", 1)
        let logLevel = getenv("WALLET_BRIDGE_LOG").map { String(cString: $0) }
        setenv("WALLET_BRIDGE_LOG", "debug", 1)
        defer {
            unsetenv("WALLET_BRIDGE_ANSWER_CACHE_TEST")
            unsetenv("XDG_ACTIVATION_TOKEN")
            if let logLevel { setenv("WALLET_BRIDGE_LOG", logLevel, 1) } else { unsetenv("WALLET_BRIDGE_LOG") }
        }
        let chrome = Caller(arguments: ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/", "--parent-window=0"])
        let key = AnswerCache.key(caller: chrome)
        XCTAssertTrue(key.contains("chrome-extension://abcdefghijklmnopabcdefghijklmnop/"))
        XCTAssertFalse(key.contains("--parent-window=0"), "only the caller, as the policy names it")
        XCTAssertTrue(key.contains("WALLET_BRIDGE_ANSWER_CACHE_TEST=1"))
        XCTAssertFalse(key.contains { $0.hasPrefix("XDG_ACTIVATION_TOKEN") })
        XCTAssertFalse(key.contains { $0.hasPrefix("WALLET_BRIDGE_LOG") }, "a debug log uses the answer the others use")
        let variables = Array(key.drop { $0 != "environment" }.dropFirst())
        XCTAssertEqual(variables, variables.sorted(), "the variables in one order, whatever the environment's")
        XCTAssertNotEqual(AnswerCache.key(caller: .unidentified), key)
        XCTAssertNotEqual(AnswerCache.key(caller: Caller(arguments: ["/tmp/manifest.json", "wallet@example.org"])), key)
    }
}
